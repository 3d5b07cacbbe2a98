// Runs the test group "docs_install_examples" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("docs_install_examples");
