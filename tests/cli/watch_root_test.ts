// The watch of `slop watch` survives a system watch that fails: a folder removed while the system
// was adding it (a tree deleted or rewritten under the watch) starts a new watch, and a root that
// cannot be watched at all ends with an error naming it, not a crash.
import * as assert from "node:assert/strict";
import { rootWatcher } from "../../cli/_watch_root.ts";
import { tempDir } from "../_helpers.ts";

type Watch = typeof Deno.watchFs;

/** A system watch whose first `failures` starts throw, or whose watchers fail when read. */
function flakyWatch(
  plan: { throwFirst?: number; rejectFirst?: number },
): { watch: Watch; starts: () => number } {
  let starts = 0;
  const watch = ((paths: string | string[], options?: { recursive: boolean }) => {
    starts++;
    if (starts <= (plan.throwFirst ?? 0)) {
      throw new Deno.errors.NotFound(`No path was found. about ["${paths}/.git/objects/09"]`);
    }
    const real = Deno.watchFs(paths, options);
    if (starts > (plan.rejectFirst ?? 0)) return real;
    // A watcher whose first read fails, as the system's does when a folder it adds is gone.
    const failing = {
      rid: 0,
      close: () => real.close(),
      return: () => real.return?.() ?? Promise.resolve({ done: true, value: undefined }),
      [Symbol.dispose]: () => real.close(),
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(new Error("internal error: No path was found")),
      }),
    };
    return failing as unknown as Deno.FsWatcher;
  }) as Watch;
  return { watch, starts: () => starts };
}

/** The events until one names `file` (after `restarts` restarted events), at most 10 s. */
async function untilSeen(root: string, watch: Watch, file: string) {
  const watcher = rootWatcher([root], { watch, lookMs: 5 });
  let restarts = 0;
  const stopAt = setTimeout(() => watcher.stop(), 10_000);
  try {
    for await (const event of watcher.events()) {
      if (event.restarted) {
        restarts++;
        await Deno.writeTextFile(`${root}/${file}`, "x\n");
      } else if (event.paths.some((p) => p.endsWith(file))) return { restarts, seen: true };
    }
    return { restarts, seen: false };
  } finally {
    clearTimeout(stopAt);
    watcher.stop();
  }
}

Deno.test("a watch whose start fails because a folder went starts again and sees later edits", async () => {
  const root = await tempDir();
  const { watch, starts } = flakyWatch({ throwFirst: 3 });
  const result = await untilSeen(root, watch, "a.txt");
  assert.deepEqual(result, { restarts: 1, seen: true });
  assert.equal(starts(), 4);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a watch that fails while read starts again and sees later edits", async () => {
  const root = await tempDir();
  const { watch, starts } = flakyWatch({ rejectFirst: 2 });
  const result = await untilSeen(root, watch, "b.txt");
  assert.deepEqual(result, { restarts: 2, seen: true });
  assert.equal(starts(), 3);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a root that is there but can never be watched ends the events with an error naming it", async () => {
  const root = await tempDir();
  const watch = (() => {
    throw new Error("OS file watch limit reached");
  }) as Watch;
  const watcher = rootWatcher([root], { watch, lookMs: 1 });
  await assert.rejects(
    async () => {
      for await (const _ of watcher.events()) { /* none */ }
    },
    { message: `Cannot watch "${root}": OS file watch limit reached` },
  );
  watcher.stop();
  await Deno.remove(root, { recursive: true });
});

/** A system watch that never reports anything, as a watch of a removed folder: ends once closed. */
const silentWatch = (() => {
  let end = () => {};
  const ended = new Promise<IteratorResult<Deno.FsEvent>>((resolve) => {
    end = () => resolve({ done: true, value: undefined });
  });
  const watcher = {
    rid: 0,
    close: () => end(),
    return: () => (end(), ended),
    [Symbol.dispose]: () => end(),
    [Symbol.asyncIterator]: () => ({ next: () => ended }),
  };
  return watcher as unknown as Deno.FsWatcher;
}) as Watch;

Deno.test("a root removed and made again at once is watched anew, though the system gave it the old folder's inode", async () => {
  // ext4 gives a freed inode to the next folder made: unheld, the new folder has the removed
  // one's device and inode, and the watch, which says nothing more, would be kept for good.
  const outside = await tempDir();
  const root = `${outside}/project`;
  await Deno.mkdir(root);
  const watcher = rootWatcher([root], { watch: silentWatch, lookMs: 5 });
  const stopAt = setTimeout(() => watcher.stop(), 10_000);
  try {
    await Deno.remove(root);
    await Deno.mkdir(root);
    watcher.renewIfReplaced();
    const restarted: boolean[] = [];
    for await (const event of watcher.events()) {
      restarted.push(event.restarted === true);
      break;
    }
    assert.deepEqual(restarted, [true]);
  } finally {
    clearTimeout(stopAt);
    watcher.stop();
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("a root replaced while its watch says nothing, and no rebuild asks, is watched anew", async () => {
  // The last events of a folder removed under the watch may all be in folders a build ignores
  // (its own outputs): no build follows them, and the look after a build is not taken.
  const outside = await tempDir();
  const root = `${outside}/project`;
  await Deno.mkdir(root);
  const watcher = rootWatcher([root], { watch: silentWatch, lookMs: 5 });
  const stopAt = setTimeout(() => watcher.stop(), 10_000);
  try {
    await Deno.remove(root);
    await Deno.mkdir(root);
    const restarted: boolean[] = [];
    for await (const event of watcher.events()) {
      restarted.push(event.restarted === true);
      break;
    }
    assert.deepEqual(restarted, [true]);
  } finally {
    clearTimeout(stopAt);
    watcher.stop();
    await Deno.remove(outside, { recursive: true });
  }
});
