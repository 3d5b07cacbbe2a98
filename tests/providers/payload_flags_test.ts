import assert from "node:assert/strict";
import { join } from "node:path";
import { renderPayload } from "../../cli/payload.ts";
import type { AnthropicBody } from "../../plugins/providers/anthropic.ts";
import type { OpenaiBody } from "../../plugins/providers/openai.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, startLlmServer } from "../_llm_server.ts";
import { makeProject, runCli } from "../_helpers.ts";

function configText(inline: Record<string, unknown>): string {
  return `export default ${JSON.stringify(inline, null, 2)};\n`;
}

Deno.test("slop payload --provider renders for that provider but summarizes with the configured one", async () => {
  const server = startLlmServer({ reply: () => "A module that adds numbers." });
  Deno.env.set(LLM_TEST_KEY_ENV, LLM_TEST_KEY);
  try {
    const root = await makeProject({
      "src/calc.py": "def add(a, b):\n    return a + b\n",
      "slop.config.ts": configText({
        files: [{ path: "src/calc.py", view: "llm_summary" }],
        provider: { ...server.provider("openai"), model: "gpt-5-mini" },
      }),
    });
    const config = join(root, "slop.config.ts");
    const stateDir = join(root, ".state");
    const body = await renderPayload({ config, stateDir, provider: "anthropic" }) as AnthropicBody;
    assert.equal(body.model, "claude-haiku-4-5");
    assert.match(JSON.stringify(body.system), /A module that adds numbers\./);
    // The summary came from the configured provider (OpenAI shape), not from Anthropic's API
    // at the OpenAI server's URL.
    assert.deepEqual(server.requests.map((r) => r.api), ["openai"]);

    // The payload for the configured provider reuses the cached summary: no new request.
    const openai = await renderPayload({ config, stateDir }) as OpenaiBody;
    assert.equal(openai.model, "gpt-5-mini");
    assert.equal(server.requests.length, 1);
  } finally {
    Deno.env.delete(LLM_TEST_KEY_ENV);
    await server.close();
  }
});

Deno.test("slop payload --ttl that the model does not offer is a usage error naming the flag", async () => {
  const root = await makeProject({
    "a.txt": "hello\n",
    "slop.config.ts": configText({ files: ["a.txt"] }),
  });
  const config = join(root, "slop.config.ts");
  await assert.rejects(
    () => renderPayload({ config, stateDir: join(root, ".state"), ttl: "7d" }),
    /^Error: Invalid --ttl "7d": "claude-haiku-4-5" offers "5m", "1h"$/,
  );
});

Deno.test("slop payload --persona and --preset apply as in slop build", async () => {
  const root = await makeProject({
    "src/a.py": "def alpha():\n    return 1\n",
    "src/b.py": "def beta():\n    return 2\n",
    "slop.config.ts": configText({
      files: ["src/**"],
      presets: { only_b: { files: ["src/b.py"] } },
      personas: { brief: { strategy: "summarize" } },
    }),
  });
  const config = join(root, "slop.config.ts");
  const stateDir = join(root, ".state");
  const preset = await renderPayload({ config, stateDir, preset: "only_b" }) as AnthropicBody;
  const presetText = JSON.stringify(preset.system);
  assert.match(presetText, /src\/b\.py/);
  assert.doesNotMatch(presetText, /src\/a\.py/);
  const persona = await renderPayload({ config, stateDir, persona: "brief" }) as AnthropicBody;
  assert.match(JSON.stringify(persona.system), /## Files \(Summary\)/);
});

Deno.test("slop payload without a provider configured warns once, not once per plan", async () => {
  const root = await makeProject({
    "a.txt": "hello\n",
    "slop.config.ts": configText({ files: ["a.txt"], provider: { model: "claude-nope-9" } }),
  });
  const run = await runCli(["payload"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stderr,
    `warning: Unknown model "claude-nope-9" for provider "slop:anthropic": no cost estimate\n`,
  );
});
