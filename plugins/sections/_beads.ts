/**
 * Loading Beads issues: `bd list --json --all` when `bd` runs, else the
 * `.beads/issues.jsonl` export. Bad lines are reported and skipped.
 *
 * @module
 */

import { join } from "../../pipeline/paths.ts";
import { concatBytes, endsWithSlop, readSettingText, stopChild } from "../../pipeline/helpers.ts";

/** One Beads issue, as much of it as the progress section uses. */
export interface BeadsIssue {
  /** Issue id (`bd-a1b2`, `bd-a1b2.3`). */
  id: string;
  /** One-line title. */
  title: string;
  /** `open`, `in_progress`, `blocked`, `deferred`, `hooked`, `pinned`, `closed`, `tombstone` or custom. */
  status: string;
  /** 0 (highest) to 4; absent when the issue has none. */
  priority?: number;
  /** Free text (markdown). */
  description: string;
  /** When it was closed (bd's `closed_at`, else `updated_at`), in ms since 1970; absent when unknown. */
  closedAt?: number;
}

/** Where the issues came from, and what was wrong with the input. */
export interface BeadsLoad {
  /** Issues in input order (a later duplicate id replaces an earlier one). */
  issues: BeadsIssue[];
  /** `bd` (the command) or the JSONL path relative to the root. */
  source: string;
  /** Problems, each naming its source and line. */
  warnings: string[];
}

/** Longest issue id kept, in characters: a longer one is skipped, since a cut id names nothing. */
const ID_CHARS = 200;

/** The JSONL export inside a Beads project. */
const BEADS_JSONL = ".beads/issues.jsonl";

/**
 * Turn one decoded JSON value into an issue, or say why it is not one.
 */
function toIssue(value: unknown): BeadsIssue | string {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return "expected an issue object";
  }
  const record = value as Record<string, unknown>;
  if (typeof record.id !== "string" || !record.id.trim()) return `expected a string "id"`;
  const id = record.id.trim();
  if (id.length > ID_CHARS) return `the "id" is ${id.length} characters, over ${ID_CHARS}`;
  // A priority is a whole number (Beads uses 0 to 4) written as a number or as "P2"; any other
  // value is left out rather than shown as `P1e+300` or `P-1`.
  const priority = typeof record.priority === "number" && Number.isInteger(record.priority) &&
      record.priority >= 0 && record.priority < 1e6
    ? record.priority
    : typeof record.priority === "string" && /^P?\d{1,6}$/i.test(record.priority)
    ? Number(record.priority.replace(/^P/i, ""))
    : undefined;
  return {
    id,
    title: typeof record.title === "string" ? record.title : "",
    status: typeof record.status === "string" && record.status.trim()
      ? record.status.trim()
      : "open",
    priority,
    description: typeof record.description === "string" ? record.description : "",
    closedAt: timeOf(record.closed_at) ?? timeOf(record.updated_at),
  };
}

/** A timestamp's time in ms (an ISO string, as bd writes it), or undefined. */
function timeOf(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : undefined;
}

/**
 * Parse a JSONL export. Each bad line becomes a warning with its line
 * number; the other lines are kept.
 *
 * @example
 * ```ts
 * import { parseBeadsJsonl } from "./_beads.ts";
 * parseBeadsJsonl('{"id":"bd-1","title":"T","status":"open"}\nnope\n', "issues.jsonl");
 * // { issues: [...one issue], warnings: ['Skipped "issues.jsonl" line 2: not valid JSON'] }
 * ```
 */
export function parseBeadsJsonl(
  text: string,
  name: string,
): { issues: BeadsIssue[]; warnings: string[] } {
  const issues: BeadsIssue[] = [];
  const warnings: string[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      warnings.push(`Skipped "${name}" line ${i + 1}: not valid JSON`);
      return;
    }
    const issue = toIssue(value);
    if (typeof issue === "string") warnings.push(`Skipped "${name}" line ${i + 1}: ${issue}`);
    else issues.push(issue);
  });
  return { issues, warnings };
}

/**
 * Parse the output of `bd list --json`: a raw array of issues or the
 * `{ schema_version, data }` envelope. Throws when it is neither.
 *
 * @example
 * ```ts
 * import { parseBdList } from "./_beads.ts";
 * parseBdList('{"schema_version":1,"data":[{"id":"bd-1","status":"open"}]}');
 * ```
 */
export function parseBdList(text: string): { issues: BeadsIssue[]; warnings: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `Cannot parse the output of "bd list --json --all": ${
        error instanceof Error ? error.message : error
      }`,
    );
  }
  const list = Array.isArray(value)
    ? value
    : value && typeof value === "object" && Array.isArray((value as { data?: unknown }).data)
    ? (value as { data: unknown[] }).data
    : undefined;
  if (!list) {
    throw new Error(
      `Cannot read the output of "bd list --json --all": expected an array or { schema_version, data }`,
    );
  }
  const issues: BeadsIssue[] = [];
  const warnings: string[] = [];
  list.forEach((item, i) => {
    const issue = toIssue(item);
    if (typeof issue === "string") {
      warnings.push(`Skipped item ${i + 1} of "bd list --json --all": ${issue}`);
    } else issues.push(issue);
  });
  return { issues, warnings };
}

