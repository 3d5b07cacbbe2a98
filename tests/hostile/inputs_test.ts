import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext, type SlopConfig } from "../../mod.ts";
import { loadConfig } from "../../pipeline/config.ts";
import { resolveTargets } from "../../pipeline/resolve.ts";
import { readTargets, sha256 } from "../../pipeline/read.ts";
import { readSettingText, readSettingTextSync } from "../../pipeline/helpers.ts";
import { git, gitInit, makeProject, runCliShared, tempDir } from "../_helpers.ts";
import { readLatest } from "../../cli/_latest.ts";
import { lastBuilds } from "../../cli/explain.ts";

async function buildIn(root: string, inline?: SlopConfig) {
  return await buildContext({ cwd: root, ...(inline ? { inline } : {}) }, { write: false });
}

function row(result: Awaited<ReturnType<typeof buildIn>>, path: string) {
  const found = result.manifest.files.find((f) => f.path === path);
  assert.ok(found, `"${path}" is in the manifest`);
  return found;
}

Deno.test("binary files (NUL bytes, or invalid UTF-8 full of control bytes) are skipped with their reason", async () => {
  const root = await makeProject({
    "nul.dat": new Uint8Array([0x61, 0x00, 0x62]),
    "controls.bin": new Uint8Array([0x63, 0x01, 0x02, 0xe9, 0x0a]),
    "ok.txt": "ok\n",
  });
  const result = await buildIn(root);
  assert.deepEqual([row(result, "nul.dat").status, row(result, "nul.dat").reason], [
    "skipped",
    "binary file",
  ]);
  assert.equal(row(result, "controls.bin").reason, "binary file (not valid UTF-8)");
  assert.equal(row(result, "ok.txt").status, "rendered");
  assert.doesNotMatch(result.document, /nul\.dat|controls\.bin/);
});

Deno.test("files over the size limit are skipped: 10 MB default, maxFileSize, per-entry maxBytes", async () => {
  const root = await makeProject({
    "small.txt": "x".repeat(100) + "\n",
    "mid.txt": "y".repeat(2000),
  });
  const big = await Deno.open(join(root, "big.txt"), { create: true, write: true });
  await big.truncate(10 * 1024 * 1024 + 1); // sparse: cheap to make
  big.close();
  const byDefault = await buildIn(root);
  assert.equal(row(byDefault, "big.txt").status, "skipped");
  assert.equal(
    row(byDefault, "big.txt").reason,
    "file is 10485761 bytes, over the limit of 10485760 bytes",
  );
  assert.equal(row(byDefault, "mid.txt").status, "rendered");
  const limited = await buildIn(root, {
    maxFileSize: 1000,
    files: ["*.txt", { path: "small.txt", maxBytes: 50 }],
  });
  assert.equal(row(limited, "mid.txt").reason, "file is 2000 bytes, over the limit of 1000 bytes");
  assert.equal(row(limited, "small.txt").reason, "file is 101 bytes, over the limit of 50 bytes");
});

