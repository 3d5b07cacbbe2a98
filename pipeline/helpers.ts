/**
 * The plain helpers every plugin may use, built-in or not: hashing, cache
 * keys, atomic writes, path and glob checks, the plugin error, model table
 * look-up and blob dedup. Dependency-free (only `node:` modules and the plugin
 * types): importing it loads no pipeline stage. User plugins import the same
 * names from `mod.ts`; built-in plugins import this file, `types.ts` and
 * `tokens.ts` only (`tests/core/boundaries_test.ts` keeps it so).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { basename, dirname, join } from "./_path.ts";
import { decodeBase64 } from "./_bytes.ts";

export { readAt } from "./_bytes.ts";

import type { Block, ModelInfo, RenderedFile } from "./types.ts";

/**
 * The sha256 of a text (its UTF-8 bytes) or of bytes, as 64 hex digits.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./helpers.ts";
 * sha256Hex("").slice(0, 8); // "e3b0c442"
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * JSON with object keys sorted at every level and `undefined` properties
 * left out: the same data always gives the same text.
 *
 * @example
 * ```ts
 * import { canonicalJson } from "./helpers.ts";
 * canonicalJson({ b: [1, { d: 1, c: 2 }], a: undefined }); // '{"b":[1,{"c":2,"d":1}]}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  // An array (a cache key's parts) element by element: its strings and numbers are written
  // without the replacer, which JSON.stringify would call for each (most of a key's cost).
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      out += (i ? "," : "") +
        (typeof v === "object" && v !== null ? canonicalJson(v) : JSON.stringify(v) ?? "null");
    }
    return out + "]";
  }
  return JSON.stringify(value, (_key, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  }) ?? "null";
}

/**
 * A cache key from parts: the sha256 of their canonical JSON (object keys
 * sorted, so `{a, b}` and `{b, a}` give the same key).
 *
 * @example
 * ```ts
 * import { cacheKey } from "./helpers.ts";
 * cacheKey(["view", { b: 1, a: 2 }]) === cacheKey(["view", { a: 2, b: 1 }]); // true
 * ```
 */
export function cacheKey(parts: unknown[]): string {
  return sha256Hex(canonicalJson(parts));
}

/**
 * Write a text file through a hidden temp file and a rename, so a reader
 * never sees half of it; the temp file is removed when the write fails.
 * `written` is called with the temp file's path once it is complete, before
 * the rename (to take its stamp: the rename keeps its inode and times).
 *
 * @example
 * ```ts
 * import { writeAtomic } from "./helpers.ts";
 * // await writeAtomic(".slop/checkpoints/ab12.json", "{}\n");
 * ```
 */
