/**
 * Content dedup: large data URLs and base64 blobs are replaced by short
 * references (`[data:image/png;base64, 48213 bytes, sha256 ab12cd34ef56…]`),
 * the way the seed's file tools overwrite a data URL response with a compact
 * reference. A reference depends only on the content, so the document stays
 * byte-identical between runs. Files opt out with `dedup: false`.
 *
 * @module
 */

import { sha256 as sha256Hex } from "./read.ts";
import { Buffer } from "node:buffer";
import type { FileEntry, ViewOutput } from "./types.ts";

/** Shortest base64 payload (in characters) that is replaced. */
export const DEDUP_MIN_CHARS = 1024;

/** Hex digits of the sha256 shown in a reference. */
const HASH_DIGITS = 12;

/** Shortest line of a wrapped base64 blob (all but its last line). */
const WRAPPED_MIN_LINE = 40;

/** One replaced blob. */
export interface DedupReplacement {
  /** `data:<mime>;base64` for a data URL, `base64` for a bare blob. */
  kind: string;
  /** Decoded size in bytes. */
  bytes: number;
  /** sha256 (hex) of the decoded bytes. */
  sha256: string;
  /** 1-based line where the blob started. */
  line: number;
  /** The reference that replaced it. */
  reference: string;
}

/** The outcome of {@linkcode dedupText}. */
export interface DedupResult {
  /** The text with references in place of the blobs. */
  text: string;
  /** Each replacement, in text order. */
  replacements: DedupReplacement[];
}

/** Options of {@linkcode dedupText}. */
export interface DedupOptions {
  /** Shortest payload replaced, in base64 characters. @default {1024} */
  minChars?: number;
}

const DATA_URL = /data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[^;,\s"'()]*)*);base64,/g;

/**
 * Replace large data URLs and base64 blobs (one long run, or lines of a
 * wrapped blob) by references.
 *
 * @example
 * ```ts
 * import { dedupText } from "./dedup.ts";
 * const png = "iVBORw0KGgo" + "A".repeat(2000);
 * dedupText(`![x](data:image/png;base64,${png})`).text;
 * // "![x]([data:image/png;base64, 1508 bytes, sha256 …])"
 * ```
 */
export function dedupText(text: string, options: DedupOptions = {}): DedupResult {
  const minChars = options.minChars ?? DEDUP_MIN_CHARS;
  if (text.length < minChars) return { text, replacements: [] };
  const replacements: DedupReplacement[] = [];
  // Line starts are only needed once a blob is found (most texts have none).
  let lineStarts: number[] | undefined;
  const lineAt = (offset: number) => lineOf(lineStarts ??= lineIndex(text), offset);

  // 1. Data URLs: the header, then the base64 run that follows it.
  let out = "";
  let last = 0;
  const urls = text.includes(";base64,") ? text.matchAll(DATA_URL) : [];
  for (const m of urls) {
    const begin = m.index!;
    if (begin < last) continue;
    const payloadStart = begin + m[0].length;
    const payloadEnd = runEnd(text, payloadStart);
    if (payloadEnd - payloadStart < minChars) continue;
    const kind = `data:${m[1] ?? ""}${m[2]};base64`;
    const r = replacement(kind, text.slice(payloadStart, payloadEnd), lineAt(begin));
    replacements.push(r);
    out += text.slice(last, begin) + r.reference;
    last = payloadEnd;
  }
  out += text.slice(last);

  // 2. Bare blobs: wrapped over lines, or one long run inside a line.
  if (!hasRun(out, WRAPPED_MIN_LINE)) return { text: out, replacements };
  const lines = out.split("\n");
  const kept: string[] = [];
  // Line numbers still match `text`: a data URL's payload has no newline.
  for (let i = 0; i < lines.length; i++) {
    const group = wrappedBlob(lines, i, minChars);
    if (group) {
      const payload = lines.slice(i, group).map((l) => l.trim()).join("");
      const r = replacement("base64", payload, i + 1);
      replacements.push(r);
      kept.push(lines[i].match(/^\s*/)![0] + r.reference);
      i = group - 1;
      continue;
    }
    kept.push(replaceRuns(lines[i], i + 1, minChars, replacements));
  }
  replacements.sort((a, b) => a.line - b.line);
  return { text: kept.join("\n"), replacements };
}

/**
 * The manifest note of a replacement.
 *
 * @example
 * ```ts
 * import { dedupNote } from "./dedup.ts";
 * // dedupNote(r) === "dedup: line 3: data:image/png;base64 (1796 bytes, sha256 ab12…) replaced by a reference"
 * ```
 */
export function dedupNote(r: DedupReplacement, where = ""): string {
  return `dedup: ${where}line ${r.line}: ${r.kind} (${r.bytes} bytes, sha256 ${r.sha256}) replaced by a reference`;
}

function replacement(kind: string, payload: string, line: number): DedupReplacement {
  const bytes = Buffer.from(payload, "base64");
  const sha256 = sha256Hex(bytes);
  const reference = `[${kind}, ${bytes.length} bytes, sha256 ${sha256.slice(0, HASH_DIGITS)}…]`;
  return { kind, bytes: bytes.length, sha256, line, reference };
}

/** Whether the text has a base64 run of `min` characters (a linear scan; most files have none). */
function hasRun(text: string, min: number): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (isBase64(text.charCodeAt(i))) {
      if (++run >= min) return true;
    } else run = 0;
  }
  return false;
}

