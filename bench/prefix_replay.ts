/**
 * Prefix replay: how much of each build is a byte-identical prefix of the
 * build before it (what a provider prompt cache can reuse), over a real
 * history.
 *
 * ```sh
 * deno task bench:prefix [--repo DIR] [--rev REV] [--n 50] [--no-repomix] [--keep-first-changed]
 *                         [--rate observed|window] [--view VIEW] [--no-sim]
 *                         [--modes written,piped,stateless] [--histories DIR] [--out FILE]
 * ```
 *
 * 1. Replay: clones `--repo` (default: this repository) without touching it,
 *    checks out each of its last N first-parent commits, oldest first, and
 *    builds each with slop (zero-config, full view) the ways it is run:
 *    `written` (`slop build`, order memory kept in a state dir outside the
 *    clone across commits), `piped` (`slop build --stdout`: not written, its
 *    own memory kept), `stateless` (a new state dir for every commit), and
 *    with Repomix (`repomix@1.18.1` from npm, markdown style). Reports the
 *    median, p10 and mean share per tool, what broke slop's prefix most
 *    often, and the oracle (the written builds with their changed files
 *    last).
 * 2. Simulation: over the change metadata in `--histories` (`*.json`, 50
 *    commits each), the share per file order, with slop's own `advanceOrder`.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../pipeline/config.ts";
import { build } from "../pipeline/build.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { volatilityOrdering } from "../plugins/ordering/volatility.ts";
import { type HistoryCommit, quantile, SIM_ORDERS, simulate } from "./_prefix_sim.ts";
import { preparePeer, runCommand } from "./_corpora.ts";
import { speedLayer } from "../accel/speed_layer.ts";

const BENCH = dirname(fileURLToPath(import.meta.url));
const REPO = join(BENCH, "..");

/** The ways slop is run in a replay (`--modes`). */
const MODES = ["written", "piped", "stateless"] as const;
type Mode = typeof MODES[number];

