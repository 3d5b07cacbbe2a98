/**
 * Micro-benchmark of content dedup and slice re-anchoring on the machine's
 * Python standard library (not part of `deno task test`):
 *
 * ```sh
 * deno run -A bench/context_survival.ts
 * ```
 *
 * Prints the dedup throughput over every `.py` file of the stdlib (without
 * tests and site-packages) and the time to resolve a 41-line slice of
 * `_pydecimal.py` when it is unchanged, moved, edited and deleted.
 *
 * @module
 */

import { join } from "node:path";
import { dedupText } from "../pipeline/dedup.ts";
import { anchorSlice, resolveSlice, splitLines } from "../plugins/view_modes/fuzzy_anchor.ts";

const out = await new Deno.Command("python3", {
  args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
  stdout: "piped",
}).output();
const stdlib = new TextDecoder().decode(out.stdout).trim();

const texts: string[] = [];
async function walk(dir: string): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    if (["test", "tests", "site-packages", "idlelib"].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory) await walk(path);
    else if (entry.isFile && entry.name.endsWith(".py")) texts.push(await Deno.readTextFile(path));
  }
}
await walk(stdlib);
const bytes = texts.reduce((n, t) => n + t.length, 0);
let start = performance.now();
let replaced = 0;
for (const text of texts) replaced += dedupText(text).replacements.length;
let ms = performance.now() - start;
console.log(
  `dedup: ${texts.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${ms.toFixed(0)} ms ` +
    `(${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s), ${replaced} replacements`,
);

const lines = splitLines(await Deno.readTextFile(join(stdlib, "_pydecimal.py")));
const slice = anchorSlice(lines, 3000, 3040);
const cases: Record<string, string[]> = {
  unchanged: lines,
  "2 lines inserted above": ["# a", "# b", ...lines],
  "edited inside": lines.map((l, i) => i === 3010 ? `${l}  # edited` : l),
  deleted: lines.filter((_, i) => i < 2999 || i > 3039),
};
for (const [name, edited] of Object.entries(cases)) {
  start = performance.now();
  const found = resolveSlice(slice, edited);
  ms = performance.now() - start;
  console.log(`slice (${lines.length} lines), ${name}: ${found.status} in ${ms.toFixed(1)} ms`);
}
