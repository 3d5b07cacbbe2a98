// The work a one-file-edit warm build does, counted (`tallyWork`), on a tree whose texts stay in
// the cache's pack as on a big tree (`spillAfter: 0`): the edited file is the one file read, no
// unchanged text is decoded (a pack's text of well-formed UTF-8 is measured from its bytes, ASCII
// or not), no full collection is asked for the few texts it changed, and the bytes hashed stay
// within two passes over the document (each block's sha256 and the document's: the pack, as its
// stamp says the last build left it, is not checked text by text). The document is the plain
// stages' bytes.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { makeProject } from "../_helpers.ts";
import { RACY_MS } from "../../accel/stat_index.ts";

const FILES = 24;

/** Files of about 2 KB (texts under 1 KB stay in memory), every third one not ASCII. */
async function project(): Promise<string> {
  return await makeProject(await projectTree());
}

/** {@linkcode project}'s files. */
function projectTree(): Record<string, string> {
  const tree: Record<string, string> = {
    "slop.config.ts": `export default { files: ["src/**"], defaultView: "full" };\n`,
  };
  const words = ["plain", "é ü ß — ‘quoted’", "日本語のテキスト", "emoji 🙂🚀 pairs"];
  for (let i = 0; i < FILES; i++) {
    const word = i % 3 ? words[0] : words[1 + (i / 3) % 3];
    tree[`src/m${i}.py`] = Array.from(
      { length: 60 },
      (_, j) => `x${j} = "${word} ${i}"  # line ${j}\n`,
    ).join("");
  }
  return tree;
}

/** The document a build of the project at `at` writes (with the speed `layer`, or the plain stages). */
async function once(at: string, layer?: ReturnType<typeof speedLayer>): Promise<string> {
  const result = await build(await loadConfig({ cwd: at }), { builtins: defaultPlugins(), layer });
  return await Deno.readTextFile(result.output!.document);
}

/**
 * Two projects of `tree` (one built with the speed layer, one with the plain stages), once their
 * files are past the racy window: files changed within `RACY_MS` of a build's read are read again.
 */
async function twinProjects(tree: Record<string, string>): Promise<[string, string]> {
  const roots: [string, string] = [await makeProject(tree), await makeProject(tree)];
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  return roots;
}

/** Write `text` to `path` in both twin projects (the same edit to each). */
async function writeBoth(roots: string[], path: string, text: string): Promise<void> {
  for (const at of roots) await Deno.writeTextFile(join(at, path), text);
}

Deno.test("a one-file-edit warm build reads one file, decodes no unchanged text, collects nothing", async () => {
  const root = await project();
  const plainRoot = await project();
  // Files changed within RACY_MS of a build's read are read again by the next (racily clean).
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  await once(root, speedLayer({ spillAfter: 0 }));
  const edit = (at: string) =>
    Deno.writeTextFile(join(at, "src/m3.py"), "é = 1  # edited\n".repeat(80));
  await edit(root);
  await edit(plainRoot);
  let document = "";
  const work = await tallyWork(async () => {
    document = await once(root, speedLayer({ spillAfter: 0 }));
  });
  const bytes = new TextEncoder().encode(document).length;
  const counted = Object.fromEntries(work);
  assert.equal(work.get("files read"), 1, JSON.stringify(counted));
  // The edited file's text (spilled as read) is read back by the scan, its render and its count:
  // no unchanged text is decoded, ASCII or not.
  assert.ok((work.get("texts decoded") ?? 0) <= 3, JSON.stringify(counted));
  assert.equal(work.get("collections") ?? 0, 0, JSON.stringify(counted));
  assert.ok((work.get("bytes hashed") ?? 0) <= 2 * bytes + 64 * 1024, JSON.stringify(counted));
  assert.equal(document, await once(plainRoot));
});

Deno.test("a warm build hashes the document once: an unchanged block's sha256 and length are the last document's", async () => {
  const [root, plainRoot] = await twinProjects(projectTree());
  const edit = (at: string, n: number) =>
    Deno.writeTextFile(join(at, "src/m3.py"), `é = ${n}  # edited\n`.repeat(80));
  await once(root, speedLayer({ spillAfter: 0 }));
  await edit(root, 1);
  // The first warm build names the blocks of the cached renders it keeps in the pack.
  await once(root, speedLayer({ spillAfter: 0 }));
  await edit(root, 2);
  await edit(plainRoot, 2);
  let document = "";
  const work = await tallyWork(async () => {
    document = await once(root, speedLayer({ spillAfter: 0 }));
  });
  const bytes = new TextEncoder().encode(document).length;
  // The document's hashes take every byte once; the edited file (read, rendered, its block, its
  // record in the pack) a few KB more. Each block's own sha256 again would be twice the document.
  const hashed = work.get("bytes hashed") ?? 0;
  assert.ok(hashed <= 1.5 * bytes, JSON.stringify([...work, ["document bytes", bytes]]));
  // And it hashes the bytes the last document has from its file: the kept texts are read once,
  // to write this small document whole (a big one copies them from the last one too).
  const read = work.get("kept bytes read") ?? 0;
  assert.ok(read > 0 && read <= bytes, JSON.stringify([...work, ["document bytes", bytes]]));
  assert.equal(document, await once(plainRoot));
});

