/**
 * A build of the project at `Deno.args[0]` (state in `Deno.args[1]`; `Deno.args[2]`: `layer`
 * with the speed layer, `plain` without) in this process, with a stage clock
 * that collects garbage at each stage's end and reads the heap then: what the
 * build still holds from that stage on. Prints one JSON line: the heap used at
 * each mark, the memory held outside it (`external`: array buffers) and the garbage the
 * collection freed in the old generation (`loose`), in bytes. Run with `--v8-flags=--expose-gc`
 * (`memory_held_test.ts` starts it).
 *
 * @module
 */

import { build } from "../../pipeline/build.ts";
import { loadConfig } from "../../pipeline/config.ts";
import type { StageClock } from "../../pipeline/timings.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { speedLayer } from "../../accel/speed_layer.ts";

const gc = (globalThis as { gc?: (options?: { type: "minor" | "major" }) => void }).gc;
if (!gc) throw new Error("Run with --v8-flags=--expose-gc");
const [root, stateDir, how] = Deno.args;
const held: Array<{ stage: string; bytes: number; external: number; loose: number }> = [];
const mark = (stage: string) => {
  // What the collection frees: the garbage the stage left in the old generation (its own
  // collections or V8's did not). The young generation's is not counted: its next scavenge frees
  // it, and it is at most a semi-space (4 MB here) on any tree, more of it the larger the new
  // space has grown (bench/README.md, "The emit stage's garbage and the new space").
  gc({ type: "minor" });
  const before = Deno.memoryUsage().heapUsed;
  gc();
  const { heapUsed, external } = Deno.memoryUsage();
  held.push({ stage, bytes: heapUsed, external, loose: before - heapUsed });
};
const clock: StageClock = { mark, stages: () => [] };
const config = await loadConfig({ cwd: root, stateDir });
// Before any file is read: the modules, the config and the plugins.
mark("start");
// One thread: what is held does not depend on which thread finished first.
// `layer`: with the speed layer, as `slop build` runs; `plain`: the stages alone (the library's).
// `spill`: the speed layer keeping every text in its spill file (a big tree's build does past its
// first 64M characters; `accel/text_spill.ts`).
const layer = how === "plain" ? undefined : speedLayer(how === "spill" ? { spillAfter: 0 } : {});
await build(config, { builtins: defaultPlugins(), timings: clock, workers: 1, layer });
console.log(JSON.stringify(held));
