/**
 * Reading a file slop reads for itself, not to bundle it: a `.gitignore` outside git, `slop.lock`,
 * the slices file, `.beads/issues.jsonl`, a history file, a prompt template. Such a path may name
 * a FIFO, a socket or a device (`.gitignore -> /dev/zero`): reading one waits for a writer that
 * never comes, or never ends. Bundled files are checked the same way in the read stage (`not a
 * regular file`); these are checked here, before they are opened.
 *
 * @module
 */

/** Why a path that is no regular file is not read. */
export const NOT_REGULAR =
  "it is not a regular file (a FIFO, socket or device), which slop does not read: " +
  "put a file in its place";

/** The error a setting path that is no regular file throws; its message is {@linkcode NOT_REGULAR}. */
export class NotRegularFileError extends Error {
  constructor() {
    super(NOT_REGULAR);
    this.name = "NotRegularFileError";
  }
}

/**
 * A setting file's text. A missing file throws `Deno.errors.NotFound` and a folder
 * `Deno.errors.IsADirectory`, as `Deno.readTextFile` does; anything else that is not a regular
 * file (followed through symbolic links) throws {@linkcode NotRegularFileError} without being
 * opened.
 *
 * @example
 * ```ts
 * import { readSettingText } from "./setting_file.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "dist/\n");
 * await readSettingText(path); // "dist/\n"
 * await readSettingText("/dev/zero").catch((e) => e.message); // "it is not a regular file (…"
 * ```
 */
export async function readSettingText(path: string): Promise<string> {
  checkRegular(await Deno.stat(path));
  return await Deno.readTextFile(path);
}

/**
 * Throw {@linkcode NotRegularFileError} when `info` (of a stat that follows links) is neither a
 * file nor a folder.
 *
 * @example
 * ```ts
 * import { checkRegular } from "./setting_file.ts";
 * checkRegular(Deno.statSync("/dev/null")); // throws NotRegularFileError
 * ```
 */
export function checkRegular(info: Deno.FileInfo): void {
  if (!info.isFile && !info.isDirectory) throw new NotRegularFileError();
}