Deno.test("a warm build after the last document was rewritten to the same size and modification time hashes what it writes", async () => {
  const [root, plainRoot] = await twinProjects(projectTree());
  const edit = (at: string, n: number) =>
    Deno.writeTextFile(join(at, "src/m3.py"), `é = ${n}  # edited\n`.repeat(80));
  await once(root, speedLayer({ spillAfter: 0 }));
  await edit(root, 1);
  // This build's blocks are named: the next takes their sha256 from its record and reads the
  // document's bytes from its file.
  const last = await build(await loadConfig({ cwd: root }), {
    builtins: defaultPlugins(),
    layer: speedLayer({ spillAfter: 0 }),
  });
  // Rewritten in place (the same inode, size and modification time), as `cp -p` does.
  const path = last.output!.document;
  const { mtime, atime, ctime } = await Deno.stat(path);
  // Past the second it was written in, by the kernel's own clock: file times come from a clock that
  // moves in ticks and lags the process's clock, so a rewrite in the tick the document was written
  // in keeps its status change time, and no stat can see it (as with git's "racy" entries).
  await kernelClockPast(join(path, ".."), ctime!);
  const bytes = await Deno.readFile(path);
  await Deno.writeFile(path, bytes.map((b) => b === 0x78 ? 0x79 : b)); // "x" to "y"
  await Deno.utime(path, atime!, mtime!);
  await edit(root, 2);
  await edit(plainRoot, 2);
  const warm = await build(await loadConfig({ cwd: root }), {
    builtins: defaultPlugins(),
    layer: speedLayer({ spillAfter: 0 }),
  });
  const written = await Deno.readFile(warm.output!.document);
  assert.equal(warm.manifest.total.sha256, createHash("sha256").update(written).digest("hex"));
  assert.equal(new TextDecoder().decode(written), await once(plainRoot));
});

Deno.test("a warm build measures no unchanged text kept in the pack: the last build's measures are taken by its name", async () => {
  const root = await project();
  const plainRoot = await project();
  // A bidirectional control (U+202E) in one file: its marks, taken from the memo, note it too.
  await writeBoth([root, plainRoot], "src/m5.py", `s = "\u202e abc"  # line\n`.repeat(80));
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  const edit = (at: string, n: number) =>
    Deno.writeTextFile(join(at, "src/m3.py"), `é = ${n}  # edited\n`.repeat(80));
  await once(root, speedLayer({ spillAfter: 0 }));
  await edit(root, 1);
  // The first warm build measures each cached render it keeps in the pack (its length, marks).
  const first = await tallyWork(() => once(root, speedLayer({ spillAfter: 0 })));
  assert.ok((first.get("bytes measured") ?? 0) > 20 * 2048, JSON.stringify([...first]));
  await edit(root, 2);
  await edit(plainRoot, 2);
  let document = "";
  const work = await tallyWork(async () => {
    document = await once(root, speedLayer({ spillAfter: 0 }));
  });
  // The edited file is rendered anew (not kept in the pack): nothing is measured.
  assert.equal(work.get("bytes measured") ?? 0, 0, JSON.stringify([...work]));
  assert.match(document, /bidirectional control character/);
  assert.equal(document, await once(plainRoot));
});

