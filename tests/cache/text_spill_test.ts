import assert from "node:assert/strict";
import { dropSpillsOf, openSpill, spillAfterFromEnv } from "../../accel/text_spill.ts";
import {
  byteParts,
  copyLazy,
  derivedFromText,
  hasText,
  knownByteLength,
  lazyList,
  lazyText,
  textBacking,
  textLength,
  textMarks,
} from "../../pipeline/lazy_text.ts";
import { fileBlockOf } from "../../plugins/sections/_render.ts";
import { openCache } from "../../pipeline/cache.ts";
import { loadTextMemo, saveTextMemo } from "../../accel/text_memo.ts";

const encoder = new TextEncoder();
import { isLazyText, lazyFileBlock } from "../../pipeline/helpers.ts";
import { textParts } from "../../pipeline/block_parts.ts";
import { hashText } from "../../pipeline/text_hash.ts";
import type { RenderedFile } from "../../pipeline/types.ts";
import { build, defaultPlugins, loadConfig } from "../../mod.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import { collectGarbage } from "../../accel/collect.ts";
import { RACY_MS } from "../../accel/stat_index.ts";
import { makeProject, tempDir, type Tree } from "../_helpers.ts";
import { join } from "node:path";

/** The spill files of these tests, removed at the end. */
const dir = Deno.makeTempDirSync({ prefix: "slop_spill_test_" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

/** Texts of every kind of character, each longer than the spill's minimum. */
function texts(): string[] {
  return [
    "x = 1\n".repeat(400),
    "é ü ß — ‘quoted’\n".repeat(200),
    "日本語のテキスト\n".repeat(300),
    "emoji 🙂🚀 pairs\n".repeat(200),
    "\r\nwindows\r\n".repeat(300),
  ];
}

Deno.test("a spilled text reads back as it was, and shares its record with the same text", () => {
  const spill = openSpill({ after: 0, dir });
  try {
    const all = texts();
    const sources = all.map((text) => ({ text }));
    sources.forEach((s) => spill.spill(s));
    for (const [i, source] of sources.entries()) {
      assert.ok(textBacking(source), `text ${i} is lazy`);
      assert.equal(source.text, all[i]);
      assert.equal(textLength(source), all[i].length);
      assert.ok(hasText(source));
      const bytes = byteParts(source)!;
      assert.deepEqual(hashText(bytes), hashText(all[i]), `text ${i}'s bytes are its UTF-8`);
    }
    // A rendered file whose text is its source's (as just read) shares the source's record.
    const rendered = { text: sources[1].text };
    spill.spill(rendered);
    assert.equal(textBacking(rendered), textBacking(sources[1]));
    assert.equal(spill.stats.written, all.length);
    assert.equal(spill.stats.shared, 1);
  } finally {
    spill.close();
  }
});

Deno.test("a text spilled as a read stage spills it is not kept as read last", () => {
  // A text kept as read last outlives the young generation's collections: one kept past its use
  // is garbage only a full collection of the build's heap frees.
  const spill = openSpill({ after: 0, dir });
  try {
    const made = (i: number) => ({ text: `v${i} = ${i}\n`.repeat(200) });
    const read = Array.from({ length: 8 }, (_, i) => made(i));
    read.forEach((s) => spill.spill(s, { recent: false }));
    read.forEach((s) => s.text);
    assert.equal(spill.stats.reads, 8);
    // Spilled plainly (a render), a text read again at once is not decoded again.
    const rendered = made(100);
    spill.spill(rendered);
    rendered.text;
    assert.equal(spill.stats.reads, 8);
  } finally {
    spill.close();
  }
});

Deno.test("short texts, texts with lone surrogates and the first characters stay in memory", () => {
  const spill = openSpill({ after: 3000, dir });
  try {
    const first = { text: "a".repeat(2400) }; // within the first 3000 characters offered
    const short = { text: "short\n" };
    const lone = { text: "a\ud800b".repeat(1000) };
    const later = { text: "b".repeat(2400) };
    for (const t of [first, short, lone, later]) spill.spill(t);
    assert.equal(textBacking(first), undefined);
    assert.equal(textBacking(short), undefined);
    assert.equal(textBacking(lone), undefined);
    assert.equal(lone.text, "a\ud800b".repeat(1000));
    assert.ok(textBacking(later), "past the first 3000 characters, a text is spilled");
    assert.equal(spill.spills(0), true);
  } finally {
    spill.close();
  }
});

Deno.test("setting a lazy text replaces it; a copy keeps it lazy, its fields in order", () => {
  const spill = openSpill({ after: 0, dir });
  try {
    const text = "line\n".repeat(500);
    const block = { id: "a", section: "s", text, source: "a.py" };
    spill.spill(block);
    const placed = copyLazy(block, { offset: 3, length: text.length });
    assert.ok(textBacking(placed));
    assert.deepEqual(Object.keys(placed), ["id", "section", "text", "source", "offset", "length"]);
    assert.equal(JSON.stringify(placed), JSON.stringify({ ...block, offset: 3, length: 2500 }));
    // Setting the copy's text leaves the block's lazy.
    placed.text = "other";
    assert.equal(textBacking(placed), undefined);
    assert.equal(placed.text, "other");
    assert.equal(block.text, text);
    assert.ok(textBacking(block));
    // A spread copy holds the text itself.
    assert.equal(textBacking({ ...block }), undefined);
  } finally {
    spill.close();
  }
});

Deno.test("a lazy file block reads as its parts joined, and is hashed from its bytes", () => {
  const spill = openSpill({ after: 0, dir });
  try {
    const body = "print('é')\n".repeat(300);
    const file = { path: "a.py", text: body } as RenderedFile;
    spill.spill(file);
    assert.ok(isLazyText(file));
    const block = { id: "files:a.py", text: "" };
    lazyFileBlock(block, file, ["### a.py\n\n```python\n", "```\n\n"]);
    const joined = "### a.py\n\n```python\n" + body + "```\n\n";
    assert.equal(block.text, joined);
    assert.equal(textLength(block), joined.length);
    assert.equal(knownByteLength(block), new TextEncoder().encode(joined).length);
    assert.deepEqual([...textParts(block)], ["### a.py\n\n```python\n", body, "```\n\n"]);
    assert.deepEqual(hashText(byteParts(block)!), hashText(joined));
    // Read again after the spill is closed: the file is opened for the read.
    spill.close();
    assert.equal(block.text, joined);
  } finally {
    spill.close();
  }
});

Deno.test("a spilled file's block is fenced by marks noted as it was written, not read back", () => {
  const spill = openSpill({ after: 0, dir });
  try {
    const bodies = [
      ...texts(),
      "a ``` b\n".repeat(200) + "````` end",
      "`".repeat(2000),
      "x".repeat(1500) + "\n``",
      "```\n" + "é".repeat(1200) + "\r\n",
    ];
    for (const body of bodies) {
      const plain = {
        path: "a b/x.py",
        status: "rendered",
        text: body,
        fenced: true,
        language: "python",
      };
      const file = { ...plain } as RenderedFile;
      spill.spill(file);
      assert.deepEqual(textBacking(file)!.marks, textMarks(body));
      const reads = spill.stats.reads;
      spill.forget(); // the text written is no longer at hand: a read would decode it again
      const block = fileBlockOf(file);
      assert.equal(spill.stats.reads, reads, "the block was made without reading the text");
      assert.equal(
        block.text,
        fileBlockOf(plain as RenderedFile).text,
        JSON.stringify(body.slice(-20)),
      );
    }
  } finally {
    spill.close();
  }
});

Deno.test({
  name:
    "a text the cache's pack holds is kept there: not decoded, not written, read after a rewrite",
  // The pack file stays open while a text kept in it is left (closed when they are collected).
  sanitizeResources: false,
  async fn() {
    const cacheDir = Deno.makeTempDirSync({ dir });
    const all = [...texts(), "a ``` b\n".repeat(300), "short\n"];
    const head = new TextEncoder().encode('{"head":1}\n');
    const first = openCache(cacheDir, { pack: "p" });
    for (const [i, text] of all.entries()) await first.setText!(`k${i}`, head, text);
    await first.flush();
    // A value made from each text (its hash) is remembered by the text's name for the next build.
    const memo = loadTextMemo(`${cacheDir}/memo.json`);
    const spill = openSpill({ after: 0, dir, memo, collector: () => true });
    const cache = openCache(cacheDir, { pack: "p" });
    const kept: Array<{ text?: string }> = [];
    for (const i of all.keys()) {
      const target: { text?: string } = {};
      await cache.getDecoded!(`k${i}`, (bytes, place) => {
        assert.ok(place, "read from the pack");
        const text = bytes.subarray(head.length);
        const backing = spill.keepAt({ size: text.length, bytes: () => text }, {
          ...place,
          offset: place.offset + head.length,
          sha256: `${place.sha256}+${head.length}`,
        });
        if (backing) lazyText(target, backing);
        else target.text = new TextDecoder().decode(bytes.subarray(head.length));
      });
      kept.push(target);
    }
    assert.equal(spill.stats.written, 0);
    assert.equal(spill.stats.kept, all.length - 1, "all but the short text");
    assert.equal(textBacking(kept.at(-1)!), undefined);
    // Their lengths and marks were taken from their bytes, the non-ASCII ones too: no text was
    // decoded, so none is garbage and the stage's end asks for no collection.
    spill.forget();
    assert.equal(spill.stats.collections, 0, "no decoded copy let go");
    // Another build rewrites the pack in its place (a temp file renamed): the texts still read.
    const packs = `${cacheDir}/packs`;
    const inode = () =>
      [...Deno.readDirSync(packs)].map((e) => Deno.statSync(`${packs}/${e.name}`).ino);
    const before = inode();
    const other = openCache(cacheDir, { pack: "p" });
    for (let j = 0; j < 10; j++) await other.set(`new${j}`, "x".repeat(5000));
    for (const i of all.keys()) await other.get(`k${i}`);
    await other.flush();
    await cache.flush();
    assert.notDeepEqual(inode(), before, "the pack was rewritten");
    for (const [i, text] of all.entries()) {
      const target = kept[i];
      assert.equal(textLength(target), text.length);
      assert.equal(knownByteLength(target), textBacking(target) && encoder.encode(text).length);
      if (textBacking(target)) assert.deepEqual(textBacking(target)!.marks, textMarks(text));
      assert.equal(target.text, text);
      assert.deepEqual(hashText(byteParts(target) ?? [target.text!]), hashText(text));
    }
    // Each kept text's hash made once, then known by its name (here and in the next build).
    let made = 0;
    const hashOf = (target: { text?: string }) =>
      derivedFromText(target, "sha", () => (made++, hashText(target.text!).sha256));
    for (const target of kept) hashOf(target);
    assert.equal(made, all.length);
    await saveTextMemo(`${cacheDir}/memo.json`, memo);
    const next = openSpill({ after: 0, dir, memo: loadTextMemo(`${cacheDir}/memo.json`) });
    const again = openCache(cacheDir, { pack: "p" });
    for (const [i, text] of all.entries()) {
      const target: { text?: string } = {};
      await again.getDecoded!(`k${i}`, (bytes, place) => {
        const payload = bytes.subarray(head.length);
        const backing = place && next.keepAt({ size: payload.length, bytes: () => payload }, {
          ...place,
          offset: place.offset + head.length,
          sha256: `${place.sha256}+${head.length}`,
        });
        if (backing) lazyText(target, backing);
        else target.text = text;
      });
      assert.equal(hashOf(target), hashText(text).sha256);
    }
    assert.equal(made, all.length + 1, "only the short text (kept in memory) hashed again");
    spill.close();
    next.close();
  },
});

Deno.test("a lazy list makes each item when it is read", () => {
  const made: number[] = [];
  const list = lazyList(3, (i) => (made.push(i), `t${i}`));
  assert.equal(list.length, 3);
  assert.equal(list[1], "t1");
  assert.deepEqual(Array.from({ length: list.length }, (_, i) => list[i]), ["t0", "t1", "t2"]);
  assert.deepEqual(made, [1, 0, 1, 2]);
});

Deno.test("a spill collects garbage each time enough texts were written or read back", () => {
  // Each text written (the string it was read as) and each text read back (decoded again) is
  // garbage once used; V8 lets its heap grow to several times what is held before it collects.
  // Here a collection is due every 10,000 characters, and once more when a stage is done.
  // The collector counts here (a real one takes a while each time in a test process's heap);
  // `tests/scaling/memory_held_test.ts` checks the garbage a build leaves with the real one.
  let runs = 0;
  const collector = () => (runs++, true);
  const spill = openSpill({ after: 0, dir, collectEvery: 10_000, collector });
  try {
    const sources = Array.from({ length: 10 }, (_, i) => ({ text: `${i} `.repeat(1000) }));
    sources.forEach((s) => spill.spill(s));
    // 20,000 characters written: two collections.
    assert.equal(spill.stats.collections, 2);
    spill.forget();
    // Read back once each (the texts read last were let go): 20,000 more, two more.
    for (const [i, source] of sources.entries()) assert.equal(source.text, `${i} `.repeat(1000));
    assert.equal(spill.stats.collections, 4);
    // The last texts read are remembered: reading them again decodes nothing and lets go nothing.
    assert.equal(sources.at(-1)!.text.length, 2000);
    assert.equal(spill.stats.collections, 4);
    // A stage's end after nothing was let go since the last collection: none.
    spill.forget();
    assert.equal(spill.stats.collections, 4);
    // After a text was read back (decoded: the texts read last were let go just now): one.
    assert.equal(sources[0].text.length, 2000);
    spill.forget();
    assert.equal(spill.stats.collections, 5);
    // Each counted collection ran the collector once.
    assert.equal(runs, 5);
  } finally {
    spill.close();
  }
});

Deno.test("a spill that writes nothing collects nothing", () => {
  // A tree whose texts stay under the spill's threshold (64M characters by default) pays nothing.
  const spill = openSpill({ dir, collectEvery: 10, collector: () => true });
  try {
    const sources = Array.from({ length: 10 }, (_, i) => ({ text: `${i} `.repeat(1000) }));
    sources.forEach((s) => spill.spill(s));
    spill.forget();
    assert.equal(spill.stats.written, 0);
    assert.equal(spill.stats.collections, 0);
  } finally {
    spill.close();
  }
});

Deno.test("a build spills past 64M characters unless SLOP_SPILL_AFTER_MB says otherwise", () => {
  assert.equal(spillAfterFromEnv({}), 64 * 1024 * 1024);
  assert.equal(spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: " " }), 64 * 1024 * 1024);
  assert.equal(spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: "16" }), 16 * 1024 * 1024);
  assert.equal(spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: "0.5" }), 512 * 1024);
  assert.equal(spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: "0" }), 0);
  assert.equal(spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: "off" }), false);
  assert.equal(spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: "OFF" }), false);
  for (const value of ["abc", "-1", "Infinity", "12MB"]) {
    assert.throws(
      () => spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: value }),
      new RegExp(`^Error: SLOP_SPILL_AFTER_MB must be .* got "${value}"$`),
    );
  }
});

