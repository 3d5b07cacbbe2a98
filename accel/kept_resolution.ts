/**
 * The resolve stage with what the speed layer keeps of it: the same targets
 * as `resolveTargets()` of `pipeline/resolve.ts`, built on its steps
 * (`startListing`, `lstatPaths`, `resolveFrom`, `keepEntries`), and the
 * `lstat` of every file looked at, for the read stage (it does not look
 * again). Given a resident's last resolution, its files are looked at while
 * git lists the files, and a file matched by the same entry objects keeps its
 * merged entry object, on which the memos of later stages are keyed.
 *
 * @module
 */

import {
  keepEntries,
  lstatPaths,
  type Resolution,
  resolveFrom,
  startListing,
} from "../pipeline/resolve.ts";
import type { FileStat } from "../pipeline/file_stat.ts";
import type { ResolvedConfig } from "../pipeline/types.ts";

/**
 * Resolve the config's entries to targets, as `resolveTargets()` does, after `previous` (a
 * resident's last resolution, if any); with each file's `lstat`.
 *
 * @example
 * ```ts
 * import { resolveAgain } from "./kept_resolution.ts";
 * import { loadConfig } from "../pipeline/config.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * const first = await resolveAgain(config);
 * const { resolution, lstats } = await resolveAgain(config, first.resolution);
 * console.log(resolution.targets.length, lstats.size);
 * ```
 */
export async function resolveAgain(
  config: ResolvedConfig,
  previous?: Resolution,
): Promise<{ resolution: Resolution; lstats: Map<string, FileStat> }> {
  const listing = startListing(config);
  // While git lists the files (another process), the last resolution's files are looked at.
  const looked = previous
    ? lstatPaths(config.root, previous.targets.map((t) => t.path))
    : undefined;
  const { resolution, looked: lstats } = await resolveFrom(config, { listing, looked });
  if (previous) keepEntries(resolution.targets, previous);
  return { resolution, lstats };
}
