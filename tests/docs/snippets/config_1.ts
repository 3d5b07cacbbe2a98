// A ts block of docs/config.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts"; // path or URL to slop's config.ts

export default defineConfig({
  files: ["src/**", { path: "src/big_module.ts", view: "summary" }],
  exclude: ["src/**/*.test.ts"],
  output: { format: "xml" },
});
