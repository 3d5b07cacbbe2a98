/**
 * The read stage's look at the disk: a file's bytes read safely ({@linkcode readBytes}: opened
 * without waiting and without following a link, checked to be where it was looked for
 * ({@linkcode placeCheck}), at most its limit), a symbolic link followed where it may be
 * ({@linkcode followLink}), and a failure in plain words. A part of `read.ts`.
 *
 * @module
 */

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { errorText } from "./error_text.ts";
import { sep } from "./_path.ts";
import type { ResolvedConfig, Target } from "./types.ts";
import { type FileStat, fileStat } from "./file_stat.ts";
import { linkTargetSkip } from "./_link_targets.ts";

/**
 * What a symbolic link leads to, when it may be read: its target's info, or why not.
 *
 * @example
 * ```ts
 * import { followLink } from "./_read_bytes.ts";
 * // const followed = await followLink(target, config); // { info, real }, { skip }, or why not
 * ```
 */
export async function followLink(
  target: Target,
  config: ResolvedConfig,
): Promise<{ info: FileStat; real: string } | { skip: string } | string> {
  let real: string;
  try {
    real = await Deno.realPath(target.absPath);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "broken symbolic link";
    if (error instanceof Deno.errors.FilesystemLoop) return "symbolic link loop";
    if (denied(error)) {
      return `cannot follow symbolic link: ${DENIED}: the user slop runs as may not enter a ` +
        "folder on its way";
    }
    return `cannot follow symbolic link: ${plainMessage(error)}`;
  }
  const realRoot = await Deno.realPath(config.root).catch(() => config.root);
  // A link to the root folder itself (`a/up -> ..`) stays inside: it is a folder of the project.
  const inside = real === realRoot ||
    real.startsWith(withSep(realRoot));
  if (!config.allowOutsideRoot && !inside) {
    return "symbolic link leaves the root (set allowOutsideRoot to allow it)";
  }
  // A link to a file the defaults leave out (`.env`, `.git/config`) is left out as its target.
  const skip = linkTargetSkip(real, realRoot, target.explicit);
  if (skip) return { skip };
  let info: FileStat;
  try {
    info = fileStat(await Deno.stat(target.absPath));
  } catch (error) {
    return readError(error); // removed or changed since it was followed
  }
  // A link to a folder (serde's `serde/src/core -> ../../serde_core/src`) is not followed: a
  // folder in the project has its files read by their own paths, so the reason says where they
  // are rather than "is a directory", which reads as a fault of the listing.
  if (info.isDirectory) {
    return {
      skip: inside
        ? "a symbolic link to a folder of the project, whose files are read by their own paths"
        : "a symbolic link to a folder outside the project (links to folders are not followed)",
    };
  }
  return { info, real };
}

/** What {@linkcode readBytes} found: the bytes, or a file that is no longer one to read. */
export type BytesRead =
  | { bytes: Uint8Array }
  | { skip: string }
  | { grewTo: number }
  | { changed: true }
  | string;

/**
 * A file's bytes, or why they are not read. Only what was opened is trusted: the file may have
 * changed since it was looked at (a checkout, a generator). It is opened without waiting
 * (`O_NONBLOCK`: a FIFO put in its place would hold the open until a writer came), and without
 * following a symbolic link (`O_NOFOLLOW`: one put in its place may lead out of the root, or to
 * a file the defaults leave out; the caller checks it as a link, `changed`), at most
 * `limit` bytes and one more are read (a file that grew by gigabytes, a link to `/dev/zero`),
 * and when the bytes read are not the `size` it was looked at with, the open file's own kind
 * decides (a FIFO or a device is not read). The calls are synchronous (an awaited `node:fs` call
 * costs a task turn), and the open file's `fstat` is taken only then, as `node:fs` makes a costly
 * `Stats` for it (bench/README.md, "Correctness hunt: the file system, git and processes").
 *
 * @example
 * ```ts
 * import { readBytes } from "./_read_bytes.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "hi");
 * readBytes(path, { size: 2, limit: 10 }); // { bytes: Uint8Array [104, 105] }
 * ```
 */
