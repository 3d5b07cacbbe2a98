/**
 * The data `relevance_sim.ts` simulates task builds from: for each task of
 * the relevance bench (see `_relevance_tasks.ts`), each file's full-block
 * tokens (the plain build's), bytes, whether slop has a grammar for it, its
 * co-change score, its lexical-only score and its score as `slop rank` gives
 * it, and the tree's first-parent history (the paths and the message of each
 * of its last 300 commits, all before the task's commit). Written once a task
 * to `bench/.cache/relevance/sim/`.
 *
 * @module
 */

import { join } from "node:path";
import { existsSync } from "node:fs";
import { collectTasks, treeAt } from "./_relevance_tasks.ts";
import { loadConfig } from "../pipeline/config.ts";
import { rankFiles } from "../pipeline/rank.ts";
import { pairScores, taskPairs } from "../pipeline/_rank_pairs.ts";
import { taskProse } from "../pipeline/_rank_terms.ts";
import { CO_CHANGE_COMMITS, coChangeFromLog } from "../pipeline/co_change.ts";
import { firstParentLog } from "../pipeline/_git_history.ts";
import { countTokens } from "../pipeline/tokens.ts";
import { rankInputs } from "../cli/rank.ts";
import { definedNames } from "../plugins/view_modes/code_views.ts";
import type { PlainBuild } from "./relevance.ts";

/** A test file's path (a `tests/` folder, `test_*`, `*_test.*`, `*.spec.*`, `FooTests.*`): a feature. */
export const TEST_PATH =
  /(^|\/)(tests?|__tests__|spec)\/|(^|\/)test_|_test\.\w+$|\.(test|spec)\.\w+$|Tests?\.\w+$/;

/** How many files `tasks` need, summed: a set's size as the benches print it. */
export function neededFiles(tasks: SimTask[]): number {
  return tasks.reduce((n, t) => n + t.needed.length, 0);
}

/** Files in path order (code units), the ties' order in every ranking the scripts compare. */
export function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** One file of a task's tree. */
export interface SimFile {
  path: string;
  /** Tokens of its full block in the plain build (absent: the build shows no block for it). */
  tokens?: number;
  /** UTF-8 bytes of its text, its path and a block's fences (0 without text). */
  bytes: number;
  /** Whether slop has a grammar for it (the ranking counts others a quarter). */
  code: boolean;
  /** Its co-change score in [0, 1] (`coChangeScores`). */
  co: number;
  /** Its score from the contents and path alone (graph and co-change weights 0). */
  lex: number;
  /**
   * Its score as `slop rank` gives it with every signal but history text and word pairs
   * (default weights, no `history` option, `pairs` 0): `relevance_sim.ts` adds those signals as
   * `rankFiles` does.
   */
  score: number;
  /**
   * Its word-pair signal in [0, 1] (`pairScores` of `_rank_pairs.ts` over the best file's, the
   * task read as `rankFiles` reads it); added to tasks cached before it, from their trees.
   */
  pairs?: number;
  /** Whether it has text (a binary or unread file has none and is never in a task section). */
  hasText: boolean;
}

/** One task, as the simulation sees it. */
export interface SimTask {
  repo: string;
  tuned: boolean;
  /** Its place among the repository's tasks (0: the newest commit). */
  k: number;
  message: string;
  needed: string[];
  /** o200k tokens of the message. */
  taskTokens: number;
  /** The paths each of the last 300 first-parent commits changed, newest first. */
  log: string[][];
  /** The message of each of those commits (the same order as `log`). */
  messages: string[];
  files: SimFile[];
}

/** Where the bench keeps trees and what to build them with. */
export interface SimSource {
  /** `bench/.cache/relevance`. */
  cache: string;
  /** The plain build of a tree (`plainBuild` of `relevance.ts`). */
  plain: (dir: string) => Promise<PlainBuild>;
}

/**
 * The tasks of `repo` (its newest `commits` commits that qualify), read
 * from the cache or made and cached.
 */
