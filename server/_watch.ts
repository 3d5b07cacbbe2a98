/**
 * What changed in a build server's project between two builds, told by a
 * file watcher, so that a build after a one-file edit neither lists the
 * project's files again (a walk, or `git ls-files`) nor looks at each of them.
 * Before each build the server creates a tick file in its own folder, which
 * the same watcher watches, and waits for that file's event: one watcher
 * reports its events in order, so every change made before the build was
 * asked for has been reported by then. When the watcher cannot say (the
 * project's first build, a watcher that failed or lost events, no tick event
 * within a second), the build looks at every file, as a build without a
 * server does. What it buys is part of the resident's figure (`session.ts`):
 * the resident is told the changed files instead of looking at every file
 * (the watcher was not switched off on its own). It also starts the prepare
 * of the next build (`_prepare.ts`).
 *
 * @module
 */

import { join, relative, sep } from "node:path";
import { watchIgnoredDirs } from "../accel/resident.ts";
import { removeQuietly } from "../pipeline/helpers.ts";
import type { ResolvedConfig } from "../pipeline/types.ts";
import {
  folderStamp,
  gitListFiles,
  gitWatchFolders,
  MAX_CHANGED_PATHS,
  pinFolder,
  type PinnedFolder,
  readEvent,
  rulesAboveState,
} from "../accel/watch_events.ts";

/** What changed under a root since the last build (root-relative paths with `/`). */
export interface ServerChanges {
  /** The files changed. */
  paths: string[];
  /** Files may have been created, removed or renamed: the file list is made again. */
  structural: boolean;
}

/** A build server's file watchers, one per project root. */
export interface ServerWatch {
  /**
   * What changed under `config.root` since the last call for that root, or undefined when the
   * watcher cannot say (every file is looked at then).
   */
  changes(config: ResolvedConfig): Promise<ServerChanges | undefined>;
  /** Stop watching. */
  close(): void;
  /** What it holds until the next build: changed paths and awaited tick files, over every root. */
  held(): number;
}

/** Options of {@linkcode serverWatch}. */
export interface ServerWatchOptions {
  /** A folder of the server's own for its tick files (watched with each root). */
  dir: string;
  /** A name unique to this server, for its tick files. */
  id: string;
  /** Milliseconds to wait for a tick's event. @default {1000} */
  timeoutMs?: number;
  /**
   * Changed paths held per root until the next build; past it they are let go and the next build
   * looks at every file, so a storm of new names holds no more ({@linkcode MAX_CHANGED_PATHS}).
   * @default {10000}
   */
  maxPaths?: number;
  /** Called when a file under a watched root changes (not for the tick files). */
  onChange?: () => void;
}

/** One root's watcher and what it saw since the last build. */
interface RootWatch {
  watcher: Deno.FsWatcher;
  paths: Set<string>;
  structural: boolean;
  broken: boolean;
  /** The root when it was first watched, held open so that its stamp stays its own (see {@linkcode pinFolder}). */
  pin: PinnedFolder;
  /** The root itself was removed or renamed: its watch sees no more of what is at its path. */
  moved: boolean;
  /** Settles once its watcher has ended. */
  ended: Promise<void>;
  /** Tick files whose event is awaited, by path: told true when it came, false when it cannot. */
  waiting: Map<string, (seen: boolean) => void>;
  /** The `.gitignore` and `.gitattributes` files above the root at the last build (see {@linkcode rulesAboveState}). */
  rules: string;
}

/**
 * File watchers for a build server.
 *
 * @example
 * ```ts
 * import { serverWatch } from "./_watch.ts";
 * const watch = serverWatch({ dir: await Deno.makeTempDir(), id: "example" });
 * // const changes = await watch.changes(config); // undefined the first time
 * watch.close();
 * ```
 */
