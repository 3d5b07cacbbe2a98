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
import { isLockVariant } from "./lock.ts";
import { basename, isAbsolute, join, relative, resolve as resolvePath, sep } from "./_path.ts";
import { gitListing } from "./_git.ts";
import { unopenedReason } from "./_git_unopened.ts";
import { notRegularIgnoreText } from "./_git_ignore_files.ts";
import { attributeSkips } from "./_git_attributes.ts";
import { compiledSources } from "./_generated_text.ts";
import { splitSecretPaths } from "./_secret_paths.ts";
import type { FileEntry, ResolvedConfig, Target } from "./types.ts";
import { comparePaths, entryPathIn, isGlob, normalizeEntryPath } from "./helpers.ts";
import { walk } from "./_walk.ts";
import { foldVendored, namesVendored, vendoredFolderOf, vendoredFolders } from "./_vendored.ts";
import { foldGitStores } from "./_git_store_folders.ts";
import { outputDirError } from "./_output_dir.ts";
import {
  anyPath,
  loadGlobMatcher,
  manyGlobsMatcher,
  nameMatcher,
  withPrefix,
} from "./_path_matchers.ts";
import { globPrefix } from "./path_starts.ts";
import {
  DEFAULT_EXCLUDED_DIRS,
  DEFAULT_SECRET_FILES,
  EMPTY_SUBMODULE_REASON,
  EXCLUDED_DIR_REASON,
  excludedByDefault,
  generatedReason,
  globNames,
  HISTORY_FILES,
  isSvg,
  NESTED_REASON,
  SECRET_FILE_REASON,
  SVG_LIMIT,
  UNDECODABLE,
  UNDECODABLE_REASON,
  VENV_REASON,
  venvFolders,
} from "./_default_skips.ts";

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

/** The listed files, as a sorted list and as a set. */
type Listed = Pick<Candidates, "list" | "set">;

/** The files a resolution chooses from, and what was looked at to list them. */
interface Candidates {
  /** The listed files, but for slop's own folders, the locks and the default exclusions, sorted. */
  list: string[];
  set: Set<string>;
  source: Resolution["source"];
  /** The `lstat` of each file looked at. */
  looked: Map<string, FileStat>;
  /**
   * Folders listed in place of their files, with the reason: nested repositories (a submodule, or
   * a clone inside the work tree, listed by git as folders) and folders a walk could not list.
   */
  folders: Map<string, string>;
  /** Files the work tree's `.gitattributes` mark binary, generated or vendored, with the reason. */
  attributes: Map<string, string>;
  /** Files the work tree's `.gitattributes` mark `linguist-generated=false`: never judged by text. */
  notGenerated: Set<string>;
  /** The `vendor` folders that hold a package manager's marker, with its name (`_vendored.ts`). */
  vendored: Map<string, string>;
  warnings: string[];
  /** The files left out because their path holds a secret, each with the secret redacted. */
  secretNamed: string[];
}

const GIT_SLOW = "git ls-files ran past its deadline (a .gitignore pattern git matches slowly, " +
  'such as "**/**/..." over deep folders): the tracked files come from git, the untracked ones ' +
  "from slop's own .gitignore matching";

const GIT_BLOCKED = "the tracked files come from git, the untracked ones from slop's own " +
  ".gitignore matching";

/** List the files under the root (git's listing, else a walk) a resolution chooses from. */
async function listCandidates(config: ResolvedConfig, input: ResolveInput): Promise<Candidates> {
  const root = config.root;
  const answer = await (input.listing ?? gitListing(root));
  const looked = input.looked ?? new Map<string, FileStat>();
  const warnings: string[] = answer && "refused" in answer ? [answer.refused] : [];
  const git = answer && "files" in answer ? answer.files : undefined;
  const folders = new Map<string, string>();
  let candidates = git ?? await walk(root, folders);
  // Folders git could not open: listed, with the cause, in place of their untracked files.
  for (const [folder, cause] of (answer && "unopened" in answer && answer.unopened) || []) {
    folders.set(folder, unopenedReason(cause));
    candidates = [...candidates, folder];
  }
  if (answer && "trackedOnly" in answer && answer.trackedOnly) {
    // git ran past its deadline: the untracked files come from slop's own matching.
    candidates = [...new Set([...candidates, ...await walk(root, folders)])];
    const blocked = answer.notRegular;
    warnings.push(blocked ? `${notRegularIgnoreText(blocked)}; ${GIT_BLOCKED}` : GIT_SLOW);
  }
  // A git directory inside the project (a bare repository, a `.git.bak`): one folder row.
  candidates = foldGitStores(root, candidates, folders);
  // A path that holds a secret is never listed: no output, cache or memory may record it.
  const { kept: listed, dropped: secretNamed } = splitSecretPaths(candidates, config.secrets.rules);
  const internal = internalDirs(config);
  // The prefix locks (every persona's and preset's) describe the document: never part of it.
  const lock = relative(root, config.lockBase).split(sep).join("/");
  // Files git lists in a folder every build leaves out (a `node_modules` of test fixtures, a
  // committed `.slop`) are listed as that folder, skipped with the reason: never silently missing.
  const present = existing(root, foldExcluded(listed, folders), looked, { folders, nested: !!git });
  // An output folder that holds the project's files would leave them out: a config error.
  const mixed = outputDirError(config, present, internal);
  if (mixed) throw mixed;
  const list = present.filter((p) =>
    !internal.some((d) => p === d || p.startsWith(d + "/")) && !isLockVariant(p, lock)
  ).sort(comparePaths);
  const notGenerated = new Set<string>();
  return {
    list,
    set: new Set(list),
    source: git ? "git" : "walk",
    looked,
    folders,
    attributes: git ? await attributeSkips(root, list, { warnings, notGenerated }) : new Map(),
    notGenerated,
    vendored: vendoredFolders(list, { project: basename(root) }),
    warnings,
    secretNamed,
  };
}

