/**
 * The files a task build's repository map keeps in full: the ones any task
 * is most likely to need, known from git history without knowing the task.
 *
 * The files a task edits are mostly the often-edited ones, and a needed file
 * counts wherever the document holds it in full. So the map, which two tasks
 * on the same tree share byte for byte, spends its tokens first on the files
 * changed most in the recent first-parent history (newer commits weighing
 * more, as the ranking's co-change signal counts them), per token, and steps
 * the other files down in what is left. The task section then skips the files
 * the map holds in full and spends its room on the next ranked ones.
 *
 * A file's value is its change score over `tokens^MAP_SIZE_EXPONENT` (a
 * file slop has no grammar for counts {@linkcode OTHER_FILES} of its score,
 * as in the ranking); the files are taken by value, highest first, ties by
 * path, each that fits in the room, the others passed over. The files no
 * commit of the history changed come after all of those, each counted as
 * changed once (so by size): history says nothing of them, and a short one
 * (a shallow clone, a young project, a first import too large to count and
 * one small commit since) changed a few files only, which left the rest of
 * the map's room to outlines where small files fit in full. Nothing here
 * reads the task: the choice depends on the tree, its history, the config
 * and the budget only.
 *
 * A file larger than {@linkcode LARGE_SHARE} of the task section's room
 * (the budget less the map's part) is worth {@linkcode LARGE_FACTOR} times
 * as much: the section seldom holds it in full (its room is near its size,
 * and it is held to the map's bytes too), so the map is its one place in
 * full. A large file that many tasks edit (a framework's `app.py`) is then
 * kept before several small ones the section can take when a task needs
 * them (see bench/README.md, "eighteenth session").
 *
 * @module
 */

import { OTHER_FILES } from "./rank.ts";

/** How much a file's tokens count against its change score when the map chooses it. */
export const MAP_SIZE_EXPONENT = 0.5;

/** A file larger than this share of the task section's room counts {@linkcode LARGE_FACTOR} times. */
export const LARGE_SHARE = 0.7;

/** How much more a file larger than {@linkcode LARGE_SHARE} of the section's room is worth. */
export const LARGE_FACTOR = 1.5;

/** Options of {@linkcode keptFiles}. */
export interface KeptOptions {
  /**
   * The task section's room in tokens (the budget less the map's part): a file larger than
   * {@linkcode LARGE_SHARE} of it is worth {@linkcode LARGE_FACTOR} times. Absent: no file is.
   */
  sectionRoom?: number;
}

/** A file the map may keep in full, as {@linkcode keptFiles} sees it. */
export interface MapCandidate {
  /** Path relative to the root. */
  path: string;
  /** Tokens of the file's block in the map as it is (not stepped down). */
  tokens: number;
  /** Whether slop reads the file's language (a file it has no grammar for counts less). */
  code: boolean;
}

/**
 * The paths to keep in full in the map, within `room` tokens: by change
 * score (from `changes`, absent is 0) over `tokens^MAP_SIZE_EXPONENT`
 * (times {@linkcode LARGE_FACTOR} for a file larger than
 * {@linkcode LARGE_SHARE} of `options.sectionRoom`), highest first, ties by
 * path in code-unit order; each one that fits is taken and the others passed
 * over. The files without a change score come after every file with one,
 * each counted as changed once; with no history to tell the files apart
 * (no file has a score), that is every file. The result is sorted by path.
 *
 * @example
 * ```ts
 * import { keptFiles } from "./_task_map.ts";
 * const files = [
 *   { path: "src/app.py", tokens: 900, code: true },
 *   { path: "src/util.py", tokens: 100, code: true },
 *   { path: "CHANGES.md", tokens: 400, code: false },
 * ];
 * const changes = new Map([["src/app.py", 1], ["src/util.py", 0.45], ["CHANGES.md", 1]]);
 * keptFiles(files, changes, 1000); // ["src/app.py", "src/util.py"]
 * keptFiles(files, changes, 500); // ["CHANGES.md", "src/util.py"]
 * // With a section of 1,200 tokens, app.py (900, over 0.7 of it) is worth 1.5 times as much.
 * keptFiles(files, changes, 950, { sectionRoom: 1200 }); // ["src/app.py"]
 * keptFiles(files, new Map(), 1000); // ["src/app.py", "src/util.py"]: no history, each once
 * // Only CHANGES.md changed: it comes first, then the others by size, as changed once.
 * keptFiles(files, new Map([["CHANGES.md", 1]]), 600); // ["CHANGES.md", "src/util.py"]
 * ```
 */
export function keptFiles(
  files: MapCandidate[],
  changes: Map<string, number>,
  room: number,
  options: KeptOptions = {},
): string[] {
  // A file no commit of the history changed comes after every file one changed, counted as
  // changed once: with no history that tells the files apart (outside git, no commit yet, or
  // only commits too large to count, as a shallow clone's or a first import's), every file; with
  // a short one (a few commits since such an import), the files it did not reach. Else the map
  // keeps the few files a short history changed and steps the others down, and the task section,
  // held to the map's bytes, has little room.
  const large = LARGE_SHARE * (options.sectionRoom ?? Infinity);
  const changed = new Set<string>();
  const value = new Map<string, number>();
  for (const f of files) {
    const change = changes.get(f.path) ?? 0;
    if (change > 0) changed.add(f.path);
    const score = (change > 0 ? change : 1) * (f.code ? 1 : OTHER_FILES);
    const factor = f.tokens > large ? LARGE_FACTOR : 1;
    value.set(f.path, factor * score / Math.max(f.tokens, 1) ** MAP_SIZE_EXPONENT);
  }
  const tier = (path: string) => (changed.has(path) ? 0 : 1);
  const order = files.toSorted((a, b) =>
    tier(a.path) - tier(b.path) || value.get(b.path)! - value.get(a.path)! ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  const kept: string[] = [];
  let left = room;
  for (const f of order) {
    if (f.tokens > left) continue;
    left -= f.tokens;
    kept.push(f.path);
  }
  return kept.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
