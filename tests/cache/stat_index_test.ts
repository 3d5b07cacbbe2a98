import assert from "node:assert/strict";
import { join } from "node:path";
import {
  build,
  type BuildResult,
  defaultPlugins,
  loadConfig,
  type ViewModePlugin,
} from "../../mod.ts";
import { makeProject, runCliShared, tempDir, type Tree } from "../_helpers.ts";
import { fileStat } from "../../pipeline/file_stat.ts";
import { TEXT_SKIP_RULES_VERSION } from "../../pipeline/read.ts";
import { resolveTargets } from "../../pipeline/resolve.ts";
import {
  loadStatIndex,
  RACY_MS,
  readIndexed,
  saveStatIndex,
  statIndexPath,
  statSession,
  unchanged,
} from "../../accel/stat_index.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import type { Stages } from "../../pipeline/stages.ts";

const SECRET = "sk-or-v1-" + "a1b2c3d4".repeat(8);

const TREE: Tree = {
  "src/app.py": "import os\n\n\ndef main():\n    return os.getcwd()\n",
  "src/util.ts": "export function add(a: number, b: number) {\n  return a + b;\n}\n",
  "src/crlf.txt": "one\r\ntwo\r\n",
  "docs/guide.md": "# Guide\n\nInstall it.\n",
  "env.txt": `OPENROUTER=${SECRET}\n`,
  "blob.bin": new Uint8Array([0, 1, 2, 3]),
  "slop.config.ts": `export default {
  files: ["src/**", "docs/**", "env.txt", "blob.bin", { path: "src/util.ts", view: "summary" }],
};
`,
};

/** Files are trusted by the fast path once older than the racy window: wait it out once. */
async function agedProject(tree: Tree = TREE): Promise<string> {
  const root = await makeProject(tree);
  return root;
}

function waitRacyWindow(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
}

/**
 * The aged projects of every test here, written together and waited for once (by the first test
 * that asks) rather than once per test.
 */
let aged: Promise<string[]> | undefined;
function agedProjects(): Promise<string[]> {
  aged ??= (async () => {
    const roots = await Promise.all(Array.from({ length: 8 }, () => agedProject()));
    await waitRacyWindow();
    return roots;
  })();
  return aged;
}

async function buildWith(
  root: string,
  stateDir: string,
  options: { cache?: boolean; builtins?: ViewModePlugin[] } = {},
): Promise<BuildResult> {
  // Reloaded: a step edits the config between builds.
  const config = await loadConfig({ cwd: root, stateDir, reload: true });
  if (options.cache === false) config.cache.enabled = false;
  return await build(config, {
    builtins: [...defaultPlugins(), ...(options.builtins ?? [])],
    layer: speedLayer(),
  });
}

/** A build of the same files without any cache, from the same order memory as `state`. */
async function freshBuild(
  root: string,
  state: string,
  options: { builtins?: ViewModePlugin[] } = {},
): Promise<BuildResult> {
  const fresh = await tempDir({ dir: root, prefix: ".fresh" });
  await Deno.mkdir(join(fresh, "order"), { recursive: true });
  await Deno.copyFile(join(state, "order", "context.json"), join(fresh, "order", "context.json"));
  return await buildWith(root, fresh, { cache: false, ...options });
}

function assertSame(a: BuildResult, b: BuildResult): void {
  assert.equal(a.document, b.document);
  assert.deepEqual(a.manifest.blocks, b.manifest.blocks);
  // Cache marks differ by design (hit / miss); everything else is the same.
  const unmarked = (r: BuildResult) => r.manifest.files.map(({ cache: _, ...f }) => f);
  assert.deepEqual(unmarked(a), unmarked(b));
  assert.deepEqual(a.manifest.secrets, b.manifest.secrets);
}

/** Which sources the read stage deferred (not read), with the last build's index. */
async function deferredPaths(root: string, state: string): Promise<string[]> {
  const config = await loadConfig({ cwd: root, stateDir: state });
  const index = loadStatIndex(statIndexPath(config.cache.dir, config.root, config.configPath));
  const { targets } = await resolveTargets(config);
  const sources = await readIndexed(targets, config, { index: statSession(index) });
  return sources.filter((s) => s.load !== undefined).map((s) => s.path);
}

