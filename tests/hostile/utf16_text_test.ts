import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { sha256 } from "../../pipeline/read.ts";
import { decodeText } from "../../pipeline/_text_decode.ts";
import { makeProject } from "../_helpers.ts";

/** UTF-16 bytes of a text with its byte order mark, in either byte order. */
function utf16(text: string, order: "le" | "be"): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xfeff, order === "le");
  for (let i = 0; i < text.length; i++) {
    view.setUint16(2 + i * 2, text.charCodeAt(i), order === "le");
  }
  return bytes;
}

// Texts of every shape a UTF-16 file holds: ASCII, CRLF, accents, CJK, a pair of surrogates.
const TEXTS = [
  "def main():\r\n    return 1\r\n",
  "caf\u00e9 \u4e2d\u6587 \u{1f600}\n",
  "",
  "class A:\n    def b(self, x: int) -> str:\n        return str(x)\n",
];

Deno.test("UTF-16 text behind a byte order mark is read as text, in both byte orders", async () => {
  const tree: Record<string, Uint8Array> = {};
  for (const [i, text] of TEXTS.entries()) {
    for (const order of ["le", "be"] as const) tree[`t${i}_${order}.py`] = utf16(text, order);
  }
  const root = await makeProject(tree);
  for (const defaultView of ["full", "skeleton"] as const) {
    const result = await buildContext({ cwd: root, inline: { defaultView } }, { write: false });
    for (const [path, bytes] of Object.entries(tree)) {
      const row = result.manifest.files.find((f) => f.path === path)!;
      assert.equal(row.status, "rendered", `${path}: ${row.reason}`);
      // Hashed as the bytes on disk, like any file.
      assert.equal(row.sha256, sha256(bytes), path);
      assert.equal(row.bytes, bytes.length, path);
    }
    // Line ends become LF; no byte order mark or NUL reaches the document.
    if (defaultView === "full") {
      assert.ok(result.document.includes("caf\u00e9 \u4e2d\u6587 \u{1f600}\n"));
    }
    assert.ok(!/[\0\ufeff\r]/.test(result.document), defaultView);
  }
  const skeleton = await buildContext({ cwd: root, inline: { defaultView: "skeleton" } }, {
    write: false,
  });
  assert.match(skeleton.document, /def b\(self, x: int\) -> str:/);
});

Deno.test("a secret in a UTF-16 file is redacted like one in a UTF-8 file", async () => {
  const secret = `sk-or-v1-${"9f".repeat(32)}`;
  const root = await makeProject({
    "le.env": utf16(`API_KEY=${secret}\r\n`, "le"),
    "be.env": utf16(`API_KEY=${secret}\r\n`, "be"),
  });
  const result = await buildContext({ cwd: root }, { write: false });
  assert.ok(!result.document.includes(secret));
  assert.equal(result.document.match(/\[REDACTED:[^\]]+\]/g)?.length, 2, result.document);
});

Deno.test("bytes behind a UTF-16 mark that are no UTF-16 text stay binary, with the reason", async () => {
  const reason = "binary file (not valid UTF-16 after its byte order mark)";
  const cases: Record<string, Uint8Array> = {
    // An odd number of bytes, a lone surrogate, a NUL character, UTF-32's mark.
    "odd.txt": new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x62]),
    "lone.txt": new Uint8Array([0xff, 0xfe, 0x00, 0xd8, 0x61, 0x00]),
    "nul.txt": new Uint8Array([0xfe, 0xff, 0x00, 0x61, 0x00, 0x00]),
    "utf32.txt": new Uint8Array([0xff, 0xfe, 0x00, 0x00, 0x61, 0x00, 0x00, 0x00]),
  };
  const root = await makeProject(cases);
  const result = await buildContext({ cwd: root }, { write: false });
  for (const path of Object.keys(cases)) {
    const row = result.manifest.files.find((f) => f.path === path)!;
    assert.deepEqual([row.status, row.reason], ["skipped", reason], path);
  }
  // UTF-8 decoding is as before: a mark dropped; invalid bytes full of controls binary.
  assert.deepEqual(await decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), { text: "a" });
  assert.deepEqual(await decodeText(new Uint8Array([0xe9, 1])), {
    binary: "binary file (not valid UTF-8)",
  });
});

Deno.test("UTF-16 text without a byte order mark (working-tree-encoding=UTF-16LE) is read as text; binaries with NULs stay binary", async () => {
  const texts = {
    "crlf.ps1": "Write-Host 'hi'\r\n$x = 1\r\n",
    "accents.txt": "Gr\u00f6\u00dfe: caf\u00e9, na\u00efve\n",
    "some_cjk.py": "# \u4e2d\u6587 comment\nclass A:\n    def b(self):\n        return 1\n",
    "one.txt": "x",
    // Characters whose low byte is 0 (U+4E00, U+0100): a NUL on the other side of the unit.
    "low_nul.py": "# \u4e00 \u6e00 \u0100 \u0200 in a comment\nclass A:\n    pass\n",
  };
  const tree: Record<string, Uint8Array> = {};
  for (const [path, text] of Object.entries(texts)) {
    tree[`le_${path}`] = utf16(text, "le").slice(2);
    tree[`be_${path}`] = utf16(text, "be").slice(2);
  }
  const binaries: Record<string, Uint8Array> = {
    // UTF-32 (NULs on both sides), 16-bit numbers (control characters), an odd length, mostly
    // CJK (too few NULs to tell), a lone surrogate, a NUL in a binary header.
    "utf32.txt": new Uint8Array([0x61, 0, 0, 0, 0x62, 0, 0, 0]),
    "samples.raw": new Uint8Array([1, 0, 2, 0, 3, 0, 0x41, 0, 5, 0, 6, 0]),
    "odd.txt": new Uint8Array([0x61, 0, 0x62, 0, 0x63]),
    "cjk.txt": utf16("\u4e2d\u6587\u4e2d\u6587\u4e2d\u6587a", "le").slice(2),
    "lone.txt": new Uint8Array([0x61, 0, 0x00, 0xd8, 0x62, 0]),
    "header.bin": new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]),
    // A U+0000 unit among a hundred letters: a NUL in the text.
    "nul_unit.txt": utf16(`${"ab".repeat(60)}\0${"cd".repeat(60)}`, "le").slice(2),
  };
  const root = await makeProject({ ...tree, ...binaries });
  for (const defaultView of ["full", "skeleton"] as const) {
    const result = await buildContext({ cwd: root, inline: { defaultView } }, { write: false });
    const row = (path: string) => result.manifest.files.find((f) => f.path === path)!;
    for (const [path, bytes] of Object.entries(tree)) {
      assert.equal(row(path).status, "rendered", `${path}: ${row(path).reason}`);
      assert.equal(row(path).sha256, sha256(bytes), path);
    }
    for (const path of Object.keys(binaries)) {
      assert.deepEqual([row(path).status, row(path).reason], ["skipped", "binary file"], path);
    }
    assert.ok(!/[\0\r]/.test(result.document), defaultView);
    if (defaultView === "full") {
      assert.equal(result.document.split("Gr\u00f6\u00dfe: caf\u00e9, na\u00efve\n").length, 3);
      assert.equal(result.document.split("Write-Host 'hi'\n$x = 1\n").length, 3);
    } else {
      assert.equal(result.document.split("    def b(self):").length, 3, result.document);
    }
  }
  assert.deepEqual(await decodeText(utf16("a\nb", "be").slice(2)), { text: "a\nb" });
});
