import assert from "node:assert/strict";
import { makeProject, runCliShared } from "../_helpers.ts";

Deno.test("slop knowledge digest names a category file it cannot read", async () => {
  const root = await makeProject({
    "slop/knowledge/facts.md": "- a fact [from: chat, 2026-01-01]\n",
    "slop/knowledge/decisions.md/keep": "",
  });
  const run = await runCliShared(["knowledge", "digest"], root);
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
  const run = await runCliShared(["knowledge", "harvest", "--apply"], root);
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
  const run = await runCliShared(["knowledge", "harvest"], root);
  assert.equal(run.code, 2, run.stderr);
  assert.equal(
    run.stderr,
    "slop: No conversations to harvest without a config file: `slop init` writes one, where you " +
      'set "knowledge.conversations" to globs of conversation files\n',
  );
});

// A category file saved by an editor in Latin-1 (`Größe`, `café`) was read as UTF-8: its words
// reached the digest as U+FFFD, and an append wrote them back so, lost for good. A FIFO in a
// category file's place held the read forever.
Deno.test("the knowledge store reads a category file in an older encoding, and writes its words back", async () => {
  const { appendLines, readCategory } = await import("../../knowledge/store.ts");
  const root = await makeProject({ "slop/knowledge/keep": "" });
  const dir = `${root}/slop/knowledge`;
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  await Deno.writeFile(
    `${dir}/facts.md`,
    latin1("# Facts\n\n- Das Café öffnet um acht, die Größe ist fix [from: chat, 2026-01-01]\n"),
  );
  const line = "- Die Straße ist gesperrt [from: chat, 2026-01-02]";
  await appendLines(dir, { category: "facts", lines: [line] });
  assert.equal(
    await Deno.readTextFile(`${dir}/facts.md`),
    "# Facts\n\n- Das Café öffnet um acht, die Größe ist fix [from: chat, 2026-01-01]\n" +
      `${line}\n`,
  );
  assert.match((await readCategory(dir, "facts")).join("\n"), /Das Café öffnet um acht/);
  const run = await runCliShared(["knowledge", "digest"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(await Deno.readTextFile(`${dir}/digest.md`), /die Größe ist fix/);

  // A FIFO where a category file goes is refused at once, named, not waited on.
  await Deno.remove(`${dir}/facts.md`);
  await new Deno.Command("mkfifo", { args: [`${dir}/facts.md`] }).output();
  const fifo = await runCliShared(["knowledge", "digest"], root);
  assert.equal(fifo.code, 1);
  assert.match(
    fifo.stderr,
    /^slop: Cannot read "slop\/knowledge\/facts\.md": it is not a regular file/,
  );
});
