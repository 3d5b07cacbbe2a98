// Runs the test group "ordering_1" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("ordering_1");
