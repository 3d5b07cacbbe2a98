/**
 * Where a big build's memory and time go: a cold build of one of the big trees
 * (`_monorepo.ts`), then a warm one after a one-file edit, each in its own
 * process with slop's V8 flags, as `slop build` runs them (with the speed
 * layer, unless `--plain`), and a stage clock that collects garbage at each
 * stage's end and reads `Deno.memoryUsage()` there: the heap still held then is
 * what the build keeps from that stage on (the collection's time is not the
 * stage's). The peak column is the process's peak RSS so far (`VmHWM`), so the
 * stage where it rises is the one that made the peak.
 *
 * `--snapshot STAGE` writes a V8 heap snapshot at that stage's end (cold build)
 * and sums what it holds: strings by size and by the property that holds them.
 * `--floors` times the floors of a build on the same tree (in a process with
 * slop's V8 flags, as a build runs): lstat of every file,
 * reading one file and writing a document of the same size, and secret
 * scanning plus token counting of every file (the pipeline's own scanner and
 * counter, on its worker threads).
 *
 * ```sh
 * deno run -A bench/memory_stages.ts [--tree monorepo|modules] [--scale 0.25] [--snapshot count] [--floors]
 * deno run -A bench/memory_stages.ts --view skeleton --budget 200000 --scale 0.05
 * deno run -A bench/memory_stages.ts --plain --scale 0.05   # the stages without the speed layer
 * deno run -A bench/memory_stages.ts --floors-only --scale 1  # only the floors
 * ```
 *
 * @module
 */

import v8 from "node:v8";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { prepareMonorepoCorpora } from "./_monorepo.ts";
import { slopConfig } from "./_jobs.ts";
import { walkFiles } from "./_corpora.ts";
import { loadConfig } from "../pipeline/config.ts";
import { build } from "../pipeline/build.ts";
import { resolveTargets } from "../pipeline/resolve.ts";
import { readTargets } from "../pipeline/read.ts";
import { redactSources } from "../pipeline/secrets.ts";
import { countTexts, releaseCounting } from "../pipeline/count.ts";
import type { StageClock } from "../pipeline/timings.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { SLOP_V8_FLAGS } from "../cli/init.ts";
import { speedLayer } from "../accel/speed_layer.ts";

const CACHE = join(import.meta.dirname!, ".cache");
const MB = 1024 * 1024;

interface Args {
  tree: "monorepo" | "modules";
  scale: number;
  snapshot?: string;
  floors: boolean;
  view: string;
  budget?: number;
  plain: boolean;
  floorsOnly?: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { tree: "monorepo", scale: 0.25, floors: false, view: "full", plain: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--tree") args.tree = argv[++i] as Args["tree"];
    else if (argv[i] === "--scale") args.scale = Number(argv[++i]);
    else if (argv[i] === "--snapshot") args.snapshot = argv[++i];
    else if (argv[i] === "--floors") args.floors = true;
    else if (argv[i] === "--view") args.view = argv[++i];
    else if (argv[i] === "--budget") args.budget = Number(argv[++i]);
    else if (argv[i] === "--plain") args.plain = true;
    else if (argv[i] === "--floors-only") args.floors = args.floorsOnly = true;
    else {
      throw new Error(
        `[bench] Unknown argument "${
          argv[i]
        }": expected --tree, --scale, --snapshot, --floors, --floors-only, --view, --budget or --plain`,
      );
    }
  }
  if (args.tree !== "monorepo" && args.tree !== "modules") {
    throw new Error(`[bench] Unknown --tree "${args.tree}": expected "monorepo" or "modules"`);
  }
  if (!(args.scale > 0 && args.scale <= 1)) {
    throw new Error(`[bench] Invalid --scale "${args.scale}": expected a number in (0, 1]`);
  }
  return args;
}

/** One stage's end: its time and what the process holds then. */
interface Mark {
  stage: string;
  ms: number;
  heapMb: number;
  heapTotalMb: number;
  externalMb: number;
  threads: number;
  rssMb: number;
  peakMb: number;
  /** CPU time of the stage: every thread of the process, and this (main) thread alone. */
  cpuMs: number;
  mainCpuMs: number;
}

