// Runs the test group "providers_personas_llm_report" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("providers_personas_llm_report");
