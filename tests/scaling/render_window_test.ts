import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext, type ViewModePlugin } from "../../mod.ts";
import { tempDir } from "../_helpers.ts";
import { eachInWindow } from "../../pipeline/transform.ts";

/**
 * How many files a build renders at once, counted by a view mode that waits a task turn in each
 * render: never timed. Each file rendering holds its input (a copy of its text), its promises and
 * its render's data, so with every file started at once what a build held at its peak grew with
 * its number of files (a folder of 200,000 empty files peaked near 3 GB). The files are tiny and
 * in one folder, as in that tree; 100 and 1,600 of them, 16x apart.
 */
async function oneFolder(files: number): Promise<string> {
  const root = await tempDir({ prefix: "slop_window_" });
  await Deno.mkdir(join(root, "src"));
  for (let i = 0; i < files; i++) await Deno.writeTextFile(join(root, "src", `f${i}.txt`), "x\n");
  return root;
}

/** The most renders of the view mode under way at one time in a build of `root`. */
async function mostAtOnce(files: number, layer: "plain" | "layer"): Promise<number> {
  const root = await oneFolder(files);
  let now = 0;
  let most = 0;
  const probe: ViewModePlugin = {
    kind: "view-mode",
    name: "probe",
    version: "1",
    async render(input) {
      most = Math.max(most, ++now);
      // A task turn: every render the stage has started by now is under way together.
      await new Promise((resolve) => setTimeout(resolve, 0));
      now--;
      return input.text;
    },
  };
  const result = await buildContext({
    cwd: root,
    inline: {
      files: [{ path: "src/**", view: "probe" }],
      plugins: [probe],
      cache: { enabled: false },
    },
  }, { write: false, ...(layer === "plain" ? { layer: undefined } : {}) });
  assert.equal(result.manifest.files.filter((f) => f.status === "rendered").length, files);
  return most;
}

for (const layer of ["plain", "layer"] as const) {
  Deno.test(`a ${layer} build renders a bounded number of files at once, however many files a folder holds`, async () => {
    const counts = [100, 1600];
    const most: number[] = [];
    for (const n of counts) most.push(await mostAtOnce(n, layer));
    assert.ok(most[0] > 1, `renders ran one at a time (${most.join(", ")})`);
    assert.ok(
      most[1] <= most[0] * 1.5,
      `files rendering at once grew ${(most[1] / most[0]).toFixed(1)}x for ${
        counts[1] / counts[0]
      }x the files (${most.join(", ")})`,
    );
  });
}

Deno.test("renders that do not settle give their places in the window to the next files, which do not wait out their timeout", async () => {
  // The first files' renders end only once every file has started: held in the window, the files
  // after them would start only when those timed out (a minute), 64 at a time.
  const files = 200;
  const root = await oneFolder(files);
  for (const layer of ["plain", "layer"] as const) {
    let started = 0;
    let open: () => void = () => {};
    const allStarted = new Promise<void>((resolve) => open = resolve);
    const latch: ViewModePlugin = {
      kind: "view-mode",
      name: "latch",
      version: "1",
      timeoutMs: 60_000,
      async render(input) {
        if (++started === files) open();
        if (started <= 100) await allStarted;
        return input.text;
      },
    };
    const result = await buildContext({
      cwd: root,
      inline: {
        files: [{ path: "src/**", view: "latch" }],
        plugins: [latch],
        cache: { enabled: false },
      },
    }, { write: false, ...(layer === "plain" ? { layer: undefined } : {}) });
    assert.deepEqual(result.warnings, [], layer);
    assert.equal(result.manifest.files.filter((f) => f.status === "rendered").length, files);
  }
});

Deno.test("a build stopped as a file is told (a cancelled call) starts no more renders than its window holds", async () => {
  // The MCP server stops a cancelled build by throwing from its progress callback, told as each
  // file is rendered: the window went on starting every other file of the tree before it stopped.
  const files = 400;
  const root = await oneFolder(files);
  for (const layer of ["plain", "layer"] as const) {
    let started = 0;
    const counter: ViewModePlugin = {
      kind: "view-mode",
      name: "counter",
      version: "1",
      async render(input) {
        started++;
        await new Promise((resolve) => setTimeout(resolve, 0));
        return input.text;
      },
    };
    const stop = new Error("The client cancelled the call");
    await assert.rejects(
      buildContext({
        cwd: root,
        inline: {
          files: [{ path: "src/**", view: "counter" }],
          plugins: [counter],
          cache: { enabled: false },
        },
      }, {
        write: false,
        ...(layer === "plain" ? { layer: undefined } : {}),
        onProgress: (p) => {
          if (p.stage === "transform" && p.done > 0) throw stop;
        },
      }),
      (error) => error === stop,
    );
    assert.ok(
      started < files / 2,
      `${layer}: ${started} of ${files} renders started after the stop`,
    );
  }
});

Deno.test("eachInWindow() holds no more renders under way than its bound, however many stall", async () => {
  // Slow renders (an LLM view queued behind its provider's limit) stall one period (1 s) after
  // another; each stall doubled the window, so a big tree's renders ended up all under way at
  // once, each holding its input. Renders of 1.2 s: counted, never timed.
  let underWay = 0;
  let most = 0;
  await eachInWindow(24, async () => {
    most = Math.max(most, ++underWay);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    underWay--;
  }, { window: 2, maxUnderWay: 8 });
  assert.ok(most <= 8, `${most} renders under way at once, bound 8`);
  assert.equal(underWay, 0);
});

Deno.test("renders that end in the order they began keep the window's size, however slow each turn (a loaded machine)", async () => {
  // On a machine so loaded that each render's turn took a fifth of a second, the files started
  // first were under way a second while the window waited for them, counted as stalled, and the
  // window doubled again and again (a build "grew 18.7x"). The clock is made to move 200 ms each
  // time a render ends; nothing is timed.
  const realNow = Date.now;
  let clock = realNow();
  Date.now = () => clock;
  let underWay = 0;
  let most = 0;
  try {
    await eachInWindow(80, async () => {
      most = Math.max(most, ++underWay);
      await new Promise((resolve) => setTimeout(resolve, 0));
      clock += 200;
      underWay--;
    }, { window: 8 });
  } finally {
    Date.now = realNow;
  }
  assert.equal(most, 8, `${most} renders under way at once, window 8`);
});
