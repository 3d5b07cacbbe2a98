import assert from "node:assert/strict";
import { join } from "node:path";
import { fixture, makeProject, runCliShared, type Tree } from "../_helpers.ts";
import { isLockVariant, lockVariant, parseLock } from "../../pipeline/lock.ts";
import { walk } from "../../pipeline/resolve.ts";
import { formatCount } from "../../pipeline/figures.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, startLlmServer } from "../_llm_server.ts";

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
  const run = await runCliShared(["check"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /the stable prefix matches slop\.lock \(5 blocks, [^,]+, \d+ o200k tokens\)$/m,
  );
});

Deno.test("slop check reports an edited file: block, byte offset, hashes, invalidated tokens", async () => {
  const root = await prefixProject();
  const lock = await pinnedLock(root);
  const i = lock.lines.findIndex((l) => l.id === "files:src/store.py");
  assert.ok(i > 1, "store.py is not the first file");
  await Deno.writeTextFile(join(root, "src/store.py"), "\n# edited\n", { append: true });
  const run = await runCliShared(["check"], root);
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
    new RegExp(
      `byte offset: ${formatCount(offset)} of ${formatCount(lock.total.bytes)} pinned bytes`,
    ),
  );
  assert.match(
    run.stderr,
    new RegExp(`content changed: sha256 ${lock.lines[i].sha256.slice(0, 12)} -> [0-9a-f]{12}`),
  );
  assert.match(
    run.stderr,
    new RegExp(`invalidated: ${lost} of ${lock.total.tokens} o200k prefix tokens`),
  );
  assert.match(run.stderr, /1 changed, 0 added, 0 removed/);
  // The way out, for a reviewer: re-pin only an intended change, and commit the lock with it.
  assert.match(
    run.stderr,
    /\nwhen the change is intended, run `slop check --update` to re-pin and commit slop\.lock with it\n$/,
  );
  // A small drift's cost in millionths (formatDollars), never "$0.0000" for a cost that is not nil.
  const cost = /cost of the next call: (.*)/.exec(run.stderr)?.[1] ?? "";
  assert.match(cost, /^\+anthropic claude-haiku-4-5 \$0\.\d{6}, \+openai gpt-5-mini \$0\.\d{6}, /);
  assert.doesNotMatch(cost, /\$0\.0000(,|$)/);

  const share = (lost / lock.total.tokens) * 100;
  const loose = await runCliShared(["check", "--max-invalidated", `${Math.ceil(share)}%`], root);
  assert.equal(loose.code, 0, loose.stderr);
  assert.match(loose.stdout, /within --max-invalidated \d+%: passing/);
  const tight = await runCliShared(["check", "--max-invalidated", `${lost - 1}`], root);
  assert.equal(tight.code, 1);
  assert.match(tight.stderr, new RegExp(`over --max-invalidated ${lost - 1}`));
});

Deno.test("slop check reports an added file after the pinned files, with nothing invalidated", async () => {
  const root = await prefixProject();
  await Deno.writeTextFile(join(root, "src/zzz_new.ts"), "export const fresh = true;\n");
  const run = await runCliShared(["check"], root);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /"files:src\/zzz_new.ts" \(section files, file src\/zzz_new.ts\)/);
  assert.match(run.stderr, /what changed: added \(not in the lock\)/);
  assert.match(run.stderr, /invalidated: 0 of \d+ o200k prefix tokens \(0\.0%\)/);
  const budget = await runCliShared(["check", "--max-invalidated", "0"], root);
  assert.equal(budget.code, 0, "an append invalidates no cached token");
});

