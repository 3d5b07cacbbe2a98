import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli } from "../_helpers.ts";

function chat(text: string): string {
  return JSON.stringify({ role: "User", content: text }) + "\n";
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("the --no-harvest dry run counts what --apply --reclaim deletes, copies included, and asks no price", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default ${
      JSON.stringify({ knowledge: { conversations: ["chats/*.jsonl"] } })
    };\n`,
    "chats/a.jsonl": chat("we chose postgres"),
    "chats/a_copy.jsonl": chat("we chose postgres"),
    "chats/b.jsonl": chat("other"),
  });
  const dry = await runCli(["knowledge", "harvest", "--no-harvest"], root);
  assert.equal(dry.code, 0, dry.stderr);
  const line = dry.stdout.split("\n").find((l) => l.startsWith("reclaim candidates:"))!;
  // Nothing is sent: no token estimate and no price to ask for.
  assert.doesNotMatch(dry.stdout, /input tokens|--price/);

  const run = await runCli(["knowledge", "harvest", "--apply", "--no-harvest", "--reclaim"], root);
  assert.equal(run.code, 0, run.stderr);
  const reclaimed = run.stdout.split("\n").find((l) => /^reclaimed: \d+ \(/.test(l))!;
  assert.match(reclaimed, /^reclaimed: 3 \((\d+ B)/);
  assert.equal(line.match(/^reclaim candidates: (\d+) \((\d+ B)/)?.[1], "3");
  assert.equal(line.match(/\((\d+ B)/)?.[1], reclaimed.match(/\((\d+ B)/)?.[1]);
  for (const name of ["a.jsonl", "a_copy.jsonl", "b.jsonl"]) {
    assert.equal(await exists(join(root, "chats", name)), false, name);
  }
  // No model was asked, so no harvest prompt was written for one.
  assert.equal(await exists(join(root, "slop/prompts/harvest-conversation.md")), false);
  assert.doesNotMatch(run.stdout, /^prompt:/m);
});
