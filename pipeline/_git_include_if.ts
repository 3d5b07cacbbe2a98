/**
 * Whether git follows an `[includeIf "…"]` section of a config file, as git decides it: only then
 * does git open the file its `path` names. slop looks at the files git opens before it runs git
 * (`_git_wait_files.ts`): a FIFO named by an `includeIf` whose condition does not hold (another
 * folder's `gitdir:`, another branch) is never opened by git, and git is run as usual.
 *
 * Conditions, as git 2.36+ reads them: `gitdir:` and `gitdir/i:` (the git folder, real or as
 * found, matched as a path: `~/` from home, `./` from the config file's folder, a pattern that is
 * not absolute matched at any depth, a trailing `/` as everything under it), `onbranch:` (the
 * branch HEAD names), `hasconfig:remote.*.url:` (always opened, whatever its pattern: to decide
 * one, git gathers the URLs of every remote, reading each file such a section names; checked
 * against git itself). Any other condition (`hasconfig:` of another key too) is not followed,
 * as git does.
 *
 * @module
 */

import { dirname, isAbsolute, join } from "./_path.ts";
import { readSettingTextSync } from "./helpers.ts";

/** What an `includeIf` condition is decided on. */
export interface IncludeContext {
  /** The repository's git folder (a worktree's own), absolute. */
  gitDir: string;
  /** The config file the section is in. */
  configPath: string;
  /** The home folder, for `~/` in a pattern. */
  home?: string;
}

/**
 * Whether git follows `[includeIf "condition"]` in `context`.
 *
 * @example
 * ```ts
 * import { followsIncludeIf } from "./_git_include_if.ts";
 * const context = { gitDir: "/work/app/.git", configPath: "/home/me/.gitconfig" };
 * followsIncludeIf("gitdir:~/work/", { ...context, home: "/home/me" }); // false
 * followsIncludeIf("gitdir:/work/", context); // true
 * followsIncludeIf("gitdir:app/.git", context); // true
 * followsIncludeIf("nosuchcondition:x", context); // false
 * followsIncludeIf("hasconfig:remote.*.url:https://example.com/**", context); // true
 * ```
 */
export function followsIncludeIf(condition: string, context: IncludeContext): boolean {
  const colon = condition.indexOf(":");
  if (colon < 0) return false;
  const kind = condition.slice(0, colon);
  const value = condition.slice(colon + 1);
  if (kind === "gitdir" || kind === "gitdir/i") {
    return byGitDir(value, context, kind === "gitdir/i");
  }
  if (kind === "onbranch") {
    const branch = headBranch(context.gitDir);
    const pattern = value.endsWith("/") ? `${value}**` : value;
    return branch !== undefined && wildmatch(pattern, branch, false);
  }
  return kind === "hasconfig" && value.startsWith("remote.*.url:");
}

function byGitDir(value: string, context: IncludeContext, icase: boolean): boolean {
  let pattern = value;
  if (pattern.startsWith("~/")) {
    if (!context.home) return false;
    pattern = context.home.replace(/\/+$/, "") + pattern.slice(1);
  }
  // `./` from the config file's folder, taken as written (git does not read it as a pattern).
  if (pattern.startsWith("./")) {
    const folder = realPath(dirname(context.configPath));
    pattern = folder.replace(/[*?[\\]/g, "\\$&") + pattern.slice(1);
  } else if (!isAbsolute(pattern)) pattern = `**/${pattern}`;
  if (pattern.endsWith("/")) pattern += "**";
  // The real path first, then the folder as found (a link on the way), as git tries both.
  return [realPath(context.gitDir), context.gitDir].some((dir) => wildmatch(pattern, dir, icase));
}

function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** The branch HEAD names (`main` of `ref: refs/heads/main`), undefined when detached. */
function headBranch(gitDir: string): string | undefined {
  try {
    const head = readSettingTextSync(join(gitDir, "HEAD"), 4096);
    return /^ref:\s*refs\/heads\/(\S+)\s*$/m.exec(head)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * git's `wildmatch` with `WM_PATHNAME`: `*` and `?` match within a folder's name, `**` (a whole
 * segment) across folders, `[...]` a class (`[!...]` or `[^...]` its complement), `\` quotes.
 */
function wildmatch(pattern: string, text: string, icase: boolean): boolean {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const atSegmentStart = i === 0 || pattern[i - 1] === "/";
    if (c === "*" && pattern[i + 1] === "*" && atSegmentStart) {
      const end = i + 2;
      if (pattern[end] === "/") {
        source += "(?:.*/)?";
        i = end;
        continue;
      }
      if (end === pattern.length) {
        source += ".*";
        i = end;
        continue;
      }
    }
    if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "\\" && i + 1 < pattern.length) source += escape(pattern[++i]);
    else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close < 0) source += "\\[";
      else {
        const body = pattern.slice(i + 1, close).replace(/^[!^]/, "^").replace(/\\/g, "\\\\");
        source += `[${body}]`;
        i = close;
      }
    } else source += escape(c);
  }
  try {
    return new RegExp(`^${source}$`, icase ? "i" : "").test(text);
  } catch {
    return false;
  }
}

function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