/**
 * The paths, but for those in a folder every build leaves out (`node_modules`, `.slop`), each of
 * those folders once in their place, with the reason in `folders`. (A walk never enters them.)
 */
function foldExcluded(paths: string[], folders: Map<string, string>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const venvs = venvFolders(paths);
  for (const path of paths) {
    // A virtual environment first (it may sit in any folder), then the default-excluded folders.
    const venv = venvs.length ? venvs.find((v) => path.startsWith(v + "/")) : undefined;
    const folder = venv ?? (excludedByDefault(path) ? excludedFolderOf(path) : undefined);
    if (folder === undefined) {
      out.push(path);
      continue;
    }
    if (!seen.has(folder)) out.push(folder);
    seen.add(folder);
    folders.set(folder, venv === undefined ? EXCLUDED_DIR_REASON : VENV_REASON);
  }
  return out;
}

/** The default-excluded folder `path` is in (`a/node_modules` for `a/node_modules/x/y.js`). */
function excludedFolderOf(path: string): string {
  const parts = path.split("/");
  return parts.slice(0, parts.findIndex((p) => DEFAULT_EXCLUDED_DIRS.includes(p)) + 1).join("/");
}

/** What a folder or glob does not select though it matches: history, secret and excluded files. */
interface FileFilters {
  isSecretFile: (path: string) => boolean;
  isHistoryFile: (path: string) => boolean;
  isExcluded: (path: string) => boolean;
}