Deno.test("the stat fast path: unchanged files are not read, and every build's bytes match a build without cache", async (t) => {
  // One wait for all steps: files must be older than the racy window to be trusted.
  const roots = (await agedProjects()).slice(0, 6);

  await t.step("a one-file edit: only that file is read; same bytes as --no-cache", async () => {
    const root = roots[0];
    const state = join(root, ".state");
    const cold = await buildWith(root, state);
    assert.match(cold.document, /REDACTED:openrouter-key/);
    assert.deepEqual(await deferredPaths(root, state), [
      "docs/guide.md",
      "env.txt",
      "src/app.py",
      "src/crlf.txt",
      "src/util.ts",
    ]);
    const warm = await buildWith(root, state);
    assertSame(warm, cold);
    await Deno.writeTextFile(join(root, "src/app.py"), TREE["src/app.py"] + "X = 1\n");
    assert.ok(!(await deferredPaths(root, state)).includes("src/app.py"));
    const edited = await buildWith(root, state);
    assert.match(edited.document, /X = 1/);
    assert.doesNotMatch(edited.document, new RegExp(SECRET));
    assertSame(edited, await freshBuild(root, state));
  });

  await t.step("a same-size edit with the modification time put back is caught", async () => {
    const root = roots[1];
    const state = join(root, ".state");
    await buildWith(root, state);
    const path = join(root, "docs/guide.md");
    const before = await Deno.stat(path);
    await Deno.writeTextFile(
      path,
      "# Guide\n\nRemove it.\n".slice(0, before.size).padEnd(before.size),
    );
    await Deno.utime(path, before.atime!, before.mtime!);
    assert.equal((await Deno.stat(path)).mtime?.getTime(), before.mtime?.getTime());
    const edited = await buildWith(root, state);
    assert.match(edited.document, /Remove it/);
    assertSame(edited, await freshBuild(root, state));
  });

  await t.step("a file replaced by a rename (new inode, same size and times) is read", async () => {
    const root = roots[2];
    const state = join(root, ".state");
    await buildWith(root, state);
    const path = join(root, "src/util.ts");
    const before = await Deno.stat(path);
    const next = TREE["src/util.ts"].toString().replace("add", "sum");
    await Deno.writeTextFile(path + ".new", next);
    await Deno.utime(path + ".new", before.atime!, before.mtime!);
    await Deno.rename(path + ".new", path);
    const edited = await buildWith(root, state);
    assert.match(edited.document, /`sum`/);
    assertSame(edited, await freshBuild(root, state));
  });

  await t.step("a deferred file is read when its view is not cached (a new view)", async () => {
    const root = roots[3];
    const state = join(root, ".state");
    await buildWith(root, state);
    await Deno.writeTextFile(
      join(root, "slop.config.ts"),
      `export default { files: ["src/**", "docs/**", "env.txt"], defaultView: "summary" };\n`,
    );
    const rebuilt = await buildWith(root, state);
    const app = rebuilt.files.find((f) => f.path === "src/app.py");
    assert.equal(app?.cache, "miss");
    assert.equal(app?.view, "summary");
    assertSame(rebuilt, await freshBuild(root, state));
  });

  await t.step("a view whose cacheKey reads the text gets it", async () => {
    const root = roots[4];
    const state = join(root, ".state");
    const firstLine: ViewModePlugin = {
      kind: "view-mode",
      name: "first_line",
      version: "1",
      cacheKey: (file) => file.text.split("\n")[0],
      render: (file) => `${file.text.split("\n")[0]}\n`,
    };
    await Deno.writeTextFile(
      join(root, "slop.config.ts"),
      `export default { files: ["src/**", "docs/**"], defaultView: "first_line" };\n`,
    );
    const first = await buildWith(root, state, { builtins: [firstLine] });
    const second = await buildWith(root, state, { builtins: [firstLine] });
    assertSame(second, first);
    assert.match(second.document, /# Guide/);
    assertSame(second, await freshBuild(root, state, { builtins: [firstLine] }));
  });

  await t.step(
    "a deferred file changed after the secret scan is scanned when a view reads it",
    async () => {
      const root = (await agedProjects())[7];
      const state = join(root, ".state");
      const config = (view: string) =>
        Deno.writeTextFile(
          join(root, "slop.config.ts"),
          `export default { files: ["src/**", "docs/**"], defaultView: "${view}" };\n`,
        );
      await config("outline");
      await buildWith(root, state);
      // The next build defers src/app.py (unchanged), its full view is not cached: a view reads it
      // after the scan, which has passed it by its recorded hash; it is edited in between.
      await config("full");
      const speed = speedLayer();
      const edit = (secrets: Stages["secrets"]): Stages["secrets"] => async (sources) => {
        const found = await secrets(sources);
        assert.ok(sources.find((s) => s.path === "src/app.py")?.load, "src/app.py is deferred");
        await Deno.writeTextFile(join(root, "src/app.py"), `KEY = "${SECRET}"\n`);
        return found;
      };
      const rebuilt = await build(await loadConfig({ cwd: root, stateDir: state, reload: true }), {
        builtins: defaultPlugins(),
        layer: {
          ...speed,
          wrap: (stages, run) => {
            const wrapped = speed.wrap(stages, run);
            return { ...wrapped, secrets: edit(wrapped.secrets) };
          },
        },
      });
      assert.ok(!rebuilt.document.includes(SECRET), "the secret read late is redacted");
      assert.deepEqual(rebuilt.manifest.secrets?.map((f) => f.path), ["src/app.py"]);
    },
  );

  await t.step("--no-cache neither reads nor writes the index", async () => {
    const root = roots[5];
    const state = join(root, ".state");
    const run = await runCliShared(["build", "-q", "--no-cache", "--state-dir", state], root);
    assert.equal(run.code, 0, run.stderr);
    const statDir = join(state, "cache", "stat");
    await assert.rejects(Deno.stat(statDir), Deno.errors.NotFound);
    const cached = await runCliShared(["build", "-q", "--state-dir", state], root);
    assert.equal(cached.code, 0, cached.stderr);
    const names = [...Deno.readDirSync(statDir)].map((e) => e.name);
    assert.equal(names.filter((n) => !n.endsWith(".doc.json")).length, 1, names.join(", "));
    await Deno.writeTextFile(join(root, "src/app.py"), "print('no cache')\n");
    const nocache = await runCliShared(
      ["build", "--stdout", "-q", "--no-cache", "--state-dir", state],
      root,
    );
    assert.match(nocache.stdout, /no cache/);
    const clear = await runCliShared(["cache", "clear", "-q", "--state-dir", state], root);
    assert.equal(clear.code, 0, clear.stderr);
    await assert.rejects(Deno.stat(statDir), Deno.errors.NotFound);
  });
});

Deno.test("a file changed within the racy window of the recording build is read again", async () => {
  const root = await makeProject(TREE);
  const state = join(root, ".state");
  await buildWith(root, state);
  // Written moments ago: every record is racy, nothing is deferred.
  assert.deepEqual(await deferredPaths(root, state), []);
  const path = join(root, "docs/guide.md");
  const before = await Deno.stat(path);
  await Deno.writeTextFile(
    path,
    "# Guide\n\nRemove it.\n".slice(0, before.size).padEnd(before.size),
  );
  await Deno.utime(path, before.atime!, before.mtime!);
  const edited = await buildWith(root, state);
  assert.match(edited.document, /Remove it/);
});

Deno.test("unchanged() compares every part of the fingerprint and applies the racy window", () => {
  const info = (over: Partial<Deno.FileInfo> = {}) =>
    fileStat({
      dev: 1,
      ino: 2,
      size: 3,
      mtime: new Date(10_000),
      ctime: new Date(10_000),
      ...over,
    } as Deno.FileInfo);
  const record = { dev: 1, ino: 2, size: 3, mtime: 10_000, ctime: 10_000, sha256: "x" };
  const readStart = 10_000 + RACY_MS + 1;
  assert.equal(unchanged(record, info(), readStart), true);
  assert.equal(unchanged(record, info(), readStart - 1), false, "racy");
  assert.equal(unchanged(record, info({ dev: 9 }), readStart), false);
  assert.equal(unchanged(record, info({ ino: 9 }), readStart), false);
  assert.equal(unchanged(record, info({ size: 9 }), readStart), false);
  assert.equal(unchanged(record, info({ mtime: new Date(10_001) }), readStart + 1), false);
  assert.equal(unchanged(record, info({ ctime: new Date(11_000) }), readStart + 1000), false);
});

Deno.test("files added, removed, renamed and edited between warm builds in the same second: same bytes as without cache", async () => {
  const root = (await agedProjects())[6];
  const state = join(root, ".state");
  await buildWith(root, state);
  await buildWith(root, state);
  // All at once, then build at once: nothing waits for a clock tick.
  await Deno.writeTextFile(join(root, "src/added.py"), "def added():\n    return 1\n");
  await Deno.remove(join(root, "docs/guide.md"));
  await Deno.rename(join(root, "src/app.py"), join(root, "src/moved.py"));
  const crlf = join(root, "src/crlf.txt");
  const before = await Deno.stat(crlf);
  await Deno.writeTextFile(crlf, "eno\r\nowt\r\n");
  await Deno.utime(crlf, before.atime!, before.mtime!);
  const changed = await buildWith(root, state);
  const paths = changed.manifest.files.map((f) => f.path);
  assert.ok(paths.includes("src/added.py") && paths.includes("src/moved.py"), paths.join(", "));
  assert.ok(!paths.includes("docs/guide.md") && !paths.includes("src/app.py"), paths.join(", "));
  assert.match(changed.document, /eno\nowt/);
  assertSame(changed, await freshBuild(root, state));
  // And back, in the same second as that build.
  await Deno.rename(join(root, "src/moved.py"), join(root, "src/app.py"));
  await Deno.remove(join(root, "src/added.py"));
  await Deno.writeTextFile(join(root, "docs/guide.md"), "# Guide\n\nBack again.\n");
  const back = await buildWith(root, state);
  assert.match(back.document, /Back again/);
  assert.doesNotMatch(back.document, /def added/);
  assertSame(back, await freshBuild(root, state));
});

Deno.test("the index is written as three lists, read back the same; an index of an older format is read as none", async () => {
  const dir = await tempDir();
  const path = join(dir, "index.json");
  const record = (n: number) => ({
    dev: 2049,
    ino: 1000 + n,
    size: 10 * n,
    mtime: 1_700_000_000_000 + n,
    ctime: 1_700_000_000_000,
    sha256: String(n).padStart(64, "0"),
  });
  // Out of order as given: written sorted by path.
  const files = new Map([["src/b.py", record(2)], ["src/a.py", record(1)], ["é/c.py", record(3)]]);
  await saveStatIndex({ path, readStart: 42, files });
  const data = JSON.parse(await Deno.readTextFile(path));
  // Lists, not an object with a key a file (parsed and written in a third of the time).
  assert.deepEqual(data.paths, ["src/a.py", "src/b.py", "é/c.py"]);
  assert.equal(data.fields.length, 15);
  assert.equal(data.hashes.length, 3);
  const back = loadStatIndex(path);
  assert.equal(back.readStart, 42);
  assert.deepEqual([...back.files].sort(), [...files].sort());
  // An older format (an object of a list a file): its records were judged under text skip rules
  // unknown here, so none is taken.
  const before = Object.fromEntries(
    [...files].map(([p, r]) => [p, [r.dev, r.ino, r.size, r.mtime, r.ctime, r.sha256]]),
  );
  await Deno.writeTextFile(
    path,
    JSON.stringify({ format: "slop-stat-index/1", readStart: 7, files: before }),
  );
  assert.equal(loadStatIndex(path).files.size, 0);
  // Damaged lists (a count that does not match): an empty index, never a wrong record.
  await Deno.writeTextFile(
    path,
    JSON.stringify({ ...data, fields: data.fields.slice(1) }),
  );
  assert.equal(loadStatIndex(path).files.size, 0);
});

Deno.test("the index keeps each skip a file's bytes decided; under other rules, or of an older format, no record is taken", async () => {
  const dir = await tempDir();
  const path = join(dir, "index.json");
  const base = { dev: 2049, ino: 7, size: 10, mtime: 1, ctime: 1, sha256: "h" };
  const files = new Map([
    ["a.bin", { ...base, skip: { reason: "binary file", generated: false } }],
    ["b.pb.go", { ...base, ino: 8, skip: { reason: "generated code", generated: true } }],
    ["c.py", { ...base, ino: 9 }],
  ]);
  await saveStatIndex({ path, readStart: 42, files });
  assert.deepEqual([...loadStatIndex(path).files].sort(), [...files].sort());
  const data = JSON.parse(await Deno.readTextFile(path));
  // Under other rules every record is dropped (each file read and judged again): c.py, read
  // whole, may be a file they skip.
  await Deno.writeTextFile(path, JSON.stringify({ ...data, skipRules: "text-skips/0" }));
  assert.equal(loadStatIndex(path).files.size, 0);
  // The format before skips were kept: none of it.
  const { skips: _, skipRules: __, ...older } = data;
  await Deno.writeTextFile(path, JSON.stringify({ ...older, format: "slop-stat-index/2" }));
  assert.equal(loadStatIndex(path).files.size, 0);
  // An index with no skip says its rules too.
  await saveStatIndex({ path, readStart: 42, files: new Map([["c.py", { ...base, ino: 9 }]]) });
  assert.equal(loadStatIndex(path).files.size, 1);
  await Deno.remove(dir, { recursive: true });
});

// The stat index keeps a skip its bytes decided (binary, a Git LFS pointer, a generated header)
// with its reason, salted by TEXT_SKIP_RULES_VERSION alone: a slop whose rules or reasons differ
// but whose version is the same would skip an unchanged file again as the older rules did, and a
// warm build would differ from a cold one. The rules' files are pinned to the version: changing
// them fails here until the version is raised (and this pin written again).
Deno.test("the text skip rules' files are pinned to TEXT_SKIP_RULES_VERSION", async () => {
  const files = ["_text_decode.ts", "_lfs_pointer.ts", "_generated_text.ts"];
  const texts = await Promise.all(
    files.map((f) => Deno.readTextFile(new URL(`../../pipeline/${f}`, import.meta.url))),
  );
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(texts.map((t) => t.replaceAll("\r\n", "\n")).join("\0")),
  );
  const fingerprint = [...new Uint8Array(digest)].slice(0, 8)
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  assert.deepEqual(
    { version: TEXT_SKIP_RULES_VERSION, fingerprint },
    { version: 1, fingerprint: "8646fc8aae5750dc" },
    `pipeline/${files.join(", ")} changed: raise TEXT_SKIP_RULES_VERSION in pipeline/read.ts ` +
      "and pin the new version and fingerprint here",
  );
});

