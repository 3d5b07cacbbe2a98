/**
 * The secret scan's two regex passes over every text of the benchmark corpora (`bench/.cache`,
 * prepared as `deno task bench` does): the hint search (`HINT_SEARCH` against its spec
 * `SECRETLINT_HINTS`) and the named values (`NAMED_VALUE` against `NAMED_VALUE_SPEC`). Checks
 * that each pair gives the same answers on every text (the hinted files, and each named value's
 * end and group), then times passes of each, alternating, and prints the medians with the load.
 *
 * ```sh
 * deno run -A bench/hint_search.ts [--passes 7]
 * ```
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { prepareCorpora } from "./_corpora.ts";
import { loadConfig } from "../pipeline/config.ts";
import { resolveTargets } from "../pipeline/resolve.ts";
import { readTargets } from "../pipeline/read.ts";
import { HINT_SEARCH, NAMED_VALUE, NAMED_VALUE_SPEC, SECRETLINT_HINTS } from "../pipeline/_scan.ts";

const { values } = parseArgs({ args: Deno.args, options: { passes: { type: "string" } } });
const passes = Number(values.passes ?? 7);
if (!(Number.isInteger(passes) && passes >= 1)) {
  throw new Error(
    `[bench] Invalid --passes "${values.passes}": expected a whole number of at least 1`,
  );
}

/** Every text a build of `dir` reads (the bench's files and size limit, no cache). */
async function corpusTexts(dir: string): Promise<string[]> {
  const stateDir = await Deno.makeTempDir();
  const config = await loadConfig({
    cwd: dir,
    stateDir,
    inline: { files: [`${dir}/**`], maxFileSize: 10 * 1024 * 1024, cache: { enabled: false } },
  });
  const sources = await readTargets((await resolveTargets(config)).targets, config);
  await Deno.remove(stateDir, { recursive: true });
  return sources.flatMap((s) => (s.text === undefined ? [] : [s.text]));
}

/** Each named value's end and group 1 in `text`: what the scan reads of a match. */
function namedEnds(pattern: RegExp, text: string): string {
  return [...text.matchAll(pattern)].map((m) => `${m.index! + m[0].length}:${m[1] ?? ""}`).join();
}

const passOf: Record<string, (text: string) => unknown> = {
  "SECRETLINT_HINTS": (t) => SECRETLINT_HINTS.test(t),
  "HINT_SEARCH": (t) => HINT_SEARCH.test(t),
  "NAMED_VALUE_SPEC": (t) => namedEnds(NAMED_VALUE_SPEC, t),
  "NAMED_VALUE": (t) => namedEnds(NAMED_VALUE, t),
};

const cache = join(dirname(fileURLToPath(import.meta.url)), ".cache");
for (const corpus of await prepareCorpora(cache, console.log)) {
  const texts = await corpusTexts(corpus.dir);
  const chars = texts.reduce((n, t) => n + t.length, 0);
  const hinted = texts.filter((t) => SECRETLINT_HINTS.test(t)).length;
  const differ = (a: string, b: string) => texts.filter((t) => passOf[a](t) !== passOf[b](t));
  const hintsDiffer = differ("SECRETLINT_HINTS", "HINT_SEARCH").length;
  const namesDiffer = differ("NAMED_VALUE_SPEC", "NAMED_VALUE").length;
  const ms: Record<string, number[]> = {};
  for (let pass = 0; pass < passes; pass++) {
    const names = Object.keys(passOf);
    if (pass % 2) names.reverse();
    for (const name of names) {
      const start = performance.now();
      for (const text of texts) passOf[name](text);
      (ms[name] ??= []).push(performance.now() - start);
    }
  }
  const median = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1].toFixed(1);
  const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ")[0];
  console.log(
    `${corpus.name}: ${texts.length} texts, ${
      (chars / 1e6).toFixed(1)
    } M chars, ${hinted} hinted; ` +
      `texts whose answer differs: hints ${hintsDiffer}, named values ${namesDiffer}; load ${load}`,
  );
  for (const [name, v] of Object.entries(ms)) {
    console.log(`  ${name.padEnd(16)} ${median(v).padStart(6)} ms a pass (median of ${passes})`);
  }
  if (hintsDiffer || namesDiffer) Deno.exitCode = 1;
}
