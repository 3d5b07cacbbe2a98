import assert from "node:assert/strict";
import { anthropicProvider, buildContext } from "../../mod.ts";
import { basicScrubber } from "../../knowledge/_secrets.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, startLlmServer } from "../_llm_server.ts";
import { makeProject } from "../_helpers.ts";

const KEY = `sk-or-v1-${"5e".repeat(32)}`;
const HEX = "4dac3765cc228a899be99bd42e075ec217b519454a6850c77b18449969d26241";

// The loopback server's key, read from the environment by the build below: set once, for the
// whole process (a test may not change the environment while tests run beside it).
Deno.env.set(LLM_TEST_KEY_ENV, LLM_TEST_KEY);

Deno.test("history compaction sends the model redacted messages only", async () => {
  const server = startLlmServer({ reply: () => "S[summary]" });
  try {
    const messages = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({
        role: i % 2 ? "AI" : "User",
        content: i === 0 ? `my key is ${KEY} and SMTP_SECRET=${HEX}` : `message ${i + 1}`,
      })).join("\n") + "\n";
    const root = await makeProject({ "a.ts": "export {};\n", "chat.jsonl": messages });
    const result = await buildContext({
      cwd: root,
      inline: {
        files: ["a.ts"],
        history: "chat.jsonl",
        compaction: { threshold: 10, keep: 4 },
        provider: { ...server.provider("anthropic"), model: "test-model" },
        plugins: [anthropicProvider({ retries: 0 })],
      },
    }, { write: false });
    assert.equal(server.requests.length, 1, "one compaction request");
    const sent = JSON.stringify(server.requests[0]);
    assert.ok(!sent.includes(KEY) && !sent.includes(HEX), "no secret left the process");
    assert.match(server.requests[0].prompt, /\[REDACTED:openrouter-key\]/);
    assert.ok(!result.document.includes(KEY));
  } finally {
    await server.close();
  }
});

Deno.test("a render cached before a rule existed is never served once the rule matches", async () => {
  const root = await makeProject({ "a.txt": "ticket ACME-12345678\n" });
  const first = await buildContext({ cwd: root, inline: { files: ["a.txt"] } }, { write: false });
  assert.match(first.document, /ACME-12345678/);
  const inline = { files: ["a.txt"], secrets: { rules: { acme: "ACME-[0-9]{8}" } } };
  const second = await buildContext({ cwd: root, inline }, { write: false });
  assert.equal(second.files[0].cache, "miss", "the redacted text has its own content hash");
  assert.match(second.document, /ticket \[REDACTED:acme\]/);
  const third = await buildContext({ cwd: root, inline }, { write: false });
  assert.equal(third.files[0].cache, "hit");
  assert.ok(!third.document.includes("ACME-12345678"));
});

Deno.test("the knowledge scrubber catches the seed's key shapes", () => {
  const line = `LLM_API_KEY_MAP={"openrouter":"${KEY}","together":"${HEX}"}; API_SECRET=${HEX}`;
  const { text, found } = basicScrubber()(line);
  assert.ok(!text.includes(KEY) && !text.includes(HEX), text);
  assert.ok(found.includes("openrouter-key") && found.includes("key-map"));
});
