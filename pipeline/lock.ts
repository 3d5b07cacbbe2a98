/**
 * The prefix lock (`slop.lock`): the stable prefix pinned block by block, plus
 * the order state `slop check` needs to compute the same bytes on every
 * machine. Plain text, tab-separated, one line per block:
 *
 * ```
 * # slop.lock v1: ...
 * # id	sha256	bytes	tokens	content	changes	last
 * files	<sha256>	10	3	-	-	-
 * files:src/a.ts	<sha256>	120	41	<16 hex>	1.02735	3
 * total	<sha256 of the prefix>	130	44	-	12.5	3
 * ```
 *
 * `content` (hash of the file's rendered view, whatever the output format),
 * `changes` (decayed change count) and `last` (generation of the last change)
 * are set on file blocks; on the total line `changes` is the decayed number
 * of changing builds observed (what counts are divided by) and `last` the
 * generation counter.
 *
 * @module
 */

import type { PlacedBlock } from "./types.ts";
import type { OrderEntry, OrderState } from "./order_state.ts";
import { quote } from "./schema.ts";
import { errorText } from "./error_text.ts";
import { readSettingText } from "./helpers.ts";
import { firstIndex } from "./_first_index.ts";

/** One pinned block. */
export interface LockLine {
  /** Block id (`files`, `files:src/a.ts`, `screenshots`, ...). */
  id: string;
  /** sha256 of the block's bytes. */
  sha256: string;
  /** Block length in bytes. */
  bytes: number;
  /** Tokens of the block (o200k unless `budget.tokenizer` says otherwise). */
  tokens: number;
  /** Content key of the file's rendered view (file blocks). */
  content?: string;
  /** Decayed change count (file blocks). */
  changes?: number;
  /** Generation of the last change (file blocks). */
  last?: number;
}

/** A parsed or computed lock. */
export interface Lock {
  /** Stable-prefix blocks in document order. */
  lines: LockLine[];
  /** The whole prefix. */
  total: { sha256: string; bytes: number; tokens: number };
  /** The order state's generation counter. */
  generation: number;
  /** The order state's decayed number of observed changing builds. */
  weight?: number;
  /** The tokenizer of the token counts when it is not o200k (`budget.tokenizer`). */
  tokenizer?: "cl100k";
}

/** The header line every lock starts with. */
const LOCK_HEADER =
  "# slop.lock v1: the pinned stable prefix, one block per line; re-pin with `slop check --update`";

const COLUMNS = "# id\tsha256\tbytes\ttokens\tcontent\tchanges\tlast";

/** The line naming the tokenizer of a lock's counts (absent: o200k). */
const TOKENIZER_LINE = "# tokens counted by: ";

/**
 * The lock of a build: its stable-prefix blocks, with the order state's
 * statistics on file blocks.
 *
 * @example
 * ```ts
 * import { lockFromBlocks } from "./lock.ts";
 * const lock = lockFromBlocks([], { bytes: 0, sha256: "e3b0", tokens: 0 });
 * lock.lines.length; // 0
 * ```
 */
export function lockFromBlocks(
  prefixBlocks: PlacedBlock[],
  prefix: { bytes: number; sha256: string; tokens: number },
  order?: OrderState,
): Lock {
  const stats = new Map<string, OrderEntry>(order?.entries.map((e) => [e.path, e]) ?? []);
  return {
    lines: prefixBlocks.map((b) => {
      const entry = b.section === "files" && b.source ? stats.get(b.source) : undefined;
      return {
        id: b.id,
        sha256: b.sha256,
        bytes: b.length,
        tokens: b.tokens,
        ...(entry
          ? { content: entry.sha256, changes: round(entry.changes), last: entry.last }
          : {}),
      };
    }),
    total: { sha256: prefix.sha256, bytes: prefix.bytes, tokens: prefix.tokens },
    generation: order?.generation ?? 0,
    ...(order?.weight !== undefined ? { weight: round(order.weight) } : {}),
  };
}

function round(n: number): number {
  return Number(n.toFixed(6));
}

/**
 * The text of a lock file.
 *
 * @example
 * ```ts
 * import { formatLock } from "./lock.ts";
 * formatLock({ lines: [], total: { sha256: "x", bytes: 0, tokens: 0 }, generation: 0 });
 * ```
 */
export function formatLock(lock: Lock): string {
  const cell = (v: number | undefined) => v === undefined ? "-" : String(v);
  const rows = lock.lines.map((l) =>
    [escapeId(l.id), l.sha256, l.bytes, l.tokens, l.content ?? "-", cell(l.changes), cell(l.last)]
      .join("\t")
  );
  const t = lock.total;
  rows.push(
    ["total", t.sha256, t.bytes, t.tokens, "-", cell(lock.weight), lock.generation].join("\t"),
  );
  // Only a lock that counts otherwise says so: an o200k lock reads as before.
  const counts = lock.tokenizer ? [`${TOKENIZER_LINE}${lock.tokenizer}`] : [];
  return [LOCK_HEADER, ...counts, COLUMNS, ...rows].join("\n") + "\n";
}

