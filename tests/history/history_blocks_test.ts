import assert from "node:assert/strict";
import { join } from "node:path";
import { anthropicProvider, buildContext, chooseBreakpoints, type SlopConfig } from "../../mod.ts";
import { anthropicPayload } from "../../plugins/providers/anthropic.ts";
import { explain } from "../../cli/explain.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, type LlmServer, startLlmServer } from "../_llm_server.ts";
import { makeProject } from "../_helpers.ts";

Deno.env.set(LLM_TEST_KEY_ENV, LLM_TEST_KEY);

const MODEL = "claude-sonnet-4-5";

function discussion(n: number): string {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      role: i % 2 ? "AI" : "User",
      content: i % 2 ? `Answer ${i + 1}: edited src/app.py.` : `Question ${i + 1}: why?`,
    })).join("\n") + "\n";
}

function config(server: LlmServer, extra: SlopConfig = {}, minCacheTokens = 64): SlopConfig {
  return {
    files: ["src/**"],
    history: "chat.jsonl",
    provider: { ...server.provider("anthropic"), model: MODEL },
    // A small minimum so that the short test discussion is worth a breakpoint.
    plugins: [anthropicProvider({ retries: 0, models: { [MODEL]: { minCacheTokens } } })],
    ...extra,
  };
}

function withServer(): LlmServer {
  return startLlmServer({
    reply: (r) => `Summary of ${r.prompt.length} chars: the user asked why, the AI edited.`,
  });
}

function sharedBytes(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

Deno.test("history is a heading, a checkpoint and a live tail block; a new turn keeps the first two", async () => {
  const server = withServer();
  try {
    const root = await makeProject({
      "src/app.py": "def main():\n    return 1\n",
      "chat.jsonl": discussion(90),
    });
    const first = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    await Deno.writeTextFile(join(root, "chat.jsonl"), discussion(91));
    const second = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 1, "the checkpoint is made once, then reused");

    const history = (r: typeof first) => r.manifest.blocks.filter((b) => b.section === "history");
    assert.deepEqual(history(first).map((b) => b.id), [
      "history",
      "history:checkpoint",
      "history:recent",
    ]);
    const [heading, checkpoint, tail] = history(first);
    const [heading2, checkpoint2, tail2] = history(second);
    assert.equal(heading2.sha256, heading.sha256);
    assert.equal(checkpoint2.sha256, checkpoint.sha256);
    assert.equal(checkpoint2.offset, checkpoint.offset);
    assert.notEqual(tail2.sha256, tail.sha256);
    // The new document repeats the old one's bytes through the checkpoint and into the tail.
    const shared = sharedBytes(first.document, second.document);
    assert.ok(shared >= checkpoint.offset + checkpoint.length);
    assert.ok(shared > tail.offset);
    // The tail grew by one excerpt: the old tail's text is a prefix of the new one's.
    const tailText = (r: typeof first, b: typeof tail) =>
      new TextDecoder().decode(
        new TextEncoder().encode(r.document).subarray(b.offset, b.offset + b.length),
      );
    assert.ok(tailText(second, tail2).startsWith(tailText(first, tail).trimEnd()));
    assert.match(
      tailText(second, tail2),
      /### Discussion Excerpt 91\n\nUser: Question 91: why\?\n\n$/,
    );
    // slop explain: the whole older document is a prefix of the newer one.
    const written = (r: typeof first, number: number) => ({
      number,
      manifest: r.manifest,
      manifestText: JSON.stringify(r.manifest),
      document: new TextEncoder().encode(r.document),
    });
    const e = await explain(written(first, 1), written(second, 2));
    assert.equal(e.bytes, shared);
    assert.equal(e.bytes, new TextEncoder().encode(first.document).length);
    assert.equal(e.ended, undefined);
  } finally {
    await server.close();
  }
});