Deno.test("a spill removes the spill files of killed builds, never a running process's", () => {
  const folder = Deno.makeTempDirSync({ dir, prefix: "stale_" });
  // A pid over Linux's largest (2^22) runs nowhere; this process's own file is in use.
  const stale = `${folder}/slop_texts_99999999_ab12cd`;
  const own = `${folder}/slop_texts_${Deno.pid}_ef34gh`;
  const other = `${folder}/notes_99999999_x`;
  for (const path of [stale, own, other]) Deno.writeTextFileSync(path, "x");
  const spill = openSpill({ after: 0, dir: folder });
  spill.spill({ text: "y = 2\n".repeat(500) });
  spill.close();
  const left = [...Deno.readDirSync(folder)].map((e) => e.name).sort();
  assert.ok(!left.includes("slop_texts_99999999_ab12cd"), left.join(", "));
  assert.ok(left.includes(`slop_texts_${Deno.pid}_ef34gh`) && left.includes("notes_99999999_x"));
  // The new spill file is named with this process's id.
  assert.equal(left.filter((n) => n.startsWith(`slop_texts_${Deno.pid}_`)).length, 2);
});

Deno.test("a resident's spills stay readable after their builds, each build its own file, all removed as it ends", async () => {
  const dir = await tempDir({ prefix: "slop_spill_owner_" });
  const owner = {};
  const files = () => [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  const texts = ["a = 1\n".repeat(400), "b = 2\n".repeat(400)];
  const kept = texts.map((text) => {
    // One build's spill: written, then closed as the build ends, kept open for reads.
    const spill = openSpill({ after: 0, owner, dir, collectEvery: Infinity });
    const target = { text };
    spill.spill(target);
    spill.close({ keepOpen: true });
    // Nothing more is written to it (a later build has a spill of its own).
    const late = { text };
    spill.spill(late);
    assert.equal(textBacking(late), undefined);
    return target;
  });
  // Two builds, two files (never one file two builds write to).
  assert.equal(files().length, 2);
  assert.deepEqual(kept.map((t) => t.text), texts);
  assert.ok(kept.every((t) => textBacking(t)));
  dropSpillsOf(owner);
  assert.deepEqual(files(), []);
  await Deno.remove(dir);
});

Deno.test({
  name:
    "a text still held when its resident ends reads as before: its spill's name goes at once, its file once the text goes",
  // The open file of a text still held is closed when the text is collected.
  sanitizeResources: false,
  async fn() {
    const dir = await tempDir({ prefix: "slop_spill_owner_" });
    const owner = {};
    const files = () => [...Deno.readDirSync(dir)].map((e) => e.name);
    const text = "a = 1\n".repeat(400);
    const spill = openSpill({ after: 0, owner, dir, collectEvery: Infinity });
    // A build's result: its texts in the spill, held by the caller after the resident closed.
    const result = { text };
    spill.spill(result);
    spill.close({ keepOpen: true });
    assert.ok(textBacking(result));
    dropSpillsOf(owner);
    assert.deepEqual(files(), []);
    assert.equal(result.text, text);
    await Deno.remove(dir);
  },
});

Deno.test("a lazy text's backing is known without looking at the object's properties; copies and set texts have none", () => {
  const backing = { read: () => "x = 1\n", length: 6 };
  const lazy = Array.from({ length: 100 }, (_, i) => {
    const block = { id: `b${i}`, text: "" };
    lazyText(block, backing);
    return block;
  });
  // Every look of a property's descriptor while the backings are looked up, counted.
  const describe = Object.getOwnPropertyDescriptor;
  let looks = 0;
  Object.getOwnPropertyDescriptor = (target, key) => {
    looks++;
    return describe(target, key);
  };
  try {
    assert.ok(lazy.every((block) => textBacking(block) === backing));
  } finally {
    Object.getOwnPropertyDescriptor = describe;
  }
  assert.equal(looks, 0);
  // What is not the lazy text itself has no backing: a copy by spread or `Object.assign` (which
  // read the text), and an object whose text was set since.
  const copy = { ...lazy[0] };
  assert.equal(textBacking(copy), undefined);
  assert.equal(copy.text, "x = 1\n");
  assert.equal(textBacking(Object.assign({}, lazy[1])), undefined);
  lazy[2].text = "y";
  assert.equal(textBacking(lazy[2]), undefined);
  assert.equal(lazy[2].text, "y");
  assert.equal(textBacking(lazy[3]), backing);
});

Deno.test("a spill file that cannot be made or written leaves the texts in memory, with one warning", () => {
  // A folder that is a file: the spill file cannot be made there (as a full disk refuses it).
  const notAFolder = `${dir}/not_a_folder`;
  Deno.writeTextFileSync(notAFolder, "");
  const warnings: string[] = [];
  const spill = openSpill({ after: 0, dir: notAFolder, warn: (w) => warnings.push(w) });
  const all = texts().map((text) => ({ text }));
  for (const target of all) spill.spill(target);
  // Each text stays as it was, in memory; the build is told once, naming the folder.
  assert.deepEqual(all.map((t) => t.text), texts());
  assert.ok(all.every((t) => textBacking(t) === undefined));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /^Cannot write the texts spill file ".*not_a_folder": /);
  assert.equal(spill.stats.written, 0);
  spill.close();
});

