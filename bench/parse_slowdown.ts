/**
 * Texts tree-sitter parses in time that grows faster than their length, at growing sizes: for
 * each, the parse's time, its steps (what the work budget counts) and the characters the parser
 * read. Steps grow linearly while time and reads do not, which is why each parse also has a
 * deadline (`plugins/view_modes/_parse_deadline.ts`). Unbounded parses: the largest sizes take
 * minutes, so the default sizes are small.
 *
 * ```sh
 * deno run -A bench/parse_slowdown.ts               # 500, 1000, 2000 repeats
 * deno run -A bench/parse_slowdown.ts 1000,4000     # other repeats
 * ```
 *
 * @module
 */

import { parserFor } from "../grammars/parser.ts";

/** A grammar, and a text made of `n` repeats of one piece. */
const SHAPES: [name: string, grammar: string, make: (n: number) => string][] = [
  ["scala a ? b : ", "scala", (n) => `object A { val x = ${"a ? b : ".repeat(n)}c }\n`],
  ["scala a + ", "scala", (n) => `object A { val x = ${"a + ".repeat(n)}c }\n`],
  ["scala (((", "scala", (n) => `object A { val x = ${"(".repeat(n)}x${")".repeat(n)} }\n`],
  ["bash $((f(f(", "bash", (n) => `x=$((${"f(".repeat(n)}a${")".repeat(n)}))\n`],
  ["typescript (((", "typescript", (n) => `x = ${"(".repeat(n)}a${")".repeat(n)};\n`],
];

/** Parse `text` unbounded: milliseconds, steps (100 a progress call) and characters read. */
async function measure(grammar: string, text: string) {
  const parser = await parserFor(grammar);
  let steps = 0;
  let read = 0;
  const start = performance.now();
  const tree = parser.parse(
    (index: number) => {
      const piece = text.slice(index, index + 4096);
      read += piece.length;
      return piece;
    },
    null,
    { progressCallback: () => void (steps += 100) },
  );
  const ms = performance.now() - start;
  tree?.delete();
  return { ms: Math.round(ms), steps, read };
}

if (import.meta.main) {
  const repeats = (Deno.args[0] ?? "500,1000,2000").split(",").map(Number);
  for (const [name, grammar, make] of SHAPES) {
    await measure(grammar, make(1)); // load the grammar
    for (const n of repeats) {
      const text = make(n);
      const { ms, steps, read } = await measure(grammar, text);
      const times = (read / text.length).toFixed(0);
      console.log(
        `${name.padEnd(16)} ${String(text.length).padStart(7)} chars ${
          String(ms).padStart(6)
        } ms ` +
          `${String(steps).padStart(7)} steps ${String(read).padStart(10)} read (${times}x)`,
      );
    }
  }
}
