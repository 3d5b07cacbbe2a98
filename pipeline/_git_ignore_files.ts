/**
 * git reads every `.gitignore` of the folders it lists untracked files in, `.git/info/exclude` and
 * the file `core.excludesFile` names (by default `~/.config/git/ignore`), with a plain open: a FIFO
 * there (or a link to a device, `.gitignore -> /dev/zero`) holds it until its deadline (30 s), and
 * the build then blamed a slow pattern. So a listing that reads them looks first at the root's two
 * files, and, when git has not answered within a second, for any `.gitignore` in the tree and the
 * file of `core.excludesFile` that is no regular file: git is then stopped, and the caller names
 * the file. These are the files slop reads for itself (`NOT_REGULAR` in `_setting_file.ts`).
 * `git check-attr` is guarded the same way for `core.attributesFile` ({@linkcode guardedGit}).
 *
 * @module
 */

import { isAbsolute, join, relative } from "./_path.ts";
import { gitFolders } from "./git_folders.ts";

/** How long git may run before the files it reads are looked at for one that is no file. */
const PROBE_MS = 1000;

/**
 * The files git would wait on, each as named in a message: a root-relative path in quotes
 * (`"sub/.gitignore"`), or a file a git setting names, with the setting
 * (`"/home/me/ignore" (git's core.excludesFile)`).
 */
export interface NotRegularIgnores {
  notRegular: string[];
}

/** Reads git's config in the project's folder: `git config …`'s output, undefined when it fails. */
export type GitConfigRead = (args: string[]) => Promise<string | undefined>;

/**
 * Run a git listing that reads the ignore files (`--exclude-standard`), given as `list` (which
 * stops git when `signal` aborts): its answer, or the ignore files that are no regular file (then
 * git was not run, or was stopped). With `options.config`, the file `core.excludesFile` names is
 * looked at too.
 *
 * @example
 * ```ts
 * import { guardedListing } from "./_git_ignore_files.ts";
 * const answer = await guardedListing(Deno.cwd(), async (signal) => {
 *   const args = ["ls-files", "-o", "--exclude-standard"];
 *   return await new Deno.Command("git", { args, signal }).output();
 * });
 * ```
 */
export async function guardedListing<T>(
  root: string,
  list: (signal: AbortSignal) => Promise<T>,
  options: { config?: GitConfigRead } = {},
): Promise<T | NotRegularIgnores> {
  const upFront = [".gitignore", ".git/info/exclude"].filter((p) => !regular(join(root, p)))
    .map((p) => `"${p}"`);
  upFront.push(...notRegularAbove(root, ".gitignore", "exclude"));
  if (upFront.length) return { notRegular: upFront };
  const config = options.config;
  return await guardedGit(list, async (signal) => [
    ...(await notRegularInTree(root, ".gitignore", signal)).map((p) => `"${p}"`),
    ...(config ? await configuredNotRegular(root, "core.excludesFile", config) : []),
  ]);
}

/**
 * Run git (`run`, which stops git when its signal aborts); when it has not answered within a
 * second, `probe` looks for the files it reads that are no regular file (ending its look when
 * git answers first). Git's answer, or those files' names (then git was stopped).
 *
 * @example
 * ```ts
 * import { configuredNotRegular, guardedGit } from "./_git_ignore_files.ts";
 * const read = async (args: string[]) => {
 *   const out = await new Deno.Command("git", { args, stdout: "piped" }).output();
 *   return out.success ? new TextDecoder().decode(out.stdout) : undefined;
 * };
 * const answer = await guardedGit(
 *   (signal) => new Deno.Command("git", { args: ["check-attr", "-a", "a.ts"], signal }).output(),
 *   () => configuredNotRegular(Deno.cwd(), "core.attributesFile", read),
 * );
 * ```
 */
export async function guardedGit<T>(
  run: (signal: AbortSignal) => Promise<T>,
  probe: (stop: AbortSignal) => Promise<string[]>,
): Promise<T | NotRegularIgnores> {
  const stop = new AbortController();
  const listing = run(stop.signal);
  // The look starts only when git is slow, and stops as soon as git answers, so a build whose
  // git answers late waits at most one slice of it (`SLICE_MS`), never a whole walk.
  const done = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let probing: Promise<string[]> | undefined;
  const looked = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve(probing = probe(done.signal)), PROBE_MS);
  });
  const first = await Promise.race([
    listing.then((out) => ({ out }), (error) => ({ error })),
    looked.then((found) => ({ found })),
  ]);
  clearTimeout(timer);
  if (!("found" in first)) {
    done.abort();
    await probing; // a look under way ends (within a slice) before the build goes on
    if ("error" in first) throw first.error;
    return first.out;
  }
  if (!first.found.length) return await listing;
  stop.abort();
  await listing.catch(() => {});
  return { notRegular: first.found };
}

/**
 * The file git reads for `key` (`core.excludesFile`, `core.attributesFile`): the one the setting
 * names (a relative one from the work tree's top, as git reads it), else git's default
 * (`$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`, `attributes` for the other), named
 * with the setting when it is no regular file; else none.
 *
 * @example
 * ```ts
 * import { configuredNotRegular } from "./_git_ignore_files.ts";
 * const read = async (args: string[]) => {
 *   const out = await new Deno.Command("git", { args, stdout: "piped" }).output();
 *   return out.success ? new TextDecoder().decode(out.stdout) : undefined;
 * };
 * await configuredNotRegular(Deno.cwd(), "core.excludesFile", read); // [] for a plain file
 * ```
 */
