// A ts block of docs/providers.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts";

export default defineConfig({
  files: ["src/**"],
  provider: { name: "anthropic", model: "claude-sonnet-4-5", ttl: "5m" },
});