/** CPU time used so far (user + system, ms): the process's, every thread, and the main thread's. */
function cpuTimes(): { cpu: number; main: number } {
  const ticks = (path: string) => {
    // Fields 14 and 15 (utime, stime) after the command's name in parentheses, in 1/100 s.
    const rest = Deno.readTextFileSync(path).split(") ")[1].split(" ");
    return (Number(rest[11]) + Number(rest[12])) * 10;
  };
  return { cpu: ticks("/proc/self/stat"), main: ticks(`/proc/self/task/${Deno.pid}/stat`) };
}

function procStatus(): { peakMb: number; threads: number } {
  const status = Deno.readTextFileSync("/proc/self/status");
  return {
    peakMb: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024,
    threads: Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? 0),
  };
}

/** A stage clock that collects garbage at each mark; its time is not the stage's. */
function memoryClock(gc: () => void, snapshot?: { stage: string; path: string }): {
  clock: StageClock;
  marks: Mark[];
} {
  const marks: Mark[] = [];
  let last = performance.now();
  let lastCpu = cpuTimes();
  const clock: StageClock = {
    mark(stage) {
      const ms = performance.now() - last;
      const cpu = cpuTimes();
      gc();
      const m = Deno.memoryUsage();
      marks.push({
        stage,
        ms,
        heapMb: m.heapUsed / MB,
        heapTotalMb: m.heapTotal / MB,
        externalMb: m.external / MB,
        rssMb: m.rss / MB,
        ...procStatus(),
        cpuMs: cpu.cpu - lastCpu.cpu,
        mainCpuMs: cpu.main - lastCpu.main,
      });
      if (snapshot?.stage === stage) v8.writeHeapSnapshot(snapshot.path);
      last = performance.now();
      lastCpu = cpuTimes();
    },
    stages: () => marks.map((m) => ({ stage: m.stage, ms: m.ms })),
  };
  return { clock, marks };
}

function table(title: string, marks: Mark[]): string {
  const sum = (f: (m: Mark) => number) => marks.reduce((n, m) => n + f(m), 0).toFixed(0);
  return [
    `### ${title}`,
    "",
    "| stage | ms | CPU ms | main thread CPU ms | heap held MB | heap size MB | external MB | RSS MB | peak RSS so far MB | threads |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...marks.map((m) =>
      `| ${m.stage} | ${m.ms.toFixed(0)} | ${m.cpuMs} | ${m.mainCpuMs} | ${m.heapMb.toFixed(0)} | ${
        m.heapTotalMb.toFixed(0)
      } | ${m.externalMb.toFixed(0)} | ${m.rssMb.toFixed(0)} | ${
        m.peakMb.toFixed(0)
      } | ${m.threads} |`
    ),
    `| total | ${sum((m) => m.ms)} | ${sum((m) => m.cpuMs)} | ${
      sum((m) => m.mainCpuMs)
    } | | | | | | |`,
    "",
  ].join("\n");
}

/**
 * What a heap snapshot holds: bytes by node type, and strings of 1 KB or more by the property
 * (or collection) that holds them.
 */
async function snapshotSummary(path: string): Promise<string> {
  const snap = JSON.parse(await Deno.readTextFile(path));
  const meta = snap.snapshot.meta;
  const nf: string[] = meta.node_fields;
  const ef: string[] = meta.edge_fields;
  const nodeTypes: string[] = meta.node_types[0];
  const edgeTypes: string[] = meta.edge_types[0];
  const nodes: number[] = snap.nodes;
  const edges: number[] = snap.edges;
  const strings: string[] = snap.strings;
  const N = nf.length;
  const E = ef.length;
  const [iType, iName, iSize, iEdges] = ["type", "name", "self_size", "edge_count"].map((f) =>
    nf.indexOf(f)
  );
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => ef.indexOf(f));
  const byType = new Map<string, number>();
  const big = new Map<number, number>(); // node offset -> size of strings >= 1 KB
  for (let n = 0; n < nodes.length; n += N) {
    const type = nodeTypes[nodes[n + iType]];
    const size = nodes[n + iSize];
    byType.set(type, (byType.get(type) ?? 0) + size);
    if (size >= 1024 && type.includes("string")) big.set(n, size);
  }
  // The first holder of each big string: "<holder's name>.<property>" or "<holder> element".
  const heldBy = new Map<string, { count: number; bytes: number }>();
  const seen = new Set<number>();
  for (let n = 0, e = 0; n < nodes.length; n += N) {
    const count = nodes[n + iEdges];
    for (let k = 0; k < count; k++, e += E) {
      const to = edges[e + eTo];
      if (!big.has(to) || seen.has(to)) continue;
      const kind = edgeTypes[edges[e + eType]];
      if (kind === "weak") continue;
      seen.add(to);
      const holder = strings[nodes[n + iName]] || nodeTypes[nodes[n + iType]];
      const name = kind === "element" || kind === "hidden"
        ? `${holder.slice(0, 40)} [${kind}]`
        : `${holder.slice(0, 40)}.${strings[edges[e + eName]]}`;
      const row = heldBy.get(name) ?? { count: 0, bytes: 0 };
      row.count++;
      row.bytes += big.get(to)!;
      heldBy.set(name, row);
    }
  }
  const mb = (n: number) => (n / MB).toFixed(1);
  return [
    "| node type | MB |",
    "| --- | ---: |",
    ...[...byType].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([t, b]) => `| ${t} | ${mb(b)} |`),
    "",
    "| strings of 1 KB or more, held by | strings | MB |",
    "| --- | ---: | ---: |",
    ...[...heldBy].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 12).map(([name, r]) =>
      `| ${name.replaceAll("|", "\\|")} | ${r.count} | ${mb(r.bytes)} |`
    ),
    "",
  ].join("\n");
}