Deno.test("the split history renders the same bytes as one history text, compaction on or off", async () => {
  const server = withServer();
  try {
    const root = await makeProject({ "src/app.py": "x = 1\n", "chat.jsonl": discussion(81) });
    const plain = await buildContext({
      cwd: root,
      inline: config(server, { compaction: { enabled: false } }),
    }, { write: false });
    const compacted = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.deepEqual(
      plain.manifest.blocks.filter((b) => b.section === "history").map((b) => b.id),
      ["history", "history:recent"],
    );
    assert.equal(compacted.manifest.prefix.sha256, plain.manifest.prefix.sha256);
    const at = plain.document.indexOf("## Discussion History\n\n### Discussion Excerpt 1\n\n");
    assert.ok(at >= plain.manifest.prefix.bytes);
    assert.ok(plain.document.endsWith("### Discussion Excerpt 81\n\nUser: Question 81: why?\n\n"));
    assert.match(
      compacted.document,
      /## Discussion History\n\n### Discussion Checkpoint \(Excerpts 1-57\)\n\nUser: We are continuing[^\n]*\n\n---\n\n### Discussion Excerpt 58\n\n/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("anthropic: one breakpoint ends the history checkpoint, so the cache reaches into the history", async () => {
  const server = withServer();
  try {
    const root = await makeProject({
      "src/app.py": "def main():\n    return 1\n".repeat(40),
      "chat.jsonl": discussion(90),
    });
    const provider = anthropicProvider({ models: { [MODEL]: { minCacheTokens: 32 } } });
    const result = await buildContext({ cwd: root, inline: config(server, {}, 32) }, {
      write: false,
    });
    const breakpoints = result.manifest.breakpoints!;
    assert.ok(breakpoints.length <= 4);
    assert.equal(breakpoints.at(-1)!.id, "history:checkpoint");
    const checkpoint = result.manifest.blocks.find((b) => b.id === "history:checkpoint")!;
    assert.equal(breakpoints.at(-1)!.end, checkpoint.offset + checkpoint.length);
    const body = await anthropicPayload(result.blocks, provider.modelInfo!(MODEL)!, {
      breakpoints,
      prompt: "Go on",
    });
    const content = body.messages[0].content as Array<{ text: string; cache_control?: unknown }>;
    assert.equal(content.length, 3);
    assert.ok(content[0].cache_control);
    assert.match(content[0].text, /## Discussion History[\s\S]*Checkpoint \(Excerpts 1-57\)/);
    assert.match(content[1].text, /^### Discussion Excerpt 58\n/);
    assert.equal(content[1].cache_control, undefined);
    assert.equal(content[2].text, "Go on");
    // The system blocks and the content spell the document.
    const system = body.system!.map((b) => (b as { text: string }).text).join("");
    assert.equal(system + content[0].text + content[1].text, result.document);
    const cached = [...body.system!, ...content].filter((b) => "cache_control" in b);
    assert.ok(cached.length <= 4);
  } finally {
    await server.close();
  }
});

Deno.test("chooseBreakpoints(): no history breakpoint for prefix-caching providers or a short span", () => {
  const blocks = [
    { id: "files", section: "files", stability: "stable" as const, text: "" },
    { id: "history", section: "history", stability: "volatile" as const, text: "" },
    { id: "history:checkpoint", section: "history", stability: "volatile" as const, text: "" },
    { id: "history:recent", section: "history", stability: "volatile" as const, text: "" },
  ].map((b, i) => ({ ...b, offset: i * 10, length: 10 }));
  const tokens = [2000, 5, 1500, 700];
  const choose = (max: number, minTokens = 1024) =>
    chooseBreakpoints(blocks, { tokens, minTokens, ttl: "5m", max }).map((b) => b.id);
  assert.deepEqual(choose(4), ["files", "history:checkpoint"]);
  assert.deepEqual(choose(1), ["files"]);
  assert.deepEqual(choose(4, 1600), ["files"]);
});

Deno.test("slop explain names the history block that ended the shared prefix, not a file", async () => {
  const root = await makeProject({ "src/app.py": "x = 1\n", "chat.jsonl": discussion(4) });
  const build = async () => await buildContext({ cwd: root, inline: { history: "chat.jsonl" } });
  const first = await build();
  // An earlier message edited: the live tail changes in place.
  await Deno.writeTextFile(
    join(root, "chat.jsonl"),
    discussion(4).replace("Question 3: why?", "Question 3: why not?"),
  );
  const second = await build();
  const written = (r: typeof first, number: number) => ({
    number,
    manifest: r.manifest,
    manifestText: JSON.stringify(r.manifest),
    document: new TextEncoder().encode(r.document),
  });
  const e = await explain(written(first, 1), written(second, 2));
  assert.equal(e.ended?.id, "history:recent");
  assert.equal(e.ended?.section, "history");
  assert.equal(e.ended?.file, undefined);
  assert.equal(e.ended?.kind, "changed");
});
