/**
 * Resident rebuilds in one process, stage by stage: what `slop watch` (or a
 * build server) does after a one-file edit, without the watcher, debounce or
 * printing. Loads a config, makes one `resident()`, builds once (cold), warms
 * up as `slop watch` does (a warm-up and a build that writes nothing), then
 * edits `FILE` `EDITS` times (two edits in turn; the file is put back) and
 * rebuilds after each, with a full garbage collection between rebuilds. Prints
 * each stage's median and range in ms, then the build's and its CPU time (all
 * threads: less disturbed by other processes than wall time), and with
 * `--hashes` the sha256 of each rebuild's document, manifest (without its
 * output path) and order state, to compare two versions of slop.
 *
 * ```sh
 * deno run -A --v8-flags=--max-semi-space-size=4 bench/_rebuild.ts CONFIG FILE [EDITS] [--server] [--hashes]
 * ```
 *
 * `SLOP_REBUILD_STATE=DIR`: a state dir kept between runs (its cache makes the first build warm,
 * so that a CPU profile is mostly rebuilds).
 *
 * `--server`: the build server's case (`state.changed([], true)`: the files are resolved and
 * looked at again); otherwise the watch case (`state.changed([FILE], false)`).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { cpuUsage } from "node:process";
import { join, relative, sep } from "node:path";
import { loadConfig } from "../pipeline/config.ts";
import { build, type BuildResult } from "../pipeline/build.ts";
import { builtinPlugins } from "../cli/_builtins.ts";
import { resident } from "../accel/resident.ts";
import { stageClock } from "../pipeline/timings.ts";
import { collectGarbage } from "../accel/collect.ts";
import { speedLayer } from "../accel/speed_layer.ts";

/** One rebuild's stage times in ms, its wall and CPU time (all threads) and its outputs' hashes. */
export interface Rebuild {
  stages: Map<string, number>;
  total: number;
  cpu: number;
  hashes: string;
}

function sha(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex").slice(0, 12);
}

/** The document's, the manifest's (without its path) and the order state's sha256. */
async function outputHashes(result: BuildResult, stateDir: string): Promise<string> {
  const { output: _, ...manifest } = result.manifest;
  const order = await Deno.readFile(join(stateDir, "order", "context.json")).catch(() =>
    new Uint8Array()
  );
  const document = await Deno.readFile(result.output!.document);
  return [sha(document), sha(JSON.stringify(manifest)), sha(order)].join(" ");
}

function edited(original: Uint8Array, i: number, path: string): Uint8Array {
  const mark = path.endsWith(".py") ? "#" : "//";
  const note = new TextEncoder().encode(`\n${mark} slop rebuild edit ${i % 2 + 1}\n`);
  const out = new Uint8Array(original.length + note.length);
  out.set(original);
  out.set(note, original.length);
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Build, warm up, then rebuild after `edits` edits of `file`.
 *
 * @example
 * ```ts
 * import { rebuilds } from "./_rebuild.ts";
 * // const samples = await rebuilds("/tmp/slop.full.config.js", "/corpus/a.py", 8, false);
 * ```
 */
export async function rebuilds(
  configPath: string,
  file: string,
  edits: number,
  server: boolean,
  withHashes = false,
): Promise<Rebuild[]> {
  const kept = Deno.env.get("SLOP_REBUILD_STATE");
  const stateDir = kept ?? await Deno.makeTempDir({ prefix: "slop_rebuild_" });
  const config = await loadConfig({ config: configPath, stateDir });
  const builtins = builtinPlugins();
  const state = resident();
  const rel = relative(config.root, file).split(sep).join("/");
  const original = await Deno.readFile(file);
  const out: Rebuild[] = [];
  try {
    await build(config, { builtins, layer: speedLayer({ resident: state }) });
    await state.settled();
    collectGarbage();
    await build(config, { builtins, layer: speedLayer({ resident: state }), write: false });
    await state.settled();
    collectGarbage();
    for (let i = 0; i < edits; i++) {
      await Deno.writeFile(file, edited(original, i, file));
      state.changed(server ? [] : [rel], server);
      const clock = stageClock({ startup: false });
      const start = performance.now();
      const used = cpuUsage();
      const result = await build(config, {
        builtins,
        layer: speedLayer({ resident: state }),
        timings: clock,
      });
      const total = performance.now() - start;
      const { user, system } = cpuUsage(used);
      const cpu = (user + system) / 1000;
      await state.settled();
      const hashes = withHashes ? await outputHashes(result, stateDir) : "";
      const stages = new Map(clock.stages().map((s) => [s.stage, s.ms]));
      out.push({ stages, total, cpu, hashes });
      collectGarbage();
    }
  } finally {
    await Deno.writeFile(file, original);
    await state.close();
    if (!kept) await Deno.remove(stateDir, { recursive: true });
  }
  return out;
}

if (import.meta.main) {
  const args = Deno.args.filter((a) => !a.startsWith("--"));
  const server = Deno.args.includes("--server");
  const [config, file, count] = args;
  const withHashes = Deno.args.includes("--hashes");
  const samples = await rebuilds(config, file, Number(count ?? 8), server, withHashes);
  if (withHashes) samples.forEach((s, i) => console.log(`${i} ${s.hashes}`));
  const names = [...samples[0].stages.keys()];
  const line = (name: string, values: number[]) =>
    `${name} ${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}-${
      Math.max(...values).toFixed(1)
    })`;
  const load = (await Deno.readTextFile("/proc/loadavg")).split(" ")[0];
  console.log(
    [
      ...names.map((n) => line(n, samples.map((s) => s.stages.get(n) ?? 0))),
      line("total", samples.map((s) => s.total)),
      line("cpu", samples.map((s) => s.cpu)),
    ].join("  ") + `  load ${load}`,
  );
}
