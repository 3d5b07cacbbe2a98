/**
 * File path helpers with `node:path`'s results for this platform (POSIX, or Windows with
 * `\` and drive letters), and `node:url`'s `pathToFileURL`, without `node:` modules:
 * importing `node:path` starts Deno's Node compatibility layer, which a build otherwise
 * need not pay for. {@linkcode posixPath} and {@linkcode windowsPath} hold both flavours
 * (the tests compare them with `node:path`'s `posix` and `win32`); the plain exports are
 * the platform's.
 *
 * @module
 */

import { extensionOf } from "./extension.ts";

/** The path functions of one platform. */
export interface PathFunctions {
  /** The platform's separator. */
  sep: "/" | "\\";
  /** The parts joined and normalized; a trailing separator is kept. */
  join(...parts: string[]): string;
  /** An absolute, normalized path from the parts, right to left, then the working folder. */
  resolve(...parts: string[]): string;
  /** The path from `from` to `to` (both resolved first); `""` when they are the same. */
  relative(from: string, to: string): string;
  /** The folder of the path. */
  dirname(path: string): string;
  /** The last part of the path, without trailing separators. */
  basename(path: string): string;
  /** The extension of the last part, from its last dot (`""` for none or a leading dot). */
  extname(path: string): string;
  /** Whether the path is absolute. */
  isAbsolute(path: string): boolean;
  /** The `file:` URL of the path (resolved; a trailing separator kept). */
  toFileUrl(path: string): URL;
}

/** Segments of `path` with `.` dropped and `..` applied; `..` past the start is kept when `above`. */
function normalSegments(path: string, isSep: (c: string) => boolean, above: boolean): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && !isSep(path[i])) continue;
    const part = path.slice(start, i);
    start = i + 1;
    if (part === "" || part === ".") continue;
    if (part !== "..") out.push(part);
    else if (out.length && out[out.length - 1] !== "..") out.pop();
    else if (above) out.push("..");
  }
  return out;
}

/** The working folder (node:path asks the process, as `Deno.cwd()` does). */
function cwd(): string {
  return Deno.cwd();
}

// ---------------------------------------------------------------------------
// POSIX

const isPosixSep = (c: string) => c === "/";

/** A segment that normalizing would change: empty (`//`, a trailing `/`), `.` or `..`. */
const NOT_PLAIN = /(^|\/)\.{0,2}(\/|$)/;

function posixNormalize(path: string): string {
  if (path === "") return ".";
  // Already normal (the usual root + listed path): as it is, without splitting it.
  if (!NOT_PLAIN.test(path[0] === "/" ? path.slice(1) : path)) return path;
  const absolute = path[0] === "/";
  const trailing = path[path.length - 1] === "/";
  let body = normalSegments(path, isPosixSep, !absolute).join("/");
  if (body === "" && !absolute) body = ".";
  if (body !== "" && trailing) body += "/";
  return absolute ? `/${body}` : body;
}

function posixResolve(...parts: string[]): string {
  let path = "";
  for (let i = parts.length - 1; i >= -1 && path[0] !== "/"; i--) {
    const part = i >= 0 ? parts[i] : cwd();
    if (part !== "") path = path === "" ? part : `${part}/${path}`;
  }
  const body = normalSegments(path, isPosixSep, path[0] !== "/").join("/");
  return path[0] === "/" ? `/${body}` : body || ".";
}

function posixRelative(from: string, to: string): string {
  if (from === to) return "";
  const a = normalSegments(posixResolve(from), isPosixSep, false);
  const b = normalSegments(posixResolve(to), isPosixSep, false);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return [...a.slice(common).map(() => ".."), ...b.slice(common)].join("/");
}

function posixDirname(path: string): string {
  if (path === "") return ".";
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  const slash = path.lastIndexOf("/", end - 1);
  if (slash < 1) return path[0] === "/" ? "/" : ".";
  if (slash === 1 && path[0] === "/") return "//";
  return path.slice(0, slash);
}

function posixBasename(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}

function posixToFileUrl(path: string): URL {
  let resolved = posixResolve(path);
  if (path.endsWith("/") && !resolved.endsWith("/")) resolved += "/";
  return new URL(`file://${escapeForUrl(resolved)}`);
}