export async function writeAtomic(
  path: string,
  text: string,
  written?: (tmp: string) => void,
): Promise<void> {
  // Hidden, so a temp file left by a killed process never looks like an output.
  const tmp = join(dirname(path), `.${basename(path)}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.writeTextFile(tmp, text);
    written?.(tmp);
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw writeError(path, error);
  }
}

/**
 * {@linkcode writeAtomic}, synchronously: for small files written on a build's path (a manifest,
 * a mark), where each awaited file operation would wait for a task turn.
 *
 * @example
 * ```ts
 * import { writeAtomicSync } from "./helpers.ts";
 * // writeAtomicSync(".slop/out/context_001.json", "{}\n");
 * ```
 */
export function writeAtomicSync(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
  try {
    Deno.writeTextFileSync(tmp, text);
    Deno.renameSync(tmp, path);
  } catch (error) {
    try {
      Deno.removeSync(tmp);
    } catch {
      // Never made.
    }
    throw writeError(path, error);
  }
}

/** The same kind of error, saying which file could not be written (not the temp file's rename). */
function writeError(path: string, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const reason = error.message.replace(/ \(os error \d+\).*$/s, "");
  const message = `Cannot write "${path}": ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
  const Kind = error.constructor as new (message: string, options?: ErrorOptions) => Error;
  return new Kind(message, { cause: error });
}

/**
 * Compare paths by code point, independent of locale.
 *
 * @example
 * ```ts
 * import { comparePaths } from "./helpers.ts";
 * ["b.ts", "B.ts", "a.ts"].sort(comparePaths); // ["B.ts", "a.ts", "b.ts"]
 * ```
 */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const GLOB_CHARS = /[*?[\]{}!()]/;

/**
 * A path as slop shows it (a heading, the build summary, a table): control
 * characters (a newline in a file name would end the heading or the line) are
 * written as escapes (`\n`, `\t`, `\x1b`), and so are the invisible
 * characters that change how a name reads: bidi overrides and isolates
 * (`\u{202e}` shows `txt.exe` as `exe.txt`), marks, the zero-width space and
 * line or paragraph separators.
 *
 * @example
 * ```ts
 * import { printablePath } from "./helpers.ts";
 * printablePath("a\nb.txt"); // "a\\nb.txt"
 * printablePath("\u202eevil.md"); // "\\u{202e}evil.md"
 * ```
 */
export function printablePath(path: string): string {
  return path.replace(CONTROL_CHARS, (c) => {
    const code = c.charCodeAt(0);
    return CONTROL_ESCAPES[c] ??
      (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`);
  });
}

// C0 and C1 controls, DEL; the bidi marks, embeddings, overrides and isolates; zero-width
// space, the word joiner and BOM; line and paragraph separators. Not the zero-width joiner and
// non-joiner: Persian and Indic words and emoji sequences need them.
const CONTROL_CHARS =
  // deno-lint-ignore no-control-regex
  /[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/g;
const CONTROL_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * True when the entry path is a glob pattern.
 *
 * @example
 * ```ts
 * import { isGlob } from "./helpers.ts";
 * isGlob("src/**"); // true
 * ```
 */
export function isGlob(path: string): boolean {
  return GLOB_CHARS.test(path);
}

/**
 * Normalise an entry path: forward slashes, no `.` segments or repeated
 * slashes, `..` taken back where it can be (`src/../b.md` is `b.md`), and at
 * most one trailing slash, so that a file named two ways is one path.
 *
 * @example
 * ```ts
 * import { normalizeEntryPath } from "./helpers.ts";
 * normalizeEntryPath("./docs\\a.md"); // "docs/a.md"
 * normalizeEntryPath("src//lib/./../a.ts"); // "src/a.ts"
 * ```
 */
export function normalizeEntryPath(path: string): string {
  const p = path.replaceAll("\\", "/");
  const absolute = p.startsWith("/");
  const trailing = p.length > 1 && p.endsWith("/");
  const out: string[] = [];
  for (const segment of p.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && out.length && out[out.length - 1] !== "..") out.pop();
    else if (segment === ".." && absolute) continue;
    else out.push(segment);
  }
  const joined = (absolute ? "/" : "") + out.join("/");
  if (!out.length) return joined;
  return trailing ? joined + "/" : joined;
}

/**
 * A block of the files section that holds one file (not the heading).
 *
 * @example
 * ```ts
 * import { isFileBlock } from "./helpers.ts";
 * isFileBlock({ id: "files:a.ts", section: "files", stability: "stable", text: "", source: "a.ts" }); // true
 * ```
 */
export function isFileBlock(block: Block): boolean {
  return block.section === "files" && block.source !== undefined && !block.heading;
}

/**
 * An error raised inside a plugin hook, carrying where it happened.
 *
 * @example
 * ```ts
 * import { PluginError } from "./helpers.ts";
 * new PluginError("my:view", "render", "Cannot parse \"a.py\"").message; // "[plugin my:view] Cannot parse \"a.py\""
 * ```
 */
export class PluginError extends Error {
  /** Plugin name. */
  plugin: string;
  /** Hook name. */
  hook: string;
  /** File path the hook was working on, if any. */
  path?: string;

  /**
   * @param plugin Plugin name.
   * @param hook Hook name.
   * @param message What went wrong.
   * @param options Path and cause.
   */
  constructor(
    plugin: string,
    hook: string,
    message: string,
    options: { path?: string; cause?: unknown } = {},
  ) {
    super(`[plugin ${plugin}] ${message}`, { cause: options.cause });
    this.name = "PluginError";
    this.plugin = plugin;
    this.hook = hook;
    this.path = options.path;
  }
}

/**
 * Find a model in a table: the exact id, else the longest id the model
 * starts with (`claude-sonnet-4-5-20250929` finds `claude-sonnet-4-5`).
 *
 * @example
 * ```ts
 * import { lookupModel } from "./helpers.ts";
 * const table = {
 *   "gpt-5": {
 *     minCacheTokens: 1024, ttls: ["5m"], breakpoints: false, tokenizer: "o200k" as const,
 *     prices: { input: 1.25, output: 10, cacheRead: 0.125 },
 *   },
 * };
 * lookupModel(table, "gpt-5-2025-08-07")?.model; // "gpt-5-2025-08-07"
 * ```
 */
export function lookupModel(
  table: Record<string, Omit<ModelInfo, "model">>,
  model: string,
): ModelInfo | undefined {
  if (Object.hasOwn(table, model)) return { model, ...table[model] };
  const keys = Object.keys(table).filter((k) => model.startsWith(k)).sort((a, b) =>
    b.length - a.length
  );
  return keys.length ? { model, ...table[keys[0]] } : undefined;
}

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
 * import { dedupText } from "./helpers.ts";
 * const png = "iVBORw0KGgo" + "A".repeat(2000);
 * dedupText(`![x](data:image/png;base64,${png})`).text;
 * // "![x]([data:image/png;base64, 1508 bytes, sha256 …])"
 * ```
 */
export function dedupText(text: string, options: DedupOptions = {}): DedupResult {
  const minChars = options.minChars ?? DEDUP_MIN_CHARS;
  if (text.length < minChars) return { text, replacements: [] };
  const replacements: DedupReplacement[] = [];
  // Line starts are only needed for a data URL's line: most texts have none.
  let lineStarts: number[] | undefined;
  const lineAt = (offset: number) => lineOf(lineStarts ??= lineIndex(text), offset);

  // 1. Data URLs: the header, then the base64 run that follows it.
  let out = "";
  let last = 0;
  const failed = { first: -1, last: -1 };
  let next = text.includes(";base64,") ? nextDataUrl(text, 0, failed) : undefined;
  for (let m = next; m; m = next) {
    next = nextDataUrl(text, m.end, failed);
    const begin = m.begin;
    if (begin < last) continue;
    const payloadStart = m.end;
    const payloadEnd = runEnd(text, payloadStart);
    countWork("dedup", payloadEnd - begin);
    if (payloadEnd - payloadStart < minChars) continue;
    const kind = `data:${m.mime}${m.params};base64`;
    const r = replacement(kind, text.slice(payloadStart, payloadEnd), lineAt(begin));
    replacements.push(r);
    out += text.slice(last, begin) + r.reference;
    last = payloadEnd;
  }
  out += text.slice(last);

  // 2. Bare blobs: wrapped over lines, or one long run inside a line.
  if (!hasRun(out, WRAPPED_MIN_LINE)) return { text: out, replacements };
  // Long identifiers pass the check above; splitting every line of a large source file for them
  // made copies of it. Without a long run or two blob-shaped lines in a row, nothing is replaced.
  if (options.prefilter !== false && !hasRun(out, minChars) && !hasWrappedStart(out)) {
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
      const payload = lines.slice(i, group.end).map((l) => l.trim()).join("");
      const r = replacement("base64", payload, i + 1);
      replacements.push(r);
      kept.push(lines[i].match(/^\s*/)![0] + r.reference);
      i = group.end - 1;
      continue;
    }
    if (group) noStartBefore = group.noStartBefore;
    kept.push(replaceRuns(lines[i], i + 1, minChars, replacements));
  }
  replacements.sort((a, b) => a.line - b.line);
  return { text: kept.join("\n"), replacements };
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
 * import { mayDedup } from "./helpers.ts";
 * mayDedup("const x = 1;\n".repeat(200)); // false
 * mayDedup("QUJD".repeat(300)); // true
 * ```
 */
export function mayDedup(text: string, options: DedupOptions = {}): boolean {
  const minChars = options.minChars ?? DEDUP_MIN_CHARS;
  if (text.length < minChars) return false;
  if (text.includes(";base64,")) return true;
  if (!hasRun(text, WRAPPED_MIN_LINE)) return false;
  return options.prefilter === false || hasRun(text, minChars) || hasWrappedStart(text);
}

/**
 * The manifest note of a replacement.
 *
 * @example
 * ```ts
 * import { dedupNote } from "./helpers.ts";
 * // dedupNote(r) === "dedup: line 3: data:image/png;base64 (1796 bytes, sha256 ab12…) replaced by a reference"
 * ```
 */
export function dedupNote(r: DedupReplacement, where = ""): string {
  return `dedup: ${where}line ${r.line}: ${r.kind} (${r.bytes} bytes, sha256 ${r.sha256}) replaced by a reference`;
}

function replacement(kind: string, payload: string, line: number): DedupReplacement {
  const bytes = decodeBase64(payload);
  const sha256 = sha256Hex(bytes);
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
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  if (start === end) return -1;
  let i = start;
  while (i < end && isBase64(text.charCodeAt(i))) i++;
  for (let pad = 0; pad < 2 && i < end && text.charCodeAt(i) === 61; pad++) i++;
  return i === end ? end - start : -1;
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
    const t = line.trim();
    return t.length > 0 && runEnd(t, 0) === t.length;
  };
  const first = lines[i].trim();
  countWork("dedup", first.length);
  if (first.length < WRAPPED_MIN_LINE || !pure(first)) return undefined;
  let j = i;
  let chars = 0;
  const width = first.length;
  let widthChanged = false;
  while (j < lines.length && pure(lines[j])) {
    const t = lines[j].trim();
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
  const payload = lines.slice(i, j).map((l) => l.trim()).join("");
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

/**
 * Values derived from a text alone, by text, in two generations (this build's and the last):
 * kept only once a long-running process (`slop watch`) has begun a build with
 * {@linkcode turnDerived}. A rendered file's text is the same string from build to build there,
 * so a lookup does not even hash it again.
 */
let derivedNow: Map<string, Map<string, unknown>> | undefined;
let derivedBefore = new Map<string, Map<string, unknown>>();

/**
 * A value derived from `text` and `salt` alone: computed once in a long-running process (and
 * the same string object each time, so comparing it with the last build's costs nothing);
 * computed every time otherwise.
 *
 * @example
 * ```ts
 * import { derived } from "./helpers.ts";
 * derived("text", "salt", () => "value"); // "value"
 * ```
 */
export function derived<T = string>(text: string, salt: string, compute: () => T): T {
  if (!derivedNow) return compute();
  let values = derivedNow.get(text);
  if (!values) {
    values = derivedBefore.get(text) ?? new Map<string, unknown>();
    derivedNow.set(text, values);
  }
  let value = values.get(salt) as T | undefined;
  if (value === undefined) values.set(salt, value = compute());
  return value;
}

/**
 * Start a build of a long-running process: {@linkcode derived} keeps what this build and the
 * last one use, and drops the rest.
 *
 * @example
 * ```ts
 * import { turnDerived } from "./helpers.ts";
 * turnDerived();
 * ```
 */
export function turnDerived(): void {
  derivedBefore = derivedNow ?? new Map();
  derivedNow = new Map();
}

/** The parts of each file's block as {@linkcode joinFileBlock} joined them. */
const joinedBlocks = new WeakMap<RenderedFile, { text: string; parts: string[] }>();

/**
 * Join `parts` (with `+`: V8 keeps the result as pointers to them) and note
 * them as the parts of `file`'s block, so the build reads the block part by
 * part instead of V8 copying it whole (see `pipeline/block_parts.ts`).
 *
 * @example
 * ```ts
 * import { joinFileBlock } from "./helpers.ts";
 * const file = { path: "a.py" } as import("./types.ts").RenderedFile;
 * joinFileBlock(file, ["### a.py\n\n", "x = 1\n", "\n"]); // "### a.py\n\nx = 1\n\n"
 * ```
 */
export function joinFileBlock(file: RenderedFile, parts: string[]): string {
  let text = "";
  for (const part of parts) text += part;
  // Parts are encoded one by one: a surrogate pair split between two would encode otherwise.
  const split = parts.some((part, i) =>
    i > 0 && isHigh(parts[i - 1].charCodeAt(parts[i - 1].length - 1)) && isLow(part.charCodeAt(0))
  );
  if (split) joinedBlocks.delete(file);
  else joinedBlocks.set(file, { text, parts });
  return text;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * What {@linkcode joinFileBlock} joined last for `file`, if anything.
 *
 * @example
 * ```ts
 * import { joinedFileBlock } from "./helpers.ts";
 * joinedFileBlock({ path: "a.py" } as import("./types.ts").RenderedFile); // undefined
 * ```
 */
export function joinedFileBlock(file: RenderedFile): { text: string; parts: string[] } | undefined {
  return joinedBlocks.get(file);
}

/**
 * Note `joined` (what {@linkcode joinedFileBlock} gave for an earlier file of the same text) as
 * the parts of `file`'s block: a resident process (`slop watch`) gives the next build's file the
 * block it made before.
 *
 * @example
 * ```ts
 * import { joinedFileBlock, joinFileBlock, noteFileBlock } from "./helpers.ts";
 * const before = { path: "a.py" } as import("./types.ts").RenderedFile;
 * joinFileBlock(before, ["# a\n", "x = 1\n", ""]);
 * const now = { path: "a.py" } as import("./types.ts").RenderedFile;
 * noteFileBlock(now, joinedFileBlock(before)!);
 * joinedFileBlock(now)?.parts.length; // 3
 * ```
 */
export function noteFileBlock(file: RenderedFile, joined: { text: string; parts: string[] }): void {
  joinedBlocks.set(file, joined);
}

/** Work counted by stage while a tally runs (see {@linkcode tallyWork}). */
let workCounts: Map<string, number> | undefined;

/**
 * Count `steps` of work done by `stage` (e.g. `"code"`: parser steps and tree nodes), for the
 * scaling tests: kept only while a tally runs ({@linkcode tallyWork}), one comparison otherwise.
 * A loop adds up its steps and counts them once. Counting steps, unlike timing, cannot flake.
 *
 * @example
 * ```ts
 * import { countWork } from "./helpers.ts";
 * countWork("code", 120);
 * ```
 */
export function countWork(stage: string, steps: number): void {
  if (workCounts) workCounts.set(stage, (workCounts.get(stage) ?? 0) + steps);
}

/**
 * Run `work` (synchronous or not) and return the steps it counted with {@linkcode countWork},
 * by stage. Tallies do not nest; work done on other threads is not counted.
 *
 * @example
 * ```ts
 * import { countWork, tallyWork } from "./helpers.ts";
 * const steps = await tallyWork(() => countWork("dedup", 3));
 * steps.get("dedup"); // 3
 * ```
 */
export async function tallyWork(work: () => unknown): Promise<Map<string, number>> {
  if (workCounts) throw new Error("Work tallies do not nest");
  const mine = new Map<string, number>();
  workCounts = mine;
  try {
    await work();
  } finally {
    workCounts = undefined;
  }
  return mine;
}

/**
 * The stamp of a file (inode, size, modification time), or `undefined` when it is gone.
 *
 * @example
 * ```ts
 * import { fileStamp } from "./helpers.ts";
 * fileStamp("/no/such/file"); // undefined
 * ```
 */
export function fileStamp(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    return `${info.ino}:${info.size}:${info.mtime?.getTime()}`;
  } catch {
    return undefined;
  }
}

/**
 * `work`'s result, or a rejection with `late()`'s error when it has not settled within `ms`
 * milliseconds; the timer is cleared either way, so it never holds the process.
 *
 * @example
 * ```ts
 * import { settleWithin } from "./helpers.ts";
 * await settleWithin(Promise.resolve(1), 100, () => new Error("too slow")); // 1
 * ```
 */
export async function settleWithin<T>(
  work: Promise<T>,
  ms: number,
  late: () => Error,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
