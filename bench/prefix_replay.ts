/**
 * Prefix replay: how much of each build is a byte-identical prefix of the
 * build before it (what a provider prompt cache can reuse), over a real
 * history.
 *
 * ```sh
 * deno task bench:prefix [--repo DIR] [--rev REV] [--n 50] [--no-repomix] [--keep-first-changed]
 *                         [--rate observed|window] [--view VIEW] [--no-sim]
 *                         [--histories DIR] [--out FILE]
 * ```
 *
 * 1. Replay: clones `--repo` (default: this repository) without touching it,
 *    checks out each of its last N first-parent commits, oldest first, and
 *    builds each with slop (zero-config, full view, order memory kept in a
 *    state dir outside the clone across commits) and with Repomix
 *    (`repomix@1.18.1` from npm, markdown style). Reports the median and p10
 *    share per tool.
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

const BENCH = dirname(fileURLToPath(import.meta.url));
const REPO = join(BENCH, "..");

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
}

function parseArgs(argv: string[]): Args {
  const args: Args = { repo: REPO, rev: "HEAD", n: 50, repomix: true };
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
    else throw new Error(`[bench] Unknown argument "${a}"`);
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

/** One tool's shares over a replay. */
interface ReplayResult {
  tool: string;
  shares: number[];
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
  const state = join(work, "state");
  const peer = args.repomix ? await preparePeer(join(BENCH, ".cache")) : undefined;
  const results: ReplayResult[] = [{ tool: "slop", shares: [] }];
  if (peer) results.push({ tool: "repomix", shares: [] });
  let prev: Uint8Array[] | undefined;
  for (const [i, commit] of commits.entries()) {
    await runCommand("git", ["checkout", "-q", "--force", "--detach", commit], clone);
    await runCommand("git", ["clean", "-q", "-fdx"], clone);
    const tuned = args.keepFirstChanged || args.rate;
    const plugins = tuned
      ? [volatilityOrdering({ keepFirstChanged: args.keepFirstChanged, rate: args.rate })]
      : [];
    const inline = { plugins, ...(args.view ? { defaultView: args.view } : {}) };
    const config = await loadConfig({ cwd: clone, inline, stateDir: state });
    const result = await build(config, { builtins: defaultPlugins(), write: true });
    const docs = [new TextEncoder().encode(result.document)];
    if (peer) {
      const out = join(work, "repomix.md");
      await runCommand("node", [peer.bin, clone, "--style", "markdown", "-o", out, "--quiet"]);
      docs.push(await Deno.readFile(out));
    }
    if (prev) {
      docs.forEach((d, k) =>
        results[k].shares.push(d.length ? sharedPrefix(prev![k], d) / d.length : 1)
      );
      log(
        `  ${i}/${commits.length - 1} ${commit.slice(0, 8)}: ` +
          results.map((r) => `${r.tool} ${(r.shares.at(-1)! * 100).toFixed(1)}%`).join(", "),
      );
    }
    prev = docs;
  }
  await Deno.remove(work, { recursive: true }).catch(() => {});
  return results;
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
    "| tool | pairs | median | p10 |",
    "| --- | ---: | ---: | ---: |",
    ...replayed.map((r) =>
      `| ${r.tool} | ${r.shares.length} | ${pct(quantile(r.shares, 0.5))} | ${
        pct(quantile(r.shares, 0.1))
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
