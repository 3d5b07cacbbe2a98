/**
 * The names a code file defines (functions, methods, classes, types), read
 * from the code views' symbols: what ranking files for a task links files by
 * (`pipeline/rank.ts`, `RankOptions.definitions`).
 *
 * Bounded: a file over {@linkcode MAX_PARSE_CHARS} is not parsed, a parse has
 * the work budget {@linkcode RANK_MAX_WORK} (a file over either defines
 * nothing and still ranks by its words), and at most {@linkcode MAX_DEFS}
 * names are kept a file.
 *
 * @module
 */

import { languageOf } from "../../grammars/languages.ts";
import { cacheKey, isClockError, sha256Hex } from "../../pipeline/helpers.ts";
import type { Store } from "../../pipeline/types.ts";
import { isOverBudget } from "./_code.ts";
import { renderCodeShared } from "./_code_pool.ts";

/** Most names kept a file (the first ones in source order). */
export const MAX_DEFS = 1000;
/** A file longer than this (characters) is not parsed: it defines nothing. */
export const MAX_PARSE_CHARS = 256 * 1024;
/** The work budget of one file's parse (units of the code views' `maxWork`). */
export const RANK_MAX_WORK = 1_000_000;

/** Symbol kinds that are definitions for ranking (not attributes, variables or imports). */
const KINDS = new Set([
  "function",
  "method",
  "class",
  "struct",
  "interface",
  "type",
  "enum",
  "trait",
]);

/** Options of {@linkcode definedNames}. */
export interface DefinedNamesOptions {
  /**
   * Where names found are kept between builds (the build's content-hash cache): a text parsed
   * once is not parsed again while its language and `version` stay. Only what the text decides
   * is kept (its names, or none over the work budget), never the end of a failed thread (a parse
   * stopped by its clock fails the build). @default {undefined} kept in this process only
   */
  store?: Store;
  /** The version of the view that reads the names (its cache version): joins the key. @default {""} */
  version?: string;
  /** Called before the text is parsed (not when its names are known): get the threads ready. */
  parsing?: () => void;
  /** Milliseconds a parse may take (see `_parse_deadline.ts`). @default {PARSE_DEADLINE_MS} */
  maxParseMs?: number;
}

/**
 * The distinct names `text` defines, sorted (code-unit order), or undefined
 * when no grammar covers `path` (then the file is not code to slop). A binary
 * or unread file (`text` undefined) with a grammar, a file too long to parse
 * and one over its work budget define nothing.
 *
 * @example
 * ```ts
 * import { definedNames } from "./_defined_names.ts";
 * await definedNames("a.py", "class Jar:\n    def add(self): ...\n"); // ["Jar", "add"]
 * await definedNames("README.md", "# Jar\n"); // undefined
 * ```
 */
export async function definedNames(
  path: string,
  text: string | undefined,
  options: DefinedNamesOptions = {},
): Promise<string[] | undefined> {
  const language = languageOf(path, text);
  if (!language) return undefined;
  if (text === undefined || text.length > MAX_PARSE_CHARS) return [];
  // What the parse depends on: the text and its language (the same text under a `#!` line
  // and in a `Rakefile` is bash once and Ruby once).
  let found = memo.get(text)?.get(language.id);
  if (found) return found;
  const { store } = options;
  const key = store && cacheKey([NAMES_KEY, options.version ?? "", language.id, sha256Hex(text)]);
  found = key ? namesOf(await quietly(() => store!.get(key))) : undefined;
  if (!found) {
    options.parsing?.();
    const parsed = await parseNames(path, text, options.maxParseMs);
    found = parsed.names;
    if (key && parsed.settled) await quietly(() => store!.set(key, found));
  }
  remember(text, language.id, found);
  return found;
}

/**
 * What the cache key of a text's names starts with; its second part says how the names are
 * read (bump it when the kinds, {@linkcode MAX_DEFS} or {@linkcode RANK_MAX_WORK} change).
 */
const NAMES_KEY = "slop:defined-names:1";

/**
 * The names a parse of `text` finds (sorted; none over the work budget); `settled` unless the
 * parse ended for a reason the text does not decide (a failed thread): then the file defines
 * nothing this time, and the store does not keep it (this process does, as it keeps any parse's
 * names). A parse stopped by its clock throws its `ClockError`: the ranking would otherwise
 * depend on the machine's speed.
 */
async function parseNames(
  path: string,
  text: string,
  maxParseMs: number | undefined,
): Promise<{ names: string[]; settled: boolean }> {
  const names = new Set<string>();
  try {
    const view = await renderCodeShared(path, text, {
      maxWork: RANK_MAX_WORK,
      ...(maxParseMs === undefined ? {} : { maxParseMs }),
    });
    for (const s of view?.symbols ?? []) {
      if (KINDS.has(s.kind) && s.name.length >= 3) names.add(s.name);
      if (names.size >= MAX_DEFS) break;
    }
  } catch (error) {
    // A clock's stop fails the build: the ranking would depend on the machine's speed.
    if (isClockError(error)) throw error;
    // No names: the file still ranks by its words.
    return { names: [], settled: isOverBudget(error) };
  }
  return { names: [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), settled: true };
}

/** A store's answer, or undefined when it failed: a store that cannot be read only costs speed. */
async function quietly<T>(ask: () => Promise<T>): Promise<T | undefined> {
  try {
    return await ask();
  } catch {
    return undefined;
  }
}

/** Names read back from the store: a sorted list of strings, else (missing, corrupt) undefined. */
function namesOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_DEFS) return undefined;
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== "string" || (i > 0 && !(value[i - 1] < value[i]))) return undefined;
  }
  return value;
}

/**
 * Names found before, by text and language: the same file ranked again (another task on the
 * same tree, the next commit's tree) is not parsed again. Bounded by the characters it holds.
 */
const memo = new Map<string, Map<string, string[]>>();
let memoChars = 0;
const MEMO_CHARS = 64 * 1024 * 1024;

function remember(text: string, language: string, names: string[]): void {
  let byLanguage = memo.get(text);
  if (!byLanguage) {
    memo.set(text, byLanguage = new Map());
    memoChars += text.length;
  }
  byLanguage.set(language, names);
  while (memoChars > MEMO_CHARS && memo.size > 1) {
    const [first] = memo.keys();
    memoChars -= first.length;
    memo.delete(first);
  }
}
