import assert from "node:assert/strict";
import { join } from "node:path";
import { runBuild } from "../../cli/build.ts";
import type { Terminal } from "../../cli/_terminal.ts";
import { makeProject } from "../_helpers.ts";

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
    "slop.config.ts": 'export default { files: ["src/**"] };\n',
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
