/**
 * The paths given to a build (`slop build PATHS`, the MCP tools' `paths`):
 * the selection restricted to what they match, a file they name added though
 * no entry selects it, a warning for each that matches nothing, and
 * `PathsError` when none matches anything.
 *
 * @module
 */

import { isAbsolute, join } from "./_path.ts";
import type { ResolvedConfig } from "./types.ts";
import { entryPathIn, isGlob } from "./helpers.ts";
import { loadGlobMatcher } from "./_path_matchers.ts";
import { excludedByDefault, globNames } from "./_default_skips.ts";
import type { Candidates } from "./_resolve_candidates.ts";
import type { FileFilters } from "./_resolve_filters.ts";
import { namesLiterally } from "./_resolve_match.ts";
import { noteVendorNamed, select, type Selection } from "./_resolve_select.ts";
import { isFileLike, toRootRelative } from "./_resolve_disk.ts";
import { oneLine } from "./schema.ts";

/** One matcher per path given on the command line (`PATHS`): a glob, a folder or a file. */
async function pathMatchers(
  rels: string[],
  { root, found }: { root: string; found: Candidates },
): Promise<Array<(path: string) => boolean>> {
  return await Promise.all(rels.map(async (rel) => {
    return isGlob(rel) && !await namesLiterally(rel, { root, found })
      ? await loadGlobMatcher(rel, { dot: true })
      : (x: string) => rel === "" || x === rel || x.startsWith(rel.replace(/\/$/, "") + "/");
  }));
}

/**
 * The selected paths restricted to those under the paths given on the command line.
 *
 * @example
 * ```ts
 * import { restrictToPaths } from "./_resolve_build_paths.ts";
 * // const paths = await restrictToPaths(config, { found, filters, selection, warnings });
 * ```
 */
export async function restrictToPaths(
  config: ResolvedConfig,
  { found, filters, selection, warnings }: {
    found: Candidates;
    filters: FileFilters;
    selection: Selection;
    warnings: string[];
  },
): Promise<string[]> {
  const { selected, secretSkipped } = selection;
  const rels = config.paths.map((p) =>
    toRootRelative(entryPathIn(p, found.set, config.root), config.root, config.root) ?? p
  );
  const keep = await pathMatchers(rels, { root: config.root, found });
  const restricted = new Set<string>();
  for (const path of found.list) {
    if (!keep.some((k) => k(path))) continue;
    // A folder or glob given on the command line does not name the history, secret or
    // excluded files inside it, as a folder in "files" does not; the file's own path does.
    if (!selected.has(path) && !rels.includes(path)) {
      if (filters.isHistoryFile(path) || filters.isExcluded(path)) continue;
      if (filters.isSecretFile(path)) {
        secretSkipped.add(path);
        continue;
      }
    }
    if (rels.includes(path)) secretSkipped.delete(path);
    restricted.add(path);
  }
  for (const path of selected.keys()) if (keep.some((k) => k(path))) restricted.add(path);
  await addNamedPaths(config.root, { rels, restricted, selection });
  const paths = [...restricted];
  // A build path that names a vendored folder (or a file in it) keeps the files it matches.
  for (const [i, rel] of found.vendored.size ? rels.entries() : []) {
    for (const path of [...paths, ...secretSkipped]) {
      if (keep[i](path)) noteVendorNamed(selection, path, { found, rel });
    }
  }
  for (const path of secretSkipped) if (!keep.some((k) => k(path))) secretSkipped.delete(path);
  // Each path that matches nothing is named, even when the others match.
  const unmatched = rels.filter((_, i) => !paths.some((path) => keep[i](path)));
  const why = unmatchedWarnings(unmatched, config.root);
  // Every path given matched nothing, not even a file listed as skipped (a typo, a moved folder):
  // an error, as `git add` and ESLint make it, not an empty document an agent would take for the
  // project.
  if (!paths.length && !secretSkipped.size) throw new PathsError(why);
  warnings.push(...why);
  return paths;
}

/**
 * The paths given to a build (`slop build PATHS`, the MCP tools' `paths`) all match no file:
 * nothing would be built. The message names each path.
 *
 * @example
 * ```ts
 * import { PathsError } from "./resolve.ts";
 * new PathsError(['No file matches the path "scr"']).message;
 * // 'No file matches the path "scr": nothing to build (check the spelling, and whether ...'
 * ```
 */
export class PathsError extends Error {
  /** @param problems What each path that matched nothing is (the build's warnings for them). */
  constructor(problems: string[]) {
    super(
      problems.join("; ") + ": nothing to build (check the spelling, and whether .gitignore, " +
        '"exclude" or a default such as node_modules leaves the files out)',
    );
    this.name = "PathsError";
  }
}

/**
 * The warnings for build paths that matched no file: one for those under the root, and one for
 * each that leaves it (it was "No file matches" too, though the file is there: the root is the
 * config file's folder, which need not be the working one). Each path is quoted with its control
 * characters (a NUL, an escape sequence) escaped: the message stays one line and prints no byte
 * a terminal acts on.
 */
function unmatchedWarnings(unmatched: string[], root: string): string[] {
  const quoted = (p: string) => `"${oneLine(p)}"`;
  const leaves = (p: string) => p === ".." || p.startsWith("../") || isAbsolute(p);
  const inside = unmatched.filter((p) => !leaves(p));
  const s = inside.length > 1 ? "s" : "";
  return [
    ...(inside.length ? [`No file matches the path${s} ${inside.map(quoted).join(", ")}`] : []),
    ...unmatched.filter(leaves).map((p) =>
      `The path ${quoted(p)} leaves the project folder ${quoted(root)}: a path given to build ` +
      'names files under that folder (run slop in a folder that holds it, or name it in "files" ' +
      "with allowOutsideRoot)"
    ),
  ];
}

/**
 * Select the files given by path that no entry selected. A file given by its path that git
 * ignores (or a default leaves out) is built, as a literal path in "files" is: the user named it.
 */
async function addNamedPaths(
  root: string,
  { rels, restricted, selection }: {
    rels: string[];
    restricted: Set<string>;
    selection: Selection;
  },
): Promise<void> {
  const { selected } = selection;
  for (const rel of rels) {
    if (restricted.has(rel) || [...restricted].some((p) => p.startsWith(rel + "/"))) continue;
    if (rel.startsWith("../") || isAbsolute(rel) || excludedByDefault(rel)) continue;
    if (!(await isFileLike(join(root, rel)))) continue;
    restricted.add(rel);
    if (!selected.has(rel)) select(selection, rel, { entry: { path: rel }, explicit: true });
  }
  for (const path of restricted) {
    if (!selected.has(path)) select(selection, path, { entry: { path }, explicit: false });
  }
  // A path given by name (`slop build uv.lock`), or a glob that spells it, names it.
  for (const path of restricted) {
    if (rels.some((rel) => rel === path || (isGlob(rel) && globNames(rel, path)))) {
      selected.get(path)!.named = true;
    }
  }
}
