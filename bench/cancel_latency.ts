/**
 * How late a cancelled build ends: a library build of a project from an empty state folder whose
 * `onProgress` throws (as a cancelled MCP call's does) once `ms` have passed. Prints when the
 * throw was asked (the first progress after `ms`), at which stage, and when the build rejected.
 * See bench/README.md, "A cancelled build's scan" (thirty-second session, lead).
 *
 * ```sh
 * deno run -A bench/cancel_latency.ts <project> [ms=3000] [--budget 16000] [--repo <checkout>]
 * ```
 *
 * @module
 */

const args = Deno.args.filter((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--"));
const flag = (name: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const [root, ms = "3000"] = args;
if (!root) {
  console.error(
    "usage: deno run -A bench/cancel_latency.ts <project> [ms] [--budget N] [--repo DIR]",
  );
  Deno.exit(2);
}
const repo = flag("--repo") ?? new URL("..", import.meta.url).pathname;
const slop = await import(`file://${repo.replace(/\/$/, "")}/mod.ts`);
const state = await Deno.makeTempDir({ prefix: "slop_cancel_" });
try {
  const budget = Number(flag("--budget") ?? 16000);
  const config = await slop.loadConfig({ cwd: root, stateDir: state, budget });
  const t0 = performance.now();
  const stop = new Error("cancelled");
  let asked = 0;
  let stage = "";
  await slop.build(config, {
    builtins: slop.defaultPlugins(),
    layer: slop.speedLayer(),
    write: false,
    onProgress: (p: { stage: string; done: number; total: number }) => {
      if (asked) throw stop;
      if (performance.now() - t0 < Number(ms)) return;
      asked = performance.now() - t0;
      stage = `${p.stage} ${p.done}/${p.total}`;
      throw stop;
    },
  }).catch((error: unknown) => {
    if (error !== stop) throw error;
  });
  const end = performance.now() - t0;
  console.log(
    `asked at ${Math.round(asked)} ms (${stage || "never: the build ended first"}), ended at ` +
      `${Math.round(end)} ms: ${Math.round(end - asked)} ms after the ask`,
  );
} finally {
  await Deno.remove(state, { recursive: true });
}
