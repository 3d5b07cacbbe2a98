import assert from "node:assert/strict";
import { join } from "node:path";
import { build, buildContext, defaultPlugins, loadConfig, prepareBuild } from "../../mod.ts";
import { git, makeProject, REPO, runCliShared, tempDir, V8_FLAGS } from "../_helpers.ts";

const MEMORY = ["order", "context.json"];

function body(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `${name} line ${i}`).join("\n") + "\n";
}

/** A git project of three files; the state dir is outside it. */
async function project(): Promise<{ root: string; stateDir: string }> {
  const root = await makeProject({
    "a.ts": body("a", 30),
    "b.ts": body("b", 20),
    "c.ts": body("c", 10),
  });
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "init");
  return { root, stateDir: await tempDir() };
}

async function memoryPaths(stateDir: string): Promise<string[] | undefined> {
  try {
    const data = JSON.parse(await Deno.readTextFile(join(stateDir, ...MEMORY)));
    return data.files.map((f: { path: string }) => f.path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

const fileOrder = (document: string) => [...document.matchAll(/^### (\S+)$/gm)].map((m) => m[1]);

Deno.test("order memory: slop build --stdout records it, with the order the piped document has", async () => {
  const { root, stateDir } = await project();
  const run = await runCliShared(["build", "--stdout", "--quiet", "--state-dir", stateDir], root);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(await memoryPaths(stateDir), fileOrder(run.stdout));
  assert.equal(fileOrder(run.stdout).length, 3);
});

Deno.test("order memory: slop build --json and --stdout --json record it", async () => {
  for (const flags of [["--json"], ["--stdout", "--json"]]) {
    const { root, stateDir } = await project();
    const run = await runCliShared(["build", ...flags, "--quiet", "--state-dir", stateDir], root);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await memoryPaths(stateDir))?.length, 3, flags.join(" "));
  }
});

Deno.test("order memory: the library's build() and buildContext() record it without writing a document", async () => {
  const one = await project();
  const result = await buildContext({ cwd: one.root, stateDir: one.stateDir }, { write: false });
  assert.equal(result.output, undefined);
  assert.deepEqual(await memoryPaths(one.stateDir), fileOrder(result.document));

  const two = await project();
  const config = await loadConfig({ cwd: two.root, stateDir: two.stateDir });
  const built = await build(config, { builtins: defaultPlugins(), write: false });
  assert.deepEqual(await memoryPaths(two.stateDir), fileOrder(built.document));
  // A caller that only looks says so.
  const three = await project();
  await buildContext({ cwd: three.root, stateDir: three.stateDir }, {
    write: false,
    remember: false,
  });
  assert.equal(await memoryPaths(three.stateDir), undefined);
});

Deno.test("order memory: a prepared build (the build server's) records it when finished, piped or written, not when dropped", async () => {
  const { root, stateDir } = await project();
  const config = await loadConfig({ cwd: root, stateDir });
  const dropped = await prepareBuild(config, { builtins: defaultPlugins() });
  dropped.discard();
  assert.equal(await memoryPaths(stateDir), undefined);
  const piped = await prepareBuild(config, { builtins: defaultPlugins() });
  const result = await piped.finish({ write: false });
  assert.deepEqual(await memoryPaths(stateDir), fileOrder(result.document));
});

Deno.test("order memory: inspection commands (stats, report, check) leave it alone", async () => {
  const { root, stateDir } = await project();
  for (
    const args of [["stats", "--build"], ["report", "--build", "-o", join(stateDir, "r.html")]]
  ) {
    const run = await runCliShared([...args, "--state-dir", stateDir], root);
    assert.equal(run.code, 0, `${args[0]}: ${run.stderr}`);
    assert.equal(await memoryPaths(stateDir), undefined, `${args[0]} recorded an order`);
  }
  const check = await runCliShared(["check", "--update", "--state-dir", stateDir], root);
  assert.equal(check.code, 0, check.stderr);
  assert.equal(await memoryPaths(stateDir), undefined, "check recorded an order");
});

Deno.test("order memory: piped builds give the bytes written builds give, edit after edit", async () => {
  const piped = await project();
  const written = await project();
  const edits: Array<[string, string]> = [
    ["a.ts", body("a v2", 30)],
    ["c.ts", body("c v2", 12)],
    ["a.ts", body("a v3", 31)],
    ["d.ts", body("d", 5)],
    ["b.ts", body("b v2", 20)],
  ];
  for (let i = 0; i <= edits.length; i++) {
    if (i > 0) {
      const [path, text] = edits[i - 1];
      await Deno.writeTextFile(join(piped.root, path), text);
      await Deno.writeTextFile(join(written.root, path), text);
    }
    const out = await runCliShared(
      ["build", "--stdout", "--quiet", "--state-dir", piped.stateDir],
      piped.root,
    );
    // The written build, the reference, runs in this process: the same build a CLI start runs.
    await buildContext({ cwd: written.root, stateDir: written.stateDir });
    assert.equal(out.code, 0, out.stderr);
    const number = String(i + 1).padStart(3, "0");
    const doc = await Deno.readTextFile(join(written.stateDir, "out", `context_${number}.md`));
    assert.equal(out.stdout, doc, `build ${i + 1}`);
  }
});

/** A process that builds `rounds` times, editing its own file before each build. */
const BUILDER = `
import { buildContext } from ${JSON.stringify(join(REPO, "mod.ts"))};
const [root, stateDir, name, rounds] = Deno.args;
for (let i = 0; i < Number(rounds); i++) {
  await Deno.writeTextFile(root + "/" + name + ".ts", "export const v = " + i + ";\\n".repeat(i + 1));
  await buildContext({ cwd: root, stateDir }, { write: i % 2 === 0 });
}
`;

/** A process that reads the order memory until told to stop; any torn read is printed. */
const READER = `
const [path, stop] = Deno.args;
let reads = 0;
for (;;) {
  let text;
  try { text = await Deno.readTextFile(path); } catch { text = undefined; }
  if (text !== undefined) {
    reads++;
    const data = JSON.parse(text);
    if (data.version !== 1 || !Array.isArray(data.files)) throw new Error("not a whole memory");
  }
  try { await Deno.stat(stop); break; } catch { /* go on */ }
}
console.log(reads);
`;

Deno.test("order memory: builds in concurrent processes leave a whole memory, never a torn file", async () => {
  const files: Record<string, string> = {};
  // Enough files that the memory takes more than one write to put down.
  for (let i = 0; i < 400; i++) files[`src/m${String(i).padStart(3, "0")}.ts`] = body(`m${i}`, 3);
  const root = await makeProject(files);
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "init");
  const stateDir = await tempDir();
  const scripts = await tempDir();
  await Deno.writeTextFile(join(scripts, "builder.ts"), BUILDER);
  await Deno.writeTextFile(join(scripts, "reader.ts"), READER);
  const path = join(stateDir, ...MEMORY);
  const stop = join(scripts, "stop");
  const spawn = (script: string, args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", V8_FLAGS, join(scripts, script), ...args],
      stdout: "piped",
      stderr: "piped",
    }).output();
  const reader = spawn("reader.ts", [path, stop]);
  const builders = await Promise.all(
    ["p", "q", "r"].map((name) => spawn("builder.ts", [root, stateDir, name, "4"])),
  );
  await Deno.writeTextFile(stop, "");
  const read = await reader;
  const dec = new TextDecoder();
  for (const b of builders) assert.equal(b.code, 0, dec.decode(b.stderr));
  assert.equal(read.code, 0, `a reader saw a torn memory: ${dec.decode(read.stderr)}`);
  assert.ok(Number(dec.decode(read.stdout)) > 0, "the reader read the memory");
  // The memory left is whole: every file once, each entry complete.
  const data = JSON.parse(await Deno.readTextFile(path));
  const paths: string[] = data.files.map((f: { path: string }) => f.path);
  assert.equal(new Set(paths).size, paths.length);
  assert.ok(paths.length >= 400, `${paths.length} files`);
  for (const f of data.files) {
    assert.ok(
      typeof f.sha256 === "string" && Number.isFinite(f.changes) && Number.isFinite(f.last),
    );
  }
  // No temp file is left beside it, and the next build takes its order from it.
  const left = [...Deno.readDirSync(join(stateDir, "order"))].map((e) => e.name);
  assert.deepEqual(left, ["context.json"]);
  const next = await buildContext({ cwd: root, stateDir }, { write: false });
  assert.deepEqual(fileOrder(next.document).slice(0, 10), paths.slice(0, 10));
});
