/**
 * The MCP server's fence around the project: every path or glob a tool is
 * given must stay inside the project root, or the call fails with an error
 * that names the argument and the path.
 *
 * @module
 */

import { isAbsolute, join, normalize, relative, sep } from "node:path";
import { oneLine, quote } from "../pipeline/schema.ts";

/** A tool argument the server refuses; its message names the argument. */
export class ArgumentError extends Error {
  /** The argument at fault. */
  readonly argument: string;

  /**
   * @example
   * ```ts
   * import { ArgumentError } from "./_mcp_paths.ts";
   * new ArgumentError("budget", "expected a positive whole number").message;
   * // 'Invalid argument "budget": expected a positive whole number'
   * ```
   */
  constructor(argument: string, problem: string) {
    // One line, whatever the problem quotes raw (a value with a newline or an escape in it).
    super(`Invalid argument "${argument}": ${oneLine(problem)}`);
    this.name = "ArgumentError";
    this.argument = argument;
  }
}

/** A `..` path segment anywhere, also inside a glob's braces or lists (`{..,src}`). */
const PARENT_SEGMENT = /(^|[\\/{,])\.\.([\\/},]|$)/;

/**
 * `value` (a path or glob, relative to `root` or absolute) as a path relative
 * to `root` with `/` separators; an {@linkcode ArgumentError} naming
 * `argument` when it leaves the root: a `..` segment that climbs out, an
 * absolute path elsewhere, or an existing path whose real location (symbolic
 * links followed) is elsewhere.
 *
 * @example
 * ```ts
 * import { insideRoot } from "./_mcp_paths.ts";
 * insideRoot("/p", "paths", "src/./a.ts"); // "src/a.ts"
 * // insideRoot("/p", "paths", "../etc/passwd") throws: Invalid argument "paths": "../etc/passwd" is outside the project root "/p"
 * ```
 */
export function insideRoot(root: string, argument: string, value: string): string {
  const refuse = () =>
    new ArgumentError(argument, `${quote(value)} is outside the project root "${root}"`);
  if (value.trim() === "" || value.includes("\0")) {
    throw new ArgumentError(argument, `expected a path or glob, got ${quote(value)}`);
  }
  const abs = normalize(isAbsolute(value) ? value : join(root, value));
  const rel = relative(root, abs);
  if (rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel)) throw refuse();
  // A glob may climb out inside braces or lists, where normalizing does not see it.
  if (PARENT_SEGMENT.test(rel)) throw refuse();
  let real: string | undefined;
  try {
    real = Deno.realPathSync(abs);
  } catch {
    // Not there (yet), or a glob: the build's read stage refuses links that leave the root.
  }
  if (real !== undefined) {
    const realRel = relative(Deno.realPathSync(root), real);
    if (realRel === ".." || realRel.startsWith(".." + sep) || isAbsolute(realRel)) throw refuse();
  }
  return (rel || ".").split(sep).join("/");
}

/**
 * Each of `values` checked with {@linkcode insideRoot}; undefined stays undefined.
 *
 * @example
 * ```ts
 * import { allInsideRoot } from "./_mcp_paths.ts";
 * allInsideRoot("/p", "focus", ["src/**"]); // ["src/**"]
 * ```
 */
export function allInsideRoot(
  root: string,
  argument: string,
  values: string[] | undefined,
): string[] | undefined {
  return values?.map((value) => insideRoot(root, argument, value));
}
