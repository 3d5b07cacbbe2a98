/**
 * A build server's work after a one-file edit, in this process: a resident (as the server keeps),
 * one build of the project, then `--edits` times a line appended to `--edit`, the resident told
 * that path (as the server's watcher tells it), the next build prepared (`prepareBuild`, as the
 * server does when the watcher reports the edit) and finished (as the client's build does). Each
 * edit prints the prepare's and the finish's CPU (user + system, every thread) and wall time, and
 * the load. Run it with the server's V8 flags (`SERVER_V8_FLAGS` in `server/client.ts`); `--code`
 * names the slop checkout to load, so that two checkouts are compared on one tree in turn. The
 * edits are left in the file (undo them with git).
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

interface Args {
  config: string;
  state: string;
  edit: string;
  edits: number;
  code: string;
}

function parseArgs(argv: string[]): Args {
  const args: Partial<Args> = { edits: 5, code: join(import.meta.dirname!, "..") };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[++i];
    if (argv[i - 1] === "--config") args.config = resolve(value);
    else if (argv[i - 1] === "--state") args.state = resolve(value);
    else if (argv[i - 1] === "--edit") args.edit = value;
    else if (argv[i - 1] === "--edits") args.edits = Number(value);
    else if (argv[i - 1] === "--code") args.code = resolve(value);
    else {
      throw new Error(
        `[bench] Unknown argument "${
          argv[i - 1]
        }": expected --config, --state, --edit, --edits or --code`,
      );
    }
  }
  if (!args.config || !args.state || !args.edit) {
    throw new Error("[bench] Missing --config, --state or --edit");
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
  await build(config, { builtins, layer: layer() });
  for (let i = 0; i < args.edits; i++) {
    // The server's upkeep between builds: the work a build left done, its garbage collected.
    await new Promise((done) => setTimeout(done, 3000));
    await kept.settled();
    collectGarbage();
    const text = `# slop bench edit ${i} ${Date.now()}\n`;
    await Deno.writeTextFile(join(config.root, args.edit), text, { append: true });
    kept.changed([args.edit], false);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const prepared = await prepareBuild(config, { builtins, layer: layer() });
    const c1 = process.cpuUsage();
    const t1 = performance.now();
    await prepared.finish({ write: true });
    const c2 = process.cpuUsage();
    const t2 = performance.now();
    const load = Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
    console.log(
      `edit ${i}: prepare ${cpuSeconds(c0, c1)} s CPU, ${((t1 - t0) / 1000).toFixed(2)} s wall; ` +
        `finish ${cpuSeconds(c1, c2)} s CPU, ${((t2 - t1) / 1000).toFixed(2)} s wall; load ${load}`,
    );
  }
  await kept.close();
}

if (import.meta.main) await main();
