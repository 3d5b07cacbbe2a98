// Runs the test group "ordering_2" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("ordering_2");
