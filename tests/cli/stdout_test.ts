import assert from "node:assert/strict";
import type { Manifest } from "../../mod.ts";
import { makeProject, runCliShared } from "../_helpers.ts";
import { join } from "node:path";
import { runBuild } from "../../cli/build.ts";
import type { Terminal } from "../../cli/_terminal.ts";

const PROJECT = {
  "src/a.ts": "export const a = 1;\n",
  "README.md": "# Demo\n\nText.\n",
  "slop.config.ts": `export default { history: [{ role: "User", content: "hi" }] };\n`,
};

Deno.test("slop build --stdout --json prints one JSON value: { manifest, document }", async () => {
  const root = await makeProject(PROJECT);
  const both = await runCliShared(["build", "--stdout", "--json"], root);
  assert.equal(both.code, 0, both.stderr);
  const value = JSON.parse(both.stdout);
  assert.deepEqual(Object.keys(value), ["manifest", "document"]);
  const { manifest, document }: { manifest: Manifest; document: string } = value;
  // The document is the one --stdout alone prints, byte for byte.
  const plain = await runCliShared(["build", "--stdout"], root);
  assert.equal(document, plain.stdout);
  assert.equal(manifest.total.bytes, new TextEncoder().encode(document).length);
  assert.equal(manifest.output, undefined, "nothing was written");
  // The summary goes to stderr, never into the JSON.
  assert.match(both.stderr, /tokens/);
  for (const format of ["xml", "json"]) {
    const run = await runCliShared(["build", "--stdout", "--json", "--format", format], root);
    const parsed = JSON.parse(run.stdout);
    assert.equal(parsed.manifest.total.bytes, new TextEncoder().encode(parsed.document).length);
  }
});

Deno.test("slop build --json alone writes the document and prints only the manifest", async () => {
  const root = await makeProject(PROJECT);
  const run = await runCliShared(["build", "--json"], root);
  assert.equal(run.code, 0, run.stderr);
  const manifest: Manifest = JSON.parse(run.stdout);
  assert.equal(typeof manifest.output, "string");
  assert.equal(manifest.version, 1);
});

/**
 * `--stdout` and `--stdout --json` write the document a piece at a time, never joined whole:
 * on a big tree the joined document (and its encoding) was two more copies of every file. What
 * is counted is the largest write the terminal is given, never time.
 */
function recordingTerminal(): Terminal & { writes: Uint8Array[] } {
  const writes: Uint8Array[] = [];
  return {
    writes,
    // A chunk is a view of a buffer reused for the next: copied here, as a writer consumes it.
    stdout: (data) => {
      writes.push(typeof data === "string" ? new TextEncoder().encode(data) : data.slice());
      return Promise.resolve();
    },
    stderr: (text) => void Deno.stderr.writeSync(new TextEncoder().encode(text)),
    stderrIsTerminal: false,
  };
}

function joined(writes: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(writes.reduce((n, w) => n + w.length, 0));
  let at = 0;
  for (const w of writes) out.set(w, (at += w.length) - w.length);
  return out;
}

/** Files whose texts need every kind of JSON escape, two-byte and four-byte UTF-8 among them. */
function tree(): Record<string, string> {
  const line = 'é "quoted" \\back\\slash\ttab \u0001 😀 ```fence``` ' + "x".repeat(40) + "\n";
  const files: Record<string, string> = {
    // `src/*.txt` names the plain text files, over 32 KB: shown whole, not summarized as data.
    "slop.config.ts": 'export default { files: ["src/**", "src/*.txt"] };\n',
  };
  for (let i = 0; i < 12; i++) files[`src/f${i}.txt`] = `${i}\n` + line.repeat(3000);
  return files;
}

Deno.test("--stdout and --stdout --json write the document in pieces, never joined whole", async () => {
  const root = await makeProject(tree());
  const flags = { config: join(root, "slop.config.ts"), quiet: true };
  const written = await runBuild([], { ...flags, json: true }, { terminal: recordingTerminal() });
  assert.equal(written, 0);
  const [name] = [...Deno.readDirSync(join(root, ".slop", "out"))]
    .map((e) => e.name).filter((n) => n.endsWith(".md"));
  const document = await Deno.readFile(join(root, ".slop", "out", name));
  assert.ok(document.length > 3_000_000, `a document of ${document.length} bytes`);

  const plain = recordingTerminal();
  assert.equal(await runBuild([], { ...flags, stdout: true }, { terminal: plain }), 0);
  assert.deepEqual(joined(plain.writes), document, "--stdout prints the document written");
  const largest = Math.max(...plain.writes.map((w) => w.length));
  assert.ok(largest <= 1 << 20, `--stdout wrote ${largest} bytes at once`);

  const both = recordingTerminal();
  assert.equal(await runBuild([], { ...flags, stdout: true, json: true }, { terminal: both }), 0);
  const text = new TextDecoder().decode(joined(both.writes));
  const { manifest } = JSON.parse(text);
  const expected = { manifest, document: new TextDecoder().decode(document) };
  assert.equal(text, JSON.stringify(expected, null, 2) + "\n", "the JSON is JSON.stringify's");
  const largestJson = Math.max(...both.writes.map((w) => w.length));
  assert.ok(largestJson <= 3 << 20, `--stdout --json wrote ${largestJson} bytes at once`);
  await Deno.remove(root, { recursive: true });
});
