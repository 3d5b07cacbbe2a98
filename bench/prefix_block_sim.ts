/**
 * File orders over the real blocks of a replay, without building per order: each of the last N
 * first-parent commits of a repository is built once (zero-config, full view) and its blocks are
 * kept (in `bench/.cache/blocks/`); then every order design is replayed over those blocks, with
 * the bytes of the first changed block that stay (the same document a build would write, as the
 * order only permutes the file blocks among their places). Its `memory` row is what
 * `deno task bench:prefix` measures for `slop` (written), in a fraction of the time.
 *
 * ```sh
 * deno run -A bench/prefix_block_sim.ts --repo DIR [--n 50] [--only NAME,NAME] [--out FILE]
 * ```
 *
 * @module
 */

import { dirname, join } from "node:path";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../pipeline/config.ts";
import { build } from "../pipeline/build.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { firstParentLog, type LogCommit, seedFromLog } from "../pipeline/_git_history.ts";
import {
  advanceOrder,
  type OrderEntry,
  type OrderState,
  sortBySeed,
} from "../pipeline/order_state.ts";
import { quantile } from "./_prefix_sim.ts";
import { runCommand } from "./_corpora.ts";

const BENCH = dirname(fileURLToPath(import.meta.url));

interface Args {
  repo: string;
  n: number;
  only?: string[];
  out?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { repo: "", n: 50 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--repo") args.repo = argv[++i];
    else if (a === "--n") args.n = Number(argv[++i]);
    else if (a === "--only") args.only = argv[++i].split(",");
    else if (a === "--out") args.out = argv[++i];
    else throw new Error(`[bench] Unknown argument "${a}"`);
  }
  if (!args.repo) throw new Error("[bench] Missing --repo DIR (a git dir or work tree)");
  if (!(args.n >= 2)) throw new Error(`[bench] Invalid --n "${args.n}": need at least 2`);
  return args;
}

/** One block of a build: its id, file path (file blocks), bytes' hash and length. */
export interface SimBlock {
  id: string;
  source?: string;
  sha256: string;
  length: number;
}

/** One replayed commit: its hash and its build's blocks in document order. */
export interface SimCommit {
  hash: string;
  blocks: SimBlock[];
}

/** A capture: the commits oldest first, the first-parent log (newest first), block texts by hash. */
export interface Capture {
  commits: SimCommit[];
  log: LogCommit[];
  texts: Record<string, string>;
}

/**
 * The blocks of the last `n` first-parent commits of `repo`, each built once (zero-config, full
 * view), kept in `bench/.cache/blocks/` by the repository's HEAD and `n`.
 *
 * @example
 * ```ts
 * import { capture } from "./prefix_block_sim.ts";
 * // const data = await capture("/work/.mirror/sindresorhus+got/repo", 50);
 * ```
 */
export async function capture(repo: string, n: number): Promise<Capture> {
  const name = (await runCommand("git", ["rev-parse", "HEAD"], repo)).trim();
  const file = join(BENCH, ".cache", "blocks", `${name}_${n}.json`);
  if (existsSync(file)) return JSON.parse(await Deno.readTextFile(file));
  const log = await firstParentLog(repo, n + 400) ?? [];
  const hashes = log.slice(0, n).map((c) => c.hash).reverse();
  const work = await Deno.makeTempDir({ prefix: "slop_block_sim_" });
  const clone = join(work, "repo");
  await runCommand("git", ["clone", "-q", "--shared", "--no-checkout", repo, clone]);
  const texts: Record<string, string> = {};
  const commits: SimCommit[] = [];
  for (const hash of hashes) {
    await runCommand("git", ["checkout", "-q", "--force", "--detach", hash], clone);
    await runCommand("git", ["clean", "-q", "-fdx"], clone);
    const state = await Deno.makeTempDir({ dir: work, prefix: "state_" });
    const config = await loadConfig({ cwd: clone, inline: {}, stateDir: state });
    const result = await build(config, {
      builtins: defaultPlugins(),
      write: false,
      remember: false,
    });
    const blocks = result.blocks.map((b): SimBlock => {
      texts[b.sha256] = b.text;
      return {
        id: b.id,
        ...(b.source ? { source: b.source } : {}),
        sha256: b.sha256,
        length: b.length,
      };
    });
    commits.push({ hash, blocks });
    await Deno.remove(state, { recursive: true });
    console.error(`  captured ${commits.length}/${hashes.length} ${hash.slice(0, 8)}`);
  }
  await Deno.remove(work, { recursive: true }).catch(() => {});
  const data: Capture = { commits, log, texts };
  await Deno.mkdir(dirname(file), { recursive: true });
  await Deno.writeTextFile(file, JSON.stringify(data));
  return data;
}

