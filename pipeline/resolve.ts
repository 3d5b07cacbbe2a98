/**
 * Resolve stage: config entries (paths, globs, per-file options) -> sorted,
 * de-duplicated targets. Candidates are what git sees (`git ls-files -co
 * --exclude-standard`) in a work tree, or a walk honouring nested
 * `.gitignore` files outside one.
 *
 * @module
 */
import {
  dataLimitOf,
  isDataFile,
  isGettextFile,
  olderSchemaReason,
  olderSchemas,
  SHOWN_TRANSLATION_LIMIT,
  TRANSLATION_LIMIT,
  translationSets,
} from "./data_files.ts";
import { isCodeFile } from "./number_tables.ts";
import { type FileStat, lstatFile } from "./file_stat.ts";
import { isAbsolute } from "./_path.ts";
import { gitListing } from "./_git.ts";
import { compiledSources } from "./_generated_text.ts";
import { splitSecretPaths } from "./_secret_paths.ts";
import type { FileEntry, ResolvedConfig, Target } from "./types.ts";
import { comparePaths, isGlob, normalizeEntryPath } from "./helpers.ts";
import { walk } from "./_walk.ts";
import { foldVendored } from "./_vendored.ts";
import {
  generatedReason,
  isSvg,
  SECRET_FILE_REASON,
  SVG_LIMIT,
  UNDECODABLE,
  UNDECODABLE_REASON,
} from "./_default_skips.ts";
import { listCandidates } from "./_resolve_candidates.ts";
import { fileFilters } from "./_resolve_filters.ts";
import { select, selectEntries, type Selection } from "./_resolve_select.ts";
import { restrictToPaths } from "./_resolve_build_paths.ts";
import { underRoot } from "./_resolve_disk.ts";

export { comparePaths, isGlob, normalizeEntryPath };
export { loadGlobMatcher, nameMatcher } from "./_path_matchers.ts";
export {
  DEFAULT_SECRET_FILES,
  GENERATED_FILES,
  generatedReason,
  type GeneratedRule,
  HISTORY_FILES,
} from "./_default_skips.ts";
export { walk };
export { PathsError } from "./_resolve_build_paths.ts";

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

/** The targets of the selected paths, in path order, each with its merged entry and skip reason. */
function toTargets(
  root: string,
  { paths, selection, folders, attributes, notGenerated }: {
    paths: string[];
    selection: Selection;
    folders: Map<string, string>;
    attributes: Map<string, string>;
    notGenerated: Set<string>;
  },
): Target[] {
  const abs = underRoot(root);
  // Sibling translations (`locales/*.json`): one of each set shown whole (at any size: the rest's
  // summaries leave their keys and texts to it), the rest summarized.
  const translations = translationSets(paths);
  const shownWhole = new Set(translations.values());
  // A database's exported schemas, one file a version (Android Room): the latest is shown.
  const olderSchema = olderSchemas(paths);
  // Compiled CSS and JavaScript with their sources in the project: skipped when the text says
  // compiled (a file without its source or map is the only copy of its code).
  const compiled = compiledSources(paths);
  return paths.sort(comparePaths).map((path): Target => {
    const slot = selection.selected.get(path)!;
    // Lockfiles and other generated files are listed as skipped unless the config names them.
    const skip = folders.get(path) ??
      (undecodable(root, path)
        ? UNDECODABLE_REASON
        : selection.secretSkipped.has(path)
        ? SECRET_FILE_REASON
        : slot.named
        ? undefined
        : generatedReason(path) ?? attributes.get(path) ?? olderReason(olderSchema.get(path)));
    return {
      path,
      absPath: isAbsolute(path) ? path : abs(path),
      entry: mergeEntries(path, slot.entries),
      explicit: slot.explicit,
      ...(skip ? { skip } : {}),
      // A large SVG is image data: skipped by the read stage unless the config names it.
      ...(!slot.named && isSvg(path) ? { imageLimit: SVG_LIMIT } : {}),
      // A file whose text shows it generated: skipped by the read stage unless named or unmarked.
      ...(!slot.named && !skip && !notGenerated.has(path) ? judged(compiled.get(path)) : {}),
      // A large data file is summarized by the transform stage unless the config names it.
      ...(!slot.named ? dataLimits(path, translations.get(path), shownWhole.has(path)) : {}),
    };
  });
}

/** An older schema version's skip reason (none for any other file). */
function olderReason(latest: string | undefined): string | undefined {
  return latest === undefined ? undefined : olderSchemaReason(latest);
}

/** A target's fields when the read stage judges its text generated. */
function judged(compiledSource: string | undefined): Partial<Target> {
  return compiledSource === undefined
    ? { judgeGenerated: true }
    : { judgeGenerated: true, compiledSource };
}

/**
 * The limits a file the config does not name is summarized over: a translation beside the one
 * of its set shown whole over `TRANSLATION_LIMIT`, the one `shown` (English, a template, a first
 * catalog) and a gettext template or catalog in no set over `SHOWN_TRANSLATION_LIMIT`, another
 * data file over its own limit (`dataLimitOf`: 8 KB for a file an editor writes or an SVG, else
 * 32 KB).
 */
function dataLimits(
  path: string,
  translationOf: string | undefined,
  shown: boolean,
): Partial<Target> {
  if (translationOf !== undefined) return { dataLimit: TRANSLATION_LIMIT, translationOf };
  if (shown || isGettextFile(path)) return { dataLimit: SHOWN_TRANSLATION_LIMIT };
  // Code may be number tables: its limit is the data limit until its text says it is code
  // (`limitByText`, by the read stage).
  return isDataFile(path) || isCodeFile(path) ? { dataLimit: dataLimitOf(path) } : {};
}

/**
 * Give each target the merged entry object of the same path in `previous` when it was merged
 * from the same entry objects (memos keyed on entry objects then hold across builds), in place:
 * for a resolution just made.
 *
 * @example
 * ```ts
 * import { keepEntries, resolveTargets } from "./resolve.ts";
 * // const first = await resolveTargets(config);
 * // const again = await resolveTargets(config);
 * // keepEntries(again.targets, first); // again.targets[0].entry === first.targets[0].entry
 * ```
 */
export function keepEntries(targets: Target[], previous: Resolution): void {
  const before = new Map(previous.targets.map((t) => [t.path, t.entry]));
  for (const target of targets) {
    const last = before.get(target.path);
    const from = mergedFrom.get(target.entry);
    if (last && from && sameItems(mergedFrom.get(last), from)) target.entry = last;
  }
}

/** The entries each merged entry was made from (the same objects: nothing else is compared). */
const mergedFrom = new WeakMap<FileEntry, FileEntry[]>();

function sameItems<T>(a: T[] | undefined, b: T[]): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Merge every matching entry in order; later keys win (like flat configs). */
function mergeEntries(path: string, entries: FileEntry[]): FileEntry {
  const merged: FileEntry = { path };
  mergedFrom.set(merged, entries);
  for (const entry of entries) {
    for (const [key, value] of Object.entries(entry)) {
      if (key === "path" || value === undefined) continue;
      if (key === "options") merged.options = { ...merged.options, ...(value as object) };
      else (merged as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return merged;
}

/** A listed path with U+FFFD in its name that no file answers to (see {@linkcode existing}). */
function undecodable(root: string, path: string): boolean {
  if (!path.includes(UNDECODABLE) || isAbsolute(path)) return false;
  try {
    Deno.lstatSync(underRoot(root)(path));
    return false;
  } catch {
    return true;
  }
}