Deno.test('an empty file is rendered as an empty block, listed with 0 bytes and an "empty file" note', async () => {
  const root = await makeProject({ "empty.ts": "", "a.ts": "export {};\n" });
  const result = await buildIn(root);
  assert.deepEqual([row(result, "empty.ts").status, row(result, "empty.ts").bytes], [
    "rendered",
    0,
  ]);
  assert.deepEqual(row(result, "empty.ts").notes, ["empty file"]);
  assert.match(result.document, /### empty.ts\n\n```ts\n```\n\n/);
});

Deno.test("unreadable entries (a FIFO, a directory named like a file, /proc/self/mem) never hang or stop the build", async () => {
  // Tests run as root, so permission bits cannot make a file unreadable; these
  // cases fail the same way for every user.
  const root = await makeProject({ "a.ts": "export {};\n" });
  const fifo = new Deno.Command("mkfifo", { args: [join(root, "pipe.txt")] }).outputSync();
  assert.ok(fifo.success, "mkfifo works");
  await Deno.mkdir(join(root, "folder.txt"));
  await Deno.symlink("/proc/self/mem", join(root, "mem.txt"));
  const result = await buildIn(root, {
    files: ["a.ts", "pipe.txt", "folder.txt", "mem.txt"],
    allowOutsideRoot: true,
  });
  assert.deepEqual(
    [row(result, "pipe.txt").status, row(result, "pipe.txt").reason],
    ["skipped", "not a regular file"],
  );
  assert.deepEqual(
    [row(result, "folder.txt").status, row(result, "folder.txt").reason],
    ["skipped", "is a directory"],
  );
  assert.equal(row(result, "mem.txt").status, "error");
  assert.match(row(result, "mem.txt").reason!, /^cannot read file: /);
  assert.equal(row(result, "a.ts").status, "rendered");
});

/** Make a FIFO at `path`; nothing ever writes to it, so reading it would wait forever. */
function mkfifo(path: string): void {
  assert.ok(new Deno.Command("mkfifo", { args: [path] }).outputSync().success, "mkfifo works");
}

/**
 * The build's result, or its error's message; a read that waits forever fails the test. The limit
 * is below git's own deadline (30 s), which a build waiting on git would reach, and leaves room for
 * a machine busy with the rest of the suite (one build here took over 10 s once in a full run).
 */
async function settled(run: () => Promise<unknown>): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("waited 20 s: a read hangs")), 20_000);
  });
  try {
    return await Promise.race([run(), late]);
  } catch (error) {
    return (error as Error).message;
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("a FIFO or device in place of a file slop reads for itself (.gitignore, slop.lock, the beads list, the config) never hangs", async () => {
  const NOT_REGULAR = "it is not a regular file (a FIFO, socket or device)";
  const walked = await makeProject({ "a.py": "x = 1\n", "sub/b.py": "y = 2\n" });
  mkfifo(join(walked, ".gitignore"));
  await Deno.symlink("/dev/zero", join(walked, "sub/.gitignore"));
  const result = await settled(() => buildIn(walked, { allowOutsideRoot: true }));
  assert.equal(typeof result, "object", String(result));
  const built = result as Awaited<ReturnType<typeof buildIn>>;
  assert.equal(row(built, "a.py").status, "rendered");
  assert.equal(row(built, "sub/b.py").status, "rendered");
  assert.equal(row(built, ".gitignore").reason, "not a regular file");
  assert.equal(row(built, "sub/.gitignore").reason, "not a regular file");
  const locked = await makeProject({ "a.py": "x = 1\n" });
  mkfifo(join(locked, "slop.lock"));
  assert.match(
    String(await settled(() => buildIn(locked))),
    new RegExp(`Cannot read the lock "[^"]*slop.lock": ${escape(NOT_REGULAR)}`),
  );
  const beads = await makeProject({ "a.py": "x = 1\n", ".beads/.keep": "" });
  mkfifo(join(beads, ".beads/issues.jsonl"));
  assert.match(
    String(await settled(() => buildIn(beads))),
    new RegExp(`Cannot read ".beads/issues.jsonl": ${escape(NOT_REGULAR)}`),
  );
  const configured = await makeProject({ "a.py": "x = 1\n" });
  mkfifo(join(configured, "slop.config.ts"));
  assert.match(
    String(await settled(() => loadConfig({ cwd: configured }))),
    new RegExp(`Invalid config "slop.config.ts": Cannot load the config: ${escape(NOT_REGULAR)}`),
  );
});

Deno.test("a file slop reads for itself that is larger than any text (a sparse slop.lock, .gitignore) is refused by its size, unread", async () => {
  // It was read whole: a sparse 3 GB .gitignore took 3.2 GB and 40 s, a larger one all memory.
  const OVER = "it holds over 536870912 bytes, more than slop reads of a setting file";
  const locked = await makeProject({ "a.py": "x = 1\n", "slop.lock": "" });
  await Deno.truncate(join(locked, "slop.lock"), 600 * 1024 * 1024);
  assert.match(
    String(await settled(() => buildIn(locked))),
    new RegExp(`Cannot read the lock "[^"]*slop.lock": ${escape(OVER)}`),
  );
  const walked = await makeProject({ "a.py": "x = 1\n", ".gitignore": "" });
  await Deno.truncate(join(walked, ".gitignore"), 600 * 1024 * 1024);
  const built = await buildIn(walked);
  assert.equal(row(built, "a.py").status, "rendered");
  assert.match(row(built, ".gitignore").reason ?? "", /^file is 629145600 bytes, over the limit/);
  await Deno.remove(locked, { recursive: true });
  await Deno.remove(walked, { recursive: true });
});

Deno.test("the beads list or knowledge digest that a symbolic link leads out of the project is not read into the document", async () => {
  // A committed link (`slop/knowledge/digest.md -> ~/.aws/credentials`): the file's row said
  // "symbolic link leaves the root" while its text was in the beads or knowledge section.
  const outside = await makeProject({
    "issues.jsonl": '{"id":"x-1","title":"OUTSIDE_TITLE","status":"open"}\n',
    "digest.md": "OUTSIDE_DIGEST\n",
  });
  const OUT = "a symbolic link leads it out of the root (set allowOutsideRoot to allow it)";
  const beads = await makeProject({ "a.py": "x = 1\n", ".beads/.keep": "" });
  await Deno.symlink(join(outside, "issues.jsonl"), join(beads, ".beads/issues.jsonl"));
  assert.match(
    String(await settled(() => buildIn(beads, { files: ["a.py"], beads: true }))),
    new RegExp(`Cannot read ".beads/issues.jsonl": ${escape(OUT)}`),
  );
  const knowledge = await makeProject({ "a.py": "x = 1\n" });
  await Deno.mkdir(join(knowledge, "slop/knowledge"), { recursive: true });
  await Deno.symlink(join(outside, "digest.md"), join(knowledge, "slop/knowledge/digest.md"));
  assert.match(
    String(await settled(() => buildIn(knowledge, { files: ["a.py"] }))),
    new RegExp(`Cannot read the knowledge digest "[^"]*digest.md": ${escape(OUT)}`),
  );
  // Allowed: read as linked files are.
  const allowed = await buildIn(knowledge, { files: ["a.py"], allowOutsideRoot: true });
  assert.match(allowed.document, /OUTSIDE_DIGEST/);
  for (const dir of [outside, beads, knowledge]) await Deno.remove(dir, { recursive: true });
});

Deno.test("a folder or nothing in place of a file slop reads for itself (the beads list, a history, the slices file): one line in plain words", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  for (const dir of [".beads/issues.jsonl", "h.jsonl", "slop/slices.toml"]) {
    await Deno.mkdir(join(root, dir, "x"), { recursive: true });
  }
  assert.equal(
    String(await settled(() => buildIn(root, { files: ["a.py"], beads: true }))),
    '[plugin slop:beads] Hook "compose" failed: Cannot read ".beads/issues.jsonl": it is a folder',
  );
  const withHistory = await buildIn(root, { files: ["a.py"], beads: false, history: "h.jsonl" });
  assert.deepEqual(withHistory.manifest.warnings, [
    'Cannot read the slices file "slop/slices.toml": it is a folder',
    'Cannot read history "h.jsonl": it is a folder',
  ]);
  const missing = await buildIn(root, { files: ["a.py"], beads: false, history: "gone.jsonl" });
  assert.deepEqual(missing.manifest.warnings.slice(1), [
    'Cannot read history "gone.jsonl": no such file or directory',
  ]);
  const custom = await buildIn(root, { files: [{ path: "a.py", view: "custom" }], beads: false });
  assert.ok(
    custom.manifest.warnings.includes(
      'Cannot read the slices file "slop/slices.toml": it is a folder',
    ),
    custom.manifest.warnings.join("\n"),
  );
});

