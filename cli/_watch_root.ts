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

import { folderStamp } from "../accel/watch_events.ts";

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
 * Watch `paths` (the first is the root) recursively, again whenever the root itself is removed
 * or replaced; after a new watch starts, an event `{ kind: "other", restarted: true }` says that
 * changes may have been missed.
 *
 * @example
 * ```ts
 * import { rootWatcher } from "./_watch_root.ts";
 * const watch = rootWatcher([await Deno.makeTempDir()]);
 * watch.stop();
 * ```
 */
export function rootWatcher(paths: string[]): RootWatcher {
  const state = { stopped: false, renewing: false, stamp: folderStamp(paths[0]), wake: () => {} };
  const cwd = Deno.cwd();
  let watcher = Deno.watchFs(paths, { recursive: true });
  const close = () => {
    try {
      watcher.close();
    } catch {
      // Closed already.
    }
  };
  return {
    async *events() {
      while (!state.stopped) {
        for await (const event of watcher) {
          yield event;
          if (event.kind !== "modify" && event.paths.includes(paths[0])) state.renewing = true;
          if (state.renewing) break;
        }
        if (!state.renewing) return;
        await rootBack(paths[0], state);
        if (state.stopped) return;
        reenter(cwd);
        state.stamp = folderStamp(paths[0]);
        state.renewing = false;
        watcher = Deno.watchFs(paths.filter((p, i) => i === 0 || exists(p)), { recursive: true });
        yield { kind: "other", paths: [], restarted: true };
      }
    },
    renewIfReplaced() {
      if (state.stopped || state.renewing || folderStamp(paths[0]) === state.stamp) return;
      state.renewing = true;
      // Its loop ends once closed; the new watch starts after (Deno drops a new watch of a path
      // whose old watch is still closing).
      close();
    },
    stop() {
      state.stopped = true;
      state.wake();
      close();
    },
  };
}

/** Wait until `root` is a folder again, or the watch is stopped. */
async function rootBack(root: string, state: { stopped: boolean; wake: () => void }) {
  while (!state.stopped && !folderStamp(root).includes(":")) {
    await new Promise<void>((resolve) => {
      state.wake = resolve;
      setTimeout(resolve, LOOK_MS);
    });
  }
}

/** Enter the working folder again: it may have been the root, or inside it, and made again. */
function reenter(cwd: string): void {
  try {
    Deno.chdir(cwd);
  } catch {
    // Not back: a build says what it cannot read.
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
