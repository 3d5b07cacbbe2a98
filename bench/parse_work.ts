/**
 * The code engine on every file a grammar covers under the given folders, in this process, one
 * after the other, with no clock (`maxParseMs` of an hour): for each file its outcome (a hash of
 * the whole `CodeView`, or the error's start), its CPU milliseconds and its work units (what the
 * budget counts; `slop` at or after the twenty-second session counts characters read again). The
 * last lines: the total CPU, the file that took the most CPU, and the most CPU per unit of the
 * files of at least 100,000 units (what a parse at the budget can cost). Run it against another
 * checkout of slop (`SLOP=/tmp/base`) and `diff` the outputs' first two columns to see which
 * files render otherwise. See bench/README.md, "Parses bounded by counted work, not a clock
 * (twenty-second session)".
 *
 * ```sh
 * deno run -A bench/parse_work.ts /tmp/odin /tmp/fastparse > new.tsv
 * SLOP=/tmp/base deno run -A bench/parse_work.ts /tmp/odin /tmp/fastparse > base.tsv
 * ```
 *
 * @module
 */

import process from "node:process";

const slop = Deno.env.get("SLOP") ?? new URL("..", import.meta.url).pathname;
const { renderCode } = await import(`${slop}/plugins/view_modes/_code.ts`);
const { languageOf } = await import(`${slop}/grammars/languages.ts`);
const { tallyWork } = await import(`${slop}/pipeline/_work_count.ts`);
const { sha256Hex } = await import(`${slop}/pipeline/helpers.ts`);

/** Every file under `dir`, `.git` aside, in name order. */
function* filesUnder(dir: string): Generator<string> {
  const entries = [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1);
  for (const entry of entries) {
    if (entry.name === ".git") continue;
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* filesUnder(path);
    else if (entry.isFile) yield path;
  }
}

/** One file's outcome, CPU milliseconds and work units. */
async function renderOne(path: string, text: string) {
  const start = process.cpuUsage();
  let outcome = "";
  const counts: Map<string, number> = await tallyWork(async () => {
    try {
      const view = await renderCode(path, text, { maxParseMs: 3_600_000 });
      outcome = `ok ${sha256Hex(JSON.stringify(view)).slice(0, 16)}`;
    } catch (error) {
      outcome = `error ${String(error).slice(0, 48)}`;
    }
  });
  const cpu = process.cpuUsage(start);
  return { outcome, ms: (cpu.user + cpu.system) / 1000, units: counts.get("code") ?? 0 };
}

if (import.meta.main) {
  let total = 0;
  let slowest = { path: "", ms: 0 };
  let costliest = { path: "", perUnit: 0 };
  for (const root of Deno.args) {
    for (const path of filesUnder(root)) {
      let text: string;
      try {
        text = Deno.readTextFileSync(path);
      } catch {
        continue;
      }
      if (text.length > 3_000_000 || !languageOf(path, text)) continue;
      const { outcome, ms, units } = await renderOne(path, text);
      console.log(`${path}\t${outcome}\t${Math.round(ms)}\t${units}`);
      total += ms;
      if (ms > slowest.ms) slowest = { path, ms };
      const perUnit = ms * 1e6 / units;
      if (units >= 100_000 && perUnit > costliest.perUnit) costliest = { path, perUnit };
    }
  }
  console.log(
    `# CPU ${Math.round(total)} ms; slowest ${slowest.path} ${Math.round(slowest.ms)} ms`,
  );
  console.log(
    `# most CPU per unit (100,000 units or more): ${costliest.path} ` +
      `${Math.round(costliest.perUnit)} ns`,
  );
}
