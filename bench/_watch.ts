/**
 * The resident case of the benchmark: `slop watch` on a corpus, one file
 * edited at a time. Each sample is the time from the edit (the file written)
 * to the watch process's line saying the rebuilt document is written, read
 * from its stdout (so it includes the debounce, the file-system event and
 * printing), next to the build's own duration as the process prints it.
 *
 * ```sh
 * deno run -A bench/_watch.ts CONFIG STATE_DIR FILE [EDITS]
 * ```
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SLOP_V8_FLAGS } from "../cli/init.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

/** One rebuild of the watch process. */
export interface WatchSample {
  /** From the edit to the line saying the document is written, in seconds. */
  seconds: number;
  /** The build's own duration as the watch process printed it, in seconds. */
  buildSeconds: number;
  /** The watch process's peak RSS so far, in MB (0 when unknown). */
  rssMb: number;
}

/** Options of {@linkcode watchRebuilds}. */
export interface WatchBenchOptions {
  /** Rebuilds to measure. @default {3} */
  edits?: number;
  /** The watch debounce in ms. @default {10} */
  debounce?: number;
}

/**
 * Start `slop watch`, then edit `file` (a comment line appended, each time
 * another) `edits` times, waiting for each rebuild; the file is restored.
 *
 * @example
 * ```ts
 * import { watchRebuilds } from "./_watch.ts";
 * // const samples = await watchRebuilds(config, state, file, { edits: 3 });
 * ```
 */
export async function watchRebuilds(
  config: string,
  state: string,
  file: string,
  options: WatchBenchOptions = {},
): Promise<WatchSample[]> {
  const edits = options.edits ?? 3;
  const original = await Deno.readFile(file);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      SLOP_V8_FLAGS,
      "--quiet",
      join(REPO, "cli.ts"),
      "watch",
      "--config",
      config,
      "--state-dir",
      state,
      "--debounce",
      String(options.debounce ?? 10),
      ...(Deno.env.get("SLOP_BENCH_TIMINGS") ? ["--timings"] : []),
    ],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: Deno.env.get("SLOP_BENCH_TIMINGS") ? "inherit" : "piped",
  }).spawn();
  const guard = setTimeout(() => child.kill("SIGKILL"), 300_000);
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  // Lines as they arrive (with the time they arrived), read in the background: a line printed
  // by a second rebuild of one edit (two file-system events further apart than the debounce)
  // is dropped before the next edit instead of being taken for its answer.
  const queue: string[] = [];
  let waiter: (() => void) | undefined;
  let ended = false;
  const pump = (async () => {
    let buffer = "";
    for (;;) {
      const { value, done } = await lines.read().catch(() => ({ value: "", done: true }));
      if (done) break;
      buffer += value;
      while (buffer.includes("\n")) {
        queue.push(buffer.slice(0, buffer.indexOf("\n")));
        buffer = buffer.slice(buffer.indexOf("\n") + 1);
      }
      waiter?.();
    }
    ended = true;
    waiter?.();
  })();
  const nextLine = async (): Promise<string | undefined> => {
    while (!queue.length && !ended) await new Promise<void>((r) => (waiter = r));
    return queue.shift();
  };
  const samples: WatchSample[] = [];
  try {
    const first = await nextLine();
    if (!first?.includes("watching for changes")) {
      throw new Error(`[bench] slop watch did not start: ${first}`);
    }
    // Let the watcher subscribe and settle.
    await new Promise((r) => setTimeout(r, 500));
    for (let i = 0; i < edits; i++) {
      const note = new TextEncoder().encode(`\n${file.endsWith(".py") ? "#" : "//"} watch ${i}\n`);
      const next = new Uint8Array(original.length + note.length);
      next.set(original);
      next.set(note, original.length);
      queue.length = 0;
      const start = performance.now();
      await Deno.writeFile(file, next);
      const line = await nextLine();
      const seconds = (performance.now() - start) / 1000;
      const ms = / in (\d+) ms: /.exec(line ?? "");
      if (!ms) throw new Error(`[bench] unexpected slop watch line: ${line}`);
      samples.push({ seconds, buildSeconds: Number(ms[1]) / 1000, rssMb: peakMb(child.pid) });
      // Quiet time between edits, so each is one rebuild.
      await new Promise((r) => setTimeout(r, 300));
    }
  } finally {
    // Stopped as Ctrl-C stops it, then the file is put back.
    child.kill("SIGINT");
    const status = await child.status;
    await pump;
    await Deno.writeFile(file, original);
    clearTimeout(guard);
    if (!status.success && samples.length < edits) {
      const err = Deno.env.get("SLOP_BENCH_TIMINGS")
        ? ""
        : await new Response(child.stderr).text().catch(() => "");
      console.error(`bench: slop watch exited with ${status.code}: ${err.slice(-1000)}`);
    }
  }
  return samples;
}

/** VmHWM of a live process, in MB (0 when it is gone or not Linux). */
function peakMb(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

if (import.meta.main) {
  const [config, state, file, edits] = Deno.args;
  const samples = await watchRebuilds(config, state, file, { edits: Number(edits ?? 3) });
  for (const s of samples) {
    console.log(
      `edit -> document ${(s.seconds * 1000).toFixed(0)} ms (build ${
        (s.buildSeconds * 1000).toFixed(0)
      } ms)`,
    );
  }
}
