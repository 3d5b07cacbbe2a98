import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, tempDir } from "../_helpers.ts";
import { defaultPlugins, formatLock, loadConfig, parseLock } from "../../mod.ts";
import { checkPrefix } from "../../pipeline/pin.ts";
import { checkReport, checkSummary } from "../../cli/check.ts";

// Russian prose: o200k and cl100k count it very differently.
const PROSE = "Быстрая бурая лиса перепрыгивает через ленивую собаку.\n".repeat(30);

// Each tokenizer has its own config file: a module is imported once a process.
async function configOf(root: string, tokenizer: string) {
  return await loadConfig({
    cwd: root,
    config: join(root, `${tokenizer}.config.ts`),
    stateDir: await tempDir(),
  });
}

async function pin(root: string, tokenizer: string) {
  const config = await configOf(root, tokenizer);
  const check = await checkPrefix(config, { builtins: defaultPlugins() });
  await Deno.writeTextFile(join(root, "slop.lock"), formatLock(check.current));
  return check.current;
}

async function project(tree: Record<string, string>) {
  const configs: Record<string, string> = {};
  for (const tokenizer of ["o200k", "cl100k"]) {
    configs[`${tokenizer}.config.ts`] =
      `export default { files: ["*.md"], budget: { tokenizer: "${tokenizer}" } };\n`;
  }
  return await makeProject({ ...tree, ...configs });
}

Deno.test("slop.lock names a tokenizer other than o200k, and reads it back", async () => {
  const root = await project({ "a.md": PROSE, "b.md": "plain\n" });
  const lock = await pin(root, "cl100k");
  assert.equal(lock.tokenizer, "cl100k");
  const text = formatLock(lock);
  assert.match(text, /^# tokens counted by: cl100k$/m);
  assert.deepEqual(parseLock(text, "slop.lock"), lock);
  const plain = formatLock(await pin(root, "o200k"));
  assert.doesNotMatch(plain, /counted by/, "an o200k lock reads as before");
  assert.throws(
    () => parseLock(text.replace("cl100k", "p50k"), "slop.lock"),
    /Invalid lock "slop\.lock" line 2: tokenizer "p50k" is not "o200k" or "cl100k"/,
  );
});

Deno.test("slop check after budget.tokenizer changed: same bytes match, counted as the lock counts", async () => {
  const root = await project({ "a.md": PROSE, "b.md": "plain\n" });
  const pinned = await pin(root, "o200k");
  const config = await configOf(root, "cl100k");
  const check = await checkPrefix(config, { builtins: defaultPlugins() });
  assert.equal(check.diff, undefined, "the prefix's bytes are the pinned ones");
  assert.equal(check.tokenizer, "o200k");
  assert.equal(check.compared.total.tokens, pinned.total.tokens);
  assert.ok(check.current.total.tokens > pinned.total.tokens * 1.3, "current counts cl100k");
  const report = checkReport(check, "slop.lock");
  assert.match(report, /matches slop\.lock \(.*, \d+ o200k tokens\)/);
  assert.match(report, /slop\.lock counts o200k tokens, budget\.tokenizer "cl100k": run/);
  assert.equal(checkSummary(check, "slop.lock").total.tokens, pinned.total.tokens);

  // An edit: the invalidated tokens are the lock's own (o200k) counts.
  await Deno.writeTextFile(join(root, "a.md"), PROSE + "ещё\n");
  const edited = await checkPrefix(config, { builtins: defaultPlugins() });
  assert.ok(edited.diff);
  assert.equal(edited.diff.kind, "changed", "not a move: only the counts' tokenizer differs");
  const kept = pinned.lines.slice(0, edited.diff.index).reduce((n, l) => n + l.tokens, 0);
  assert.equal(edited.diff.invalidatedTokens, pinned.total.tokens - kept);
});