// A record of a file read whole says nothing of what other text skip rules make of its bytes: a
// slop whose rules did not know a generated header (or an index of an older format, whose rules
// are unknown) read such a file whole, and once its render was in the pack, a build under the
// current rules took it unread from that record and showed it where a cold build skips it.
Deno.test("records written under other text skip rules, or by an older format, are judged again: a file they read whole that the rules now skip is skipped", async () => {
  const generated = "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage api\n";
  const root = await makeProject({
    "api.pb.go": generated,
    "a.py": "a = 1\n",
  });
  const skipped = async (layer?: ReturnType<typeof speedLayer>, files = ["**"]) => {
    const result = await build(await loadConfig({ cwd: root, inline: { files } }), {
      builtins: defaultPlugins(),
      layer,
    });
    return result.manifest.files.map((f) => `${f.path}: ${f.status}`);
  };
  // Not named: a build of the plain stages skips it by its header.
  const cold = await skipped();
  assert.ok(cold.includes("api.pb.go: skipped"), cold.join("\n"));
  // Named by the config: read whole, its render kept in the pack.
  assert.ok((await skipped(speedLayer(), ["**", "api.pb.go"])).includes("api.pb.go: rendered"));
  const config = await loadConfig({ cwd: root, inline: {} });
  const path = statIndexPath(config.cache.dir, config.root, config.configPath);
  const info = fileStat(await Deno.lstat(join(root, "api.pb.go")));
  const hash = Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(generated))),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  const fields = [info.dev ?? 0, info.ino ?? 0, info.size, info.mtime, info.ctime];
  const older = [
    // As a slop of other rules wrote it: the file read whole, with another file's skip.
    {
      format: "slop-stat-index/3",
      paths: ["api.pb.go", "b.bin"],
      fields: [...fields, 1, 2, 3, 4, 5],
      hashes: [hash, "0".repeat(64)],
      skips: [1, "binary file", 0],
      skipRules: `text-skips/${TEXT_SKIP_RULES_VERSION - 1}`,
    },
    // As the index of an older format: its records read whole.
    {
      format: "slop-stat-index/2",
      paths: ["api.pb.go"],
      fields,
      hashes: [hash],
    },
    {
      format: "slop-stat-index/1",
      files: { "api.pb.go": [...fields, hash] },
    },
  ];
  for (const data of older) {
    // Recorded long after the file was written (no racy read).
    await Deno.writeTextFile(path, JSON.stringify({ ...data, readStart: Date.now() + 60_000 }));
    assert.deepEqual(await skipped(speedLayer()), cold, data.format);
    // Named again, for the next index: its render back in the pack.
    await skipped(speedLayer(), ["**", "api.pb.go"]);
  }
  await Deno.remove(root, { recursive: true });
});
