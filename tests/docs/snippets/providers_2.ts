// A ts block of docs/providers.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { anthropicProvider, defineConfig } from "../../../mod.ts";

export default defineConfig({
  provider: { name: "anthropic", model: "claude-sonnet-4-5", ttl: "1h" },
  plugins: [
    anthropicProvider({
      models: { "claude-sonnet-4-5": { minCacheTokens: 2048, prices: { input: 3.3 } } },
    }),
  ],
});