export function readBytes(path: string, { size, limit, place }: ReadBytesOptions): BytesRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    // A symbolic link where a file (or a link's checked target) was looked at: not followed.
    if ((error as { code?: unknown }).code === "ELOOP") return { changed: true };
    return readError(error);
  }
  try {
    const refused = place?.(fd, path);
    if (refused !== undefined) return refused;
    let bytes = new Uint8Array(Math.min(size, limit) + 1);
    let at = 0;
    while (true) {
      if (at === bytes.length) {
        if (at > limit) break;
        const more = new Uint8Array(Math.min(bytes.length * 2, limit + 1));
        more.set(bytes);
        bytes = more;
      }
      const n = readSync(fd, bytes, at, bytes.length - at, null);
      if (n === 0) break;
      at += n;
    }
    if (at !== size) {
      // Changed since it was looked at: a FIFO or device in its place, or a file of /proc.
      const info = fstatSync(fd);
      if (!info.isFile()) return { skip: "not a regular file" };
      if (at > limit) return { grewTo: Math.max(at, info.size) };
    }
    return { bytes: at === bytes.length ? bytes : bytes.subarray(0, at) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EISDIR") return { skip: "is a directory" };
    // A FIFO with a writer that has written nothing yet.
    if (code === "EAGAIN" && !isRegular(fd)) return { skip: "not a regular file" };
    return readError(error);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Closed already: nothing was left open.
    }
  }
}

/** Options of {@linkcode readBytes}. */
interface ReadBytesOptions {
  /** The size the file was looked at with. */
  size: number;
  /** Bytes over which it is not read. */
  limit: number;
  /** Why the open file `fd` (opened at `path`) is not read, where it is not where it was looked for. */
  place?: (fd: number, path: string) => BytesRead | undefined;
}

/** Options of {@linkcode placeCheck}. */
interface PlaceOptions {
  /** For a link, the real path of its target (checked already); undefined for a file that is none. */
  linked?: string;
  config: ResolvedConfig;
}

/**
 * A check of where an open file is, against where the read looked for it: `O_NOFOLLOW` refuses a
 * link only as the path's last name, and a folder above the file swapped for a link since it was
 * looked at (a checkout while the build server builds) is followed. The file's real place (the
 * system's own path of the open file, Linux's `/proc/self/fd`) must be in the root and not in a
 * folder every build leaves out; a file opened elsewhere is judged as a link to it. None where
 * the config allows files outside the root, or on Windows (no `O_NOFOLLOW` there either).
 *
 * @example
 * ```ts
 * import { placeCheck } from "./_read_bytes.ts";
 * // const place = placeCheck(target, { config }); // handed to readBytes
 * ```
 */
export function placeCheck(target: Target, { linked, config }: PlaceOptions) {
  if (config.allowOutsideRoot || Deno.build.os === "windows") return undefined;
  return (fd: number, path: string): BytesRead | undefined => {
    const at = openedPath(fd, path);
    if (at === undefined) return { changed: true };
    const expected = (root: string) => linked ?? root + sep + target.path.split("/").join(sep);
    if (at === expected(realRootOf(config))) return undefined;
    // Elsewhere: judged by the root's real path now, not the one taken at an earlier build (a
    // root reached through a link that has been pointed at another checkout since).
    const realRoot = realRootOf(config, { fresh: true });
    if (at === expected(realRoot)) return undefined;
    if (!at.startsWith(withSep(realRoot))) {
      return "a folder on its path is a symbolic link that leaves the root (set allowOutsideRoot " +
        "to allow it)";
    }
    const skip = linkTargetSkip(at, realRoot, target.explicit);
    return skip === undefined ? undefined : { skip };
  };
}

/** Whether `/proc/self/fd` names open files (Linux); false once it did not. */
let procFds = Deno.build.os === "linux";

