import assert from "node:assert/strict";
import type { Manifest } from "../../mod.ts";
import { makeProject, runCli } from "../_helpers.ts";

const PROJECT = {
  "src/a.ts": "export const a = 1;\n",
  "README.md": "# Demo\n\nText.\n",
  "slop.config.ts": `export default { history: [{ role: "User", content: "hi" }] };\n`,
};

Deno.test("slop build --stdout --json prints one JSON value: { manifest, document }", async () => {
  const root = await makeProject(PROJECT);
  const both = await runCli(["build", "--stdout", "--json"], root);
  assert.equal(both.code, 0, both.stderr);
  const value = JSON.parse(both.stdout);
  assert.deepEqual(Object.keys(value), ["manifest", "document"]);
  const { manifest, document }: { manifest: Manifest; document: string } = value;
  // The document is the one --stdout alone prints, byte for byte.
  const plain = await runCli(["build", "--stdout"], root);
  assert.equal(document, plain.stdout);
  assert.equal(manifest.total.bytes, new TextEncoder().encode(document).length);
  assert.equal(manifest.output, undefined, "nothing was written");
  // The summary goes to stderr, never into the JSON.
  assert.match(both.stderr, /tokens/);
  for (const format of ["xml", "json"]) {
    const run = await runCli(["build", "--stdout", "--json", "--format", format], root);
    const parsed = JSON.parse(run.stdout);
    assert.equal(parsed.manifest.total.bytes, new TextEncoder().encode(parsed.document).length);
  }
});

Deno.test("slop build --json alone writes the document and prints only the manifest", async () => {
  const root = await makeProject(PROJECT);
  const run = await runCli(["build", "--json"], root);
  assert.equal(run.code, 0, run.stderr);
  const manifest: Manifest = JSON.parse(run.stdout);
  assert.equal(typeof manifest.output, "string");
  assert.equal(manifest.version, 1);
});
