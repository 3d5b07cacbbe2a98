// A ts block of docs/views.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts";

export default defineConfig({
  files: ["src/**", {
    path: "src/store.py",
    view: "masked",
    mask: { "Store.get": "def", "Store": "sig" },
    options: { rest: "hide" },
  }],
});
