/**
 * The state dir (`.slop/` by default, `--state-dir` or `SLOP_DIR`): machine
 * state that is never committed. Its first write leaves a `.gitignore` of `*`
 * in it, so the folder never shows in `git status`, wherever it is.
 *
 * @module
 */

import { pathExists } from "./helpers.ts";
import { isWithin, join, shownPath } from "./_path.ts";

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
export function markStateDir(stateDir: string, root: string): void {
  // A state dir that is the root or above it is never marked (the project would be hidden).
  if (isWithin(root, stateDir)) return;
  let made = false;
  try {
    made = !pathExists(stateDir);
    Deno.mkdirSync(stateDir, { recursive: true });
    Deno.writeTextFileSync(join(stateDir, ".gitignore"), STATE_GITIGNORE, { createNew: true });
  } catch (error) {
    // Made now, and not writable by its owner: the umask took the owner's write (0277, 0222).
    if (made && error instanceof Deno.errors.PermissionDenied) unwritableMade(stateDir, root);
    // There already, or a folder that cannot be written (the build says so when it writes).
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
