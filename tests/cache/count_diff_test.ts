import assert from "node:assert/strict";
import { join } from "node:path";
import { countByDifference, earlierBlocks } from "../../accel/count_diff.ts";
import { countTexts, tableFor } from "../../pipeline/count.ts";
import { bpeCounter } from "../../pipeline/_bpe.ts";
import { loadWritten } from "../../accel/patch_write.ts";
import { sha256 } from "../../pipeline/read.ts";
import { buildContext } from "../../mod.ts";
import { makeProject, REPO, tempDir } from "../_helpers.ts";

/** Real text: slop's own sources (code, comments, JSDoc, template strings). */
async function realTexts(): Promise<string[]> {
  const out: string[] = [];
  for (const name of ["pipeline/count.ts", "accel/precount.ts", "pipeline/resolve.ts"]) {
    out.push(await Deno.readTextFile(join(REPO, name)));
  }
  out.push(await Deno.readTextFile(join(REPO, "pipeline/emit.ts")));
  return out;
}

/** Edits a person makes: lines added, removed and changed anywhere, slashes and blanks included. */
function edits(text: string): string[] {
  const lines = text.split("\n");
  const at = (i: number) => Math.min(lines.length, Math.max(0, i));
  const splice = (i: number, remove: number, ...add: string[]) => {
    const copy = [...lines];
    copy.splice(at(i), remove, ...add);
    return copy.join("\n");
  };
  const mid = Math.floor(lines.length / 2);
  return [
    text + "\n// slop bench edit 1\n",
    text + "x",
    "// a new first line\n" + text,
    "x" + text,
    splice(mid, 0, "const inserted = 1;"),
    splice(mid, 0, "// a comment line"),
    splice(mid, 0, "", "   ", ""),
    splice(mid, 1),
    splice(mid, 3, "  return héllo + 'wörld'; // 🙂"),
    splice(1, 0, "}"),
    splice(lines.length - 2, 1, "/* tail */"),
    text.replace(/\n/, "\r\n"),
    text.slice(0, Math.floor(text.length / 3)) + text.slice(Math.floor(text.length / 3) + 1),
  ];
}

Deno.test("a count by difference is the count of the new text, for edits anywhere", async () => {
  const [count] = await Promise.all([countTexts([""], { workers: 1 })]);
  assert.deepEqual(count, [0]);
  // The counter itself: one text at a time, one thread.
  const counter = async (t: string) => (await countTexts([t], { workers: 1 }))[0];
  let used = 0;
  for (const before of await realTexts()) {
    const tokens = await counter(before);
    for (const after of edits(before)) {
      const memo = new Map<string, number>();
      const pending: string[] = [];
      // countByDifference is synchronous: count what it asks for first, then ask again.
      countByDifference(before, tokens, after, (t) => {
        pending.push(t);
        return 0;
      });
      for (const t of pending) memo.set(t, await counter(t));
      const n = countByDifference(before, tokens, after, (t) => memo.get(t)!);
      if (n === undefined) continue;
      used++;
      assert.equal(n, await counter(after), JSON.stringify(after.slice(0, 60)));
    }
  }
  assert.ok(used >= 40, `counted by difference ${used} times`);
});