Deno.test("slop check reports a removed file", async () => {
  const root = await prefixProject();
  const lock = await pinnedLock(root);
  const first = lock.lines[1].id.slice("files:".length);
  await Deno.remove(join(root, first));
  const run = await runCliShared(["check"], root);
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
  const run = await runCliShared(["check"], root);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /first divergent block: #2 /);
  assert.match(run.stderr, /what changed: moved from block #2 to #3/);
  assert.match(run.stderr, /0 changed, 0 added, 0 removed, [1-9]\d* moved/);
});

Deno.test("slop check --update re-pins, and a missing lock fails with a hint", async () => {
  const root = await prefixProject();
  await Deno.remove(join(root, "slop.lock"));
  const missing = await runCliShared(["check"], root);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /No lock "slop\.lock": run `slop check --update`/);
  await Deno.writeTextFile(join(root, "src/report.ts"), "// changed\n", { append: true });
  const update = await runCliShared(["check", "--update"], root);
  assert.equal(update.code, 0, update.stderr);
  assert.match(update.stdout, /pinned 5 blocks, .* o200k tokens in slop\.lock/);
  const lock = await pinnedLock(root);
  assert.equal(lock.lines[0].id, "files");
  assert.ok(lock.lines.every((l) => /^[0-9a-f]{64}$/.test(l.sha256)));
  const again = await runCliShared(["check"], root);
  assert.equal(again.code, 0, again.stderr);
  // With --json, the summary on stdout (it printed nothing), the pinned line on stderr.
  await Deno.writeTextFile(join(root, "src/report.ts"), "// again\n", { append: true });
  const json = await runCliShared(["check", "--update", "--json"], root);
  assert.equal(json.code, 0, json.stderr);
  const summary = JSON.parse(json.stdout);
  assert.equal(summary.lock, "slop.lock");
  assert.equal(summary.pinned, true);
  assert.equal(summary.diff.file, "src/report.ts");
  assert.equal(summary.total.tokens, (await pinnedLock(root)).total.tokens);
  assert.match(json.stderr, /pinned 5 blocks/);
});

Deno.test("slop check rejects a malformed --max-invalidated", async () => {
  const root = await prefixProject();
  const run = await runCliShared(["check", "--max-invalidated", "lots"], root);
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /Invalid --max-invalidated "lots": expected PERCENT% \(0-100\) or TOKENS/,
  );
});

// Git for Windows checks text files out with CRLF line ends (core.autocrlf): a slop.lock pinned
// on Linux must pass `slop check` there. A path with a CR in it must not break the lock either.
Deno.test("slop check reads a slop.lock with CRLF line ends, also when a path holds a CR", async () => {
  const root = await makeProject({
    "a.md": "# A\n",
    "b.ts": "export const b = 1;\n",
    "cr\rname.md": "cr\n",
    "tab\tname.md": "tab\n",
    "new\nline.md": "nl\n",
  });
  const pinned = await runCliShared(["check", "--update"], root);
  assert.equal(pinned.code, 0, pinned.stderr);
  const lockPath = join(root, "slop.lock");
  const lf = await Deno.readTextFile(lockPath);
  assert.ok(!lf.includes("\r"), "no raw CR in the lock");
  assert.match(lf, /^files:cr\\rname\.md\t/m);

  const same = await runCliShared(["check"], root);
  assert.equal(same.code, 0, same.stderr);
  await Deno.writeTextFile(lockPath, lf.replace(/\n/g, "\r\n"));
  const crlf = await runCliShared(["check"], root);
  assert.equal(crlf.code, 0, crlf.stdout + crlf.stderr);
  assert.match(crlf.stdout, /the stable prefix matches slop\.lock/);
});

const CONFIG = `export default {
  files: ["src/**"],
  personas: { worker: { tier: 3, focus: ["src/a.py"] } },
  presets: { api: { files: ["src/a.py"] } },
};
`;

async function project(): Promise<string> {
  return await makeProject({
    "slop.config.ts": CONFIG,
    "src/a.py": "def a(x):\n    return x + 1\n",
    "src/b.py": "def b(y):\n    '''Double.'''\n    return y * 2\n",
  });
}

Deno.test("lockVariant() names a persona's and a preset's lock beside slop.lock", () => {
  assert.equal(lockVariant("/p/slop.lock", []), "/p/slop.lock");
  assert.equal(lockVariant("/p/slop.lock", ["worker"]), "/p/slop.worker.lock");
  assert.equal(lockVariant("/p/slop.lock", ["worker", "api"]), "/p/slop.worker.api.lock");
  assert.equal(lockVariant("/p/pins/prefix", [undefined, "api"]), "/p/pins/prefix.api");
  assert.ok(isLockVariant("slop.worker.lock", "slop.lock"));
  assert.ok(!isLockVariant("slop.ts", "slop.lock"));
  assert.ok(!isLockVariant("src/slop.worker.lock", "slop.lock"));
});

