// Runs the test group "scaling_1" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("scaling_1");
