/**
 * The Deno permissions a build needs, looked at before it starts: a program using slop as a
 * library (`deno run --allow-read=. app.ts`) got Deno's stack from deep inside (`Requires env
 * access to "SLOP_DIR"` in `loadConfig`, a worker's uncaught error beside a build that went on,
 * a plugin error for the order memory's write). Now the first permission missing is one line
 * that names it, its flag and why. git (`--allow-run=git`) is not needed: without it, the build
 * lists the files itself and says so in a warning. Listed in docs/install.md, "Permissions".
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { dirname } from "./_path.ts";

/** slop's own folder: its workers load its modules from there. */
const SLOP_FOLDER = import.meta.url.startsWith("file:")
  ? dirname(dirname(fileURLToPath(import.meta.url)))
  : undefined;

/** Where the permissions slop needs are listed. */
const SEE = 'see "Permissions" in docs/install.md';

/**
 * Throw one line naming the first permission missing for `loadConfig` in `root`: environment
 * access (slop reads `SLOP_DIR`, `HOME`, `TMPDIR` and its `SLOP_*` settings) and read access to
 * the project.
 *
 * @example
 * ```ts
 * import { checkConfigPermissions } from "./_permissions.ts";
 * checkConfigPermissions(Deno.cwd()); // throws without --allow-env
 * ```
 */
export function checkConfigPermissions(root: string): void {
  if (!granted({ name: "env" })) {
    throw new Error(
      "No environment access (--allow-env): slop reads SLOP_DIR, HOME, TMPDIR and its " +
        `SLOP_* settings; ${SEE}`,
    );
  }
  needRead(root, "the project's files");
}

/**
 * Throw one line naming the first permission missing for a build: read access to slop's own
 * folder (its workers load its modules) and to the project, write access to `writes` (the state
 * dir or cache folder the build writes), when it writes.
 *
 * @example
 * ```ts
 * import { checkBuildPermissions } from "./_permissions.ts";
 * checkBuildPermissions(Deno.cwd(), [Deno.cwd() + "/.slop"]);
 * ```
 */
export function checkBuildPermissions(root: string, writes: string[]): void {
  checkConfigPermissions(root);
  if (SLOP_FOLDER) needRead(SLOP_FOLDER, "slop's own modules, which its workers load");
  for (const path of writes) {
    if (granted({ name: "write", path })) continue;
    throw new Error(
      `No write access to "${path}" (--allow-write=${path}): a build keeps its order ` +
        "memory, cache and outputs there (a build with remember: false, write: false and " +
        `cache.enabled false writes nothing); ${SEE}`,
    );
  }
}

function needRead(path: string, what: string): void {
  if (granted({ name: "read", path })) return;
  throw new Error(`No read access to "${path}" (--allow-read=${path}): ${what}; ${SEE}`);
}

/** Whether `permission` is granted now (a prompt would not be: it stops a build half way). */
function granted(permission: Deno.PermissionDescriptor): boolean {
  try {
    return Deno.permissions.querySync(permission).state === "granted";
  } catch {
    return true; // A runtime that cannot say: Deno's own error, if any, tells.
  }
}
