/**
 * Big real trees where users wait: the builds of the outside sweep that took longest (plotly's
 * data files cold, fivethirtyeight's and encoding_rs's task builds, pandoc's `--budget 32000`,
 * encoding_rs's and Odin's skeleton builds), each stage timed in CPU, not on the clock: the
 * machine is shared, and a stage's CPU (this process's threads, and the children it waited
 * for, from `/proc/self/stat`) moves far less with the load than its wall time. Two checkouts
 * of slop side by side, alternated build by build (A, B, A, B...): each build runs in a child
 * process started with the V8 flags `slop build` would pick for the tree, cold (a new state
 * folder), and prints its stages' CPU and a digest of its document and manifest rows. Prints
 * each stage's median per checkout, and whether the digests agree. See bench/README.md, "Big
 * trees where users wait".
 *
 * ```sh
 * git clone -q /work/.mirror/plotly+datasets/repo /tmp/bt_plotly+datasets   # and the others
 * deno run -A bench/big_trees.ts --a /tmp/slop-main --b . --cases pandoc,enc_task --runs 3
 * ```
 *
 * @module
 */

/** A case: the tree (under `--trees`), the build's flags, and its config if any. */
interface Case {
  tree: string;
  budget?: string;
  task?: string;
  config?: Record<string, unknown>;
}

const CASES: Record<string, Case> = {
  plotly: { tree: "plotly+datasets" },
  fte_task: { tree: "fivethirtyeight+data", budget: "8000", task: "Update index.csv" },
  enc_task: { tree: "hsivonen+encoding_rs", budget: "8000", task: "Tweak comment" },
  enc_skeleton: { tree: "hsivonen+encoding_rs", config: { defaultView: "skeleton" } },
  pandoc: { tree: "jgm+pandoc", budget: "32000" },
  odin_skeleton: { tree: "odin-lang+Odin", config: { defaultView: "skeleton" } },
};

function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : fallback;
}

/** This process's CPU so far (its threads and the children it waited for), in milliseconds. */
function cpuMs(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  // The fields after the command's name (which may hold blanks) in parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime, stime, cutime, cstime: fields 14 to 17 of the line, 12 to 15 after the name.
  const ticks = fields.slice(11, 15).reduce((n, f) => n + Number(f), 0);
  return ticks * 10;
}

/** A stage clock (`pipeline/timings.ts`'s shape) that reads CPU instead of the clock. */
function cpuClock() {
  const out = new Map<string, number>();
  let last = cpuMs();
  return {
    mark(name: string) {
      const now = cpuMs();
      out.set(name, (out.get(name) ?? 0) + now - last);
      last = now;
    },
    stages: () => [...out].map(([stage, ms]) => ({ stage, ms })),
  };
}

/** One build in this process with the slop at `root`: its stages' CPU and its digest. */
async function child(root: string, name: string, trees: string): Promise<void> {
  const c = CASES[name];
  const dir = `${trees}/bt_${c.tree}`;
  const state = await Deno.makeTempDir({ prefix: "big_trees_" });
  const clock = cpuClock();
  const { loadBuildConfig } = await import(`file://${root}/cli/build.ts`);
  const { builtinPlugins } = await import(`file://${root}/cli/_builtins.ts`);
  const { build } = await import(`file://${root}/pipeline/build.ts`);
  const { speedLayer } = await import(`file://${root}/accel/speed_layer.ts`);
  clock.mark("modules");
  let config: string | undefined;
  if (c.config) {
    config = `${state}/slop.config.ts`;
    await Deno.writeTextFile(
      config,
      `export default ${JSON.stringify({ root: dir, ...c.config })};\n`,
    );
  }
  const wall = performance.now();
  const loaded = await loadBuildConfig([], {
    cwd: dir,
    stateDir: `${state}/out`,
    config,
    budget: c.budget,
    task: c.task,
  });
  clock.mark("config");
  const result = await build(loaded, {
    timings: clock,
    write: false,
    builtins: builtinPlugins(),
    layer: speedLayer(),
  });
  const seconds = (performance.now() - wall) / 1000;
  const rows = JSON.stringify(result.manifest.files) + JSON.stringify(result.manifest.budget ?? {});
  const text = result.blocks.map((b: { sha256: string }) => b.sha256).join("\n") + rows;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  await Deno.remove(state, { recursive: true });
  const stages = Object.fromEntries(clock.stages().map((s) => [s.stage, s.ms]));
  console.log(JSON.stringify({ stages, seconds, digest: hex.slice(0, 16) }));
  Deno.exit(0);
}

/** The V8 flags `slop build` starts again with for a tree (its size decides). */
async function v8Flags(dir: string): Promise<string> {
  const { trackedFiles, v8FlagsFor } = await import("../cli/_v8_flags.ts");
  return v8FlagsFor(trackedFiles(dir));
}

interface Run {
  stages: Record<string, number>;
  seconds: number;
  digest: string;
}

async function runChild(root: string, name: string, trees: string): Promise<Run> {
  const dir = `${trees}/bt_${CASES[name].tree}`;
  const self = new URL(import.meta.url).pathname;
  const args = ["run", "-A", await v8Flags(dir), self, "--child", name, "--root", root];
  const out = await new Deno.Command("deno", {
    args: [...args, "--trees", trees],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
  if (!out.success) throw new Error(`${name} in ${root}: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(text);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Each stage's median CPU per checkout, side by side, and the digests. */
function report(name: string, runs: Record<string, Run[]>): void {
  const [a, b] = Object.keys(runs);
  const stages = [...new Set(Object.values(runs).flatMap((rs) => Object.keys(rs[0].stages)))];
  const total = (r: Run) => Object.values(r.stages).reduce((n, ms) => n + ms, 0);
  console.log(`\n${name}: CPU ms, median of ${runs[a].length} (A = ${a}, B = ${b})`);
  for (const stage of [...stages, "total"]) {
    const m = (rs: Run[]) =>
      median(rs.map((r) => stage === "total" ? total(r) : r.stages[stage] ?? 0));
    const [ma, mb] = [m(runs[a]), m(runs[b])];
    if (ma < 50 && mb < 50) continue;
    console.log(`  ${stage.padEnd(10)} ${String(ma).padStart(8)} ${String(mb).padStart(8)}`);
  }
  const wall = (rs: Run[]) => median(rs.map((r) => r.seconds)).toFixed(1);
  console.log(`  wall s     ${wall(runs[a]).padStart(8)} ${wall(runs[b]).padStart(8)}`);
  const digests = Object.values(runs).flat().map((r) => r.digest);
  console.log(`  digests    ${[...new Set(digests)].join(" ")}`);
}

async function main(): Promise<void> {
  const trees = flag("--trees", "/tmp");
  if (Deno.args.includes("--child")) {
    return await child(flag("--root", "."), flag("--child", ""), trees);
  }
  const roots = [flag("--a", "/tmp/slop-main"), flag("--b", ".")].map((r) => Deno.realPathSync(r));
  const names = flag("--cases", Object.keys(CASES).join(",")).split(",");
  const runs = Number(flag("--runs", "3"));
  for (const name of names) {
    const got: Record<string, Run[]> = { [roots[0]]: [], [roots[1]]: [] };
    for (let i = 0; i < runs; i++) {
      for (const root of i % 2 ? [...roots].reverse() : roots) {
        got[root].push(await runChild(root, name, trees));
      }
    }
    report(name, got);
  }
}

if (import.meta.main) await main();
