/**
 * A resident build's manifest JSON, as `JSON.stringify(manifest, null, 2)` gives it, with the JSON
 * of each file entry made once: a kept render's entry is the same frozen object from build to
 * build (`buildManifest()` makes it through the build's `fromRecord`), so its JSON is the one the
 * resident's memo of records holds, and a one-file edit serializes the edited file's entry and the
 * rest of the manifest (its blocks, whose offsets move) alone.
 *
 * @module
 */

import type { Manifest, ManifestFile, RecordFn } from "../pipeline/types.ts";
import { countWork } from "../pipeline/helpers.ts";

/** The `files` key of a manifest serialized with no entries (`[]`): a top-level key's line. */
const NO_FILES = '\n  "files": []';

/**
 * `JSON.stringify(manifest, null, 2)`, each frozen file entry's JSON taken from `fromRecord` (made
 * once an entry object).
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
  const { files } = manifest;
  // The rest in one pass: the files' key keeps its place, with no entries.
  const json = JSON.stringify({ ...manifest, files: [] }, null, 2);
  // A top-level key is the only line that starts with two spaces and a quote (a string's newline
  // is escaped): the first such `"files"` line is the manifest's own.
  const at = json.indexOf(NO_FILES);
  if (!files.length || at < 0) return files.length ? JSON.stringify(manifest, null, 2) : json;
  const entries = new Array<string>(files.length);
  for (let i = 0; i < files.length; i++) entries[i] = entryJson(files[i], fromRecord);
  return `${json.slice(0, at)}\n  "files": [\n${entries.join(",\n")}\n  ]${
    json.slice(at + NO_FILES.length)
  }`;
}

/**
 * A file entry's JSON as it stands in the manifest's (four spaces in): kept for a frozen entry
 * without notes (an array, which its render shares and could change), else made now.
 */
function entryJson(entry: ManifestFile, fromRecord: RecordFn): string {
  const make = () => {
    countWork("manifest entries", 1);
    return `    ${JSON.stringify(entry, null, 2).replaceAll("\n", "\n    ")}`;
  };
  return Object.isFrozen(entry) && entry.notes === undefined
    ? fromRecord(entry, "manifest json", make)
    : make();
}