/**
 * A lock file that cannot be read; the message names the file and line.
 *
 * @example
 * ```ts
 * import { LockError } from "./lock.ts";
 * new LockError('Invalid lock "slop.lock": no total line').name; // "LockError"
 * ```
 */
export class LockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LockError";
  }
}

/** The tokenizer a lock's tokenizer line names; `bad` makes the error for another name. */
function lockTokenizer(row: string, bad: (why: string) => LockError): "o200k" | "cl100k" {
  const name = row.slice(TOKENIZER_LINE.length).trim();
  if (name !== "cl100k" && name !== "o200k") {
    throw bad(`tokenizer ${quote(name)} is not "o200k" or "cl100k"`);
  }
  return name;
}

/**
 * Parse a lock file's text; `name` appears in errors.
 *
 * @example
 * ```ts
 * import { formatLock, parseLock } from "./lock.ts";
 * const text = formatLock({ lines: [], total: { sha256: "x", bytes: 0, tokens: 0 }, generation: 2 });
 * parseLock(text, "slop.lock").generation; // 2
 * ```
 */
export function parseLock(text: string, name: string): Lock {
  const lines: LockLine[] = [];
  let total: Lock["total"] | undefined;
  let totalRow = 0;
  let generation = 0;
  let weight: number | undefined;
  let tokenizer: Lock["tokenizer"];
  // CRLF too: git for Windows checks text files out with CRLF (core.autocrlf), and the lock
  // must read the same there (ids never hold a raw CR: escapeId writes it as `\r`).
  const ids = new Set<string>();
  text.split(/\r?\n/).forEach((row, i) => {
    const bad = (why: string) => new LockError(`Invalid lock "${name}" line ${i + 1}: ${why}`);
    checkVersion(row, bad);
    if (row.startsWith(TOKENIZER_LINE)) {
      if (lockTokenizer(row, bad) === "cl100k") tokenizer = "cl100k";
      return;
    }
    if (!row.trim() || row.startsWith("#")) return;
    if (total) throw bad("nothing may follow the total line");
    const cells = row.split("\t");
    if (cells.length !== 7) throw bad(`expected 7 tab-separated cells, got ${cells.length}`);
    const [id, sha, bytes, tokens, content, changes, last] = cells;
    const int = (v: string, what: string, signed = false) => lockInt(v, what, { bad, signed });
    if (!/^[0-9a-f]{64}$/.test(sha)) throw bad(`sha256 ${quote(sha)} is not 64 hex digits`);
    if (content !== "-" && !/^[0-9a-f]+$/.test(content)) {
      throw bad(`content ${quote(content)} is not hex digits or "-"`);
    }
    if (id !== "total" && ids.has(id)) throw bad(`block ${quote(unescapeId(id))} is listed twice`);
    ids.add(id);
    if (id === "total") {
      total = { sha256: sha, bytes: int(bytes, "bytes"), tokens: int(tokens, "tokens") };
      totalRow = i + 1;
      generation = last === "-" ? 0 : int(last, "last");
      if (changes !== "-") weight = lockCount(changes, "weight", bad);
      return;
    }
    const line: LockLine = {
      id: unescapeId(id),
      sha256: sha,
      bytes: int(bytes, "bytes"),
      tokens: int(tokens, "tokens"),
    };
    if (content !== "-") line.content = content;
    if (changes !== "-") line.changes = lockCount(changes, "changes", bad);
    // `last` of a file seeded from git history counts back from 0: it may be negative.
    if (last !== "-") line.last = int(last, "last", true);
    lines.push(line);
  });
  if (!total) throw new LockError(`Invalid lock "${name}": no total line`);
  checkTotal(lines, total, `Invalid lock "${name}" line ${totalRow}`);
  return {
    lines,
    total,
    generation,
    ...(weight !== undefined ? { weight } : {}),
    ...(tokenizer ? { tokenizer } : {}),
  };
}

/**
 * Throw when the total line's bytes or tokens are not its blocks' sums, as slop writes them: a
 * hand-edited lock (a line removed, a count changed) would otherwise make `slop check`'s share of
 * invalidated tokens mean nothing.
 */
function checkTotal(lines: LockLine[], total: Lock["total"], at: string): void {
  for (const what of ["bytes", "tokens"] as const) {
    const sum = lines.reduce((n, l) => n + l[what], 0);
    if (sum === total[what]) continue;
    throw new LockError(
      `${at}: the total's ${what} ${quote(String(total[what]))} are not the sum of the ` +
        `blocks' ${what} (${sum}): correct the total, or remove the lock and pin the prefix ` +
        "again with `slop check --update`",
    );
  }
}

