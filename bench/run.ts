/**
 * `deno task bench`: slop against Repomix on real corpora, side by side and
 * alternating, N runs each; medians of wall time and peak RSS, and the
 * ratios, written to `bench/results.md` with the machine line.
 *
 * Cases: full view vs Repomix markdown (cold: empty slop state and empty
 * Repomix token cache, both counting tokens, same file-size limit), skeleton
 * vs `--compress` (when the skeleton view exists), and the warm rebuild after
 * a one-file edit (slop's second build in the same state dir against
 * Repomix's second run with the same token cache), each also with
 * `slop build --server` (the cold run starts the build server, the warm run
 * is a new client process). The resident case is a
 * `slop watch` process rebuilding after a one-file edit (the time from the
 * edit to its line saying the document is written), next to the same
 * Repomix second runs. `--timings` prints slop's stage timings of each warm
 * build (`slop build --timings`) to stderr.
 *
 * ```sh
 * deno task bench [--runs 3] [--only zod-src] [--out bench/results.md] [--timings]
 * deno task bench --corpus monorepo [--scale 0.1] [--only monorepo] [--cases full,skeleton] [--timings]
 * ```
 *
 * `--corpus monorepo` runs the big trees instead (`_monorepo_bench.ts`, written to
 * `bench/monorepo_results.md`): a 44,040-file Python monorepo and 100,000 generated modules,
 * `--scale` smaller.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { type Corpus, type Peer, prepareCorpora, preparePeer, walkFiles } from "./_corpora.ts";
import { measure, median, type Sample } from "./_measure.ts";
import { watchRebuilds } from "./_watch.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { MAX_FILE_SIZE, peerJob, slopConfig, slopJob, slopServer } from "./_jobs.ts";

const BENCH = dirname(fileURLToPath(import.meta.url));
const REPO = join(BENCH, "..");
const CACHE = join(BENCH, ".cache");
/** `slop watch --debounce` of the resident case, in ms (part of the time measured). */
const WATCH_DEBOUNCE = 10;

/** One row of results: medians of both tools for a case on a corpus. */
export interface CaseResult {
  corpus: string;
  case: string;
  slop: Sample;
  peer: Sample;
  /** Output sizes in bytes (last run). */
  slopBytes: number;
  peerBytes: number;
  /** The target speedup (peer time / slop time) this case should reach. */
  target: number;
}

interface Args {
  runs: number;
  only?: string;
  out: string;
  timings: boolean;
  /** `monorepo`: the big trees of `_monorepo.ts` instead of the usual corpora. */
  corpus?: string;
  /** Size of the big trees (1: full size). */
  scale: number;
  /** The big trees' cases (`full`, `skeleton`). */
  cases?: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { runs: 3, out: "", timings: false, scale: 1 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--runs") args.runs = Number(argv[++i]);
    else if (argv[i] === "--only") args.only = argv[++i];
    else if (argv[i] === "--out") args.out = argv[++i];
    else if (argv[i] === "--timings") args.timings = true;
    else if (argv[i] === "--corpus") args.corpus = argv[++i];
    else if (argv[i] === "--scale") args.scale = Number(argv[++i]);
    else if (argv[i] === "--cases") args.cases = argv[++i].split(",");
    else {
      throw new Error(
        `[bench] Unknown argument "${
          argv[i]
        }": expected --runs, --only, --out, --timings, --corpus, --scale or --cases`,
      );
    }
  }
  if (!(args.runs >= 1)) throw new Error(`[bench] Invalid --runs "${args.runs}"`);
  if (args.corpus !== undefined && args.corpus !== "monorepo") {
    throw new Error(`[bench] Unknown --corpus "${args.corpus}": expected "monorepo"`);
  }
  const bad = args.cases?.find((c) => c !== "full" && c !== "skeleton");
  if (bad !== undefined) {
    throw new Error(`[bench] Unknown case "${bad}" in --cases: expected "full" and/or "skeleton"`);
  }
  if (!(args.scale > 0 && args.scale <= 1)) {
    throw new Error(`[bench] Invalid --scale "${args.scale}": expected a number in (0, 1]`);
  }
  args.out ||= join(BENCH, args.corpus === "monorepo" ? "monorepo_results.md" : "results.md");
  return args;
}

function log(message: string): void {
  console.error(`bench: ${message}`);
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch {
    return 0;
  }
}

/** A file of the corpus to edit for the warm case: the middle one by path. */
async function editTarget(corpus: Corpus): Promise<string> {
  const files = await walkFiles(corpus.dir);
  return files[Math.floor(files.length / 2)];
}