export async function simTasks(
  repo: { name: string; tuned: boolean },
  commits: number,
  source: SimSource,
): Promise<SimTask[]> {
  const gitDir = join("/work/.mirror", repo.name, "repo");
  if (!existsSync(gitDir)) return [];
  const out: SimTask[] = [];
  const tasks = await collectTasks(repo.name, gitDir, { commits });
  for (const [k, task] of tasks.entries()) {
    const file = join(source.cache, "sim", `${repo.name}.${task.commit.slice(0, 12)}.json`);
    // A task cached before the messages were kept is made again.
    const cached = existsSync(file) ? JSON.parse(await Deno.readTextFile(file)) : undefined;
    if (cached?.messages) {
      if (cached.files.some((f: SimFile) => f.pairs === undefined)) {
        const dir = await treeAt(gitDir, task.parent, join(source.cache, repo.name));
        await addPairs(dir, cached);
        await Deno.writeTextFile(file, JSON.stringify(cached));
      }
      out.push({ ...cached, k, tuned: repo.tuned });
      continue;
    }
    const dir = await treeAt(gitDir, task.parent, join(source.cache, repo.name));
    const data: SimTask = {
      repo: repo.name,
      tuned: repo.tuned,
      k,
      message: task.message,
      needed: task.needed,
      taskTokens: await countTokens(task.message),
      ...await treeData(dir, task.message, source),
    };
    await addPairs(dir, data);
    await Deno.mkdir(join(source.cache, "sim"), { recursive: true });
    await Deno.writeTextFile(file, JSON.stringify(data));
    out.push(data);
  }
  return out;
}

/** Sets each file's word-pair signal (`SimFile.pairs`), reading the texts from the task's tree. */
async function addPairs(dir: string, task: SimTask): Promise<void> {
  const files = task.files.toSorted((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const texts = await Promise.all(
    files.map((f) =>
      f.hasText ? Deno.readTextFile(join(dir, f.path)).catch(() => undefined) : undefined
    ),
  );
  const scores = pairScores(texts, taskPairs(taskProse(task.message)));
  const best = Math.max(0, ...scores.map((s) => s.score));
  files.forEach((f, i) => (f.pairs = best > 0 ? scores[i].score / best : 0));
}

/** A tree's files and history, ranked for `message`. */
async function treeData(
  dir: string,
  message: string,
  source: SimSource,
): Promise<{ log: string[][]; messages: string[]; files: SimFile[] }> {
  const plain = await source.plain(dir);
  const config = await loadConfig({ cwd: dir, stateDir: join(source.cache, "state") });
  const inputs = await rankInputs(config);
  const commits = await firstParentLog(dir, CO_CHANGE_COMMITS, "HEAD", { messages: true }) ?? [];
  const log = commits.map((c) => c.paths);
  const messages = commits.map((c) => c.message ?? "");
  const co = coChangeFromLog(log.map((paths) => ({ paths })), inputs.map((f) => f.path));
  const names = new Map<string, string[] | undefined>();
  for (const f of inputs) names.set(f.path, await definedNames(f.path, f.text));
  const definitions = (path: string) => Promise.resolve(names.get(path));
  const score = await rankFiles(inputs, message, {
    coChange: co,
    definitions,
    weights: { pairs: 0 },
  });
  const lex = await rankFiles(inputs, message, {
    coChange: co,
    definitions,
    weights: { graph: 0, coChange: 0, pairs: 0 },
  });
  const scoreOf = new Map(score.map((r) => [r.path, r.score]));
  const lexOf = new Map(lex.map((r) => [r.path, r.score]));
  const utf8 = new TextEncoder();
  const files = inputs.map((f): SimFile => ({
    path: f.path,
    tokens: plain.tokens[f.path],
    bytes: f.text === undefined ? 0 : utf8.encode(f.text).length + f.path.length + 20,
    code: names.get(f.path) !== undefined,
    co: co.get(f.path) ?? 0,
    lex: lexOf.get(f.path) ?? 0,
    score: scoreOf.get(f.path) ?? 0,
    hasText: f.text !== undefined,
  }));
  return { log, messages, files };
}
