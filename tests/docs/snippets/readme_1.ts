// A ts block of README.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts"; // path or URL to slop's config.ts

export default defineConfig({
  files: ["src/**", { path: "src/big_module.ts", view: "summary" }],
  history: "slop/discussion.jsonl",
});
