/**
 * The literal starts of path patterns, and an index of them: a path tries only the patterns whose
 * start it has (the resolve stage's lists of globs, `ordering.pinned`, `focus`).
 *
 * @module
 */

/** Characters a glob's literal start may hold: any other may be glob syntax (`*?[]{}()!+@\`). */
const PLAIN_START = /^[\p{L}\p{N}\p{M}._\-~ #%=:;&/]*/u;

/**
 * The text every path a glob matches starts with: its characters up to the first that may be
 * glob syntax, without a last `/` (`a/**` matches `a`); "" when the glob starts with syntax or
 * with a form picomatch rewrites (`./a`, `a//b`), or when it holds a `|` anywhere. A test of that start passes over paths no
 * pattern could match, so a list of thousands of globs is not tried whole on each path.
 *
 * @example
 * ```ts
 * import { globPrefix } from "./path_starts.ts";
 * globPrefix("src/gen/f12*.ts"); // "src/gen/f12"
 * globPrefix("docs/**"); // "docs"
 * globPrefix("**\/*.md"); // ""
 * ```
 */
export function globPrefix(glob: string): string {
  // picomatch reads a `|` outside a group as two patterns (`src/a|docs/b` matches `docs/b`)
  if (glob.includes("|")) return "";
  const prefix = PLAIN_START.exec(glob)![0].replace(/\/$/, "");
  const rewritten = /^\.{0,2}\/|\/\.{0,2}\/|\/\.{1,2}$|^\.{1,2}$/.test(prefix);
  return rewritten ? "" : prefix;
}

/** A node of {@linkcode startsIndex}'s tree of starts, one character an edge. */
interface IndexNode {
  next: Map<string, IndexNode>;
  keys?: number[];
}

/**
 * For a list of starts (a pattern's literal start: see {@linkcode globPrefix}), a function giving
 * the indexes of those a path starts with, in increasing order: a walk along the path's characters
 * finds them, so that a list of thousands of patterns is not tried whole on each of thousands of
 * paths (`ordering.pinned`, `focus`).
 *
 * @example
 * ```ts
 * import { startsIndex } from "./path_starts.ts";
 * startsIndex(["src/a", "", "docs", "src/"])("src/a.ts"); // [0, 1, 3]
 * ```
 */
export function startsIndex(starts: string[]): (path: string) => number[] {
  const root: IndexNode = { next: new Map() };
  starts.forEach((start, key) => {
    let node = root;
    for (const char of start.split("")) {
      let next = node.next.get(char);
      if (!next) node.next.set(char, next = { next: new Map() });
      node = next;
    }
    (node.keys ??= []).push(key);
  });
  return (path) => {
    const keys: number[] = [];
    let node: IndexNode | undefined = root;
    for (let i = 0; node; i++) {
      if (node.keys) keys.push(...node.keys);
      node = i < path.length ? node.next.get(path[i]) : undefined;
    }
    return keys.length > 1 ? keys.sort((a, b) => a - b) : keys;
  };
}
