/**
 * File orders over a real git history, without building: for each of the last N first-parent
 * commits of a repository, the files at that commit (blob sizes) in each order, and the share of
 * the document (a block per file: its size plus a heading) that is a byte-identical prefix of the
 * previous commit's. Quick to run, to compare order designs before a replay (`prefix_replay.ts`)
 * measures the real documents; every file of the commit is counted (no zero-config skips beyond
 * binaries and lockfiles), so its numbers are lower than the replay's.
 *
 * ```sh
 * deno run -A bench/prefix_git_sim.ts --repo DIR [--n 50] [--out FILE]
 * ```
 *
 * `moved` counts the files a commit did not touch that changed place among the other untouched
 * files (what a stable order keeps at 0). An edited file that keeps its place keeps the bytes
 * before its edit too (read from the two blobs).
 *
 * @module
 */

import { firstParentLog, type LogCommit, seedFromLog } from "../pipeline/_git_history.ts";
import {
  advanceOrder,
  changeProbability,
  DECAY,
  type OrderEntry,
  type OrderState,
  sortBySeed,
} from "../pipeline/order_state.ts";
import { moved, quantile } from "./_prefix_sim.ts";

interface Args {
  repo: string;
  n: number;
  out?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { repo: "", n: 50 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--repo") args.repo = argv[++i];
    else if (a === "--n") args.n = Number(argv[++i]);
    else if (a === "--out") args.out = argv[++i];
    else throw new Error(`[bench] Unknown argument "${a}"`);
  }
  if (!args.repo) throw new Error("[bench] Missing --repo DIR (a git dir or work tree)");
  if (!(args.n >= 2)) throw new Error(`[bench] Invalid --n "${args.n}": need at least 2`);
  return args;
}

