// Runs the test group "secrets_1" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("secrets_1");
