/**
 * JSON written in pieces: the bytes of `JSON.stringify(value, null, 2) + "\n"`
 * without the whole text in memory at once. A big tree's manifest grows with
 * its files; made whole, it was a string of that size, its joined copy and its
 * UTF-8 bytes, at the build's end, where the build holds the most
 * (bench/README.md, "Compact per-file state").
 *
 * @module
 */

import { writeAtomicPiecesSync } from "./helpers.ts";

const INDENT = "  ";

/**
 * The pieces of `JSON.stringify(value, null, 2)`, in order: a plain object's
 * or array's members one by one down to `depth` levels (a manifest's
 * `files` and `blocks` entries), each member below that stringified whole.
 * Joined, they are the same characters.
 */
function* jsonPieces(value: unknown, depth = 2, level = 0): Generator<string> {
  const pad = INDENT.repeat(level);
  if (depth === 0 || !expandable(value)) {
    yield memberText(value, level);
    return;
  }
  const array = Array.isArray(value);
  // An array's members by index, an object's by its entries: no pair made for each of a
  // manifest's files and blocks.
  const entries = array
    ? undefined
    : Object.entries(value).filter(([, item]) => serializable(item));
  const count = entries ? entries.length : (value as unknown[]).length;
  if (!count) {
    yield array ? "[]" : "{}";
    return;
  }
  yield array ? "[" : "{";
  for (let i = 0; i < count; i++) {
    const key = entries ? entries[i][0] : undefined;
    const member = entries ? entries[i][1] : (value as unknown[])[i];
    const item = entries || serializable(member) ? member : null;
    const head = `${i ? "," : ""}\n${pad}${INDENT}${
      key === undefined ? "" : `${JSON.stringify(key)}: `
    }`;
    // A member stringified whole goes in one piece with its key (a manifest's files and blocks:
    // no generator and no separate piece each).
    if (depth === 1 || !expandable(item)) yield head + memberText(item, level + 1);
    else {
      yield head;
      yield* jsonPieces(item, depth - 1, level + 1);
    }
  }
  yield `\n${pad}${array ? "]" : "}"}`;
}

/**
 * A member stringified alone: its lines indented as deep as it sits. It is stringified inside
 * `level` arrays of one item, which indent it that deep, and cut out of them: one text made, not
 * a second made by indenting the first (a manifest's every file and block entry).
 */
function memberText(value: unknown, level: number): string {
  if (!level) return JSON.stringify(value, null, 2);
  let wrapped: unknown = value;
  for (let i = 0; i < level; i++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  // Each wrapper opens with "[", a line feed and its indent, and closes the same way.
  let head = 0, tail = 0;
  for (let i = 1; i <= level; i++) {
    head += 2 + INDENT.length * i;
    tail += 2 + INDENT.length * (i - 1);
  }
  return text.slice(head, text.length - tail);
}

/** A plain object or array, whose members `JSON.stringify` lays out one a line. */
function expandable(value: unknown): value is Record<string, unknown> | unknown[] {
  if (value === null || typeof value !== "object") return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  const proto = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

/** Whether `JSON.stringify` writes a member (it leaves out undefined, functions and symbols). */
function serializable(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

/**
 * Write `JSON.stringify(value, null, 2) + "\n"` to `path` atomically (a temp file and a
 * rename), piece by piece ({@linkcode jsonPieces}): never one string.
 *
 * @example
 * ```ts
 * import { writeJsonAtomicSync } from "./_json_stream.ts";
 * const path = (await Deno.makeTempDir()) + "/m.json";
 * writeJsonAtomicSync(path, { version: 1 });
 * Deno.readTextFileSync(path); // '{\n  "version": 1\n}\n'
 * ```
 */
export function writeJsonAtomicSync(path: string, value: unknown): void {
  writeAtomicPiecesSync(path, withNewline(jsonPieces(value)));
}

function* withNewline(pieces: Iterable<string>): Generator<string> {
  yield* pieces;
  yield "\n";
}
