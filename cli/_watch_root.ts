/**
 * The file watcher of `slop watch`, kept on its project folder: a folder removed and made again
 * (a tool that deletes and re-creates the tree) is not the folder the old watch saw, which
 * reports nothing more, and the system does not always say that the folder itself went. So
 * after each rebuild the root's device and inode are compared with the watched one's: when they
 * differ, the watch is started anew on the folder at that path once it exists, and the process
 * enters its working folder again (removed with it).
 *
 * @module
 */

import { folderStamp, pinFolder, type PinnedFolder } from "../accel/watch_events.ts";

/** A watch that follows its root; `stop()` ends it for good. */
export interface RootWatcher {
  /** The events of every watch, in order, until stopped; `restarted` events name no file. */
  events(): AsyncGenerator<Deno.FsEvent & { restarted?: boolean }>;
  /** Start the watch anew when the folder at the root's path is not the one watched. */
  renewIfReplaced(): void;
  /** Stop watching. */
  stop(): void;
}

/** Milliseconds between looks for a removed root to be back. */
const LOOK_MS = 100;

/**
 * Milliseconds between looks at the watched root's stamp: a folder removed and made again while
 * no build ran, whose old watch said nothing of it (its last events may all be in ignored
 * folders), is watched anew within this time, not at the next event that never comes.
 */
const CHECK_MS = 1000;

/** Looks in a row at a root that is there but cannot be watched before the watch gives up. */
const TRIES = 50;

/** Options of {@linkcode rootWatcher}. */
export interface RootWatcherOptions {
  /** The system's watch, replaced in tests. @default {Deno.watchFs} */
  watch?: typeof Deno.watchFs;
  /** Milliseconds between looks at a root that is gone or cannot be watched. @default {100} */
  lookMs?: number;
}

interface WatchState {
  stopped: boolean;
  renewing: boolean;
  /** The watched root, held open so that its stamp stays its own (see {@linkcode pinFolder}). */
  pin: PinnedFolder;
  wake: () => void;
  lookMs: number;
}

/**
 * Watch `paths` (the first is the root) recursively, again whenever the root itself is removed
 * or replaced, or the watch fails (a folder removed while the system was adding it: a tree
 * deleted or rewritten under the watch); after a new watch starts, an event
 * `{ kind: "other", restarted: true }` says that changes may have been missed. A root that stays
 * there but cannot be watched (the system's limit on watches reached) ends the events with an
 * error naming it.
 *
 * @example
 * ```ts
 * import { rootWatcher } from "./_watch_root.ts";
 * const watch = rootWatcher([await Deno.makeTempDir()]);
 * watch.stop();
 * ```
 */
export function rootWatcher(paths: string[], options: RootWatcherOptions = {}): RootWatcher {
  const watch = options.watch ?? Deno.watchFs;
  const state: WatchState = {
    stopped: false,
    renewing: false,
    pin: pinFolder(paths[0]),
    wake: () => {},
    lookMs: options.lookMs ?? LOOK_MS,
  };
  const cwd = Deno.cwd();
  // Started at once, so that no change after this call is missed; when it fails, the events
  // start with a new watch (and its `restarted` event).
  let watcher: Deno.FsWatcher | undefined = tryWatch(watch, paths).watcher;
  const self: RootWatcher = {
    async *events() {
      while (!state.stopped) {
        if (watcher) {
          try {
            for await (const event of watcher) {
              yield event;
              if (event.kind !== "modify" && event.paths.includes(paths[0])) state.renewing = true;
              if (state.renewing) break;
            }
          } catch {
            // The system's watch failed (a folder went while it was being added): start anew.
            state.renewing = true;
          }
          if (!state.renewing) return;
          closeQuietly(watcher);
        }
        watcher = await renewed(watch, paths, state);
        if (!watcher) return;
        reenter(cwd);
        yield { kind: "other", paths: [], restarted: true };
      }
    },
    renewIfReplaced() {
      if (state.stopped || state.renewing || folderStamp(paths[0]) === state.pin.stamp) return;
      state.renewing = true;
      // Its loop ends once closed; the new watch starts after (Deno drops a new watch of a path
      // whose old watch is still closing).
      closeQuietly(watcher);
    },
    stop() {
      state.stopped = true;
      state.wake();
      closeQuietly(watcher);
      state.pin.release();
      clearInterval(check);
    },
  };
  const check = setInterval(() => self.renewIfReplaced(), CHECK_MS);
  Deno.unrefTimer(check);
  return self;
}

/** Start a watch of `paths` (those of them that are there, the root always). */
function tryWatch(
  watch: typeof Deno.watchFs,
  paths: string[],
): { watcher?: Deno.FsWatcher; error?: unknown } {
  try {
    return { watcher: watch(paths.filter((p, i) => i === 0 || exists(p)), { recursive: true }) };
  } catch (error) {
    return { error };
  }
}

/**
 * A new watch once the root is a folder again; `undefined` once stopped. A root that is there
 * but cannot be watched `TRIES` times in a row is an error naming it.
 */
async function renewed(
  watch: typeof Deno.watchFs,
  paths: string[],
  state: WatchState,
): Promise<Deno.FsWatcher | undefined> {
  for (let tries = 0; !state.stopped;) {
    await rootBack(paths[0], state);
    if (state.stopped) break;
    state.pin.release();
    state.pin = pinFolder(paths[0]);
    const { watcher, error } = tryWatch(watch, paths);
    if (watcher) {
      state.renewing = false;
      return watcher;
    }
    if (folderStamp(paths[0]).includes(":") && ++tries >= TRIES) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`Cannot watch "${paths[0]}": ${why}`);
    }
    await look(state);
  }
  // Stopped while it looked: the folder held last is let go too.
  state.pin.release();
  return undefined;
}

/** Wait until `root` is a folder again, or the watch is stopped. */
async function rootBack(root: string, state: WatchState): Promise<void> {
  while (!state.stopped && !folderStamp(root).includes(":")) await look(state);
}

/** Wait `state.lookMs`, or until the watch is stopped. */
function look(state: WatchState): Promise<void> {
  return new Promise<void>((resolve) => {
    state.wake = resolve;
    setTimeout(resolve, state.lookMs);
  });
}

/** Enter the working folder again: it may have been the root, or inside it, and made again. */
function reenter(cwd: string): void {
  try {
    Deno.chdir(cwd);
  } catch {
    // Not back: a build says what it cannot read.
  }
}

/** Close a watch, if any, that may be closed already. */
function closeQuietly(watcher: Deno.FsWatcher | undefined): void {
  try {
    watcher?.close();
  } catch {
    // Closed already.
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
