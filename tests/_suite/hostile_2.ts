// Runs the test group "hostile_2" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("hostile_2");
