/**
 * A manifest's JSON (`JSON.stringify(manifest, null, 2)`) made from the last one a process made:
 * the entries of `files` and `blocks` the two manifests share at their starts and ends are taken
 * from the last JSON as two slices each, and only the entries between are serialized. A one-file
 * edit changes one file's entry, and the blocks from the edited one on (their offsets shift; the
 * block an edit moves to the end is the last one already from its second edit on): a big tree's
 * 23 MB of JSON made again at each build was a tenth of the build server's prepare.
 *
 * An entry is taken from the last JSON only when it is the same as the last one's field by field,
 * each value a string, number or boolean (an entry holding an array or object is serialized again:
 * an array kept between builds could have been changed in place since): the bytes are those of
 * `JSON.stringify`.
 *
 * @module
 */

import { countWork } from "../pipeline/helpers.ts";
import type { Manifest } from "../pipeline/types.ts";

/** A manifest's JSON and where each entry of its `files` and `blocks` starts, for the next one. */
export interface ManifestJson {
  /** `JSON.stringify(manifest, null, 2)`. */
  json: string;
  files: KeptPart;
  blocks: KeptPart;
}

/** One array of entries of a kept JSON: the entries, and where each one's text is. */
interface KeptPart {
  entries: object[];
  /** Where each entry's `{` is in the JSON. */
  starts: number[];
  /** Where each entry's text ends (after its `}`). */
  ends: number[];
}

/** Between two entries of `files` or `blocks` in the JSON. */
const SEPARATOR = ",\n    ";
/** Before the first entry, and after the last one. */
const OPEN = "[\n    ";
const CLOSE = "\n  ]";

/**
 * `manifest`'s JSON, `JSON.stringify(manifest, null, 2)`'s bytes, made from `last` (the JSON made
 * for an earlier manifest) where their entries are the same; with where its entries are, to make
 * the next one from.
 *
 * @example
 * ```ts
 * import { manifestJson } from "./manifest_json.ts";
 * const manifest = {
 *   version: 1 as const,
 *   files: [],
 *   blocks: [],
 *   prefix: { bytes: 0, sha256: "", tokens: 0 },
 *   total: { bytes: 0, sha256: "", tokens: 0 },
 *   warnings: [],
 * };
 * manifestJson(manifest).json === JSON.stringify(manifest, null, 2); // true
 * ```
 */
export function manifestJson(manifest: Manifest, last?: ManifestJson): ManifestJson {
  const { files, blocks } = manifest;
  // Any other shape (entries not objects, no entry at all) is serialized whole.
  if (!files.length || !blocks.length) return whole(manifest);
  const skeleton = JSON.stringify({ ...manifest, files: [], blocks: [] }, null, 2);
  const filesAt = skeleton.indexOf('\n  "files": []') + '\n  "files": '.length;
  const blocksAt = skeleton.indexOf('\n  "blocks": []', filesAt) + '\n  "blocks": '.length;
  if (filesAt < '\n  "files": '.length || blocksAt < filesAt) return whole(manifest);
  const filesPart = arrayPart(files, last?.json, last?.files);
  const blocksPart = arrayPart(blocks, last?.json, last?.blocks);
  const head = skeleton.slice(0, filesAt);
  const between = skeleton.slice(filesAt + 2, blocksAt);
  const json = head + filesPart.text + between + blocksPart.text + skeleton.slice(blocksAt + 2);
  const filesStart = head.length;
  const blocksStart = filesStart + filesPart.text.length + between.length;
  return {
    json,
    files: placed(filesPart, files, filesStart),
    blocks: placed(blocksPart, blocks, blocksStart),
  };
}

/** The JSON made whole, with its entries found in it. */
function whole(manifest: Manifest): ManifestJson {
  countWork("manifest entries serialized", manifest.files.length + manifest.blocks.length);
  const json = JSON.stringify(manifest, null, 2);
  const none = { entries: [], starts: [], ends: [] };
  return { json, files: none, blocks: none };
}

