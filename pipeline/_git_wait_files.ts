/**
 * git opens its own files with a plain open, every command: its config files as it starts (the
 * system's, the user's, the repository's, and every file their `include.path` and
 * `includeIf.*.path` name), then the repository's `HEAD`, the ref it names, `packed-refs`,
 * `index` and the like. One that is a FIFO (or a socket) holds the git command for good: a build
 * waited without end before it listed a file, or until a plugin's deadline named the wrong cause.
 * So before slop starts git it looks at those files, without opening any FIFO; git is not started
 * when one is, and the reason names it. A loose object, a pack or a ref other than HEAD's made a
 * FIFO is looked for only when git has not answered within a second ({@linkcode waitingStoreFile}:
 * a repository holds thousands of them, and most commands read none of them).
 *
 * @module
 */

import { dirname, isAbsolute, join, resolve } from "./_path.ts";
import { type GitFolders, gitFolders } from "./git_folders.ts";
import { readSettingTextSync } from "./helpers.ts";
import { followsIncludeIf, type IncludeContext } from "./_git_include_if.ts";
import { type GitSetting, gitSettings } from "./_git_config_text.ts";

/** How many includes deep the look goes (git's own limit is 10). */
const MAX_DEPTH = 10;

/** The most of a config file read for its includes (a larger one is looked at no further). */
const CONFIG_LIMIT = 1 << 20;

/** How much more than its size a config file may hold as it is read (one written meanwhile). */
const SIZE_SLACK = 4096;

/**
 * The first of git's own files in `cwd` that is a FIFO or a socket, as a message names it
 * (`config file "/home/me/.gitconfig"`, `config file "/tmp/x" (an include of "/repo/.git/config")`,
 * `file ".git/HEAD"`); undefined when none.
 *
 * @example
 * ```ts
 * import { waitingGitFile } from "./_git_wait_files.ts";
 * waitingGitFile(Deno.cwd()); // undefined where no FIFO stands for one of git's files
 * ```
 */
export function waitingGitFile(cwd: string): string | undefined {
  const folders = gitFolders(cwd);
  const config = waitingConfig(folders);
  if (config) return `config file ${config}`;
  for (const path of storeFiles(folders)) {
    if (waitsAt(path)) return `file "${path}"`;
  }
  return undefined;
}

/** The file of each git store (by common folder) {@linkcode waitingStoreFile} found last. */
const foundInStore = new Map<string, string>();

/** How long the look at the store runs before it lets git's answer in. */
const SLICE_MS = 20;

/**
 * The first file of the git store `cwd` is in that is a FIFO or a socket, as a message names it
 * (`file "/repo/.git/objects/e0/49ed…"`): a loose object, a pack or its index, a ref (loose, any
 * branch or tag), found by listing `objects` and `refs` until `stop` aborts. Run when git is slow
 * (it costs a listing of the store); what it found is looked at first by the next look.
 *
 * @example
 * ```ts
 * import { waitingStoreFile } from "./_git_wait_files.ts";
 * await waitingStoreFile(Deno.cwd(), new AbortController().signal); // undefined: none
 * ```
 */
export async function waitingStoreFile(
  cwd: string,
  stop: AbortSignal,
): Promise<string | undefined> {
  const { commonDir } = gitFolders(cwd);
  const known = foundInStore.get(commonDir);
  if (known && waitsAt(known)) return `file "${known}"`;
  const folders = [join(commonDir, "refs"), join(commonDir, "objects")];
  let slice = performance.now();
  while (folders.length && !stop.aborted) {
    const folder = folders.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(folder)];
    } catch {
      continue; // a folder that cannot be listed is git's to report
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory) folders.push(path);
      else if (!entry.isFile && waitsAt(path)) {
        foundInStore.set(commonDir, path);
        return `file "${path}"`;
      }
    }
    if (performance.now() - slice > SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      slice = performance.now();
    }
  }
  return undefined;
}

/**
 * The files of the repository git reads for the commands slop runs (`ls-files`, `log`,
 * `rev-parse`, `diff`, `check-attr`): `HEAD` and the loose ref it names, the index, the packed
 * refs, a shallow clone's list, grafts and alternates.
 */
function storeFiles({ gitDir, commonDir }: GitFolders): string[] {
  const files = [join(gitDir, "HEAD"), join(gitDir, "index")];
  try {
    const head = readSettingTextSync(join(gitDir, "HEAD"), 4096);
    const ref = /^ref:\s*(refs\/\S+)\s*$/m.exec(head)?.[1];
    if (ref && !ref.split("/").includes("..")) files.push(join(commonDir, ref));
  } catch {
    // No HEAD, or none to read: git says so itself.
  }
  for (const name of ["packed-refs", "shallow", "info/grafts", "objects/info/alternates"]) {
    files.push(join(commonDir, name));
  }
  return files;
}