/** Parsed command line. */
interface Args {
  repo: string;
  /** The commit whose first-parent history is replayed. @default {"HEAD"} */
  rev: string;
  n: number;
  repomix: boolean;
  histories?: string;
  out?: string;
  /** Plugin options for slop's `volatility` rule (`--keep-first-changed`). */
  keepFirstChanged?: boolean;
  /** `--view V`: slop's `defaultView` (zero-config otherwise). @default {"full"} */
  view?: string;
  /** `--rate window`: the research's endless-window change rate. */
  rate?: "observed" | "window";
  /** How slop is run (`--modes written,piped,stateless`). @default {all three} */
  modes: Mode[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { repo: REPO, rev: "HEAD", n: 50, repomix: true, modes: [...MODES] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--repo") args.repo = argv[++i];
    else if (a === "--n") args.n = Number(argv[++i]);
    else if (a === "--rev") args.rev = argv[++i];
    else if (a === "--no-repomix") args.repomix = false;
    else if (a === "--histories") args.histories = argv[++i];
    else if (a === "--no-sim") args.histories = "";
    else if (a === "--out") args.out = argv[++i];
    else if (a === "--keep-first-changed") args.keepFirstChanged = true;
    else if (a === "--view") args.view = argv[++i];
    else if (a === "--rate") args.rate = argv[++i] === "window" ? "window" : "observed";
    else if (a === "--modes") {
      const modes = argv[++i].split(",");
      const bad = modes.find((m) => !(MODES as readonly string[]).includes(m));
      if (bad) throw new Error(`[bench] Invalid --modes "${bad}": expected ${MODES.join(", ")}`);
      args.modes = modes as Mode[];
    } else throw new Error(`[bench] Unknown argument "${a}"`);
  }
  if (!(args.n >= 2)) throw new Error(`[bench] Invalid --n "${args.n}": need at least 2`);
  args.histories ??= join(REPO, "bench", "histories");
  return args;
}

/** Length of the common byte prefix of two documents. */
function sharedPrefix(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  const max = Math.min(a.length, b.length);
  while (n < max && a[n] === b[n]) n++;
  return n;
}

/** One tool's shares over a replay, and what broke its prefix. */
interface ReplayResult {
  tool: string;
  shares: number[];
  /** Per pair: what the first differing block was (slop's modes only). */
  breaks: string[];
}

/** A build's blocks as the replay compares them. */
type Placed = Array<{ id: string; sha256: string; length: number; source?: string }>;

/**
 * What broke the prefix between two builds, at the first position where they differ: the block
 * the previous build had there was `modified`, `deleted` (gone), or moved away by the order with
 * its bytes unchanged (`reordered`); else the new build put a `new` block there. `none` when the
 * new build starts with the whole previous one.
 */
function breakKind(prev: Placed, cur: Placed): string {
  const now = new Map(cur.map((b) => [b.id, b.sha256]));
  const before = new Set(prev.map((b) => b.id));
  for (let i = 0; i < prev.length; i++) {
    const p = prev[i];
    const b = cur[i];
    if (b && p.id === b.id && p.sha256 === b.sha256) continue;
    const what = p.source ? "file" : "block";
    if (!now.has(p.id)) return `deleted ${what}`;
    if (now.get(p.id) !== p.sha256) return `modified ${what}`;
    if (b && !before.has(b.id)) return `new ${b.source ? "file" : "block"}`;
    return `reordered ${what}`;
  }
  return "none";
}

/**
 * The oracle's share: the file blocks that did not change between two builds, all placed before
 * any that did (changed files last), after the blocks before the files that are the same.
 */
function oracleShare(prev: Placed, cur: Placed): number {
  const total = cur.reduce((n, b) => n + b.length, 0);
  if (!total) return 1;
  const before = new Map(prev.map((b) => [b.id, b.sha256]));
  let shared = 0;
  let lead = true;
  for (const b of cur) {
    const same = before.get(b.id) === b.sha256;
    if (!b.source) {
      // A block outside the files (heading, other section): the prefix runs on while they match.
      if (!lead) continue;
      if (same) shared += b.length;
      else lead = false;
    } else if (same && lead) shared += b.length;
  }
  return shared / total;
}

async function replay(args: Args, log: (s: string) => void): Promise<ReplayResult[]> {
  const commits = (await runCommand(
    "git",
    ["rev-list", "--first-parent", "-n", String(args.n), args.rev],
    args.repo,
  ))
    .trim().split("\n").filter(Boolean).reverse();
  log(`replaying ${commits.length} first-parent commits of ${args.repo} at ${args.rev}`);
  const work = await Deno.makeTempDir({ prefix: "slop_prefix_replay_" });
  const clone = join(work, "repo");
  await runCommand("git", ["clone", "-q", "--shared", "--no-checkout", args.repo, clone]);
  const peer = args.repomix ? await preparePeer(join(BENCH, ".cache")) : undefined;
  const tool = (m: Mode) => m === "written" ? "slop" : `slop ${m}`;
  const results: ReplayResult[] = args.modes.map((m) => ({
    tool: tool(m),
    shares: [],
    breaks: [],
  }));
  const oracle: ReplayResult = { tool: "oracle (changed files last)", shares: [], breaks: [] };
  if (peer) results.push({ tool: "repomix", shares: [], breaks: [] });
  let prev: Uint8Array[] | undefined;
  let prevBlocks: Placed[] | undefined;
  for (const [i, commit] of commits.entries()) {
    await runCommand("git", ["checkout", "-q", "--force", "--detach", commit], clone);
    await runCommand("git", ["clean", "-q", "-fdx"], clone);
    const tuned = args.keepFirstChanged || args.rate;
    const plugins = tuned
      ? [volatilityOrdering({ keepFirstChanged: args.keepFirstChanged, rate: args.rate })]
      : [];
    const inline = { plugins, ...(args.view ? { defaultView: args.view } : {}) };
    const docs: Uint8Array[] = [];
    const blocks: Placed[] = [];
    for (const mode of args.modes) {
      // written: `slop build`; piped: `slop build --stdout` (no document written), each with its
      // order memory kept across commits; stateless: a new state dir for every commit (a new
      // clone, a CI job without a cache).
      const state = mode === "stateless"
        ? await Deno.makeTempDir({ dir: work, prefix: "stateless_" })
        : join(work, `state-${mode}`);
      const config = await loadConfig({ cwd: clone, inline, stateDir: state });
      const result = await build(config, {
        builtins: defaultPlugins(),
        layer: speedLayer(),
        write: mode === "written",
      });
      docs.push(new TextEncoder().encode(result.document));
      blocks.push(result.blocks);
      if (mode === "stateless") await Deno.remove(state, { recursive: true });
    }
    if (peer) {
      const out = join(work, "repomix.md");
      await runCommand("node", [peer.bin, clone, "--style", "markdown", "-o", out, "--quiet"]);
      docs.push(await Deno.readFile(out));
    }
    if (prev && prevBlocks) {
      docs.forEach((d, k) => {
        results[k].shares.push(d.length ? sharedPrefix(prev![k], d) / d.length : 1);
        if (blocks[k]) results[k].breaks.push(breakKind(prevBlocks![k], blocks[k]));
      });
      if (blocks.length) oracle.shares.push(oracleShare(prevBlocks[0], blocks[0]));
      log(
        `  ${i}/${commits.length - 1} ${commit.slice(0, 8)}: ` +
          [...results, oracle].filter((r) => r.shares.length)
            .map((r) => `${r.tool} ${(r.shares.at(-1)! * 100).toFixed(1)}%`).join(", "),
      );
    }
    prev = docs;
    prevBlocks = blocks;
  }
  await Deno.remove(work, { recursive: true }).catch(() => {});
  return oracle.shares.length ? [...results, oracle] : results;
}

/** The most frequent causes of a break, with counts: `modified file 30, new file 5`. */
function topBreaks(breaks: string[]): string {
  const counts = new Map<string, number>();
  for (const b of breaks) if (b !== "none") counts.set(b, (counts.get(b) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return sorted.slice(0, 3).map(([k, n]) => `${k} ${n}`).join(", ") || "-";
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main() {
  const args = parseArgs(Deno.args);
  const lines: string[] = [];
  const log = (s: string) => console.error(s);
  const replayed = await replay(args, log);
  lines.push(
    `Replay of ${replayed[0].shares.length + 1} first-parent commits of \`${args.repo}\` ` +
      `at \`${args.rev}\`${args.keepFirstChanged ? " (keepFirstChanged)" : ""}` +
      `${args.view ? ` (${args.view} view)` : ""} ` +
      "(zero-config, full view; share of each build that is a byte-identical prefix of the one before):",
    "",
    "| tool | pairs | median | p10 | mean | what broke the prefix (pairs) |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
    ...replayed.map((r) =>
      `| ${r.tool} | ${r.shares.length} | ${pct(quantile(r.shares, 0.5))} | ${
        pct(quantile(r.shares, 0.1))
      } | ${pct(r.shares.reduce((a, b) => a + b, 0) / Math.max(1, r.shares.length))} | ${
        r.breaks.length ? topBreaks(r.breaks) : "-"
      } |`
    ),
  );
  if (args.histories && existsSync(args.histories)) {
    lines.push(
      "",
      "Simulation over recorded change metadata (`histories/*.json`; blocks = file size + heading;" +
        " `mid-file` keeps the bytes before an edit assumed to sit mid-file):",
      "",
      "| history | order | median | p10 | median, mid-file | p10, mid-file |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
    );
    for await (const entry of Deno.readDir(args.histories)) {
      if (!entry.name.endsWith(".json")) continue;
      const history: HistoryCommit[] = JSON.parse(
        await Deno.readTextFile(join(args.histories, entry.name)),
      );
      for (const [name, make] of Object.entries(SIM_ORDERS)) {
        const r = simulate(history, name, make());
        lines.push(
          `| ${entry.name.replace(/\.json$/, "")} | ${name} | ${pct(r.median)} | ${pct(r.p10)} | ${
            pct(r.medianMid)
          } | ${pct(r.p10Mid)} |`,
        );
      }
    }
  }
  const text = lines.join("\n") + "\n";
  if (args.out) await Deno.writeTextFile(args.out, text);
  console.log(text);
}

if (import.meta.main) await main();
