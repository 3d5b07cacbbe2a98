/**
 * What the stages use of a file's `lstat`: its kind, size and fingerprint
 * (device, inode, modification and change times), as plain numbers. A
 * `Deno.FileInfo` has twenty fields and four `Date`s (about 700 bytes held);
 * the resolve stage looks at every file once and the read stage takes those
 * looks instead of looking again, so on a big tree they are held together:
 * this record is about a sixth of that.
 *
 * @module
 */

/** A file's kind, size and fingerprint, from its `lstat` (see {@linkcode fileStat}). */
export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  /** Size in bytes. */
  size: number;
  /** Modification time in ms (0 where the platform has none). */
  mtime: number;
  /** Change time in ms (whole seconds from Deno; 0 where the platform has none). */
  ctime: number;
  /** Device (`null` where the platform has none, as on Windows). */
  dev: number | null;
  /** Inode (`null` where the platform has none, as on Windows). */
  ino: number | null;
}

/**
 * The {@linkcode FileStat} of a `Deno.FileInfo`.
 *
 * @example
 * ```ts
 * import { fileStat } from "./file_stat.ts";
 * fileStat(Deno.lstatSync(".")).isDirectory; // true
 * ```
 */
export function fileStat(info: Deno.FileInfo): FileStat {
  return {
    isFile: info.isFile,
    isDirectory: info.isDirectory,
    isSymlink: info.isSymlink,
    size: info.size,
    mtime: info.mtime?.getTime() ?? 0,
    ctime: info.ctime?.getTime() ?? 0,
    dev: info.dev,
    ino: info.ino,
  };
}

/**
 * The {@linkcode FileStat} of `path` itself (a symbolic link is not followed), synchronously:
 * a few microseconds, where an awaited look costs a task turn.
 *
 * @example
 * ```ts
 * import { lstatFile } from "./file_stat.ts";
 * lstatFile(".").isDirectory; // true
 * ```
 */
export function lstatFile(path: string): FileStat {
  return fileStat(Deno.lstatSync(path));
}
