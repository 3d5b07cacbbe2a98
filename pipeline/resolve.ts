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
import { isAbsolute, join } from "./_path.ts";
import { gitListing } from "./_git.ts";
import { compiledSources } from "./_generated_text.ts";
import { splitSecretPaths } from "./_secret_paths.ts";
import type { FileEntry, ResolvedConfig, Target } from "./types.ts";
import { comparePaths, entryPathIn, isGlob, normalizeEntryPath } from "./helpers.ts";
import { walk } from "./_walk.ts";
import { foldVendored, namesVendored, vendoredFolderOf } from "./_vendored.ts";
import { loadGlobMatcher } from "./_path_matchers.ts";
import {
  excludedByDefault,
  generatedReason,
  globNames,
  isSvg,
  SECRET_FILE_REASON,
  SVG_LIMIT,
  UNDECODABLE,
  UNDECODABLE_REASON,
} from "./_default_skips.ts";
import { type Candidates, listCandidates } from "./_resolve_candidates.ts";
import { type FileFilters, fileFilters } from "./_resolve_filters.ts";
import { matchEntry, namesLiterally } from "./_resolve_match.ts";
import { isFileLike, toRootRelative, underRoot } from "./_resolve_disk.ts";

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

/**
 * The entries that matched each selected file, whether one named it explicitly, and whether one
 * names it (`named`: a literal path or a glob that spells the file; a generated file is kept).
 */
interface Slot {
  entries: FileEntry[];
  explicit: boolean;
  named: boolean;
}

/** The files selected so far, and the secret files skipped (listed as skipped, never read). */
interface Selection {
  selected: Map<string, Slot>;
  secretSkipped: Set<string>;
  /** Files in a vendored folder that an entry or build path naming the folder matched: kept. */
  vendorNamed: Set<string>;
}

/** Add an entry's match to the selection (`named` defaults to `explicit`). */
function select(
  selection: Selection,
  path: string,
  { entry, explicit, named = explicit }: { entry: FileEntry; explicit: boolean; named?: boolean },
): void {
  const slot = selection.selected.get(path) ?? { entries: [], explicit: false, named: false };
  slot.entries.push(entry);
  slot.explicit ||= explicit;
  slot.named ||= named;
  selection.selected.set(path, slot);
}

/** Select the files each entry of `files` and `include` matches. */
async function selectEntries(
  config: ResolvedConfig,
  { found, filters, warnings }: { found: Candidates; filters: FileFilters; warnings: string[] },
): Promise<Selection> {
  const selection: Selection = {
    selected: new Map(),
    secretSkipped: new Set(),
    vendorNamed: new Set(),
  };
  const entries: Array<{ entry: FileEntry; label: string }> = [
    ...config.files.map((entry, i) => ({ entry, label: `files[${i}]` })),
    ...config.include.map((path, i) => ({ entry: { path }, label: `include[${i}]` })),
  ];
  // Files that usually hold secrets, matched by a glob or a folder: listed as skipped, never read.
  const { secretSkipped } = selection;
  for (const { entry, label } of entries) {
    const matched = await matchEntry(entry, { config, found, warnings, label });
    const glob = isGlob(entry.path) ? normalizeEntryPath(entry.path) : undefined;
    const rel = found.vendored.size ? entryRel(entry, config.root) : undefined;
    for (const { path, explicit } of matched) {
      if (filters.isHistoryFile(path) || (!explicit && filters.isExcluded(path))) continue;
      if (rel !== undefined) noteVendorNamed(selection, path, { found, rel });
      if (!explicit && filters.isSecretFile(path)) {
        if (!selection.selected.has(path)) secretSkipped.add(path);
        continue;
      }
      secretSkipped.delete(path);
      const named = explicit || (glob !== undefined && globNames(glob, path));
      select(selection, path, { entry, explicit, named });
    }
  }
  return selection;
}

/** The root-relative path or glob of an entry (`""` for one that leaves the root). */
function entryRel(entry: FileEntry, root: string): string {
  const rel = toRootRelative(normalizeEntryPath(entry.path), root, root) ?? "";
  return rel.startsWith("../") ? "" : rel;
}

/** Note whether `rel` (an entry's path or glob, or a build path) names `path`'s vendored folder. */
function noteVendorNamed(
  selection: Selection,
  path: string,
  { found, rel }: { found: Candidates; rel: string },
): void {
  const folder = vendoredFolderOf(path, found.vendored);
  if (folder !== undefined && namesVendored(rel, folder)) selection.vendorNamed.add(path);
}

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

/** The selected paths restricted to those under the paths given on the command line. */
async function restrictToPaths(
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
 * config file's folder, which need not be the working one).
 */
function unmatchedWarnings(unmatched: string[], root: string): string[] {
  const leaves = (p: string) => p === ".." || p.startsWith("../") || isAbsolute(p);
  const inside = unmatched.filter((p) => !leaves(p));
  const s = inside.length > 1 ? "s" : "";
  return [
    ...(inside.length
      ? [`No file matches the path${s} ${inside.map((p) => `"${p}"`).join(", ")}`]
      : []),
    ...unmatched.filter(leaves).map((p) =>
      `The path "${p}" leaves the project folder "${root}": a path given to build names files ` +
      'under that folder (run slop in a folder that holds it, or name it in "files" with ' +
      "allowOutsideRoot)"
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
