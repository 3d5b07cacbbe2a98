// Runs the test group "hostile_1" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("hostile_1");
