/**
 * Blob dedup, the engine: large data URLs and base64 blobs in a text found in one pass and
 * replaced by short references that depend only on their content
 * (`[data:image/png;base64, 48213 bytes, sha256 ab12cd34ef56…]`). Plugins reach it through
 * `helpers.ts`, the dedup stage through `dedup.ts`.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { decodeBase64 } from "./_bytes.ts";
import { countWork } from "./_work_count.ts";

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
  /**
   * Look for blob-shaped lines in one pass before splitting the text into lines (same result;
   * `false` for tests that compare). @default {true}
   */
  prefilter?: boolean;
}

/**
 * A data URL's header, `data:<type>/<subtype>;<name>=<value>;base64,` (type and parameters
 * optional), found from `from` on: what `/data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[^;,\s"'()]*)*);base64,/g`
 * finds, read forward once. That regular expression, tried again at each `data:`, read the
 * parameters after it again each time (`data:;a=data:;a=…` took minutes for a megabyte), while
 * every header tried inside a failed one's parameters meets one of the same `;` and fails where
 * it failed: `failed` keeps that range of `;` and the scan skips them.
 */
function nextDataUrl(
  text: string,
  from: number,
  failed: { first: number; last: number },
): { begin: number; end: number; mime: string; params: string } | undefined {
  for (
    let begin = text.indexOf("data:", from);
    begin >= 0;
    begin = text.indexOf("data:", begin + 1)
  ) {
    let at = begin + 5;
    // The type: `[\w.+-]+\/[\w.+-]+`, or nothing.
    let i = at;
    while (i < text.length && isMimeChar(text.charCodeAt(i))) i++;
    if (i > at && text.charCodeAt(i) === 47) {
      let k = i + 1;
      while (k < text.length && isMimeChar(text.charCodeAt(k))) k++;
      if (k > i + 1) at = k;
    }
    countWork("dedup", at - begin);
    const mimeEnd = at;
    if (at >= failed.first && at <= failed.last) continue;
    // Parameters `;name=value`, then `;base64,`.
    const first = at;
    for (;;) {
      if (text.charCodeAt(at) !== 59) break;
      let k = at + 1;
      while (k < text.length && isMimeChar(text.charCodeAt(k))) k++;
      if (k === at + 1 || text.charCodeAt(k) !== 61) break;
      k++;
      while (k < text.length && isValueChar(text.charCodeAt(k))) k++;
      countWork("dedup", k - at);
      at = k;
    }
    if (text.startsWith(";base64,", at)) {
      return {
        begin,
        end: at + 8,
        mime: text.slice(begin + 5, mimeEnd),
        params: text.slice(mimeEnd, at),
      };
    }
    if (text.charCodeAt(first) === 59) failed = Object.assign(failed, { first, last: at });
  }
  return undefined;
}

/** `[\w.+-]`. */
function isMimeChar(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) || code === 95 || code === 46 || code === 43 || code === 45;
}

/** `[^;,\s"'()]`. */
function isValueChar(code: number): boolean {
  return code !== 59 && code !== 44 && code !== 34 && code !== 39 && code !== 40 &&
    code !== 41 && !isSpace(code);
}

/**
 * Replace large data URLs and base64 blobs (one long run, or lines of a
 * wrapped blob) by references.
 *
 * @example
 * ```ts
 * import { dedupText } from "./_blob_dedup.ts";
 * const png = "iVBORw0KGgo" + "A".repeat(2000);
 * dedupText(`![x](data:image/png;base64,${png})`).text;
 * // "![x]([data:image/png;base64, 1508 bytes, sha256 …])"
 * ```
 */
