// Assertions the leak hunts' tests share: a value redacted and nothing else, or a text kept whole.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";

/**
 * Asserts that `text` (of the file `path`) comes back with `value`, and only it, redacted: what
 * comes before its first place and after its last is kept, and no copy of it is left.
 */
export async function redactsValue(
  text: string,
  value: string,
  path = "notes.txt",
): Promise<void> {
  const out = (await redactText(text, path)).text;
  const at = text.indexOf(value);
  assert.ok(at >= 0, value);
  const head = text.slice(0, at) + "[REDACTED:";
  const tail = text.slice(text.lastIndexOf(value) + value.length);
  assert.ok(
    out.startsWith(head) && out.endsWith(tail) && !out.includes(value),
    `${text}\n-> ${out}`,
  );
}

/** Asserts that the scan finds nothing in `text` (of the file `path`): no finding, no redaction. */
export async function keeps(path: string, text: string): Promise<void> {
  const result = await redactText(text, path);
  assert.deepEqual(result.findings, [], `${path}: ${result.text}`);
}

/** Asserts that `text` (of the file `path`) comes back as it is. */
export async function kept(text: string, path = "notes.txt"): Promise<void> {
  assert.equal((await redactText(text, path)).text, text);
}

/**
 * The cases (file, text, the value planted in it) whose value comes back from the scan, or that
 * come back with nothing redacted, each as `file: the text as it came back`.
 */
export async function leaksOf(
  cases: Iterable<[path: string, text: string, value: string]>,
): Promise<{ tried: number; leaks: string[] }> {
  const leaks: string[] = [];
  let tried = 0;
  for (const [path, text, value] of cases) {
    const out = (await redactText(text, path)).text;
    tried++;
    if (out.includes(value) || !out.includes("[REDACTED:")) leaks.push(`${path}: ${out.trim()}`);
  }
  return { tried, leaks };
}
