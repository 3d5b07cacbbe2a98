/**
 * What one file-system event means to `slop watch` and the build server's
 * watcher (`server/_watch.ts`): which files it names, and
 * whether it may have changed the file list (anything but a modification, or
 * events the watcher lost).
 *
 * @module
 */

import { sep } from "node:path";
import { gitFolders } from "../pipeline/git_folders.ts";

/** What `slop watch` takes from one event (see {@linkcode readEvent}). */
export interface WatchChange {
  /** The event's paths that matter (absolute, as the watcher gave them). */
  paths: string[];
  /** Files may have been created, removed or renamed, or edits were lost: look at every file. */
  structural: boolean;
}

/**
 * Read a watcher event: `undefined` when it changes nothing a build reads
 * (only ignored paths, or an access). An event flagged `rescan` says the
 * watcher's queue overflowed and dropped events: it names no file but counts
 * as structural, so the next rebuild looks at every file instead of trusting
 * the watcher.
 *
 * @example
 * ```ts
 * import { readEvent } from "./watch_events.ts";
 * readEvent({ kind: "modify", paths: ["/p/a.ts"] }, () => true);
 * // { paths: ["/p/a.ts"], structural: false }
 * readEvent({ kind: "other", paths: [], flag: "rescan" }, () => true);
 * // { paths: [], structural: true }
 * ```
 */
export function readEvent(
  event: Deno.FsEvent,
  relevant: (path: string) => boolean,
): WatchChange | undefined {
  const lost = event.flag === "rescan";
  const paths = event.paths.filter(relevant);
  if (!lost && (!paths.length || event.kind === "access")) return undefined;
  return { paths, structural: lost || event.kind !== "modify" };
}

/**
 * Changed paths a watcher holds until the next build. Past it they are let go and the build looks
 * at every file instead, so a storm of new names (a tool writing thousands of files) holds no
 * more memory. The build server and `slop watch` both keep this bound.
 */
export const MAX_CHANGED_PATHS = 10_000;

/**
 * The files of git's folder that decide which files git lists (`git ls-files -co
 * --exclude-standard`, what a build lists) or skips without any file of the work
 * tree changing: the index (`git add -f`, `git rm --cached`), `info/exclude`,
 * `info/attributes` (files it marks `binary` or generated are skipped) and
 * `config` (`core.excludesFile`, `core.attributesFile`). Watchers ignore `.git`
 * but for these. Where `.git` is a file (a `git worktree` or a submodule's
 * checkout) they are in the git folder it names, outside the project: the index
 * (and a worktree's `config.worktree`) in that folder, the rest in its common
 * folder (`gitFolders`). Where the project is a folder of a work tree above it (a
 * monorepo's package), they are that work tree's, and so are the `.gitignore` and
 * `.gitattributes` files of the folders from its top down to the project's.
 *
 * @example
 * ```ts
 * import { gitListFiles } from "./watch_events.ts";
 * gitListFiles("/p").length; // 4: index, info/exclude, info/attributes, config
 * ```
 */
export function gitListFiles(root: string): string[] {
  const { gitDir, commonDir, top } = gitFolders(root);
  const files = [`${gitDir}/index`, `${commonDir}/info/exclude`];
  files.push(`${commonDir}/info/attributes`, `${commonDir}/config`);
  if (gitDir !== commonDir) files.push(`${gitDir}/config.worktree`);
  return [...files, ...rulesAbove(root, top)];
}

/**
 * The `.gitignore` and `.gitattributes` files a project folder inside a work tree heeds from the
 * folders above it, up to the work tree's `top` (git reads them for the folder's files).
 */
function rulesAbove(root: string, top: string | undefined): string[] {
  if (top === undefined) return [];
  let at: string;
  try {
    at = Deno.realPathSync(root);
  } catch {
    return [];
  }
  const files: string[] = [];
  while (at !== top && at.startsWith(top + sep)) {
    at = at.slice(0, at.lastIndexOf(sep)) || sep;
    files.push(`${at}${sep}.gitignore`, `${at}${sep}.gitattributes`);
  }
  return files;
}

