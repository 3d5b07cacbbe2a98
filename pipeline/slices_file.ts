/**
 * The slices side file (`slop/slices.toml` by default, config `slicesFile`):
 * one `[[slices]]` table per slice with the seed's snake_case keys, so that
 * tools can write slices without touching `slop.config.ts`. Before the
 * transform stage, each file's side-file slices join its entry's `slices`, so
 * view modes see one list.
 *
 * ```toml
 * [[slices]]
 * path = "src/parser.py"
 * start_line = 40
 * end_line = 58
 * tag = "tokenizer"
 * comment = "the part that splits on quotes"
 * content_hash = "9f2c..."
 * anchor_lines = ["", "class Tokenizer:", "    ...", "", "def parse(text):", "    ..."]
 * ```
 *
 * @module
 */

import { relative, sep } from "./_path.ts";
import { loadToml } from "../deps.ts";
import { closest, quote } from "./schema.ts";
import { errorText } from "./error_text.ts";
import { redactMessage } from "./redact_message.ts";
import type { ResolvedConfig, Slice, Target } from "./types.ts";
import { readSettingText } from "./helpers.ts";

/** A slice of the side file: a slice plus the file it belongs to. */
export interface FileSlice extends Slice {
  /** File path relative to the project root, `/`-separated. */
  path: string;
}

const KEYS = ["path", "start_line", "end_line", "tag", "comment", "content_hash", "anchor_lines"];

/**
 * Parse the side file's text. Errors name the file and the key path
 * (`slices[2].start_line`).
 *
 * @example
 * ```ts
 * import { parseSlices } from "./slices_file.ts";
 * await parseSlices('[[slices]]\npath = "a.py"\nstart_line = 1\nend_line = 2\n', "slop/slices.toml");
 * // [{ path: "a.py", startLine: 1, endLine: 2 }]
 * ```
 */
export async function parseSlices(text: string, name: string): Promise<FileSlice[]> {
  const fail = (problem: string): never => {
    throw new Error(`Invalid slices file "${name}": ${problem}`);
  };
  const { parse } = await loadToml();
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    // smol-toml's message runs on with an excerpt of the text: its first line, and where.
    const where = (error as { line?: unknown }).line;
    const first = errorText(error).split("\n")[0].replace(/\.$/, "");
    return fail(typeof where === "number" ? `${first} (line ${where})` : first);
  }
  for (const key of Object.keys(data)) {
    if (key !== "slices") fail(`Unknown key "${key}" (expected [[slices]] tables)`);
  }
  const list = data.slices ?? [];
  if (!Array.isArray(list)) return fail(`"slices" must be an array of tables`);
  return list.map((item, i) => sliceOf(item, `slices[${i}]`, fail));
}

/** One `[[slices]]` table as a slice, checked; `fail` throws the error that names `at`. */
function sliceOf(item: unknown, at: string, fail: (problem: string) => never): FileSlice {
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    return fail(`"${at}" must be a table`);
  }
  const row = item as Record<string, unknown>;
  for (const key of Object.keys(row)) {
    if (!KEYS.includes(key)) {
      const hint = closest(key, KEYS);
      fail(`Unknown key "${at}.${key}"${hint ? ` (did you mean "${at}.${hint}"?)` : ""}`);
    }
  }
  const line = (key: string): number => {
    const v = row[key];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      return fail(`"${at}.${key}" must be a whole number of at least 1, got ${shown(v)}`);
    }
    return v;
  };
  const text = (key: string): string | undefined => {
    const v = row[key];
    if (v !== undefined && typeof v !== "string") {
      fail(`"${at}.${key}" must be a string, got ${shown(v)}`);
    }
    return v as string | undefined;
  };
  const path = text("path");
  if (!path) fail(`"${at}.path" is required`);
  if (leavesRoot(path!)) {
    fail(`"${at}.path" must be a path relative to the project root, got ${quote(path!)}`);
  }
  const startLine = line("start_line");
  const endLine = line("end_line");
  if (endLine < startLine) fail(`"${at}.end_line" must not be before "${at}.start_line"`);
  const anchors = row.anchor_lines;
  if (
    anchors !== undefined &&
    (!Array.isArray(anchors) || anchors.some((a) => typeof a !== "string"))
  ) {
    fail(`"${at}.anchor_lines" must be an array of strings, got ${shown(anchors)}`);
  }
  const slice: FileSlice = { path: path as string, startLine, endLine };
  const tag = text("tag");
  const comment = text("comment");
  const hash = text("content_hash");
  if (tag !== undefined) slice.tag = tag;
  if (comment !== undefined) slice.comment = comment;
  if (hash !== undefined) slice.contentHash = hash;
  if (anchors !== undefined) slice.anchorLines = anchors as string[];
  return slice;
}

/** A TOML value as an error message shows it. */
function shown(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (Array.isArray(value)) {
    return value.every((x) => typeof x === "string") ? "an array" : "an array holding a non-string";
  }
  if (typeof value === "object" && value !== null) return "a table";
  return value === undefined ? "nothing" : String(value);
}

