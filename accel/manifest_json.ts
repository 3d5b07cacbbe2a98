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
 * `JSON.stringify(manifest, null, 2)`, the JSON of each frozen entry of its files and blocks taken
 * from `fromRecord` (made once an entry object).
 *
 * @example
 * ```ts
 * import { keptManifestJson } from "./manifest_json.ts";
 * import { recordMemo } from "./derived_memo.ts";
 * const manifest = { version: 1, files: [Object.freeze({ path: "a.py" })], blocks: [] };
 * // keptManifestJson(manifest, recordMemo()) === JSON.stringify(manifest, null, 2)
 * ```
 */
export function keptManifestJson(manifest: Manifest, fromRecord: RecordFn): string {
  const { files, blocks } = manifest;
  // The rest in one pass: the two lists keep their places, with no entries.
  let json = JSON.stringify({ ...manifest, files: [], blocks: [] }, null, 2);
  for (const [key, entries] of [["files", files], ["blocks", blocks]] as const) {
    // A top-level key is the only line that starts with two spaces and a quote (a string's
    // newline is escaped): the first such line of the key is the manifest's own.
    const none = `\n  "${key}": []`;
    const at = json.indexOf(none);
    if (at < 0) return JSON.stringify(manifest, null, 2);
    if (!entries.length) continue;
    const texts = new Array<string>(entries.length);
    for (let i = 0; i < entries.length; i++) texts[i] = entryJson(entries[i], fromRecord);
    json = `${json.slice(0, at)}\n  "${key}": [\n${texts.join(",\n")}\n  ]${
      json.slice(at + none.length)
    }`;
  }
  return json;
}

/**
 * An entry's JSON as it stands in the manifest's (four spaces in): kept for a frozen entry
 * without notes (an array, which its render or block shares and could change), else made now.
 */
function entryJson(entry: ManifestFile | ManifestBlock, fromRecord: RecordFn): string {
  const make = () => {
    countWork("manifest entries", 1);
    return `    ${JSON.stringify(entry, null, 2).replaceAll("\n", "\n    ")}`;
  };
  return Object.isFrozen(entry) && entry.notes === undefined
    ? fromRecord(entry, "manifest json", make)
    : make();
}
