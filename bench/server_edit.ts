/**
 * A build server's work after a one-file edit, in this process: a resident (as the server keeps),
 * one build of the project, then `--edits` times a line appended to `--edit`, the resident told
 * that path (as the server's watcher tells it), the next build prepared (`prepareBuild`, as the
 * server does when the watcher reports the edit) and finished (as the client's build does). Each
 * edit prints the prepare's and the finish's CPU (user + system, every thread) and wall time, the
 * MB the main thread's heap allocated for both (what its collections sweep: it does not vary with
 * the load as CPU does), and the load. Run it with the server's V8 flags (`SERVER_V8_FLAGS` in `server/client.ts`); `--code`
 * names the slop checkout to load, so that two checkouts are compared on one tree in turn. The
 * edits are left in the file (undo them with git).
 *
 * With `--reload`, each step is a config reload instead (as an edit of the config file, or a new
 * config key, makes the server do): the config loaded again (a new object with the same values)
 * and the project built with it in full, as the build asked for next; each step prints the
 * build's CPU and wall time, its peak RSS (`VmHWM`, reset before it), the heap held after a full
 * collection, and the spill files of this process on disk (`--edit` is not needed). With
 * `--then <config>`, the reloads load that config file instead (other values: another view, an
 * entry's options); with `--view <name>`, the same file is loaded again with that default view (as
 * an edit of its `defaultView` would give: the same cache pack). With `--stages`, each reload's build prints, at each stage's end, its peak RSS
 * so far, its RSS and the heap in use (no collection asked for); each edit's build prints each
 * stage's CPU in ms (the finish's with `emit`) and the prepare's window in ms since the process
 * started (to cut a `--cpu-prof` profile to the edits). After the first build, its cache written
 * and its garbage collected, the spill files it leaves on disk are printed.
 *
 * ```sh
 * deno run -A --v8-flags=--max-semi-space-size=1,--no-turbofan,--heap-growing-percent=50 \
 *   bench/server_edit.ts --config /tmp/mono.config.js --state /tmp/mono-state \
 *   --edit packages/pkg30/json/decoder.py [--edits 5] [--code /tmp/base]
 * ```
 *
 * @module
 */

import { join, resolve } from "node:path";
import { getHeapStatistics } from "node:v8";

interface Args {
  config: string;
  state: string;
  edit: string;
  edits: number;
  code: string;
  reload: boolean;
  then?: string;
  view?: string;
  stages: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Partial<Args> = {
    edits: 5,
    code: join(import.meta.dirname!, ".."),
    reload: false,
    stages: false,
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--reload" || argv[i] === "--stages") {
      args[argv[i] === "--reload" ? "reload" : "stages"] = true;
      continue;
    }
    const value = argv[++i];
    if (argv[i - 1] === "--config") args.config = resolve(value);
    else if (argv[i - 1] === "--state") args.state = resolve(value);
    else if (argv[i - 1] === "--edit") args.edit = value;
    else if (argv[i - 1] === "--edits") args.edits = Number(value);
    else if (argv[i - 1] === "--code") args.code = resolve(value);
    else if (argv[i - 1] === "--then") args.then = resolve(value);
    else if (argv[i - 1] === "--view") args.view = value;
    else {
      throw new Error(
        `[bench] Unknown argument "${
          argv[i - 1]
        }": expected --config, --state, --edit, --edits, --code, --reload, --stages, --then or --view`,
      );
    }
  }
  if (!args.config || !args.state || (!args.edit && !args.reload)) {
    throw new Error("[bench] Missing --config, --state or --edit (or --reload)");
  }
  if (!(Number.isInteger(args.edits) && args.edits! > 0)) {
    throw new Error(`[bench] Invalid --edits "${args.edits}": expected a whole number above 0`);
  }
  return args as Args;
}

/** CPU seconds (user + system, every thread) between two `process.cpuUsage()` readings. */
function cpuSeconds(from: NodeJS.CpuUsage, to: NodeJS.CpuUsage): string {
  return ((to.user - from.user + to.system - from.system) / 1e6).toFixed(2);
}

/** The heap in use, in MB. */
function heldMb(): number {
  return Math.round(Deno.memoryUsage().heapUsed / 1048576);
}

/**
 * Two full collections, each followed by a pause for the finalizers it let run (a spill file no
 * text of which is left is removed by one): the build's last objects may be let go of only after
 * the first.
 */
