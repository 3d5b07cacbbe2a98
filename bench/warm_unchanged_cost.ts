/**
 * What a warm rebuild spends on the files it did not change, measured in ways a loaded machine
 * does not blur as much as a wall: three modes, each with `--repo DIR` to run another checkout's
 * modules (main's, for a pair) on its own state folder.
 *
 * - `stages CONFIG STATE`: one build in this process (the speed layer, as `slop build` makes it);
 *   the process's CPU (user + sys, every thread) and wall between the stages' marks, and the work
 *   the stages counted (`tallyWork`) per file of the tree.
 * - `index STATE [--rounds 9]`: the pack's index file read again and again (`readIndexFile`), the
 *   CPU of each read (the first is what a build pays).
 * - `alloc CONFIG STATE`: one build in a child process under V8's sampling heap profiler (objects
 *   the collector took counted too): the bytes allocated in all, and below the functions named
 *   with `--fn` (inclusive).
 *
 * ```sh
 * deno run -A bench/warm_unchanged_cost.ts stages /tmp/warm47/m60.config.js /tmp/warm47/st-b [--repo DIR]
 * deno run -A bench/warm_unchanged_cost.ts index /tmp/warm47/st-b [--rounds 9] [--repo DIR]
 * deno run -A bench/warm_unchanged_cost.ts alloc /tmp/warm47/m60.config.js /tmp/warm47/st-b --fn transformKept --fn viewKey
 * ```
 *
 * @module
 */

import process from "node:process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const FLAGS = "--v8-flags=--max-semi-space-size=4,--heap-growing-percent=50,--expose-gc";
const HERE = fileURLToPath(import.meta.url);

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "9" },
    repo: { type: "string" },
    fn: { type: "string", multiple: true, default: [] },
    child: { type: "boolean", default: false },
  },
});
const repo = resolve(values.repo ?? join(dirname(HERE), ".."));
const [mode, ...args] = positionals;

/** CPU ms (user + sys) since `from`. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
}

/** One build of CONFIG on STATE in this process, its marks timed in CPU and wall. */
async function stages(config: string, state: string, child: boolean): Promise<void> {
  const slop = await import(join(repo, "mod.ts"));
  const { tallyWork } = await import(join(repo, "pipeline/helpers.ts"));
  const loaded = await slop.loadConfig({ config, stateDir: state, cwd: dirname(config) });
  // A child under the heap profiler waits to be told to start (see `alloc`).
  if (child) {
    console.log("READY");
    await new Promise((r) => setTimeout(r, 1500));
  }
  let cpu = process.cpuUsage(), at = performance.now();
  const marks: string[] = [];
  const timings = {
    mark(name: string) {
      marks.push(`${name} ${cpuSince(cpu).toFixed(0)}/${(performance.now() - at).toFixed(0)}`);
      cpu = process.cpuUsage();
      at = performance.now();
    },
  };
  const start = process.cpuUsage(), wall = performance.now();
  let files = 0;
  const work = await tallyWork(async () => {
    const result = await slop.build(loaded, {
      builtins: slop.defaultPlugins(),
      layer: slop.speedLayer({ draftAhead: true }),
      timings,
    });
    files = result.files?.length ?? 0;
  });
  const load = Deno.loadavg()[0].toFixed(1);
  console.log(
    `${repo}: CPU ${cpuSince(start).toFixed(0)} ms, wall ${
      (performance.now() - wall).toFixed(0)
    } ms, load ${load}; stage CPU/wall ms: ${marks.join(", ")}`,
  );
  for (const [name, n] of [...work].sort()) {
    console.log(`  ${name}: ${n}${files ? ` (${(n / files).toFixed(2)} a file)` : ""}`);
  }
  if (child) {
    console.log("DONE");
    await new Promise((r) => setTimeout(r, 120_000));
  }
}