Deno.test("slop check --persona pins its own lock and never overwrites slop.lock", async () => {
  const root = await project();
  assert.equal((await runCliShared(["check", "--update"], root)).code, 0);
  const base = await Deno.readTextFile(join(root, "slop.lock"));
  const run = await runCliShared(["check", "--update", "--persona", "worker"], root);
  assert.equal(run.code, 0, run.stderr);
  const worker = await Deno.readTextFile(join(root, "slop.worker.lock"));
  assert.notEqual(worker, base, "tier 3 renders other bytes");
  assert.equal(await Deno.readTextFile(join(root, "slop.lock")), base, "slop.lock untouched");
  // Both pass against their own lock.
  assert.equal((await runCliShared(["check"], root)).code, 0);
  assert.equal((await runCliShared(["check", "--persona", "worker"], root)).code, 0);
  assert.equal((await runCliShared(["check", "--preset", "api"], root)).code, 1, "no lock yet");
});

Deno.test("a persona's lock is never bundled as a file", async () => {
  const root = await project();
  await Deno.writeTextFile(join(root, "slop.worker.lock"), "# pinned elsewhere\n");
  const zero = await runCliShared(
    ["build", "--stdout", "-c", "slop.config.ts", "--include", "*.lock"],
    root,
  );
  assert.equal(zero.code, 0, zero.stderr);
  assert.ok(!zero.stdout.includes("slop.worker.lock"), zero.stdout);
});

Deno.test("slop check with a persona or preset tells the command that re-pins its own lock", async () => {
  const root = await project();
  const missing = await runCliShared(["check", "--persona", "worker", "--preset", "api"], root);
  assert.equal(missing.code, 1);
  assert.match(
    missing.stderr,
    /No lock "slop\.worker\.api\.lock": run `slop check --persona worker --preset api --update` to pin/,
  );
  const update = "slop check --persona worker --preset api --update";
  assert.equal((await runCliShared(update.split(" ").slice(1), root)).code, 0);
  await Deno.writeTextFile(join(root, "src/a.py"), "def a(x):\n    return x + 2\n");
  const moved = await runCliShared(["check", "--persona", "worker", "--preset", "api"], root);
  assert.equal(moved.code, 1);
  assert.match(moved.stderr, /run `slop check --persona worker --preset api --update` to re-pin/);
  // A config given by path is part of the command.
  const other = await runCliShared(["check", "-c", "slop.config.ts"], root);
  assert.match(other.stderr, /run `slop check --config slop\.config\.ts --update` to pin/);
});

Deno.test("slop check --determinism names the view of the differing block and says when a model answered anew", async () => {
  let n = 0;
  const server = startLlmServer({ reply: () => `Summary number ${++n}.` });
  try {
    const provider = { ...server.provider("openai"), model: "gpt-5-mini" };
    const root = await makeProject({
      "src/a.py": "def a():\n    return 1\n",
      "slop.config.ts": `export default ${
        JSON.stringify({ files: [{ path: "src/**", view: "llm_summary" }], provider })
      };\n`,
    });
    const env = { [LLM_TEST_KEY_ENV]: LLM_TEST_KEY };
    assert.equal((await runCliShared(["build", "-q"], root, env)).code, 0);
    const run = await runCliShared(["check", "--determinism"], root, env);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^slop: Not deterministic: two builds differ at byte \d+ \(block "files:src\/a\.py", view "llm_summary": the model was asked again in the build without the cache\) \(\d+ vs \d+ bytes\)\n$/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("slop check --determinism names the first block whose content differs when the differing byte is a moved block", async () => {
  // "z.txt" renders the time zone; "b.txt" is longer than it in one zone only. With no memory,
  // no lock and no git, files go by size, largest first: "b.txt" is where the bytes first
  // differ in one order, but only "z.txt" changed.
  const root = await makeProject({
    "slop.config.ts": `export default {
  files: ["b.txt", { path: "z.txt", view: "zone" }],
  plugins: [{
    kind: "view-mode",
    name: "zone",
    version: "1",
    render: () => Deno.env.get("TZ") === "America/Adak" ? "x".repeat(200) : "y",
  }],
};
`,
    "b.txt": "b".repeat(100) + "\n",
    "z.txt": "z\n",
  });
  const run = await runCliShared(["check", "--determinism"], root);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /; first block whose content differs: "files:z\.txt" \(view "zone"\)\n$/,
  );
});