async function collectTwice(): Promise<void> {
  const { collectGarbage } = await import("../accel/collect.ts");
  for (let i = 0; i < 2; i++) {
    collectGarbage();
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** The bytes this process's heap has allocated since it started, in MB (what its collections sweep). */
function allocatedMb(): number {
  const stats = getHeapStatistics() as { total_allocated_bytes?: number };
  return Math.round((stats.total_allocated_bytes ?? 0) / 1048576);
}

/** Start the peak RSS anew (Linux). */
function resetPeak(): void {
  Deno.writeTextFileSync("/proc/self/clear_refs", "5");
}

/** The peak RSS since {@linkcode resetPeak}, in MB (Linux). */
function peakMb(): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"))![1];
  return Math.round(Number(kb) / 1024);
}

/**
 * A stage clock (`--stages`) that prints, at each stage's end, the peak RSS since the build began,
 * the RSS and the heap in use then (no collection asked for: the build runs as it would).
 */
function peakClock(): {
  mark(stage: string): void;
  stages(): Array<{ stage: string; ms: number }>;
} {
  const stages: Array<{ stage: string; ms: number }> = [];
  let last = performance.now();
  return {
    mark(stage) {
      const now = performance.now();
      stages.push({ stage, ms: now - last });
      last = now;
      const rss = Math.round(Deno.memoryUsage().rss / 1048576);
      console.log(`  ${stage}: peak ${peakMb()} MB, RSS ${rss} MB, heap in use ${heldMb()} MB`);
    },
    stages: () => stages,
  };
}

/**
 * A stage clock for an edit's build (`--stages`): each stage's CPU (user + system, every thread)
 * in ms and the MB the heap allocated in it, printed on one line after the build.
 */
function cpuClock(): {
  mark(stage: string): void;
  stages(): Array<{ stage: string; ms: number; mb: number }>;
  line(): string;
} {
  const stages: Array<{ stage: string; ms: number; mb: number }> = [];
  let last = process.cpuUsage();
  let lastMb = allocatedMb();
  return {
    mark(stage) {
      const now = process.cpuUsage();
      const mb = allocatedMb();
      stages.push({
        stage,
        ms: (now.user - last.user + now.system - last.system) / 1000,
        mb: mb - lastMb,
      });
      last = now;
      lastMb = mb;
    },
    stages: () => stages,
    line: () => stages.map((s) => `${s.stage} ${Math.round(s.ms)} (${s.mb} MB)`).join(", "),
  };
}

/** This process's spill files on disk (`accel/text_spill.ts`): how many, and their MB. */
function spillFiles(): string {
  const dir = Deno.env.get("TMPDIR") ?? "/tmp";
  let count = 0;
  let bytes = 0;
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.startsWith(`slop_texts_${Deno.pid}_`)) continue;
    count++;
    bytes += Deno.statSync(join(dir, entry.name)).size;
  }
  return `${count} (${Math.round(bytes / 1048576)} MB)`;
}

async function main(): Promise<void> {
  const args = parseArgs(Deno.args);
  const { defaultPlugins, loadConfig } = await import(join(args.code, "mod.ts"));
  const { build, prepareBuild } = await import(join(args.code, "pipeline/build.ts"));
  const { resident } = await import(join(args.code, "accel/resident.ts"));
  const { speedLayer } = await import(join(args.code, "accel/speed_layer.ts"));
  const { collectGarbage } = await import(join(args.code, "accel/collect.ts"));
  const config = await loadConfig({ config: args.config, stateDir: args.state });
  const builtins = defaultPlugins();
  // As the build server keeps it (`server/session.ts`).
  const kept = resident({ quietMs: 20 });
  const layer = () => speedLayer({ resident: kept });
  resetPeak();
  const cold = process.cpuUsage();
  await build(config, { builtins, layer: layer() });
  const built = process.cpuUsage();
  const coldCpu = cpuSeconds(cold, built);
  const coldPeak = peakMb();
  // Its cache written (the renders kept may then read their texts from the pack), its garbage
  // collected: what it holds on disk at rest.
  await kept.settled();
  const settleCpu = cpuSeconds(built, process.cpuUsage());
  await collectTwice();
  console.log(
    `first build: ${coldCpu} s CPU, peak RSS ${coldPeak} MB; its cache written after it ` +
      `${settleCpu} s CPU; spill files at rest ${spillFiles()}`,
  );
  if (args.reload) {
    for (let i = 0; i < args.edits; i++) {
      await new Promise((done) => setTimeout(done, 3000));
      await kept.settled();
      collectGarbage();
      const before = heldMb();
      // A new config object with the same values: what the server loads after the file changed.
      // `--then`: another config file's values from the first reload on (what the old renders
      // cannot serve).
      const file = args.then ?? args.config;
      const again = await loadConfig({ config: file, stateDir: args.state });
      // The same file with another default view (an edit of it: the same pack, the same lists).
      if (args.view) again.defaultView = args.view;
      resetPeak();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const timings = args.stages ? peakClock() : undefined;
      await build(again, { builtins, layer: layer(), timings });
      const c1 = process.cpuUsage();
      const t1 = performance.now();
      const peak = peakMb();
      await kept.settled();
      // The spill files no text of which is left are removed by a finalizer, after the collection.
      await collectTwice();
      const load = Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
      console.log(
        `reload ${i}: build ${cpuSeconds(c0, c1)} s CPU, ${
          ((t1 - t0) / 1000).toFixed(2)
        } s wall; ` +
          `peak RSS ${peak} MB; heap held ${before} MB before, ${heldMb()} MB after; ` +
          `spill files ${spillFiles()}; load ${load}`,
      );
    }
    await kept.close();
    return;
  }
  for (let i = 0; i < args.edits; i++) {
    // The server's upkeep between builds: the work a build left done, its garbage collected.
    await new Promise((done) => setTimeout(done, 3000));
    await kept.settled();
    collectGarbage();
    const text = `# slop bench edit ${i} ${Date.now()}\n`;
    await Deno.writeTextFile(join(config.root, args.edit), text, { append: true });
    kept.changed([args.edit], false);
    const a0 = allocatedMb();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const timings = args.stages ? cpuClock() : undefined;
    const prepared = await prepareBuild(config, { builtins, layer: layer(), timings });
    const c1 = process.cpuUsage();
    const t1 = performance.now();
    await prepared.finish({ write: true });
    if (timings) console.log(`  stages, ms of CPU: ${timings.line()}`);
    if (args.stages) console.log(`  window: ${t0.toFixed(0)}-${t1.toFixed(0)} ms`);
    const c2 = process.cpuUsage();
    const t2 = performance.now();
    const load = Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
    console.log(
      `edit ${i}: prepare ${cpuSeconds(c0, c1)} s CPU, ${((t1 - t0) / 1000).toFixed(2)} s wall; ` +
        `finish ${cpuSeconds(c1, c2)} s CPU, ${((t2 - t1) / 1000).toFixed(2)} s wall; ` +
        `allocated ${allocatedMb() - a0} MB; load ${load}`,
    );
  }
  await kept.close();
}

if (import.meta.main) await main();