Deno.test("a FIFO .gitignore in a git work tree is named at once, not waited on until git's deadline", async () => {
  const BLOCKED = "it is not a regular file (a FIFO, socket or device), which slop does not read " +
    "and git would wait on: put a file in its place";
  // In `node_modules` too: slop leaves it out of every build, but git lists it (no .gitignore here).
  const fifos = [".gitignore", "sub/.gitignore", ".git/info/exclude", "node_modules/p/.gitignore"];
  for (const fifo of fifos) {
    const root = await makeProject({ "a.py": "x = 1\n", "sub/b.py": "y = 2\n" });
    await gitInit(root);
    await Deno.mkdir(join(root, fifo, ".."), { recursive: true });
    await Deno.remove(join(root, fifo)).catch(() => {});
    mkfifo(join(root, fifo));
    await Deno.writeTextFile(join(root, "sub/new.py"), "z = 3\n"); // untracked
    const result = await settled(() => buildIn(root));
    assert.equal(typeof result, "object", `${fifo}: ${result}`);
    const built = result as Awaited<ReturnType<typeof buildIn>>;
    for (const path of ["a.py", "sub/b.py", "sub/new.py"]) {
      assert.equal(row(built, path).status, "rendered", `${fifo}: ${path}`);
    }
    if (fifo.endsWith(".gitignore") && !fifo.startsWith("node_modules/")) {
      assert.equal(row(built, fifo).reason, "not a regular file");
    }
    assert.deepEqual(built.manifest.warnings, [
      `Cannot read "${fifo}": ${BLOCKED}; the tracked files come from git, the untracked ones ` +
      "from slop's own .gitignore matching",
    ]);
    if (fifo !== "sub/.gitignore") continue;
    // --since lists the untracked files through git too: an error naming the file.
    assert.match(
      String(await settled(() => loadConfig({ cwd: root, since: "HEAD" }))),
      new RegExp(
        `Cannot list the untracked files for --since "HEAD": Cannot read "sub/.gitignore": ${
          escape(BLOCKED)
        }`,
      ),
    );
  }
});

