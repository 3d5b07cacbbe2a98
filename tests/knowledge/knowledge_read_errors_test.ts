import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("slop knowledge digest names a category file it cannot read", async () => {
  const root = await makeProject({
    "slop/knowledge/facts.md": "- a fact [from: chat, 2026-01-01]\n",
    "slop/knowledge/decisions.md/keep": "",
  });
  const run = await runCli(["knowledge", "digest"], root);
  assert.equal(run.code, 1);
  assert.equal(run.stderr, `slop: Cannot read "slop/knowledge/decisions.md": it is a folder\n`);
});

Deno.test("slop knowledge harvest --apply without a provider stops before asking, writing nothing", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default ${
      JSON.stringify({ knowledge: { conversations: ["chats/*.jsonl"] } })
    };\n`,
    "chats/a.jsonl": '{"role":"User","content":"we chose postgres"}\n',
  });
  const run = await runCli(["knowledge", "harvest", "--apply"], root);
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /^slop: Invalid config "slop\.config\.ts": No provider to harvest with: set "provider\.name"/,
  );
  const written = await Deno.lstat(`${root}/slop`).then(() => true, () => false);
  assert.equal(written, false, "no ledger, prompt or digest");
});

Deno.test("slop knowledge harvest without a config file says so in one sentence", async () => {
  const root = await makeProject({ "a.txt": "a\n" });
  const run = await runCli(["knowledge", "harvest"], root);
  assert.equal(run.code, 2, run.stderr);
  assert.equal(
    run.stderr,
    "slop: No conversations to harvest without a config file: `slop init` writes one, where you " +
      'set "knowledge.conversations" to globs of conversation files\n',
  );
});
