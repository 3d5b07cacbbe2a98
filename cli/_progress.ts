/**
 * A one-line progress bar on stderr for builds longer than about half a
 * second: the files being read and scanned, files done / total and cache
 * hits, then blocks counted, with an estimate of the stage's time left once
 * it has run for a second and done a little of its work. A state the bar had
 * no turn to draw (too early, or too soon after the last redraw) is drawn by
 * a timer, so a long stage that reports seldom (the scan) still shows. No
 * colour when `NO_COLOR` is set. When stderr is not a terminal (CI, an agent's
 * shell, a log file) there is no bar: a long build writes a plain line now and
 * then instead (`plainEveryMs`), so one that runs for minutes is seen to run.
 *
 * @module
 */

import type { BuildProgress } from "../pipeline/build.ts";

/**
 * How long a build outside a terminal runs before its first plain line of progress, and between
 * the next ones: a build of a few seconds (most, and every test's) prints none.
 */
export const PLAIN_EVERY_MS = 30_000;

/** Options of {@linkcode progressBar}. */
export interface ProgressBarOptions {
  /** Draw at all. @default {Deno.stderr.isTerminal()} */
  enabled?: boolean;
  /** Use colour. @default {!Deno.env.get("NO_COLOR")} */
  color?: boolean;
  /** Milliseconds before the bar first appears. @default {500} */
  delayMs?: number;
  /** Milliseconds between redraws. @default {100} */
  intervalMs?: number;
  /** Clock in ms. @default {performance.now} */
  now?: () => number;
  /** Where the bar is written. @default {stderr} */
  write?: (text: string) => void;
  /** Bar width in cells. @default {24} */
  width?: number;
  /**
   * Run `draw` once after `ms` (a state not drawn yet); returns a cancel. @default {an unref'd
   * `setTimeout`, which never keeps the process alive}
   */
  later?: (draw: () => void, ms: number) => () => void;
  /**
   * Where no bar is drawn (`enabled` false): write a plain line of progress (no `\r`, no colour)
   * after this many milliseconds, then every as many more; 0 for none. @default {0}
   */
  plainEveryMs?: number;
}

/** A progress bar: feed it build progress, then call `done()`. */
export interface ProgressBar {
  /** Record progress; redraws when due. */
  update(progress: BuildProgress): void;
  /** Erase the bar if it was drawn. */
  done(): void;
  /**
   * Erase the bar if it was drawn, before a line is written to stderr (a warning): the line
   * starts on a clean row instead of after the bar's text. The next update draws the bar again.
   */
  clear(): void;
}

/**
 * Create a progress bar for `build`'s `onProgress`.
 *
 * @example
 * ```ts
 * import { progressBar } from "./_progress.ts";
 * const bar = progressBar({ enabled: false });
 * bar.update({ stage: "transform", done: 1, total: 2, cacheHits: 0 });
 * bar.done();
 * ```
 */
export function progressBar(options: ProgressBarOptions = {}): ProgressBar {
  const enabled = options.enabled ?? Deno.stderr.isTerminal();
  if (!enabled) return plainProgress(options);
  const color = options.color ?? !Deno.env.get("NO_COLOR");
  const now = options.now ?? (() => performance.now());
  const write = options.write ?? writeStderr;
  const delay = options.delayMs ?? 500;
  const interval = options.intervalMs ?? 100;
  const width = options.width ?? 24;
  const later = options.later ?? laterTimer;
  const start = now();
  let last = -Infinity;
  let drawn = 0;
  // Where the current stage was first seen: its rate so far gives the time left.
  let stage: StageStart | undefined;
  // The last state not drawn, and the timer that draws it.
  let latest: BuildProgress | undefined;
  let cancel: (() => void) | undefined;
  const draw = (progress: BuildProgress, t: number) => {
    last = t;
    latest = undefined;
    const leftMs = timeLeft(progress, stage!, t);
    const line = progressLine(progress, { color, width, leftMs });
    write(`\r${line}${" ".repeat(Math.max(0, drawn - visibleLength(line)))}`);
    drawn = visibleLength(line);
  };
  const erase = () => {
    if (drawn) write(`\r${" ".repeat(drawn)}\r`);
    drawn = 0;
  };
  return {
    update(progress) {
      const t = now();
      stage = stageAt(stage, progress, t);
      const wait = Math.max(start + delay - t, last + interval - t);
      if (wait <= 0) return draw(progress, t);
      latest = progress;
      cancel ??= later(() => {
        cancel = undefined;
        if (latest) draw(latest, now());
      }, wait);
    },
    done() {
      cancel?.();
      cancel = latest = undefined;
      erase();
    },
    clear: erase,
  };
}