export function dedupText(text: string, options: DedupOptions = {}): DedupResult {
  const minChars = options.minChars ?? DEDUP_MIN_CHARS;
  if (text.length < minChars) return { text, replacements: [] };
  const replacements: DedupReplacement[] = [];
  // 1. Data URLs: the header, then the base64 run that follows it.
  const out = replaceDataUrls(text, minChars, replacements);

  // 2. Bare blobs: wrapped over lines, or one long run inside a line.
  if (!hasRun(out, WRAPPED_MIN_LINE)) return { text: out, replacements };
  // Long identifiers pass the check above; splitting every line of a large source file for them
  // made copies of it. Without a long run or two blob-shaped lines in a row, nothing is replaced.
  if (
    options.prefilter !== false && !hasRun(out, minChars) && !hasWrappedStart(out) &&
    !hasEscapedWrap(out)
  ) {
    return { text: out, replacements };
  }
  const lines = out.split("\n");
  const kept: string[] = [];
  // Lines before this index cannot start a wrapped blob (see `wrappedBlob`).
  let noStartBefore = 0;
  // Line numbers still match `text`: a data URL's payload has no newline.
  for (let i = 0; i < lines.length; i++) {
    const group = i < noStartBefore ? undefined : wrappedBlob(lines, i, minChars);
    if (group?.blob) {
      const payload = lines.slice(i, group.end).map((l) => lineCore(l).core).join("");
      const r = replacement("base64", payload, i + 1);
      replacements.push(r);
      // A JSON list of lines keeps its first line's opening quote and its last line's ending.
      const first = lineCore(lines[i]);
      const last = lineCore(lines[group.end - 1]);
      kept.push(
        lines[i].slice(0, first.start) + r.reference + lines[group.end - 1].slice(last.end),
      );
      i = group.end - 1;
      continue;
    }
    if (group) noStartBefore = group.noStartBefore;
    kept.push(replaceRuns(lines[i], i + 1, minChars, replacements));
  }
  replacements.sort((a, b) => a.line - b.line);
  return { text: kept.join("\n"), replacements };
}

/** {@linkcode dedupText}'s first pass: each data URL's payload of `minChars` or more replaced. */
function replaceDataUrls(
  text: string,
  minChars: number,
  replacements: DedupReplacement[],
): string {
  // Line starts are only needed for a data URL's line: most texts have none.
  let lineStarts: number[] | undefined;
  const lineAt = (offset: number) => lineOf(lineStarts ??= lineIndex(text), offset);
  let out = "";
  let last = 0;
  const failed = { first: -1, last: -1 };
  let next = text.includes(";base64,") ? nextDataUrl(text, 0, failed) : undefined;
  for (let m = next; m; m = next) {
    next = nextDataUrl(text, m.end, failed);
    const begin = m.begin;
    if (begin < last) continue;
    const payloadStart = m.end;
    // A payload wrapped inside a JSON string (a notebook's output) goes on past `\n` escapes.
    const escaped = escapedWrap(text, payloadStart);
    const payloadEnd = escaped?.end ?? runEnd(text, payloadStart);
    const payload = escaped?.payload ?? text.slice(payloadStart, payloadEnd);
    countWork("dedup", payloadEnd - begin);
    if (payload.length < minChars) continue;
    const kind = `data:${m.mime}${m.params};base64`;
    const r = replacement(kind, payload, lineAt(begin));
    replacements.push(r);
    out += text.slice(last, begin) + r.reference;
    last = payloadEnd;
  }
  return out + text.slice(last);
}

/**
 * Whether {@linkcode dedupText} may change a text: false only when it would return the text as
 * it is, decided with the same cheap checks it starts with (the text's length, a `;base64,`, a
 * base64 run of a blob line's width and then a blob's length or two blob-shaped lines in a row).
 * The build counts a file's tokens early only when false: a text dedup rewrites is not the text
 * its block holds.
 *
 * @example
 * ```ts
 * import { mayDedup } from "./_blob_dedup.ts";
 * mayDedup("const x = 1;\n".repeat(200)); // false
 * mayDedup("QUJD".repeat(300)); // true
 * ```
 */
export function mayDedup(text: string, options: DedupOptions = {}): boolean {
  const minChars = options.minChars ?? DEDUP_MIN_CHARS;
  if (text.length < minChars) return false;
  if (text.includes(";base64,")) return true;
  if (!hasRun(text, WRAPPED_MIN_LINE)) return false;
  return options.prefilter === false || hasRun(text, minChars) || hasWrappedStart(text) ||
    hasEscapedWrap(text);
}

/**
 * The manifest note of a replacement.
 *
 * @example
 * ```ts
 * import { dedupNote } from "./_blob_dedup.ts";
 * // dedupNote(r) === "dedup: line 3: data:image/png;base64 (1796 bytes, sha256 ab12…) replaced by a reference"
 * ```
 */
export function dedupNote(r: DedupReplacement, where = ""): string {
  return `dedup: ${where}line ${r.line}: ${r.kind} (${r.bytes} bytes, sha256 ${r.sha256}) replaced by a reference`;
}