export async function configuredNotRegular(
  root: string,
  key: "core.excludesFile" | "core.attributesFile",
  config: GitConfigRead,
): Promise<string[]> {
  const set = (await config(["config", "-z", "--path", "--get", key]))?.split("\0")[0];
  let path = set || defaultFile(key === "core.excludesFile" ? "ignore" : "attributes");
  if (!path) return [];
  if (!isAbsolute(path)) {
    const top = (await config(["rev-parse", "--show-toplevel"]))?.trim();
    path = join(top || root, path);
  }
  return regular(path) ? [] : [`"${path}" (git's ${key})`];
}

/** git's own place for a file of its user's (`ignore`, `attributes`) when no setting names one. */
function defaultFile(name: string): string | undefined {
  try {
    const xdg = Deno.env.get("XDG_CONFIG_HOME");
    if (xdg) return join(xdg, "git", name);
    const home = Deno.env.get("HOME");
    return home ? join(home, ".config", "git", name) : undefined;
  } catch {
    return undefined; // no --allow-env: git's default cannot be found
  }
}

/**
 * The files git reads attributes from (`.gitattributes` in the tree, `.git/info/attributes`, the
 * file `core.attributesFile` names) that are no regular file, named as
 * {@linkcode NotRegularIgnores} names them: {@linkcode guardedGit}'s look for a git that reads
 * attributes (`check-attr`, a `diff` against the work tree).
 *
 * @example
 * ```ts
 * import { notRegularAttributes } from "./_git_ignore_files.ts";
 * const read = async (args: string[]) => {
 *   const out = await new Deno.Command("git", { args, stdout: "piped" }).output();
 *   return out.success ? new TextDecoder().decode(out.stdout) : undefined;
 * };
 * await notRegularAttributes(Deno.cwd(), read, new AbortController().signal); // []
 * ```
 */
export async function notRegularAttributes(
  root: string,
  config: GitConfigRead,
  stop: AbortSignal,
): Promise<string[]> {
  const info = regular(join(root, ".git/info/attributes")) ? [] : [".git/info/attributes"];
  return [
    ...[...await notRegularInTree(root, ".gitattributes", stop), ...info].map((p) => `"${p}"`),
    ...notRegularAbove(root, ".gitattributes", "attributes"),
    ...await configuredNotRegular(root, "core.attributesFile", config),
  ];
}

/**
 * The files named `name` in the folders between the root and the top of the work tree it is a
 * folder of (a monorepo's package built alone), and the work tree's `info/<info>`: git reads them
 * for the root's files too. Those that are no regular file, named from the root
 * (`"../.gitattributes"`); none when the root is the top (or in no work tree).
 *
 * @example
 * ```ts
 * import { notRegularAbove } from "./_git_ignore_files.ts";
 * notRegularAbove(Deno.cwd(), ".gitattributes", "attributes"); // [] for plain files
 * ```
 */
export function notRegularAbove(
  root: string,
  name: ".gitignore" | ".gitattributes",
  info: "exclude" | "attributes",
): string[] {
  const { top, commonDir } = gitFolders(root);
  if (top === undefined) return [];
  const paths = [join(commonDir, "info", info)];
  let at: string;
  try {
    at = Deno.realPathSync(root);
  } catch {
    return [];
  }
  // From the root's parent up to the top, as git reads them from the top down.
  for (let up = join(at, "..");; up = join(up, "..")) {
    paths.push(join(up, name));
    if (up === top || up === join(up, "..")) break;
  }
  return paths.filter((path) => !regular(path)).map((path) => `"${relative(root, path)}"`);
}

/** Whether `answer` is {@linkcode guardedListing}'s ignore files that are no regular file. */
export function isBlocked(answer: unknown): answer is NotRegularIgnores {
  return typeof answer === "object" && answer !== null && "notRegular" in answer;
}

/**
 * The warning, or error text, for files git cannot read (ignore or attribute files), each named as
 * {@linkcode NotRegularIgnores} names them; `instead`, when given, says what the build does
 * without them.
 *
 * @example
 * ```ts
 * import { notRegularIgnoreText } from "./_git_ignore_files.ts";
 * notRegularIgnoreText(['"sub/.gitignore"']); // 'Cannot read "sub/.gitignore": it is not a regular file …'
 * ```
 */
export function notRegularIgnoreText(named: string[], instead?: string): string {
  return `Cannot read ${named.join(", ")}: it is not a regular file (a FIFO, socket or device), ` +
    `which slop does not read and git would wait on: ${instead ? `${instead}; ` : ""}` +
    "put a file in its place";
}

/** How long the look at the tree runs before it lets git's answer in. */
const SLICE_MS = 20;

/**
 * The files named `name` (`.gitignore`, `.gitattributes`) under `root` that are no regular file,
 * found by listing folders (not `.git`, not through links, as git lists them) until `stop` aborts.
 * Ignore rules are not applied: this runs only when git is slow, and a FIFO is named even in a
 * folder git skips.
 */
async function notRegularInTree(
  root: string,
  name: ".gitignore" | ".gitattributes",
  stop: AbortSignal,
): Promise<string[]> {
  const found: string[] = [];
  const folders = [""];
  let slice = performance.now();
  while (folders.length && !stop.aborted) {
    const folder = folders.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(folder ? join(root, folder) : root)];
    } catch {
      continue; // a folder that cannot be listed is git's to report
    }
    for (const entry of entries) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (path !== ".git") folders.push(path);
      } else if (entry.name === name && !entry.isFile && !regular(join(root, path))) {
        found.push(path);
      }
    }
    if (performance.now() - slice > SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      slice = performance.now();
    }
  }
  return found.sort();
}

/** Whether `path` is a regular file, a folder or missing: anything but a FIFO, socket or device. */
function regular(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile || info.isDirectory;
  } catch {
    return true;
  }
}
