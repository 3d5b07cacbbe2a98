// A ts block of docs/large_inputs.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../mod.ts";

export default defineConfig({
  output: { keep: 5, keepBytes: 100_000_000 }, // at most five; only the newest two once past 100 MB
});
