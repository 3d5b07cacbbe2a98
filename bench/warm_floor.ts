/**
 * A warm rebuild against its floor, on one of the big trees (`_monorepo.ts`):
 * a cold `slop build` once, then for each run a one-file edit and, in turn, a
 * warm `slop build --timings` (a new process, as a user runs it) and the
 * floor, in a process of its own with slop's V8 flags. The floor is what any
 * warm rebuild must do: list the files (`git ls-files`), `lstat` each, read
 * the edited file, and write a document of the last one's size (copied by the
 * kernel from the last document, `copy_file_range`; and written from memory,
 * the cost of bytes a build has to make). Each run gives wall and CPU time
 * (user + system, every thread, from `/usr/bin/time`), so that runs on a
 * shared machine can be compared by CPU as well; the load average is printed
 * with every run.
 *
 * ```sh
 * deno run -A bench/warm_floor.ts [--tree monorepo|modules] [--scale 0.1] [--runs 3]
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { prepareMonorepoCorpora } from "./_monorepo.ts";
import { slopConfig } from "./_jobs.ts";
import { median } from "./_measure.ts";
import { SLOP_V8_FLAGS } from "../cli/init.ts";
import { trackedFiles, TURBOFAN_FROM_BYTES, v8FlagsFor } from "../cli/_v8_flags.ts";

const CACHE = join(import.meta.dirname!, ".cache");
const REPO = join(import.meta.dirname!, "..");

interface Args {
  tree: "monorepo" | "modules";
  scale: number;
  runs: number;
  /** A state dir to build in and keep (its last build is the cold one). */
  state?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { tree: "monorepo", scale: 0.1, runs: 3 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--tree") args.tree = argv[++i] as Args["tree"];
    else if (argv[i] === "--scale") args.scale = Number(argv[++i]);
    else if (argv[i] === "--runs") args.runs = Number(argv[++i]);
    else if (argv[i] === "--state") args.state = argv[++i];
    else {
      throw new Error(
        `[bench] Unknown argument "${argv[i]}": expected --tree, --scale, --runs or --state`,
      );
    }
  }
  if (args.tree !== "monorepo" && args.tree !== "modules") {
    throw new Error(`[bench] Unknown --tree "${args.tree}": expected "monorepo" or "modules"`);
  }
  if (!(args.scale > 0 && args.scale <= 1)) {
    throw new Error(`[bench] Invalid --scale "${args.scale}": expected a number in (0, 1]`);
  }
  if (!(Number.isInteger(args.runs) && args.runs > 0)) {
    throw new Error(`[bench] Invalid --runs "${args.runs}": expected a whole number above 0`);
  }
  return args;
}

/** One timed process: wall and CPU seconds, peak RSS in MB, and its stderr. */
interface Timed {
  wall: number;
  cpu: number;
  rssMb: number;
  stderr: string;
  stdout: string;
}

/** Run a command under `/usr/bin/time`: wall, user + system CPU of every thread, peak RSS. */
async function timedRun(args: string[]): Promise<Timed> {
  const tmp = await Deno.makeTempFile({ prefix: "slop_floor_time_" });
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%e %U %S %M", "-o", tmp, Deno.execPath(), ...args],
    env: { NO_COLOR: "1", CI: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`[bench] "${args.join(" ")}" failed: ${stderr.slice(-2000)}`);
  const [wall, user, sys, kb] = (await Deno.readTextFile(tmp)).trim().split("\n").pop()!
    .split(" ").map(Number);
  await Deno.remove(tmp);
  const stdout = new TextDecoder().decode(out.stdout);
  return { wall, cpu: user + sys, rssMb: kb / 1024, stderr, stdout };
}

/** `slop build -q --timings` with the config and state dir, as the bench's jobs run it. */
function slopBuild(config: string, state: string, flags: string): Promise<Timed> {
  return timedRun([
    "run",
    "-A",
    flags,
    "--quiet",
    join(REPO, "cli.ts"),
    "build",
    "-q",
    "--no-server",
    "--timings",
    "--config",
    config,
    "--state-dir",
    state,
  ]);
}

/** The stage times `--timings` printed, in ms, by stage. */
function stageTimes(stderr: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of stderr.matchAll(/^\s+([a-z][a-z ]*?)\s+([\d.]+) ms/gm)) {
    out.set(m[1], Number(m[2]));
  }
  return out;
}

/** The newest numbered document of an output folder. */
function newestDocument(dir: string): string {
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => /_\d+\.md$/.test(n));
  names.sort((a, b) => Number(/(\d+)\.md$/.exec(a)![1]) - Number(/(\d+)\.md$/.exec(b)![1]));
  if (!names.length) throw new Error(`[bench] No document in "${dir}"`);
  return join(dir, names[names.length - 1]);
}

function hasDocument(dir: string): boolean {
  try {
    return newestDocument(dir) !== "";
  } catch {
    return false;
  }
}

/** The floor's parts in this process, in ms of wall time, as JSON on stdout. */
async function floorChild(root: string, edited: string, document: string): Promise<void> {
  const ms: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    ms[name] = now - t;
    t = now;
  };
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-co", "--exclude-standard", "-z"],
    cwd: root,
    stdout: "piped",
  }).output();
  const paths = new TextDecoder().decode(listed.stdout).split("\0").filter((p) => p);
  lap("git ls-files");
  for (const path of paths) Deno.lstatSync(`${root}/${path}`);
  lap(`lstat ${paths.length} files`);
  await Deno.readFile(edited);
  lap("read the edited file");
  const copy = `${document}.floor`;
  await Deno.copyFile(document, copy);
  lap("copy the last document (kernel)");
  await Deno.remove(copy);
  t = performance.now();
  const bytes = await Deno.readFile(document);
  t = performance.now();
  await Deno.writeFile(copy, bytes);
  lap("write the document from memory");
  await Deno.remove(copy);
  console.log(JSON.stringify(ms));
}

