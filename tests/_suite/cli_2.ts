// Runs the test group "cli_2" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("cli_2");