/**
 * The git folders a watcher of `root` watches besides `root` (recursively, with the same watcher,
 * so that their events come in order with the project's): none when `.git` is a folder under it;
 * else the common folder, and the git folder when it is not inside that one; for a folder of a
 * work tree above it, that work tree's, and the `.gitignore` and `.gitattributes` files above the
 * root that exist (watched as files: their folders hold the rest of the work tree). Folders that
 * do not exist are left out.
 *
 * @example
 * ```ts
 * import { gitWatchFolders } from "./watch_events.ts";
 * gitWatchFolders("/no/such/p"); // []
 * ```
 */
export function gitWatchFolders(root: string): string[] {
  const { gitDir, commonDir, outside, top } = gitFolders(root);
  if (!outside) return [];
  const under = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
  const folders = [commonDir];
  if (!under(gitDir, commonDir)) folders.push(gitDir);
  // A folder of a work tree: the existing ignore and attribute files above it, watched as files.
  const rules = rulesAbove(root, top).filter((file) => fileExists(file));
  return [
    ...folders.filter((dir) => !under(dir, root) && folderStamp(dir) !== "missing"),
    ...rules,
  ];
}

/**
 * The state of the `.gitignore` and `.gitattributes` files above a project folder inside a work
 * tree (each one's inode, size and time, or that it is missing): a watcher watches those that
 * existed when it started, as files, so one made later, or one an editor saved by a rename, is
 * seen by comparing this before a build. Empty outside such a folder.
 *
 * @example
 * ```ts
 * import { rulesAboveState } from "./watch_events.ts";
 * rulesAboveState("/no/such/p"); // ""
 * ```
 */
export function rulesAboveState(root: string): string {
  return rulesAbove(root, gitFolders(root).top).map((path) => {
    try {
      const info = Deno.lstatSync(path);
      return `${info.ino}:${info.size}:${info.mtime?.getTime()}`;
    } catch {
      return "-";
    }
  }).join(" ");
}

/**
 * The folders above a project folder inside a work tree, up to its top, that hold the
 * `.gitignore` and `.gitattributes` files git reads for the project's files: `slop watch` watches
 * them (not their subfolders) to see such a file made while it runs. None outside such a folder.
 *
 * @example
 * ```ts
 * import { rulesAboveFolders } from "./watch_events.ts";
 * rulesAboveFolders("/no/such/p"); // []
 * ```
 */
export function rulesAboveFolders(root: string): string[] {
  const files = rulesAbove(root, gitFolders(root).top);
  return [...new Set(files.map((file) => file.slice(0, file.lastIndexOf(sep)) || sep))];
}

function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** A folder held open while it is watched, with its stamp (see {@linkcode pinFolder}). */
export interface PinnedFolder {
  /** The held folder's device and inode, or `"missing"` when no folder was at the path. */
  stamp: string;
  /** Let the folder go. */
  release(): void;
}

/**
 * The stamp ({@linkcode folderStamp}) of the folder at `path`, kept true while it is held: the
 * folder is held open, so that once it is removed its inode is not given to a folder made later
 * at its path. ext4 gives a freed inode to the next file made: a project folder removed and made
 * again at once (by `slop watch`'s own output, say) would have the stamp of the one watched, and
 * the watcher would never know its watch sees nothing more.
 *
 * @example
 * ```ts
 * import { pinFolder } from "./watch_events.ts";
 * const pin = pinFolder(Deno.cwd());
 * pin.release();
 * ```
 */
export function pinFolder(path: string): PinnedFolder {
  let file: Deno.FsFile | undefined;
  const release = () => {
    try {
      file?.close();
    } catch {
      // Closed already.
    }
  };
  try {
    file = Deno.openSync(path, { read: true });
    const info = file.statSync();
    if (info.isDirectory) return { stamp: `${info.dev}:${info.ino}`, release };
  } catch {
    // No folder there: missing.
  }
  release();
  return { stamp: "missing", release: () => {} };
}

/**
 * A folder's device and inode, or `"missing"` when no folder is at `path`. A watched project
 * folder removed and made again (or replaced) has another stamp: its old watch reports nothing
 * more, so the build server and `slop watch` compare stamps to know when to watch anew.
 *
 * @example
 * ```ts
 * import { folderStamp } from "./watch_events.ts";
 * folderStamp("/no/such/folder"); // "missing"
 * ```
 */
export function folderStamp(path: string): string {
  try {
    const info = Deno.statSync(path);
    return info.isDirectory ? `${info.dev}:${info.ino}` : "missing";
  } catch {
    return "missing";
  }
}
