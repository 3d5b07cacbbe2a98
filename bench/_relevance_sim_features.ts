/**
 * What the ranking variants of `relevance_sim.ts` read beyond each task's
 * scores: each file's terms (every term's count, as `forEachTerm` cuts the
 * text) and the names it defines (the code views' `definedNames`), so that a
 * variant can score the task's terms over a field of its own (the defined
 * names) or over terms a variant adds (query expansion). Kept once per blob
 * of a repository (`bench/.cache/relevance/feat/<repo>.json`: most blobs are
 * the same from one task's tree to the next) with each task's paths to
 * blobs; made from the trees the simulation's data was made from.
 *
 * @module
 */

import { join } from "node:path";
import { existsSync } from "node:fs";
import { forEachTerm } from "../pipeline/_rank_terms.ts";
import { definedNames } from "../plugins/view_modes/code_views.ts";
import type { SimTask } from "./_relevance_sim_data.ts";

/** One blob's terms and names. */
export interface BlobFeatures {
  /** Terms in the text (its BM25 length). */
  length: number;
  /** Term -> count, every term of the text. */
  tf: Record<string, number>;
  /** The names it defines; null without a grammar. */
  defs: string[] | null;
}

/** A repository's features: blobs, and each task's path -> blob. */
export interface RepoFeatures {
  blobs: Record<string, BlobFeatures>;
  /** Task commit (12 hex digits, as the sim data's file name) -> path -> blob. */
  trees: Record<string, Record<string, string>>;
}

/** Per task: path -> its blob's features (files without a blob: absent). */
export type TaskFeatures = Map<string, BlobFeatures>;

const cacheOf = new Map<string, RepoFeatures>();

/**
 * The features of `task`'s files (`tree`: its commit and parent, as `collectTasks` gives them),
 * made from its tree in `cache` (the bench's, `treeAt`) when missing.
 */
export async function taskFeatures(
  task: SimTask,
  cache: string,
  tree: { commit: string; parent: string },
): Promise<TaskFeatures> {
  const file = join(cache, "feat", `${task.repo}.json`);
  let repo = cacheOf.get(task.repo);
  if (!repo) {
    repo = existsSync(file)
      ? JSON.parse(await Deno.readTextFile(file)) as RepoFeatures
      : { blobs: {}, trees: {} };
    cacheOf.set(task.repo, repo);
  }
  const key = tree.commit.slice(0, 12);
  if (!repo.trees[key]) {
    repo.trees[key] = await readTree(
      join(cache, task.repo, tree.parent.slice(0, 12)),
      task,
      repo,
    );
    dirty.add(task.repo);
  }
  const out: TaskFeatures = new Map();
  for (const [path, blob] of Object.entries(repo.trees[key])) out.set(path, repo.blobs[blob]);
  return out;
}

const dirty = new Set<string>();

/** Writes the repositories whose features grew. */
export async function saveFeatures(cache: string): Promise<void> {
  await Deno.mkdir(join(cache, "feat"), { recursive: true });
  for (const name of dirty) {
    await Deno.writeTextFile(
      join(cache, "feat", `${name}.json`),
      JSON.stringify(cacheOf.get(name)),
    );
  }
  dirty.clear();
}

async function readTree(
  dir: string,
  task: SimTask,
  repo: RepoFeatures,
): Promise<Record<string, string>> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, "-c", "core.quotePath=false", "ls-tree", "-r", "-z", "HEAD"],
    stdout: "piped",
  }).output();
  const blobOf = new Map<string, string>();
  for (const line of new TextDecoder().decode(out.stdout).split("\0")) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (m) blobOf.set(m[2], m[1]);
  }
  const paths: Record<string, string> = {};
  for (const f of task.files) {
    const blob = blobOf.get(f.path);
    if (!blob || !f.hasText) continue;
    paths[f.path] = blob;
    if (repo.blobs[blob]) continue;
    const text = await Deno.readTextFile(join(dir, f.path)).catch(() => undefined);
    if (text === undefined) continue;
    const tf: Record<string, number> = Object.create(null);
    const length = forEachTerm(text, (t) => (tf[t] = (tf[t] ?? 0) + 1));
    const defs = await definedNames(f.path, text);
    repo.blobs[blob] = { length, tf: { ...tf }, defs: defs ?? null };
  }
  return paths;
}
