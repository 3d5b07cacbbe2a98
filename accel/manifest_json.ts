/**
 * A manifest's JSON (`JSON.stringify(manifest, null, 2)`, byte for byte) made from the pieces a
 * resident kept of the last one: each file's entry and each block's entry as the JSON it was,
 * used again while the entry has the same fields and values, a block's with its new offset put
 * in (the offsets after an edited block shift, nothing else of theirs changes). A one-file edit
 * of a big tree then serializes that file's entries, not tens of MB of JSON.
 *
 * The layout is `JSON.stringify`'s with an indent of two spaces: the `files` and `blocks`
 * arrays are members of the top object, each entry an object on lines of their own indented by
 * four spaces; no string in JSON holds a raw line break, so an entry's JSON at the top level
 * indents to its place by a line break made a line break and four spaces, and its `offset` is the
 * one member on a line that starts with two spaces and `"offset": `.
 *
 * @module
 */

import type { Manifest, ManifestBlock, ManifestFile } from "../pipeline/types.ts";
import { countWork } from "../pipeline/helpers.ts";

/** One entry's JSON as it was last made, with the entry it was made from and its keys in order. */
interface Piece {
  entry: Record<string, unknown>;
  keys: string[];
  /** The JSON up to the offset's value (all of it for an entry without one). */
  head: string;
  /** The JSON after the offset's value (`undefined`: the entry has no offset). */
  tail?: string;
  /** The last build that used it. */
  used: number;
}

/** The pieces a resident keeps of the last manifest's JSON, by file path and by block id. */
export interface ManifestPieces {
  files: Map<string, Piece>;
  blocks: Map<string, Piece>;
  builds: number;
}

/**
 * An empty store of pieces, for a resident.
 *
 * @example
 * ```ts
 * import { manifestPieces } from "./manifest_json.ts";
 * manifestPieces().files.size; // 0
 * ```
 */
export function manifestPieces(): ManifestPieces {
  return { files: new Map(), blocks: new Map(), builds: 0 };
}

/**
 * `JSON.stringify(manifest, null, 2)`, its files' and blocks' entries taken from `kept` where
 * they are the same as when they were kept, the others made and kept; pieces no entry of this
 * manifest used are let go.
 *
 * @example
 * ```ts
 * import { manifestJson, manifestPieces } from "./manifest_json.ts";
 * import type { Manifest } from "../pipeline/types.ts";
 * const manifest: Manifest = {
 *   version: 1,
 *   files: [],
 *   blocks: [{ id: "a", section: "a", stability: "stable", offset: 0, length: 2, sha256: "00", tokens: 1 }],
 *   prefix: { bytes: 2, sha256: "00", tokens: 1 },
 *   total: { bytes: 2, sha256: "00", tokens: 1 },
 *   warnings: [],
 * };
 * manifestJson(manifest, manifestPieces()) === JSON.stringify(manifest, null, 2); // true
 * ```
 */
export function manifestJson(manifest: Manifest, kept: ManifestPieces): string {
  const build = ++kept.builds;
  const rest = JSON.stringify({ ...manifest, files: [], blocks: [] }, null, 2);
  const files = listJson(manifest.files, (f) => f.path, kept.files, build);
  const blocks = listJson(manifest.blocks, (b) => b.id, kept.blocks, build);
  for (const map of [kept.files, kept.blocks]) {
    // `forEach`: no entry pair made for each of a big tree's pieces.
    map.forEach((piece, key) => piece.used < build && map.delete(key));
  }
  // The two arrays are members of the top object: their lines are indented by two spaces.
  return rest
    .replace('\n  "files": []', () => `\n  "files": ${files}`)
    .replace('\n  "blocks": []', () => `\n  "blocks": ${blocks}`);
}

/** An array of entries as a member of the top object, each entry's JSON its piece's. */
function listJson<T extends ManifestFile | ManifestBlock>(
  entries: readonly T[],
  keyOf: (entry: T) => string,
  pieces: Map<string, Piece>,
  build: number,
): string {
  if (!entries.length) return "[]";
  const out: string[] = new Array(entries.length);
  let made = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as unknown as Record<string, unknown>;
    const key = keyOf(entries[i]);
    let piece = pieces.get(key);
    if (!piece || !sameEntry(piece, entry)) {
      piece = pieceOf(entry);
      pieces.set(key, piece);
      made++;
    }
    piece.used = build;
    out[i] = piece.tail === undefined
      ? piece.head
      : piece.head + JSON.stringify(entry.offset) + piece.tail;
  }
  countWork("manifest entries serialized", made);
  return `[\n    ${out.join(",\n    ")}\n  ]`;
}

/**
 * Whether `entry` has the piece's keys in its order, and its values (the offset aside). An
 * object among them (a file's notes, its fallback) is not compared: it may have changed in place
 * since, and the entry is serialized again.
 */
function sameEntry(piece: Piece, entry: Record<string, unknown>): boolean {
  const { keys, entry: was } = piece;
  let i = 0;
  for (const key in entry) {
    if (key !== keys[i++]) return false;
    const value = entry[key];
    if (typeof value === "object" && value !== null) return false;
    if (key !== "offset" && value !== was[key]) return false;
  }
  return i === keys.length && (piece.tail !== undefined || entry.offset === was.offset);
}

const OFFSET = '\n  "offset": ';

/** An entry's JSON at its place in the manifest, cut around its offset's value. */
function pieceOf(entry: Record<string, unknown>): Piece {
  const json = JSON.stringify(entry, null, 2).replaceAll("\n", "\n    ");
  const keys: string[] = [];
  for (const key in entry) keys.push(key);
  const value = JSON.stringify(entry.offset);
  const at = typeof entry.offset === "number" ? json.indexOf(OFFSET.replace("\n", "\n    ")) : -1;
  const start = at + OFFSET.length + 4;
  if (at < 0 || !json.startsWith(value, start)) return { entry, keys, head: json, used: 0 };
  return {
    entry,
    keys,
    head: json.slice(0, start),
    tail: json.slice(start + value.length),
    used: 0,
  };
}
