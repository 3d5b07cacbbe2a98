// Runs the test group "scaling_2" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("scaling_2");
