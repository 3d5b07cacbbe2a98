/**
 * git reads its config files as it starts, every command: the system's, the user's, the
 * repository's, and every file their `include.path` and `includeIf.*.path` name, each with a plain
 * open. One that is no regular file (a FIFO, an include of `/dev/stdin` or a socket) holds every
 * git command for good: a build waited without end before it listed a file. So before slop starts
 * git it looks at those files, without opening any that is no regular file; git is not started
 * when one is, and the reason names it.
 *
 * @module
 */

import { dirname, isAbsolute, join, resolve } from "./_path.ts";
import { gitFolders } from "./git_folders.ts";
import { readRegularText } from "./helpers.ts";

/** How many includes deep the look goes (git's own limit is 10). */
const MAX_DEPTH = 10;

/** The most of a config file read for its includes (a larger one is looked at no further). */
const CONFIG_LIMIT = 1 << 20;

/**
 * The first config file git would read in `cwd` that is no regular file, as a message names it
 * (`"/home/me/.gitconfig"`, `"/tmp/x" (an include of "/repo/.git/config")`); undefined when none.
 *
 * @example
 * ```ts
 * import { waitingGitConfig } from "./_git_config_files.ts";
 * waitingGitConfig(Deno.cwd()); // undefined where git's config files are files
 * ```
 */
export function waitingGitConfig(cwd: string): string | undefined {
  const seen = new Set<string>();
  const look = (path: string, depth: number, from?: string): string | undefined => {
    if (seen.has(path) || depth > MAX_DEPTH) return undefined;
    seen.add(path);
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch {
      return undefined; // missing or not looked at: git passes over it too
    }
    if (info.isDirectory) return undefined;
    if (!info.isFile) return from ? `"${path}" (an include of "${from}")` : `"${path}"`;
    for (const included of includes(path)) {
      const found = look(included, depth + 1, path);
      if (found) return found;
    }
    return undefined;
  };
  for (const path of configFiles(cwd)) {
    const found = look(path, 0);
    if (found) return found;
  }
  return undefined;
}

/** The config files git reads in `cwd`, its includes aside: the system's, the user's, the repository's. */
function configFiles(cwd: string): string[] {
  const files: string[] = [];
  const noSystem = env("GIT_CONFIG_NOSYSTEM");
  if (!noSystem || /^(0|false|no|off)$/i.test(noSystem)) {
    files.push(env("GIT_CONFIG_SYSTEM") ?? "/etc/gitconfig");
  }
  const home = env("HOME");
  const global = env("GIT_CONFIG_GLOBAL");
  if (global) files.push(global);
  else {
    const xdg = env("XDG_CONFIG_HOME") ?? (home ? join(home, ".config") : undefined);
    if (xdg) files.push(join(xdg, "git", "config"));
    if (home) files.push(join(home, ".gitconfig"));
  }
  const { gitDir, commonDir } = gitFolders(cwd);
  files.push(join(commonDir, "config"), join(gitDir, "config.worktree"));
  return files;
}

/** An environment variable's value, undefined when empty or not to be read (no --allow-env). */
function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The files a config file's `[include]` and `[includeIf "…"]` sections name by `path` (each
 * counted, whatever its condition), resolved as git does: `~/` from the home folder, a relative
 * path from the including file's folder.
 */
function includes(path: string): string[] {
  let text: string;
  try {
    text = readRegularText(path, CONFIG_LIMIT);
  } catch {
    return [];
  }
  const out: string[] = [];
  let inInclude = false;
  for (const line of text.split(/\r?\n/)) {
    const section = /^\s*\[\s*([A-Za-z0-9.-]+)/.exec(line);
    if (section) inInclude = /^include(if)?$/i.test(section[1]);
    const value = inInclude ? /^\s*(?:\[[^\]]*\]\s*)?path\s*=\s*(.*?)\s*$/i.exec(line) : null;
    if (!value?.[1]) continue;
    const named = value[1].replace(/^"(.*)"$/, "$1");
    const home = env("HOME");
    const full = named.startsWith("~/") && home
      ? join(home, named.slice(2))
      : isAbsolute(named)
      ? named
      : resolve(dirname(path), named);
    out.push(full);
  }
  return out;
}
