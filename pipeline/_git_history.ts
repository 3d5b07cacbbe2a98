/**
 * Change statistics from `git log`, to seed the first file order when no
 * order has been remembered yet.
 *
 * @module
 */

import { runGit } from "./_git.ts";
import { DECAY, type OrderSeed } from "./order_state.ts";

/** How many commits the seed looks at. */
export const SEED_COMMITS = 200;

/** The `git log` seed: per-file statistics and the decayed number of commits seen. */
export interface GitSeed {
  /** Per-file decayed change counts and last change. */
  files: Map<string, OrderSeed>;
  /** Sum of the commits' weights (`DECAY^age`). */
  weight: number;
}

/**
 * Decayed change counts of the files under `root` over the last `commits`
 * commits (the newest weighs 1, each older one `DECAY` times less), and the
 * age of each file's last change (`last`: 0 for the newest commit, -n for n
 * commits ago). Undefined outside git or with no commits.
 *
 * @example
 * ```ts
 * import { gitChangeSeed } from "./_git_history.ts";
 * const seed = await gitChangeSeed(Deno.cwd());
 * ```
 */
export async function gitChangeSeed(
  root: string,
  commits: number = SEED_COMMITS,
): Promise<GitSeed | undefined> {
  const out = await runGit(
    [
      "-c",
      "core.quotePath=false",
      "log",
      "-n",
      String(commits),
      "--format=%x01",
      "--name-only",
      "--no-renames",
      "--relative",
    ],
    root,
  );
  if (!out) return undefined;
  const seed = new Map<string, OrderSeed>();
  let total = 0;
  out.split("\x01").slice(1).forEach((chunk, age) => {
    const weight = DECAY ** age;
    total += weight;
    for (const raw of chunk.split("\n")) {
      const path = unquote(raw.trim());
      if (!path) continue;
      const s = seed.get(path);
      if (s) s.changes += weight;
      else seed.set(path, { changes: weight, last: -age });
    }
  });
  return seed.size ? { files: seed, weight: total } : undefined;
}

/** git quotes unusual paths as C strings unless core.quotePath is off. */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  const enc = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      bytes.push(...enc.encode(c));
      continue;
    }
    const next = body[++i];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else {
      bytes.push(({ n: 10, t: 9, '"': 34, "\\": 92 } as Record<string, number>)[next] ?? 63);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
