// Runs the test group "budget_knowledge_slices" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("budget_knowledge_slices");