/** The value, the wall time and the CPU time (every thread of this process) of `f`, in ms. */
async function timed<T>(f: () => Promise<T>): Promise<[T, number, number]> {
  const start = performance.now();
  const cpu = cpuTimes().cpu;
  const value = await f();
  return [value, performance.now() - start, cpuTimes().cpu - cpu];
}

/** The floors of a build of `dir` whose document is `document` (bytes). */
async function floors(dir: string, configPath: string, document: string): Promise<string> {
  const files = await walkFiles(dir);
  const [, statMs, statCpu] = await timed(async () => {
    for (const f of files) await Deno.lstat(f);
  });
  // A warm build's floor: every file looked at, the edited one read, the document written.
  const out = `${document}.floor`;
  const [, writeMs, writeCpu] = await timed(async () => {
    await Deno.readFile(files[Math.floor(files.length / 2)]);
    const from = await Deno.open(document);
    const to = await Deno.open(out, { write: true, create: true, truncate: true });
    await from.readable.pipeTo(to.writable);
  });
  await Deno.remove(out);
  // A cold build's floor: every file read, scanned for secrets and counted.
  const config = await loadConfig({ config: configPath, stateDir: await Deno.makeTempDir() });
  const resolution = await resolveTargets(config);
  const [sources, readMs, readCpu] = await timed(() => readTargets(resolution.targets, config));
  const [, scanMs, scanCpu] = await timed(() => redactSources(sources, config.secrets.rules));
  // Every file's text counted once, on the counter's threads: not by distinct content (60 copies
  // of one library would be counted once).
  const texts = sources.flatMap((s) => (s.text === undefined ? [] : [s.text]));
  const [, countMs, countCpu] = await timed(() => countTexts(texts));
  releaseCounting();
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return [
    "| floor | s | CPU s |",
    "| --- | ---: | ---: |",
    `| lstat every file (${files.length}) | ${s(statMs)} | ${s(statCpu)} |`,
    `| read one file, write the document (${
      ((await Deno.stat(document)).size / MB).toFixed(0)
    } MB) | ${s(writeMs)} | ${s(writeCpu)} |`,
    `| warm floor (the two above) | ${s(statMs + writeMs)} | ${s(statCpu + writeCpu)} |`,
    `| read and decode every file | ${s(readMs)} | ${s(readCpu)} |`,
    `| secret scan of every file | ${s(scanMs)} | ${s(scanCpu)} |`,
    `| token count of every file (o200k) | ${s(countMs)} | ${s(countCpu)} |`,
    `| cold floor (scan + count) | ${s(scanMs + countMs)} | ${s(scanCpu + countCpu)} |`,
    "",
  ].join("\n");
}