export function serverWatch(options: ServerWatchOptions): ServerWatch {
  const roots = new Map<string, RootWatch>();
  const timeoutMs = options.timeoutMs ?? 1000;
  let ticks = 0;
  return {
    async changes(config) {
      const root = roots.get(config.root);
      if (!root || root.moved || folderStamp(config.root) !== root.pin.stamp) {
        // A root removed and made again, or moved away, is not the folder watched: watch anew,
        // once the old watch has ended (Deno drops a new watch of a path whose old one closes).
        if (root) {
          closeRoot(root);
          await root.ended;
        }
        roots.set(config.root, start(config, options));
        return undefined;
      }
      if (root.broken) return undefined;
      const tick = join(options.dir, `${options.id}.tick.${++ticks}`);
      const seen = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          root.waiting.delete(tick);
          resolve(false);
        }, timeoutMs);
        root.waiting.set(tick, (seen) => {
          root.waiting.delete(tick);
          clearTimeout(timer);
          resolve(seen);
        });
      });
      try {
        Deno.writeTextFileSync(tick, "");
      } catch {
        root.waiting.get(tick)?.(false);
        return undefined;
      }
      const ok = await seen;
      removeQuietly(tick);
      // Those made since the watch started (or saved by a rename) have no watch: looked at.
      const rules = rulesAboveState(config.root);
      if (rules !== root.rules) root.paths.add(".git/index");
      root.rules = rules;
      const changes = { paths: [...root.paths].sort(), structural: root.structural };
      root.paths.clear();
      root.structural = false;
      return ok ? changes : undefined;
    },
    held() {
      let count = 0;
      for (const root of roots.values()) count += root.paths.size + root.waiting.size;
      return count;
    },
    close() {
      for (const root of roots.values()) closeRoot(root);
      roots.clear();
    },
  };
}

function closeRoot(root: RootWatch): void {
  root.pin.release();
  try {
    root.watcher?.close();
  } catch {
    // Closed already.
  }
}

/**
 * Watch `config.root`, the tick folder and git's folders outside the root; a watcher that cannot
 * start is broken.
 */
function start(config: ResolvedConfig, options: ServerWatchOptions): RootWatch {
  const dir = options.dir;
  const root: RootWatch = {
    watcher: undefined as unknown as Deno.FsWatcher,
    paths: new Set(),
    structural: false,
    broken: false,
    pin: pinFolder(config.root),
    moved: false,
    ended: Promise.resolve(),
    waiting: new Map(),
    rules: rulesAboveState(config.root),
  };
  try {
    // A worktree's or submodule's git folders are outside the root: watched by the same watcher,
    // so that their events come before the tick's.
    const paths = [config.root, dir, ...gitWatchFolders(config.root)];
    root.watcher = Deno.watchFs(paths, { recursive: true });
  } catch {
    root.broken = true;
    return root;
  }
  const ignored = watchIgnoredDirs(config).map((d) => d + sep);
  const under = config.root.endsWith(sep) ? config.root : config.root + sep;
  const ticks = dir.endsWith(sep) ? dir : dir + sep;
  const maxPaths = options.maxPaths ?? MAX_CHANGED_PATHS;
  const gitList = new Set(gitListFiles(config.root));
  const relevant = (path: string) =>
    path.startsWith(under) && !ignored.some((d) => path.startsWith(d) || path + sep === d);
  root.ended = (async () => {
    for await (const event of root.watcher) {
      for (const path of event.paths) {
        if (path.startsWith(ticks)) root.waiting.get(path)?.(true);
        else if (path === config.root && event.kind !== "modify") root.moved = true;
      }
      if (noteEvent(root, event, { root: config.root, relevant, maxPaths, gitList })) {
        options.onChange?.();
      }
    }
  })().catch(() => {}).finally(() => {
    // A watcher that ended (closed or failed) can say nothing more.
    root.broken = true;
    for (const done of [...root.waiting.values()]) done(false);
  });
  return root;
}

/**
 * Note what an event changed under a root; false when nothing a build reads. A change to git's
 * index, config, `info/exclude` or `info/attributes` is noted as `.git/index`: no file is
 * listed under that name, so the build lists the files again (git may list or mark others now),
 * without looking at each file.
 */
function noteEvent(
  root: RootWatch,
  event: Deno.FsEvent,
  { root: dir, relevant, maxPaths, gitList }: {
    root: string;
    relevant: (path: string) => boolean;
    maxPaths: number;
    gitList: Set<string>;
  },
): boolean {
  const listing = event.paths.some((path) => gitList.has(path));
  if (listing) root.paths.add(".git/index");
  const change = readEvent(event, relevant);
  if (!change) return listing;
  if (change.structural) root.structural = true;
  for (const path of change.paths) root.paths.add(relative(dir, path).split(sep).join("/"));
  if (root.paths.size > maxPaths) {
    // Too many to name: the next build lists and looks at every file instead.
    root.paths.clear();
    root.structural = true;
  }
  return true;
}
