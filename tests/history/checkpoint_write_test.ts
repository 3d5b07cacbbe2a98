import assert from "node:assert/strict";
import { join } from "node:path";
import { anthropicProvider, buildContext } from "../../mod.ts";
import { hashMessages } from "../../plugins/sections/_compaction.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, type LlmServer, startLlmServer } from "../_llm_server.ts";
import { makeProject } from "../_helpers.ts";

Deno.env.set(LLM_TEST_KEY_ENV, LLM_TEST_KEY);

function messages(n: number): Array<{ role: string; content: string }> {
  return Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? "AI" : "User",
    content: `Message ${i + 1}`,
  }));
}

async function project(chat: Array<{ role: string; content: string }>, server: LlmServer) {
  const root = await makeProject({
    "a.txt": "a\n",
    "chat.jsonl": chat.map((m) => JSON.stringify(m)).join("\n") + "\n",
  });
  const inline = {
    files: ["a.txt"],
    history: "chat.jsonl",
    provider: { ...server.provider("anthropic"), model: "test-model" },
    plugins: [anthropicProvider({ retries: 0 })],
  };
  return { root, stateDir: join(root, ".state"), inline };
}

Deno.test("a checkpoint that cannot be stored leaves no temp file in the checkpoints folder", async () => {
  const server = startLlmServer({ reply: () => "S" });
  try {
    const chat = messages(81);
    const { root, stateDir, inline } = await project(chat, server);
    const dir = join(stateDir, "checkpoints");
    // The checkpoint's own name is taken by a folder, so storing it fails.
    await Deno.mkdir(join(dir, `${hashMessages(chat.slice(0, 57))}.json`, "x"), {
      recursive: true,
    });
    const result = await buildContext({ cwd: root, stateDir, inline }, { write: false });
    assert.equal(server.requests.length, 1);
    assert.ok(result.warnings.some((w) => /checkpoint/i.test(w)), result.warnings.join("\n"));
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assert.deepEqual(names, [`${hashMessages(chat.slice(0, 57))}.json`]);
  } finally {
    await server.close();
  }
});

Deno.test("a stored checkpoint is written whole, with no temp file beside it", async () => {
  const server = startLlmServer({ reply: () => "S" });
  try {
    const chat = messages(81);
    const { root, stateDir, inline } = await project(chat, server);
    await buildContext({ cwd: root, stateDir, inline }, { write: false });
    const dir = join(stateDir, "checkpoints");
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    const key = hashMessages(chat.slice(0, 57));
    assert.deepEqual(names, [`${key}.json`]);
    const stored = JSON.parse(await Deno.readTextFile(join(dir, `${key}.json`)));
    assert.deepEqual(stored, { num_messages_compressed: 57, summary: "S" });
  } finally {
    await server.close();
  }
});
