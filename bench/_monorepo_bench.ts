/**
 * `deno task bench --corpus monorepo [--scale F]`: slop and Repomix on the two
 * big trees of `_monorepo.ts` (a 44,040-file Python monorepo and 100,000
 * generated modules at full size), one run of each case: cold full view, warm
 * after a one-file edit (a new process, and through `slop build --server`),
 * skeleton with a 200k-token budget (`--budget 200000`) against Repomix's
 * `--compress`. Each row gives the wall time, the peak RSS (as the rest of the
 * bench measures it) and the bytes the build added to its output folder.
 *
 * @module
 */

import { join } from "node:path";
import type { Corpus, Peer } from "./_corpora.ts";
import { walkFiles } from "./_corpora.ts";
import { measure, type Sample } from "./_measure.ts";
import { peerJob, slopConfig, slopJob, slopServer } from "./_jobs.ts";
import { trackedFiles, TURBOFAN_FROM_BYTES, v8FlagsFor } from "../cli/_v8_flags.ts";

/** One measured case. */
export interface MonorepoRow {
  corpus: string;
  tool: "slop" | "Repomix";
  case: string;
  sample: Sample;
  /** Bytes added to the output folder (slop) or written (Repomix). */
  diskBytes: number;
}

/** Options of {@linkcode benchMonorepo}. */
export interface MonorepoBenchOptions {
  /** Print each slop build's stage timings to the log. @default {false} */
  timings?: boolean;
  /** Which cases: `full` (cold, warm, server, Repomix markdown), `skeleton` (budget, --compress). @default {["full", "skeleton"]} */
  cases?: string[];
  /** Where progress goes. */
  log: (message: string) => void;
}

/**
 * Run every case on one corpus.
 *
 * @example
 * ```ts
 * import { benchMonorepo } from "./_monorepo_bench.ts";
 * // const rows = await benchMonorepo(corpus, peer, { log: console.error });
 * ```
 */