Deno.test("a warm build reads only the heads of the cached renders it keeps in the pack", async () => {
  // Files of about 8 KB, a third not ASCII: a cached render's record is its head (a few hundred
  // bytes of JSON) and its text, which stays in the pack, read when the document is made.
  const tree: Record<string, string> = {
    "slop.config.ts": `export default { files: ["src/**"], defaultView: "full" };\n`,
  };
  for (let i = 0; i < FILES; i++) {
    const word = i % 3 ? "plain" : "é ü ß — 日本語 🙂";
    tree[`src/m${i}.py`] = `x = "${word} ${i}"  # a line of the file\n`.repeat(240);
  }
  const [root, plainRoot] = await twinProjects(tree);
  const texts = Object.values(tree).reduce((n, t) => n + new TextEncoder().encode(t).length, 0);
  const edit = (at: string, n: number) =>
    Deno.writeTextFile(join(at, "src/m3.py"), `é = ${n}  # edited\n`.repeat(80));
  await once(root, speedLayer({ spillAfter: 0 }));
  await edit(root, 1);
  // The first warm build measures the texts it keeps (their bytes are read for it).
  await once(root, speedLayer({ spillAfter: 0 }));
  await edit(root, 2);
  await edit(plainRoot, 2);
  let document = "";
  const work = await tallyWork(async () => {
    document = await once(root, speedLayer({ spillAfter: 0 }));
  });
  // Every text again would be over `texts`; the heads (512 bytes read for each at most) far less.
  assert.ok(
    (work.get("pack bytes read") ?? 0) < texts / 2,
    JSON.stringify([...work, ["texts", texts]]),
  );
  assert.equal(document, await once(plainRoot));
});

Deno.test("a warm build reads no unchanged plain text over 256 KB: it is summarized whatever it holds", async () => {
  // A word list of 300 KB: over every limit plain text has, so its text decides nothing; its
  // reason names the limit that applied (256 KB: no plain text over it is whole).
  const words = Array.from({ length: 40_000 }, (_, i) => `word${i.toString(36)}`).join("\n");
  const tree = { "data/words.txt": `${words}\n`, "src/a.py": "a = 1\n", "src/b.py": "b = 2\n" };
  assert.ok(new TextEncoder().encode(tree["data/words.txt"]).length > 256 * 1024);
  const [root, plainRoot] = await twinProjects(tree);
  await once(root, speedLayer());
  await once(plainRoot);
  await writeBoth([root, plainRoot], "src/a.py", "a = 2\n");
  let document = "";
  const work = await tallyWork(async () => {
    document = await once(root, speedLayer());
  });
  assert.equal(work.get("files read"), 1, JSON.stringify([...work]));
  assert.match(document, /a data file of \d+ KB, over 256 KB/);
  assert.equal(document, await once(plainRoot));
});

Deno.test("a warm build reads no unchanged plain text of 32-256 KB: its verdict is remembered by its hash", async () => {
  // Prose (whole) and records (summarized), each over 32 KB: their texts decide their limits.
  const prose = Array.from(
    { length: 700 },
    (_, i) => `This is sentence number ${i}. It reads as prose, with words of letters.`,
  ).join("\n");
  const records = Array.from({ length: 6_000 }, (_, i) => `word${i.toString(36)}`).join("\n");
  const tree = {
    "data/story.txt": `${prose}\n`,
    "data/words.txt": `${records}\n`,
    "src/a.py": "a = 1\n",
    "src/b.py": "b = 2\n",
  };
  for (const path of ["data/story.txt", "data/words.txt"]) {
    assert.ok(new TextEncoder().encode(tree[path as "data/story.txt"]).length > 32 * 1024, path);
  }
  const [root, plainRoot] = await twinProjects(tree);
  await once(root, speedLayer());
  await once(plainRoot);
  await writeBoth([root, plainRoot], "src/a.py", "a = 2\n");
  let document = "";
  const work = await tallyWork(async () => {
    document = await once(root, speedLayer());
  });
  assert.equal(work.get("files read"), 1, JSON.stringify([...work]));
  assert.match(document, /This is sentence number 699\./);
  assert.match(document, /a data file of \d+ KB, over 32 KB/);
  assert.equal(document, await once(plainRoot));
  // And a third build, which takes both verdicts from the memo the second one saved.
  await Deno.writeTextFile(join(root, "src/a.py"), "a = 3\n");
  await Deno.writeTextFile(join(plainRoot, "src/a.py"), "a = 3\n");
  const third = await tallyWork(async () => {
    document = await once(root, speedLayer());
  });
  assert.equal(third.get("files read"), 1, JSON.stringify([...third]));
  assert.equal(document, await once(plainRoot));
});

