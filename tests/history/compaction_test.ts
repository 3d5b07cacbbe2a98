import assert from "node:assert/strict";
import { join } from "node:path";
import { anthropicProvider, buildContext, type SlopConfig } from "../../mod.ts";
import {
  checkpointBounds,
  COMPACTION_PROMPT,
  hashMessages,
} from "../../plugins/sections/_compaction.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, type LlmServer, startLlmServer } from "../_llm_server.ts";
import { makeProject } from "../_helpers.ts";

Deno.env.set(LLM_TEST_KEY_ENV, LLM_TEST_KEY);

/** A discussion of `n` messages, alternating User and AI. */
function discussion(n: number): string {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      role: i % 2 ? "AI" : "User",
      content: i % 2
        ? `Answer ${i + 1}: changed src/app.py line ${10 + i} as asked.`
        : `Question ${i + 1}: why does step ${i + 1} fail?`,
    })).join("\n") + "\n";
}

/** A summary that names the messages it was given, so tests can tell checkpoints apart. */
function summaryOf(prompt: string): string {
  const numbers = [...prompt.matchAll(/(?:Question|Answer) (\d+)/g)].map((m) => Number(m[1]));
  const earlier = prompt.includes("We are continuing an earlier conversation") ? "prev+" : "";
  return `S[${earlier}${Math.min(...numbers)}-${Math.max(...numbers)}]`;
}

function withServer(): LlmServer {
  return startLlmServer({ reply: (r) => summaryOf(r.prompt) });
}

async function project(messages: number): Promise<string> {
  return await makeProject({
    "src/app.py": "def main():\n    return 1\n",
    "chat.jsonl": discussion(messages),
  });
}

function config(server: LlmServer | string, extra: SlopConfig = {}): SlopConfig {
  const provider = typeof server === "string"
    ? { name: "anthropic", baseUrl: server, apiKeyEnv: LLM_TEST_KEY_ENV }
    : server.provider("anthropic");
  return {
    files: ["src/**"],
    history: "chat.jsonl",
    provider: { ...provider, model: "test-model" },
    // No retries, so that the offline case fails at once.
    plugins: [anthropicProvider({ retries: 0 })],
    ...extra,
  };
}