Deno.test("a FIFO .gitattributes in a git work tree is named at once, not waited on until git's deadline", async () => {
  for (const fifo of ["sub/.gitattributes", ".git/info/attributes"]) {
    const root = await makeProject({ "a.py": "x = 1\n", "sub/.gitattributes": "*.py -diff\n" });
    await gitInit(root);
    await Deno.remove(join(root, fifo)).catch(() => {});
    mkfifo(join(root, fifo));
    const result = await settled(() => buildIn(root));
    assert.equal(typeof result, "object", `${fifo}: ${result}`);
    const built = result as Awaited<ReturnType<typeof buildIn>>;
    assert.equal(row(built, "a.py").status, "rendered");
    assert.deepEqual(built.manifest.warnings, [
      `Cannot read "${fifo}": it is not a regular file (a FIFO, socket or device), which slop ` +
      "does not read and git would wait on: no file is marked binary, generated or vendored by " +
      ".gitattributes; put a file in its place",
    ]);
    if (fifo !== ".git/info/attributes") continue;
    // --since compares the work tree's files through git, which reads their attributes.
    await Deno.writeTextFile(join(root, "a.py"), "x = 2\n");
    assert.equal(
      String(await settled(() => loadConfig({ cwd: root, since: "HEAD" }))),
      `Cannot list the files changed since "HEAD": Cannot read "${fifo}": it is not a regular ` +
        "file (a FIFO, socket or device), which slop does not read and git would wait on: put a " +
        "file in its place",
    );
  }
});

