/**
 * CPU time of the secret scan (`redactSync`) on each line of `tests/secrets/_worst_lines.ts` at
 * two sizes: a line whose time grows more than 3 times as fast as its length (against the
 * smaller size) is printed; those and the slowest lines are the patterns to look at.
 *
 * ```sh
 * deno run -A bench/secret_worst_lines.ts                                   # 10 KB against 100 KB
 * deno run -A bench/secret_worst_lines.ts --scan /work/main/pipeline/_scan.ts
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { worstLines } from "../tests/secrets/_worst_lines.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: { scan: { type: "string" }, small: { type: "string" }, large: { type: "string" } },
});
const scanPath = flags.scan ?? "../pipeline/_scan.ts";
const { redactSync } = await import(new URL(scanPath, import.meta.url).href);
const small = Number(flags.small ?? 10_000);
const large = Number(flags.large ?? 100_000);

/** The fastest of 3 runs, in ms. */
function time(text: string): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    redactSync(text);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

const smalls = new Map(worstLines(small));
const rows: Array<[string, number, number]> = [];
let total = 0;
for (const [name, line] of worstLines(large)) {
  const big = time(line);
  total += big;
  const little = time(smalls.get(name)!);
  rows.push([name, little, big]);
}
rows.sort((a, b) => b[2] - a[2]);
const ratio = large / small;
for (const [name, little, big] of rows) {
  if (big > 50 && big > 3 * ratio * Math.max(little, 0.05)) {
    console.log(`GROWS ${name}: ${little.toFixed(1)} -> ${big.toFixed(1)} ms`);
  }
}
console.log("slowest:");
for (const [name, little, big] of rows.slice(0, 10)) {
  console.log(`  ${name}: ${little.toFixed(1)} -> ${big.toFixed(1)} ms`);
}
console.log(`${rows.length} lines of ${large} characters: ${Math.round(total)} ms in all`);