/** The pack's index file of STATE read `rounds` times: each read's CPU. */
async function index(state: string, rounds: number): Promise<void> {
  const { readIndexFile } = await import(join(repo, "pipeline/_cache_pack_index.ts"));
  const dir = join(state, "cache", "pack-stamps");
  const stamp = [...Deno.readDirSync(dir)].map((e) => e.name).find((n) => !n.includes("."));
  if (!stamp) throw new Error(`No pack stamp in "${dir}"`);
  const print = Deno.readTextFileSync(join(dir, stamp));
  const cpu: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const from = process.cpuUsage();
    if (!readIndexFile(join(dir, stamp), print)) throw new Error("The index file is not taken");
    cpu.push(cpuSince(from));
  }
  const sorted = [...cpu].sort((a, b) => a - b);
  console.log(
    `${repo}: read CPU ms median ${sorted[sorted.length >> 1].toFixed(0)}, first ${
      cpu[0].toFixed(0)
    } [${cpu.map((c) => c.toFixed(0)).join(" ")}], load ${Deno.loadavg()[0].toFixed(1)}`,
  );
}

/** A node of a sampling heap profile. */
interface HeapNode {
  callFrame: { functionName: string };
  selfSize: number;
  children: HeapNode[];
}

/** One build of CONFIG on STATE in a child under the sampling heap profiler. */
async function alloc(config: string, state: string, names: string[]): Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--inspect=127.0.0.1:9239", FLAGS, HERE, "stages", config, state, "--child"]
      .concat(values.repo ? ["--repo", repo] : []),
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const err = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let url = "";
  while (!url) {
    const { value, done } = await err.read();
    if (done) throw new Error("The child ended before its inspector listened");
    url = value.match(/ws:\/\/\S+/)?.[0] ?? "";
  }
  (async () => {
    while (!(await err.read()).done);
  })();
  const ws = new WebSocket(url);
  await new Promise((r) => ws.onopen = r);
  let id = 0;
  const answers = new Map<number, (v: unknown) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    answers.get(m.id)?.(m.result);
  };
  const call = (method: string, params = {}) =>
    new Promise<unknown>((r) => {
      answers.set(++id, r);
      ws.send(JSON.stringify({ id, method, params }));
    });
  let said = "";
  const until = async (word: string) => {
    while (!said.includes(word)) {
      const { value, done } = await out.read();
      if (done) throw new Error(`The child ended before "${word}"`);
      said += value;
    }
  };
  await until("READY");
  await call("HeapProfiler.enable");
  await call("HeapProfiler.startSampling", {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await until("DONE");
  const { profile } = await call("HeapProfiler.stopSampling") as { profile: { head: HeapNode } };
  child.kill();
  ws.close();
  const below = new Map<string, number>();
  const walk = (node: HeapNode, inside: Set<string>): number => {
    const name = node.callFrame.functionName;
    const entered = names.includes(name) && !inside.has(name);
    const now = entered ? new Set([...inside, name]) : inside;
    const size = node.selfSize + node.children.reduce((n, c) => n + walk(c, now), 0);
    if (entered) below.set(name, (below.get(name) ?? 0) + size);
    return size;
  };
  const total = walk(profile.head, new Set());
  console.log(said.split("\n").filter((l) => l && l !== "READY" && l !== "DONE").join("\n"));
  console.log(`allocated: ${(total / 1e6).toFixed(1)} MB`);
  for (const name of names) {
    console.log(`  ${name}: ${((below.get(name) ?? 0) / 1e6).toFixed(1)} MB`);
  }
}

if (mode === "stages" && args.length === 2) await stages(args[0], args[1], values.child);
else if (mode === "index" && args.length === 1) await index(args[0], Number(values.rounds));
else if (mode === "alloc" && args.length === 2) await alloc(args[0], args[1], values.fn);
else {
  console.error(
    "usage: warm_unchanged_cost.ts stages CONFIG STATE | index STATE [--rounds 9] | alloc CONFIG STATE [--fn NAME]... [--repo DIR]",
  );
  Deno.exit(2);
}
