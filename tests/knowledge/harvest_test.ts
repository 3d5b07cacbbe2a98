import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../pipeline/config.ts";
import { createRegistry, freeze } from "../../pipeline/registry.ts";
import { completer } from "../../pipeline/llm.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import {
  harvestKnowledge,
  type HarvestOptions,
  MAX_HARVEST_SOURCE_BYTES,
  SUMMARIZE_THRESHOLD_BYTES,
} from "../../knowledge/harvest.ts";
import { DEFAULT_HARVEST_PROMPT, RETRY_SUFFIX } from "../../knowledge/prompt.ts";
import type { Ledger } from "../../knowledge/ledger.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, type LlmServer, startLlmServer } from "../_llm_server.ts";
import { makeProject, runCliShared } from "../_helpers.ts";

const MTIME = new Date("2026-06-12T10:00:00Z");

function chat(...lines: Array<[string, string]>): string {
  return lines.map(([role, content]) => JSON.stringify({ role, content })).join("\n") + "\n";
}

const ANSWER = {
  facts: [{ statement: "The build uses Deno 2.9", detail: "" }, { bogus: true }],
  decisions: [{ statement: "Keep the ledger in git", detail: "it gates deletion" }],
  tasks_done: [{ statement: "Wrote the digest", detail: "" }],
  tasks_open: ["Add a Gemini test"],
  questions: [{ statement: "Should the digest be cached", detail: "" }],
  playbooks: [{ name: "Release", steps: "deno task ok -> git tag -> git push --tags" }],
  files: [
    { path: "src/app.ts", note: "Entry point of the app" },
    { path: "/nowhere/gone.py", note: "Was removed last week" },
  ],
};

async function project(conversations: Record<string, string>): Promise<string> {
  const tree: Record<string, string> = {
    "src/app.ts": "export {};\n",
    "slop.config.ts": "export default " + JSON.stringify({
      files: ["src/**"],
      knowledge: { conversations: ["chats/**/*.jsonl", "chats/*.toml"] },
    }) + ";\n",
  };
  for (const [name, text] of Object.entries(conversations)) tree[`chats/${name}`] = text;
  const root = await makeProject(tree);
  for (const name of Object.keys(conversations)) {
    await Deno.utime(join(root, "chats", name), MTIME, MTIME);
  }
  return root;
}