/** The stage `progress` is in: `stage` when it is the same one, else one first seen at `t`. */
function stageAt(stage: StageStart | undefined, progress: BuildProgress, t: number): StageStart {
  if (stage?.name === progress.stage) return stage;
  return { name: progress.stage, at: t, done: progress.done, bytes: progress.bytesDone ?? 0 };
}

/**
 * Progress where no bar is drawn: nothing, or with `plainEveryMs` a plain line every as many
 * milliseconds, the first after as long, with the progress last told.
 */
function plainProgress(options: ProgressBarOptions): ProgressBar {
  const every = options.plainEveryMs ?? 0;
  if (!(every > 0)) return { update() {}, done() {}, clear() {} };
  const now = options.now ?? (() => performance.now());
  const write = options.write ?? writeStderr;
  const later = options.later ?? laterTimer;
  const start = now();
  let told: BuildProgress | undefined;
  let stage: StageStart | undefined;
  let cancel = () => {};
  const next = () => {
    cancel = later(() => {
      const t = now();
      const leftMs = told && timeLeft(told, stage!, t);
      write(`${plainLine(told, { elapsedMs: t - start, leftMs })}\n`);
      next();
    }, every);
  };
  next();
  return {
    update(progress) {
      stage = stageAt(stage, progress, now());
      told = progress;
    },
    done: () => cancel(),
    clear() {},
  };
}

/** `setTimeout` that does not keep the process alive; returns its cancel. */
function laterTimer(draw: () => void, ms: number): () => void {
  const id = setTimeout(draw, ms);
  Deno.unrefTimer(id);
  return () => clearTimeout(id);
}

/** Options of {@linkcode progressLine}. */
export interface ProgressLineOptions {
  /** Use colour. @default {false} */
  color?: boolean;
  /** Bar width in cells. @default {24} */
  width?: number;
  /** The estimated time left in the stage, in ms (absent: no estimate yet). */
  leftMs?: number;
}

/** How long a stage runs before its rate is trusted for an estimate, in ms. */
const ESTIMATE_AFTER_MS = 1000;

/**
 * How much of a stage is done before its rate is trusted: a hundredth of it, at most this many
 * items. A big tree's count stage told its first block done after half a minute of counting,
 * and one block's rate made "about 1382 min left".
 */
const ESTIMATE_AFTER_ITEMS = 50;

/**
 * How much of a stage's bytes are done before its rate is trusted, when its progress tells bytes:
 * the worker pool renders the largest files first, so the first files' rate by count is far from
 * the stage's (a 5,457-file tree showed "about 2 min left" at 160 files and ended seconds later).
 */
const ESTIMATE_AFTER_SHARE = 0.05;

/** Where a stage was first seen: its rate since then gives the time left. */
interface StageStart {
  name: string;
  at: number;
  done: number;
  bytes: number;
}

/**
 * The time left in a stage at its rate since it was first seen (`stage`): by bytes when the
 * progress tells them, else by items. Undefined when it has run less than a second, done too
 * little since (see {@linkcode ESTIMATE_AFTER_ITEMS} and {@linkcode ESTIMATE_AFTER_SHARE}) or
 * nothing is left.
 */
