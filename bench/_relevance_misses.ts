/**
 * Why the ranking misses: for each task of the relevance bench, each needed
 * file that slop's rank does not hold in full at 32k or 128k (greedy full in
 * rank order over the whole budget, and over the task's share only), printed
 * with its place in the ranking, its tokens, its reasons (matched terms,
 * graph neighbours, co-change) and how many commits ago it last changed; each
 * miss is put in a class, and the classes are counted per group (tuned, held
 * out). `deno task bench:relevance --misses` prints them after the tables.
 *
 * @module
 */

import type { RankedFile } from "../pipeline/rank.ts";
import type { Manifest } from "../pipeline/types.ts";

/** What a miss is judged from. */
export interface MissCase {
  repo: string;
  tuned: boolean;
  message: string;
  needed: string[];
  /** The tree (a checkout at the task's parent, with its history). */
  dir: string;
  /** slop's rank of the tree's files for the task. */
  ranked: RankedFile[];
  /** Tokens of each file's full block (the plain build's). */
  tokens: Record<string, number>;
  /** Tokens of the plain build's blocks that are not files. */
  overhead: number;
}

/** The fills a miss is looked for in: the whole budget, or the task's share of it. */
const FILLS = [
  { name: "rank 32k", budget: 32_000, share: false },
  { name: "rank 128k", budget: 128_000, share: false },
  { name: "share 32k", budget: 32_000, share: true },
  { name: "share 128k", budget: 128_000, share: true },
];

/** A path that is a test by its name or folder (`test_x.py`, `x_test.go`, `x.test.ts`, `tests/`). */
export function isTestPath(path: string): boolean {
  return /(^|\/)(tests?|__tests__|spec)\//.test(path) ||
    /(^|\/)test_[^/]*$|_test\.\w+$|\.(test|spec)\.\w+$/.test(path);
}

/** The name a test and its source share: `test_x.py`, `x_test.go`, `x.test.ts` and `x.ts` give `x`. */
function stem(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  return name.replace(/^test_|_test$|\.test$|\.spec$/, "").toLowerCase();
}

/** Files in full of a greedy fill in rank order within `room` tokens. */
function fill(c: MissCase, room: number, used: number): Set<string> {
  const inFull = new Set<string>();
  for (const { path } of c.ranked) {
    const t = c.tokens[path];
    if (t === undefined || used + t > room) continue;
    used += t;
    inFull.add(path);
  }
  return inFull;
}

/** Why the needed file `path` is not in full in a fill of `room` tokens (`lastChange`: commits ago, -1 for none). */
export function missClass(
  c: MissCase,
  path: string,
  room: number,
  lastChange: number,
): string {
  const place = c.ranked.findIndex((r) => r.path === path);
  const reasons = c.ranked[place]?.reasons ?? [];
  const top = c.ranked.slice(0, 10).map((r) => r.path);
  const recent = lastChange >= 0 && lastChange < 10
    ? "changed in the last 10 commits"
    : "not recent";
  if ((c.tokens[path] ?? 0) > room) return "bigger than the room";
  if (place >= 0 && place < 10) return "in the first 10, passed over for room";
  if (!reasons.some((r) => r.kind === "term" || r.kind === "path")) {
    return `no word matched, ${recent}`;
  }
  const paired = top.some((q) => isTestPath(q) !== isTestPath(path) && stem(q) === stem(path));
  if (paired) return "a test or source paired by name with one of the first 10";
  return `words matched weakly, ${recent}`;
}

/** The budgets whose real task builds' misses are looked at. */
const BUILD_BUDGETS = [32_000, 128_000];

/**
 * Where a real task build put a needed file it does not hold in full, from its manifest: in the
 * map in another view, in the task section in another view, named in the section's list, or not
 * named at all; with its place in slop's rank (the band the fit reached it in).
 */
export function buildMissClass(manifest: Manifest, path: string, place: number): string {
  const entry = manifest.task?.files.find((f) => f.path === path);
  if (entry?.where === "task") return `in the task section as ${entry.view}`;
  if (entry?.where === "listed") return "named in the task section's list";
  const mapped = manifest.files.find((f) => f.path === path);
  const band = place < 0
    ? "no score"
    : place < 10
    ? "ranked 1 to 10"
    : place < 30
    ? "ranked 11 to 30"
    : place < 100
    ? "ranked 31 to 100"
    : "ranked past 100";
  const inMap = mapped?.status === "rendered" ? `, in the map as ${mapped.view}` : "";
  return `not in the task section, ${band}${inMap}`;
}

/** Counts of classes per group and fill, and the lines of each task's misses. */
export class MissTally {
  readonly counts = new Map<string, Map<string, number>>();
  readonly lines: string[] = [];
  readonly buildLines: string[] = [];