async function harvest(
  root: string,
  server: LlmServer,
  options: HarvestOptions = {},
) {
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

async function ledgerOf(root: string): Promise<Ledger> {
  return JSON.parse(await read(root, "ledger.json"));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("harvest --apply appends valid JSON items with provenance, routes file notes and writes the ledger", async () => {
  const server = startLlmServer();
  try {
    const root = await project({
      "2026-06-12-release.jsonl": chat(["User", "How do we release?"], ["AI", "Tag and push."]),
    });
    server.enqueue({ text: JSON.stringify(ANSWER) });
    const report = await harvest(root, server, { apply: true });
    // One request, with the default prompt (now a file to edit) and the transcript.
    assert.equal(server.requests.length, 1);
    const prompt = server.requests[0].prompt;
    assert.ok(prompt.startsWith(DEFAULT_HARVEST_PROMPT.trim()));
    assert.ok(prompt.endsWith(
      "## Conversation: 2026-06-12-release\n\nUser: How do we release?\n\nAI: Tag and push.\n",
    ));
    assert.equal(
      await Deno.readTextFile(join(root, "slop/prompts/harvest-conversation.md")),
      DEFAULT_HARVEST_PROMPT,
    );
    const from = "[from: 2026-06-12-release, 2026-06-12]";
    assert.equal(
      await read(root, "facts.md"),
      `# Facts\n\n- The build uses Deno 2.9. ${from}\n- /nowhere/gone.py: Was removed last week. ${from}\n`,
    );
    assert.equal(
      await read(root, "decisions.md"),
      `# Decisions\n\n- Keep the ledger in git — it gates deletion. ${from}\n`,
    );
    assert.equal(
      await read(root, "tasks.md"),
      `# Tasks\n\n## Open\n\n- Add a Gemini test. ${from}\n\n## Done\n\n- Wrote the digest. ${from}\n`,
    );
    assert.equal(
      await read(root, "questions.md"),
      `# Questions\n\n- Should the digest be cached? ${from}\n`,
    );
    assert.equal(
      await read(root, "playbooks.md"),
      `# Playbooks\n\n- **Release**: deno task ok -> git tag -> git push --tags. ${from}\n`,
    );
    const info = await Deno.stat(join(root, "src/app.ts"));
    assert.equal(
      await read(root, `files/${info.dev}:${info.ino}.md`),
      `# ${join(root, "src/app.ts")}\n\n- Entry point of the app. ${from}\n`,
    );
    const ledger = await ledgerOf(root);
    const [sha, entry] = Object.entries(ledger.entries)[0];
    assert.match(sha, /^[0-9a-f]{64}$/);
    assert.deepEqual(entry, {
      path: join(root, "chats/2026-06-12-release.jsonl"),
      status: "harvested",
      at: MTIME.toISOString(),
      items: {
        facts: 1,
        decisions: 1,
        tasks_done: 1,
        tasks_open: 1,
        questions: 1,
        playbooks: 1,
        files: 2,
      },
      deleted: false,
    });
    // Nothing deleted without --reclaim; the digest was regenerated.
    assert.ok(await exists(join(root, "chats/2026-06-12-release.jsonl")));
    assert.equal(report.digest?.status, "written");
    const digest = await read(root, "digest.md");
    assert.ok(digest.indexOf("## Open tasks") < digest.indexOf("## Facts"));
    assert.ok(digest.includes(`- Add a Gemini test. ${from}`));
  } finally {
    await server.close();
  }
});

Deno.test("harvest accepts an answer in a code fence", async () => {
  const server = startLlmServer();
  try {
    const root = await project({ "a.jsonl": chat(["User", "hi"]) });
    server.enqueue({
      text: '```json\n{"facts": [{"statement": "Fenced answers parse"}], "files": "nope"}\n```',
    });
    const report = await harvest(root, server, { apply: true });
    assert.equal(server.requests.length, 1);
    assert.equal(report.outcomes[0].status, "harvested");
    assert.ok((await read(root, "facts.md")).includes("- Fenced answers parse. [from: a, "));
  } finally {
    await server.close();
  }
});

Deno.test("harvest retries once with the suffix, then records harvest-failed and deletes nothing", async () => {
  const server = startLlmServer();
  try {
    const root = await project({ "bad.jsonl": chat(["User", "hi"]) });
    server.enqueue({ text: "Sure! Here are the facts: none." }, { text: "```json\n{oops\n```" });
    const report = await harvest(root, server, { apply: true, reclaim: true });
    assert.equal(server.requests.length, 2);
    assert.ok(!server.requests[0].prompt.endsWith(RETRY_SUFFIX));
    assert.ok(server.requests[1].prompt.endsWith(RETRY_SUFFIX));
    assert.equal(server.requests[1].prompt, server.requests[0].prompt + RETRY_SUFFIX);
    const entry = Object.values((await ledgerOf(root)).entries)[0];
    assert.equal(entry.status, "harvest-failed");
    assert.equal(entry.deleted, false);
    assert.match(entry.error!, /^Harvest output invalid after 2 attempts: /);
    assert.ok(await exists(join(root, "chats/bad.jsonl")));
    assert.deepEqual(report.reclaimed.labels, []);
    assert.equal(await exists(join(root, "slop/knowledge/facts.md")), false);
    assert.equal(report.digest?.status, "absent");
  } finally {
    await server.close();
  }
});

Deno.test("harvest keeps a conversation above 1 MB as too-large without asking, and summarizes above 64 KB", async () => {
  const server = startLlmServer({
    reply: (r) =>
      r.prompt.startsWith("Summarize this part")
        ? "Summary: the team chose SQLite."
        : JSON.stringify({ decisions: [{ statement: "Use SQLite" }] }),
  });
  try {
    const big = chat(["User", "x".repeat(MAX_HARVEST_SOURCE_BYTES)]);
    const medium = chat(
      ...Array.from(
        { length: 40 },
        (_, i): [string, string] => ["User", `${i} ${"y ".repeat(1000)}`],
      ),
    );
    assert.ok(medium.length > SUMMARIZE_THRESHOLD_BYTES && medium.length < 100_000);
    const root = await project({ "big.jsonl": big, "medium.jsonl": medium });
    const dry = await harvest(root, server);
    assert.deepEqual(dry.plan.map((p) => [p.label, p.action]), [
      ["chats/big.jsonl", "too-large"],
      ["chats/medium.jsonl", "summarize"],
    ]);
    const report = await harvest(root, server, { apply: true, reclaim: true });
    // Two summary parts (48 KB each at most), then one harvest of the summaries.
    assert.equal(server.requests.length, 3);
    assert.ok(server.requests.every((r) => !r.prompt.includes("x".repeat(1000))));
    assert.ok(server.requests[2].prompt.includes(
      "## Conversation: medium\n\nSummary: the team chose SQLite.\n\nSummary: the team chose SQLite.\n",
    ));
    const entries = Object.values((await ledgerOf(root)).entries);
    const large = entries.find((e) => e.path.endsWith("big.jsonl"))!;
    assert.deepEqual(large, {
      path: join(root, "chats/big.jsonl"),
      status: "too-large",
      at: MTIME.toISOString(),
      deleted: false,
    });
    assert.ok(await exists(join(root, "chats/big.jsonl")));
    assert.deepEqual(report.reclaimed.labels, ["chats/medium.jsonl"]);
    assert.ok((await read(root, "decisions.md")).includes("- Use SQLite. [from: medium, "));
  } finally {
    await server.close();
  }
});

Deno.test("the ledger dedupes identical conversations and --reclaim deletes only harvested ones", async () => {
  const server = startLlmServer({
    reply: () => JSON.stringify({ facts: [{ statement: "Shared fact" }] }),
  });
  try {
    const same = chat(["User", "the same talk"]);
    const root = await project({
      "a.jsonl": same,
      "sub/b.jsonl": same,
      "c.toml": '[[entries]]\nrole = "User"\ncontent = "other talk"\n',
      "empty.jsonl": "\n",
    });
    const first = await harvest(root, server, { apply: true });
    assert.deepEqual(first.plan.map((p) => [p.label, p.action]), [
      ["chats/a.jsonl", "harvest"],
      ["chats/c.toml", "harvest"],
      ["chats/empty.jsonl", "unreadable"],
      ["chats/sub/b.jsonl", "duplicate"],
    ]);
    assert.equal(server.requests.length, 2);
    assert.equal(Object.keys((await ledgerOf(root)).entries).length, 2);
    assert.equal(
      (await read(root, "facts.md")).split("\n").filter((l) => l.startsWith("- ")).length,
      2,
    );
    // A second run sends nothing: the ledger knows both contents.
    server.enqueue({ text: "unused" });
    const second = await harvest(root, server, { apply: true });
    assert.equal(server.requests.length, 2);
    assert.deepEqual(second.plan.map((p) => p.action), [
      "done",
      "done",
      "unreadable",
      "duplicate",
    ]);
    // Dry run shows what --reclaim would delete, and deletes nothing.
    const dry = await harvest(root, server, { reclaim: true });
    assert.deepEqual(dry.reclaimable.labels, [
      "chats/a.jsonl",
      "chats/c.toml",
      "chats/sub/b.jsonl",
    ]);
    assert.ok(await exists(join(root, "chats/a.jsonl")));
    const third = await harvest(root, server, { apply: true, reclaim: true });
    assert.deepEqual(third.reclaimed.labels, dry.reclaimable.labels);
    for (const name of ["a.jsonl", "sub/b.jsonl", "c.toml"]) {
      assert.equal(await exists(join(root, "chats", name)), false, name);
    }
    assert.ok(await exists(join(root, "chats/empty.jsonl")));
    const entries = Object.values((await ledgerOf(root)).entries);
    assert.ok(entries.every((e) => e.status === "harvested" && e.deleted));
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("a dry run sends nothing, writes nothing and estimates tokens and cost", async () => {
  const server = startLlmServer();
  try {
    const root = await project({ "a.jsonl": chat(["User", "hello there"], ["AI", "hi"]) });
    const report = await harvest(root, server);
    assert.equal(server.requests.length, 0);
    assert.equal(await exists(join(root, "slop")), false);
    assert.equal(report.applied, false);
    assert.ok(report.inputTokens > 300, `${report.inputTokens}`);
    assert.equal(report.cost?.perMillion, 3);
    assert.equal(report.cost?.usd, report.inputTokens * 3 / 1_000_000);
  } finally {
    await server.close();
  }
});

Deno.test("secrets in a conversation never reach the model or the knowledge files", async () => {
  const key = "AKIAIOSFODNN7EXAMPLE";
  const server = startLlmServer({
    reply: () =>
      JSON.stringify({
        facts: [{ statement: `The deploy key is ${key}` }],
        playbooks: [{ name: "Login", steps: "export API_TOKEN=hunter2hunter2 -> deploy" }],
      }),
  });
  try {
    const root = await project({ "a.jsonl": chat(["User", `use ${key} to deploy`]) });
    await harvest(root, server, { apply: true });
    assert.ok(!server.requests[0].prompt.includes(key));
    assert.ok(server.requests[0].prompt.includes("use [REDACTED:aws-access-key-id] to deploy"));
    const facts = await read(root, "facts.md");
    const playbooks = await read(root, "playbooks.md");
    assert.ok(!facts.includes(key) && !playbooks.includes("hunter2"));
    assert.ok(facts.includes("The deploy key is [REDACTED:aws-access-key-id]."));
    assert.ok(playbooks.includes("export API_TOKEN=[REDACTED:secret] -> deploy"));
    assert.ok(!(await read(root, "digest.md")).includes(key));
  } finally {
    await server.close();
  }
});

Deno.test("slop knowledge harvest: dry run, --apply with the edited prompt, exit 1 on a failed harvest", async () => {
  const server = startLlmServer();
  try {
    const root = await project({ "a.jsonl": chat(["User", "hi"]), "b.jsonl": chat(["AI", "yo"]) });
    const config = join(root, "slop.config.ts");
    await Deno.writeTextFile(
      config,
      "export default " + JSON.stringify({
        files: ["src/**"],
        provider: { ...server.provider("openai"), model: "gpt-4o-mini" },
        knowledge: { conversations: ["chats/*.jsonl"] },
      }) + ";\n",
    );
    const env = { [LLM_TEST_KEY_ENV]: LLM_TEST_KEY };
    const dry = await runCliShared(["knowledge", "harvest", "--price", "2"], root, env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      /^conversations: 2 \(harvest: 2, summarize first: 0, already harvested: 0, duplicate: 0, too-large: 0, unreadable: 0\)\n/,
    );
    assert.match(dry.stdout, /\n {2}harvest: chats\/a\.jsonl \(\d+ B, ~\d+ tokens\)\n/);
    assert.match(
      dry.stdout,
      /harvest candidates: \d+ B \(~\d+ input tokens, ~\$0\.(\d{4}|\d{6}) at \$2 per/,
    );
    assert.ok(dry.stdout.endsWith("dry run; pass --apply to harvest\n"));
    assert.equal(server.requests.length, 0);

    await Deno.mkdir(join(root, "slop/prompts"), { recursive: true });
    await Deno.writeTextFile(join(root, "slop/prompts/harvest-conversation.md"), "MY PROMPT\n");
    server.enqueue({ text: '{"facts":[{"statement":"From a"}]}' }, { text: "no" }, {
      text: "still no",
    });
    const run = await runCliShared(["knowledge", "harvest", "--apply", "--reclaim"], root, env);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(server.requests.length, 3);
    assert.ok(server.requests.every((r) => r.prompt.startsWith("MY PROMPT\n\n## Conversation: ")));
    assert.ok(run.stdout.includes("harvested: chats/a.jsonl\n"));
    assert.ok(run.stdout.includes("harvest failed: chats/b.jsonl: Harvest output invalid"));
    assert.ok(run.stdout.includes("reclaimed: chats/a.jsonl\n"));
    assert.ok(run.stdout.includes("harvested items: facts:1, decisions:0,"));
    assert.ok(run.stdout.includes("digest: slop/knowledge/digest.md ("));
    assert.equal(await exists(join(root, "chats/a.jsonl")), false);
    assert.ok(await exists(join(root, "chats/b.jsonl")));
    for (const file of ["facts.md", "digest.md", "ledger.json"]) {
      assert.ok(!(await read(root, file)).includes(LLM_TEST_KEY), file);
    }
  } finally {
    await server.close();
  }
});

Deno.test("findConversations() expands relative and absolute globs and literal paths, sorted", async () => {
  const { findConversations } = await import("../../knowledge/_conversations.ts");
  const outside = await makeProject({ "logs/x.jsonl": "", "logs/deep/y.jsonl": "", "z.txt": "" });
  const root = await makeProject({ "chats/a.jsonl": "", "chats/node_modules/n.jsonl": "" });
  const found = await findConversations(
    ["chats/**/*.jsonl", `${outside}/logs/**/*.jsonl`, `${outside}/z.txt`, "missing.jsonl"],
    root,
  );
  assert.deepEqual(
    found,
    [
      join(outside, "logs/deep/y.jsonl"),
      join(outside, "logs/x.jsonl"),
      join(outside, "z.txt"),
      join(root, "chats/a.jsonl"),
    ].sort(),
  );
});