/**
 * The real path of the open file `fd`, opened at `path`: the system's own (`/proc/self/fd`,
 * one call that no later change of the path can fool), else the real path of `path` when it
 * still leads to the open file (the same device and inode); undefined when it does not.
 */
function openedPath(fd: number, path: string): string | undefined {
  if (procFds) {
    try {
      return Deno.readLinkSync(`/proc/self/fd/${fd}`);
    } catch {
      procFds = false; // no /proc mounted, or not readable: as on other systems
    }
  }
  try {
    const real = Deno.realPathSync(path);
    const now = Deno.statSync(real);
    const open = fstatSync(fd);
    return now.dev === open.dev && now.ino === open.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each config's root folder's real path (a root under a link, macOS's `/tmp`), taken once, and
 * again when `fresh` (a file not found where the one taken says).
 */
const realRoots = new WeakMap<ResolvedConfig, string>();

function realRootOf(config: ResolvedConfig, { fresh = false } = {}): string {
  let real = fresh ? undefined : realRoots.get(config);
  if (real === undefined) {
    try {
      real = Deno.realPathSync(config.root);
    } catch {
      real = config.root;
    }
    realRoots.set(config, real);
  }
  return real;
}

/** Whether the open file `fd` is a regular file (false when that cannot be told). */
function isRegular(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/** The start of the reason of a file its permissions keep from slop. */
const DENIED = "permission denied";

/** Whether `error` is the system refusing access (`EACCES`, `EPERM`). */
function denied(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === "EACCES" || code === "EPERM" || error instanceof Deno.errors.PermissionDenied;
}

/**
 * What an unreadable file of rules slop heeds as it lists the project means for the build: a
 * `.gitignore` it cannot read leaves out nothing (as git does), so the reason says so.
 *
 * @example
 * ```ts
 * import { ruleFileNote } from "./_read_bytes.ts";
 * ruleFileNote(".gitignore", "permission denied: the user slop runs as may not read it");
 * // "; its rules are not applied, so files it would leave out are in the build"
 * ```
 */
export function ruleFileNote(path: string, reason: string): string {
  if (!reason.startsWith(DENIED) || !/(^|\/)\.gitignore$/.test(path)) return "";
  return "; its rules are not applied, so files it would leave out are in the build";
}

/**
 * The reason for a failed look at a file (its `lstat`), in plain words.
 *
 * @example
 * ```ts
 * import { lookError } from "./_read_bytes.ts";
 * lookError(new Deno.errors.NotFound("x")); // "file not found"
 * ```
 */
export function lookError(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "file not found";
  // A folder on its path the user may list but not enter (`chmod a-x`).
  if (denied(error)) return `${DENIED}: the user slop runs as may not enter a folder on its path`;
  return `cannot read file: ${plainMessage(error)}`;
}

/** The reason for a failed open or read, in plain words. */
function readError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT" || error instanceof Deno.errors.NotFound) return "file not found";
  if (denied(error)) return `${DENIED}: the user slop runs as may not read it`;
  if (code === "ELOOP") return "symbolic link loop";
  return `cannot read file: ${plainMessage(error)}`;
}

/**
 * An error's message without the system's code, call and path: the reason names the file
 * (`Permission denied (os error 13): open '/p/a'` is `Permission denied`).
 */
function plainMessage(error: unknown): string {
  // Deno ends a system error with its code, the call and the path, `node:fs` starts it with the
  // code and ends it with the call and the path: the reason names the file.
  return errorText(error).replace(/ \(os error \d+\)(: \w+ '[^]*')?$/, "")
    .replace(/^E[A-Z0-9]+: ([^]*?)(, \w+( '[^]*')?)?$/, "$1");
}

/**
 * `root` ending in one separator, so that a path that starts with it is inside `root`.
 *
 * @example
 * ```ts
 * import { withSep } from "./_read_bytes.ts";
 * withSep("/p"); // "/p/"
 * ```
 */
export function withSep(root: string): string {
  return root.endsWith(sep) ? root : root + sep;
}