  /**
   * Look at one real task build (at one of {@linkcode BUILD_BUDGETS}): each needed file it does
   * not hold in full, where the manifest puts it, and how much of the section's room was left.
   */
  addBuild(
    c: Pick<MissCase, "repo" | "tuned" | "message" | "needed" | "ranked" | "tokens">,
    budget: number,
    build: { manifest: Manifest; inFull: Set<string>; tokens: number },
  ): void {
    if (!BUILD_BUDGETS.includes(budget)) return;
    const missed = c.needed.filter((p) => !build.inFull.has(p));
    if (!missed.length) return;
    const key = `${c.tuned ? "tuned" : "held out"}, build ${budget / 1000}k`;
    const by = this.counts.get(key) ?? this.counts.set(key, new Map()).get(key)!;
    const section = build.manifest.task?.tokens ?? 0;
    this.buildLines.push(
      "",
      `${c.repo} at ${budget / 1000}k (document ${build.tokens} tokens, task section ${section}): ${
        c.message.split("\n")[0]
      }`,
    );
    for (const path of missed) {
      const place = c.ranked.findIndex((r) => r.path === path);
      const cls = buildMissClass(build.manifest, path, place);
      by.set(cls, (by.get(cls) ?? 0) + 1);
      this.buildLines.push(
        `  #${place + 1} ${path} (${c.tokens[path] ?? "?"} tokens, score ${
          (c.ranked[place]?.score ?? 0).toFixed(3)
        }): ${cls}`,
      );
    }
  }

  /** Look at one task's needed files. */
  async add(c: MissCase): Promise<void> {
    const log = await recentCommits(c.dir, 300);
    const order = c.ranked.map((r) => r.path);
    const fills = FILLS.map((f) => {
      const room = f.share ? f.budget - Math.min(f.budget / 2, 16_000) : f.budget;
      return {
        ...f,
        room: f.share ? room : room - c.overhead,
        set: fill(c, room, f.share ? 0 : c.overhead),
      };
    });
    const missed = c.needed.filter((p) => fills.some((f) => !f.set.has(p)));
    if (!missed.length) return;
    this.lines.push(
      "",
      `${c.repo} (${c.tuned ? "tuned" : "held out"}): ${c.message.split("\n")[0]}`,
    );
    for (const path of c.needed) {
      const last = log.findIndex((commit) => commit.paths.includes(path));
      const place = order.indexOf(path);
      const held = fills.filter((f) => f.set.has(path)).map((f) => f.name);
      this.lines.push(
        `  #${place + 1} ${path} (${c.tokens[path] ?? "?"} tokens, last changed ${
          last < 0 ? "over 300" : last
        } commits ago; in full: ${held.join(", ") || "none"})`,
      );
      const reasons = c.ranked[place]?.reasons.slice(0, 5) ?? [];
      if (reasons.length) {
        this.lines.push(
          `    ${reasons.map((r) => `${r.kind} ${r.detail} +${r.score.toFixed(3)}`).join("; ")}`,
        );
      }
      for (const f of fills) {
        if (f.set.has(path)) continue;
        const key = `${c.tuned ? "tuned" : "held out"}, ${f.name}`;
        const by = this.counts.get(key) ?? this.counts.set(key, new Map()).get(key)!;
        const cls = missClass(c, path, f.room, last);
        by.set(cls, (by.get(cls) ?? 0) + 1);
      }
    }
  }

  /** The classes' counts, then each task's misses. */
  report(): string[] {
    const out = ["", "### Why the needed files are not in full (slop rank)"];
    for (const key of [...this.counts.keys()].sort()) {
      out.push("", `${key}:`);
      const by = [...this.counts.get(key)!].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      for (const [cls, n] of by) out.push(`  ${String(n).padStart(3)}  ${cls}`);
    }
    const builds = this.buildLines.length
      ? ["", "### The real task builds' misses at 32k and 128k", ...this.buildLines]
      : [];
    return [...out, "", "### Each task's needed files", ...this.lines, ...builds];
  }
}

/** The paths each of the newest `count` first-parent commits of the checkout `dir` changed. */
async function recentCommits(dir: string, count: number): Promise<{ paths: string[] }[]> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, "-c", "core.quotePath=false", "log", "--first-parent", "-n", String(count)]
      .concat(["--format=%x01", "--name-only", "--no-renames", "HEAD"]),
    stdout: "piped",
    stderr: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  return text.split("\x01").slice(1).map((chunk) => ({
    paths: chunk.split("\n").map((l) => l.trim()).filter(Boolean),
  }));
}
