/**
 * Run a command and measure its wall time and peak RSS: with
 * `/usr/bin/time -f "%M"` when present (the peak resident set of the
 * process, in KB), else by polling `VmHWM` in `/proc/<pid>/status`.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { join } from "node:path";

/** One measured run. */
export interface Sample {
  /** Wall time in seconds. */
  seconds: number;
  /** Peak RSS in MB (0 when unknown). */
  rssMb: number;
  /** What the command printed on stderr (e.g. `slop build --timings`). */
  stderr?: string;
  /** Why the command failed (its exit and the end of its stderr), when failures are allowed. */
  failed?: string;
}

/** A command to measure. */
export interface Job {
  /** Program. */
  cmd: string;
  /** Arguments. */
  args: string[];
  /** Extra environment. */
  env?: Record<string, string>;
  /** Working directory. */
  cwd?: string;
}

const TIME = "/usr/bin/time";

/**
 * Run a job once and measure it; throws with its stderr when it fails, unless
 * `allowFailure` (then the sample says why in `failed`).
 *
 * @example
 * ```ts
 * import { measure } from "./_measure.ts";
 * // const { seconds, rssMb } = await measure({ cmd: "true", args: [] });
 * ```
 */
export async function measure(
  job: Job,
  options: { allowFailure?: boolean } = {},
): Promise<Sample> {
  const tmp = await Deno.makeTempFile({ prefix: "slop_bench_time_" });
  const useTime = existsSync(TIME);
  const [cmd, args] = useTime
    ? [TIME, ["-f", "%M", "-o", tmp, job.cmd, ...job.args]]
    : [job.cmd, job.args];
  const start = performance.now();
  const child = new Deno.Command(cmd, {
    args,
    cwd: job.cwd,
    env: job.env,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let peakKb = 0;
  let poll: ReturnType<typeof setInterval> | undefined;
  if (!useTime) {
    poll = setInterval(() => {
      try {
        const status = Deno.readTextFileSync(join("/proc", String(child.pid), "status"));
        const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peakKb = Math.max(peakKb, kb);
      } catch { /* exited */ }
    }, 20);
  }
  const out = await child.output();
  const seconds = (performance.now() - start) / 1000;
  clearInterval(poll);
  if (useTime) peakKb = Number((await Deno.readTextFile(tmp)).trim().split("\n").pop()) || 0;
  await Deno.remove(tmp).catch(() => {});
  if (!out.success && options.allowFailure) {
    const tail = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" / ");
    return { seconds, rssMb: peakKb / 1024, failed: `exit ${out.code}: ${tail.slice(-300)}` };
  }
  if (!out.success) {
    throw new Error(
      `[bench] "${job.cmd} ${job.args.join(" ")}" failed: ${
        new TextDecoder().decode(out.stderr).slice(-2000)
      }`,
    );
  }
  const stderr = new TextDecoder().decode(out.stderr);
  return { seconds, rssMb: peakKb / 1024, ...(stderr.trim() ? { stderr } : {}) };
}

/**
 * The median of numbers (mean of the middle two for an even count).
 *
 * @example
 * ```ts
 * import { median } from "./_measure.ts";
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
