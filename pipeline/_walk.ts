/**
 * The file listing outside a git work tree: a walk of the folder that honours nested
 * `.gitignore` files and `.git/info/exclude` as git does.
 *
 * @module
 */

import { join } from "./_path.ts";
import { ignoreMatch, type IgnoreRules, parseIgnore } from "./_gitignore.ts";
import { comparePaths } from "./helpers.ts";
import {
  DEFAULT_EXCLUDED_DIRS,
  EXCLUDED_DIR_REASON,
  UNDECODABLE,
  unlistedReason,
} from "./_default_skips.ts";
import { readSettingText } from "./helpers.ts";

/**
 * Walk `root` honouring nested `.gitignore` files and `.git/info/exclude`
 * the way git does (a deeper file overrides a shallower one; an excluded
 * folder is never entered). Symlinks are listed, never followed. A rules file that cannot be
 * read (a FIFO, a device, a folder) goes into `unread` with the reason.
 */
export async function walk(
  root: string,
  unlisted?: Map<string, string>,
  unread?: Map<string, string>,
): Promise<string[]> {
  const out: string[] = [];
  const rootMatchers: Array<{ dir: string; ig: IgnoreRules }> = [];
  const info = await readIgnore(root, ".git/info/exclude", unread);
  if (info) rootMatchers.push({ dir: "", ig: info });
  async function visit(dir: string, matchers: Array<{ dir: string; ig: IgnoreRules }>) {
    const abs = dir ? join(root, dir) : root;
    let entries: Deno.DirEntry[];
    try {
      // One synchronous listing: an awaited one costs a task turn for each entry.
      entries = [...Deno.readDirSync(abs)];
    } catch (error) {
      // A folder whose name is not valid UTF-8 cannot be opened: it is listed (and skipped, with
      // the reason) in place of its files. So is one that cannot be listed for another reason
      // (a path past the system's length limit, an I/O error), unless it is gone.
      if (dir.includes(UNDECODABLE)) out.push(dir);
      else if (dir && unlisted && !(error instanceof Deno.errors.NotFound)) {
        unlisted.set(dir, unlistedReason(error));
        out.push(dir);
      }
      return;
    }
    // A `.gitignore` is read where the listing has one (no failed read in every folder).
    const listed = entries.some((e) => e.name === ".gitignore");
    const own = listed
      ? await readIgnore(root, dir ? `${dir}/.gitignore` : ".gitignore", unread)
      : undefined;
    const stack = own ? [...matchers, { dir, ig: own }] : matchers;
    entries.sort((a, b) => comparePaths(a.name, b.name));
    for (const e of entries) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      const isDir = e.isDirectory;
      if (DEFAULT_EXCLUDED_DIRS.includes(e.name)) {
        // Never entered; listed (but for git's own store) as a folder left out, with the reason.
        if (unlisted && isDir && e.name !== ".git" && !ignored(rel, isDir, stack)) {
          unlisted.set(rel, EXCLUDED_DIR_REASON);
          out.push(rel);
        }
        continue;
      }
      if (ignored(rel, isDir, stack)) continue;
      if (isDir) await visit(rel, stack);
      else out.push(rel);
    }
  }
  await visit("", rootMatchers);
  return out;
}

function ignored(
  rel: string,
  isDir: boolean,
  stack: Array<{ dir: string; ig: IgnoreRules }>,
): boolean {
  let state = false;
  for (const { dir, ig } of stack) {
    const sub = dir ? rel.slice(dir.length + 1) : rel;
    const result = ignoreMatch(ig, sub, isDir);
    if (result) state = result === "ignored";
  }
  return state;
}

/**
 * The rules of the file at `rel` (a project path) under `root`. One that is missing gives none;
 * one that cannot be read (a FIFO, a device, a folder, too large) gives none too, and its
 * reason goes into `unread` by its path, for the listing to warn of.
 */
async function readIgnore(
  root: string,
  rel: string,
  unread?: Map<string, string>,
): Promise<IgnoreRules | undefined> {
  let text: string;
  try {
    text = await readSettingText(join(root, ...rel.split("/")));
  } catch (error) {
    // Missing, or under a file (`.git` a file naming a worktree): no rules, nothing to say.
    const absent = error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.NotADirectory;
    if (!absent) {
      unread?.set(rel, error instanceof Error ? error.message : String(error));
    }
    return undefined;
  }
  // Matched by slop's own matcher (linear in the path for any pattern): the regular expressions
  // of the `ignore` package took minutes on `**/**/**/...` against a deep path.
  const rules = parseIgnore(text);
  return rules.rules.length ? rules : undefined;
}