function git(repo: string, args: string[]): Uint8Array {
  const out = new Deno.Command("git", { args: ["-C", repo, ...args], stdout: "piped" })
    .outputSync();
  if (!out.success) throw new Error(`[bench] git ${args.join(" ")} failed in "${repo}"`);
  return out.stdout;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A file of one commit as the orders see it. */
interface SimFile {
  path: string;
  blob: string;
  bytes: number;
}

const SKIP =
  /\.(png|jpe?g|gif|ico|webp|svg|woff2?|ttf|eot|pdf|zip|gz|mp4|mp3|wasm|lock)$|package-lock\.json$/i;

function filesAt(repo: string, commit: string): SimFile[] {
  return text(git(repo, ["ls-tree", "-r", "-l", commit])).trim().split("\n").flatMap((line) => {
    const [meta, path] = line.split("\t");
    const [, type, blob, size] = meta.split(/\s+/);
    if (type !== "blob" || SKIP.test(path) || Number(size) > 1_000_000) return [];
    // A block is the file plus its heading and fences.
    return [{ path, blob, bytes: Number(size) + path.length + 20 }];
  });
}

/** An order: the files of a commit (and the history up to it, newest first) in document order. */
type Orderer = (files: SimFile[], history: LogCommit[]) => string[];

const entriesOf = (files: SimFile[]) =>
  files.map((f) => ({ path: f.path, sha256: f.blob, bytes: f.bytes }));

/** The seed before this work: 200 commits (here first-parent), `p / (s (1 - p))`. */
function previousSeed(): Orderer {
  return (files, history) => {
    const seed = new Map<string, { changes: number; last: number }>();
    let weight = 0;
    history.slice(0, 200).forEach((c, age) => {
      const w = DECAY ** age;
      weight += w;
      for (const p of c.paths) {
        const s = seed.get(p);
        if (s) s.changes += w;
        else seed.set(p, { changes: w, last: -age });
      }
    });
    let floor = 0;
    for (const s of seed.values()) floor = Math.min(floor, s.last);
    const entries: OrderEntry[] = entriesOf(files).map((f) => ({
      ...f,
      changes: seed.get(f.path)?.changes ?? 0,
      last: seed.get(f.path)?.last ?? floor - 1,
    }));
    // Its key, written out: `p / (s (1 - p))` with the whole size.
    const key = (e: OrderEntry) => {
      const p = changeProbability(e.changes, weight);
      return p / (Math.max(1, e.bytes) * (1 - p));
    };
    return entries
      .map((e) => ({ e, k: key(e) }))
      .sort((a, b) => a.k - b.k || a.e.last - b.e.last || (a.e.path < b.e.path ? -1 : 1))
      .map(({ e }) => e.path);
  };
}

function stateless(): Orderer {
  return (files, history) => {
    const seed = seedFromLog(history)!;
    const entries: OrderEntry[] = entriesOf(files).map((f) => ({
      ...f,
      changes: seed.files.get(f.path)?.changes ?? 0,
      last: 0,
    }));
    return sortBySeed(entries, seed.prior).map((e) => e.path);
  };
}

/**
 * The order memory kept across commits (`advanceOrder`, seeded by the stateless order).
 * `keep`: keep the first changed file in place always (`true`), or when its decayed count is at
 * most that number (it was cold).
 */
function memory(keep: boolean | number = false): Orderer {
  let state: OrderState | undefined;
  return (files, history) => {
    const seed = state ? undefined : seedFromLog(history);
    const current = entriesOf(files);
    let keepFirstChanged = keep === true;
    if (state && typeof keep === "number") {
      const now = new Map(current.map((f) => [f.path, f.sha256]));
      const first = state.entries.find((e) => now.get(e.path) !== e.sha256);
      keepFirstChanged = first !== undefined && first.changes <= keep;
    }
    state = advanceOrder(state, current, seed?.files, {
      seedWeight: seed?.weight,
      seedPrior: seed?.prior,
      keepFirstChanged,
    }).state;
    return state.entries.map((e) => e.path);
  };
}

const ORDERS: Record<string, () => Orderer> = {
  "stateless, before (200 commits, p / (s (1 - p)))": previousSeed,
  "stateless (anchored count / sqrt(size))": stateless,
  "memory": () => memory(),
  "memory, first changed file kept": () => memory(true),
  "memory, first changed file kept when cold (count <= 1)": () => memory(1),
};

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

async function main() {
  const args = parseArgs(Deno.args);
  // Enough history for the anchor of the oldest replayed commit.
  const commits = await firstParentLog(args.repo, args.n + 400) ?? [];
  const n = Math.min(args.n, commits.length);
  const snapshots = Array.from({ length: n }, (_, k) => n - 1 - k).map((i) => ({
    i,
    files: filesAt(args.repo, commits[i].hash),
  }));
  const rows: string[] = [];
  for (const [name, make] of Object.entries(ORDERS)) {
    const order = make();
    const shares: number[] = [];
    const moves: number[] = [];
    let prev: { order: string[]; blob: Map<string, string> } | undefined;
    for (const { i, files } of snapshots) {
      const o = order(files, commits.slice(i));
      const blob = new Map(files.map((f) => [f.path, f.blob]));
      const bytes = new Map(files.map((f) => [f.path, f.bytes]));
      if (prev) {
        const was = prev;
        const total = files.reduce((s, f) => s + f.bytes, 0);
        let shared = 0;
        for (let k = 0; k < o.length && k < was.order.length && o[k] === was.order[k]; k++) {
          const p = o[k];
          if (was.blob.get(p) === blob.get(p)) {
            shared += bytes.get(p)!;
            continue;
          }
          // Edited in place: its heading and the bytes before the edit stay.
          const before = git(args.repo, ["cat-file", "blob", was.blob.get(p)!]);
          const after = git(args.repo, ["cat-file", "blob", blob.get(p)!]);
          shared += p.length + 20 + commonPrefix(before, after);
          break;
        }
        shares.push(total ? shared / total : 1);
        const untouched = (p: string) => was.blob.get(p) === blob.get(p);
        moves.push(moved(was.order, o, untouched));
      }
      prev = { order: o, blob };
    }
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    rows.push(
      `| ${name} | ${shares.length} | ${pct(quantile(shares, 0.5))} | ${
        pct(quantile(shares, 0.1))
      } | ${pct(mean)} | ${quantile(moves, 0.5)} | ${Math.max(...moves)} |`,
    );
  }
  const out = [
    `Orders over the last ${n} first-parent commits of \`${args.repo}\` (blob sizes, no build):`,
    "",
    "| order | pairs | median | p10 | mean | untouched files moved, median | max |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
  ].join("\n") + "\n";
  if (args.out) await Deno.writeTextFile(args.out, out);
  console.log(out);
}

if (import.meta.main) await main();
