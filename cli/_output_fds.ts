/**
 * The files this process's own output goes to (`_own_output.ts` says why a build leaves them
 * out), in a module with no imports: a `slop build --server` client asks for them before it
 * hands its build over, and `node:path`, which the rest of `_own_output.ts` uses, costs a client
 * more than this (bench/README.md, "The build server's warm answer").
 *
 * @module
 */

/**
 * The absolute paths of the regular files this process's stdout and stderr
 * are redirected to, from `dir` (one link per descriptor; `/proc/self/fd` on
 * Linux). Empty where the system does not tell, or for terminals and pipes.
 *
 * @example
 * ```ts
 * import { ownOutputFiles } from "./_output_fds.ts";
 * ownOutputFiles(); // ["/home/me/app/watch.log"] under `slop watch > watch.log`
 * ```
 */
export function ownOutputFiles(dir = "/proc/self/fd"): string[] {
  const out: string[] = [];
  for (const fd of [1, 2]) {
    try {
      const target = Deno.readLinkSync(`${dir}/${fd}`);
      if (target.startsWith("/") && Deno.statSync(target).isFile && !out.includes(target)) {
        out.push(target);
      }
    } catch {
      // Not told (no such folder, a closed descriptor) or not a file: nothing to leave out.
    }
  }
  return out;
}
