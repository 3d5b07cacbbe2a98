/**
 * The "did you mean" of an entry or path that matched no file: the first
 * project file that matches it without regard to case, found in an index of
 * the candidates' lowercase forms made once per listing (so thousands of
 * entries that match nothing do not each lowercase every file).
 *
 * @module
 */

import { comparePaths, isGlob } from "./helpers.ts";
import { loadGlobMatcher } from "./_path_matchers.ts";
import { globPrefix } from "./path_starts.ts";
import { firstIndex } from "./_first_index.ts";

/**
 * A case-insensitive match for an entry that matched nothing.
 *
 * @example
 * ```ts
 * import { hintFor } from "./_resolve_hints.ts";
 * await hintFor("README.MD", ["README.md", "src/a.ts"]); // "README.md"
 * ```
 */
export async function hintFor(rel: string, candidates: string[]): Promise<string | undefined> {
  const index = caseBlindIndex(candidates);
  if (isGlob(rel)) {
    const match = await loadGlobMatcher(rel, { dot: true, nocase: true });
    // Only the candidates whose lowercase form starts as the glob's does: a letter outside ASCII
    // never matches one inside it without case, so the start is cut at the first such letter.
    const start = globPrefix(rel).replace(/[^\0-\x7f][^]*$/, "").toLowerCase();
    const low = firstIndex(index.sorted.length, (i) => index.sorted[i][0] < start);
    let first = -1;
    for (let i = low; i < index.sorted.length && index.sorted[i][0].startsWith(start); i++) {
      const at = index.sorted[i][1];
      if ((first < 0 || at < first) && match(candidates[at])) first = at;
    }
    return first < 0 ? undefined : candidates[first];
  }
  const lower = rel.toLowerCase();
  return index.first.get(lower) ?? index.under.get(lower.replace(/\/$/, ""));
}

/** The lowercase forms of a list of candidates, for the hints of entries that matched nothing. */
interface CaseBlindIndex {
  /** The first candidate of each lowercase path. */
  first: Map<string, string>;
  /** The first candidate under each lowercase folder (the text before a `/` of a lowercase path). */
  under: Map<string, string>;
  /** Each lowercase path and its candidate's place, sorted. */
  sorted: Array<[string, number]>;
}

const CASE_BLIND = new WeakMap<string[], CaseBlindIndex>();

/**
 * The candidates' lowercase forms, made once for a list: thousands of entries that match nothing
 * each lowercased every candidate for their hint (time growing as their product).
 */
function caseBlindIndex(candidates: string[]): CaseBlindIndex {
  const known = CASE_BLIND.get(candidates);
  if (known) return known;
  const index: CaseBlindIndex = { first: new Map(), under: new Map(), sorted: [] };
  for (const [at, candidate] of candidates.entries()) {
    const lower = candidate.toLowerCase();
    if (!index.first.has(lower)) index.first.set(lower, candidate);
    for (let i = lower.indexOf("/"); i >= 0; i = lower.indexOf("/", i + 1)) {
      const folder = lower.slice(0, i);
      if (!index.under.has(folder)) index.under.set(folder, candidate);
    }
    index.sorted.push([lower, at]);
  }
  index.sorted.sort((a, b) => comparePaths(a[0], b[0]));
  CASE_BLIND.set(candidates, index);
  return index;
}
