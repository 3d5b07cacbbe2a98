// A ts block of docs/defaults.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { shoutViewMode } from "./plugins/shout.ts";

export default {
  files: ["src/**", { path: "docs/notes.md", view: "shout", options: { marks: 3 } }],
  plugins: [shoutViewMode({ marks: 2 })],
};
