/**
 * The state dir (`.slop/` by default, `--state-dir` or `SLOP_DIR`): machine
 * state that is never committed. Its first write leaves a `.gitignore` of `*`
 * in it, so the folder never shows in `git status`, wherever it is.
 *
 * @module
 */

import { pathExists } from "./helpers.ts";
import { dirname, isWithin, join, shownPath } from "./_path.ts";

/** What slop writes into a state dir's `.gitignore`. */
export const STATE_GITIGNORE = "# slop's machine state (outputs, cache): never committed\n*\n";

/**
 * Make the state dir with a `.gitignore` of `*` in it, unless it has one (a
 * file of the user's is never replaced: an empty one keeps the folder
 * visible to git). Never in the root or a folder above it, which the
 * `.gitignore` would hide. Quiet when it cannot write: the build's own
 * writes report that.
 *
 * @example
 * ```ts
 * import { markStateDir } from "./state_dir.ts";
 * const root = await Deno.makeTempDir();
 * markStateDir(`${root}/.slop`, root);
 * Deno.readTextFileSync(`${root}/.slop/.gitignore`).endsWith("*\n"); // true
 * ```
 */
export function markStateDir(stateDir: string, root: string): StateMark | undefined {
  // A state dir that is the root or above it is never marked (the project would be hidden).
  if (isWithin(root, stateDir)) return undefined;
  let made = false;
  let top: string | undefined;
  try {
    top = topMissing(stateDir);
    made = top !== undefined;
    Deno.mkdirSync(stateDir, { recursive: true });
    Deno.writeTextFileSync(join(stateDir, ".gitignore"), STATE_GITIGNORE, { createNew: true });
  } catch (error) {
    // Made now, and not writable by its owner: the umask took the owner's write (0277, 0222).
    if (made && error instanceof Deno.errors.PermissionDenied) unwritableMade(stateDir, root);
    // There already, or a folder that cannot be written (the build says so when it writes).
  }
  return top === undefined ? undefined : { stateDir, top };
}

/** What {@linkcode markStateDir} made: the state dir, and the highest folder it made for it. */
export interface StateMark {
  /** The state dir. */
  stateDir: string;
  /** The highest folder made (the state dir itself, or a folder above it). */
  top: string;
}

/** The highest folder of `dir` and those above it that is not there; undefined when `dir` is. */
function topMissing(dir: string): string | undefined {
  let top: string | undefined;
  for (let at = dir; !pathExists(at); at = dirname(at)) {
    top = at;
    if (dirname(at) === at) break;
  }
  return top;
}

/**
 * Take back what {@linkcode markStateDir} made, for a build that failed before it wrote anything:
 * the folders it made, while they hold nothing but its `.gitignore` and empty folders (a failed
 * build leaves the project as it was). Anything else in them (another process's write) keeps them.
 *
 * @example
 * ```ts
 * import { markStateDir, unmarkStateDir } from "./state_dir.ts";
 * const root = await Deno.makeTempDir();
 * unmarkStateDir(markStateDir(`${root}/.slop`, root));
 * // `${root}/.slop` is gone again
 * ```
 */
export function unmarkStateDir(mark: StateMark | undefined): void {
  if (mark === undefined) return;
  const gitignore = join(mark.stateDir, ".gitignore");
  const onlyMarks = (dir: string): boolean => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory && !entry.isSymlink) {
        if (!onlyMarks(path)) return false;
      } else if (path !== gitignore || Deno.readTextFileSync(path) !== STATE_GITIGNORE) {
        return false;
      }
    }
    return true;
  };
  try {
    if (onlyMarks(mark.top)) Deno.removeSync(mark.top, { recursive: true });
  } catch {
    // Changed meanwhile, or not readable: left as it is.
  }
}

/**
 * A state dir this build made that its owner cannot write (each of the build's writes would fail
 * with "permission denied", named as another folder's fault): removed, and one error naming it
 * and the umask.
 */
function unwritableMade(stateDir: string, root: string): void {
  let mode: number | null;
  try {
    mode = Deno.statSync(stateDir).mode;
  } catch {
    return; // Not made after all (a folder that takes no new folders): the build's writes say so.
  }
  if (mode === null || (mode & 0o200) !== 0) return;
  try {
    Deno.removeSync(stateDir);
  } catch {
    // Left as it is: the error names it.
  }
  const umask = (~mode & 0o777).toString(8).padStart(4, "0");
  throw new Error(
    `Cannot use the state dir "${shownPath(stateDir, root)}": the umask (${umask}) made it ` +
      "without write permission for its owner, so slop cannot write its outputs, cache or order " +
      "memory in it: set a umask that keeps it (umask 022), or pass --state-dir to a folder you " +
      "can write",
  );
}