Deno.test("a FIFO named by git's core.excludesFile or core.attributesFile is named with its key within a second or so, not waited on until git's deadline", async () => {
  const BLOCKED = "it is not a regular file (a FIFO, socket or device), which slop does not read " +
    "and git would wait on";
  for (const key of ["core.excludesFile", "core.attributesFile"]) {
    const root = await makeProject({ "a.py": "x = 1\n", ".gitattributes": "*.md -diff\n" });
    await gitInit(root);
    const fifo = join(await tempDir(), "rules");
    mkfifo(fifo);
    await git(root, "config", key, fifo);
    await Deno.writeTextFile(join(root, "new.py"), "z = 3\n"); // untracked
    const result = await settled(() => buildIn(root));
    assert.equal(typeof result, "object", `${key}: ${result}`);
    const built = result as Awaited<ReturnType<typeof buildIn>>;
    for (const path of ["a.py", "new.py"]) assert.equal(row(built, path).status, "rendered");
    const named = `Cannot read "${fifo}" (git's ${key}): ${BLOCKED}`;
    assert.deepEqual(built.manifest.warnings, [
      key === "core.excludesFile"
        ? `${named}: put a file in its place; the tracked files come from git, the untracked ` +
          "ones from slop's own .gitignore matching"
        : `${named}: no file is marked binary, generated or vendored by .gitattributes; put a ` +
          "file in its place",
    ]);
    // --since compares the work tree's files through git, which reads their attributes.
    await Deno.writeTextFile(join(root, "a.py"), "x = 2\n");
    assert.equal(
      String(await settled(() => loadConfig({ cwd: root, since: "HEAD" }))),
      `Cannot list the files changed since "HEAD": ${named}: put a file in its place`,
    );
  }
});

Deno.test("a FIFO .gitattributes git does not list (untracked: git lists no FIFO) is named once git is a second late", async () => {
  const root = await makeProject({ ".gitattributes": "*.md -diff\n", "sub/a.py": "x = 1\n" });
  await gitInit(root);
  mkfifo(join(root, "sub/.gitattributes"));
  const result = await settled(() => buildIn(root));
  assert.equal(typeof result, "object", String(result));
  const built = result as Awaited<ReturnType<typeof buildIn>>;
  assert.equal(row(built, "sub/a.py").status, "rendered");
  assert.deepEqual(built.manifest.warnings, [
    'Cannot read "sub/.gitattributes": it is not a regular file (a FIFO, socket or device), which ' +
    "slop does not read and git would wait on: no file is marked binary, generated or vendored " +
    "by .gitattributes; put a file in its place",
  ]);
});

Deno.test("a FIFO .gitignore, .gitattributes or info file above a root that is a folder of a work tree is named at once", async () => {
  const BLOCKED = "it is not a regular file (a FIFO, socket or device), which slop does not read " +
    "and git would wait on";
  const cases: Array<[string, string]> = [
    [".gitignore", "put a file in its place; the tracked files come from git"],
    [".git/info/exclude", "put a file in its place; the tracked files come from git"],
    [".gitattributes", "no file is marked binary, generated or vendored by .gitattributes"],
    [".git/info/attributes", "no file is marked binary, generated or vendored by .gitattributes"],
  ];
  for (const [fifo, instead] of cases) {
    const top = await makeProject({ "pkg/a.py": "x = 1\n", "pkg/deep/b.py": "y = 2\n" });
    await gitInit(top);
    await Deno.mkdir(join(top, fifo, ".."), { recursive: true });
    await Deno.remove(join(top, fifo)).catch(() => {});
    mkfifo(join(top, fifo));
    await Deno.writeTextFile(join(top, "pkg/new.py"), "z = 3\n"); // untracked
    const root = join(top, "pkg", "deep");
    const result = await settled(() => buildIn(root));
    assert.equal(typeof result, "object", `${fifo}: ${result}`);
    const built = result as Awaited<ReturnType<typeof buildIn>>;
    assert.equal(row(built, "b.py").status, "rendered");
    const warning = built.manifest.warnings.join("\n");
    assert.ok(
      warning.startsWith(`Cannot read "../../${fifo}": ${BLOCKED}: ${instead}`),
      `${fifo}: ${warning}`,
    );
  }
});

