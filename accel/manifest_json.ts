/**
 * A resident build's manifest JSON, as `JSON.stringify(manifest, null, 2)` gives it, with the JSON
 * of each entry made once: a kept render's entry, and a block's placed as before (the blocks
 * before an edited one), are the same frozen objects from build to build (`buildManifest()` makes
 * them through the build's `fromRecord`), so their JSON is the one the resident's memo of records
 * holds, and a one-file edit serializes the entries of the edited file, its block and the blocks
 * after it (their offsets moved) alone.
 *
 * @module
 */

import type { Manifest, ManifestBlock, ManifestFile, RecordFn } from "../pipeline/types.ts";
import { countWork } from "../pipeline/helpers.ts";

/**
 * The pieces of `JSON.stringify(manifest, null, 2)` (joined, its bytes), the JSON of each frozen
 * entry of its files and blocks taken from `fromRecord` (made once an entry object); the first
 * piece holds the version's line (`manifestJsonWithOutput()` of `pipeline/emit.ts` takes it).
 *
 * @example
 * ```ts
 * import { keptManifestJson } from "./manifest_json.ts";
 * import { recordMemo } from "./derived_memo.ts";
 * const manifest = { version: 1, files: [Object.freeze({ path: "a.py" })], blocks: [] };
 * // keptManifestJson(manifest, recordMemo()).join("") === JSON.stringify(manifest, null, 2)
 * ```
 */
export function keptManifestJson(manifest: Manifest, fromRecord: RecordFn): string[] {
  const { files, blocks } = manifest;
  // The rest in one pass: the two lists keep their places, with no entries.
  const rest = JSON.stringify({ ...manifest, files: [], blocks: [] }, null, 2);
  const pieces: string[] = [];
  let from = 0;
  for (const [key, entries] of [["files", files], ["blocks", blocks]] as const) {
    // A top-level key is the only line that starts with two spaces and a quote (a string's
    // newline is escaped): the first such line of the key is the manifest's own.
    const none = `\n  "${key}": []`;
    const at = rest.indexOf(none, from);
    if (at < 0) return [JSON.stringify(manifest, null, 2)];
    if (!entries.length) continue;
    pieces.push(`${rest.slice(from, at)}\n  "${key}": [\n`);
    const texts = entryTexts(entries, fromRecord);
    for (let i = 0; i < texts.length; i++) {
      if (i > 0) pieces.push(",\n");
      pieces.push(texts[i]);
    }
    pieces.push("\n  ]");
    from = at + none.length;
  }
  pieces.push(rest.slice(from));
  return pieces;
}

/**
 * Each entry's JSON as it stands in the manifest's (four spaces in): a frozen entry without notes
 * (an array, which its render or block shares and could change) keeps its JSON in `fromRecord`;
 * the others, and the kept ones not made yet, are serialized together in one pass.
 */
function entryTexts(
  entries: Array<ManifestFile | ManifestBlock>,
  fromRecord: RecordFn,
): string[] {
  const texts = new Array<string>(entries.length);
  const missing: number[] = [];
  const kept: Array<{ text?: string } | undefined> = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const holder = Object.isFrozen(entry) && entry.notes === undefined
      ? fromRecord(entry, "manifest json", () => ({ text: undefined as string | undefined }))
      : undefined;
    if (holder?.text !== undefined) {
      texts[i] = holder.text;
      continue;
    }
    missing.push(i);
    kept.push(holder);
  }
  const made = serialized(missing.map((i) => entries[i]));
  countWork("manifest entries", made.length);
  for (let k = 0; k < missing.length; k++) {
    texts[missing[k]] = made[k];
    if (kept[k]) kept[k]!.text = made[k];
  }
  return texts;
}

/**
 * Entries' JSON as they stand in the manifest's (four spaces in), by one `JSON.stringify` of
 * them all (one call a file is several times slower): the array's layout, two spaces further in,
 * cut before each entry's `{` line (a line of four spaces and a brace starts an entry only:
 * an entry's fields are further in, and a string's newline is escaped).
 */
function serialized(entries: Array<ManifestFile | ManifestBlock>): string[] {
  if (!entries.length) return [];
  const json = JSON.stringify(entries, null, 2);
  // `[\n` ... `\n]` around the entries, each two spaces in.
  const inner = `  ${json.slice(2, -2).replaceAll("\n", "\n  ")}`;
  const texts = inner.split(/,\n(?= {4}\{)/);
  // Never seen: each entry on its own, as a fallback.
  if (texts.length !== entries.length) return entries.map((e) => serialized([e])[0]);
  return texts;
}
