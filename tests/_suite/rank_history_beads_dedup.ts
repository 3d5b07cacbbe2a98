// Runs the test group "rank_history_beads_dedup" of tests/_suite.ts in one worker.
import { runGroup } from "../_suite.ts";

await runGroup("rank_history_beads_dedup");