function isBase64(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) || code === 43 || code === 47;
}

/** End of the base64 run starting at `from` (with its `=` padding). */
function runEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && isBase64(text.charCodeAt(i))) i++;
  let pad = 0;
  while (pad < 2 && text[i] === "=") {
    i++;
    pad++;
  }
  return i;
}

/** Looks like encoded data rather than a word or a hex digest: upper, lower and digits. */
function mixed(run: string): boolean {
  return /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run);
}

function replaceRuns(
  line: string,
  lineNo: number,
  minChars: number,
  replacements: DedupReplacement[],
): string {
  if (line.length < minChars) return line;
  let out = "";
  let last = 0;
  let i = 0;
  while (i < line.length) {
    if (!isBase64(line.charCodeAt(i))) {
      i++;
      continue;
    }
    const end = runEnd(line, i);
    const run = line.slice(i, end);
    if (run.length >= minChars && mixed(run)) {
      const r = replacement("base64", run, lineNo);
      replacements.push(r);
      out += line.slice(last, i) + r.reference;
      last = end;
    }
    i = end === i ? i + 1 : end;
  }
  return out + line.slice(last);
}

/** End (exclusive line index) of a wrapped blob starting at line `i`, if one starts there. */
function wrappedBlob(lines: string[], i: number, minChars: number): number | undefined {
  const pure = (line: string) => {
    const t = line.trim();
    return t.length > 0 && runEnd(t, 0) === t.length;
  };
  const first = lines[i].trim();
  if (first.length < WRAPPED_MIN_LINE || !pure(first)) return undefined;
  let j = i;
  let chars = 0;
  const width = first.length;
  while (j < lines.length && pure(lines[j])) {
    const t = lines[j].trim();
    chars += t.length;
    j++;
    // A wrapped blob has lines of one width; a shorter line ends it.
    if (t.length !== width) break;
  }
  if (j - i < 2 || chars < minChars) return undefined;
  const payload = lines.slice(i, j).map((l) => l.trim()).join("");
  return mixed(payload) ? j : undefined;
}

function lineIndex(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Dedup a view's output unless the file's entry opts out (`dedup: false`);
 * each replacement adds a manifest note.
 *
 * @example
 * ```ts
 * import { dedupOutput } from "./dedup.ts";
 * dedupOutput({ text: "short" }, { path: "a.md" }); // { text: "short" }
 * ```
 */
export function dedupOutput(out: ViewOutput, entry: FileEntry): ViewOutput {
  if (entry.dedup === false) return out;
  const { text, replacements } = dedupText(out.text);
  if (!replacements.length) return out;
  return { ...out, text, notes: [...(out.notes ?? []), ...replacements.map((r) => dedupNote(r))] };
}
