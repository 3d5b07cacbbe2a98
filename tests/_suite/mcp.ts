// Runs the test group "mcp" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("mcp");
