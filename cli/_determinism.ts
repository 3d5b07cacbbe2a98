/**
 * `slop check --determinism`: two builds in their own processes, each with
 * directory listings and `git ls-files` shuffled (differently seeded), a
 * different TZ and locale, and the second without the transform cache; their
 * bytes must be equal.
 *
 * @module
 */

import type { ConfigFlags } from "../pipeline/config.ts";
import { endsWithSlop } from "../pipeline/helpers.ts";

/** One run's environment. */
const RUNS = [
  { TZ: "Pacific/Kiritimati", LANG: "tr_TR.UTF-8", LC_ALL: "tr_TR.UTF-8", SLOP_SHUFFLE_SEED: "7" },
  { TZ: "America/Adak", LANG: "C", LC_ALL: "C", SLOP_SHUFFLE_SEED: "40503" },
];

/** What the determinism check found. */
export interface DeterminismReport {
  /** Both builds gave the same bytes. */
  same: boolean;
  /** Document length of each run. */
  bytes: [number, number];
  /** First differing byte offset, when they differ. */
  offset?: number;
  /** The block of the first run holding that offset. */
  block?: string;
  /** The view of that block, when it is a file's. */
  view?: string;
  /** The first block (in the first run's order) whose bytes differ from the same block of the
   * second run, when that is not the block at `offset` (which then only moved). */
  changed?: { block: string; view?: string };
}

interface ChildOutput {
  document: string;
  blocks: Array<{ id: string; offset: number; length: number; view?: string }>;
}

/**
 * Run the two builds and compare them.
 *
 * @example
 * ```ts
 * import { checkDeterminism } from "./_determinism.ts";
 * // const report = await checkDeterminism({ config: "slop.config.ts" });
 * ```
 */
export async function checkDeterminism(flags: ConfigFlags): Promise<DeterminismReport> {
  const [a, b] = await Promise.all(RUNS.map((env, i) => runChild(flags, env, i === 1)));
  const enc = new TextEncoder();
  const x = enc.encode(a.document);
  const y = enc.encode(b.document);
  const bytes: [number, number] = [x.length, y.length];
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  if (i === x.length && i === y.length) return { same: true, bytes };
  const found = a.blocks.find((bl) => i >= bl.offset && i < bl.offset + bl.length);
  const others = new Map(b.blocks.map((bl) => [bl.id, bl]));
  const changed = a.blocks.find((bl) => {
    const other = others.get(bl.id);
    return !other || !sameBytes(x.subarray(bl.offset, bl.offset + bl.length), y, other);
  });
  return {
    same: false,
    bytes,
    offset: i,
    ...(found ? { block: found.id } : {}),
    ...(found?.view ? { view: found.view } : {}),
    ...(changed && changed.id !== found?.id
      ? { changed: { block: changed.id, ...(changed.view ? { view: changed.view } : {}) } }
      : {}),
  };
}

async function runChild(
  flags: ConfigFlags,
  env: Record<string, string>,
  noCache: boolean,
): Promise<ChildOutput> {
  const here = (p: string) => new URL(p, import.meta.url).href;
  // A child build ends with slop (stopped by a signal while it runs, it went on without it).
  const out = await endsWithSlop(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      "--preload",
      here("./_shuffle_preload.ts"),
      here("./_determinism_child.ts"),
    ],
    env: { ...env, SLOP_DETERMINISM_FLAGS: JSON.stringify({ config: flags, noCache }) },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (!out.success) {
    const err = dec.decode(out.stderr).trim().split("\n").slice(-3).join(" ");
    throw new Error(`Determinism build (TZ=${env.TZ}) failed: ${err}`);
  }
  return JSON.parse(dec.decode(out.stdout));
}

function sameBytes(block: Uint8Array, doc: Uint8Array, at: { offset: number; length: number }) {
  if (block.length !== at.length) return false;
  for (let k = 0; k < block.length; k++) if (block[k] !== doc[at.offset + k]) return false;
  return true;
}