/** Characters a file URL's path keeps as they are; the others are percent-encoded (UTF-8). */
const URL_PATH_KEEPS = /[A-Za-z0-9!$&'()*+,\-./:;=@_]/;
const utf8 = new TextEncoder();

/** `path` percent-encoded as `node:url`'s `pathToFileURL` does. */
function escapeForUrl(path: string): string {
  let out = "";
  for (const c of path) {
    if (URL_PATH_KEEPS.test(c)) out += c;
    else for (const b of utf8.encode(c)) out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/**
 * The POSIX flavour (as `node:path`'s `posix`).
 *
 * @example
 * ```ts
 * import { posixPath } from "./_path.ts";
 * posixPath.join("/a/b", "../c"); // "/a/c"
 * ```
 */
export const posixPath: PathFunctions = {
  sep: "/",
  join: (...parts) => posixNormalize(parts.filter((p) => p !== "").join("/")),
  resolve: posixResolve,
  relative: posixRelative,
  dirname: posixDirname,
  basename: posixBasename,
  extname: (path) => extensionOf(posixBasename(path)),
  isAbsolute: (path) => path[0] === "/",
  toFileUrl: posixToFileUrl,
};

// ---------------------------------------------------------------------------
// Windows

const isWinSep = (c: string | undefined) => c === "\\" || c === "/";

function isDriveLetter(c: string | undefined): boolean {
  return c !== undefined && ((c >= "A" && c <= "Z") || (c >= "a" && c <= "z"));
}

/** How a Windows path starts: its device (`C:`, `\\server\share`), root end, and absoluteness. */
interface WinRoot {
  device: string;
  /** Index after the root (device and its separator). */
  end: number;
  absolute: boolean;
  /** `\\server\share` and nothing after it. */
  bareShare: boolean;
}

/** `from` moved past separators (`seps`) or past other characters; at most the length. */
function skip(path: string, from: number, seps: boolean): number {
  let i = from;
  while (i < path.length && isWinSep(path[i]) === seps) i++;
  return i;
}

function winRoot(path: string): WinRoot {
  const root: WinRoot = { device: "", end: 0, absolute: false, bareShare: false };
  if (path.length === 0) return root;
  if (isWinSep(path[0])) {
    root.absolute = true;
    root.end = 1;
    if (path.length === 1 || !isWinSep(path[1])) return root;
    // `\\server\share`: both names needed, else a rooted path
    const serverEnd = skip(path, 2, false);
    if (serverEnd === 2 || serverEnd === path.length) return root;
    const shareStart = skip(path, serverEnd, true);
    if (shareStart === path.length) return root;
    const shareEnd = skip(path, shareStart, false);
    root.device = `\\\\${path.slice(2, serverEnd)}\\${path.slice(shareStart, shareEnd)}`;
    root.end = shareEnd;
    root.bareShare = shareEnd === path.length;
    return root;
  }
  if (isDriveLetter(path[0]) && path[1] === ":") {
    root.device = path.slice(0, 2);
    root.end = 2;
    if (isWinSep(path[2])) {
      root.absolute = true;
      root.end = 3;
    }
  }
  return root;
}

function winNormalize(path: string): string {
  if (path === "") return ".";
  if (path.length === 1) return isWinSep(path) ? "\\" : path;
  const root = winRoot(path);
  if (root.bareShare) return `${root.device}\\`;
  let tail = normalSegments(path.slice(root.end), isWinSep, !root.absolute).join("\\");
  if (tail === "" && !root.absolute) tail = ".";
  if (tail !== "" && isWinSep(path[path.length - 1])) tail += "\\";
  if (root.absolute) return `${root.device}\\${tail}`;
  if (root.device === "" && looksRooted(path, tail)) return `.\\${tail}`;
  return `${root.device}${tail}`;
}

/**
 * Whether a relative path without a device would read as one with a device once normalized
 * (`x\..\C:a`), or has a part ending in a colon (`a\b:`): `node:path` then puts `.\` first.
 */
function looksRooted(path: string, tail: string): boolean {
  if (isDriveLetter(tail[0]) && tail[1] === ":") return true;
  for (let i = path.indexOf(":"); i !== -1; i = path.indexOf(":", i + 1)) {
    if (i === path.length - 1 || isWinSep(path[i + 1])) return true;
  }
  return false;
}

function winJoin(...parts: string[]): string {
  const kept = parts.filter((p) => p !== "");
  if (kept.length === 0) return ".";
  let joined = kept.join("\\");
  // Only a first part starting with exactly two separators keeps a UNC start.
  const first = kept[0];
  const unc = isWinSep(first[0]) && isWinSep(first[1]) && first.length > 2 && !isWinSep(first[2]);
  if (!unc) {
    const seps = skip(joined, 0, true);
    if (seps >= 2) joined = `\\${joined.slice(seps)}`;
  }
  return winNormalize(joined);
}

/** The working folder of `device` (Windows keeps one per drive, in `=C:`-style variables). */
function driveCwd(device: string): string {
  let path: string | undefined;
  try {
    path = Deno.env.get(`=${device}`);
  } catch {
    path = undefined;
  }
  path ||= cwd();
  // Another drive's folder means this drive's root.
  const otherDrive = path.slice(0, 2).toLowerCase() !== device.toLowerCase() && path[2] === "\\";
  return otherDrive ? `${device}\\` : path;
}

function winResolve(...parts: string[]): string {
  let device = "";
  let tail = "";
  let absolute = false;
  for (let i = parts.length - 1; i >= -1; i--) {
    let path: string;
    if (i >= 0) {
      path = parts[i];
      if (path === "") continue;
    } else path = device === "" ? cwd() : driveCwd(device);
    const root = winRoot(path);
    if (root.device !== "") {
      if (device === "") device = root.device;
      else if (root.device.toLowerCase() !== device.toLowerCase()) continue;
    }
    if (!absolute) {
      tail = `${path.slice(root.end)}\\${tail}`;
      absolute = root.absolute;
    }
    if (absolute && device !== "") break;
  }
  const body = normalSegments(tail, isWinSep, !absolute).join("\\");
  return absolute ? `${device}\\${body}` : `${device}${body}` || ".";
}

function winRelative(from: string, to: string): string {
  if (from === to) return "";
  const fromPath = winResolve(from);
  const toPath = winResolve(to);
  if (fromPath.toLowerCase() === toPath.toLowerCase()) return "";
  const a = fromPath.split("\\").filter((s) => s !== "");
  const b = toPath.split("\\").filter((s) => s !== "");
  let common = 0;
  while (
    common < a.length && common < b.length && a[common].toLowerCase() === b[common].toLowerCase()
  ) common++;
  if (common === 0) return toPath;
  return [...a.slice(common).map(() => ".."), ...b.slice(common)].join("\\");
}

function winDirname(path: string): string {
  if (path === "") return ".";
  if (path.length === 1) return isWinSep(path) ? path : ".";
  let rootEnd = -1;
  if (isWinSep(path[0])) {
    const root = winRoot(path);
    if (root.bareShare) return path;
    rootEnd = root.device === "" ? 1 : root.end + 1;
  } else if (isDriveLetter(path[0]) && path[1] === ":") {
    rootEnd = isWinSep(path[2]) ? 3 : 2;
  }
  const offset = Math.max(rootEnd, 0);
  let end = path.length;
  while (end > offset && isWinSep(path[end - 1])) end--;
  let sep = end - 1;
  while (sep >= offset && !isWinSep(path[sep])) sep--;
  if (sep < offset || end === offset) return rootEnd === -1 ? "." : path.slice(0, rootEnd);
  return path.slice(0, sep);
}

function winBasename(path: string): string {
  const start = path.length >= 2 && isDriveLetter(path[0]) && path[1] === ":" ? 2 : 0;
  let end = path.length;
  while (end > start && isWinSep(path[end - 1])) end--;
  let i = end - 1;
  while (i >= start && !isWinSep(path[i])) i--;
  return path.slice(i + 1, end);
}

function winToFileUrl(path: string): URL {
  let resolved = winResolve(path);
  if (isWinSep(path[path.length - 1]) && !resolved.endsWith("\\")) resolved += "\\";
  const slashed = resolved.replaceAll("\\", "/");
  if (!slashed.startsWith("//")) return new URL(`file:///${escapeForUrl(slashed)}`);
  // `\\server\share\...`: the server is the URL's host
  const hostEnd = slashed.indexOf("/", 2);
  const url = new URL(`file://${escapeForUrl(hostEnd === -1 ? "/" : slashed.slice(hostEnd))}`);
  url.hostname = slashed.slice(2, hostEnd === -1 ? undefined : hostEnd);
  return url;
}

/**
 * The Windows flavour (as `node:path`'s `win32`): `\` and `/` both separate, drive letters
 * and `\\server\share` roots, case-insensitive comparisons.
 *
 * @example
 * ```ts
 * import { windowsPath } from "./_path.ts";
 * windowsPath.join("C:\\a", "../b"); // "C:\\b"
 * ```
 */
export const windowsPath: PathFunctions = {
  sep: "\\",
  join: winJoin,
  resolve: winResolve,
  relative: winRelative,
  dirname: winDirname,
  basename: winBasename,
  extname: (path) => extensionOf(winBasename(path)),
  isAbsolute: (path) =>
    isWinSep(path[0]) || (isDriveLetter(path[0]) && path[1] === ":" && isWinSep(path[2])),
  toFileUrl: winToFileUrl,
};

const platform: PathFunctions = Deno.build.os === "windows" ? windowsPath : posixPath;

/**
 * The platform's separator (`node:path`'s `sep`).
 *
 * @example
 * ```ts
 * import { sep } from "./_path.ts";
 * sep; // "/" (or "\\" on Windows)
 * ```
 */
export const sep: "/" | "\\" = platform.sep;

/**
 * The parts joined and normalized (`node:path`'s `join`); a trailing separator is kept.
 *
 * @example
 * ```ts
 * import { join } from "./_path.ts";
 * join("/a", "b", "../c"); // "/a/c"
 * ```
 */
export function join(...parts: string[]): string {
  return platform.join(...parts);
}

/**
 * An absolute, normalized path (`node:path`'s `resolve`).
 *
 * @example
 * ```ts
 * import { resolve } from "./_path.ts";
 * resolve("/a", "b"); // "/a/b"
 * ```
 */
export function resolve(...parts: string[]): string {
  return platform.resolve(...parts);
}

/**
 * The path from `from` to `to` (`node:path`'s `relative`).
 *
 * @example
 * ```ts
 * import { relative } from "./_path.ts";
 * relative("/a/b", "/a/c/d"); // "../c/d"
 * ```
 */
export function relative(from: string, to: string): string {
  return platform.relative(from, to);
}

/**
 * The folder of a path (`node:path`'s `dirname`).
 *
 * @example
 * ```ts
 * import { dirname } from "./_path.ts";
 * dirname("/a/b/c.ts"); // "/a/b"
 * ```
 */
export function dirname(path: string): string {
  return platform.dirname(path);
}

/**
 * The last part of a path (`node:path`'s `basename`, without its second argument).
 *
 * @example
 * ```ts
 * import { basename } from "./_path.ts";
 * basename("/a/b/c.ts"); // "c.ts"
 * ```
 */
export function basename(path: string): string {
  return platform.basename(path);
}

/**
 * The extension of a path's last part (`node:path`'s `extname`).
 *
 * @example
 * ```ts
 * import { extname } from "./_path.ts";
 * extname("src/mod.test.ts"); // ".ts"
 * ```
 */
export function extname(path: string): string {
  return platform.extname(path);
}

/**
 * Whether a path is absolute (`node:path`'s `isAbsolute`).
 *
 * @example
 * ```ts
 * import { isAbsolute } from "./_path.ts";
 * isAbsolute("/a"); // true
 * ```
 */
export function isAbsolute(path: string): boolean {
  return platform.isAbsolute(path);
}

/**
 * Whether `path` is `dir` or inside it (by their names: links are not followed).
 *
 * @example
 * ```ts
 * import { isWithin } from "./_path.ts";
 * isWithin("/p/.slop/cache", "/p/.slop"); // true
 * isWithin("/p", "/p/.slop"); // false
 * ```
 */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The process's working folder, or undefined when it was deleted (a long-lived process may
 * outlive it).
 *
 * @example
 * ```ts
 * import { workingFolder } from "./_path.ts";
 * console.log(workingFolder() ?? "gone");
 * ```
 */
export function workingFolder(): string | undefined {
  try {
    return Deno.cwd();
  } catch {
    return undefined;
  }
}

/**
 * `path` as a message names it: relative to `folder` (the working folder when not given; a
 * relative `folder` is resolved against it) when inside it, else as it is (also when the
 * working folder was deleted). A plain prefix test of absolute, normalized paths (the folder
 * itself is named as it is).
 *
 * @example
 * ```ts
 * import { shownPath } from "./_path.ts";
 * shownPath(Deno.cwd() + "/slop.lock"); // "slop.lock"
 * shownPath("/p/src/a.py", "/p"); // "src/a.py"
 * shownPath("/p/src/a.py", "/"); // "p/src/a.py"
 * shownPath(Deno.cwd() + "/sub/a.py", "sub"); // "a.py"
 * ```
 */
export function shownPath(path: string, folder?: string): string {
  let here = folder;
  if (here === undefined || !isAbsolute(here)) {
    // No folder, or a relative one (a library caller's `cwd`): from the working folder.
    const cwd = workingFolder();
    if (cwd === undefined) return path;
    here = here === undefined ? cwd : resolve(cwd, here);
  }
  const base = here.endsWith(sep) ? here : here + sep;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

/**
 * The `file:` URL of a path (`node:url`'s `pathToFileURL`).
 *
 * @example
 * ```ts
 * import { toFileUrl } from "./_path.ts";
 * toFileUrl("/a b/slop.config.ts").href; // "file:///a%20b/slop.config.ts"
 * ```
 */
export function toFileUrl(path: string): URL {
  return platform.toFileUrl(path);
}