/** A lock of another version than v1 (its header line says which) is an error. */
function checkVersion(row: string, bad: (why: string) => LockError): void {
  const version = /^# slop\.lock (v\S*?):?(\s|$)/.exec(row)?.[1];
  if (version !== undefined && version !== "v1") {
    throw bad(`version ${quote(version)} is not one this slop reads (v1)`);
  }
}

/** A whole number of a lock cell (negative only when `signed`), else the error `bad` makes. */
function lockInt(
  value: string,
  what: string,
  { bad, signed = false }: { bad: (why: string) => LockError; signed?: boolean },
): number {
  const n = Number(value);
  if (!signed && /^-\d+$/.test(value)) throw bad(`${what} ${quote(value)} must not be negative`);
  if (!/^-?\d+$/.test(value)) throw bad(`${what} ${quote(value)} is not an integer`);
  if (!Number.isSafeInteger(n)) throw bad(`${what} ${quote(value)} is too large`);
  return n;
}

/** A decayed count of a lock cell: a finite number of at least 0. */
function lockCount(value: string, what: string, bad: (why: string) => LockError): number {
  const n = Number(value);
  if (!/^\d/.test(value) || !Number.isFinite(n)) {
    throw bad(`${what} ${quote(value)} is not a count`);
  }
  return n;
}

/**
 * Read and parse a lock file, or undefined when it does not exist.
 *
 * @example
 * ```ts
 * import { readLock } from "./lock.ts";
 * // const lock = await readLock("/project/slop.lock", "slop.lock");
 * ```
 */
