/**
 * Errors no hook awaited, from a config's code or a plugin: a promise it started and left
 * (`setTimeout(() => Promise.reject(...))`, a request it did not await) rejected, or a callback of
 * a timer threw, while slop built or after. Deno ended the process at once with its backtrace:
 * the build was cut short, no document written and no plugin named (`slop watch`, `slop mcp` and
 * the build server went down with it). Such an error, when its stack runs through a module of the
 * user's (not slop's own, nor a package's), is a warning naming that module's line, the command
 * goes on, and its exit code is 1 at its end. An error of slop's own code still ends it, as a bug.
 *
 * @module
 */

/** Packages' modules (slop's or the config's): `node_modules`, Deno's npm and remote caches. */
const PACKAGE_FILE = /\/node_modules\/|\/npm\/registry\.|\/remote\/https?\//;

/**
 * Watch for errors no hook awaited while the command runs; the function returned tells whether
 * one was reported (the command's exit code is then 1).
 *
 * @example
 * ```ts
 * import { reportStrayErrors } from "./_stray_errors.ts";
 * const reported = reportStrayErrors(new URL("../", import.meta.url).href);
 * reported(); // false
 * ```
 */
export function reportStrayErrors(slopRoot: string): () => boolean {
  let reported = false;
  const report = (event: Event, error: unknown) => {
    const where = userFrame(error, slopRoot);
    if (!where) return; // slop's own: its bug, which ends the command as before
    event.preventDefault();
    reported = true;
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    const line = `slop: Uncaught error at "${where}" (a promise the config's code or a plugin ` +
      `left, or a timer's callback, after its hook returned): ${message}\n`;
    try {
      Deno.stderr.writeSync(new TextEncoder().encode(line));
    } catch {
      // A stderr that takes no writes: the exit code says it.
    }
  };
  globalThis.addEventListener("unhandledrejection", (e) => report(e, e.reason));
  globalThis.addEventListener("error", (e) => report(e, e.error));
  return () => reported;
}

/**
 * The first frame of `error`'s stack in a module of the user's (`slop.config.ts:7:39`, relative to
 * the working folder when under it); undefined when none is.
 */
function userFrame(error: unknown, slopRoot: string): string | undefined {
  const stack = error instanceof Error ? error.stack ?? "" : "";
  for (const [, url, at] of stack.matchAll(/(file:\/\/[^\s()]+?):(\d+:\d+)/g)) {
    if (url.startsWith(slopRoot) || PACKAGE_FILE.test(url)) continue;
    let path = decodeURIComponent(new URL(url).pathname);
    try {
      const cwd = Deno.cwd();
      if (path.startsWith(`${cwd}/`)) path = path.slice(cwd.length + 1);
    } catch {
      // No working folder: the full path.
    }
    return `${path}:${at}`;
  }
  return undefined;
}
