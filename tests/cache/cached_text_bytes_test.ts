import assert from "node:assert/strict";
import { cachedTextBytes, noteOutput, noteRendered } from "../../pipeline/content_keys.ts";
import type { RenderedFile, ViewOutput } from "../../pipeline/types.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A view entry's payload as the view cache stores it, and the output decoded from it. */
function cached(text: string): { output: ViewOutput; payload: Uint8Array } {
  const payload = encoder.encode(`{"plugins":[]}\n${text}`);
  const newline = payload.indexOf(10);
  return { output: { text: decoder.decode(payload.subarray(newline + 1)) }, payload };
}

function fileOf(output: ViewOutput): RenderedFile {
  return { path: "a.py", text: output.text } as RenderedFile;
}

Deno.test("cachedTextBytes() gives a cached text's UTF-8 length from the bytes it was decoded from", () => {
  const text = "héllo 🙂 wörld\n".repeat(40) + "\ud800 lone surrogate\n";
  const { output, payload } = cached(text);
  noteOutput(output, payload);
  const file = fileOf(output);
  noteRendered(file, output);
  assert.equal(cachedTextBytes(file, output.text), encoder.encode(output.text).length);
});

Deno.test("cachedTextBytes() knows nothing of other texts, replaced texts or texts after a byte order mark", () => {
  const { output, payload } = cached("x".repeat(300));
  noteOutput(output, payload);
  const file = fileOf(output);
  noteRendered(file, output);
  assert.equal(cachedTextBytes(file, "y".repeat(300)), undefined);
  file.text = "z".repeat(300);
  assert.equal(cachedTextBytes(file, file.text), undefined);

  const bom = cached("\ufeffafter a byte order mark\n");
  noteOutput(bom.output, bom.payload);
  const marked = fileOf(bom.output);
  noteRendered(marked, bom.output);
  assert.equal(cachedTextBytes(marked, bom.output.text), undefined);

  const never = fileOf({ text: "not from the cache" });
  assert.equal(cachedTextBytes(never, "not from the cache"), undefined);
});
