// A ts block of docs/providers.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts: a local Ollama server through the OpenAI-compatible API
import { defineConfig } from "../../../config.ts";

export default defineConfig({
  provider: { name: "openai", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3:8b" },
});