/** Whether a slice's path is absolute (POSIX or Windows) or climbs out with a `..` segment. */
function leavesRoot(path: string): boolean {
  return /^([\\/]|[A-Za-z]:)/.test(path) || /(^|[\\/])\.\.([\\/]|$)/.test(path);
}

/**
 * Read the side file; a missing file has no slices.
 *
 * @example
 * ```ts
 * import { readSlicesFile } from "./slices_file.ts";
 * // const slices = await readSlicesFile("/project/slop/slices.toml", "slop/slices.toml");
 * ```
 */
export async function readSlicesFile(path: string, name = path): Promise<FileSlice[]> {
  let text: string;
  try {
    text = await readSettingText(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw new Error(
      `Cannot read the slices file "${name}": ${error instanceof Error ? error.message : error}`,
    );
  }
  return await parseSlices(text, name);
}

/**
 * The side file's text for `slices`, in the order given (keys in the seed's
 * order, snake_case).
 *
 * @example
 * ```ts
 * import { formatSlices } from "./slices_file.ts";
 * await formatSlices([{ path: "a.py", startLine: 1, endLine: 2 }]);
 * ```
 */
export async function formatSlices(slices: FileSlice[]): Promise<string> {
  const rows = slices.map((s) => ({
    path: s.path,
    start_line: s.startLine,
    end_line: s.endLine,
    ...(s.tag !== undefined ? { tag: s.tag } : {}),
    ...(s.comment !== undefined ? { comment: s.comment } : {}),
    ...(s.contentHash !== undefined ? { content_hash: s.contentHash } : {}),
    ...(s.anchorLines !== undefined ? { anchor_lines: s.anchorLines } : {}),
  }));
  const header = "# Line slices for slop's custom view (`slop slice add|list|refresh`).\n";
  if (!rows.length) return header;
  const { stringify } = await loadToml();
  return `${header}\n${stringify({ slices: rows })}\n`;
}

/**
 * Add each target's side-file slices to its entry's `slices` (after the
 * config's own). A side file that cannot be read or parsed is a warning. A
 * slice's tag and comment are shown in the document as they are written (the
 * custom view's `[Slice: tag] (comment)`), not read from the file the scan
 * redacted: a secret in either, from the config, the side file or an MCP
 * call, is redacted here.
 *
 * @example
 * ```ts
 * import { attachSideSlices } from "./slices_file.ts";
 * // await attachSideSlices(resolution.targets, config, warn);
 * ```
 */
export async function attachSideSlices(
  targets: Target[],
  config: ResolvedConfig,
  warn: (message: string) => void,
): Promise<void> {
  const side = await sideSlices(config, warn);
  for (const target of targets) {
    const own = target.entry.slices ?? [];
    const more = side.get(target.path) ?? [];
    if (!own.length && !more.length) continue;
    const slices = redactedLabels([...own, ...more], config.secrets.rules);
    // An entry left as it was keeps its identity (the render memo is keyed by it).
    if (!more.length && slices.every((s, i) => s === own[i])) continue;
    target.entry = { ...target.entry, slices };
  }
}

/** The side file's slices by path; none when it is missing, or cannot be read (a warning). */
async function sideSlices(
  config: ResolvedConfig,
  warn: (message: string) => void,
): Promise<Map<string, Slice[]>> {
  const name = relative(config.root, config.slicesFile).split(sep).join("/");
  const byPath = new Map<string, Slice[]>();
  let slices: FileSlice[];
  try {
    slices = await readSlicesFile(config.slicesFile, name);
  } catch (error) {
    warn(error instanceof Error ? error.message : String(error));
    return byPath;
  }
  for (const { path: raw, ...slice } of slices) {
    const path = raw.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
    byPath.set(path, [...(byPath.get(path) ?? []), slice]);
  }
  return byPath;
}

/**
 * The slices with a secret in a tag or a comment redacted (slop's rules and `rules`); a slice
 * with none is the same object.
 *
 * @example
 * ```ts
 * import { redactedLabels } from "./slices_file.ts";
 * redactedLabels([{ startLine: 1, endLine: 2, comment: `key ghp_${"a1B2".repeat(9)}` }]);
 * // [{ startLine: 1, endLine: 2, comment: "key [REDACTED:github]" }]
 * ```
 */
export function redactedLabels(slices: Slice[], rules: Record<string, string> = {}): Slice[] {
  return slices.map((slice) => {
    const tag = slice.tag === undefined ? undefined : redactMessage(slice.tag, rules);
    const comment = slice.comment === undefined ? undefined : redactMessage(slice.comment, rules);
    if (tag === slice.tag && comment === slice.comment) return slice;
    return {
      ...slice,
      ...(tag === undefined ? {} : { tag }),
      ...(comment === undefined ? {} : { comment }),
    };
  });
}
