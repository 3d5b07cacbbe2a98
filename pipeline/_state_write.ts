/**
 * A state dir slop cannot write: read-only (a read-only checkout, a container's mount), full,
 * another user's, or a file. The document does not depend on what a build records there afterwards (the
 * order memory), so such a failure is a warning; it says how to give slop a folder it can write.
 *
 * @module
 */

/**
 * The system error codes of a folder that takes no writes, a file where it should be, or a folder
 * where a state file should be (`EISDIR`: a folder left in the place of the order memory), and of
 * a path the file system cannot hold (a name over 255 bytes, a loop of links on the way) or a disk
 * that fails.
 */
const UNWRITABLE = new Set([
  "EROFS",
  "ENOSPC",
  "EDQUOT",
  "EACCES",
  "EPERM",
  "ENOTDIR",
  "EEXIST",
  "EISDIR",
  "ENAMETOOLONG",
  "ELOOP",
  "EFBIG",
  "EMLINK",
  "EIO",
]);

/**
 * Why `error` (or an error it wraps) is a write the file system refused, in a few words
 * (`read-only file system`), or undefined for any other error.
 *
 * @example
 * ```ts
 * import { unwritableReason } from "./_state_write.ts";
 * const error = Object.assign(new Error("Read-only file system (os error 30): mkdir '/p'"), {
 *   code: "EROFS",
 * });
 * unwritableReason(error); // "read-only file system"
 * ```
 */
export function unwritableReason(error: unknown): string | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (at instanceof Deno.errors.IsADirectory) {
      return "a folder is in the place of one of its files";
    }
    if (at instanceof Deno.errors.PermissionDenied || UNWRITABLE.has(String(code))) {
      const reason = at.message.replace(/ \(os error \d+\).*$/s, "").replace(/^.*: /s, "");
      return reason.charAt(0).toLowerCase() + reason.slice(1);
    }
  }
  return undefined;
}

/**
 * The warning of a build whose order memory could not be written to `stateDir`.
 *
 * @example
 * ```ts
 * import { orderMemoryWarning } from "./_state_write.ts";
 * orderMemoryWarning(".slop", "read-only file system");
 * ```
 */
export function orderMemoryWarning(stateDir: string, reason: string): string {
  return `Cannot record the order memory in "${stateDir}" (${reason}): the document is whole, ` +
    "but the next build orders the files without this one; pass --state-dir or set SLOP_DIR " +
    "to a folder you can write";
}