Deno.test("a warm build whose scan reads every file again (other secret rules) keeps their texts in the spill, as a read does", async () => {
  const tree: Tree = {};
  let chars = 0;
  for (let i = 0; i < 8; i++) {
    // 256 KB each: the texts (2 MB) dwarf the records and the heap's noise (about 150 KB).
    const text = Array.from({ length: 14_000 }, (_, k) => `v${i}_${k} = ${k} * 3\n`).join("");
    tree[`src/m${i}.py`] = text.slice(0, 256 * 1024);
    chars += tree[`src/m${i}.py`].length;
  }
  const config = (rules: string) =>
    `export default { files: ["src/**"], secrets: { rules: { ${rules} } } };\n`;
  tree["slop.config.ts"] = config(`"acme-id": "ACME-[0-9]{8}"`);
  const root = await makeProject(tree);
  // Past the racy window: the warm build's stat index takes the files unread.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  const state = join(root, ".state");
  const builtins = defaultPlugins();
  const load = () => loadConfig({ cwd: root, stateDir: state, reload: true });
  await build(await load(), { builtins, layer: speedLayer({ spillAfter: 0 }) });
  // Other rules: the list of files found clean is not this scan's, so it reads every file.
  await Deno.writeTextFile(join(root, "slop.config.ts"), config(`pin: "pin=([0-9]{4})"`));
  const held = new Map<string, number>();
  const timings = {
    mark(stage: string) {
      collectGarbage();
      held.set(stage, Deno.memoryUsage().heapUsed);
    },
    stages: () => [],
  };
  const warm = await build(await load(), {
    builtins,
    layer: speedLayer({ spillAfter: 0 }),
    timings,
  });
  assert.match(warm.document, /v7_1 = 1 \* 3/);
  // What the scan read is in the spill: the heap grew by far less than the texts (by about
  // them, 2 MB, when each text read was held until the transform spilled it). Alone it grows by
  // about 170 KB; under a loaded parallel run a mark once saw 820 KB (a few texts' worth still
  // reachable from work in flight), so the bound is half the texts, still far below all of them.
  const grown = held.get("secrets")! - held.get("read")!;
  assert.ok(grown < chars / 2, `${grown} bytes held after the scan for ${chars} characters`);
});