function replacement(kind: string, payload: string, line: number): DedupReplacement {
  const bytes = decodeBase64(payload);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const reference = `[${kind}, ${bytes.length} bytes, sha256 ${sha256.slice(0, HASH_DIGITS)}…]`;
  return { kind, bytes: bytes.length, sha256, line, reference };
}

/** Whether the text has a base64 run of `min` characters (most files have none). */
function hasRun(text: string, min: number): boolean {
  return findRun(text, Math.max(1, min), 0) >= 0;
}

/**
 * Where the first run of at least `min` (>= 1) base64 characters at or after `from` starts, or
 * -1. Each window of `min` characters is read from its end back to its last character that is
 * not base64, and the next window starts after that one: in source text (short runs) most
 * characters are never read.
 */
function findRun(text: string, min: number, from: number): number {
  let start = from;
  let reads = 0;
  while (start + min <= text.length) {
    let i = start + min - 1;
    while (i >= start && isBase64(text.charCodeAt(i))) i--;
    reads += start + min - i;
    if (i < start) {
      countWork("dedup", reads);
      return start;
    }
    start = i + 1;
  }
  countWork("dedup", reads);
  return -1;
}

/**
 * Whether a line that can start a wrapped blob (trimmed, all base64 with at most two `=` after,
 * at least {@linkcode WRAPPED_MIN_LINE} characters) is followed by another all-base64 line: what
 * `wrappedBlob` needs before it replaces anything. Only lines with a run of `WRAPPED_MIN_LINE - 2`
 * base64 characters (what such a line holds before its padding) are looked at; nothing allocated.
 */
function hasWrappedStart(text: string): boolean {
  for (let at = findRun(text, WRAPPED_MIN_LINE - 2, 0); at >= 0;) {
    const start = text.lastIndexOf("\n", at) + 1;
    const end = text.indexOf("\n", at);
    if (end < 0) return false; // the last line: none follows it
    if (pureWidth(text, start, end) >= WRAPPED_MIN_LINE) {
      const after = text.indexOf("\n", end + 1);
      if (pureWidth(text, end + 1, after < 0 ? text.length : after) >= 0) return true;
    }
    at = findRun(text, WRAPPED_MIN_LINE - 2, end + 1);
  }
  return false;
}

/** The trimmed width of `text[start, end)` when it is all base64 (then at most two `=`), else -1. */
function pureWidth(text: string, start: number, end: number): number {
  countWork("dedup", end - start);
  ({ start, end } = lineCore(text, start, end));
  if (start === end) return -1;
  let i = start;
  while (i < end && isBase64(text.charCodeAt(i))) i++;
  for (let pad = 0; pad < 2 && i < end && text.charCodeAt(i) === 61; pad++) i++;
  return i === end ? end - start : -1;
}

/**
 * A line of a wrapped blob as a JSON list of lines holds it (a notebook's `"image/png": [...]`):
 * `"<base64>\n",` (the `\n` escape, the comma optional). The part that is the blob's, as
 * `start` and `end` in `text` (from `from`, to `to`) and as `core`; a line of bare base64 is
 * itself, trimmed.
 */
function lineCore(
  text: string,
  from = 0,
  to = text.length,
): { start: number; end: number; core: string } {
  let start = from;
  let end = to;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  if (text.charCodeAt(start) === 34 && end - start > 1) {
    let e = end;
    if (text.charCodeAt(e - 1) === 44) e--; // ,
    if (text.charCodeAt(e - 1) === 34) {
      e--;
      if (text.endsWith("\\r\\n", e)) e -= 4;
      else if (text.endsWith("\\n", e)) e -= 2;
      start++;
      end = e;
    }
  }
  return { start, end, core: text.slice(start, end) };
}

/** The length of the escaped line break (`\n`, `\r\n`, as JSON writes them) at `at`, or 0. */
function escapedBreak(text: string, at: number): number {
  if (text.charCodeAt(at) !== 92) return 0;
  if (text.charCodeAt(at + 1) === 110) return 2;
  return text.startsWith("\\r\\n", at) ? 4 : 0;
}

