/**
 * What a folder or glob does not select though it matches: the history
 * files, the files that usually hold secrets (listed as skipped, never read)
 * and the config's `exclude` (globs, and exact paths of files or folders).
 *
 * @module
 */

import type { ResolvedConfig } from "./types.ts";
import { entryPathIn, isGlob, normalizeEntryPath } from "./helpers.ts";
import { manyGlobsMatcher, nameMatcher } from "./_path_matchers.ts";
import { DEFAULT_SECRET_FILES, HISTORY_FILES } from "./_default_skips.ts";
import type { Listed } from "./_resolve_candidates.ts";
import { namesLiterally } from "./_resolve_match.ts";

/** What a folder or glob does not select though it matches: history, secret and excluded files. */
export interface FileFilters {
  isSecretFile: (path: string) => boolean;
  isHistoryFile: (path: string) => boolean;
  isExcluded: (path: string) => boolean;
}

/**
 * The filters of a config's candidates.
 *
 * @example
 * ```ts
 * import { fileFilters } from "./_resolve_filters.ts";
 * // const { isSecretFile } = await fileFilters(config, found);
 * // isSecretFile("config/.env"); // true
 * ```
 */
export async function fileFilters(config: ResolvedConfig, found: Listed): Promise<FileFilters> {
  return {
    // In any case: `.ENV` and `SERVER.PEM` are the same files (Windows tools write capitals, and a
    // case-blind file system opens `.ENV` as `.env`).
    isSecretFile: nameMatcher(DEFAULT_SECRET_FILES, { nocase: true }),
    isHistoryFile: nameMatcher(HISTORY_FILES),
    isExcluded: config.exclude.length
      ? await excludeMatcher(
        config.exclude.map((p) =>
          p.includes("\\") ? entryPathIn(p, found.set) : normalizeEntryPath(p)
        ),
        { root: config.root, found },
      )
      : () => false,
  };
}

/**
 * Whether a path is excluded: by a glob, or by an entry that is exactly a file's or folder's
 * path (with glob characters or not, as `files` entries are read).
 */
async function excludeMatcher(
  patterns: string[],
  where: { root: string; found: Listed },
): Promise<(path: string) => boolean> {
  const literal: string[] = [];
  const globs: string[] = [];
  for (const pattern of patterns) {
    const named = !isGlob(pattern) || await namesLiterally(pattern, where);
    (named ? literal : globs).push(pattern.replace(/\/$/, ""));
  }
  const glob = globs.length ? await manyGlobsMatcher(globs) : () => false;
  // The path and each folder above it looked up, rather than each entry tried on each path.
  const named = new Set(literal);
  const isNamed = (path: string) => {
    if (named.has(path)) return true;
    for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) {
      if (named.has(path.slice(0, i))) return true;
    }
    return false;
  };
  return (path) => glob(path) || (named.size > 0 && isNamed(path));
}
