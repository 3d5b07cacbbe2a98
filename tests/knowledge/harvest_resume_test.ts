import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../pipeline/config.ts";
import { createRegistry, freeze } from "../../pipeline/registry.ts";
import { completer } from "../../pipeline/llm.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { harvestKnowledge, type HarvestOptions } from "../../knowledge/harvest.ts";
import type { Ledger } from "../../knowledge/ledger.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, type LlmServer, startLlmServer } from "../_llm_server.ts";
import { makeProject, runCliShared } from "../_helpers.ts";

const MTIME = new Date("2026-06-12T10:00:00Z");

function chat(...lines: Array<[string, string]>): string {
  return lines.map(([role, content]) => JSON.stringify({ role, content })).join("\n") + "\n";
}

const ANSWER = JSON.stringify({
  facts: [{ statement: "The build uses Deno 2.9" }, { statement: "Tests run on two cores" }],
  decisions: [{ statement: "Keep the ledger in git", detail: "it gates deletion" }],
  tasks_open: [{ statement: "Add a Gemini test" }],
  tasks_done: [{ statement: "Wrote the digest" }],
});

/** Another answer for the same conversation (a model rephrasing on a second call). */
const REPHRASED = JSON.stringify({
  facts: [{ statement: "Deno 2.9 builds the project" }],
  decisions: [{ statement: "The ledger lives in git" }],
});

async function project(conversations: Record<string, string>, provider?: object): Promise<string> {
  const tree: Record<string, string> = {
    "src/app.ts": "export {};\n",
    "slop.config.ts": "export default " + JSON.stringify({
      files: ["src/**"],
      knowledge: { conversations: ["chats/*.jsonl"] },
      ...(provider ? { provider } : {}),
    }) + ";\n",
  };
  for (const [name, text] of Object.entries(conversations)) tree[`chats/${name}`] = text;
  const root = await makeProject(tree);
  for (const name of Object.keys(conversations)) {
    await Deno.utime(join(root, "chats", name), MTIME, MTIME);
  }
  return root;
}

async function harvest(root: string, server: LlmServer, options: HarvestOptions = {}) {
  const config = await loadConfig({ cwd: root });
  config.provider = { ...server.provider("anthropic"), model: "claude-sonnet-4-5" };
  const registry = freeze(createRegistry(defaultPlugins()));
  const complete = completer(registry, config, {
    env: (name) => (name === LLM_TEST_KEY_ENV ? LLM_TEST_KEY : undefined),
  });
  return await harvestKnowledge(config, { complete, now: () => MTIME, ...options });
}

