// A ts block of docs/task_context.md, copied by tests/docs/_snippets.ts: do not edit.
import { defineConfig } from "../../../mod.ts";

export default defineConfig({
  rank: {
    weights: {
      lexical: 1,
      path: 1,
      graph: 0.25,
      coChange: 0,
      history: 0.1,
      pairs: 0.1,
      pastCommits: 0,
    },
  },
});
