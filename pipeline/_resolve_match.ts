/**
 * What one entry of `files` or `include` matches among the candidates: a
 * glob, a folder, a file (listed, or named though git ignores it), or a path
 * outside the root; and the warning, with a hint, for an entry that matches
 * nothing. A path with glob characters that is a file's or folder's exact
 * path names it (`namesLiterally`).
 *
 * @module
 */

import { join, resolve as resolvePath, sep } from "./_path.ts";
import type { FileEntry, ResolvedConfig } from "./types.ts";
import { entryPathIn, isGlob } from "./helpers.ts";
import { anyPath, loadGlobMatcher, withPrefix } from "./_path_matchers.ts";
import { globPrefix } from "./path_starts.ts";
import type { Listed } from "./_resolve_candidates.ts";
import { isDirectory, isFileLike, toRootRelative } from "./_resolve_disk.ts";
import { hintFor } from "./_resolve_hints.ts";

/**
 * The paths an entry matches among the candidates, each with whether the entry names it
 * explicitly (a literal path); a warning for an entry that matches nothing or leaves the root.
 *
 * @example
 * ```ts
 * import { matchEntry } from "./_resolve_match.ts";
 * // const matched = await matchEntry({ path: "src/" }, { config, found, warnings, label: "files[0]" });
 * ```
 */
export async function matchEntry(
  entry: FileEntry,
  { config, found, warnings, label }: {
    config: ResolvedConfig;
    found: Listed;
    warnings: string[];
    label: string;
  },
): Promise<Array<{ path: string; explicit: boolean }>> {
  const { list: candidates, set: candidateSet } = found;
  const raw = entryPathIn(entry.path, candidateSet);
  // Entries (paths and globs) are relative to the root, wherever the config file is.
  const rel = toRootRelative(raw, config.root, config.root);
  if (rel === undefined || rel.startsWith("../") || rel === "..") {
    if (!config.allowOutsideRoot) {
      warnings.push(`Refused "${entry.path}" (${label}): the path leaves the root`);
      return [{ path: raw, explicit: true }];
    }
    const abs = resolvePath(config.root, rel ?? raw);
    return [{ path: abs.split(sep).join("/"), explicit: true }];
  }
  if (isGlob(rel) && !await namesLiterally(rel, { root: config.root, found })) {
    // Every candidate (the usual `root/**`): no glob to compile and run per path.
    const match = rel === "**" ? anyPath : await loadGlobMatcher(rel, { dot: true });
    // Only the candidates with the glob's literal start: thousands of entries each tried on every
    // candidate took time growing as their product.
    const found = withPrefix(candidates, globPrefix(rel)).filter((c) => match(c));
    if (!found.length && config.zeroConfig && rel === "**") warnings.push(NOTHING_HERE);
    else if (!found.length) {
      warnings.push(noMatch(entry.path, label, await hintFor(rel, candidates)));
    }
    return found.map((path) => ({ path, explicit: false }));
  }
  if (candidateSet.has(rel)) return [{ path: rel, explicit: true }];
  // A file's path with a trailing slash (`a.py/`) names the file, as `a.py/.` and a build path
  // do (it was a row "a.py/" that could not be read: "Not a directory").
  const bare = rel.replace(/\/+$/, "");
  if (bare !== rel && bare && candidateSet.has(bare)) return [{ path: bare, explicit: true }];
  const dirPrefix = rel === "" || rel === "." ? "" : rel.replace(/\/$/, "") + "/";
  const inDir = withPrefix(candidates, dirPrefix);
  if (inDir.length && (dirPrefix === "" || await isDirectory(join(config.root, rel)))) {
    return inDir.map((path) => ({ path, explicit: false }));
  }
  // Listed explicitly but not a candidate: ignored by git, or missing.
  const abs = join(config.root, rel);
  if (await isFileLike(abs)) return [{ path: rel, explicit: true }];
  if (bare !== rel && bare && await isFileLike(join(config.root, bare))) {
    return [{ path: bare, explicit: true }];
  }
  const hint = await hintFor(rel, candidates);
  // A folder's path (a trailing slash) that gives no file is no file's row: the warning says why.
  if (rel.endsWith("/")) {
    const exists = await isDirectory(abs);
    warnings.push(noMatch(entry.path, label, hint, { folder: bare, exists }));
    return [];
  }
  warnings.push(noMatch(entry.path, label, hint));
  return [{ path: rel, explicit: true }];
}

/**
 * Whether a path with glob characters is the exact path of a file or folder of the project
 * (`app/[slug]/page.tsx`, `app/(group)`, `notes[1].md`): it names that file or folder, as a
 * path without them would, and is not a pattern (`[slug]` would match `app/s/page.tsx`).
 *
 * @example
 * ```ts
 * import { namesLiterally } from "./_resolve_match.ts";
 * await namesLiterally("app/[slug]", { root: "/p", found: { list: [], set: new Set() } }); // false
 * ```
 */
export async function namesLiterally(
  rel: string,
  { root, found }: { root: string; found: Listed },
): Promise<boolean> {
  const path = rel.replace(/\/$/, "");
  if (found.set.has(path)) return true;
  const folder = path + "/";
  if (withPrefix(found.list, folder).length) return await isDirectory(join(root, path));
  return await isFileLike(join(root, path));
}

/** Without a config the entry is slop's own `**`: "files[0]" would name a key nobody wrote. */
// (inside git or not: outside, slop's own walk honours `.gitignore` files as git would)
const NOTHING_HERE = "No file to bundle: this folder holds no file slop bundles (it is empty, or " +
  "every file is ignored or left out by default); add files, or run slop in a project's folder";

function noMatch(
  path: string,
  label: string,
  hint?: string,
  { folder, exists }: { folder?: string; exists?: boolean } = {},
): string {
  const why = folder === undefined
    ? ""
    : exists
    ? `: the folder "${folder}" holds no file slop bundles (it is empty, git ignores its files, ` +
      "or slop leaves them out by default)"
    : `: there is no folder "${folder}" in the project`;
  return `No file matches "${path}" (${label})${why}${hint ? `; did you mean "${hint}"?` : ""}`;
}