Deno.test("a FIFO in place of a written document or manifest is passed over by slop stats, report and explain, never opened", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  await buildContext({ cwd: root });
  await buildContext({ cwd: root });
  const out = join(root, ".slop", "out");
  await Deno.remove(join(out, "context_002.md"));
  mkfifo(join(out, "context_002.md"));
  const config = await loadConfig({ cwd: root });
  const warnings: string[] = [];
  const latest = await settled(() => readLatest(config, (m) => warnings.push(m)));
  assert.equal(
    (latest as { manifest: { output: string } }).manifest.output,
    ".slop/out/context_001.md",
  );
  assert.match(
    warnings.join("\n"),
    /cannot read its document "[^"]*context_002.md" \(it is not a regular file/,
  );
  const builds = await settled(() => lastBuilds(out, "context", root));
  assert.deepEqual((builds as Array<{ number: number }>).map((b) => b.number), [1]);
  await Deno.remove(join(out, "context_001.json"));
  mkfifo(join(out, "context_001.json"));
  assert.equal(await settled(() => readLatest(config)), undefined);
});

Deno.test("a written manifest of another shape (edited, cut short, another slop's version) is passed over by slop stats, report and explain, the key named", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  for (let i = 0; i < 3; i++) await buildContext({ cwd: root });
  const out = join(root, ".slop", "out");
  const config = await loadConfig({ cwd: root });
  const good = JSON.parse(await Deno.readTextFile(join(out, "context_003.json")));
  const cases: Array<[(m: Record<string, unknown>) => unknown, string]> = [
    [
      (m) => ({ ...m, files: [{ ...(m.files as object[])[0], path: null }] }),
      '"files[0].path" is not a string',
    ],
    [
      (m) => ({ ...m, files: [{ ...(m.files as object[])[0], notes: "x" }] }),
      '"files[0].notes" is not a list',
    ],
    [(m) => ({ ...m, blocks: {} }), '"blocks" is not a list'],
    [
      (m) => ({ ...m, total: { ...(m.total as object), tokens: "9" } }),
      '"total.tokens" is not a number',
    ],
    [(m) => ({ ...m, budget: { steppedDown: 1 } }), '"budget.tokens" is not a number'],
    [(m) => ({ ...m, version: 2 }), "it was written by another version of slop (version 2)"],
    [() => [], "it is not a JSON object"],
  ];
  for (const [edit, problem] of cases) {
    await Deno.writeTextFile(join(out, "context_003.json"), JSON.stringify(edit(good)));
    const warnings: string[] = [];
    const latest = await readLatest(config, (m) => warnings.push(m));
    assert.equal(latest?.manifest.output, ".slop/out/context_002.md", problem);
    const builds = await lastBuilds(out, "context", root, { warn: (m) => warnings.push(m) });
    assert.deepEqual(builds.map((b) => b.number), [1, 2]);
    const said = `Skipped "${join(out, "context_003.json")}": not a readable manifest (${problem})`;
    assert.deepEqual(warnings, [said, said]);
  }
});

Deno.test("a written manifest renamed without the number's leading zeros is read by slop stats and explain alike", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  for (let i = 0; i < 2; i++) await buildContext({ cwd: root });
  const out = join(root, ".slop", "out");
  await Deno.rename(join(out, "context_002.json"), join(out, "context_2.json"));
  const warnings: string[] = [];
  const latest = await readLatest(await loadConfig({ cwd: root }), (m) => warnings.push(m));
  assert.equal(latest?.manifest.output, ".slop/out/context_002.md");
  const builds = await lastBuilds(out, "context", root, { warn: (m) => warnings.push(m) });
  assert.deepEqual(builds.map((b) => b.number), [1, 2]);
  assert.deepEqual(warnings, []);
});

