/**
 * Pair by pair, what broke the order memory's prefix over the blocks of a replay
 * (`prefix_block_sim.ts`'s capture): for every pair under `--below`, the file that broke it, where
 * it sat, how big it was, when it had changed before, how many files the commit changed, the class
 * of the break, and what keeping that file last would have cost elsewhere (the same replay with
 * the file moved to the end of every order: this pair's share and the other pairs' change).
 *
 * ```sh
 * deno run -A bench/prefix_pair_study.ts --repo DIR [--n 50] [--capture 100] [--below 0.5]
 * ```
 *
 * Classes (first that applies): `sweep` (the commit changed 10 files or more), `cold` (the file
 * had not changed in the 50 commits before), `recent` (it changed in the 5 commits before),
 * `warm` (otherwise).
 *
 * @module
 */

import { type Capture, capture, memory, replayOrder } from "./prefix_block_sim.ts";
import { quantile } from "./_prefix_sim.ts";

interface Args {
  repo: string;
  n: number;
  capture: number;
  below: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { repo: "", n: 50, capture: 0, below: 0.5 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--repo") args.repo = argv[++i];
    else if (a === "--n") args.n = Number(argv[++i]);
    else if (a === "--capture") args.capture = Number(argv[++i]);
    else if (a === "--below") args.below = Number(argv[++i]);
    else throw new Error(`[bench] Unknown argument "${a}"`);
  }
  if (!args.repo) throw new Error("[bench] Missing --repo DIR (a git dir or work tree)");
  if (!(args.n >= 2)) throw new Error(`[bench] Invalid --n "${args.n}": need at least 2`);
  args.capture = Math.max(args.capture, args.n);
  return args;
}

/** One pair's break: the first file of the previous order that the commit changed. */
interface PairBreak {
  hash: string;
  share: number;
  path?: string;
  /** Share of the document before the file, and the file's own share. */
  at: number;
  size: number;
  /** Files the commit changed, added or deleted. */
  touched: number;
  /** Commits since each earlier change of the file (the newest first). */
  ages: number[];
  kind: string;
}

function kindOf(touched: number, ages: number[]): string {
  if (touched >= 10) return "sweep";
  if (!ages.length || ages[0] >= 50) return "cold";
  return ages[0] < 5 ? "recent" : "warm";
}

/** The breaks of the memory's replay, pair by pair. */
function breaks(data: Capture): PairBreak[] {
  const shares = replayOrder(data, memory());
  const order = memory();
  const out: PairBreak[] = [];
  let before: string[] = [];
  data.commits.forEach((commit, i) => {
    const at = data.log.findIndex((c) => c.hash === commit.hash);
    const files = commit.blocks.filter((b) => b.source).map((b) => ({
      path: b.source!,
      sha256: b.sha256,
      bytes: b.length,
    }));
    if (i > 0) {
      out.push(pairBreak(data.commits[i - 1].blocks, commit.blocks, before, shares[i - 1]));
    }
    const last = out.at(-1);
    if (last?.path) last.ages = ages(data, at, last.path);
    if (last) last.kind = kindOf(last.touched, last.ages);
    last && (last.hash = commit.hash.slice(0, 7));
    before = order({ files, history: data.log.slice(at) });
  });
  return out;
}

function ages(data: Capture, at: number, path: string): number[] {
  const out: number[] = [];
  data.log.slice(at + 1).forEach((c, k) => c.paths.includes(path) && out.push(k));
  return out;
}

type Blocks = Capture["commits"][number]["blocks"];

function pairBreak(prev: Blocks, cur: Blocks, order: string[], share: number): PairBreak {
  const was = new Map(prev.filter((b) => b.source).map((b) => [b.source!, b]));
  const now = new Map(cur.filter((b) => b.source).map((b) => [b.source!, b.sha256]));
  const touched = [...new Set([...was.keys(), ...now.keys()])]
    .filter((p) => was.get(p)?.sha256 !== now.get(p)).length;
  const total = prev.reduce((n, b) => n + b.length, 0);
  let offset = prev.filter((b) => !b.source).slice(0, prev.findIndex((b) => b.source))
    .reduce((n, b) => n + b.length, 0);
  for (const path of order) {
    const b = was.get(path)!;
    if (now.get(path) !== b.sha256) {
      const size = b.length / total;
      return { hash: "", share, path, at: offset / total, size, touched, ages: [], kind: "" };
    }
    offset += b.length;
  }
  return { hash: "", share, at: 1, size: 0, touched, ages: [], kind: "" };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const summary = (s: number[]) => `${pct(quantile(s, 0.5))} / ${pct(quantile(s, 0.1))}`;

/** What keeping `path` last in every order gives: this pair's share, the others' change. */
function lastCost(data: Capture, path: string, pair: number, base: number[]) {
  const shares = replayOrder(data, memory({ last: path }));
  const others = shares.reduce((n, s, k) => n + (k === pair ? 0 : s - base[k]), 0);
  return { here: shares[pair], others, summary: summary(shares) };
}

async function main() {
  const args = parseArgs(Deno.args);
  const full = await capture(args.repo, args.capture);
  const data: Capture = { ...full, commits: full.commits.slice(-args.n) };
  const base = replayOrder(data, memory());
  const found = breaks(data);
  const rows: string[] = [];
  const counts = new Map<string, number>();
  found.forEach((b, k) => {
    if (b.share >= args.below || !b.path) return;
    counts.set(b.kind, (counts.get(b.kind) ?? 0) + 1);
    const cost = lastCost(data, b.path, k, base);
    const others = `${cost.others >= 0 ? "+" : ""}${(cost.others * 100).toFixed(1)}`;
    rows.push(
      `| ${b.hash} | ${pct(b.share)} | ${b.kind} | ${b.touched} | \`${b.path}\` | ${pct(b.at)} | ` +
        `${pct(b.size)} | ${b.ages.slice(0, 4).join(", ") || "-"} | ${pct(cost.here)} | ` +
        `${others} | ${cost.summary} |`,
    );
  });
  console.log(
    [
      `Pairs under ${pct(args.below)} of the last ${args.n} commits of \`${args.repo}\` ` +
      `(memory ${summary(base)}); classes: ${[...counts].map(([k, n]) => `${k} ${n}`).join(", ")}`,
      "",
      "| commit | share | class | files changed | broken by | at | size | changed before (commits ago) | share with it last | other pairs (points) | median / p10 with it last |",
      "| --- | ---: | --- | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: |",
      ...rows,
    ].join("\n"),
  );
}

if (import.meta.main) await main();
