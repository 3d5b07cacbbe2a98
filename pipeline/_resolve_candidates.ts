/**
 * The files a resolution chooses from: git's listing of the root (or a walk
 * outside a work tree), with what every build leaves out folded into one
 * folder row each (`node_modules`, virtual environments, nested
 * repositories), slop's own folders and the prefix locks dropped, and the
 * `lstat` of each file looked at. The first step of `resolveFrom()`
 * (`resolve.ts`).
 *
 * @module
 */

import { type FileStat, lstatFile } from "./file_stat.ts";
import { isLockVariant } from "./lock.ts";
import { basename, isAbsolute, join, relative, resolve as resolvePath, sep } from "./_path.ts";
import { gitListing } from "./_git.ts";
import { unopenedReason } from "./_git_unopened.ts";
import { notRegularIgnoreText } from "./_git_ignore_files.ts";
import { attributeSkips } from "./_git_attributes.ts";
import { splitSecretPaths } from "./_secret_paths.ts";
import type { ResolvedConfig } from "./types.ts";
import { comparePaths } from "./helpers.ts";
import { walk } from "./_walk.ts";
import { vendoredFolders } from "./_vendored.ts";
import { foldGitStores } from "./_git_store_folders.ts";
import { outputDirError } from "./_output_dir.ts";
import { underRoot } from "./_resolve_disk.ts";
import {
  DEFAULT_EXCLUDED_DIRS,
  EMPTY_SUBMODULE_REASON,
  EXCLUDED_DIR_REASON,
  excludedByDefault,
  NESTED_REASON,
  UNDECODABLE,
  VENV_REASON,
  venvFolders,
} from "./_default_skips.ts";

/** What {@linkcode listCandidates} may be handed (`ResolveInput` of `resolve.ts`). */
interface ListingInput {
  /** git's listing of the root, started before. @default {started now} */
  listing?: ReturnType<typeof gitListing>;
  /** The `lstat` of files looked at already, by path. @default {a new map} */
  looked?: Map<string, FileStat>;
}

/** The listed files, as a sorted list and as a set. */
export type Listed = Pick<Candidates, "list" | "set">;

/** The files a resolution chooses from, and what was looked at to list them. */
export interface Candidates {
  /** The listed files, but for slop's own folders, the locks and the default exclusions, sorted. */
  list: string[];
  set: Set<string>;
  source: "git" | "walk";
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

/**
 * List the files under the root (git's listing, else a walk) a resolution chooses from.
 *
 * @example
 * ```ts
 * import { listCandidates } from "./_resolve_candidates.ts";
 * // const { list, folders, looked } = await listCandidates(config, {});
 * ```
 */
export async function listCandidates(
  config: ResolvedConfig,
  input: ListingInput,
): Promise<Candidates> {
  const root = config.root;
  const answer = await (input.listing ?? gitListing(root));
  const looked = input.looked ?? new Map<string, FileStat>();
  const warnings: string[] = answer && "refused" in answer ? [answer.refused] : [];
  const git = answer && "files" in answer ? answer.files : undefined;
  const folders = new Map<string, string>();
  // Rules files the walk (only where git lists nothing) could not read: said in a warning.
  const unread = new Map<string, string>();
  let candidates = git ?? await walk(root, folders, unread);
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
  for (const [path, reason] of unread) {
    warnings.push(
      `Cannot read "${path}": ${reason}; its rules are not applied, so files it would leave ` +
        "out are in the build",
    );
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
