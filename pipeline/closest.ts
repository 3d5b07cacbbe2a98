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

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}
