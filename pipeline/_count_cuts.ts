/**
 * Where a text may be cut so that the token counts of the pieces add up to
 * the count of the whole: at a line start whose first character is neither
 * whitespace nor `/`, where no piece of the o200k/cl100k pre-split can cross
 * (a piece holding a newline holds only whitespace or, after punctuation,
 * newlines and slashes after it). Counting in pieces (`count.ts`), early
 * counts of the middles of texts (`accel/precount.ts`) and counts by difference
 * (`accel/count_diff.ts`) all cut here.
 *
 * @module
 */

/**
 * Whether `at` is such a line start of `text`.
 *
 * @example
 * ```ts
 * import { isCountCut } from "./_count_cuts.ts";
 * isCountCut("a\nb", 2); // true
 * isCountCut("a\n b", 2); // false
 * ```
 */
export function isCountCut(text: string, at: number): boolean {
  return text[at - 1] === "\n" && !/[\s/]/.test(text[at]);
}

/**
 * Cut a text into pieces of about `size` characters (longer where no cut is
 * near) at such line starts, so their counts add up to the count of the whole.
 *
 * @example
 * ```ts
 * import { splitForCounting } from "./_count_cuts.ts";
 * splitForCounting("a\nb\n", 1); // ["a\n", "b\n"]
 * ```
 */
export function splitForCounting(text: string, size: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (text.length - start > size) {
    let cut = -1;
    for (let nl = text.indexOf("\n", start + size - 1); nl >= 0 && nl + 1 < text.length;) {
      if (isCountCut(text, nl + 1)) {
        cut = nl + 1;
        break;
      }
      nl = text.indexOf("\n", nl + 1);
    }
    if (cut < 0) break;
    out.push(text.slice(start, cut));
    start = cut;
  }
  out.push(text.slice(start));
  return out;
}

/** Texts shorter than this are counted with their block (their head and tail are most of them). */
const MIN_CHARS = 2048;

/**
 * The span of a text from its first to its last possible cut: a line start
 * (after the first character, before the end) whose character is neither
 * whitespace nor `/`; or the text's start when its first character is
 * neither, and its end when it ends with a newline (whether those two cut
 * the block is checked where the block is known: `knownCount()` of `accel/precount.ts`).
 * `undefined` when there is no such span.
 *
 * @example
 * ```ts
 * import { countableSpan } from "./_count_cuts.ts";
 * countableSpan("/* a *\/\nx = 1\ny = 2"); // [8, 14]
 * countableSpan("{\n  \"a\": 1\n}\n"); // [0, 13]
 * ```
 */
export function countableSpan(text: string): [number, number] | undefined {
  let start = text.length && !/[\s/]/.test(text[0]) ? 0 : -1;
  for (
    let nl = text.indexOf("\n");
    start < 0 && nl >= 0 && nl + 1 < text.length;
    nl = text.indexOf("\n", nl + 1)
  ) {
    if (isCountCut(text, nl + 1)) start = nl + 1;
  }
  if (start < 0) return undefined;
  if (text.endsWith("\n")) return text.length > start ? [start, text.length] : undefined;
  for (
    let nl = text.lastIndexOf("\n", text.length - 2);
    nl >= start;
    nl = text.lastIndexOf("\n", nl - 1)
  ) {
    if (isCountCut(text, nl + 1)) return nl + 1 > start ? [start, nl + 1] : undefined;
    if (nl === 0) break;
  }
  return undefined;
}

/**
 * The span of `text` counted early ({@linkcode countableSpan}), or none when
 * the text is short enough to be counted with its block: a scan worker keeps
 * only the texts that have one.
 *
 * @example
 * ```ts
 * import { earlySpan } from "./_count_cuts.ts";
 * earlySpan("x = 1\n"); // undefined (short: counted with its block)
 * earlySpan("x = 1\n".repeat(1000)); // [0, 6000]
 * ```
 */
export function earlySpan(text: string): [number, number] | undefined {
  return text.length < MIN_CHARS ? undefined : countableSpan(text);
}
