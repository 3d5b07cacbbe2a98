// Runs the test group "cache_3" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("cache_3");
