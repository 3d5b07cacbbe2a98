/**
 * What the watch on plugin hooks (`pipeline/hook_watchdog.ts`) costs: the CPU time of a hook of a
 * config's plugin (watched) and of one of slop's own (not watched), called 100,000 times each in
 * turns, and the first watched hook's (it starts the watch's thread). Run:
 * `deno run -A bench/hook_watch.ts`.
 *
 * @module
 */

import process from "node:process";
import { callHook, createRegistry, registerUserPlugins } from "../pipeline/registry.ts";
import { watchConfigLoads } from "../pipeline/config_watchdog.ts";
import type { Plugin } from "../pipeline/types.ts";

watchConfigLoads();
const render = () => ({ text: "" });
const builtin = { kind: "view-mode", name: "slop:plain", version: "1", render } as Plugin;
const registry = createRegistry([builtin]);
registerUserPlugins(registry, [{ kind: "view-mode", name: "mine", version: "1", render }]);
const watched = registry.plugins.find((p) => p.name === "mine")!;
const plain = registry.plugins.find((p) => p.name === "slop:plain")!;

/** This process's CPU time so far (ms, every thread). */
const cpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

const before = cpu();
const wall = performance.now();
await callHook(watched, "render", () => 1);
const startWall = performance.now() - wall;
await new Promise((done) => setTimeout(done, 500)); // the watch's thread starting meanwhile
const startCpu = cpu() - before;

const CALLS = 100_000;
const ROUNDS = 10;
const spent = { plain: 0, watched: 0 };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, plugin] of [["plain", plain], ["watched", watched]] as const) {
    const start = cpu();
    for (let i = 0; i < CALLS; i++) {
      await callHook(plugin, "render", () => 1, { path: `src/d${i % 30}/f${i}.ts` });
    }
    spent[name] += cpu() - start;
  }
}
const each = (ms: number) => (ms * 1000 / (ROUNDS * CALLS)).toFixed(2);
console.log(
  `first watched hook: ${startCpu.toFixed(1)} ms CPU (both threads), ${
    startWall.toFixed(1)
  } ms on the build's`,
);
console.log(`a hook of slop's own: ${each(spent.plain)} µs CPU`);
console.log(`a hook of a config's plugin, watched: ${each(spent.watched)} µs CPU`);
