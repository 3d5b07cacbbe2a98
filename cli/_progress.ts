/**
 * A one-line progress bar on stderr for builds longer than about half a
 * second: files done / total and cache hits, then blocks counted. Silent when
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
  return {
    update(progress) {
      if (!enabled) return;
      const t = now();
      if (t - start < delay || t - last < interval) return;
      last = t;
      const line = progressLine(progress, { color, width });
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
}

/**
 * One line of progress text.
 *
 * @example
 * ```ts
 * import { progressLine } from "./_progress.ts";
 * progressLine({ stage: "transform", done: 5, total: 10, cacheHits: 2 }, { width: 4 });
 * // "slop [##--] 5/10 files, 2 cached"
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
  return `slop [${bar}] ${what}`;
}

function visibleLength(text: string): number {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "").length;
}

function writeStderr(text: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(text));
}
