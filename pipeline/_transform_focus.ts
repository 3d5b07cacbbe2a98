/**
 * The focus files of a build: the config's `focus` entries (persona,
 * `--focus`) matched by path, folder, glob, file name or, for an entry that
 * names no file, a part of a path; and the files changed since `--since`.
 * Focus files are shown in full (`_transform_view_choice.ts`).
 *
 * @module
 */

import { compileGlobs } from "./_glob.ts";
import { isGlob } from "./helpers.ts";
import { loadGlobs } from "../deps.ts";
import type { ResolvedConfig } from "./types.ts";

/**
 * Returns a function telling whether a path is a focus file, by the seed's
 * levels for each focus entry: its path (the exact path, a folder holding
 * it, or a glob), its file name, and, for an entry that matches no file of
 * `paths` by those, a substring of its path (`app` matches `src/app.ts` and
 * `apps/main.py`). Without `paths` there is no substring level. Globs beyond
 * literal, `*` and `**` segments need picomatch loaded first
 * (`await loadFocusGlobs(config)`; the build does it).
 *
 * @example
 * ```ts
 * import { focusMatcher } from "./transform.ts";
 * focusMatcher(["src/**", "README.md"])("docs/README.md"); // true
 * focusMatcher(["app"], ["src/app.ts", "lib/b.ts"])("src/app.ts"); // true
 * ```
 */
export function focusMatcher(
  focus: string[],
  paths?: Iterable<string>,
): (path: string) => boolean {
  if (!focus.length) return () => false;
  const patterns = focusPatterns(focus);
  const all = paths ? [...paths] : undefined;
  const exact = patterns.map((pattern) => exactFocus(pattern, all));
  const matchesExactly = (path: string) => exact.some((m) => m(path));
  // The substring level, for the entries that name no file of the build by path or name.
  let loose: string[] = [];
  if (all) loose = patterns.filter((p, i) => p !== "" && !all.some(exact[i]));
  if (!loose.length) return matchesExactly;
  return (path) => matchesExactly(path) || loose.some((part) => path.includes(part));
}

/**
 * The path and name levels of one focus entry: exact path, folder, glob, file name. An entry
 * with glob characters that is exactly a path of `paths` or its folder (`app/[slug]`) is that
 * path, not a glob (which would match `app/s` too).
 */
function exactFocus(pattern: string, paths?: string[]): (path: string) => boolean {
  const folder = pattern.replace(/\/+$/, "") + "/";
  const literal = paths?.some((p) => p === pattern || p.startsWith(folder)) ?? false;
  const glob = isGlob(pattern) && !literal ? compileGlobs(pattern, { dot: true }) : undefined;
  return (path) =>
    path === pattern || path.startsWith(folder) || glob?.(path) === true ||
    path.slice(path.lastIndexOf("/") + 1) === pattern;
}

/**
 * Whether a path is a focus file of this build: the config's `focus` (persona,
 * `--focus`; matched by {@linkcode focusMatcher} against the build's `paths`)
 * or a file changed since `--since REF` (exact paths).
 *
 * @example
 * ```ts
 * import { focusOf } from "./transform.ts";
 * // focusOf(config, files.map((f) => f.path))("src/a.ts") === true
 * ```
 */
export function focusOf(
  config: ResolvedConfig,
  paths?: Iterable<string>,
): (path: string) => boolean {
  const matcher = focusMatcher(config.focus, paths);
  const changed = new Set(config.since?.files ?? []);
  return (path) => changed.has(path) || matcher(path);
}

/**
 * Load picomatch if the config's focus globs need it, so that
 * {@linkcode focusOf} and {@linkcode focusMatcher} can match them.
 *
 * @example
 * ```ts
 * import { loadFocusGlobs } from "./transform.ts";
 * // await loadFocusGlobs(config);
 * ```
 */
export async function loadFocusGlobs(config: ResolvedConfig): Promise<void> {
  await loadGlobs(focusPatterns(config.focus));
}

/** The focus entries as globs relative to the root (without a leading `./`). */
function focusPatterns(focus: string[]): string[] {
  return focus.map((f) => f.replace(/^\.\//, ""));
}
