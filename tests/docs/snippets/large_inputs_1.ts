// A ts block of docs/large_inputs.md, copied by tests/docs/_snippets.ts: do not edit.
import { defineConfig, skeletonViewMode } from "../../../mod.ts"; // path or URL to slop's mod.ts

export default defineConfig({
  defaultView: "skeleton",
  files: [
    "src/**",
    // A big module: allow it more work than the default.
    { path: "src/big_module.ts", options: { maxWork: 20_000_000 } },
  ],
  // Every other file's skeleton gets a smaller budget than the default.
  plugins: [skeletonViewMode({ maxWork: 1_000_000 })],
});