/** How long `bd list` may run before it is stopped and the export read instead. */
const BD_TIMEOUT_MS = 30_000;

/** The most of `bd list`'s output read (the export's own limit is far lower in practice). */
const BD_OUTPUT_LIMIT = 256 * 1024 * 1024;

/** The most of `bd`'s stderr kept for its failure's reason (the rest is read and dropped). */
const BD_STDERR_KEPT = 64 * 1024;

/**
 * Run `bd list --json --all` in `root`. Resolves to `undefined` when the command is not on PATH;
 * rejects when it runs and fails, runs past `timeoutMs` or prints over `outputLimit` bytes (it is
 * stopped: a `bd` waiting on its database's lock or daemon held the build, and went on after it).
 */
async function runBd(
  root: string,
  command: string,
  limits: { timeoutMs: number; outputLimit: number },
): Promise<string | undefined> {
  const { timeoutMs, outputLimit } = limits;
  let child: Deno.ChildProcess;
  try {
    // A bd left waiting when slop is stopped by a signal would run for good: it ends with slop.
    child = endsWithSlop(command, {
      args: ["list", "--json", "--all"],
      cwd: root,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const ended = new AbortController();
  let reason: string | undefined;
  const stop = (why: string) => {
    if (reason !== undefined) return;
    reason = why;
    stopChild(child);
    ended.abort(); // a process it started may hold the pipes open after it ends
  };
  const timer = setTimeout(() => stop(`gave no answer within ${timeoutMs} ms`), timeoutMs);
  const over = () => stop(`printed over ${outputLimit} bytes`);
  const [stdout, stderr, status] = await Promise.all([
    readStream(child.stdout, ended.signal, { limit: outputLimit, over }),
    readStream(child.stderr, ended.signal, { limit: BD_STDERR_KEPT }),
    child.status,
  ]).finally(() => clearTimeout(timer));
  const dec = new TextDecoder();
  if (reason !== undefined) throw new Error(`"${command} list --json --all" ${reason}`);
  if (!status.success) {
    const detail = dec.decode(stderr).trim().split("\n")[0] || `exit code ${status.code}`;
    throw new Error(`"${command} list --json --all" failed: ${detail}`);
  }
  return dec.decode(stdout);
}

/**
 * The bytes of `stream` until it ends or `stop` aborts, at most `limit` of them: past it `over` is
 * called and reading goes on (dropping the bytes, so the writer never blocks on a full pipe) until
 * `stop` aborts or the stream ends.
 */
async function readStream(
  stream: ReadableStream<Uint8Array>,
  stop: AbortSignal,
  options: { limit: number; over?: () => void },
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  stop.addEventListener("abort", cancel, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (!stop.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > options.limit) options.over?.();
      else chunks.push(value);
      size += value.length;
    }
  } catch {
    // Cancelled as `stop` aborted: what was read is the answer (an error, not used).
  } finally {
    stop.removeEventListener("abort", cancel);
  }
  return concatBytes(chunks);
}

/**
 * Load the issues of the Beads project in `root`: from `bd` when it is on
 * PATH and succeeds, otherwise from `.beads/issues.jsonl` (a failing `bd`
 * is a warning). Resolves to `undefined` when there is no issue source.
 * A `bd` running past `timeoutMs` (30 s) or printing
 * over `outputLimit` bytes is stopped, and is a failing one.
 *
 * @example
 * ```ts
 * import { loadBeads } from "./_beads.ts";
 * // const loaded = await loadBeads("/repo", { bd: "bd" });
 * ```
 */
export async function loadBeads(
  root: string,
  options: {
    bd?: string | false;
    allowOutsideRoot?: boolean;
    timeoutMs?: number;
    outputLimit?: number;
  } = {},
): Promise<BeadsLoad | undefined> {
  const warnings: string[] = [];
  if (options.bd !== false) {
    const command = options.bd ?? "bd";
    try {
      const text = await runBd(root, command, {
        timeoutMs: options.timeoutMs ?? BD_TIMEOUT_MS,
        outputLimit: options.outputLimit ?? BD_OUTPUT_LIMIT,
      });
      if (text !== undefined) {
        const parsed = parseBdList(text);
        return { issues: parsed.issues, source: command, warnings: parsed.warnings };
      }
    } catch (error) {
      warnings.push(
        `${error instanceof Error ? error.message : error}; reading "${BEADS_JSONL}" instead`,
      );
    }
  }
  let text: string;
  try {
    text = await readSettingText(join(root, BEADS_JSONL), {
      within: options.allowOutsideRoot ? undefined : root,
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return warnings.length ? { issues: [], source: BEADS_JSONL, warnings } : undefined;
    }
    throw new Error(
      `Cannot read "${BEADS_JSONL}": ${error instanceof Error ? error.message : error}`,
    );
  }
  const parsed = parseBeadsJsonl(text, BEADS_JSONL);
  return {
    issues: parsed.issues,
    source: BEADS_JSONL,
    warnings: [...warnings, ...parsed.warnings],
  };
}
