import assert from "node:assert/strict";
import { join } from "node:path";
import { fixture, makeProject, runCli, type Tree } from "../_helpers.ts";
import { parseLock } from "../../pipeline/lock.ts";
import { walk } from "../../pipeline/resolve.ts";

/** A temp copy of the `prefix` fixture (a pinned slop.lock included). */
async function prefixProject(): Promise<string> {
  const src = fixture("prefix");
  const tree: Tree = {};
  for (const path of await walk(src)) tree[path] = await Deno.readFile(join(src, path));
  return await makeProject(tree);
}

async function pinnedLock(root: string) {
  return parseLock(await Deno.readTextFile(join(root, "slop.lock")), "slop.lock");
}

Deno.test("slop check passes when the stable prefix matches slop.lock", async () => {
  const root = await prefixProject();
  const run = await runCli(["check"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /the stable prefix matches slop\.lock \(5 blocks/);
});

Deno.test("slop check reports an edited file: block, byte offset, hashes, invalidated tokens", async () => {
  const root = await prefixProject();
  const lock = await pinnedLock(root);
  const i = lock.lines.findIndex((l) => l.id === "files:src/store.py");
  assert.ok(i > 1, "store.py is not the first file");
  await Deno.writeTextFile(join(root, "src/store.py"), "\n# edited\n", { append: true });
  const run = await runCli(["check"], root);
  assert.equal(run.code, 1);
  const offset = lock.lines.slice(0, i).reduce((n, l) => n + l.bytes, 0);
  const valid = lock.lines.slice(0, i).reduce((n, l) => n + l.tokens, 0);
  const lost = lock.total.tokens - valid;
  assert.match(
    run.stderr,
    new RegExp(
      `first divergent block: #${
        i + 1
      } "files:src/store.py" \\(section files, file src/store.py\\)`,
    ),
  );
  assert.match(
    run.stderr,
    new RegExp(`byte offset: ${offset} of ${lock.total.bytes} pinned bytes`),
  );
  assert.match(
    run.stderr,
    new RegExp(`content changed: sha256 ${lock.lines[i].sha256.slice(0, 12)} -> [0-9a-f]{12}`),
  );
  assert.match(
    run.stderr,
    new RegExp(`invalidated: ${lost} of ${lock.total.tokens} prefix tokens`),
  );
  assert.match(run.stderr, /1 changed, 0 added, 0 removed/);
  // The way out, for a reviewer: re-pin only an intended change, and commit the lock with it.
  assert.match(
    run.stderr,
    /\nwhen the change is intended, run `slop check --update` to re-pin and commit slop\.lock with it\n$/,
  );
  assert.match(
    run.stderr,
    /cost of the next call: \+anthropic claude-haiku-4-5 \$\d+\.\d{4}, \+openai gpt-5-mini \$/,
  );

  const share = (lost / lock.total.tokens) * 100;
  const loose = await runCli(["check", "--max-invalidated", `${Math.ceil(share)}%`], root);
  assert.equal(loose.code, 0, loose.stderr);
  assert.match(loose.stdout, /within --max-invalidated \d+%: passing/);
  const tight = await runCli(["check", "--max-invalidated", `${lost - 1}`], root);
  assert.equal(tight.code, 1);
  assert.match(tight.stderr, new RegExp(`over --max-invalidated ${lost - 1}`));
});

Deno.test("slop check reports an added file after the pinned files, with nothing invalidated", async () => {
  const root = await prefixProject();
  await Deno.writeTextFile(join(root, "src/zzz_new.ts"), "export const fresh = true;\n");
  const run = await runCli(["check"], root);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /"files:src\/zzz_new.ts" \(section files, file src\/zzz_new.ts\)/);
  assert.match(run.stderr, /what changed: added \(not in the lock\)/);
  assert.match(run.stderr, /invalidated: 0 of \d+ prefix tokens \(0\.0%\)/);
  const budget = await runCli(["check", "--max-invalidated", "0"], root);
  assert.equal(budget.code, 0, "an append invalidates no cached token");
});

Deno.test("slop check reports a removed file", async () => {
  const root = await prefixProject();
  const lock = await pinnedLock(root);
  const first = lock.lines[1].id.slice("files:".length);
  await Deno.remove(join(root, first));
  const run = await runCli(["check"], root);
  assert.equal(run.code, 1);
  assert.match(run.stderr, new RegExp(`first divergent block: #2 "files:${first}"`));
  assert.match(run.stderr, /what changed: removed \(was block #2, sha256 [0-9a-f]{12}\)/);
  assert.match(run.stderr, /0 changed, 0 added, 1 removed/);
});

Deno.test("slop check reports a reordered prefix as moved blocks", async () => {
  const root = await prefixProject();
  const lock = await pinnedLock(root);
  const last = lock.lines.at(-1)!.id.slice("files:".length);
  const config = await Deno.readTextFile(join(root, "slop.config.ts"));
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    config.replace("export default {", `export default { ordering: { pinned: ["${last}"] },`),
  );
  const run = await runCli(["check"], root);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /first divergent block: #2 /);
  assert.match(run.stderr, /what changed: moved from block #2 to #3/);
  assert.match(run.stderr, /0 changed, 0 added, 0 removed, [1-9]\d* moved/);
});

Deno.test("slop check --update re-pins, and a missing lock fails with a hint", async () => {
  const root = await prefixProject();
  await Deno.remove(join(root, "slop.lock"));
  const missing = await runCli(["check"], root);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /No lock "slop\.lock": run `slop check --update`/);
  await Deno.writeTextFile(join(root, "src/report.ts"), "// changed\n", { append: true });
  const update = await runCli(["check", "--update"], root);
  assert.equal(update.code, 0, update.stderr);
  assert.match(update.stdout, /pinned 5 blocks, .* tokens in slop\.lock/);
  const lock = await pinnedLock(root);
  assert.equal(lock.lines[0].id, "files");
  assert.ok(lock.lines.every((l) => /^[0-9a-f]{64}$/.test(l.sha256)));
  const again = await runCli(["check"], root);
  assert.equal(again.code, 0, again.stderr);
});

Deno.test("slop check rejects a malformed --max-invalidated", async () => {
  const root = await prefixProject();
  const run = await runCli(["check", "--max-invalidated", "lots"], root);
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /Invalid --max-invalidated "lots": expected PERCENT% \(0-100\) or TOKENS/,
  );
});