function excerpts(document: string): number[] {
  return [...document.matchAll(/### Discussion Excerpt (\d+)/g)].map((m) => Number(m[1]));
}

Deno.test("checkpointBounds() replays the seed's trigger: more than 80, keep 24", () => {
  assert.deepEqual(checkpointBounds(80, 80, 24), []);
  assert.deepEqual(checkpointBounds(81, 80, 24), [57]);
  assert.deepEqual(checkpointBounds(136, 80, 24), [57]);
  assert.deepEqual(checkpointBounds(137, 80, 24), [57, 113]);
  assert.deepEqual(checkpointBounds(17, 10, 4), [7, 13]);
});

Deno.test("history at the threshold is not compacted; one more message compacts all but 24", async () => {
  const server = withServer();
  try {
    const root = await project(80);
    const at = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 0);
    assert.deepEqual(excerpts(at.document), Array.from({ length: 80 }, (_, i) => i + 1));

    await Deno.writeTextFile(join(root, "chat.jsonl"), discussion(81));
    const over = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 1);
    const request = server.requests[0];
    assert.equal(request.system, COMPACTION_PROMPT);
    assert.match(request.prompt, /Question 1: /);
    assert.match(request.prompt, /Question 57: /);
    assert.doesNotMatch(request.prompt, /Answer 58: /);
    assert.match(
      over.document,
      /## Discussion History\n\n### Discussion Checkpoint \(Excerpts 1-57\)\n\nUser: We are continuing an earlier conversation\. The remainder of this message is a summary: S\[1-57\]\n\n---\n\n### Discussion Excerpt 58\n\nAI: Answer 58/,
    );
    assert.deepEqual(excerpts(over.document), Array.from({ length: 24 }, (_, i) => 58 + i));
    const block = over.manifest.blocks.find((b) => b.id === "history")!;
    assert.match(
      block.notes![0],
      /^compaction: checkpoint of messages 1-57 \(made, sha256 [0-9a-f]{12}…\); 24 messages verbatim$/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("compaction.threshold and keep are configurable and checkpoints chain", async () => {
  const server = withServer();
  try {
    const root = await project(17);
    const result = await buildContext({
      cwd: root,
      inline: config(server, { compaction: { threshold: 10, keep: 4 } }),
    }, { write: false });
    assert.equal(server.requests.length, 2);
    // The second checkpoint summarizes the first one plus messages 8-13.
    assert.match(server.requests[1].prompt, /We are continuing an earlier conversation.*S\[1-7\]/);
    assert.match(
      result.document,
      /Checkpoint \(Excerpts 1-13\)\n\nUser: [^\n]*summary: S\[prev\+8-13\]/,
    );
    assert.deepEqual(excerpts(result.document), [14, 15, 16, 17]);
  } finally {
    await server.close();
  }
});

Deno.test("a rebuild reuses the stored checkpoint without a request and never edits the history", async () => {
  const server = withServer();
  try {
    const root = await project(90);
    const history = await Deno.readTextFile(join(root, "chat.jsonl"));
    const first = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 1);
    const second = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 1);
    assert.equal(second.document, first.document);
    // 90 messages: the chain's first checkpoint (1-57), then 33 verbatim.
    assert.deepEqual(excerpts(second.document), Array.from({ length: 33 }, (_, i) => 58 + i));
    assert.match(
      second.manifest.blocks.find((b) => b.id === "history")!.notes![0],
      /\(reused, sha256/,
    );
    assert.equal(await Deno.readTextFile(join(root, "chat.jsonl")), history);
    const dir = join(root, ".slop", "checkpoints");
    const files = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.equal(files.length, 1);
    assert.match(files[0], /^[0-9a-f]{64}\.json$/);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(join(dir, files[0]))), {
      num_messages_compressed: 57,
      summary: "S[1-57]",
    });
  } finally {
    await server.close();
  }
});

Deno.test("a build that cannot reach the provider uses the last stored checkpoint", async () => {
  const server = withServer();
  const root = await project(81);
  try {
    await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
  // The discussion grew past the next checkpoint, and the server is gone.
  await Deno.writeTextFile(join(root, "chat.jsonl"), discussion(140));
  const offline = await buildContext({ cwd: root, inline: config(server.anthropicUrl) }, {
    write: false,
  });
  assert.match(offline.document, /Checkpoint \(Excerpts 1-57\)\n\nUser: [^\n]*summary: S\[1-57\]/);
  assert.deepEqual(excerpts(offline.document), Array.from({ length: 83 }, (_, i) => 58 + i));
  // Other warnings (e.g. the cost table not knowing "test-model") are not this test's business.
  const compaction = offline.warnings.filter((w) => w.startsWith("History compaction"));
  assert.equal(compaction.length, 1);
  assert.match(
    compaction[0],
    /^History compaction: cannot make a checkpoint \(.+\): used the last stored checkpoint \(messages 1-57\); 83 messages shown verbatim$/,
  );

  // With no checkpoint at all, the whole discussion is shown, with a warning.
  const fresh = await project(81);
  const none = await buildContext({ cwd: fresh, inline: config(server.anthropicUrl) }, {
    write: false,
  });
  assert.equal(excerpts(none.document).length, 81);
  assert.match(
    none.warnings.find((w) => w.startsWith("History compaction")) ?? "",
    /no stored checkpoint; 81 messages shown verbatim$/,
  );
});

Deno.test("compaction changes only the volatile tail: the stable prefix is byte-identical", async () => {
  const server = withServer();
  try {
    const root = await project(81);
    const plain = await buildContext({
      cwd: root,
      inline: config(server, { compaction: { enabled: false } }),
    }, { write: false });
    const compacted = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 1);
    assert.notEqual(compacted.document, plain.document);
    assert.equal(compacted.manifest.prefix.bytes, plain.manifest.prefix.bytes);
    assert.equal(compacted.manifest.prefix.sha256, plain.manifest.prefix.sha256);
    const bytes = plain.manifest.prefix.bytes;
    const enc = new TextEncoder();
    assert.deepEqual(
      enc.encode(compacted.document).subarray(0, bytes),
      enc.encode(plain.document).subarray(0, bytes),
    );
    assert.ok(bytes > 0);
    assert.equal(compacted.manifest.blocks.at(-1)!.stability, "volatile");
  } finally {
    await server.close();
  }
});

Deno.test("the summarizer prompt comes from slop/prompts/compaction.md when present", async () => {
  const server = withServer();
  try {
    const root = await project(81);
    await Deno.mkdir(join(root, "slop", "prompts"), { recursive: true });
    await Deno.writeTextFile(
      join(root, "slop", "prompts", "compaction.md"),
      "Summarize tersely, keep file names.\n",
    );
    await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests[0].system, "Summarize tersely, keep file names.");
  } finally {
    await server.close();
  }
});

Deno.test("compaction.keep must be less than compaction.threshold", async () => {
  const root = await project(1);
  await assert.rejects(
    buildContext({ cwd: root, inline: { compaction: { threshold: 10, keep: 10 } } }, {
      write: false,
    }),
    /"compaction.keep" \(10\) must be less than "compaction.threshold" \(10\)/,
  );
});

function messages(n: number): Array<{ role: string; content: string }> {
  return Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? "AI" : "User",
    content: `Message ${i + 1}`,
  }));
}

async function checkpointProject(
  chat: Array<{ role: string; content: string }>,
  server: LlmServer,
) {
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
    const { root, stateDir, inline } = await checkpointProject(chat, server);
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
    const { root, stateDir, inline } = await checkpointProject(chat, server);
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
