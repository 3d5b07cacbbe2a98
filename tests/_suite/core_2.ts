// Runs the test group "core_2" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("core_2");