/** An array's text, and where its entries are in it (from its `[`). */
interface Part {
  text: string;
  starts: number[];
  ends: number[];
}

/**
 * The text of an array of entries (`[`, each entry, `]`, as `JSON.stringify(…, null, 2)` lays out
 * an array of objects one level down): the entries the last array had at its start and its end
 * (the same fields and values) are its text's slices, the others serialized.
 */
function arrayPart(entries: object[], json?: string, last?: KeptPart): Part {
  const old = last?.entries ?? [];
  const most = Math.min(entries.length, old.length);
  let head = 0;
  while (head < most && sameEntry(entries[head], old[head])) head++;
  let tail = 0;
  while (
    tail < most - head &&
    sameEntry(entries[entries.length - 1 - tail], old[old.length - 1 - tail])
  ) tail++;
  const pieces: string[] = [];
  if (head > 0) pieces.push(json!.slice(last!.starts[0], last!.ends[head - 1]));
  const middle = entries.slice(head, entries.length - tail);
  if (middle.length) {
    countWork("manifest entries serialized", middle.length);
    // One level down, as in the manifest: `{ "x": [ … ] }` lays its entries out the same way.
    const text = JSON.stringify({ x: middle }, null, 2);
    pieces.push(text.slice('{\n  "x": '.length + OPEN.length, text.length - `${CLOSE}\n}`.length));
  }
  if (tail > 0) {
    pieces.push(json!.slice(last!.starts[old.length - tail], last!.ends[old.length - 1]));
  }
  const text = OPEN + pieces.join(SEPARATOR) + CLOSE;
  return { text, ...entryPlaces(text, { head, tail, last, middle: middle.length }) };
}

/**
 * Where each entry is in an array's text: the head's places as they were (shifted to this text),
 * the middle's found by their separators, the tail's shifted.
 */
function entryPlaces(
  text: string,
  at: { head: number; tail: number; middle: number; last?: KeptPart },
): { starts: number[]; ends: number[] } {
  const { head, tail, middle, last } = at;
  const starts: number[] = [];
  const ends: number[] = [];
  if (head > 0) {
    const shift = OPEN.length - last!.starts[0];
    for (let i = 0; i < head; i++) {
      starts.push(last!.starts[i] + shift);
      ends.push(last!.ends[i] + shift);
    }
  }
  let from = head > 0 ? ends[head - 1] + SEPARATOR.length : OPEN.length;
  for (let i = 0; i < middle; i++) {
    starts.push(from);
    // The next entry's `{` follows the only separator at this level: a line break and four
    // spaces before `{` (an entry's own lines are indented further; a string holds no line break).
    const next = text.indexOf(`}${SEPARATOR}{`, from);
    const end = i < middle - 1 || tail > 0 ? next + 1 : text.length - CLOSE.length;
    ends.push(end);
    from = end + SEPARATOR.length;
  }
  if (tail > 0) {
    const n = last!.starts.length;
    const shift = from - last!.starts[n - tail];
    for (let i = n - tail; i < n; i++) {
      starts.push(last!.starts[i] + shift);
      ends.push(last!.ends[i] + shift);
    }
  }
  return { starts, ends };
}

/** A part's places, from its `[` at `start` of the JSON. */
function placed(part: Part, entries: object[], start: number): KeptPart {
  const starts = part.starts;
  const ends = part.ends;
  for (let i = 0; i < starts.length; i++) {
    starts[i] += start;
    ends[i] += start;
  }
  return { entries, starts, ends };
}

/** The keys of the entry compared last (reused: no list made for each entry). */
const keys: string[] = [];

/**
 * Whether two entries have the same fields in the same order with the same values, each a string,
 * number, boolean or null (an entry with an array or an object is never the same: it is
 * serialized again).
 */
function sameEntry(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  keys.length = 0;
  for (const key in x) {
    const value = x[key];
    if (typeof value === "object" && value !== null) return false;
    if (value !== y[key]) return false;
    keys.push(key);
  }
  let i = 0;
  for (const key in y) {
    if (keys[i++] !== key) return false;
  }
  return i === keys.length;
}
