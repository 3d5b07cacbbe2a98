// A ts block of docs/views.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts";

export default defineConfig({
  files: [
    "**",
    { path: "notebooks/**", view: "cells", options: { maxOutputLines: 60 } },
    { path: "notebooks/raw.ipynb", view: "full" },
  ],
});