/** Print a warm build's stage timings (with `--timings`). */
function logTimings(label: string, sample: Sample): Sample {
  if (sample.stderr) log(`${label}\n${sample.stderr.trimEnd()}`);
  return sample;
}

async function benchCorpus(
  corpus: Corpus,
  peer: Peer,
  options: Args,
  hasSkeleton: boolean,
  notes: string[],
): Promise<CaseResult[]> {
  const runs = options.runs;
  const work = await Deno.makeTempDir({ prefix: "slop_bench_" });
  const peerConfig = join(work, "repomix.config.json");
  await Deno.writeTextFile(
    peerConfig,
    JSON.stringify({ input: { maxFileSize: MAX_FILE_SIZE } }),
  );
  const full = await slopConfig(work, corpus, "full");
  const target = await editTarget(corpus);
  const original = await Deno.readFile(target);
  const samples: Record<string, { slop: Sample[]; peer: Sample[]; sb: number; pb: number }> = {};
  const hits: string[] = [];
  // The server's own time of each build (from `slop server status`), by case.
  const serverBuilds: Record<string, string[]> = {};
  const add = (name: string, who: "slop" | "peer", s: Sample) => {
    samples[name] ??= { slop: [], peer: [], sb: 0, pb: 0 };
    samples[name][who].push(s);
  };
  const skeleton = hasSkeleton ? await slopConfig(work, corpus, "skeleton") : undefined;
  // One view's cold and warm cases, slop then Repomix, in run i; the edited file is put back.
  const coldAndWarm = async (
    i: number,
    view: { config: string; state: string; label: string; peerArgs: string[]; peerOut: string },
    cold: string,
    warm: string,
  ) => {
    // slop: cold into a fresh state dir, edit one file, warm in the same state dir.
    add(cold, "slop", await measure(slopJob(view.config, view.state)));
    samples[cold].sb = await fileSize(join(view.state, "out", "context_001.md"));
    await Deno.writeFile(target, edited(original, i, target));
    const timed = await measure(slopJob(view.config, view.state, { timings: options.timings }));
    add(warm, "slop", logTimings(`${corpus.name} warm ${view.label}`, timed));
    samples[warm].sb = await fileSize(join(view.state, "out", "context_002.md"));
    if (view.label === "full") {
      hits.push(await cacheHits(join(view.state, "out", "context_002.json")));
    }
    await Deno.writeFile(target, original);
    // slop's build server: the same in a fresh state dir, a new client process for each build;
    // the RSS is the server's peak (the client's is Deno's start, about 40 MB).
    const servers = await Deno.makeTempDir({ prefix: "slop_bench_servers_" });
    const state = `${view.state}-server`;
    // The cold row's RSS is the server's peak so far (its start, the build and the rehearsal
    // after it), the warm row's the peak during its build (what the server holds, and the build).
    const served = async (name: string, whole: boolean) => {
      serverBuilds[name] ??= [];
      const sample = await measure(slopJob(view.config, state, { servers }));
      const status = await slopServer("status", view.config, state, servers);
      const rss = (whole ? status?.peakRss : status?.lastBuildPeakRss ?? status?.peakRss) ?? 0;
      add(name, "slop", { seconds: sample.seconds, rssMb: rss / 1024 / 1024 });
      if (status?.lastBuildMs !== undefined) {
        // A warm build that finished the build prepared after the edit says so, with the
        // prepare's time (its peak RSS is in the build's).
        const prepared = status.lastBuildPrepared ? ` (prepared in ${status.lastPrepareMs})` : "";
        serverBuilds[name].push(`${status.lastBuildMs}${prepared}`);
      }
    };
    try {
      await served(`server ${cold}`, true);
      await Deno.writeFile(target, edited(original, i, target));
      await served(`server ${warm}`, false);
    } finally {
      await Deno.writeFile(target, original);
      await slopServer("stop", view.config, state, servers);
      await Deno.remove(servers, { recursive: true }).catch(() => {});
    }
    // Repomix: the same with a fresh token cache.
    const cache = join(work, `repomix-${view.label}-cache-${i}.json`);
    add(cold, "peer", await measure(peerJob(peer, corpus, view.peerOut, cache, view.peerArgs)));
    samples[cold].pb = await fileSize(view.peerOut);
    await Deno.writeFile(target, edited(original, i, target));
    add(warm, "peer", await measure(peerJob(peer, corpus, view.peerOut, cache, view.peerArgs)));
    samples[warm].pb = await fileSize(view.peerOut);
    await Deno.writeFile(target, original);
  };
  try {
    for (let i = 0; i < runs; i++) {
      const args = ["-c", peerConfig];
      await coldAndWarm(
        i,
        {
          config: full,
          state: join(work, `state-${i}`),
          label: "full",
          peerArgs: args,
          peerOut: join(work, `repomix-${i}.md`),
        },
        "cold full vs markdown",
        "warm, one file edited",
      );
      if (skeleton) {
        await coldAndWarm(
          i,
          {
            config: skeleton,
            state: join(work, `skeleton-${i}`),
            label: "skeleton",
            peerArgs: [...args, "--compress"],
            peerOut: join(work, `repomix-c-${i}.md`),
          },
          "cold skeleton vs --compress",
          "warm skeleton, one file edited",
        );
      }
      log(`${corpus.name}: run ${i + 1}/${runs} done`);
    }
    // The server rows are timed against the same Repomix runs as the rows they are named after.
    for (const [name, sample] of Object.entries(samples)) {
      if (!name.startsWith("server ")) continue;
      const base = samples[name.slice("server ".length)];
      Object.assign(sample, { peer: base.peer, sb: base.sb, pb: base.pb });
      notes.push(
        `${corpus.name}: ${name}: the server's builds took ${serverBuilds[name].join(", ")} ms`,
      );
    }
    // Resident: `slop watch` in the first run's state dir, the same file edited `runs` times.
    const resident = async (name: string, config: string, state: string, peerCase: string) => {
      const watched = await watchRebuilds(config, state, target, {
        edits: runs,
        debounce: WATCH_DEBOUNCE,
      });
      samples[name] = {
        slop: watched.map((w) => ({ seconds: w.seconds, rssMb: w.rssMb })),
        peer: samples[peerCase].peer,
        sb: samples[peerCase].sb,
        pb: samples[peerCase].pb,
      };
      const builds = watched.map((w) => `${Math.round(w.buildSeconds * 1000)}`).join(", ");
      notes.push(`${corpus.name}: ${name}: the builds themselves took ${builds} ms`);
    };
    await resident(
      "watch rebuild, one file edited",
      full,
      join(work, "state-0"),
      "warm, one file edited",
    );
    if (skeleton) {
      await resident(
        "watch skeleton rebuild, one file edited",
        skeleton,
        join(work, "skeleton-0"),
        "warm skeleton, one file edited",
      );
    }
  } finally {
    await Deno.writeFile(target, original);
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  const targets: Record<string, number> = {
    "cold full vs markdown": 2,
    "cold skeleton vs --compress": 2,
    "warm, one file edited": 20,
    "warm skeleton, one file edited": 20,
    "server cold full vs markdown": 2,
    "server warm, one file edited": 20,
    "server cold skeleton vs --compress": 2,
    "server warm skeleton, one file edited": 20,
    "watch rebuild, one file edited": 20,
    "watch skeleton rebuild, one file edited": 20,
  };
  notes.push(`${corpus.name}: slop's warm builds took ${hits.join(", ")} files from its cache`);
  return Object.entries(samples).map(([name, s]) => ({
    corpus: corpus.name,
    case: name,
    slop: mid(s.slop),
    peer: mid(s.peer),
    slopBytes: s.sb,
    peerBytes: s.pb,
    target: targets[name],
  }));
}

/** "hits/files" of a manifest (files whose transform came from the cache). */
async function cacheHits(manifestPath: string): Promise<string> {
  try {
    const m = JSON.parse(await Deno.readTextFile(manifestPath));
    const files = m.files as Array<{ cache?: string }>;
    return `${files.filter((f) => f.cache === "hit").length}/${files.length}`;
  } catch {
    return "?";
  }
}

/** The file with a comment line appended (in the file's own comment syntax). */
function edited(original: Uint8Array, i: number, path: string): Uint8Array {
  const mark = path.endsWith(".py") ? "#" : "//";
  const note = new TextEncoder().encode(`\n${mark} slop bench edit ${i + 1}\n`);
  const out = new Uint8Array(original.length + note.length);
  out.set(original);
  out.set(note, original.length);
  return out;
}

function mid(samples: Sample[]): Sample {
  return {
    seconds: median(samples.map((s) => s.seconds)),
    rssMb: median(samples.map((s) => s.rssMb)),
  };
}

async function machineLine(): Promise<string> {
  let cpu = "unknown CPU";
  try {
    cpu = /model name\s*:\s*(.+)/.exec(await Deno.readTextFile("/proc/cpuinfo"))?.[1] ?? cpu;
  } catch { /* not Linux */ }
  let node = "node ?";
  try {
    const out = await new Deno.Command("node", { args: ["--version"], stdout: "piped" }).output();
    node = `Node ${new TextDecoder().decode(out.stdout).trim()}`;
  } catch { /* no node */ }
  const mem = Math.round(Deno.systemMemoryInfo().total / 1024 / 1024 / 1024);
  return `${cpu.trim()}, ${navigator.hardwareConcurrency} cores, ${mem} GB RAM, ${Deno.build.os} ${Deno.osRelease()}, Deno ${Deno.version.deno}, ${node}`;
}

/**
 * The results page.
 *
 * @example
 * ```ts
 * import { resultsMarkdown } from "./run.ts";
 * // await Deno.writeTextFile("bench/results.md", resultsMarkdown(rows, corpora, notes, machine, 3));
 * ```
 */
export function resultsMarkdown(
  rows: CaseResult[],
  corpora: Corpus[],
  notes: string[],
  machine: string,
  runs: number,
): string {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const lines = [
    "# Benchmarks: slop vs Repomix 1.18.1",
    "",
    `Machine: ${machine}`,
    "",
    `Command: \`deno task bench --runs ${runs}\`. Medians of ${runs} alternating runs per tool ` +
    "and case; speedup = Repomix time / slop time, RSS ratio = slop peak RSS / Repomix peak RSS " +
    "(targets: cold >= 2x, warm >= 20x, RSS <= 0.5). Cold = empty slop state dir and empty " +
    `Repomix token cache; both count tokens (o200k); both limit files to ${
      mb(MAX_FILE_SIZE)
    } MB. ` +
    "Warm = the second run after a one-file edit, with the same state dir / token cache. " +
    "Server rows are the same two runs with `slop build --server` (what the `context` task " +
    "`slop init` writes runs) in a fresh state dir: the " +
    "cold run starts the project's build server, the warm run is a new client process handing " +
    "it the build; their RSS is the server's peak (the client's own is Deno's start). The " +
    "server prepares the next build when its watcher sees the edit (written just before the " +
    "warm client starts) and the warm build finishes it when nothing changed since; the warm " +
    "row's RSS is the peak from the prepare's start to the build's end. " +
    "Watch rows are a resident process: `slop watch --debounce " + String(WATCH_DEBOUNCE) +
    "`, started before and kept running, timed from writing the one-file edit to its line " +
    "saying the rebuilt document is written (debounce and file-system event included; its " +
    "first build not counted), against the same Repomix second runs as the warm rows " +
    "(Repomix has no resident mode).",
    "",
    "| corpus | files | MB | source |",
    "| --- | ---: | ---: | --- |",
    ...corpora.map((c) => `| ${c.name} | ${c.files} | ${mb(c.bytes)} | ${c.source} |`),
    "",
    "| corpus | case | slop s | Repomix s | speedup | target | slop RSS MB | Repomix RSS MB | RSS ratio | slop out MB | Repomix out MB |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => {
      const speed = r.peer.seconds / r.slop.seconds;
      const rss = r.peer.rssMb ? r.slop.rssMb / r.peer.rssMb : NaN;
      return `| ${r.corpus} | ${r.case} | ${r.slop.seconds.toFixed(2)} | ${
        r.peer.seconds.toFixed(2)
      } | ${speed.toFixed(2)}x ${speed >= r.target ? "✓" : "✗"} | ${r.target}x | ${
        r.slop.rssMb.toFixed(0)
      } | ${r.peer.rssMb.toFixed(0)} | ${rss.toFixed(2)} ${rss <= 0.5 ? "✓" : "✗"} | ${
        mb(r.slopBytes)
      } | ${mb(r.peerBytes)} |`;
    }),
    "",
    ...notes.map((n) => `- ${n}`),
    "",
  ];
  return lines.join("\n");
}

