import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCliShared, tempDir } from "../_helpers.ts";
import { ok, serverCase } from "./_server.ts";
import { buildContext, loadConfig } from "../../mod.ts";
import { inputStamps, preparable, unchangedInputs } from "../../server/_prepare.ts";

const PROJECT = {
  "slop.config.ts": `export default { files: ["src/**"] };\n`,
  "src/a.py": "def a():\n    return 1\n",
  "src/b.ts": "export const b = 2;\n",
  "src/c.md": "# Notes\n\nSome words.\n",
};

/** `name` in the output folders of two projects. */
async function bothRead(a: string, b: string, name: string): Promise<[string, string]> {
  return [
    await Deno.readTextFile(join(a, ".slop/out", name)),
    await Deno.readTextFile(join(b, ".slop/out", name)),
  ];
}

/**
 * Write `text` over the file at `path` in one write, without truncating it first (`text` has the
 * file's length): the watcher sees one change. `Deno.writeTextFile` truncates, then writes; the
 * write's event can come after a prepare made on the truncation's, and the build asked for then
 * is built anew, which is right, but not what a test of the prepared build looks at.
 */
async function writeInPlace(path: string, text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  assert.equal(bytes.length, (await Deno.stat(path)).size, `an edit of "${path}" keeps its length`);
  const file = await Deno.open(path, { write: true });
  try {
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
  } finally {
    file.close();
  }
}

/**
 * The same project served by a build server and built in the process, each built once; `edit`
 * writes a file in both.
 */
async function twins() {
  const served = await serverCase(PROJECT);
  const local = await makeProject(PROJECT);
  ok(await served.slop(["build", "--server", "-q"]));
  await buildContext({ cwd: local }); // the first build, in this process: the same as a CLI start's
  const edit = async (path: string, text: string) => {
    for (const root of [served.root, local]) await writeInPlace(join(root, path), text);
  };
  return { served, local, edit };
}

Deno.test("a build server prepares the next build after an edit and writes what a build in the process writes", async () => {
  const { served, local, edit } = await twins();
  try {
    await edit("src/a.py", "def a():\n    return 2\n");
    assert.equal((await served.prepared(1)).prepares, 1);
    const second = ok(await served.slop(["build", "--server"]));
    assert.equal(second.stdout, ok(await runCliShared(["build"], local)).stdout);
    const status = await served.status();
    assert.equal(status?.lastBuildPrepared, true, `not finished: ${status?.lastPrepareUnused}`);
    assert.match(
      ok(await served.slop(["server", "status"])).stdout,
      /: 2 builds, last \d+ ms \(prepared in \d+ ms\);/,
    );
    assert.deepEqual(status?.lastChanges, { paths: ["src/a.py"], structural: false });
    // The same document and manifest (the edited file rendered anew, the others from the cache).
    for (const name of ["context_002.md", "context_002.json"]) {
      const [server, own] = await bothRead(served.root, local, name);
      assert.equal(server, own, name);
    }
    const manifest = JSON.parse(
      await Deno.readTextFile(join(served.root, ".slop/out/context_002.json")),
    );
    assert.deepEqual(
      manifest.files.map((f: { path: string; cache: string }) => [f.path, f.cache]),
      [["src/a.py", "miss"], ["src/b.ts", "hit"], ["src/c.md", "hit"]],
    );
    // The build's cache hits are recorded once it is finished.
    const stats = JSON.parse(ok(await served.slop(["cache", "stats", "--json"])).stdout);
    assert.deepEqual(stats.lastBuild.files, { hits: 2, misses: 1 });
    // Asked for with --stdout, a prepared build is printed and not written.
    const before = (await served.status())!.prepares;
    await edit("src/b.ts", "export const b = 3;\n");
    await served.prepared(before + 1);
    const printed = ok(await served.slop(["build", "--server", "--stdout", "-q"]));
    const after = await served.status();
    assert.equal(after?.lastBuildPrepared, true, `not finished: ${after?.lastPrepareUnused}`);
    assert.equal(printed.stdout, ok(await runCliShared(["build", "--stdout", "-q"], local)).stdout);
    const written = [...Deno.readDirSync(join(served.root, ".slop/out"))].map((e) => e.name);
    assert.ok(!written.includes("context_003.md"), "nothing written for --stdout");
  } finally {
    await served.stopAll();
  }
});

