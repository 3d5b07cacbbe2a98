import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { makeProject, runCli, type Tree } from "../_helpers.ts";

const TREE: Tree = {
  "zeta/z.py": "def z():\n    return 26\n",
  "alpha/a.ts": "export const a = 1;\n",
  "Beta/b.md": "# B\n",
  "beta/c.txt": "lower-case folder\n",
  "ümlaut/ö.txt": "non-ASCII name\n",
  "with space.md": "a name with a space\n",
  "crlf.txt": "line one\r\nline two\r\n",
  "bom.txt": "\uFEFFstarts with a BOM\n",
  "chat.jsonl": '{"role":"User","content":"first"}\n',
  "slop.config.ts": `export default { history: "chat.jsonl" };\n`,
};

Deno.test("build() gives identical bytes whatever order files were created in", async () => {
  const forward = await makeProject(TREE);
  const entries = Object.entries(TREE).reverse();
  const backward = await makeProject(Object.fromEntries(entries));
  // Touch files in another order so directory listings and mtimes differ.
  for (const [path] of entries) await Deno.utime(join(backward, path), 1, 1);
  const a = await buildContext({ cwd: forward }, { write: false });
  const b = await buildContext({ cwd: backward }, { write: false });
  assert.equal(a.document, b.document);
  assert.deepEqual(a.manifest, b.manifest);
  assert.match(a.document, /### crlf.txt\n\n```txt\nline one\nline two\n```/, "CRLF becomes LF");
  assert.match(a.document, /### bom.txt\n\n```txt\nstarts with a BOM\n```/, "the BOM is dropped");
});

Deno.test("slop build gives identical bytes under different TZ and locale", async () => {
  const root = await makeProject(TREE);
  const a = await runCli(["build", "--stdout", "-q"], root, {
    TZ: "Pacific/Kiritimati",
    LANG: "tr_TR.UTF-8",
  });
  const b = await runCli(["build", "--stdout", "-q"], root, { TZ: "America/Adak", LANG: "C" });
  assert.equal(a.code, 0);
  assert.equal(a.stdout, b.stdout);
  assert.ok(a.stdout.length > 100);
});

Deno.test("changing only the history changes only bytes after the stable prefix", async () => {
  const root = await makeProject(TREE);
  const before = await buildContext({ cwd: root }, { write: false });
  await Deno.writeTextFile(
    join(root, "chat.jsonl"),
    '{"role":"User","content":"first"}\n{"role":"AI","content":"second"}\n',
  );
  const after = await buildContext({ cwd: root }, { write: false });
  assert.equal(after.manifest.prefix.sha256, before.manifest.prefix.sha256);
  assert.equal(after.manifest.prefix.bytes, before.manifest.prefix.bytes);
  const enc = new TextEncoder();
  const n = before.manifest.prefix.bytes;
  assert.deepEqual(
    enc.encode(after.document).subarray(0, n),
    enc.encode(before.document).subarray(0, n),
  );
  assert.notEqual(after.document, before.document);
  assert.match(after.document, /### Discussion Excerpt 2\n\nAI: second\n\n$/);
});
