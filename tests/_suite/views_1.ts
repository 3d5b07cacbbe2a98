// Runs the test group "views_1" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("views_1");