async function read(root: string, path: string): Promise<string> {
  return await Deno.readTextFile(join(root, "slop/knowledge", path));
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("a harvest that fails halfway through the category files appends nothing twice when re-run", async () => {
  let answer = ANSWER;
  const server = startLlmServer({ reply: () => answer });
  try {
    const root = await project({ "a.jsonl": chat(["User", "how do we build?"], ["AI", "Deno"]) });
    // decisions.md is a folder: facts.md is written, then writing decisions fails.
    await Deno.mkdir(join(root, "slop/knowledge/decisions.md"), { recursive: true });
    // The digest cannot read the folder either, so the run ends in that error, ledger written.
    await assert.rejects(harvest(root, server, { apply: true }), /decisions\.md/);
    assert.equal(server.requests.length, 1);
    assert.equal(count(await read(root, "facts.md"), "The build uses Deno 2.9."), 1);
    const [entry] = Object.values((JSON.parse(await read(root, "ledger.json")) as Ledger).entries);
    assert.equal(entry.status, "harvest-failed");
    assert.deepEqual(entry.pending!.facts.map((f) => f.statement), [
      "The build uses Deno 2.9",
      "Tests run on two cores",
    ]);

    // Fixed; the model would now answer differently, but the kept answer is appended.
    await Deno.remove(join(root, "slop/knowledge/decisions.md"), { recursive: true });
    answer = REPHRASED;
    const resumed = await harvest(root, server, { apply: true });
    assert.equal(resumed.outcomes[0].status, "harvested");
    assert.equal(server.requests.length, 1, "no second model call");
    const facts = await read(root, "facts.md");
    assert.equal(count(facts, "The build uses Deno 2.9."), 1);
    assert.equal(count(facts, "Tests run on two cores."), 1);
    assert.ok(!facts.includes("Deno 2.9 builds the project"));
    assert.equal(count(await read(root, "decisions.md"), "Keep the ledger in git"), 1);
    const tasks = await read(root, "tasks.md");
    assert.equal(count(tasks, "Add a Gemini test"), 1);
    assert.equal(count(tasks, "Wrote the digest"), 1);
    const ledger: Ledger = JSON.parse(await read(root, "ledger.json"));
    const done = Object.values(ledger.entries)[0];
    assert.equal(done.status, "harvested");
    assert.equal(done.pending, undefined);
    assert.equal(done.error, undefined);

    // A third run has nothing to do.
    const before = await read(root, "facts.md");
    const third = await harvest(root, server, { apply: true });
    assert.equal(third.outcomes[0].status, "skipped");
    assert.equal(await read(root, "facts.md"), before);
  } finally {
    await server.close();
  }
});

Deno.test("a re-run without a kept answer still skips the lines the files already have", async () => {
  const server = startLlmServer({ reply: () => ANSWER });
  try {
    const root = await project({ "a.jsonl": chat(["User", "how do we build?"]) });
    await harvest(root, server, { apply: true });
    // An older ledger (or a lost one): the conversation is harvested again with the same answer.
    await Deno.remove(join(root, "slop/knowledge/ledger.json"));
    const again = await harvest(root, server, { apply: true });
    assert.equal(again.outcomes[0].status, "harvested");
    assert.equal(server.requests.length, 2);
    assert.equal(count(await read(root, "facts.md"), "The build uses Deno 2.9."), 1);
    assert.equal(count(await read(root, "tasks.md"), "Add a Gemini test"), 1);
  } finally {
    await server.close();
  }
});

Deno.test("a kept answer of another shape in the ledger (categories missing, rows no objects, no object) is appended as far as it reads, or asked again", async () => {
  const server = startLlmServer({ reply: () => ANSWER });
  try {
    const root = await project({ "a.jsonl": chat(["User", "how do we build?"]) });
    const bytes = await Deno.readFile(join(root, "chats/a.jsonl"));
    const sha = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    await Deno.mkdir(join(root, "slop/knowledge"), { recursive: true });
    const ledgerWith = (pending: unknown) =>
      Deno.writeTextFile(
        join(root, "slop/knowledge/ledger.json"),
        JSON.stringify({
          entries: {
            [sha]: {
              path: "chats/a.jsonl",
              status: "harvest-failed",
              at: "x",
              deleted: false,
              pending,
            },
          },
        }),
      );
    // Only "facts", with a number and a string row: it failed with "reading 'flatMap'", every run.
    await ledgerWith({ facts: [5, "Kept by hand", { statement: "Kept as written" }] });
    const resumed = await harvest(root, server, { apply: true });
    assert.equal(resumed.outcomes[0].status, "harvested", resumed.outcomes[0].error);
    assert.equal(server.requests.length, 0);
    const facts = await read(root, "facts.md");
    assert.ok(facts.includes("Kept by hand.") && facts.includes("Kept as written."), facts);
    // No object at all: dropped, and the model is asked.
    await Deno.remove(join(root, "slop/knowledge/facts.md"));
    await ledgerWith("lost");
    const asked = await harvest(root, server, { apply: true });
    assert.equal(asked.outcomes[0].status, "harvested", asked.outcomes[0].error);
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("harvest: false with reclaim deletes conversations unharvested and records deleted-unharvested", async () => {
  const server = startLlmServer({ reply: () => ANSWER });
  try {
    const root = await project({
      "a.jsonl": chat(["User", "first"]),
      "b.jsonl": chat(["User", "second"]),
      "c.jsonl": chat(["User", "first"]),
    });
    const dry = await harvest(root, server, { harvest: false });
    assert.equal(dry.inputTokens, 0);
    // The dry run lists what reclaim deletes: the copy goes with the first one.
    assert.deepEqual(dry.reclaimable.labels, ["chats/a.jsonl", "chats/b.jsonl", "chats/c.jsonl"]);

    // Without reclaim nothing is deleted, nothing asked, nothing recorded.
    const kept = await harvest(root, server, { apply: true, harvest: false });
    assert.deepEqual(kept.outcomes.map((o) => o.status), ["skipped", "skipped", "skipped"]);
    assert.ok(await exists(join(root, "chats/a.jsonl")));

    const report = await harvest(root, server, { apply: true, harvest: false, reclaim: true });
    assert.equal(server.requests.length, 0);
    assert.deepEqual(report.outcomes.map((o) => o.status), [
      "deleted-unharvested",
      "deleted-unharvested",
      "skipped",
    ]);
    // The duplicate shares the first one's entry and goes with it.
    assert.deepEqual(report.reclaimed.labels, ["chats/a.jsonl", "chats/b.jsonl", "chats/c.jsonl"]);
    for (const name of ["a", "b", "c"]) {
      assert.equal(await exists(join(root, `chats/${name}.jsonl`)), false);
    }
    const ledger: Ledger = JSON.parse(await read(root, "ledger.json"));
    const entries = Object.values(ledger.entries);
    assert.equal(entries.length, 2);
    for (const e of entries) {
      assert.equal(e.status, "deleted-unharvested");
      assert.equal(e.deleted, true);
    }
    assert.equal(await exists(join(root, "slop/knowledge/facts.md")), false);
  } finally {
    await server.close();
  }
});

Deno.test("slop knowledge harvest --no-harvest needs --reclaim with --apply; with it, asks nothing", async () => {
  const root = await project({ "a.jsonl": chat(["User", "first"]) });
  const refused = await runCliShared(["knowledge", "harvest", "--apply", "--no-harvest"], root);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--no-harvest deletes conversations without harvesting them/);
  assert.ok(await exists(join(root, "chats/a.jsonl")));
  const dry = await runCliShared(["knowledge", "harvest", "--no-harvest"], root);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /reclaim candidates: 1 \(.*without a harvest/);
  assert.ok(dry.stdout.endsWith("dry run; nothing is sent\n"));
  // No provider is configured: nothing needs one.
  const run = await runCliShared(
    ["knowledge", "harvest", "--apply", "--no-harvest", "--reclaim"],
    root,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /reclaimed without a harvest: chats\/a\.jsonl\n/);
  assert.match(run.stdout, /reclaimed: 1 \(\d+ B, 1 without a harvest\)/);
  assert.equal(await exists(join(root, "chats/a.jsonl")), false);
});

Deno.test("the answer kept in the ledger after a failed write has its secrets scrubbed", async () => {
  const key = "AKIAIOSFODNN7EXAMPLE";
  const server = startLlmServer({
    reply: () => JSON.stringify({ decisions: [{ statement: `Rotate ${key} monthly` }] }),
  });
  try {
    const root = await project({ "a.jsonl": chat(["User", "rotate keys?"]) });
    await Deno.mkdir(join(root, "slop/knowledge/decisions.md"), { recursive: true });
    await assert.rejects(harvest(root, server, { apply: true }), /decisions\.md/);
    const ledger = await read(root, "ledger.json");
    assert.ok(!ledger.includes(key));
    assert.ok(ledger.includes("Rotate [REDACTED:aws-access-key-id] monthly"));
  } finally {
    await server.close();
  }
});
