import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runCliShared } from "../_helpers.ts";
import {
  formatLeft,
  progressBar,
  type ProgressBarOptions,
  progressLine,
} from "../../cli/_progress.ts";
import { stageClock, timingsText } from "../../pipeline/timings.ts";
import { runBuild } from "../../cli/build.ts";

Deno.test("the progress bar stays silent when stderr is not a terminal", async () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 200; i++) tree[`src/f${i}.ts`] = `export const v${i} = ${i};\n`.repeat(50);
  const root = await makeProject(tree);
  const run = await runCliShared(["build"], root);
  assert.equal(run.code, 0);
  const printed = run.stderr + run.stdout;
  assert.ok(!printed.includes("\r") && !printed.includes("slop [") && !printed.includes("\x1b["));
});

/**
 * A bar 10 wide without colour, on a clock the test moves, writing to `out`; `later` schedules
 * its delayed draws (the bar's own timer when absent).
 */
function clockedBar(clock = { now: 0 }, later?: ProgressBarOptions["later"]) {
  const out: string[] = [];
  const bar = progressBar({
    enabled: true,
    color: false,
    now: () => clock.now,
    write: (s) => out.push(s),
    width: 10,
    later,
  });
  return { bar, out, clock };
}

Deno.test("progressBar() waits half a second, then draws files done, total and cache hits", () => {
  const { bar, out, clock } = clockedBar();
  bar.update({ stage: "transform", done: 1, total: 4, cacheHits: 0 });
  assert.equal(out.length, 0, "nothing before the delay");
  clock.now = 600;
  bar.update({ stage: "transform", done: 2, total: 4, cacheHits: 1 });
  assert.equal(out.join("|"), "\rslop [#####-----] 2/4 files, 1 cached");
  clock.now = 650;
  bar.update({ stage: "transform", done: 3, total: 4, cacheHits: 1 });
  assert.equal(out.length, 1, "redraws are throttled");
  clock.now = 800;
  bar.update({ stage: "tokens", done: 5, total: 5, cacheHits: 1 });
  assert.equal(out[1], "\rslop [##########] counting tokens 5/5 blocks");
  bar.done();
  assert.equal(out[2], `\r${" ".repeat(out[1].length - 1)}\r`, "done() erases the line");
});

Deno.test("progressLine() uses colour only when asked (NO_COLOR turns it off)", () => {
  const p = { stage: "transform" as const, done: 1, total: 2, cacheHits: 0 };
  assert.ok(!progressLine(p, { color: false }).includes("\x1b"));
  assert.ok(progressLine(p, { color: true }).includes("\x1b[36m"));
  const disabled: string[] = [];
  const bar = progressBar({ enabled: false, now: () => 1e9, write: (s) => disabled.push(s) });
  bar.update(p);
  bar.done();
  assert.deepEqual(disabled, []);
});

Deno.test("progressBar() estimates the stage's time left from its rate once it has run a second", () => {
  const { bar, out, clock } = clockedBar();
  // 44,000 files: 100 done in the first second after the stage was first seen.
  bar.update({ stage: "transform", done: 0, total: 44_000, cacheHits: 0 });
  clock.now = 700;
  bar.update({ stage: "transform", done: 70, total: 44_000, cacheHits: 0 });
  assert.equal(out.at(-1), "\rslop [----------] 70/44000 files, 0 cached", "no estimate yet");
  clock.now = 1000;
  bar.update({ stage: "transform", done: 100, total: 44_000, cacheHits: 0 });
  // 43,900 left at 100 a second: 439 s, about 7 min.
  assert.equal(out.at(-1), "\rslop [----------] 100/44000 files, 0 cached, about 7 min left");
  clock.now = 21_000;
  bar.update({ stage: "transform", done: 42_000, total: 44_000, cacheHits: 40_000 });
  // 2,000 left at 2,000 a second: 1 s.
  assert.match(out.at(-1)!, /42000\/44000 files, 40000 cached, about 1 s left$/);
  // A new stage starts its own estimate: nothing until it has run a second.
  bar.update({ stage: "tokens", done: 0, total: 44_000, cacheHits: 40_000 });
  clock.now = 21_500;
  bar.update({ stage: "tokens", done: 10_000, total: 44_000, cacheHits: 40_000 });
  assert.match(out.at(-1)!, /counting tokens 10000\/44000 blocks {2,}$/);
  clock.now = 22_000;
  bar.update({ stage: "tokens", done: 22_000, total: 44_000, cacheHits: 40_000 });
  assert.match(out.at(-1)!, /counting tokens 22000\/44000 blocks, about 1 s left/);
  bar.done();
});