async function main(): Promise<void> {
  const args = parseArgs(Deno.args);
  if (args.corpus === "monorepo") return await monorepoMain(args);
  const loadAtStart = Deno.loadavg()[0];
  const notes: string[] = [];
  const note = (message: string) => {
    log(message);
    notes.push(message);
  };
  let corpora = await prepareCorpora(CACHE, note);
  if (args.only) corpora = corpora.filter((c) => c.name === args.only);
  const peer = await preparePeer(CACHE);
  const hasSkeleton = existsSync(join(REPO, "plugins", "view_modes", "skeleton.ts")) &&
    defaultPlugins().some((p) => p.name === "slop:skeleton");
  if (!hasSkeleton) {
    note(
      "skeleton vs --compress skipped: slop has no skeleton view (plugins/view_modes/skeleton.ts) yet",
    );
  }
  const code = [
    ...await walkFiles(join(REPO, "pipeline")),
    ...await walkFiles(join(REPO, "plugins")),
  ];
  const secrets = code.some((p) => /secret[^/]*\.ts$/.test(p));
  note(
    secrets
      ? "both tools scan for secrets"
      : "Repomix scans for secrets (its default); this slop build has no secret scanner yet",
  );
  const rows: CaseResult[] = [];
  for (const corpus of corpora) {
    log(`${corpus.name}: ${corpus.files} files, ${(corpus.bytes / 1048576).toFixed(1)} MB`);
    rows.push(...await benchCorpus(corpus, peer, args, hasSkeleton, notes));
  }
  await warmRebuildHook(note);
  // Times on a shared machine stretch with its load; the ratios come from alternating runs.
  notes.push(
    `load average (1 min) at start / end: ${loadAtStart.toFixed(1)} / ${
      Deno.loadavg()[0].toFixed(1)
    } on ${navigator.hardwareConcurrency} cores`,
  );
  const recall = hasSkeleton ? await skeletonRecallSection() : "";
  const text = resultsMarkdown(rows, corpora, notes, await machineLine(), args.runs) + recall;
  await Deno.writeTextFile(args.out, text);
  // The results are committed: keep them as `deno fmt` would write them.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", args.out] }).output();
  console.log(await Deno.readTextFile(args.out));
}