/** One build in this process (the child of {@linkcode main}): its marks as JSON on stdout. */
async function child(argv: string[]): Promise<void> {
  const [phase, configPath, state, budget, plain, snapshotStage, snapshotPath] = argv;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("[bench] Run with --v8-flags=--expose-gc (see the module's doc)");
  const snapshot = snapshotStage ? { stage: snapshotStage, path: snapshotPath } : undefined;
  const { clock, marks } = memoryClock(gc, snapshot);
  const config = await loadConfig({
    config: configPath,
    stateDir: state,
    ...(budget ? { budget: Number(budget) } : {}),
  });
  clock.mark("config");
  // As `slop build` runs it: the stages with the speed layer (`--plain`: without).
  const layer = plain === "plain" ? undefined : speedLayer();
  const result = await build(config, { builtins: defaultPlugins(), timings: clock, layer });
  console.log(
    JSON.stringify({
      phase,
      blocks: result.blocks.length,
      marks,
      document: result.output?.document,
    }),
  );
}

/** Run one build in a new process (as `slop build` runs, with its V8 flags and `--expose-gc`). */
async function buildIn(
  phase: string,
  configPath: string,
  state: string,
  budget?: number,
  plain?: boolean,
  snapshot?: { stage: string; path: string },
): Promise<{ blocks: number; marks: Mark[]; document: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${SLOP_V8_FLAGS},--expose-gc`,
      import.meta.filename!,
      "--child",
      phase,
      configPath,
      state,
      String(budget ?? ""),
      plain ? "plain" : "layer",
      ...(snapshot ? [snapshot.stage, snapshot.path] : []),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`[bench] The ${phase} build failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
}

/**
 * {@linkcode floors} in a new process with slop's V8 flags, as the builds run: without TurboFan
 * the counter takes about a fifth more CPU, so floors timed in this process were too low.
 */
async function floorsIn(dir: string, configPath: string, document: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      SLOP_V8_FLAGS,
      import.meta.filename!,
      "--floors-child",
      dir,
      configPath,
      document,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("[bench] The floors failed");
  return new TextDecoder().decode(out.stdout).trimEnd() + "\n";
}

async function main(): Promise<void> {
  if (Deno.args[0] === "--child") return await child(Deno.args.slice(1));
  if (Deno.args[0] === "--floors-child") {
    const [dir, configPath, document] = Deno.args.slice(1);
    return console.log(await floors(dir, configPath, document));
  }
  const args = parseArgs(Deno.args);
  const corpora = await prepareMonorepoCorpora(CACHE, args.scale, console.error);
  const corpus = corpora.find((c) => c.name.startsWith(args.tree));
  if (!corpus) throw new Error(`[bench] No ${args.tree} tree`);
  const work = await Deno.makeTempDir({ prefix: "slop_memory_" });
  const state = join(work, "state");
  const configPath = await slopConfig(work, corpus, args.view);
  const snapshot = args.snapshot
    ? { stage: args.snapshot, path: join(work, "heap.heapsnapshot") }
    : undefined;
  const report = [
    `## ${corpus.name}: ${corpus.files} files, ${(corpus.bytes / MB).toFixed(0)} MB`,
    "",
  ];
  try {
    if (args.floorsOnly) {
      // A document of the tree's size: its files one after the other (not timed).
      const document = join(work, "document.md");
      const out = await Deno.open(document, { write: true, create: true });
      for (const path of await walkFiles(corpus.dir)) await out.write(await Deno.readFile(path));
      out.close();
      report.push("### Floors", "", await floorsIn(corpus.dir, configPath, document));
      console.log(report.join("\n"));
      return;
    }
    const what = `${args.view}${args.budget ? ` --budget ${args.budget}` : ""}${
      args.plain ? ", plain stages" : ""
    }`;
    const cold = await buildIn("cold", configPath, state, args.budget, args.plain, snapshot);
    report.push(table(`cold ${what}: ${cold.blocks} blocks`, cold.marks));
    const files = await walkFiles(corpus.dir);
    const target = files[Math.floor(files.length / 2)];
    const original = await Deno.readFile(target);
    await Deno.writeTextFile(target, "\n# slop memory edit\n", { append: true });
    try {
      const warm = await buildIn("warm", configPath, state, args.budget, args.plain);
      report.push(table(`warm ${what}, one file edited: ${warm.blocks} blocks`, warm.marks));
    } finally {
      await Deno.writeFile(target, original);
    }
    if (snapshot && existsSync(snapshot.path)) {
      report.push(`### Heap at the end of "${snapshot.stage}" (cold)`, "");
      report.push(await snapshotSummary(snapshot.path));
    }
    if (args.floors) {
      report.push("### Floors", "", await floorsIn(corpus.dir, configPath, cold.document));
    }
    console.log(report.join("\n"));
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await main();