Deno.test("a build server builds anew when something changed after it prepared the build", async () => {
  const outside = await tempDir();
  const config = `export default { files: ["src/**"], knowledge: { dir: ${
    JSON.stringify(outside)
  }, digest: true } };\n`;
  const served = await serverCase({ ...PROJECT, "slop.config.ts": config });
  await Deno.writeTextFile(join(outside, "digest.md"), "- The first fact.\n");
  try {
    ok(await served.slop(["build", "--server", "-q"]));
    const document = () => Deno.readTextFile(join(served.root, ".slop/out/context_002.md"));
    // A project file edited after the prepare: the watcher tells the build.
    await Deno.writeTextFile(join(served.root, "src/a.py"), "def a():\n    return 2\n");
    await served.prepared(1);
    await Deno.writeTextFile(join(served.root, "src/a.py"), "def a():\n    return 3\n");
    ok(await served.slop(["build", "--server", "-q"]));
    assert.match(await document(), /return 3/);
    assert.doesNotMatch(await document(), /return 2/);
    // A file the watcher does not see (the digest lives outside the root): its stamp tells.
    let prepares = (await served.status())!.prepares;
    await Deno.writeTextFile(join(served.root, "src/b.ts"), "export const b = 3;\n");
    await served.prepared(++prepares);
    await Deno.writeTextFile(
      join(outside, "digest.md"),
      "- A newer fact, longer than the first.\n",
    );
    ok(await served.slop(["build", "--server", "-q"]));
    const digestStatus = await served.status();
    assert.equal(digestStatus?.lastBuildPrepared, false);
    assert.equal(
      digestStatus?.lastPrepareUnused,
      `an input changed since: ${join(outside, "digest.md")}`,
    );
    const third = await Deno.readTextFile(join(served.root, ".slop/out/context_003.md"));
    assert.match(third, /A newer fact/);
    assert.match(third, /b = 3/);
    // The order state written by a build in another process: its stamp tells.
    prepares = (await served.status())!.prepares;
    await Deno.writeTextFile(join(served.root, "src/c.md"), "# Notes\n\nOther words.\n");
    await served.prepared(++prepares);
    ok(await runCliShared(["build", "-q"], served.root));
    ok(await served.slop(["build", "--server", "-q"]));
    assert.equal((await served.status())?.lastBuildPrepared, false);
    const out = join(served.root, ".slop/out");
    const fourth = await Deno.readTextFile(join(out, "context_004.md"));
    const fifth = await Deno.readTextFile(join(out, "context_005.md"));
    assert.match(fifth, /Other words/);
    assert.equal(fifth, fourth, "the server's build orders as the other process's did");
    // The documents the discarded prepares wrote ahead are gone (the draft of the next is not
    // theirs: `.context_005.md.<pid>.<id>.tmp`).
    const hidden = [...Deno.readDirSync(out)].map((e) => e.name)
      .filter((name) => /^\.context\.\d+\..*\.tmp$/.test(name));
    assert.deepEqual(hidden, []);
  } finally {
    await served.stopAll();
  }
});

Deno.test("a build server prepares no build it cannot tell is current", async () => {
  const plugin = `{ kind: "section", name: "mine", compose: () => [] }`;
  const served = await serverCase({
    ...PROJECT,
    "slop.config.ts": `export default { files: ["src/**"], plugins: [${plugin}] };\n`,
  });
  try {
    ok(await served.slop(["build", "--server", "-q"]));
    await Deno.writeTextFile(join(served.root, "src/a.py"), "def a():\n    return 2\n");
    // A user plugin may read anything: the build is built when asked for.
    await new Promise((resolve) => setTimeout(resolve, 500));
    ok(await served.slop(["build", "--server", "-q"]));
    const status = await served.status();
    assert.deepEqual([status?.prepares, status?.lastBuildPrepared], [0, false]);
    assert.match(
      await Deno.readTextFile(join(served.root, ".slop/out/context_002.md")),
      /return 2/,
    );
  } finally {
    await served.stopAll();
  }
});

Deno.test("files rendered ahead are reported as rendered by the build that uses them", async () => {
  const { served, local, edit } = await twins();
  try {
    // a.py is rendered by the prepared build, which b.ts's edit makes stale: the build after it
    // takes a.py from the cache, and says it was rendered, as a build in the process does.
    await edit("src/a.py", "def a():\n    return 2\n");
    await served.prepared(1);
    await edit("src/b.ts", "export const b = 3;\n");
    // (Built anew, or prepared again after b.ts's edit: either says the same.)
    const second = ok(await served.slop(["build", "--server"]));
    assert.equal(second.stdout, ok(await runCliShared(["build"], local)).stdout);
    assert.match(second.stdout, /cache: 1 of 3 rendered files from the cache/);
    const [server, own] = await bothRead(served.root, local, "context_002.json");
    assert.equal(server, own);
  } finally {
    await served.stopAll();
  }
});

async function configOf(body: string) {
  const root = await makeProject({
    "slop.config.ts": `export default ${body};\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  return await loadConfig({ cwd: root });
}

Deno.test("preparable() refuses configs whose builds read what slop cannot stamp, or that say so", async () => {
  assert.equal(preparable(await configOf(`{ files: ["src/**"] }`)), true);
  const refused = {
    "a user plugin":
      `{ files: ["src/**"], plugins: [{ kind: "section", name: "x", compose: () => [] }] }`,
    "a discussion history": `{ files: ["src/**"], history: "chat.jsonl" }`,
    "Beads": `{ files: ["src/**"], beads: true }`,
    "a token budget": `{ files: ["src/**"], budget: { tokens: 1000 } }`,
    "files outside the root": `{ files: ["src/**"], allowOutsideRoot: true }`,
    "no cache": `{ files: ["src/**"], cache: { enabled: false } }`,
    "server.prepare false": `{ files: ["src/**"], server: { prepare: false } }`,
  };
  for (const [what, body] of Object.entries(refused)) {
    assert.equal(preparable(await configOf(body)), false, what);
  }
});

Deno.test("inputStamps() tells a lock, a digest or a screenshot written since, and nothing else", async () => {
  const config = await configOf(
    `{ files: ["src/**"], knowledge: { digest: true }, screenshots: ["shots/a.png"] }`,
  );
  const stamps = inputStamps(config);
  const paths = stamps.map(([path]) => path);
  for (const path of [config.lock, config.slicesFile, join(config.knowledge.dir, "digest.md")]) {
    assert.ok(paths.includes(path), path);
  }
  assert.ok(unchangedInputs(stamps));
  // A project file is the watcher's to tell, not a stamp's.
  await Deno.writeTextFile(join(config.root, "src/a.ts"), "export const a = 2;\n");
  assert.ok(unchangedInputs(stamps));
  for (
    const made of [
      config.lock,
      join(config.knowledge.dir, "digest.md"),
      join(config.root, "shots/a.png"),
    ]
  ) {
    const before = inputStamps(config);
    await Deno.mkdir(join(made, ".."), { recursive: true });
    await Deno.writeTextFile(made, "new\n");
    assert.equal(unchangedInputs(before), false, made);
  }
});