function floorRun(root: string, edited: string, document: string): Promise<Timed> {
  return timedRun([
    "run",
    "-A",
    SLOP_V8_FLAGS,
    "--quiet",
    import.meta.filename!,
    "--floor-child",
    root,
    edited,
    document,
  ]);
}

function load(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

/** One run: the edit, then the warm build and the floor, in an order that alternates by run. */
async function oneRun(
  run: number,
  setup: { root: string; edited: string; config: string; state: string },
): Promise<{ build: Timed; floor: Timed; parts: Record<string, number> }> {
  const { root, edited, config, state } = setup;
  await Deno.writeTextFile(edited, `\n# slop warm floor edit ${run}\n`, { append: true });
  const document = newestDocument(join(state, "out"));
  let floor: Timed | undefined;
  if (run % 2) floor = await floorRun(root, edited, document);
  const build = await slopBuild(config, state, v8FlagsFor(trackedFiles(root, TURBOFAN_FROM_BYTES)));
  floor ??= await floorRun(root, edited, document);
  return { build, floor, parts: JSON.parse(floor.stdout.trim().split("\n").pop()!) };
}

const s = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  if (Deno.args[0] === "--floor-child") {
    const [root, edited, document] = Deno.args.slice(1);
    return await floorChild(root, edited, document);
  }
  const args = parseArgs(Deno.args);
  const corpora = await prepareMonorepoCorpora(CACHE, args.scale, console.error);
  const corpus = corpora.find((c) => c.name.startsWith(args.tree));
  if (!corpus) throw new Error(`[bench] No ${args.tree} tree`);
  const work = await Deno.makeTempDir({ prefix: "slop_warm_floor_" });
  const state = args.state ?? join(work, "state");
  // In a state dir given, the config stays beside it: the stat index is kept by config path.
  if (args.state) await Deno.mkdir(args.state, { recursive: true });
  const config = await slopConfig(args.state ?? work, corpus, "full");
  const listed = await new Deno.Command("git", { args: ["ls-files"], cwd: corpus.dir }).output();
  const files = new TextDecoder().decode(listed.stdout).trim().split("\n").sort();
  const edited = join(corpus.dir, files[Math.floor(files.length / 2)]);
  const original = await Deno.readFile(edited);
  try {
    // A state dir given with a document in it was built before: its next build is warm.
    if (!args.state || !hasDocument(join(state, "out"))) {
      console.error(`${corpus.name}: cold build (load ${load()})`);
      const cold = await slopBuild(
        config,
        state,
        v8FlagsFor(trackedFiles(corpus.dir, TURBOFAN_FROM_BYTES)),
      );
      console.error(`  ${s(cold.wall)} s, CPU ${s(cold.cpu)} s, ${cold.rssMb.toFixed(0)} MB`);
    }
    const rows = [];
    for (let run = 1; run <= args.runs; run++) {
      const before = load();
      const row = await oneRun(run, { root: corpus.dir, edited, config, state });
      rows.push({ ...row, load: `${before} -> ${load()}` });
      console.error(
        `run ${run}: warm ${s(row.build.wall)} s (CPU ${s(row.build.cpu)}), floor ${
          s(row.floor.wall)
        } s (CPU ${s(row.floor.cpu)}), load ${rows.at(-1)!.load}`,
      );
    }
    console.log(report(corpus, rows));
  } finally {
    await Deno.writeFile(edited, original);
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

/** The runs as markdown: each run's times, then the medians of the stages and floor parts. */
function report(
  corpus: { name: string; files: number; bytes: number },
  rows: Array<{ build: Timed; floor: Timed; parts: Record<string, number>; load: string }>,
): string {
  const lines = [
    `## ${corpus.name}: ${corpus.files} files, ${(corpus.bytes / 1048576).toFixed(0)} MB`,
    "",
    "| run | warm build s | CPU s | peak RSS MB | floor s | floor CPU s | warm / floor | load |",
    "| --: | --: | --: | --: | --: | --: | --: | --- |",
    ...rows.map((r, i) =>
      `| ${i + 1} | ${s(r.build.wall)} | ${s(r.build.cpu)} | ${r.build.rssMb.toFixed(0)} | ${
        s(r.floor.wall)
      } | ${s(r.floor.cpu)} | ${(r.build.wall / r.floor.wall).toFixed(1)} | ${r.load} |`
    ),
    "",
    "| warm build stage (median) | ms |",
    "| --- | --: |",
  ];
  const stages = rows.map((r) => stageTimes(r.build.stderr));
  for (const stage of stages[0].keys()) {
    lines.push(`| ${stage} | ${median(stages.map((m) => m.get(stage) ?? 0)).toFixed(0)} |`);
  }
  lines.push("", "| floor part (median) | ms |", "| --- | --: |");
  for (const part of Object.keys(rows[0].parts)) {
    lines.push(`| ${part} | ${median(rows.map((r) => r.parts[part])).toFixed(0)} |`);
  }
  return lines.join("\n") + "\n";
}

if (import.meta.main) await main();
