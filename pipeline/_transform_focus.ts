/**
 * The focus files of a build: the config's `focus` entries (persona,
 * `--focus`) matched by path, folder, glob, file name or, for an entry that
 * names no file, a part of a path; and the files changed since `--since`.
 * Focus files are shown in full (`_transform_view_choice.ts`).
 *
 * @module
 */

import { compileGlobs } from "./_glob.ts";
import { globPrefix, startsIndex } from "./path_starts.ts";
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
  const exact = exactFocus(patterns, all);
  const matchesExactly = (path: string) => exact(path, true).length > 0;
  // The substring level, for the entries that name no file of the build by path or name.
  let loose: string[] = [];
  if (all) {
    const hit = hitsOf(exact, all);
    loose = patterns.filter((p, i) => p !== "" && !hit.has(i));
  }
  if (!loose.length) return matchesExactly;
  return (path) => matchesExactly(path) || loose.some((part) => path.includes(part));
}

/**
 * The focus entries (by index) that the path levels match in some path of `paths`, and only
 * those: a path tries the entries its start or its name may match (see `exactFocus`).
 *
 * @example
 * ```ts
 * import { focusHits } from "./transform.ts";
 * focusHits(["src/", "nope", "b.ts"], ["src/a.ts", "lib/b.ts"]); // Set { 0, 2 }
 * ```
 */
export function focusHits(focus: string[], paths: string[]): Set<number> {
  // No entry, no hit: the paths (a big tree's, and their folders) are not gone through.
  if (!focus.length) return new Set();
  return hitsOf(exactFocus(focusPatterns(focus), paths), paths);
}

function hitsOf(exact: (path: string) => number[], paths: string[]): Set<number> {
  const hit = new Set<number>();
  for (const path of paths) for (const i of exact(path)) hit.add(i);
  return hit;
}

/**
 * The path and name levels of the focus entries: exact path, folder, glob, file name; for a path,
 * the entries that match it (with `first`, the first found only). An entry with glob characters
 * that is exactly a path of `paths` or its folder (`app/[slug]`) is that path, not a glob (which
 * would match `app/s` too). A path tries only the entries whose literal start it has, or whose
 * text is its name: thousands of entries over thousands of files are not tried in pairs.
 */
function exactFocus(
  patterns: string[],
  paths?: string[],
): (path: string, first?: boolean) => number[] {
  // The build's paths and their folders (`src/`, `src/lib/`), to tell an entry that names one.
  const names = new Set<string>();
  for (const p of paths ?? []) {
    names.add(p);
    for (let i = p.indexOf("/"); i !== -1; i = p.indexOf("/", i + 1)) names.add(p.slice(0, i + 1));
  }
  const tests = patterns.map((pattern) => {
    const folder = pattern.replace(/\/+$/, "") + "/";
    const literal = names.has(pattern) || names.has(folder);
    const glob = isGlob(pattern) && !literal ? compileGlobs(pattern, { dot: true }) : undefined;
    const start = glob ? globPrefix(pattern) : pattern.replace(/\/+$/, "");
    const test = (path: string) =>
      path === pattern || path.startsWith(folder) || glob?.(path) === true;
    return { start, test };
  });
  const starts = startsIndex(tests.map((t) => t.start));
  const byName = Map.groupBy(patterns.keys(), (i) => patterns[i]);
  return (path, first = false) => {
    const out: number[] = [];
    for (const i of starts(path)) {
      if (tests[i].test(path)) {
        out.push(i);
        if (first) return out;
      }
    }
    const named = byName.get(path.slice(path.lastIndexOf("/") + 1));
    if (named) out.push(...named.filter((i) => !out.includes(i)));
    return out;
  };
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
