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
 * an array of objects one level down). The entries are paired with the last array's where the two
 * arrays have alike entries (the same fields, arrays and objects aside) at their starts and ends
 * (a file added or removed pairs the ones before it and after it); a paired entry the same as the
 * last one is its text's slice (one slice a run of them), the others are serialized.
 */
function arrayPart(entries: object[], json?: string, last?: KeptPart): Part {
  const old = last?.entries ?? [];
  const n = entries.length;
  const most = Math.min(n, old.length);
  let head = 0;
  while (head < most && sameEntry(entries[head], old[head], true)) head++;
  let tail = 0;
  while (tail < most - head && sameEntry(entries[n - 1 - tail], old[old.length - 1 - tail], true)) {
    tail++;
  }
  // The last array's index of entry `i` (paired), or -1.
  const pairOf = (i: number) => i < head ? i : i >= n - tail ? i + old.length - n : -1;
  const kept = (i: number) => {
    const j = pairOf(i);
    return j >= 0 && sameEntry(entries[i], old[j], false);
  };
  const pieces: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let at = OPEN.length;
  for (let i = 0; i < n;) {
    const same = kept(i);
    let k = i + 1;
    // A run: kept entries paired with consecutive ones of the last array, or entries to serialize.
    while (k < n && kept(k) === same && (!same || pairOf(k) === pairOf(k - 1) + 1)) k++;
    if (pieces.length) at += SEPARATOR.length;
    const piece = same ? keptRun(json!, last!, pairOf(i), k - i) : serialized(entries.slice(i, k));
    const shift = at - (same ? last!.starts[pairOf(i)] : 0);
    const places = same ? runPlaces(last!, pairOf(i), k - i) : piecePlaces(piece);
    for (let r = 0; r < places.starts.length; r++) {
      starts.push(places.starts[r] + shift);
      ends.push(places.ends[r] + shift);
    }
    pieces.push(piece);
    at += piece.length;
    i = k;
  }
  return { text: OPEN + pieces.join(SEPARATOR) + CLOSE, starts, ends };
}

/** The last JSON's text of `count` entries from its entry `from`. */
function keptRun(json: string, last: KeptPart, from: number, count: number): string {
  return json.slice(last.starts[from], last.ends[from + count - 1]);
}

/** Where those entries are in the last JSON. */
function runPlaces(last: KeptPart, from: number, count: number) {
  return {
    starts: last.starts.slice(from, from + count),
    ends: last.ends.slice(from, from + count),
  };
}

/** Entries serialized one level down, as in the manifest, joined by the separator. */
function serialized(entries: object[]): string {
  countWork("manifest entries serialized", entries.length);
  // `{ "x": [ … ] }` lays its entries out as the manifest does its `files` and `blocks`.
  const text = JSON.stringify({ x: entries }, null, 2);
  return text.slice('{\n  "x": '.length + OPEN.length, text.length - `${CLOSE}\n}`.length);
}

/**
 * Where each entry is in a piece of serialized entries: after each separator at this level (a
 * line break and four spaces before `{`: an entry's own lines are indented further, and a string
 * holds no line break).
 */
function piecePlaces(piece: string): { starts: number[]; ends: number[] } {
  const starts = [0];
  const ends: number[] = [];
  for (
    let at = piece.indexOf(`}${SEPARATOR}{`);
    at >= 0;
    at = piece.indexOf(`}${SEPARATOR}{`, at + 1)
  ) {
    ends.push(at + 1);
    starts.push(at + 1 + SEPARATOR.length);
  }
  ends.push(piece.length);
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
 * number, boolean or null; `alike`: values that are arrays or objects aside (not the same: an
 * entry holding one is serialized again, as it could have been changed in place since).
 */
function sameEntry(a: object, b: object, alike: boolean): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  keys.length = 0;
  for (const key in x) {
    const value = x[key];
    if (typeof value === "object" && value !== null) {
      if (!alike) return false;
    } else if (value !== y[key]) return false;
    keys.push(key);
  }
  let i = 0;
  for (const key in y) {
    if (keys[i++] !== key) return false;
  }
  return i === keys.length;
}
