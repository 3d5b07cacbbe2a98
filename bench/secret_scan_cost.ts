/**
 * What slop's own secret rules cost against another tree's: `redactSync` (the rule table, no
 * secretlint) over the `.py` files of the Python standard library (or the folders given; `--ext`
 * picks other files), this tree's scanner and the other's alternating in one process, medians of
 * the runs. `--paths` scans every UTF-8 file of the folders (1 MB at most, any extension) with its
 * path, as a build does (`redactText`, secretlint off), so the rules read by a file's name run too.
 *
 * ```sh
 * deno run -A bench/secret_scan_cost.ts --against /work/main/pipeline/_scan.ts
 * deno run -A bench/secret_scan_cost.ts --against /work/main/pipeline/_scan.ts --runs 9 DIR...
 * deno run -A bench/secret_scan_cost.ts --against /work/main/pipeline/_scan.ts --ext .ts DIR...
 * deno run -A bench/secret_scan_cost.ts --against /work/main/pipeline/_scan.ts --paths DIR...
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { join, relative } from "node:path";
import process from "node:process";

interface Scanner {
  redactSync(text: string): { findings: unknown[] };
  redactText(
    text: string,
    path: string,
    options: { secretlint: boolean },
  ): Promise<{ findings: unknown[] }>;
}

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: {
    against: { type: "string" },
    runs: { type: "string", default: "5" },
    ext: { type: "string", default: ".py" },
    paths: { type: "boolean", default: false },
  },
  allowPositionals: true,
});
if (!values.against) {
  console.error("Pass --against PATH: another tree's pipeline/_scan.ts");
  Deno.exit(2);
}
const roots = positionals.length ? positionals : await stdlibRoots();
const texts: string[] = [];
const paths: string[] = [];
for (const root of roots) await collect(root, root, texts);
const chars = texts.reduce((n, t) => n + t.length, 0);
const here: Scanner = await import("../pipeline/_scan.ts");
const other: Scanner = await import(new URL(values.against, `file://${Deno.cwd()}/`).href);
const runs = Number(values.runs);
const times: { here: number[]; other: number[] } = { here: [], other: [] };
const cpu: { here: number[]; other: number[] } = { here: [], other: [] };
for (let i = 0; i < runs; i++) {
  for (const [name, scanner] of [["other", other], ["here", here]] as const) {
    const { wall, used } = values.paths ? await scanWithPaths(scanner) : scan(scanner);
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

/** {@linkcode scan} through `redactText` with each file's path (secretlint off). */
async function scanWithPaths(scanner: Scanner): Promise<{ wall: number; used: number }> {
  const start = performance.now();
  const before = process.cpuUsage();
  for (let i = 0; i < texts.length; i++) {
    await scanner.redactText(texts[i], paths[i], { secretlint: false });
  }
  const after = process.cpuUsage();
  const used = (after.user - before.user + after.system - before.system) / 1000;
  return { wall: performance.now() - start, used };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]);
}

/**
 * The files under `dir` named `*<ext>` (with `--paths`, every file of 1 MB at most), each path kept
 * relative to `root` (symbolic links are not followed).
 */
async function collect(root: string, dir: string, out: string[]): Promise<void> {
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await collect(root, path, out);
    else if (entry.isFile && (values.paths || entry.name.endsWith(values.ext!))) {
      try {
        const bytes = await Deno.readFile(path);
        if (bytes.length > 1 << 20) continue;
        out.push(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
        paths.push(relative(root, path));
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
