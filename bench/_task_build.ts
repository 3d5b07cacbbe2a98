/**
 * The strategy "slop build --task T --budget B" of the relevance bench: a
 * real build of the tree with the task and the budget (the pipeline `slop
 * build` runs, in this process), the files in full read from its manifest
 * (the map's full files and the task section's), its tokens counted on the
 * whole document. Each build is paired with a build of the same tree and
 * budget for another task (the task before it in the bench), and the bytes
 * the two documents share from their start are recorded: the prefix share.
 *
 * @module
 */

import { join } from "node:path";
import { loadConfig } from "../pipeline/config.ts";
import { build } from "../pipeline/build.ts";
import { countTokens } from "../pipeline/tokens.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import type { Manifest } from "../pipeline/types.ts";

/** What {@linkcode taskBuildStrategy} needs of a bench case. */
export interface TaskBuildCase {
  /** The tree (a checkout). */
  dir: string;
  /** The task's text. */
  task: { message: string };
}

/** A strategy that builds real documents and records the prefix two tasks share. */
export interface TaskBuildStrategy {
  name: string;
  fit(c: TaskBuildCase, budget: number): Promise<{ inFull: Set<string>; tokens: number }>;
  /** Common prefix bytes over the document's bytes, per budget, one per pair of tasks. */
  shares: Map<number, number[]>;
  /** The prefix (manifest) bytes over the document's bytes, per budget, one per build. */
  prefixes: Map<number, number[]>;
  /** The manifest of the last build, per budget (the case being measured). */
  last: Map<number, Manifest>;
}

/** The paths a manifest says are in full: the map's full files and the task section's. */
export function fullPaths(manifest: Manifest): Set<string> {
  const full = new Set<string>();
  for (const f of manifest.files) {
    if (f.status === "rendered" && f.view === "full") full.add(f.path);
  }
  for (const f of manifest.task?.files ?? []) {
    if (f.where === "task" && f.view === "full") full.add(f.path);
  }
  return full;
}

/** Byte length of the common start of two byte strings. */
export function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Budget settings a {@linkcode taskBuildStrategy} builds with besides the defaults. */
export interface TaskBuildSettings {
  /** `budget.taskShare`. */
  taskShare?: number;
  /** `budget.mapFull`. */
  mapFull?: number;
}

/**
 * The strategy; its builds keep their cache in `stateDir` and remember no
 * order (each tree's order comes from its own git history).
 */
export function taskBuildStrategy(
  stateDir: string,
  settings: TaskBuildSettings = {},
): TaskBuildStrategy {
  const { taskShare, mapFull } = settings;
  const shares = new Map<number, number[]>();
  const prefixes = new Map<number, number[]>();
  const last = new Map<number, Manifest>();
  // The task before this one (of the bench's order) is the other task of the pair.
  let current: TaskBuildCase | undefined;
  let previous: string | undefined;
  const buildFor = async (dir: string, task: string, budget: number) => {
    const config = await loadConfig({
      cwd: dir,
      stateDir: join(stateDir, "state"),
      task,
      budget,
    });
    if (taskShare !== undefined) config.budget.taskShare = taskShare;
    if (mapFull !== undefined) config.budget.mapFull = mapFull;
    return await build(config, {
      builtins: defaultPlugins(),
      write: false,
      remember: false,
      record: false,
      onWarning: () => {},
    });
  };
  return {
    name: `slop build --task T --budget B${
      [
        taskShare === undefined ? "" : ` (taskShare ${taskShare})`,
        mapFull === undefined ? "" : ` (mapFull ${mapFull})`,
      ].join("")
    }`,
    shares,
    prefixes,
    last,
    async fit(c, budget) {
      if (c !== current) {
        previous = current?.task.message;
        current = c;
      }
      const result = await buildFor(c.dir, c.task.message, budget);
      last.set(budget, result.manifest);
      const bytes = new TextEncoder().encode(result.document);
      const tokens = Math.max(result.manifest.total.tokens, await countTokens(result.document));
      (prefixes.get(budget) ?? prefixes.set(budget, []).get(budget)!)
        .push(result.manifest.prefix.bytes / bytes.length);
      const other = previous;
      if (other !== undefined && other !== c.task.message) {
        const second = await buildFor(c.dir, other, budget);
        const b = new TextEncoder().encode(second.document);
        const share = commonPrefix(bytes, b) / Math.max(bytes.length, b.length);
        (shares.get(budget) ?? shares.set(budget, []).get(budget)!).push(share);
      }
      return { inFull: fullPaths(result.manifest), tokens };
    },
  };
}

/** The median of numbers (NaN for none). */
export function median(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The prefix-share table rows of a task-build strategy, per budget. */
export function shareLines(strategy: TaskBuildStrategy, budgets: number[]): string[] {
  const cells = (map: Map<number, number[]>, b: number) => {
    const v = map.get(b) ?? [];
    return v.length
      ? `${median(v).toFixed(3)} (min ${Math.min(...v).toFixed(3)}, ${v.length})`
      : "-";
  };
  return [
    `| ${strategy.name} | ${budgets.map((b) => `${b / 1000}k`).join(" | ")} |`,
    `|---|${budgets.map(() => "---:").join("|")}|`,
    `| common prefix of two tasks / document (median) | ${
      budgets.map((b) => cells(strategy.shares, b)).join(" | ")
    } |`,
    `| manifest prefix / document (median) | ${
      budgets.map((b) => cells(strategy.prefixes, b)).join(" | ")
    } |`,
  ];
}

/** What {@linkcode oracleInSection} needs of a bench case. */
export interface OracleCase extends TaskBuildCase {
  task: { message: string; needed: string[] };
  /** Tokens of each file's full block (the plain build's). */
  plain: { tokens: Record<string, number> };
}

/**
 * The bound of a task build whatever its ranking: the files its map holds in full, then the
 * needed files the map does not hold, smallest first, each one that fits in the room the task
 * section had: the budget less the document before the section, at most the section's share of
 * the budget, less the task text and about 40 tokens of headings; in bytes, at most the map's
 * bytes when the map has half of the budget, as the build holds it. Reads the build `build` made
 * of the same case and budget just before (list it after that strategy).
 */
export function oracleInSection(build: TaskBuildStrategy) {
  const utf8 = new TextEncoder();
  return {
    name: "oracle: needed files smallest first in the build's task room",
    needsBuild: true,
    async fit(c: OracleCase, budget: number) {
      const manifest = build.last.get(budget)!;
      const task = manifest.task!;
      const map = fullPaths({ ...manifest, task: undefined });
      // The section's room less its task text and headings (an estimate: 40 tokens).
      const share = task.share ?? 1;
      const outside = manifest.total.tokens - task.tokens;
      let tokens = Math.min(budget - outside, Math.floor(budget * share)) -
        await countTokens(c.task.message) - 40;
      const byBytes = share <= 0.5;
      let bytes = byBytes ? manifest.prefix.bytes - utf8.encode(c.task.message).length : Infinity;
      const inFull = new Set(map);
      const rest = c.task.needed.filter((p) => !map.has(p) && c.plain.tokens[p] !== undefined);
      rest.sort((a, b) => c.plain.tokens[a] - c.plain.tokens[b] || (a < b ? -1 : 1));
      for (const path of rest) {
        const t = c.plain.tokens[path];
        const b = byBytes ? utf8.encode(await Deno.readTextFile(join(c.dir, path))).length : 0;
        if (t > tokens || b > bytes) continue;
        tokens -= t;
        bytes -= b;
        inFull.add(path);
      }
      return { inFull, tokens: budget - Math.max(tokens, 0) };
    },
  };
}
