/**
 * git reads every `.gitignore` of the folders it lists untracked files in, and `.git/info/exclude`,
 * with a plain open: a FIFO there (or a link to a device, `.gitignore -> /dev/zero`) holds it until
 * its deadline (30 s), and the build then blamed a slow pattern. So a listing that reads them
 * looks first at the root's two files, and, when git has not answered within a second, for any
 * `.gitignore` in the tree that is no regular file: git is then stopped, and the caller names the
 * file. These are the files slop reads for itself (`NOT_REGULAR` in `helpers.ts`).
 *
 * @module
 */

import { join } from "./_path.ts";

/** How long git may list before the tree is looked at for a `.gitignore` that is no file. */
const PROBE_MS = 1000;

/** The ignore files, root-relative, that are no regular file: git would wait on them. */
export interface NotRegularIgnores {
  notRegular: string[];
}

/**
 * Run a git listing that reads the ignore files (`--exclude-standard`), given as `list` (which
 * stops git when `signal` aborts): its answer, or the ignore files that are no regular file (then
 * git was not run, or was stopped).
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
): Promise<T | NotRegularIgnores> {
  const upFront = [".gitignore", ".git/info/exclude"].filter((p) => !regular(join(root, p)));
  if (upFront.length) return { notRegular: upFront };
  const stop = new AbortController();
  const listing = list(stop.signal);
  // The look at the tree starts only when git is slow, and stops as soon as git answers, so a
  // build whose git answers late waits at most one slice of it (`SLICE_MS`), never a whole walk.
  const done = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let probing: Promise<string[]> | undefined;
  const probe = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve(probing = notRegularIgnores(root, done.signal)), PROBE_MS);
  });
  const first = await Promise.race([
    listing.then((out) => ({ out }), (error) => ({ error })),
    probe.then((found) => ({ found })),
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

/** Whether `answer` is {@linkcode guardedListing}'s ignore files that are no regular file. */
export function isBlocked(answer: unknown): answer is NotRegularIgnores {
  return typeof answer === "object" && answer !== null && "notRegular" in answer;
}

/**
 * The warning, or error text, for ignore files git cannot read.
 *
 * @example
 * ```ts
 * import { notRegularIgnoreText } from "./_git_ignore_files.ts";
 * notRegularIgnoreText(["sub/.gitignore"]); // 'Cannot read "sub/.gitignore": it is not a regular file …'
 * ```
 */
export function notRegularIgnoreText(paths: string[]): string {
  const named = paths.map((p) => `"${p}"`).join(", ");
  return `Cannot read ${named}: it is not a regular file (a FIFO, socket or device), which ` +
    "slop does not read and git would wait on: put a file in its place";
}

/** How long the look at the tree runs before it lets git's answer in. */
const SLICE_MS = 20;

/**
 * The `.gitignore` files under `root` that are no regular file, found by listing folders (not
 * `.git`, not through links, as git lists them) until `stop` aborts. Ignore rules are not
 * applied: this runs only when git is slow, and a FIFO is named even in a folder git skips.
 */
async function notRegularIgnores(root: string, stop: AbortSignal): Promise<string[]> {
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
      } else if (entry.name === ".gitignore" && !entry.isFile && !regular(join(root, path))) {
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
