// A ts block of docs/defaults.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { anthropicProvider, defineConfig } from "../../../mod.ts";

export default defineConfig({
  provider: { name: "anthropic", model: "claude-sonnet-4-5" },
  plugins: [anthropicProvider({ models: { "claude-sonnet-4-5": { contextWindow: 1_000_000 } } })],
});