/** What an order sees of one commit: its file blocks (path, content hash, bytes) and the history. */
export interface OrderInput {
  files: Array<{ path: string; sha256: string; bytes: number }>;
  /** The first-parent history from this commit back (newest first). */
  history: LogCommit[];
}

/** An order design: called once per commit, oldest first; returns the file paths in order. */
export type Orderer = (input: OrderInput) => string[];

/**
 * The order memory, as a build keeps it (`advanceOrder`, seeded by the stateless order); with
 * `last` (a path), that file is moved to the end of the memory after every build.
 */
export function memory(
  options: { keepFirstChanged?: boolean; poolShare?: number; last?: string } = {},
): Orderer {
  let state: OrderState | undefined;
  return ({ files, history }) => {
    const seed = state ? undefined : seedFromLog(history);
    state = advanceOrder(state, files, seed?.files, {
      seedWeight: seed?.weight,
      seedPrior: seed?.prior,
      keepFirstChanged: options.keepFirstChanged,
      poolShare: options.poolShare,
    }).state;
    if (options.last) {
      const at = state.entries.findIndex((e) => e.path === options.last);
      if (at >= 0) state.entries.push(...state.entries.splice(at, 1));
    }
    return state.entries.map((e) => e.path);
  };
}

/** The stateless order (a new state dir every commit). */
export function stateless(): Orderer {
  return ({ files, history }) => {
    const seed = seedFromLog(history)!;
    const entries: OrderEntry[] = files.map((f) => ({
      ...f,
      changes: seed.files.get(f.path)?.changes ?? 0,
      last: 0,
    }));
    return sortBySeed(entries, seed.prior).map((e) => e.path);
  };
}

const ORDERS: Record<string, () => Orderer> = {
  "memory": () => memory(),
  "memory, own counts only (no pool)": () => memory({ poolShare: 0 }),
  "memory, half of each count from its pool": () => memory({ poolShare: 0.5 }),
  "memory, first changed file kept": () => memory({ keepFirstChanged: true }),
  "stateless": () => stateless(),
};

const encoder = new TextEncoder();

function commonPrefix(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/** The document's blocks with the file blocks in `order` (non-file blocks keep their places). */
function arrange(blocks: SimBlock[], order: string[]): SimBlock[] {
  const byPath = new Map(blocks.filter((b) => b.source).map((b) => [b.source!, b]));
  let k = 0;
  return blocks.map((b) => (b.source ? byPath.get(order[k++])! : b));
}

/** Per pair, the share of the document that is a byte-identical prefix of the one before. */
export function replayOrder(data: Capture, orderer: Orderer): number[] {
  const shares: number[] = [];
  let prev: SimBlock[] | undefined;
  for (const commit of data.commits) {
    const at = data.log.findIndex((c) => c.hash === commit.hash);
    const files = commit.blocks.filter((b) => b.source).map((b) => ({
      path: b.source!,
      sha256: b.sha256,
      bytes: b.length,
    }));
    const order = orderer({ files, history: data.log.slice(at) });
    const doc = arrange(commit.blocks, order);
    if (prev) {
      const total = doc.reduce((n, b) => n + b.length, 0);
      let shared = 0;
      for (let i = 0; i < doc.length && i < prev.length; i++) {
        if (doc[i].sha256 === prev[i].sha256) {
          shared += doc[i].length;
          continue;
        }
        shared += commonPrefix(data.texts[prev[i].sha256], data.texts[doc[i].sha256]);
        break;
      }
      shares.push(total ? shared / total : 1);
    }
    prev = doc;
  }
  return shares;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main() {
  const args = parseArgs(Deno.args);
  const data = await capture(args.repo, args.n);
  const rows: string[] = [];
  for (const [name, make] of Object.entries(ORDERS)) {
    if (args.only && !args.only.includes(name)) continue;
    const shares = replayOrder(data, make());
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    rows.push(
      `| ${name} | ${shares.length} | ${pct(quantile(shares, 0.5))} | ${
        pct(quantile(shares, 0.1))
      } | ${pct(mean)} |`,
    );
  }
  const out = [
    `Orders over the blocks of the last ${data.commits.length} first-parent commits of \`${args.repo}\`:`,
    "",
    "| order | pairs | median | p10 | mean |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows,
  ].join("\n") + "\n";
  if (args.out) await Deno.writeTextFile(args.out, out);
  console.log(out);
}

if (import.meta.main) await main();