/** `--corpus monorepo`: the big trees, one run of each case, written to `args.out`. */
async function monorepoMain(args: Args): Promise<void> {
  const { prepareMonorepoCorpora } = await import("./_monorepo.ts");
  const { benchMonorepo, monorepoMarkdown } = await import("./_monorepo_bench.ts");
  const loadAtStart = Deno.loadavg()[0];
  let corpora = await prepareMonorepoCorpora(CACHE, args.scale, log);
  if (args.only) corpora = corpora.filter((c) => c.name.startsWith(args.only!));
  const peer = await preparePeer(CACHE);
  const rows = [];
  for (const corpus of corpora) {
    log(`${corpus.name}: ${corpus.files} files, ${(corpus.bytes / 1048576).toFixed(1)} MB`);
    rows.push(
      ...await benchMonorepo(corpus, peer, { timings: args.timings, cases: args.cases, log }),
    );
  }
  const load = `- load average (1 min) at start / end: ${loadAtStart.toFixed(1)} / ${
    Deno.loadavg()[0].toFixed(1)
  } on ${navigator.hardwareConcurrency} cores\n`;
  const command = ["deno task bench", ...Deno.args].join(" ");
  const text = monorepoMarkdown(rows, corpora, await machineLine(), command) + load;
  await Deno.writeTextFile(args.out, text);
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", args.out] }).output();
  console.log(await Deno.readTextFile(args.out));
}

