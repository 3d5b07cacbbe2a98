// Runs the test group "action_skills" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("action_skills");
