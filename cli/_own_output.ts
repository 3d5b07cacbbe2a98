/**
 * The files `slop watch`'s own output goes to. `slop watch > watch.log` in
 * the project writes a line after every build into a file under the root:
 * without this, the watcher sees its own line, rebuilds, writes another line,
 * and never stops (and the log is bundled into the document). Where the
 * system tells which file a descriptor is open on (Linux's `/proc/self/fd`),
 * those files are neither watched nor bundled.
 *
 * @module
 */

import { isAbsolute, relative, sep } from "node:path";

/** The files this process's stdout and stderr go to (see `_output_fds.ts`). */
export { ownOutputFiles } from "./_output_fds.ts";

/**
 * A glob that matches exactly `path` (picomatch's special characters escaped
 * with a backslash), for a config's `exclude`.
 *
 * @example
 * ```ts
 * import { literalGlob } from "./_own_output.ts";
 * literalGlob("logs/watch[1].log"); // "logs/watch\\[1\\].log"
 * ```
 */
export function literalGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@|^$]/g, "\\$&");
}

/**
 * The files of `paths` under `root` (whose real path may differ), relative to it with `/`.
 *
 * @example
 * ```ts
 * import { underRoot } from "./_own_output.ts";
 * underRoot(["/tmp/app/build.log", "/var/log/x"], "/tmp/app"); // ["build.log"]
 * ```
 */
export function underRoot(paths: string[], root: string): string[] {
  if (!paths.length) return [];
  let real = root;
  try {
    real = Deno.realPathSync(root);
  } catch {
    // A root that does not exist fails the build with its own error.
  }
  return paths.flatMap((path) => {
    const rel = relative(real, path);
    const outside = rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel);
    return rel && !outside ? [rel.split(sep).join("/")] : [];
  });
}