/** Skeleton recall against Python's `ast` and the TypeScript compiler, next to `--compress`. */
async function skeletonRecallSection(): Promise<string> {
  const { skeletonRecall, recallTable } = await import("./skeleton_recall.ts");
  const rows = await skeletonRecall(log);
  if (!rows.length) return "";
  return [
    "",
    "## Skeleton recall: slop skeleton vs Repomix --compress",
    "",
    "Ground truth: Python's `ast` (every def/class outside function bodies, full signature) on the",
    "top-level `Lib/*.py`; the TypeScript compiler on zod src/ (class members, exported functions,",
    "interfaces, type aliases). Exact = byte-exact lines with indentation, in order; loose = trimmed",
    "lines without a final colon (`deno run -A bench/skeleton_recall.ts`).",
    "",
    recallTable(rows),
    "",
  ].join("\n");
}

/** Run `bench/warm_rebuild.ts` (the incremental-build issue's bench) when it exists. */
async function warmRebuildHook(note: (message: string) => void): Promise<void> {
  const path = join(BENCH, "warm_rebuild.ts");
  if (!existsSync(path)) return;
  const mod = await import(new URL("./warm_rebuild.ts", import.meta.url).href);
  const fn = mod.warmRebuild ?? mod.default;
  if (typeof fn !== "function") {
    note("bench/warm_rebuild.ts exports no warmRebuild function: not run");
    return;
  }
  const result = await fn();
  note(`bench/warm_rebuild.ts: ${typeof result === "string" ? result : JSON.stringify(result)}`);
}

if (import.meta.main) await main();
