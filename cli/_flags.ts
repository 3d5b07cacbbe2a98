/**
 * Checks of flag values shared by several commands; each returns the error
 * message (naming the flag and the value) or undefined.
 *
 * @module
 */

import { resolve } from "../pipeline/paths.ts";
import { blankText, quote } from "../pipeline/schema.ts";
import { binaryReason, concatBytes, readInputBytes } from "../pipeline/helpers.ts";
import type { OutputFormat, ResolvedConfig } from "../pipeline/types.ts";

/** The document formats of `--format`. */
const FORMATS = ["markdown", "xml", "json"];

/** The strategies of `--strategy`. */
const STRATEGIES = ["auto", "summarize", "full"];

/**
 * The error for a `--format` value, if it is not a document format.
 *
 * @example
 * ```ts
 * import { formatFlagError } from "./_flags.ts";
 * formatFlagError("yaml"); // 'Invalid --format "yaml": expected markdown, xml or json'
 * ```
 */
export function formatFlagError(format: string | undefined): string | undefined {
  if (format === undefined || FORMATS.includes(format)) return undefined;
  return `Invalid --format "${format}": expected markdown, xml or json`;
}

/**
 * The error for a `--strategy` value, if it is not a strategy.
 *
 * @example
 * ```ts
 * import { strategyFlagError } from "./_flags.ts";
 * strategyFlagError("auto"); // undefined
 * ```
 */
export function strategyFlagError(strategy: string | undefined): string | undefined {
  if (strategy === undefined || STRATEGIES.includes(strategy)) return undefined;
  return `Invalid --strategy "${strategy}": expected auto, summarize or full`;
}

/**
 * A flag's value as a number when it is written in plain decimal digits (`12`, or `2.5` with
 * `fraction`), else `NaN`: `Number()` alone would also take `0x10`, `1e3`, ` 5`, `Infinity` and
 * numbers past 2^53, where a typo or a unit slipped in. A number (from a library call) stays.
 *
 * @example
 * ```ts
 * import { flagNumber } from "./_flags.ts";
 * flagNumber("12"); // 12
 * flagNumber("0x10"); // NaN
 * flagNumber("2.5", { fraction: true }); // 2.5
 * ```
 */
export function flagNumber(value: string | number, options: { fraction?: boolean } = {}): number {
  // A library caller may give a number.
  if (typeof value === "number") return Number.isFinite(value) ? value : NaN;
  const pattern = options.fraction ? /^\d+(\.\d+)?$/ : /^\d+$/;
  const n = Number(value);
  return pattern.test(value) && Number.isSafeInteger(Math.trunc(n)) ? n : NaN;
}

/** The flags that override a loaded config's settings. */
export interface ConfigOverrides {
  /** `--format`: the document format (checked with {@linkcode formatFlagError} first). */
  format?: string;
  /** `false` with `--no-cache`. */
  cache?: boolean;
  /** `--fail-on-secret`. */
  failOnSecret?: boolean;
}

/**
 * Put `--format`, `--no-cache` and `--fail-on-secret` over a loaded config's settings.
 *
 * @example
 * ```ts
 * import { applyOverrides } from "./_flags.ts";
 * // const config = applyOverrides(await loadConfig(), { format: "xml" });
 * ```
 */
export function applyOverrides(config: ResolvedConfig, flags: ConfigOverrides): ResolvedConfig {
  if (flags.format) config.output.format = flags.format as OutputFormat;
  if (flags.cache === false) config.cache.enabled = false;
  if (flags.failOnSecret) config.secrets.failOnSecret = true;
  return config;
}

/** The most a task file may hold: a task is an issue's text (and `/dev/zero` never ends). */
const MAX_TASK_BYTES = 10 * 1024 * 1024;

/** A stream's bytes, up to {@linkcode MAX_TASK_BYTES}; more throws (and closes the stream). */
async function readCapped(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_TASK_BYTES) {
      throw new RangeError(`it holds over ${MAX_TASK_BYTES} bytes, more than a task's text`);
    }
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}

/**
 * The task of `--task TEXT` or `--task-file PATH` (`-`: standard input; a relative path is read
 * from `cwd`), checked: not both, not empty, a file that can be read as UTF-8 (or UTF-16 with its
 * byte order mark). Throws an error
 * that names the flag or the path; `undefined` when neither is given.
 *
 * @example
 * ```ts
 * import { taskFlag } from "./_flags.ts";
 * await taskFlag({ task: "fix the retry loop" }); // "fix the retry loop"
 * ```
 */
export async function taskFlag(
  flags: { task?: string; taskFile?: string },
  cwd?: string,
): Promise<string | undefined> {
  if (flags.task !== undefined && flags.taskFile !== undefined) {
    throw new Error("Give the task with --task or with --task-file, not both");
  }
  if (flags.task !== undefined) {
    if (blankText(flags.task)) {
      throw new Error(`Invalid --task ${quote(flags.task)}: the task is empty`);
    }
    return flags.task;
  }
  if (flags.taskFile === undefined) return undefined;
  const path = flags.taskFile;
  let text: string;
  let encoding = "utf-8";
  try {
    // A named path may be a pipe (`<(gh issue view 12)`) or a FIFO: read as one, never waited
    // on for good; a device or a socket is refused unread.
    const bytes = path === "-"
      ? await readCapped(Deno.stdin.readable)
      : await readInputBytes(cwd === undefined ? path : resolve(cwd, path), {
        limit: MAX_TASK_BYTES,
        limitName: "a task's text",
      });
    encoding = taskEncoding(bytes);
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? "file not found"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a folder"
      : error instanceof TypeError
      ? (encoding === "utf-8"
        ? "not UTF-8 text"
        : "not UTF-16 text, though it starts with its mark")
      : error instanceof Error
      ? plainReason(error.message)
      : String(error);
    throw new Error(`Cannot read the task file ${quote(path)} (--task-file): ${why}`);
  }
  const binary = binaryReason(text);
  if (binary) throw new Error(`Cannot read the task file ${quote(path)} (--task-file): ${binary}`);
  if (blankText(text)) throw new Error(`The task file ${quote(path)} (--task-file) is empty`);
  return text;
}

/**
 * A task file's encoding: UTF-16 when it starts with that byte order mark (Windows PowerShell
 * 5.1 writes `gh issue view 12 > issue.md` so, and Notepad's "Unicode"), else UTF-8 (whose mark
 * is dropped). The decoder drops the mark it names.
 */
function taskEncoding(bytes: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return "utf-8";
}

/** A system error's message without Deno's code, call and path (`File name too long`). */
function plainReason(message: string): string {
  const reason = message.replace(/ \(os error \d+\).*$/s, "");
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}
