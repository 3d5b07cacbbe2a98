/**
 * The order files step down in: not in focus, least changed in git's history first, then the
 * largest, then by path (part of `budget.ts`, which re-exports `changeCounts`).
 *
 * @module
 */

import { gitOutput } from "./_git.ts";
import { configRefusal, warnRefusedOnce } from "./_git_history.ts";
import type { RenderedFile, SourceFile } from "./types.ts";

/**
 * The files that may step down, in the order they do: rendered, not in focus and not forced
 * full; least changed first, then the largest (block tokens), then by path.
 *
 * @example
 * ```ts
 * import { stepOrder } from "./_budget_order.ts";
 * // const candidates = stepOrder(files, { size: tokens, isFocus, sources, changes });
 * ```
 */
export function stepOrder(
  files: RenderedFile[],
  context: {
    size: Map<string, number>;
    isFocus: (path: string) => boolean;
    sources: Map<string, SourceFile>;
    changes: Map<string, number>;
  },
): string[] {
  const { isFocus, sources, changes, size } = context;
  return files
    .filter((f) =>
      f.status === "rendered" && !isFocus(f.path) && !sources.get(f.path)?.entry.forceFull
    )
    .map((f) => f.path)
    .sort((a, b) =>
      (changes.get(a) ?? 0) - (changes.get(b) ?? 0) ||
      (size.get(b) ?? 0) - (size.get(a) ?? 0) ||
      (a < b ? -1 : a > b ? 1 : 0)
    );
}

/**
 * How often each file changed in the last `commits` commits (`git log`),
 * by path relative to `root`; empty outside git. When git refuses a value of its
 * config (`color.diff.new = notacolor` fails every `git log`, not the listing),
 * `options.warn` gets git's line, which names the key.
 *
 * @example
 * ```ts
 * import { changeCounts } from "./budget.ts";
 * // (await changeCounts("/repo")).get("src/a.ts"); // 3
 * ```
 */
export async function changeCounts(
  root: string,
  commits = 200,
  options: { warn?: (message: string) => void } = {},
): Promise<Map<string, number>> {
  const answer = await gitOutput(
    // --no-renames: git's rename detection reads the files' contents, which a partial clone
    // (--filter=blob:none) has not fetched: git would fetch them, or fail offline. The counts of
    // the paths that exist are the same either way. -z: each path as it is, ended by a NUL (git
    // quotes a name with a quote, a backslash or a control character on a line of its own).
    ["log", `-n${commits}`, "-z", "--format=", "--name-only", "--no-renames", "--relative"],
    root,
  );
  const out = typeof answer === "object" && "out" in answer ? answer.out : undefined;
  // A log that fails for want of commits, or outside git, says nothing; one that fails on the
  // user's config would leave every budget unordered by history with no word.
  const refused = configRefusal(answer);
  if (refused) {
    warnRefusedOnce(options.warn, refused);
  }
  const counts = new Map<string, number>();
  for (const path of out?.split("\0") ?? []) {
    if (path) counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  return counts;
}
