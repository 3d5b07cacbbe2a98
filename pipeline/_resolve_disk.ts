/**
 * The resolve stage's looks at paths on disk: a path made relative to the
 * root, the root joined to a listed path, and whether a path is a folder or
 * something else. Shared by the listing, the entries' matches and the build
 * paths (`resolve.ts` and its `_resolve_*.ts` parts).
 *
 * @module
 */

import { isAbsolute, join, relative, resolve as resolvePath, sep } from "./_path.ts";

/**
 * `path` relative to `root`, with `/` between its parts: an absolute path made relative, a
 * relative one taken as relative to `base`.
 *
 * @example
 * ```ts
 * import { toRootRelative } from "./_resolve_disk.ts";
 * toRootRelative("/p/src/a.ts", "/p", "/p"); // "src/a.ts"
 * toRootRelative("src/a.ts", "/p", "/p"); // "src/a.ts"
 * ```
 */
export function toRootRelative(path: string, root: string, base: string): string | undefined {
  if (isAbsolute(path)) {
    const rel = relative(root, path).split(sep).join("/");
    return rel;
  }
  if (base === root) return path;
  const abs = resolvePath(base, path);
  return relative(root, abs).split(sep).join("/");
}

/**
 * `join(root, path)` for the root-relative paths git or the walk list: on POSIX, a path of
 * plain segments (no `.`, `..` or empty one) is joined as it is (`join` normalizes every
 * segment, a cost per file of the project).
 *
 * @example
 * ```ts
 * import { underRoot } from "./_resolve_disk.ts";
 * underRoot("/p")("src/a.ts"); // "/p/src/a.ts"
 * ```
 */
export function underRoot(root: string): (path: string) => string {
  const prefix = root.endsWith("/") ? root : root + "/";
  return sep === "/"
    ? (path) => (PLAIN.test(path) ? prefix + path : join(root, path))
    : (path) => join(root, path);
}

/** A relative path of plain segments. */
const PLAIN = /^(?!\.\.?(?:\/|$))(?:[^/]+\/(?!\.\.?(?:\/|$)))*[^/]+$/;

/**
 * Whether `path` is a folder (a link is followed; false when it cannot be looked at).
 *
 * @example
 * ```ts
 * import { isDirectory } from "./_resolve_disk.ts";
 * await isDirectory(Deno.cwd()); // true
 * ```
 */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Whether `path` is there and not a folder (a link is looked at, not followed).
 *
 * @example
 * ```ts
 * import { isFileLike } from "./_resolve_disk.ts";
 * await isFileLike(Deno.cwd()); // false
 * ```
 */
export async function isFileLike(path: string): Promise<boolean> {
  try {
    const info = await Deno.lstat(path);
    return !info.isDirectory;
  } catch {
    return false;
  }
}
