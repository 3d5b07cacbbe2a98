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
): Promise<string[] | undefined> {
  const language = languageOf(path, text);
  if (!language) return undefined;
  if (text === undefined || text.length > MAX_PARSE_CHARS) return [];
  // What the parse depends on: the text and its language (the same text under a `#!` line
  // and in a `Rakefile` is bash once and Ruby once).
  let found = memo.get(text)?.get(language.id);
  if (!found) {
    const names = new Set<string>();
    try {
      const view = await renderCodeShared(path, text, { maxWork: RANK_MAX_WORK });
      for (const s of view?.symbols ?? []) {
        if (KINDS.has(s.kind) && s.name.length >= 3) names.add(s.name);
        if (names.size >= MAX_DEFS) break;
      }
    } catch {
      // Over the work budget or unparsable: no names; the file still ranks by its words.
    }
    found = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    remember(text, language.id, found);
  }
  return found;
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
