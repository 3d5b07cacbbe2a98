// Runs the test group "secrets_2" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("secrets_2");