export async function readLock(path: string, name: string = path): Promise<Lock | undefined> {
  let text: string;
  try {
    text = await readSettingText(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    const why = error instanceof Deno.errors.IsADirectory ? "it is a folder" : errorText(error);
    throw new LockError(`Cannot read the lock "${name}": ${why}`);
  }
  return parseLock(text, name);
}

/**
 * The order a lock remembers: its file blocks in order with their statistics.
 *
 * @example
 * ```ts
 * import { orderStateFromLock } from "./lock.ts";
 * // const state = orderStateFromLock(lock);
 * ```
 */
export function orderStateFromLock(lock: Lock): OrderState {
  const entries: OrderEntry[] = [];
  for (const l of lock.lines) {
    if (!l.id.startsWith("files:") || l.content === undefined) continue;
    entries.push({
      path: l.id.slice("files:".length),
      sha256: l.content,
      bytes: l.bytes,
      changes: l.changes ?? 0,
      last: l.last ?? 0,
    });
  }
  return {
    generation: lock.generation,
    ...(lock.weight !== undefined ? { weight: lock.weight } : {}),
    entries,
  };
}

/** What happened at the first divergent block. */
export type DivergenceKind = "changed" | "added" | "removed" | "moved";

/** The first difference between a pinned and a current prefix. */
export interface LockDiff {
  /** Index of the first divergent block. */
  index: number;
  /** What happened there. */
  kind: DivergenceKind;
  /** The block that explains it (the changed, added, removed or moved block). */
  id: string;
  /** Section of that block. */
  section: string;
  /** File of that block, for file blocks. */
  file?: string;
  /** Byte offset of the divergence in the pinned prefix. */
  offset: number;
  /** Pinned and current hash (`changed`). */
  before?: { sha256: string; bytes: number; index: number };
  /** Current hash and place. */
  after?: { sha256: string; bytes: number; index: number };
  /** Pinned prefix tokens from the divergence on (what a provider cache loses). */
  invalidatedTokens: number;
  /** Tokens of the pinned prefix. */
  pinnedTokens: number;
  /** All differences, counted. */
  counts: { changed: number; added: number; removed: number; moved: number };
}

/**
 * Compare a pinned lock with a current one; undefined when the prefixes match.
 *
 * @example
 * ```ts
 * import { diffLock } from "./lock.ts";
 * // const diff = diffLock(pinned, current); // diff?.kind === "changed"
 * ```
 */
export function diffLock(pinned: Lock, current: Lock): LockDiff | undefined {
  const a = pinned.lines;
  const b = current.lines;
  const same = (x: LockLine, y: LockLine) =>
    x.id === y.id && x.sha256 === y.sha256 && x.bytes === y.bytes && x.tokens === y.tokens;
  let i = 0;
  while (i < a.length && i < b.length && same(a[i], b[i])) i++;
  if (i === a.length && i === b.length && pinned.total.sha256 === current.total.sha256) {
    return undefined;
  }
  const at = new Map(b.map((l, k) => [l.id, k]));
  const was = new Map(a.map((l, k) => [l.id, k]));
  const offset = a.slice(0, i).reduce((n, l) => n + l.bytes, 0);
  const valid = a.slice(0, i).reduce((n, l) => n + l.tokens, 0);
  const old = a[i];
  const now = b[i];
  let kind: DivergenceKind;
  let subject: LockLine;
  if (old && !at.has(old.id)) [kind, subject] = ["removed", old];
  else if (old && b[at.get(old.id)!].sha256 !== old.sha256) [kind, subject] = ["changed", old];
  else if (now && !was.has(now.id)) [kind, subject] = ["added", now];
  else [kind, subject] = ["moved", old ?? now];
  const before = was.has(subject.id)
    ? { ...pick(a[was.get(subject.id)!]), index: was.get(subject.id)! }
    : undefined;
  const after = at.has(subject.id)
    ? { ...pick(b[at.get(subject.id)!]), index: at.get(subject.id)! }
    : undefined;
  const [section, ...rest] = subject.id.split(":");
  return {
    index: i,
    kind,
    id: subject.id,
    section,
    ...(rest.length ? { file: rest.join(":") } : {}),
    offset,
    before,
    after,
    invalidatedTokens: pinned.total.tokens - valid,
    pinnedTokens: pinned.total.tokens,
    counts: countDifferences(a, b),
  };
}

function pick(l: LockLine): { sha256: string; bytes: number } {
  return { sha256: l.sha256, bytes: l.bytes };
}

/**
 * The differences by kind. A block is `moved` when its text is the same and it no longer keeps
 * its place among the other unchanged blocks: the fewest such blocks that explain the new order
 * (those off a longest run kept in order). The blocks after one that moved, added or removed only
 * shift, and are not counted.
 */
function countDifferences(a: LockLine[], b: LockLine[]): LockDiff["counts"] {
  const inB = new Map(b.map((l, k) => [l.id, { line: l, at: k }]));
  const inA = new Set(a.map((l) => l.id));
  const counts = { changed: 0, added: 0, removed: 0, moved: 0 };
  // Where each unchanged pinned block is now, in the pinned order.
  const places: number[] = [];
  for (const l of a) {
    const other = inB.get(l.id);
    if (!other) counts.removed++;
    else if (other.line.sha256 !== l.sha256) counts.changed++;
    else places.push(other.at);
  }
  for (const l of b) if (!inA.has(l.id)) counts.added++;
  counts.moved = places.length - longestIncreasing(places);
  return counts;
}

/** The length of the longest strictly increasing subsequence of `values` (n log n). */
function longestIncreasing(values: number[]): number {
  // ends[k]: the least last value of an increasing run of length k + 1 seen so far.
  const ends: number[] = [];
  for (const value of values) {
    ends[firstIndex(ends.length, (i) => ends[i] < value)] = value;
  }
  return ends.length;
}

function escapeId(id: string): string {
  return id.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r");
}

function unescapeId(id: string): string {
  return id.replace(
    /\\(.)/g,
    (_, c) => c === "t" ? "\t" : c === "n" ? "\n" : c === "r" ? "\r" : c,
  );
}

/**
 * The lock file of a persona or preset build: `slop.lock` becomes
 * `slop.worker.lock` for `--persona worker` (`slop.worker.api.lock` with
 * `--preset api` too), so each pinned variant of the document has its own
 * lock and re-pinning one never overwrites another.
 *
 * @example
 * ```ts
 * import { lockVariant } from "./lock.ts";
 * lockVariant("/p/slop.lock", ["worker"]); // "/p/slop.worker.lock"
 * lockVariant("/p/slop.lock", []); // "/p/slop.lock"
 * ```
 */
export function lockVariant(path: string, names: Array<string | undefined>): string {
  const parts = names.filter((n): n is string => !!n);
  if (!parts.length) return path;
  const slash = path.lastIndexOf("/") + 1;
  const dot = path.lastIndexOf(".");
  const [stem, ext] = dot > slash ? [path.slice(0, dot), path.slice(dot)] : [path, ""];
  return `${stem}.${parts.join(".")}${ext}`;
}

/**
 * Whether `path` is the lock or one of its persona/preset variants (same
 * folder, `<stem>.<names><ext>`): none of them is ever bundled.
 *
 * @example
 * ```ts
 * import { isLockVariant } from "./lock.ts";
 * isLockVariant("slop.worker.lock", "slop.lock"); // true
 * isLockVariant("src/slop.ts", "slop.lock"); // false
 * ```
 */
export function isLockVariant(path: string, lock: string): boolean {
  if (path === lock) return true;
  const slash = lock.lastIndexOf("/") + 1;
  const dot = lock.lastIndexOf(".");
  const [stem, ext] = dot > slash ? [lock.slice(0, dot), lock.slice(dot)] : [lock, ""];
  return path.startsWith(`${stem}.`) && path.endsWith(ext) &&
    path.length > stem.length + 1 + ext.length && !path.slice(slash).includes("/");
}
