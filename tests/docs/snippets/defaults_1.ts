// A ts block of docs/defaults.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../mod.ts";

export default defineConfig({
  output: { keep: 5, keepBytes: 200_000_000 }, // the 5 newest, together at most 200 MB (the newest two always stay)
});