/**
 * A blob wrapped inside one line by escaped line breaks (a JSON string: `AAAA…\nBBBB…\nCC==\n`)
 * from `from`: lines of one width, at least {@linkcode WRAPPED_MIN_LINE} and two of them, then
 * one no wider (its `=` padding last). Where it ends (before the break after its last line) and
 * its payload, or undefined. Each character is read once.
 */
function escapedWrap(text: string, from: number): { end: number; payload: string } | undefined {
  let at = from;
  let end = from;
  let width = -1;
  let full = 0;
  const parts: string[] = [];
  for (;;) {
    const stop = runEnd(text, at);
    countWork("dedup", stop - at + 1);
    const len = stop - at;
    const padded = len > 0 && text.charCodeAt(stop - 1) === 61;
    if (width < 0) {
      if (len < WRAPPED_MIN_LINE || padded) return undefined;
      width = len;
    }
    // A wider line, or none after the break: the blob ended with the line before.
    if (len === 0 || len > width) break;
    parts.push(text.slice(at, stop));
    end = stop;
    if (len < width || padded) break; // its last line
    full++;
    const step = escapedBreak(text, stop);
    if (!step) break;
    at = stop + step;
  }
  return full < 2 ? undefined : { end, payload: parts.join("") };
}

/** Whether a base64 run of a blob line's width is followed by an escaped break and more base64. */
function hasEscapedWrap(text: string): boolean {
  for (let at = findRun(text, WRAPPED_MIN_LINE, 0); at >= 0;) {
    const end = runEnd(text, at);
    const step = escapedBreak(text, end);
    if (step && isBase64(text.charCodeAt(end + step))) return true;
    at = findRun(text, WRAPPED_MIN_LINE, end + 1);
  }
  return false;
}

/** White space as `String.prototype.trim` removes it. */
function isSpace(code: number): boolean {
  return (code >= 9 && code <= 13) || code === 32 || code === 0xa0 || code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
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
  countWork("dedup", line.length);
  if (line.length < minChars) return line;
  let out = "";
  let last = 0;
  let i = 0;
  while (i < line.length) {
    if (!isBase64(line.charCodeAt(i))) {
      i++;
      continue;
    }
    const escaped = escapedWrap(line, i);
    if (escaped && escaped.payload.length >= minChars && mixed(escaped.payload)) {
      const r = replacement("base64", escaped.payload, lineNo);
      replacements.push(r);
      out += line.slice(last, i) + r.reference;
      last = i = escaped.end;
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

/** What {@linkcode wrappedBlob} found from a line. */
interface WrappedGroup {
  /** The lines from the first to `end` (exclusive) are one blob. */
  blob: boolean;
  /** End (exclusive line index) of the lines of one width read from the first. */
  end: number;
  /** No line after the first and before this index starts a blob either. */
  noStartBefore: number;
}

/**
 * The wrapped blob starting at line `i`, if one starts there, else how far no blob starts.
 * A group read from a later line of the same run of one width would end where this one ends and
 * hold a part of its payload: fewer lines, fewer characters and no letter or digit this one
 * lacks. So when this one is no blob, none starts inside it before its last line (which may be
 * shorter, the first of a run of another width), and the caller need not read those lines
 * again: each line is read here at most twice, where reading on from every line was quadratic
 * in a file of equal-width lines (FASTA, a text of one letter).
 */
function wrappedBlob(lines: string[], i: number, minChars: number): WrappedGroup | undefined {
  const pure = (line: string) => {
    const t = lineCore(line).core;
    return t.length > 0 && runEnd(t, 0) === t.length;
  };
  const first = lineCore(lines[i]).core;
  countWork("dedup", first.length);
  if (first.length < WRAPPED_MIN_LINE || !pure(first)) return undefined;
  let j = i;
  let chars = 0;
  const width = first.length;
  let widthChanged = false;
  while (j < lines.length && pure(lines[j])) {
    const t = lineCore(lines[j]).core;
    countWork("dedup", lines[j].length);
    chars += t.length;
    j++;
    // A wrapped blob has lines of one width; a shorter line ends it.
    if (t.length !== width) {
      widthChanged = true;
      break;
    }
  }
  const noStartBefore = widthChanged ? j - 1 : j;
  if (j - i < 2 || chars < minChars) return { blob: false, end: j, noStartBefore };
  const payload = lines.slice(i, j).map((l) => lineCore(l).core).join("");
  return { blob: mixed(payload), end: j, noStartBefore };
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
