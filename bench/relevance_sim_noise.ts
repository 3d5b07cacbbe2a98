/**
 * How far the simulated task builds' counts move when the ranking moves by chance
 * (`relevance_sim.ts`; twenty-fifth session, rel29): the build's ranking (past commits like
 * the task included, `relevance_sim_room.ts`) with each file's place times `1 + eps × u`, `u`
 * in [-1, 1] from a hash of the seed and the path, for seeds 1 to 7 (seed 0: the build). It
 * prints, per repository, the needed files each seed holds at 8k / 32k / 128k: a variant of the
 * ranking whose counts stay within that band has shown nothing.
 *
 * ```sh
 * deno run -A bench/relevance_sim_noise.ts --commits 40 --eps 0.25 \
 *   --names go-chi+chi,sharkdp+fd,square+moshi,sinatra+sinatra
 * ```
 *
 * @module
 */

import { simulate } from "./relevance_sim.ts";
import { type SimFile, type SimTask, simTasks } from "./_relevance_sim_data.ts";
import { argValue, BUDGETS, CACHE, plainBuild } from "./relevance.ts";
import { pastCommits } from "./relevance_sim_room.ts";

/** A number in [-1, 1] from a string (FNV-1a). */
function unit(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return ((h >>> 0) / 4294967295) * 2 - 1;
}

/** The build's ranking with each place times `1 + eps × u` (seed 0: as it is). */
function jittered(seed: number, eps: number) {
  return (task: SimTask, ranked: SimFile[]): SimFile[] => {
    const order = pastCommits(task, ranked);
    if (seed === 0) return order;
    const place = new Map(order.map((f, i) => [f.path, i]));
    const key = (f: SimFile) => (place.get(f.path)! + 1) * (1 + eps * unit(`${seed}:${f.path}`));
    return order.toSorted((a, b) => key(a) - key(b) || place.get(a.path)! - place.get(b.path)!);
  };
}

if (import.meta.main) {
  const commits = Number(argValue("--commits") ?? 40);
  const eps = Number(argValue("--eps") ?? 0.25);
  for (const name of (argValue("--names") ?? "").split(",").filter(Boolean)) {
    const tasks = await simTasks({ name, tuned: false }, commits, {
      cache: CACHE,
      plain: plainBuild,
    });
    const rows = Array.from(
      { length: 8 },
      (_, seed) =>
        BUDGETS.map((b) =>
          tasks.reduce(
            (n, t) => n + simulate({ ...t }, b, { rerank: jittered(seed, eps) }).found,
            0,
          )
        ).join("/"),
    );
    console.log(`${name}: ${rows.join("  ")}`);
  }
}