export async function benchMonorepo(
  corpus: Corpus,
  peer: Peer,
  options: MonorepoBenchOptions,
): Promise<MonorepoRow[]> {
  const { log } = options;
  const work = await Deno.makeTempDir({ prefix: "slop_bench_mono_" });
  const rows: MonorepoRow[] = [];
  const files = await walkFiles(corpus.dir);
  const target = files[Math.floor(files.length / 2)];
  const original = await Deno.readFile(target);
  const edit = (n: number) => Deno.writeFile(target, edited(original, n, target));
  const row = (tool: MonorepoRow["tool"], name: string, sample: Sample, diskBytes: number) => {
    rows.push({ corpus: corpus.name, tool, case: name, sample, diskBytes });
    const failed = sample.failed ? ` FAILED ${sample.failed}` : "";
    log(
      `${corpus.name}: ${tool} ${name}: ${sample.seconds.toFixed(2)} s, ${
        sample.rssMb.toFixed(0)
      } MB RSS, ${(diskBytes / 1048576).toFixed(1)} MB on disk${failed}`,
    );
    if (sample.stderr && options.timings) log(sample.stderr.trimEnd());
  };
  // A slop build into `state`, with the bytes it added to `state/out`.
  const slop = async (name: string, config: string, state: string, args: string[] = []) => {
    const before = await dirBytes(join(state, "out"));
    // The flags slop starts itself with in the tree (its config is elsewhere: it cannot look).
    const flags = v8FlagsFor(trackedFiles(corpus.dir, TURBOFAN_FROM_BYTES));
    const sample = await measure(
      slopJob(config, state, { timings: options.timings, args, flags }),
      {
        allowFailure: true,
      },
    );
    row("slop", name, sample, (await dirBytes(join(state, "out"))) - before);
  };
  const repomix = async (name: string, out: string, cache: string, args: string[]) => {
    await Deno.remove(out).catch(() => {});
    const sample = await measure(peerJob(peer, corpus, out, cache, args), { allowFailure: true });
    row("Repomix", name, sample, await fileBytes(out));
  };
  const full = await slopConfig(work, corpus, "full");
  const skeleton = await slopConfig(work, corpus, "skeleton");
  const peerConfig = join(work, "repomix.config.json");
  await Deno.writeTextFile(peerConfig, JSON.stringify({ input: { maxFileSize: 10 << 20 } }));
  const peerArgs = ["-c", peerConfig];
  try {
    const cases = options.cases ?? ["full", "skeleton"];
    if (cases.includes("full")) await fullCases();
    if (cases.includes("skeleton")) await skeletonCases();
  } finally {
    await Deno.writeFile(target, original);
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  return rows;

  async function fullCases() {
    // slop without the server: cold, then warm after a one-file edit in the same state dir.
    await slop("cold full", full, join(work, "state"));
    await edit(1);
    await slop("warm full, one file edited", full, join(work, "state"));
    await Deno.writeFile(target, original);
    // Through the build server: a fresh state dir, a new client process per build; the RSS is
    // the server's (its whole peak for the cold row, the build's for the warm row).
    const servers = await Deno.makeTempDir({ prefix: "slop_bench_servers_" });
    const served = join(work, "state-server");
    const viaServer = async (name: string, whole: boolean) => {
      const before = await dirBytes(join(served, "out"));
      const sample = await measure(slopJob(full, served, { servers }), { allowFailure: true });
      const status = await slopServer("status", full, served, servers);
      const rss = (whole ? status?.peakRss : status?.lastBuildPeakRss ?? status?.peakRss) ?? 0;
      const built = status?.lastBuildMs === undefined
        ? ""
        : ` (the server's build: ${status.lastBuildMs} ms${
          status.lastBuildPrepared ? `, prepared in ${status.lastPrepareMs} ms` : ""
        })`;
      row(
        "slop",
        name + built,
        { ...sample, rssMb: rss / 1048576 },
        (await dirBytes(join(served, "out"))) - before,
      );
    };
    try {
      await viaServer("server cold full", true);
      await edit(2);
      await viaServer("server warm full, one file edited", false);
    } finally {
      await Deno.writeFile(target, original);
      await slopServer("stop", full, served, servers);
      await Deno.remove(servers, { recursive: true }).catch(() => {});
    }
    // Repomix: cold with a fresh token cache, warm with the same cache after the edit.
    const cache = join(work, "repomix-cache.json");
    await repomix("cold markdown", join(work, "repomix.md"), cache, peerArgs);
    await edit(4);
    await repomix("warm markdown, one file edited", join(work, "repomix.md"), cache, peerArgs);
    await Deno.writeFile(target, original);
  }

  async function skeletonCases() {
    // Skeleton within a 200k-token budget: cold, and warm after a one-file edit.
    const budget = ["--budget", "200000"];
    await slop("cold skeleton --budget 200000", skeleton, join(work, "skeleton"), budget);
    await edit(3);
    await slop("warm skeleton --budget 200000", skeleton, join(work, "skeleton"), budget);
    await Deno.writeFile(target, original);
    await repomix("cold --compress", join(work, "repomix-c.md"), join(work, "c.json"), [
      ...peerArgs,
      "--compress",
    ]);
  }
}

/**
 * The results as markdown: the corpora, then one line per case.
 *
 * @example
 * ```ts
 * import { monorepoMarkdown } from "./_monorepo_bench.ts";
 * // console.log(monorepoMarkdown(rows, corpora, machine, "deno task bench --corpus monorepo"));
 * ```
 */
export function monorepoMarkdown(
  rows: MonorepoRow[],
  corpora: Corpus[],
  machine: string,
  command: string,
): string {
  const mb = (n: number) => (n / 1048576).toFixed(1);
  return [
    "# Monorepo scale: slop vs Repomix 1.18.1",
    "",
    `Machine: ${machine}`,
    "",
    `Command: \`${command}\` (one run of each case). ` +
    "RSS is the peak resident set of the process (for `--server` rows the server's); disk is " +
    "what the build added to its output folder (Repomix: its output file).",
    "",
    "| corpus | files | MB | source |",
    "| --- | ---: | ---: | --- |",
    ...corpora.map((c) => `| ${c.name} | ${c.files} | ${mb(c.bytes)} | ${c.source} |`),
    "",
    "| corpus | tool | case | s | peak RSS MB | disk MB |",
    "| --- | --- | --- | ---: | ---: | ---: |",
    ...rows.map((r) =>
      `| ${r.corpus} | ${r.tool} | ${r.case}${r.sample.failed ? " (failed)" : ""} | ${
        r.sample.seconds.toFixed(2)
      } | ${r.sample.rssMb.toFixed(0)} | ${mb(r.diskBytes)} |`
    ),
    "",
    ...rows.filter((r) => r.sample.failed).map((r) =>
      `- ${r.corpus}: ${r.tool} ${r.case} failed: ${r.sample.failed?.replaceAll("|", "\\|")}`
    ),
    "",
  ].join("\n");
}

/** The file with a comment line appended (in the file's own comment syntax). */
function edited(original: Uint8Array, n: number, path: string): Uint8Array {
  const mark = path.endsWith(".py") ? "#" : "//";
  const note = new TextEncoder().encode(`\n${mark} slop bench edit ${n}\n`);
  const out = new Uint8Array(original.length + note.length);
  out.set(original);
  out.set(note, original.length);
  return out;
}

async function fileBytes(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch {
    return 0;
  }
}

/** Bytes of the files in a folder (not recursive: the output folder is flat). */
async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile) total += await fileBytes(join(dir, entry.name));
    }
  } catch {
    return 0;
  }
  return total;
}
