import assert from "node:assert/strict";
import { join } from "node:path";
import { RACY_MS } from "../../accel/stat_index.ts";
import { makeProject, runCli, tempDir, type Tree, V8_FLAGS } from "../_helpers.ts";

const TREE: Tree = {
  "src/app.py": "import os\n\n\ndef main():\n    return os.getcwd()\n",
  "src/util.ts": "export function add(a: number, b: number) {\n  return a + b;\n}\n",
  "docs/guide.md": "# Guide\n\nInstall it.\n\n## Use\n\nRun it.\n",
  "notes.txt": "plain notes\n",
  "slop.config.ts": `export default { files: ["src/**", "docs/**", "notes.txt"] };\n`,
};

/** Files written just before a build are read again by the next one (racily clean): wait first. */
function pastRacyWindow(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
}

const BIG_LINES = Array.from({ length: 400 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`);

/**
 * The projects of the tests that build past the racy window, written together and waited for
 * once (by the first test that asks) rather than once per test.
 */
let settled: Promise<Record<"warm" | "damaged" | "edited", string>> | undefined;
function settledProjects(): Promise<Record<"warm" | "damaged" | "edited", string>> {
  settled ??= (async () => {
    const roots = {
      warm: await makeProject(TREE),
      damaged: await makeProject(TREE),
      edited: await makeProject({ ...TREE, "src/big.py": BIG_LINES.join("\n") }),
    };
    await pastRacyWindow();
    return roots;
  })();
  return settled;
}
// Started as the module loads: the wait runs while the first test (which needs none) does.
settledProjects();

/** A build in a new process (`buildContext`): the manifest, the document and where the table came from. */
async function probe(root: string, state: string, env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      V8_FLAGS,
      `import { buildContext } from ${
        JSON.stringify(new URL("../../mod.ts", import.meta.url).href)
      };
       import { tableOrigins } from ${
        JSON.stringify(new URL("../../pipeline/count.ts", import.meta.url).href)
      };
       import { differenceServed } from ${
        JSON.stringify(new URL("../../accel/count_diff.ts", import.meta.url).href)
      };
       const r = await buildContext({ cwd: ${JSON.stringify(root)}, stateDir: ${
        JSON.stringify(state)
      } }, { workers: 1 });
       console.log(JSON.stringify({ origins: tableOrigins(), diffs: differenceServed(), document: r.document, blocks: r.manifest.blocks }));`,
    ],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("a cold build that rendered views anew reads the table in the background while it composes and orders", async () => {
  const root = await makeProject({
    ...TREE,
    "slop.config.ts": `export default { files: ["src/**"], defaultView: "skeleton" };\n`,
  });
  const home = await tempDir();
  const env = { SLOP_CACHE_HOME: home };
  // The first build on this machine stores the table; a cold build (new state) then reads it.
  await probe(root, join(root, ".first"), env);
  const cold = await probe(root, join(root, ".cold"), env);
  assert.deepEqual(cold.origins, { o200k: "background" });
  const other = await probe(root, join(root, ".other"), { SLOP_CACHE_HOME: await tempDir() });
  assert.equal(cold.document, other.document);
  assert.deepEqual(cold.blocks, other.blocks);
});

Deno.test("a warm build after one edit reads the stored table in the background; same bytes as a fresh build", async () => {
  const root = (await settledProjects()).warm;
  const home = await tempDir();
  const env = { SLOP_CACHE_HOME: home };
  const state = join(root, ".state");
  assert.equal((await runCli(["build", "-q", "--state-dir", state], root, env)).code, 0);
  const [table] = [...Deno.readDirSync(home)].map((e) => join(home, e.name));
  const stamp = (await Deno.stat(table)).mtime;
  await Deno.writeTextFile(join(root, "src/app.py"), TREE["src/app.py"] + "\nX = 1\n");
  const warm = await probe(root, state, env);
  assert.deepEqual(warm.origins, { o200k: "background" });
  assert.deepEqual((await Deno.stat(table)).mtime, stamp, "read, not written again");
  // The same tree from nothing (no cache; the same order memory, which is state).
  const fresh = join(root, ".fresh");
  await Deno.mkdir(join(fresh, "order"), { recursive: true });
  await Deno.copyFile(join(state, "order", "context.json"), join(fresh, "order", "context.json"));
  const cold = await probe(root, fresh, env);
  // From the read stage's end, so the scan's workers can count early as soon as they are done.
  assert.equal(cold.origins.o200k, "background", "a cold build reads the table in the background");
  assert.match(warm.document, /X = 1/);
  assert.equal(warm.document, cold.document);
  assert.deepEqual(warm.blocks, cold.blocks);
});

Deno.test("a damaged stored table is not taken from the background read: rebuilt, same bytes", async () => {
  const root = (await settledProjects()).damaged;
  const home = await tempDir();
  const env = { SLOP_CACHE_HOME: home };
  const state = join(root, ".state");
  assert.equal((await runCli(["build", "-q", "--state-dir", state], root, env)).code, 0);
  const [table] = [...Deno.readDirSync(home)].map((e) => join(home, e.name));
  const good = await Deno.readFile(table);
  const flipped = good.slice();
  flipped[good.length - 100] ^= 1;
  await Deno.writeFile(table, flipped);
  await Deno.writeTextFile(join(root, "notes.txt"), "changed notes\n");
  const warm = await probe(root, state, env);
  assert.deepEqual(warm.origins, { o200k: "other" }, "built from the tokenizer's ranks");
  assert.deepEqual(await Deno.readFile(table), good, "stored again as it was");
  const cold = await probe(root, join(root, ".fresh"), { SLOP_CACHE_HOME: await tempDir() });
  assert.match(warm.document, /changed notes/);
  assert.equal(warm.document, cold.document);
  assert.deepEqual(warm.blocks, cold.blocks);
});

Deno.test("a block edited in a few lines is counted by difference; same bytes as a fresh build", async () => {
  const lines = BIG_LINES;
  const root = (await settledProjects()).edited;
  const env = { SLOP_CACHE_HOME: await tempDir() };
  const state = join(root, ".state");
  assert.equal((await runCli(["build", "-q", "--state-dir", state], root, env)).code, 0);
  const edited = [...lines];
  edited.splice(200, 1, "def inserted(y):\n    return y  # édit 🙂\n");
  await Deno.writeTextFile(join(root, "src/big.py"), edited.join("\n"));
  const warm = await probe(root, state, env);
  assert.equal(warm.diffs, 1, "the edited block");
  const fresh = join(root, ".fresh");
  await Deno.mkdir(join(fresh, "order"), { recursive: true });
  await Deno.copyFile(join(state, "order", "context.json"), join(fresh, "order", "context.json"));
  const cold = await probe(root, fresh, env);
  assert.equal(cold.diffs, 0);
  assert.match(warm.document, /def inserted/);
  assert.equal(warm.document, cold.document);
  assert.deepEqual(warm.blocks, cold.blocks);
});
