/**
 * What slop's own secret rules cost against another tree's: `redactSync` (the rule table, no
 * secretlint) over the `.py` files of the Python standard library (or the folders given; `--ext`
 * picks other files), this tree's scanner and the other's alternating in one process, medians of
 * the runs.
 *
 * ```sh
 * deno run -A bench/secret_scan_cost.ts --against /work/main/pipeline/_scan.ts
 * deno run -A bench/secret_scan_cost.ts --against /work/main/pipeline/_scan.ts --runs 9 DIR...
 * deno run -A bench/secret_scan_cost.ts --against /work/main/pipeline/_scan.ts --ext .ts DIR...
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { join } from "node:path";
import process from "node:process";

interface Scanner {
  redactSync(text: string): { findings: unknown[] };
}

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: {
    against: { type: "string" },
    runs: { type: "string", default: "5" },
    ext: { type: "string", default: ".py" },
  },
  allowPositionals: true,
});
if (!values.against) {
  console.error("Pass --against PATH: another tree's pipeline/_scan.ts");
  Deno.exit(2);
}
const roots = positionals.length ? positionals : await stdlibRoots();
const texts: string[] = [];
for (const root of roots) await collect(root, texts);
const chars = texts.reduce((n, t) => n + t.length, 0);
const here: Scanner = await import("../pipeline/_scan.ts");
const other: Scanner = await import(new URL(values.against, `file://${Deno.cwd()}/`).href);
const runs = Number(values.runs);
const times: { here: number[]; other: number[] } = { here: [], other: [] };
const cpu: { here: number[]; other: number[] } = { here: [], other: [] };
for (let i = 0; i < runs; i++) {
  for (const [name, scanner] of [["other", other], ["here", here]] as const) {
    const { wall, used } = scan(scanner);
    times[name].push(wall);
    cpu[name].push(used);
  }
}
console.log(
  `${texts.length} files, ${(chars / 1e6).toFixed(1)} M characters (${roots.join(", ")}): ` +
    `${values.against} ${median(times.other)} ms, this tree ${median(times.here)} ms ` +
    `(medians of ${runs}, alternating); CPU time ${median(cpu.other)} and ${median(cpu.here)} ms ` +
    `(minimums ${Math.round(Math.min(...cpu.other))} and ${Math.round(Math.min(...cpu.here))} ms)`,
);

/** One pass of `scanner` over the texts: its wall time and the process's CPU time, in ms. */
function scan(scanner: Scanner): { wall: number; used: number } {
  const start = performance.now();
  const before = process.cpuUsage();
  for (const text of texts) scanner.redactSync(text);
  const after = process.cpuUsage();
  const used = (after.user - before.user + after.system - before.system) / 1000;
  return { wall: performance.now() - start, used };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]);
}

/** The files under `dir` named `*<ext>` (symbolic links are not followed). */
async function collect(dir: string, out: string[]): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await collect(path, out);
    else if (entry.isFile && entry.name.endsWith(values.ext!)) {
      try {
        out.push(new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(path)));
      } catch {
        // not UTF-8: a build reads it as binary
      }
    }
  }
}

/** `/usr/lib/python3.X`, the standard library of the python3 on this machine. */
async function stdlibRoots(): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir("/usr/lib")) {
    if (/^python3\.\d+$/.test(entry.name)) found.push(join("/usr/lib", entry.name));
  }
  return found.sort().slice(-1);
}
