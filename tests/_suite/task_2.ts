// Runs the test group "task_2" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("task_2");
