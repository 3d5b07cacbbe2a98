import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { sha256 } from "../../pipeline/read.ts";
import { makeProject, REPO, tempDir, type Tree, V8_FLAGS } from "../_helpers.ts";
import { structure } from "./_well_formed.ts";

const DEPTH = 100_000;

function utf16(text: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const out: number[] = bom ? (littleEndian ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out.push(...(littleEndian ? [code & 255, code >> 8] : [code >> 8, code & 255]));
  }
  return new Uint8Array(out);
}

/** Odd names, fence-breaking contents, encodings, deep nesting, lockfiles, a tough .gitignore. */
function hostileTree(): Tree {
  const fency =
    "# top\n## Files\n### fake.ts\n```\n````ts\n~~~\n   ```\n`````````\n~~~ts\n### also\n";
  const tree: Tree = {
    "new\nline.ts": "export const a = 1;\n",
    "tab\tx.py": "x = 1\n",
    "back\\slash.md": "# b\n",
    "-dash.ts": "export {};\n",
    "#hash.md": "# h\n",
    "back`tick.md": "```\n",
    "br]acket.md": "x\n",
    "## Files.md": "## Files\n",
    "caf\u00e9.txt": "nfc\n",
    "cafe\u0301.txt": "nfd\n",
    [`${"n".repeat(252)}.ts`]: "export const long = 1;\n",
    [Array.from({ length: 200 }, (_, i) => `d${i % 10}`).join("/") + "/deep.ts"]: "export {};\n",
    "enc/invalid.txt": new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0x0a]),
    "enc/u16le_bom.ts": utf16("export const a = 1;\n", true, true),
    "enc/u16be.ts": utf16("export const a = 1;\n", false, false),
    "enc/nul.ts": "export const a = 1;\0\n",
    "enc/cr.md": "# a\r```\r## Files\r",
    "deep/brackets.ts": `export const x = ${"[".repeat(DEPTH)}${"]".repeat(DEPTH)};\n`,
    "deep/parens.ts": `export const y = ${"(".repeat(DEPTH)}1${")".repeat(DEPTH)};\n`,
    "deep/unclosed.ts": `export function f() ${"{".repeat(DEPTH)}\n`,
    "deep/nest.py": `x = ${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}\n`,
    "deep/nest.json": `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}\n`,
    "deep/obj.json": `${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}\n`,
    "package-lock.json": '{"lockfileVersion":3}\n',
    "dist/bundle.min.js": "var a=1;".repeat(20000) + "\n",
    ".gitignore": `${"**/".repeat(20)}*.tmp\n!keep.tmp\n*.[\ntrail.log   \r\n`,
    "x/y/z.tmp": "ignored\n",
    "keep.tmp": "kept\n",
    "trail.log": "ignored\n",
  };
  for (const ext of ["md", "ts", "py", "txt", "json", "rs"]) tree[`fence/f.${ext}`] = fency;
  return tree;
}

/** A FIFO, a socket, symlinks to a FIFO, /dev/zero, outside the root, loops. */
async function addSpecialFiles(root: string): Promise<void> {
  await Deno.mkdir(join(root, "special"));
  new Deno.Command("mkfifo", { args: [join(root, "special/fifo.ts")] }).outputSync();
  Deno.listen({ transport: "unix", path: join(root, "special/sock.ts") }).close();
  await Deno.symlink("fifo.ts", join(root, "special/to_fifo.ts"));
  await Deno.symlink("/dev/zero", join(root, "special/zero.ts"));
  await Deno.symlink("/etc/hostname", join(root, "special/outside.txt"));
  await Deno.symlink("..", join(root, "special/parent"));
  await Deno.symlink("loop2", join(root, "special/loop1"));
  await Deno.symlink("loop1", join(root, "special/loop2"));
}

/** Check the document as a reader and as the manifest see it. */
function assertWellFormed(
  result: Awaited<ReturnType<typeof buildContext>>,
  label: string,
): void {
  const { manifest, document } = result;
  const bytes = new TextEncoder().encode(document);
  assert.equal(manifest.total.bytes, bytes.length, `${label}: total bytes`);
  assert.equal(manifest.total.sha256, sha256(bytes), `${label}: total hash`);
  let offset = 0;
  for (const block of manifest.blocks) {
    assert.equal(block.offset, offset, `${label}: ${block.id} starts where the last ended`);
    offset += block.length;
  }
  assert.equal(offset, bytes.length, `${label}: the blocks tile the document`);
  const paths = manifest.files.map((f) => f.path);
  assert.equal(new Set(paths).size, paths.length, `${label}: each file listed once`);
  const rendered = manifest.files.filter((f) => f.status !== "skipped").length;
  const { headings, open } = structure(document);
  assert.ok(!open, `${label}: no fence is left open`);
  assert.deepEqual(headings.filter((h) => !h.startsWith("### ")), ["## Files"], label);
  assert.equal(headings.length - 1, rendered, `${label}: one heading per file block`);
}

Deno.test("a generated hostile tree builds in every view: well-formed, complete, the same bytes twice", async () => {
  const root = await makeProject(hostileTree());
  await addSpecialFiles(root);
  let full = "";
  for (const defaultView of ["full", "skeleton", "outline"]) {
    // A state folder of its own: each build takes its order from sizes, none from the last build.
    const stateDir = await tempDir();
    const result = await buildContext({ cwd: root, stateDir, inline: { defaultView } }, {
      write: false,
    });
    assertWellFormed(result, defaultView);
    if (defaultView === "full") full = result.manifest.total.sha256;
    const row = (path: string) => result.manifest.files.find((f) => f.path === path);
    assert.equal(row("x/y/z.tmp"), undefined, "the .gitignore still applies");
    assert.equal(row("keep.tmp")?.status, "rendered");
    assert.equal(row("special/fifo.ts")?.status, "skipped");
    if (defaultView === "skeleton" || defaultView === "outline") {
      // Too deep for the parser: the view falls back, with a note naming the file.
      for (const path of ["deep/brackets.ts", "deep/parens.ts"]) {
        assert.equal(row(path)?.view, "summary", `${defaultView} ${path}`);
        assert.match(row(path)?.notes?.join(" ") ?? "", new RegExp(`"${path}"`));
      }
    }
  }
  // Another process, time zone and locale give the same bytes.
  const code = `import { buildContext } from ${JSON.stringify(join(REPO, "mod.ts"))};
const r = await buildContext({
  cwd: ${JSON.stringify(root)},
  stateDir: ${JSON.stringify(await tempDir())},
  inline: { defaultView: "full" },
}, { write: false });
console.log(r.manifest.total.sha256);`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    env: { TZ: "Pacific/Chatham", LC_ALL: "tr_TR.UTF-8" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  assert.equal(new TextDecoder().decode(out.stdout).trim(), full);
});