/** Whether what is at `path` (followed) is a FIFO or a socket, whose open waits. */
function waitsAt(path: string): boolean {
  try {
    return waits(Deno.statSync(path));
  } catch {
    return false;
  }
}

/**
 * Whether git's open of a file waits: a FIFO's (until a writer comes) or a socket's. A device
 * does not (`GIT_CONFIG_GLOBAL=/dev/null` is a way to run git without the user's settings, and
 * git reads `/dev/zero` as a bad config at once).
 */
function waits(info: Deno.FileInfo): boolean {
  return info.isFifo === true || info.isSocket === true;
}

/** The first config file git reads (includes too) that is a FIFO or a socket. */
function waitingConfig(folders: GitFolders): string | undefined {
  return walkConfig(folders, (path, info, from) => {
    if (!waits(info)) return undefined;
    return from ? `"${path}" (an include of "${from}")` : `"${path}"`;
  });
}

/**
 * The config files git reads in `cwd` (the system's, the user's, the repository's, and the
 * includes it follows), each with its size and change time: what a git command's output may
 * depend on besides the repository, for a caller that keeps an output while they are the same.
 *
 * @example
 * ```ts
 * import { gitConfigStamp } from "./_git_wait_files.ts";
 * gitConfigStamp(Deno.cwd()); // "/etc/gitconfig:…\0/root/.gitconfig:…\0…"
 * ```
 */
export function gitConfigStamp(cwd: string): string {
  const stamps: string[] = [];
  walkConfig(gitFolders(cwd), (path, info) => {
    stamps.push(`${path}:${info.size}:${info.mtime?.getTime()}:${info.ino}`);
    return undefined;
  });
  return stamps.join("\0");
}

/**
 * Visit each config file git reads (includes too, those git follows), until `visit` gives an
 * answer, which is returned.
 */
function walkConfig(
  folders: GitFolders,
  visit: (path: string, info: Deno.FileInfo, from?: string) => string | undefined,
): string | undefined {
  const seen = new Set<string>();
  const context = { gitDir: folders.gitDir, home: env("HOME") };
  const look = (path: string, depth: number, from?: string): string | undefined => {
    if (seen.has(path) || depth > MAX_DEPTH) return undefined;
    seen.add(path);
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch {
      return undefined; // missing or not looked at: git passes over it too
    }
    const answer = visit(path, info, from);
    if (answer !== undefined || !info.isFile) return answer;
    const settings = configSettings(path, info.size);
    for (const included of includes(settings, { ...context, configPath: path })) {
      const found = look(included, depth + 1, path);
      if (found) return found;
    }
    return undefined;
  };
  for (const path of configFiles(folders)) {
    const found = look(path, 0);
    if (found) return found;
  }
  return undefined;
}

/** The config files git reads in `cwd`, its includes aside: the system's, the user's, the repository's. */
function configFiles({ gitDir, commonDir }: GitFolders): string[] {
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

/** The settings of the config file at `path` (`size` bytes when looked at); none when unread. */
function configSettings(path: string, size: number): GitSetting[] {
  try {
    // Read up to the size it had (and a little more, should it have grown since): a buffer of
    // the whole limit for each file cost 0.4 s a git call with 3,000 small includes.
    return gitSettings(readSettingTextSync(path, Math.min(CONFIG_LIMIT, size + SIZE_SLACK)));
  } catch {
    return [];
  }
}

/**
 * The files a config file's `include.path` settings name, and its `includeIf.<condition>.path`
 * ones whose condition holds in `context` (`_git_include_if.ts`: git opens no other), resolved as
 * git does: `~/` from the home folder, a relative path from the including file's folder.
 */
function includes(settings: GitSetting[], context: IncludeContext): string[] {
  const out: string[] = [];
  for (const { section, subsection, key, value } of settings) {
    if (key !== "path" || !value) continue;
    const followed = section === "include"
      ? subsection === undefined
      : section === "includeif" && subsection !== undefined &&
        followsIncludeIf(subsection, context);
    if (!followed) continue;
    const home = context.home;
    out.push(
      value.startsWith("~/") && home
        ? join(home, value.slice(2))
        : isAbsolute(value)
        ? value
        : resolve(dirname(context.configPath), value),
    );
  }
  return out;
}
