/**
 * Small helpers for CLI output.
 *
 * @module
 */

import { printablePath } from "../pipeline/helpers.ts";

/** Human-readable size: `512 B`, `1.5 KB`, `2.0 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Print a warning line to stderr, prefixed with `warning:`. A warning is one line: a path in it
 * with a newline or a bidi override is written with escapes ({@linkcode printablePath}).
 */
export function printWarning(message: string): void {
  console.error(`warning: ${printablePath(message)}`);
}

/** Print an error line to stderr, prefixed with `slop:`. */
export function printError(message: string): void {
  console.error(`slop: ${message}`);
}

/**
 * `path` relative to the working directory when it lies under it, else `path`
 * as given (a plain prefix test, so that printing a build's summary loads no
 * `node:path`).
 *
 * @example
 * ```ts
 * import { relativeToCwd } from "./_output.ts";
 * relativeToCwd(`${Deno.cwd()}/.slop/out/context_001.md`); // ".slop/out/context_001.md"
 * ```
 */
export function relativeToCwd(path: string): string {
  const cwd = Deno.cwd();
  for (const sep of ["/", "\\"]) {
    const base = cwd.endsWith(sep) ? cwd : cwd + sep;
    if (path.startsWith(base)) return path.slice(base.length);
  }
  return path;
}
