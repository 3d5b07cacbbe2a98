/**
 * Test helpers for projects that use slop: pin the stable prefix in a
 * snapshot test, the way `slop check` pins it in `slop.lock`.
 *
 * @module
 */

import { type ConfigFlags, loadConfig } from "../pipeline/config.ts";
import { checkPrefix } from "../pipeline/pin.ts";
import type { Lock } from "../pipeline/lock.ts";
import { defaultPlugins } from "../plugins/defaults.ts";

/** Options of {@linkcode assertStablePrefix}: where the project is, as for `loadConfig`. */
export interface StablePrefixOptions extends ConfigFlags {
  /** Snapshot name (several calls in one test need distinct names). */
  name?: string;
  /** Snapshot the prefix text itself instead of its block table. @default {false} */
  text?: boolean;
  /**
   * The snapshot file, absolute or relative to the test file's folder. By default Deno's:
   * `__snapshots__/<test file>.snap` beside the file that `deno test` was given, which for a
   * test module imported by another (several test files run in one worker) is the importer's.
   */
  snapshotPath?: string;
}

/**
 * The block table of a stable prefix as a snapshot records it: one line per
 * block (`id`, `sha256`, `bytes`, `tokens`) plus the total.
 *
 * @example
 * ```ts
 * import { prefixTable } from "./testing.ts";
 * prefixTable({ lines: [], total: { sha256: "x", bytes: 0, tokens: 0 }, generation: 0 }); // "total\tx\t0\t0\n"
 * ```
 */
export function prefixTable(lock: Lock): string {
  const rows = lock.lines.map((l) => [l.id, l.sha256, l.bytes, l.tokens].join("\t"));
  const t = lock.total;
  rows.push(["total", t.sha256, t.bytes, t.tokens].join("\t"));
  return rows.join("\n") + "\n";
}

/**
 * Assert that the project's stable prefix matches the test's snapshot. The
 * build takes its previous order only from `slop.lock` (as `slop check`
 * does), so commit a lock for an order that does not follow `git log`.
 * Update with `deno test -A -u`.
 *
 * @example In your project's tests
 * ```ts
 * import { assertStablePrefix } from "./testing.ts";
 * Deno.test("the context prefix is pinned", async (t) => {
 *   await assertStablePrefix(t, { config: "slop.config.ts" });
 * });
 * ```
 */
export async function assertStablePrefix(
  t: Deno.TestContext,
  options: StablePrefixOptions = {},
): Promise<void> {
  const { name, text, snapshotPath, ...flags } = options;
  const config = await loadConfig(flags);
  const { result, current } = await checkPrefix(config, { builtins: defaultPlugins() });
  const value = text
    ? new TextDecoder().decode(
      new TextEncoder().encode(result.document).subarray(0, result.manifest.prefix.bytes),
    )
    : prefixTable(current);
  await t.assertSnapshot(value, {
    serializer: String,
    ...(name ? { name } : {}),
    ...(snapshotPath ? { path: snapshotPath } : {}),
  });
}