function timeLeft(progress: BuildProgress, stage: StageStart, t: number): number | undefined {
  const elapsed = t - stage.at;
  const done = progress.done - stage.done;
  const enough = Math.max(1, Math.min(ESTIMATE_AFTER_ITEMS, Math.ceil(progress.total / 100)));
  // Nothing left (the scan told as it ends, the last block): no estimate.
  if (elapsed < ESTIMATE_AFTER_MS || done < enough || progress.done >= progress.total) {
    return undefined;
  }
  const { bytesDone, bytesTotal } = progress;
  if (bytesDone === undefined || !bytesTotal) {
    return (Math.max(0, progress.total - progress.done) * elapsed) / done;
  }
  const bytes = bytesDone - stage.bytes;
  if (bytes <= 0 || bytes < ESTIMATE_AFTER_SHARE * (bytesTotal - stage.bytes)) return undefined;
  return (Math.max(0, bytesTotal - bytesDone) * elapsed) / bytes;
}

/**
 * An estimate of time left as the bar shows it: seconds under a minute and a half, else minutes.
 *
 * @example
 * ```ts
 * import { formatLeft } from "./_progress.ts";
 * formatLeft(12_300); // "about 13 s left"
 * formatLeft(600_000); // "about 10 min left"
 * ```
 */
export function formatLeft(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s < 90 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`;
}

/**
 * One line of progress text.
 *
 * @example
 * ```ts
 * import { progressLine } from "./_progress.ts";
 * progressLine({ stage: "transform", done: 5, total: 10, cacheHits: 2 }, { width: 4 });
 * // "slop [##--] 5/10 files, 2 cached"
 * progressLine({ stage: "transform", done: 5, total: 10, cacheHits: 2 }, { width: 4, leftMs: 4000 });
 * // "slop [##--] 5/10 files, 2 cached, about 4 s left"
 * progressLine({ stage: "scan", done: 0, total: 10, cacheHits: 0 }, { width: 4 });
 * // "slop [----] reading and scanning 10 files for secrets"
 * progressLine({ stage: "scan", done: 5, total: 10, cacheHits: 0 }, { width: 4 });
 * // "slop [##--] scanning for secrets: 5/10 files"
 * progressLine({ stage: "budget", done: 50, total: 100, cacheHits: 0 }, { width: 4 });
 * // "slop [##--] fitting the budget: 50/100 tokens over shed"
 * ```
 */
export function progressLine(progress: BuildProgress, options: ProgressLineOptions = {}): string {
  const width = options.width ?? 24;
  const share = progress.total ? Math.min(1, progress.done / progress.total) : 1;
  const full = Math.round(share * width);
  let bar = "#".repeat(full) + "-".repeat(width - full);
  if (options.color) bar = `\x1b[36m${"#".repeat(full)}\x1b[2m${"-".repeat(width - full)}\x1b[0m`;
  const left = options.leftMs === undefined ? "" : `, ${formatLeft(options.leftMs)}`;
  return `slop [${bar}] ${stageText(progress)}${left}`;
}

/**
 * The plain line of progress written outside a terminal: how long the build has run, and what
 * it is at (nothing told yet: the config and the listing). `slop: building for 1 min 30 s:
 * 5/10 files, 2 cached`.
 */
function plainLine(
  progress: BuildProgress | undefined,
  { elapsedMs, leftMs }: { elapsedMs: number; leftMs?: number },
): string {
  const s = Math.round(elapsedMs / 1000);
  const ran = s < 60 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  const what = progress ? `: ${stageText(progress)}` : "";
  const left = leftMs === undefined ? "" : `, ${formatLeft(leftMs)}`;
  return `slop: building for ${ran}${what}${left}`;
}

/** What a stage's progress says, in words. */
function stageText(progress: BuildProgress): string {
  return progress.stage === "scan"
    ? progress.done >= progress.total
      ? `read and scanned ${progress.total} files`
      : progress.done
      ? `scanning for secrets: ${progress.done}/${progress.total} files`
      : `reading and scanning ${progress.total} files for secrets`
    : progress.stage === "transform"
    ? `${progress.done}/${progress.total} files, ${progress.cacheHits} cached`
    : progress.stage === "budget"
    ? `fitting the budget: ${progress.done}/${progress.total} tokens over shed`
    : `counting tokens ${progress.done}/${progress.total} blocks`;
}

function visibleLength(text: string): number {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "").length;
}

function writeStderr(text: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(text));
}
