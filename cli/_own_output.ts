/**
 * The files `slop watch`'s own output goes to. `slop watch > watch.log` in
 * the project writes a line after every build into a file under the root:
 * without this, the watcher sees its own line, rebuilds, writes another line,
 * and never stops (and the log is bundled into the document). Where the
 * system tells which file a descriptor is open on (Linux's `/proc/self/fd`),
 * those files are neither watched nor bundled. The file a task is read from
 * (`--task-file issue.md`, written in the project by an agent) is left out
 * too: its text is the document's task section already, and as one more
 * file of the project it came twice, or changed the files a task's map lists.
 *
 * @module
 */

import { isAbsolute, relative, resolve, sep } from "node:path";

/** The files this process's stdout and stderr go to (see `_output_fds.ts`). */
export { ownOutputFiles } from "./_output_fds.ts";

/**
 * The files of `paths` under `root` (whose real path may differ), relative to it with `/`: as a
 * config's `exclude` takes them. An entry that names a file there is read as that file's path,
 * whatever glob characters it holds (`ctx [1].md`); escaped with backslashes, as a glob, it was
 * not (an entry's backslash is a separator), and the file was bundled.
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

/**
 * The absolute path of the task file of `--task-file` (relative to `cwd`), as the build leaves
 * it out; none for standard input (`-`) or no task file. Its real path where it has one, so that
 * a link or a symlinked folder on the way names the file under the project's real root.
 *
 * @example
 * ```ts
 * import { taskFilePaths } from "./_own_output.ts";
 * taskFilePaths("issue.md", "/tmp/app"); // ["/tmp/app/issue.md"]
 * taskFilePaths("-", "/tmp/app"); // []
 * ```
 */
export function taskFilePaths(taskFile: string | undefined, cwd = Deno.cwd()): string[] {
  if (taskFile === undefined || taskFile === "-") return [];
  const path = resolve(cwd, taskFile);
  try {
    return [Deno.realPathSync(path)];
  } catch {
    // Not there (the build fails on it first) or not to be resolved: its path as given.
    return [path];
  }
}
