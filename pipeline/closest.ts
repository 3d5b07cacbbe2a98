/**
 * "Did you mean …?": the known name closest to a mistyped one. A module of its own, with no
 * imports, so that the command line's argument parser loads nothing else before a command runs
 * (the config's validator, `schema.ts`, loads the secret rules to redact the values it quotes).
 *
 * @module
 */

/**
 * The candidate closest to `word` by edit distance, if close enough.
 *
 * @example
 * ```ts
 * import { closest } from "./closest.ts";
 * closest("budgte", ["budget", "files"]); // "budget"
 * ```
 */
export function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/**
 * Edit distance where two adjacent letters swapped count as one edit, as one insertion, deletion
 * or substitution does (optimal string alignment): swapped letters are the commonest typo, and as
 * two edits `--prot` was as far from `--port` as from `--root`.
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j], before[j - 2] + 1);
      }
    }
    before = last;
    last = row;
  }
  return last[b.length];
}