Deno.test("a warm build reads no unchanged code over 32 KB: whether it is number tables is remembered by its hash", async () => {
  // A code page table in C (summarized) and code of the same size (whole), each over 32 KB.
  const row = (i: number) =>
    "  " + Array.from({ length: 8 }, (_, j) =>
      `0x${((i * 8 + j) * 37 % 65536).toString(16).padStart(4, "0")}`).join(", ") +
    ",";
  const table = `static const unsigned short cp437[] = {\n${
    Array.from({ length: 700 }, (_, i) => row(i)).join("\n")
  }\n};\n`;
  const code = Array.from(
    { length: 900 },
    (_, i) => `int step${i}(int x) { return x * ${i} + 1; }`,
  ).join("\n") + "\n";
  const tree = { "src/cp437.c": table, "src/engine.c": code, "src/a.py": "a = 1\n" };
  for (const path of ["src/cp437.c", "src/engine.c"]) {
    assert.ok(new TextEncoder().encode(tree[path as "src/cp437.c"]).length > 32 * 1024, path);
  }
  const [root, plainRoot] = await twinProjects(tree);
  await once(root, speedLayer());
  await once(plainRoot);
  for (const n of [2, 3]) {
    await writeBoth([root, plainRoot], "src/a.py", `a = ${n}\n`);
    let document = "";
    const work = await tallyWork(async () => {
      document = await once(root, speedLayer());
    });
    assert.equal(work.get("files read"), 1, JSON.stringify([...work]));
    assert.match(document, /### src\/cp437\.c\n\n\(a data file of \d+ KB, over 32 KB/);
    assert.match(document, /int step899\(int x\)/);
    assert.equal(document, await once(plainRoot));
  }
});

Deno.test("a warm build after an edit appends the few files found clean anew to the pack, not the list of every clean file", async () => {
  // 300 files: the list of those found clean (a sha256 and a path each) is about 25 KB.
  const tree: Record<string, string> = {
    "slop.config.ts": `export default { files: ["src/**"], defaultView: "full" };\n`,
  };
  for (let i = 0; i < 300; i++) tree[`src/m${i}.py`] = `x = ${i}\n`;
  const [root, plainRoot] = await twinProjects(tree);
  const state = join(root, ".state");
  const pack = () => {
    const packs = join(state, "cache", "packs");
    return Deno.statSync(join(packs, [...Deno.readDirSync(packs)][0].name)).size;
  };
  const warm = async () => {
    const config = await loadConfig({ cwd: root, stateDir: state });
    const result = await build(config, { builtins: defaultPlugins(), layer: speedLayer() });
    return await Deno.readTextFile(result.output!.document);
  };
  await warm();
  await once(plainRoot);
  const grown: number[] = [];
  for (let edit = 1; edit <= 3; edit++) {
    await writeBoth([root, plainRoot], `src/m${edit}.py`, `x = "edited ${edit}"\n`);
    const before = pack();
    const document = await warm();
    grown.push(pack() - before);
    // The plain stages, built as often (the file order remembers the edits), write the same bytes.
    assert.equal(document, await once(plainRoot));
  }
  // Each build appends the short list of the ids found clean since (one to three ids).
  assert.ok(grown.every((bytes) => bytes < 2048), `${grown} bytes appended`);
});

Deno.test("a warm build reads no unchanged file skipped by its text: a generated header, a binary file, an LFS pointer", async () => {
  const tree = {
    "src/parser.c":
      "/* A Bison parser, made by GNU Bison 3.8.2.  */\n\nint yyparse(void) { return 0; }\n",
    "src/api.pb.go": "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage api\n",
    "src/blob.dat": "\u0000\u0001\u0002binary\u0000".repeat(40),
    "assets/logo.psd": `version https://git-lfs.github.com/spec/v1\noid sha256:${
      "ab".repeat(32)
    }\nsize 52013\n`,
    "src/a.py": "a = 1\n",
  };
  // Each skipped file's path and reason, from the manifest of a build.
  const skips = async (at: string, layer?: ReturnType<typeof speedLayer>) => {
    const result = await build(await loadConfig({ cwd: at }), {
      builtins: defaultPlugins(),
      layer,
    });
    return result.manifest.files.filter((f) => f.status === "skipped")
      .map((f) => `${f.path}: ${f.reason}`);
  };
  const [root, plainRoot] = await twinProjects(tree);
  await once(root, speedLayer());
  await once(plainRoot);
  for (const n of [2, 3]) {
    await writeBoth([root, plainRoot], "src/a.py", `a = ${n}\n`);
    let skipped: string[] = [];
    const work = await tallyWork(async () => {
      skipped = await skips(root, speedLayer());
    });
    assert.equal(work.get("files read"), 1, JSON.stringify([...work]));
    assert.equal(skipped.length, 4, skipped.join("\n"));
    assert.match(skipped.join("\n"), /src\/parser\.c: generated code .*Bison/);
    assert.deepEqual(skipped, await skips(plainRoot));
  }
});

/** Wait until a file touched in `dir` gets a status change time in a later second than `time`. */
async function kernelClockPast(dir: string, time: Date): Promise<void> {
  const probe = join(dir, ".clock-probe");
  for (;;) {
    await Deno.writeTextFile(probe, "");
    const { ctime } = await Deno.stat(probe);
    if (Math.floor(ctime!.getTime() / 1000) > Math.floor(time.getTime() / 1000)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await Deno.remove(probe);
}
