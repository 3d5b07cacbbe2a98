/**
 * Where a cold build's work goes, stage by stage: one build in this process with the speed layer
 * (as `slop build` runs it), a clock that reads this process's CPU (every thread) and this
 * thread's at each stage's end, and counts of what this thread decodes (`TextDecoder.decode` of
 * 1 KB or more: a file as read, a spilled text read back) and hashes (`sha256` bytes), each by
 * the stage that did it; then the build's work tally (`tallyWork`). `--stacks` adds where each
 * decode and hash came from (three frames of slop's code; slower: a stack a call).
 *
 * ```sh
 * F=--v8-flags=--max-semi-space-size=4,--heap-growing-percent=50,--expose-gc   # BIG_TREE_V8_FLAGS
 * deno run -A $F bench/work_probe.ts CONFIG STATE_DIR [--stacks]
 * SLOP_SPILL_AFTER_MB=6.4 deno run -A $F bench/work_probe.ts /tmp/tenth/slop.config.ts /tmp/st
 * ```
 *
 * @module
 */

import { createHash } from "node:crypto";
import { loadConfig } from "../pipeline/config.ts";
import { build } from "../pipeline/build.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { speedLayer } from "../accel/speed_layer.ts";
import { tallyWork } from "../pipeline/helpers.ts";

const [configPath, stateDir, ...flags] = Deno.args;
if (!configPath || !stateDir) {
  throw new Error("[bench] Usage: bench/work_probe.ts CONFIG STATE_DIR [--stacks]");
}
const stacks = flags.includes("--stacks");
const here = new URL("..", import.meta.url).pathname;

/** The stage that runs now: the one after the last marked. */
const ORDER = ["config", "resolve", "read", "secrets", "transform", "compose", "order", "count"];
let stage = "config";
const counts = new Map<string, number>();
const add = (key: string, n: number) => counts.set(key, (counts.get(key) ?? 0) + n);

function caller(): string {
  const lines = (new Error().stack ?? "").split("\n").slice(3);
  return lines.filter((l) => l.includes(here)).slice(0, 3)
    .map((l) => l.replace(/.*\/(\w+\/\w+\.ts):(\d+):\d+\)?$/, "$1:$2")).join(" < ");
}

const decode = TextDecoder.prototype.decode;
TextDecoder.prototype.decode = function (input?: AllowSharedBufferSource, options?) {
  const n = (input as Uint8Array | undefined)?.byteLength ?? 0;
  if (n >= 1024) {
    add(`decoded ${stage}`, 1);
    add(`decoded bytes ${stage}`, n);
    if (stacks) add(`decoded at ${stage} ${caller()}`, 1);
  }
  return decode.call(this, input, options);
};
const hash = Object.getPrototypeOf(createHash("sha256"));
const update = hash.update;
hash.update = function (data: string | Uint8Array, encoding?: string) {
  const n = typeof data === "string" ? data.length : data.byteLength;
  add(`sha256 bytes ${stage}`, n);
  if (stacks && n >= 1024) add(`sha256 at ${stage} ${caller()}`, n);
  return update.call(this, data, encoding);
};

function cpu(file: string): number {
  const fields = Deno.readTextFileSync(file).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const marks: string[] = [];
const start = { all: cpu("/proc/self/stat"), main: cpu("/proc/thread-self/stat") };
const last = { ...start };
const clock = {
  mark(name: string) {
    const now = { all: cpu("/proc/self/stat"), main: cpu("/proc/thread-self/stat") };
    const s = (n: number) => n.toFixed(2).padStart(7);
    marks.push(`${name.padEnd(12)} ${s(now.all - last.all)} ${s(now.main - last.main)}`);
    Object.assign(last, now);
    stage = ORDER[ORDER.indexOf(name) + 1] ?? (ORDER.includes(name) ? "after" : stage);
  },
  stages: () => [],
};
const config = await loadConfig({ config: configPath, stateDir });
clock.mark("config");
const layer = speedLayer();
const work = await tallyWork(() =>
  build(config, { builtins: defaultPlugins(), timings: clock, layer })
);
clock.mark("end");
console.log("stage        CPU s  main s");
console.log(marks.join("\n"));
const total = {
  all: cpu("/proc/self/stat") - start.all,
  main: cpu("/proc/thread-self/stat") - start.main,
};
console.log(
  `total        ${total.all.toFixed(2).padStart(7)} ${total.main.toFixed(2).padStart(7)}`,
);
for (const [key, n] of [...work].sort()) console.log(`work ${key}: ${n}`);
for (const [key, n] of [...counts].sort()) console.log(`${key}: ${n}`);