Deno.test("formatLeft() says seconds under a minute and a half, else minutes", () => {
  assert.equal(formatLeft(1), "about 1 s left");
  assert.equal(formatLeft(89_000), "about 89 s left");
  assert.equal(formatLeft(90_000), "about 2 min left");
  assert.equal(formatLeft(3_600_000), "about 60 min left");
});

Deno.test("progressBar() draws a state it had no turn to draw once its turn comes (a long scan shows)", () => {
  const clock = { now: 0 };
  const timers: Array<{ at: number; draw: () => void; cancelled: boolean }> = [];
  const { bar, out } = clockedBar(clock, (draw, ms) => {
    const timer = { at: clock.now + ms, draw, cancelled: false };
    timers.push(timer);
    return () => (timer.cancelled = true);
  });
  // The scan starts before the half second: nothing is drawn, and nothing else is told for long.
  clock.now = 200;
  bar.update({ stage: "scan", done: 0, total: 44_040, cacheHits: 0 });
  assert.equal(out.length, 0);
  assert.equal(timers.length, 1);
  assert.equal(timers[0].at, 500, "drawn when the delay is over");
  clock.now = 500;
  timers[0].draw();
  assert.equal(out.join("|"), "\rslop [----------] reading and scanning 44040 files for secrets");
  // Files as their scan ends, by bytes: a twentieth of them in the 2.3 s since it began, 44 s left.
  clock.now = 2_500;
  bar.update({
    stage: "scan",
    done: 2_000,
    total: 44_040,
    cacheHits: 0,
    bytesDone: 5,
    bytesTotal: 100,
  });
  assert.equal(
    out.at(-1),
    "\rslop [----------] scanning for secrets: 2000/44040 files, about 44 s left",
  );
  clock.now = 15_000;
  bar.update({ stage: "scan", done: 44_040, total: 44_040, cacheHits: 0 });
  // Padded over the longer line before it; no estimate when nothing is left.
  assert.match(out.at(-1)!, /^\rslop \[#{10}\] read and scanned 44040 files +$/);
  // A redraw too soon is kept for the timer; done() cancels it.
  clock.now = 15_050;
  bar.update({ stage: "transform", done: 10, total: 44_040, cacheHits: 10 });
  assert.equal(timers.length, 2);
  assert.equal(timers[1].at, 15_100);
  bar.done();
  assert.ok(timers[1].cancelled);
  assert.match(out.at(-1)!, /^\r +\r$/, "erased");
});

Deno.test("progressBar() gives no estimate until a stage has done a hundredth of its work (at most 50 items)", () => {
  const { bar, out, clock } = clockedBar();
  // A big tree's count: the first block told after 30 s of counting.
  bar.update({ stage: "tokens", done: 0, total: 4_405, cacheHits: 0 });
  clock.now = 30_000;
  bar.update({ stage: "tokens", done: 1, total: 4_405, cacheHits: 0 });
  assert.equal(out.at(-1), "\rslop [----------] counting tokens 1/4405 blocks");
  clock.now = 31_000;
  bar.update({ stage: "tokens", done: 45, total: 4_405, cacheHits: 0 });
  assert.match(out.at(-1)!, /counting tokens 45\/4405 blocks, about \d+ min left/);
  // A small stage needs one item.
  bar.update({ stage: "transform", done: 0, total: 40, cacheHits: 0 });
  clock.now = 32_000;
  bar.update({ stage: "transform", done: 1, total: 40, cacheHits: 0 });
  assert.match(out.at(-1)!, /1\/40 files, 0 cached, about 39 s left/);
  bar.done();
});

Deno.test("progressBar() estimates by bytes when told them, once a twentieth of them is done", () => {
  const { bar, out, clock } = clockedBar();
  // The worker pool renders the largest files first: 160 of 5,457 files hold 40 of 100 MB.
  const total = 5_457;
  const bytesTotal = 100_000_000;
  const at = (done: number, bytesDone: number) =>
    bar.update({ stage: "transform", done, total, cacheHits: 0, bytesDone, bytesTotal });
  at(0, 0);
  clock.now = 1_000;
  at(60, 4_000_000);
  // 4% of the bytes: no estimate (by files it would be "about 90 s left").
  assert.equal(out.at(-1), "\rslop [----------] 60/5457 files, 0 cached");
  clock.now = 2_000;
  at(160, 40_000_000);
  // 60 MB left at 20 MB a second: 3 s (by files it would be about 67 s).
  assert.equal(out.at(-1), "\rslop [----------] 160/5457 files, 0 cached, about 3 s left");
  bar.done();
});

Deno.test("slop build --timings prints every stage's time to stderr, and nothing to stdout", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["a.txt"] };\n`,
    "a.txt": "a\n",
  });
  const plain = await runCliShared(["build", "-q"], root);
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(plain.stderr, /timings:/);
  const run = await runCliShared(["build", "-q", "--timings"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "");
  const lines = run.stderr.trimEnd().split("\n");
  assert.equal(lines[0], "timings:");
  const stages = lines.slice(1).map((l) => /^ {2}(\S+(?: \S+)?) +(\d+\.\d) ms +\d+%$/.exec(l)?.[1]);
  for (const stage of ["startup", "config", "resolve", "read", "secrets", "transform", "emit"]) {
    assert.ok(stages.includes(stage), `${stage} missing from:\n${run.stderr}`);
  }
  assert.equal(stages.at(-1), "total");
});

Deno.test("timingsText() adds a stage marked twice and totals every stage", () => {
  const clock = stageClock();
  clock.mark("a");
  clock.mark("b");
  clock.mark("a");
  const stages = clock.stages();
  assert.deepEqual(stages.map((s) => s.stage), ["startup", "a", "b"]);
  const total = Number(/total +(\d+\.\d) ms/.exec(timingsText(clock))?.[1]);
  const sum = stages.reduce((n, s) => n + Number(s.ms.toFixed(1)), 0);
  assert.ok(Math.abs(total - sum) < 0.2, `${total} vs ${sum}`);
});

// `slop check`, `slop stats --build`, `report --build` and `payload` build as `slop build` does,
// for as long, and showed nothing on a terminal: a first `slop check --update` of a large
// repository was minutes of silence. Run on a pseudo-terminal (util-linux `script`), with a view
// that takes two seconds, each draws the bar.
const SCRIPT = ["/usr/bin/script", "/bin/script"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});
if (!SCRIPT) {
  console.log("tests/cli/progress_test: no util-linux script, skipping the terminal test");
}

Deno.test({
  name: "slop check and slop stats --build draw the progress bar on a terminal, as slop build does",
  ignore: !SCRIPT,
  fn: async () => {
    const slow = `{ kind: "view-mode", name: "slow", version: "1",
      async render(file) { await new Promise((r) => setTimeout(r, 2000)); return file.text; } }`;
    // A view that warns while the bar is drawn: the warning starts a row of its own.
    const noisy = `{ kind: "view-mode", name: "noisy", version: "1", async render(file, ctx) {
      await new Promise((r) => setTimeout(r, 1000)); ctx.warn("noisy view"); return file.text; } }`;
    const root = await makeProject({
      "a.txt": "one\n",
      "b.txt": "two\n",
      "slop.config.ts": `export default { files: [{ path: "a.txt", view: "slow" }, ` +
        `{ path: "b.txt", view: "noisy" }], plugins: [${slow}, ${noisy}] };\n`,
    });
    const onTerminal = async (args: string) => {
      const line = `'${Deno.execPath()}' run -A --quiet '${join(REPO, "cli.ts")}' ${args}`;
      const out = await new Deno.Command(SCRIPT!, {
        args: ["-qec", line, "/dev/null"],
        cwd: root,
        env: { NO_COLOR: "1", TERM: "dumb" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      return new TextDecoder().decode(out.stdout);
    };
    const check = await onTerminal("check --update");
    assert.match(check, /slop check: pinned \d+ blocks/, check);
    assert.match(check, /slop \[/, check);
    // It was written after the bar's text ("read and scanned 2 fileswarning: noisy view").
    assert.match(check, /(^|[\r\n])warning: \[plugin noisy\] noisy view/, JSON.stringify(check));
    // Another text, so that stats --build renders it again rather than from the cache.
    await Deno.writeTextFile(join(root, "a.txt"), "two\n");
    const stats = await onTerminal("stats --build");
    assert.match(stats, /a fresh build/, stats);
    assert.match(stats, /slop \[/, stats);
  },
});

Deno.test("progressBar().clear() erases the bar before a warning, and the next update draws it again", () => {
  const { bar, out, clock } = clockedBar();
  bar.clear();
  assert.equal(out.length, 0, "nothing drawn: nothing to erase");
  clock.now = 600;
  bar.update({ stage: "transform", done: 2, total: 4, cacheHits: 1 });
  const drawn = "slop [#####-----] 2/4 files, 1 cached";
  bar.clear();
  assert.equal(out.at(-1), `\r${" ".repeat(drawn.length)}\r`);
  clock.now = 800;
  bar.update({ stage: "transform", done: 3, total: 4, cacheHits: 1 });
  assert.equal(out.at(-1), "\rslop [########--] 3/4 files, 1 cached");
  bar.done();
});

Deno.test("outside a terminal, progressBar() writes a plain line after plainEveryMs, then every as many more, until done()", () => {
  const clock = { now: 0 };
  const out: string[] = [];
  const timers: Array<{ draw: () => void; ms: number; cancelled: boolean }> = [];
  const bar = progressBar({
    enabled: false,
    plainEveryMs: 30_000,
    now: () => clock.now,
    write: (s) => out.push(s),
    later: (draw, ms) => {
      const timer = { draw, ms, cancelled: false };
      timers.push(timer);
      return () => void (timer.cancelled = true);
    },
  });
  assert.deepEqual(timers.map((t) => t.ms), [30_000], "one timer, from the start");
  bar.update({ stage: "transform", done: 0, total: 10, cacheHits: 0 });
  assert.deepEqual(out, [], "nothing before it fires");
  clock.now = 30_000;
  timers[0].draw();
  bar.update({ stage: "transform", done: 4, total: 10, cacheHits: 2 });
  clock.now = 90_400;
  timers[1].draw();
  assert.deepEqual(out, [
    "slop: building for 30 s: 0/10 files, 0 cached\n",
    "slop: building for 1 min 30 s: 4/10 files, 2 cached, about 2 min left\n",
  ]);
  assert.ok(!out.join("").includes("\r") && !out.join("").includes("\x1b"));
  bar.done();
  assert.equal(timers.length, 3);
  assert.ok(timers[2].cancelled, "done() stops the timer");
  // Before any progress is told (the config, the listing): how long it has run alone.
  const early: string[] = [];
  let fire = () => {};
  const at = { now: 0 };
  const quiet = progressBar({
    enabled: false,
    plainEveryMs: 30_000,
    now: () => at.now,
    write: (s) => early.push(s),
    later: (draw) => ((fire = draw), () => {}),
  });
  at.now = 31_000;
  fire();
  quiet.done();
  assert.deepEqual(early, ["slop: building for 31 s\n"]);
  // On a terminal the bar is drawn, and no plain line is scheduled.
  let scheduled = 0;
  progressBar({ enabled: true, plainEveryMs: 30_000, later: () => (scheduled++, () => {}) })
    .done();
  assert.equal(scheduled, 0);
});

Deno.test("slop build outside a terminal writes the plain lines of progress to stderr, and none with --quiet", async () => {
  const root = await makeProject({ "a.py": "a = 1\n", "b.md": "# B\n", "c.ts": "export {};\n" });
  const run = async (quiet: boolean) => {
    let stderr = "";
    const terminal = {
      stdout: () => Promise.resolve(),
      stderr: (text: string) => void (stderr += text),
      stderrIsTerminal: false,
    };
    // Every millisecond: a build's first turn of the event loop writes one.
    const flags = { cwd: root, quiet, noServer: true, noCache: true };
    assert.equal(await runBuild([], flags, { terminal, progressEveryMs: 1 }), 0, stderr);
    return stderr.split("\n").filter((line) => line.startsWith("slop: building for "));
  };
  const lines = await run(false);
  assert.ok(lines.length > 0, "a line at least");
  for (const line of lines) assert.match(line, /^slop: building for \d+ s(: .+)?$/);
  assert.deepEqual(await run(true), []);
});