async function fileFilters(config: ResolvedConfig, found: Listed): Promise<FileFilters> {
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

async function matchEntry(
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

/**
 * Whether a path with glob characters is the exact path of a file or folder of the project
 * (`app/[slug]/page.tsx`, `app/(group)`, `notes[1].md`): it names that file or folder, as a
 * path without them would, and is not a pattern (`[slug]` would match `app/s/page.tsx`).
 */
async function namesLiterally(
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
const NOTHING_HERE = "No file to bundle: this folder has no file git would track (it is empty, " +
  "or every file is ignored); add files, or run slop in a project's folder";

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

/** A case-insensitive match for an entry that matched nothing. */
async function hintFor(rel: string, candidates: string[]): Promise<string | undefined> {
  const index = caseBlindIndex(candidates);
  if (isGlob(rel)) {
    const match = await loadGlobMatcher(rel, { dot: true, nocase: true });
    // Only the candidates whose lowercase form starts as the glob's does: a letter outside ASCII
    // never matches one inside it without case, so the start is cut at the first such letter.
    const start = globPrefix(rel).replace(/[^\0-\x7f][^]*$/, "").toLowerCase();
    let low = 0;
    let high = index.sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (index.sorted[mid][0] < start) low = mid + 1;
      else high = mid;
    }
    let first = -1;
    for (let i = low; i < index.sorted.length && index.sorted[i][0].startsWith(start); i++) {
      const at = index.sorted[i][1];
      if ((first < 0 || at < first) && match(candidates[at])) first = at;
    }
    return first < 0 ? undefined : candidates[first];
  }
  const lower = rel.toLowerCase();
  return index.first.get(lower) ?? index.under.get(lower.replace(/\/$/, ""));
}

/** The lowercase forms of a list of candidates, for the hints of entries that matched nothing. */
interface CaseBlindIndex {
  /** The first candidate of each lowercase path. */
  first: Map<string, string>;
  /** The first candidate under each lowercase folder (the text before a `/` of a lowercase path). */
  under: Map<string, string>;
  /** Each lowercase path and its candidate's place, sorted. */
  sorted: Array<[string, number]>;
}

const CASE_BLIND = new WeakMap<string[], CaseBlindIndex>();

/**
 * The candidates' lowercase forms, made once for a list: thousands of entries that match nothing
 * each lowercased every candidate for their hint (time growing as their product).
 */
function caseBlindIndex(candidates: string[]): CaseBlindIndex {
  const known = CASE_BLIND.get(candidates);
  if (known) return known;
  const index: CaseBlindIndex = { first: new Map(), under: new Map(), sorted: [] };
  for (const [at, candidate] of candidates.entries()) {
    const lower = candidate.toLowerCase();
    if (!index.first.has(lower)) index.first.set(lower, candidate);
    for (let i = lower.indexOf("/"); i >= 0; i = lower.indexOf("/", i + 1)) {
      const folder = lower.slice(0, i);
      if (!index.under.has(folder)) index.under.set(folder, candidate);
    }
    index.sorted.push([lower, at]);
  }
  index.sorted.sort((a, b) => comparePaths(a[0], b[0]));
  CASE_BLIND.set(candidates, index);
  return index;
}

function toRootRelative(path: string, root: string, base: string): string | undefined {
  if (isAbsolute(path)) {
    const rel = relative(root, path).split(sep).join("/");
    return rel;
  }
  if (base === root) return path;
  const abs = resolvePath(base, path);
  return relative(root, abs).split(sep).join("/");
}

/**
 * `join(root, path)` for the root-relative paths git or the walk list: on POSIX, a path of
 * plain segments (no `.`, `..` or empty one) is joined as it is (`join` normalizes every
 * segment, a cost per file of the project).
 */
function underRoot(root: string): (path: string) => string {
  const prefix = root.endsWith("/") ? root : root + "/";
  return sep === "/"
    ? (path) => (PLAIN.test(path) ? prefix + path : join(root, path))
    : (path) => join(root, path);
}

/** A relative path of plain segments. */
const PLAIN = /^(?!\.\.?(?:\/|$))(?:[^/]+\/(?!\.\.?(?:\/|$)))*[^/]+$/;

/** Folders and files slop itself writes or reads as inputs of other sections. */
function internalDirs(config: ResolvedConfig): string[] {
  const dirs = [config.stateDir, config.output.dir, config.cache.dir];
  if (typeof config.history === "string") {
    const base = config.configPath ? join(config.configPath, "..") : config.root;
    dirs.push(resolvePath(base, config.history));
  }
  return dirs.map((d) => relative(config.root, d).split(sep).join("/"))
    .filter((d) => d && !d.startsWith("..") && !isAbsolute(d));
}

/**
 * The paths that exist and are not folders; `looked` holds their `lstat`s (some taken already).
 * A folder in `folders` stays (a walk could not list it); with `nested` (a git listing), a folder
 * is a nested repository, added to `folders` with that reason.
 */
function existing(
  root: string,
  paths: string[],
  looked: Map<string, FileStat>,
  { folders, nested }: { folders: Map<string, string>; nested: boolean },
): string[] {
  // One synchronous lstat each: a few microseconds, where an awaited one costs a task turn.
  const out: string[] = [];
  const abs = underRoot(root);
  for (const listed of paths) {
    // `inner/`: how git lists a nested repository it does not track.
    const p = listed.endsWith("/") ? listed.slice(0, -1) : listed;
    if (folders.has(p)) {
      out.push(p);
      continue;
    }
    try {
      // Looked at before (`ResolveInput.looked`), or now.
      const info = looked.get(p) ?? lstatFile(abs(p));
      looked.set(p, info);
      if (!info.isDirectory) out.push(p);
      else if (nested) {
        // A folder in git's listing is a submodule or a nested repository: listed, and skipped
        // with the reason, rather than its files silently missing.
        folders.set(p, isEmptyFolder(abs(p)) ? EMPTY_SUBMODULE_REASON : NESTED_REASON);
        out.push(p);
      }
    } catch (error) {
      // Deleted since git listed it: not part of the project any more. But a name that is not
      // valid UTF-8 reaches us with U+FFFD in place of its bytes, and no path opens it: it
      // stays, to be listed as skipped with that reason (never a file silently missing). So does
      // a file that cannot be looked at (in a folder its user may not enter): its read says why.
      if (p.includes(UNDECODABLE) || !gone(error)) out.push(p);
    }
  }
  return out;
}

/** Whether a folder holds no entry (false when it cannot be listed: its row says why elsewhere). */
function isEmptyFolder(path: string): boolean {
  try {
    for (const _ of Deno.readDirSync(path)) return false;
    return true;
  } catch {
    return false;
  }
}

/** Whether a failed look at a listed path means it is gone (deleted, or a folder on its way is). */
function gone(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
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

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function isFileLike(path: string): Promise<boolean> {
  try {
    const info = await Deno.lstat(path);
    return !info.isDirectory;
  } catch {
    return false;
  }
}
