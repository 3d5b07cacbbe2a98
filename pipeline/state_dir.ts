/**
 * The state dir (`.slop/` by default, `--state-dir` or `SLOP_DIR`): machine
 * state that is never committed. Its first write leaves a `.gitignore` of `*`
 * in it, so the folder never shows in `git status`, wherever it is.
 *
 * @module
 */

import { isWithin, join } from "./_path.ts";

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
  try {
    Deno.mkdirSync(stateDir, { recursive: true });
    Deno.writeTextFileSync(join(stateDir, ".gitignore"), STATE_GITIGNORE, { createNew: true });
  } catch {
    // There already, or a folder that cannot be written (the build says so when it writes).
  }
}
