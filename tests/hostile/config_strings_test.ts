import assert from "node:assert/strict";
import { validateConfig } from "../../pipeline/config.ts";
import { messageFaults } from "./_bad_input.ts";

/**
 * Config strings that slop passes on (to an environment lookup, a provider's API, the cache
 * plan) were checked only for being strings: `provider.apiKeyEnv: "A=B"` failed inside Deno's
 * environment lookup, `provider.ttl: "-5m"` only warned at render time, a `baseUrl` without a
 * scheme failed at the first call. Each bad value is now a config error naming its key path.
 */
const CASES: Record<string, { good: string[]; bad: string[] }> = {
  "provider.ttl": {
    good: ["5m", "1h", "24h", "10m", "7d", "3600s"],
    bad: ["", " ", "-5m", "0m", "5", "m", "5 m", "forever", "5min", "1e3m", "5m\n", "\u202e5m"],
  },
  "provider.apiKeyEnv": {
    good: ["ANTHROPIC_API_KEY", "MY_OPENAI", "_KEY", "k1"],
    bad: ["", "A=B", "1KEY", "MY KEY", "KEY\0", "$KEY", "ключ", "K".repeat(300)],
  },
  "provider.model": {
    good: ["claude-haiku-4-5", "qwen3:8b", "models/gemini-2.5-pro", "gpt-5-mini"],
    bad: ["", "   ", "claude haiku", "a\0b", "m\n", "x".repeat(201)],
  },
  "provider.baseUrl": {
    good: ["https://api.example.com/v1", "http://127.0.0.1:11434/v1", "http://localhost:8080"],
    bad: ["", "api.example.com", "ftp://x.example", "file:///etc/passwd", "https://a b", "/v1"],
  },
};

for (const [path, { good, bad }] of Object.entries(CASES)) {
  const [, key] = path.split(".");
  Deno.test(`"${path}" takes what a provider takes and names its key path for the rest`, () => {
    for (const value of good) {
      assert.deepEqual(validateConfig({ provider: { [key]: value } }), [], JSON.stringify(value));
    }
    for (const value of bad) {
      const problems = validateConfig({ provider: { [key]: value } });
      assert.equal(problems.length, 1, `${JSON.stringify(value)}: ${problems.join(" | ")}`);
      assert.deepEqual(messageFaults(problems[0], [`"${path}"`]), [], problems[0]);
    }
  });
}
