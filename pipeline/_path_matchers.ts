/**
 * The path matchers of the resolve stage: globs matched as picomatch matches them, names holding
 * line breaks included, and plain name patterns (`.env*`, `*.pem`) matched without picomatch.
 *
 * @module
 */

import { loadGlobs } from "../deps.ts";
import { compileGlobs, type GlobOptions } from "./_glob.ts";

/**
 * A matcher deciding as picomatch does, that also matches names holding line
 * breaks (picomatch's `**` never matches `\n`; a file named `a\nb.ts` would
 * be lost): line breaks are matched as a character no file name can hold.
 * Patterns of literal, `*` and `**` segments are matched without picomatch;
 * others need it loaded first, by `await loadGlobMatcher(...)` (which
 * returns the same matcher) or `loadGlobs()` of `deps.ts`.
 */
function globMatcher(
  patterns: string | string[],
  options: GlobOptions = {},
): (path: string) => boolean {
  const match = compileGlobs(patterns, options);
  return (path) => match(path.replace(LINE_BREAKS, "\0"));
}

/**
 * {@linkcode globMatcher}, once picomatch is loaded if these patterns need it.
 *
 * @example
 * ```ts
 * import { loadGlobMatcher } from "./_path_matchers.ts";
 * const match = await loadGlobMatcher("src/{a,b}.ts", { dot: true });
 * match("src/a.ts"); // true
 * ```
 */
export async function loadGlobMatcher(
  patterns: string | string[],
  options: GlobOptions = {},
): Promise<(path: string) => boolean> {
  await loadGlobs(patterns, options);
  return globMatcher(patterns, options);
}

const LINE_BREAKS = /[\n\r\u2028\u2029]/g;

/**
 * {@linkcode globMatcher} with `{ dot: true, basename: true }` for patterns
 * that are a plain name with at most one `*`, at its start or its end
 * (`.env*`, `*.pem`, `history.toml`): the name's last segment is compared
 * with `startsWith`, `endsWith` or `===`, which is what picomatch's regular
 * expression decides for such patterns, at a fraction of the cost (the
 * resolve stage asks it of every candidate). Other patterns go to picomatch,
 * which must be loaded first (`await loadGlobs(patterns, { basename: true })`
 * of `deps.ts`). With `nocase`, a name in any case matches (`.ENV`, `SERVER.PEM`).
 *
 * @example
 * ```ts
 * import { nameMatcher } from "./_path_matchers.ts";
 * nameMatcher([".env*", "*.pem"])("config/.env.local"); // true
 * nameMatcher([".env*"], { nocase: true })(".ENV"); // true
 * ```
 */
export function nameMatcher(
  patterns: string[],
  options: { nocase?: boolean } = {},
): (path: string) => boolean {
  const nocase = options.nocase === true;
  const plain = patterns.map((p) => plainName(nocase ? p.toLowerCase() : p));
  if (plain.some((p) => p === undefined)) {
    return globMatcher(patterns, { dot: true, basename: true, nocase });
  }
  const tests = plain as Array<(name: string) => boolean>;
  return (path) => {
    // The last segment, as picomatch takes it (a trailing `/` is not one).
    const end = path.endsWith("/") ? path.length - 1 : path.length;
    const name = path.slice(path.lastIndexOf("/", end - 1) + 1, end);
    const named = nocase ? name.toLowerCase() : name;
    return tests.some((test) => test(named));
  };
}

/** A test of a plain name pattern (`name`, `name*`, `*name`), or `undefined` for any other. */
function plainName(pattern: string): ((name: string) => boolean) | undefined {
  const star = pattern.startsWith("*") ? "start" : pattern.endsWith("*") ? "end" : undefined;
  const literal = star === "start"
    ? pattern.slice(1)
    : star === "end"
    ? pattern.slice(0, -1)
    : pattern;
  // Letters, digits and `._-` only, and not dots alone (picomatch never matches `.` or `..`).
  if (!/^[A-Za-z0-9._-]+$/.test(literal) || /^\.+$/.test(literal)) return undefined;
  if (star === "start") return (name) => name.endsWith(literal);
  if (star === "end") return (name) => name.startsWith(literal);
  return (name) => name === literal;
}

/** Whether a path matches the glob `**` (with `dot`): any path with no `.` or `..` segment. */
export function anyPath(path: string): boolean {
  return path !== "" && !/(^|\/)\.\.?(\/|$)/.test(path);
}