/** `text` as a regular expression that matches it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

Deno.test("broken symlinks and symlink loops are errors with their own message", async () => {
  const root = await makeProject({ "a.ts": "export {};\n" });
  await Deno.symlink("missing.ts", join(root, "broken.ts"));
  await Deno.symlink("loop_b.ts", join(root, "loop_a.ts"));
  await Deno.symlink("loop_a.ts", join(root, "loop_b.ts"));
  const result = await buildIn(root);
  assert.equal(row(result, "broken.ts").reason, "broken symbolic link");
  assert.equal(row(result, "loop_a.ts").reason, "symbolic link loop");
  assert.equal(row(result, "loop_b.ts").status, "error");
  assert.match(result.document, /ERROR: symbolic link loop: loop_a.ts/);
});

Deno.test("a symbolic link to the root folder itself or to a folder in it is a folder of the project, not a link leaving the root", async () => {
  const root = await makeProject({ "a/x.py": "x = 1\n" });
  await Deno.symlink("..", join(root, "a/up"));
  await Deno.symlink(".", join(root, "here"));
  await Deno.symlink("a", join(root, "same"));
  const result = await buildIn(root);
  // The reason says where the folder's files are (serde's `serde/src/core -> ../../serde_core/src`
  // read "is a directory", as if the listing were wrong).
  for (const path of ["a/up", "here", "same"]) {
    assert.deepEqual([row(result, path).status, row(result, path).reason], [
      "skipped",
      "a symbolic link to a folder of the project, whose files are read by their own paths",
    ], path);
  }
  assert.equal(row(result, "a/x.py").status, "rendered");
});

Deno.test("links and paths that leave the root are refused unless allowOutsideRoot", async () => {
  const outside = await makeProject({ "secret.txt": "outside\n" });
  const root = await makeProject({ "a.ts": "export {};\n" });
  await Deno.symlink(join(outside, "secret.txt"), join(root, "link.txt"));
  const files = ["**", join(outside, "secret.txt"), "../escape.txt"];
  const refused = await buildIn(root, { files });
  assert.equal(
    row(refused, "link.txt").reason,
    "symbolic link leaves the root (set allowOutsideRoot to allow it)",
  );
  assert.ok(refused.warnings.some((w) => /Refused ".*secret.txt" \(files\[1\]\)/.test(w)));
  assert.ok(refused.warnings.some((w) => w.includes(`Refused "../escape.txt" (files[2])`)));
  assert.doesNotMatch(refused.document, /outside/);
  const allowed = await buildIn(root, { files, allowOutsideRoot: true });
  assert.equal(row(allowed, "link.txt").status, "rendered");
  assert.match(allowed.document, /outside/);
});

Deno.test("names with spaces, newlines and non-ASCII are kept, in git and outside it", async () => {
  const tree = {
    "with space.ts": "export const a = 1;\n",
    "new\nline.ts": "export const b = 2;\n",
    "ünï/cödé 日本.md": "# hi\n",
    "tab\there.txt": "t\n",
  };
  for (const useGit of [false, true]) {
    const root = await makeProject(tree);
    if (useGit) await gitInit(root);
    const result = await buildIn(root, { tree: true });
    assert.deepEqual(result.files.map((f) => [f.path, f.status]).sort(), [
      ["new\nline.ts", "rendered"],
      ["tab\there.txt", "rendered"],
      ["with space.ts", "rendered"],
      ["ünï/cödé 日本.md", "rendered"],
    ], useGit ? "git" : "walk");
    assert.match(result.document, /### new\\nline.ts\n/, "a newline cannot end the heading");
    assert.match(result.document, /### tab\\there.txt\n/);
    assert.match(result.document, /### ünï\/cödé 日本.md\n/);
    assert.match(result.document, /\nnew\\nline.ts\n/, "the tree escapes it too");
  }
});

Deno.test("files deleted, replaced or changed between resolve and read", async () => {
  const root = await makeProject({
    "gone.ts": "export {};\n",
    "dir.ts": "export {};\n",
    "grows.ts": "small\n",
    "edited.ts": "before\n",
  });
  const config = await loadConfig({ cwd: root, inline: { maxFileSize: 100 } });
  const { targets } = await resolveTargets(config);
  await Deno.remove(join(root, "gone.ts"));
  await Deno.remove(join(root, "dir.ts"));
  await Deno.mkdir(join(root, "dir.ts"));
  await Deno.writeTextFile(join(root, "grows.ts"), "x".repeat(500));
  await Deno.writeTextFile(join(root, "edited.ts"), "after\n");
  const read = Object.fromEntries((await readTargets(targets, config)).map((f) => [f.path, f]));
  assert.deepEqual(read["gone.ts"].error, { status: "error", reason: "file not found" });
  assert.deepEqual(read["dir.ts"].error, { status: "skipped", reason: "is a directory" });
  assert.equal(read["grows.ts"].error?.status, "skipped");
  assert.equal(read["edited.ts"].text, "after\n", "the one read gives text and hash together");
  assert.equal(read["edited.ts"].sha256, sha256("after\n"));
});

Deno.test("BOM is dropped and CRLF/CR become LF in the document; hashes are of the raw bytes", async () => {
  const raw = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("a\r\nb\rc\n")]);
  const root = await makeProject({ "bom.txt": raw });
  const result = await buildIn(root);
  assert.match(result.document, /### bom.txt\n\n```txt\na\nb\nc\n```\n/);
  assert.equal(row(result, "bom.txt").sha256, sha256(raw));
  assert.equal(row(result, "bom.txt").bytes, raw.length);
});

Deno.test("very long lines and deep trees render whole", async () => {
  const line = "z".repeat(1_000_000);
  const deep = Array.from({ length: 120 }, (_, i) => `d${i}`).join("/") + "/leaf.ts";
  const root = await makeProject({ "long.txt": line, [deep]: "export const leaf = 1;\n" });
  // Named: plain text over 32 KB is otherwise summarized as data.
  const result = await buildIn(root, { files: ["**", "long.txt"] });
  assert.equal(row(result, "long.txt").status, "rendered");
  assert.ok(result.document.includes(line));
  assert.equal(row(result, deep).status, "rendered");
  const summary = await buildIn(root, { defaultView: "summary" });
  assert.equal(row(summary, "long.txt").status, "rendered");
});

Deno.test("a view that never settles times out as an error naming plugin and file", async () => {
  const root = await makeProject({ "a.ts": "export {};\n", "b.md": "# b\n" });
  const config = await loadConfig({
    cwd: root,
    inline: {
      files: [{ path: "a.ts", view: "hang" }, "b.md"],
      plugins: [{
        kind: "view-mode",
        name: "hang",
        version: "1",
        render: () => new Promise<string>(() => {}),
      }],
    },
  });
  const { build } = await import("../../pipeline/build.ts");
  const { defaultPlugins } = await import("../../plugins/defaults.ts");
  const result = await build(config, {
    builtins: defaultPlugins(),
    write: false,
    hookTimeoutMs: 50,
  });
  const a = result.files.find((f) => f.path === "a.ts")!;
  assert.equal(a.status, "error");
  assert.equal(a.reason, '[plugin hang] Hook "render" did not settle within 50 ms on "a.ts"');
  assert.equal(result.files.find((f) => f.path === "b.md")!.status, "rendered");
});

Deno.test("a section plugin that throws stops the build with a message naming it (exit 1)", async () => {
  const root = await makeProject({
    "a.ts": "export {};\n",
    "slop.config.ts": `export default {
  plugins: [{ kind: "section", name: "boom", compose() { throw new Error("kaput"); } }],
};\n`,
  });
  const run = await runCliShared(["build"], root);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /\[plugin boom\].*compose.*kaput/);
});

Deno.test("a file slop reads for itself is decoded as before the checks of its kind and size: a leading byte order mark is kept", async () => {
  // The knowledge digest (its text reaches the document), a prompt template (its hash keys the
  // summary cache) and the rest were read by `Deno.readTextFile`, which keeps a leading U+FEFF.
  const root = await makeProject({ "a.py": "x = 1\n" });
  const path = join(root, "digest.md");
  await Deno.writeFile(
    path,
    new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("# D\n")]),
  );
  const before = await Deno.readTextFile(path);
  assert.equal(before, "\ufeff# D\n");
  assert.equal(await readSettingText(path), before);
  assert.equal(readSettingTextSync(path, 64), before);
  await Deno.remove(root, { recursive: true });
});
