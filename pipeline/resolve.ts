/**
 * Resolve stage: config entries (paths, globs, per-file options) -> sorted,
 * de-duplicated targets. Candidates are what git sees (`git ls-files -co
 * --exclude-standard`) in a work tree, or a walk honouring nested
 * `.gitignore` files outside one.
 *
 * `resolveFrom()` runs the steps in order, each kept in a part of its own:
 * list the candidates (`_resolve_candidates.ts`), make the filters a folder
 * or glob heeds (`_resolve_filters.ts`), select what each entry matches
 * (`_resolve_select.ts`, with `_resolve_match.ts` and `_resolve_hints.ts`),
 * restrict the selection to the build's paths (`_resolve_build_paths.ts`),
 * fold vendored folders and drop the paths that hold a secret, then make the
 * targets (`_resolve_targets.ts`; their merged entries,
 * `_resolve_entries.ts`).
 *
 * @module
 */

import { type FileStat, lstatFile } from "./file_stat.ts";
import { isAbsolute, sep } from "./_path.ts";
import { gitListing } from "./_git.ts";
import { splitSecretPaths } from "./_secret_paths.ts";
import type { ResolvedConfig, Target } from "./types.ts";
import { foldVendored } from "./_vendored.ts";
import { listCandidates } from "./_resolve_candidates.ts";
import { fileFilters } from "./_resolve_filters.ts";
import { select, selectEntries } from "./_resolve_select.ts";
import { restrictToPaths } from "./_resolve_build_paths.ts";
import { toTargets } from "./_resolve_targets.ts";
import { underRoot } from "./_resolve_disk.ts";

export { comparePaths, isGlob, normalizeEntryPath } from "./helpers.ts";
export { loadGlobMatcher, nameMatcher } from "./_path_matchers.ts";
export {
  DEFAULT_SECRET_FILES,
  GENERATED_FILES,
  generatedReason,
  type GeneratedRule,
  HISTORY_FILES,
} from "./_default_skips.ts";
export { walk } from "./_walk.ts";
export { PathsError } from "./_resolve_build_paths.ts";
export { keepEntries } from "./_resolve_entries.ts";

/** What the resolve stage produces. */
export interface Resolution {
  /** Targets sorted by path. */
  targets: Target[];
  /** Entries that matched nothing, and other notes. */
  warnings: string[];
  /** Where candidates came from. */
  source: "git" | "walk";
}

/**
 * Resolve the config's entries to targets.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./config.ts";
 * import { resolveTargets } from "./resolve.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * const { targets } = await resolveTargets(config);
 * ```
 */
export async function resolveTargets(config: ResolvedConfig): Promise<Resolution> {
  return (await resolveFrom(config)).resolution;
}

/** git's listing of a root, as {@linkcode startListing} starts it (another process). */
export type Listing = ReturnType<typeof gitListing>;

/** What {@linkcode resolveFrom} may be handed: work started, or done, before it. */
export interface ResolveInput {
  /** git's listing of the root ({@linkcode startListing}). @default {started now} */
  listing?: Listing;
  /**
   * The `lstat` of files looked at already, by path: not looked at again (the others' are added).
   * @default {a new map}
   */
  looked?: Map<string, FileStat>;
}

/**
 * Start git's listing of the config's root (a process of its own): the caller may do other work
 * while git lists, then hand the listing to {@linkcode resolveFrom}.
 *
 * @example
 * ```ts
 * import { resolveFrom, startListing } from "./resolve.ts";
 * // const { resolution } = await resolveFrom(config, { listing: startListing(config) });
 * ```
 */
export function startListing(config: ResolvedConfig): Listing {
  return gitListing(config.root);
}

/**
 * The `lstat` of each relative path under `root` that can be looked at (absolute paths and
 * paths gone are left out), by path.
 *
 * @example
 * ```ts
 * import { lstatPaths } from "./resolve.ts";
 * lstatPaths(Deno.cwd(), ["deno.json", "gone.txt"]).has("deno.json"); // true
 * ```
 */
export function lstatPaths(root: string, paths: Iterable<string>): Map<string, FileStat> {
  const looked = new Map<string, FileStat>();
  const abs = underRoot(root);
  for (const path of paths) {
    if (isAbsolute(path)) continue;
    try {
      looked.set(path, lstatFile(abs(path)));
    } catch {
      // Gone: if git still lists it, it is looked at again.
    }
  }
  return looked;
}

/**
 * Resolve the config's entries to targets, as {@linkcode resolveTargets} does, from a listing
 * started before and the `lstat`s taken before; with the `lstat` of every candidate looked at
 * (the read stage's fingerprints of the same files, a moment later).
 *
 * @example
 * ```ts
 * import { resolveFrom } from "./resolve.ts";
 * // const { resolution, looked } = await resolveFrom(config, { looked: new Map() });
 * ```
 */
export async function resolveFrom(
  config: ResolvedConfig,
  input: ResolveInput = {},
): Promise<{ resolution: Resolution; looked: Map<string, FileStat> }> {
  const found = await listCandidates(config, input);
  const warnings: string[] = [...found.warnings];
  for (const name of config.configsBeside ?? []) warnings.push(besideWarning(name, config));
  for (const path of found.secretNamed) {
    warnings.push(`Left out a file whose path holds a secret: "${path}"`);
  }
  const filters = await fileFilters(config, found);
  const selection = await selectEntries(config, { found, filters, warnings });
  const paths = config.paths.length
    ? await restrictToPaths(config, { found, filters, selection, warnings })
    : [...selection.selected.keys()];
  for (const path of selection.secretSkipped) {
    if (selection.selected.has(path)) continue;
    select(selection, path, { entry: { path }, explicit: false });
    paths.push(path);
  }
  // Vendored code no entry or build path names: its folder's row in place of its files.
  const vendored = foldVendored(paths, {
    folders: found.vendored,
    keeps: (path) => selection.vendorNamed.has(path),
  });
  for (const [folder, reason] of vendored.rows) {
    found.folders.set(folder, reason);
    select(selection, folder, { entry: { path: folder }, explicit: false });
  }
  // A path named literally (in `files` or on the command line) is not listed first: checked here.
  const named = splitSecretPaths(vendored.paths, config.secrets.rules);
  for (const path of named.dropped) {
    warnings.push(`Left out a file whose path holds a secret: "${path}"`);
  }
  const targets = toTargets(config.root, {
    paths: named.kept,
    selection,
    folders: found.folders,
    attributes: found.attributes,
    notGenerated: found.notGenerated,
  });
  return { resolution: { targets, warnings, source: found.source }, looked: found.looked };
}

/** The warning for a file named as a config beside the one loaded, which is not read. */
function besideWarning(name: string, config: ResolvedConfig): string {
  const loaded = config.configPath!.slice(config.configPath!.lastIndexOf(sep) + 1);
  return `"${name}" beside "${loaded}" is not loaded: slop reads one config, "${loaded}" (the ` +
    "first of slop.config.ts, slop.config.js and slop.config.mjs found); move its settings " +
    "there and remove it";
}
