/**
 * A one-line progress bar on stderr for builds longer than about half a
 * second: files done / total and cache hits, then blocks counted, with an
 * estimate of the stage's time left once it has run for a second. Silent when
 * stderr is not a terminal; no colour when `NO_COLOR` is set.
 *
 * @module
 */

import type { BuildProgress } from "../pipeline/build.ts";

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
}

/** A progress bar: feed it build progress, then call `done()`. */
export interface ProgressBar {
  /** Record progress; redraws when due. */
  update(progress: BuildProgress): void;
  /** Erase the bar if it was drawn. */
  done(): void;
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
  const color = options.color ?? !Deno.env.get("NO_COLOR");
  const now = options.now ?? (() => performance.now());
  const write = options.write ?? writeStderr;
  const delay = options.delayMs ?? 500;
  const interval = options.intervalMs ?? 100;
  const width = options.width ?? 24;
  const start = now();
  let last = -Infinity;
  let drawn = 0;
  // Where the current stage was first seen: its rate so far gives the time left.
  let stage: { name: string; at: number; done: number } | undefined;
  return {
    update(progress) {
      if (!enabled) return;
      const t = now();
      if (stage?.name !== progress.stage) {
        stage = { name: progress.stage, at: t, done: progress.done };
      }
      if (t - start < delay || t - last < interval) return;
      last = t;
      const leftMs = timeLeft(progress, stage, t);
      const line = progressLine(progress, { color, width, leftMs });
      write(`\r${line}${" ".repeat(Math.max(0, drawn - visibleLength(line)))}`);
      drawn = visibleLength(line);
    },
    done() {
      if (drawn) write(`\r${" ".repeat(drawn)}\r`);
      drawn = 0;
    },
  };
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
 * The time left in a stage at its rate since it was first seen (`stage`), or undefined when it
 * has run less than a second or done nothing since.
 */
function timeLeft(
  progress: BuildProgress,
  stage: { at: number; done: number },
  t: number,
): number | undefined {
  const elapsed = t - stage.at;
  const done = progress.done - stage.done;
  if (elapsed < ESTIMATE_AFTER_MS || done <= 0) return undefined;
  return (Math.max(0, progress.total - progress.done) * elapsed) / done;
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
 * ```
 */
export function progressLine(progress: BuildProgress, options: ProgressLineOptions = {}): string {
  const width = options.width ?? 24;
  const share = progress.total ? Math.min(1, progress.done / progress.total) : 1;
  const full = Math.round(share * width);
  let bar = "#".repeat(full) + "-".repeat(width - full);
  if (options.color) bar = `\x1b[36m${"#".repeat(full)}\x1b[2m${"-".repeat(width - full)}\x1b[0m`;
  const what = progress.stage === "transform"
    ? `${progress.done}/${progress.total} files, ${progress.cacheHits} cached`
    : `counting tokens ${progress.done}/${progress.total} blocks`;
  const left = options.leftMs === undefined ? "" : `, ${formatLeft(options.leftMs)}`;
  return `slop [${bar}] ${what}${left}`;
}

function visibleLength(text: string): number {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "").length;
}

function writeStderr(text: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(text));
}