Deno.test("a count by difference is exact for random edits, o200k and cl100k", async () => {
  // Snippets that end or start pre-split pieces in every way: slashes, blanks, line breaks.
  const pool = [
    "};\n",
    "x\n",
    "//",
    "/",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\t",
    "\r\n",
    "}",
    "x",
    "'s",
    "123",
    "🙂",
    "é",
    " /*",
    "*/\n",
  ];
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (const tokenizer of ["o200k", "cl100k"] as const) {
    const count = bpeCounter(await tableFor(tokenizer));
    let used = 0;
    for (const text of await realTexts()) {
      const before = text.slice(0, 6000);
      const tokens = count(before);
      for (let k = 0; k < 150; k++) {
        let after = before;
        for (let e = 1 + random(2); e > 0; e--) {
          // Half the edits at a line start (where the cuts are), half anywhere.
          const any = random(after.length + 1);
          const at = random(2) ? any : after.indexOf("\n", any) + 1;
          const cut = random(3) === 0 ? random(20) : 0;
          let add = "";
          for (let n = random(4); n > 0; n--) add += pool[random(pool.length)];
          after = after.slice(0, at) + add + after.slice(at + cut);
        }
        const n = countByDifference(before, tokens, after, count);
        if (n === undefined) continue;
        used++;
        assert.equal(n, count(after), `${tokenizer}: ${JSON.stringify(after)}`);
      }
    }
    // Cuts next to a line that starts with a slash, after punctuation (one pre-split piece).
    const code = "const a = f();\n}\n// note\nreturn a;\n".repeat(20);
    const cases = [
      [code, code.replace("}\n// note", "};\n// note")],
      [code, code.replace("// note\nreturn", "// note\n/x/.test(a);\nreturn")],
      [code, code.replace("a;\n}\n", "a;\n});\n")],
      [code, code.replace("f();\n}\n// note", "f();\n}\n;\n// note")],
      [
        code,
        code.replace("f();\n}\n// note", "f();\n};\n// note").replace("};\n// note", "}\n// note"),
      ],
      [code.replace("}\n// note", "};\n// note"), code],
    ];
    for (const [before, after] of cases) {
      const n = countByDifference(before, count(before), after, count);
      assert.notEqual(n, undefined);
      assert.equal(n, count(after), `${tokenizer}: ${JSON.stringify(after.slice(0, 80))}`);
    }
    assert.ok(used >= 400, `${tokenizer}: counted by difference ${used} times`);
  }
});

Deno.test("a count by difference declines when the texts share nothing", () => {
  const count = (t: string) => t.length;
  assert.equal(countByDifference("abc\ndef\n", 2, "xyz\nuvw\n", count), undefined);
  assert.equal(countByDifference("", 0, "x\n", count), undefined);
  assert.equal(
    countByDifference(
      "a\nb\nc\nd\ne\nf\n",
      6,
      "a\nb\nx\ny\nd\ne\nf\n",
      (t) => t.split("\n").length - 1,
    ),
    7,
  );
});

Deno.test("the last document's blocks read back only while document and manifest are as written", async () => {
  const root = await makeProject({
    "a.py": "def one():\n    return 1\n",
    "b.md": "# Notes\n\nsome words\n",
  });
  const state = await tempDir();
  await buildContext({ cwd: root, stateDir: state }); // in this process: its records are the test's input
  const records = [...Deno.readDirSync(join(state, "cache", "stat"))]
    .filter((e) => e.name.endsWith(".doc.json"));
  assert.equal(records.length, 1);
  const written = loadWritten(join(state, "cache", "stat", records[0].name));
  assert.ok(written, "a build records its document");
  const manifest = JSON.parse(await Deno.readTextFile(written.path.replace(/\.md$/, ".json")));
  // With each block's length, for the next build to copy the blocks it moves.
  assert.deepEqual(written.lengths, manifest.blocks.map((b: { length: number }) => b.length));
  const document = await Deno.readFile(written.path);
  const block = manifest.blocks.find((b: { id: string }) => b.id === "files:a.py");
  const back = await earlierBlocks(written)("files:a.py");
  assert.ok(back);
  assert.equal(back.sha256, block.sha256);
  assert.equal(sha256(new TextEncoder().encode(back.text)), block.sha256);
  assert.equal(
    back.text,
    new TextDecoder().decode(document.subarray(block.offset, block.offset + block.length)),
  );
  assert.equal(await earlierBlocks(written)("files:none.py"), undefined, "no such block");
  assert.equal(await earlierBlocks(undefined)("files:a.py"), undefined, "no document");
  // A manifest that does not match the document's bytes.
  const manifestPath = written.path.replace(/\.md$/, ".json");
  const wrong = { ...manifest, blocks: manifest.blocks.map((b: object) => ({ ...b, offset: 1 })) };
  await Deno.writeTextFile(manifestPath, JSON.stringify(wrong));
  assert.equal(await earlierBlocks(written)("files:a.py"), undefined, "hash mismatch");
  await Deno.writeTextFile(manifestPath, "{ damaged");
  assert.equal(await earlierBlocks(written)("files:a.py"), undefined, "damaged manifest");
  await Deno.writeTextFile(manifestPath, JSON.stringify(manifest));
  assert.ok(await earlierBlocks(written)("files:a.py"), "restored");
  // The document changed since (another size, another modification time).
  await Deno.writeFile(written.path, document.subarray(0, document.length - 1));
  assert.equal(await earlierBlocks(written)("files:a.py"), undefined, "document changed");
});
