/**
 * Where a build server lives: one server per slop version, working
 * directory, `--config`, `--state-dir` and `SLOP_DIR`, named by a hash of
 * them, in a folder only this user can open (`$XDG_RUNTIME_DIR/slop`, else
 * `<tmp>/slop-<uid>`): its socket, its lock (held while one client starts
 * it), its log and its description. Loads nothing but Deno's own API, so a
 * client that finds its server running starts in a few milliseconds: what
 * it buys is the client's part of the server's (`client.ts`).
 *
 * @module
 */

import meta from "../deno.json" with { type: "json" };
import { MAX_TIMER_MS } from "../pipeline/timer_limit.ts";

/** The files of one build server. */
export interface ServerFiles {
  /** The folder of every server of this user. */
  dir: string;
  /** The hash naming this server's files. */
  id: string;
  /** The Unix socket it listens on. */
  socket: string;
  /** Locked by the client that starts it, so that two clients start one server. */
  lock: string;
  /** What it writes while detached (its errors). */
  log: string;
  /** Its description: pid, working directory, config, start time (JSON). */
  info: string;
}

/** What names a server: the flags and environment a build's config is found with. */
export interface ServerKey {
  /** `--config`, as given. */
  config?: string;
  /** `--state-dir`, as given. */
  stateDir?: string;
  /** The working directory. @default {Deno.cwd()} */
  cwd?: string;
}

/** A server's description in its info file. */
export interface ServerInfo {
  pid: number;
  /** The client's working directory. */
  cwd: string;
  /** `--config`, as given, if any. */
  config?: string;
  /** `--state-dir`, as given, if any. */
  stateDir?: string;
  /** slop's version and where it runs from. */
  version: string;
  /** When it started (ISO time). */
  started: string;
  /** Milliseconds without a request before it exits. */
  idleMs: number;
}

/** Milliseconds a server waits for a request before it exits, by default (15 minutes). */
export const DEFAULT_IDLE_MS = 15 * 60 * 1000;

/**
 * What a client and its server must agree on: slop's version, the Deno
 * version and the module the CLI runs from.
 *
 * @example
 * ```ts
 * import { serverVersion } from "./files.ts";
 * serverVersion(); // "0.1.0 deno 2.9.6 file:///.../server/files.ts"
 * ```
 */
export function serverVersion(): string {
  return `${meta.version} deno ${Deno.version.deno} ${import.meta.url}`;
}

/**
 * The folder of this user's servers, made (mode 700) when missing; an error
 * when it exists but another user owns it or others may open it.
 *
 * @example
 * ```ts
 * import { serverDir } from "./files.ts";
 * serverDir(); // "/run/user/1000/slop"
 * ```
 */
export function serverDir(): string {
  const runtime = Deno.env.get("XDG_RUNTIME_DIR");
  const uid = Deno.uid();
  const tmp = Deno.env.get("TMPDIR") || "/tmp";
  const dir = runtime
    ? `${runtime.replace(/\/+$/, "")}/slop`
    : `${tmp.replace(/\/+$/, "")}/slop-${uid}`;
  const other = runtime ? "set XDG_RUNTIME_DIR to another folder" : "set TMPDIR to another folder";
  let info: Deno.FileInfo;
  try {
    try {
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    info = Deno.statSync(dir);
  } catch (error) {
    const reason = error instanceof Error
      ? error.message.replace(/ \(os error \d+\).*$/s, "")
      : error;
    throw new ServerDirError(`Cannot make the build server folder "${dir}" (${reason}): ${other}`);
  }
  if (!info.isDirectory || (uid !== null && info.uid !== uid) || ((info.mode ?? 0) & 0o077)) {
    throw new ServerDirError(
      `The build server folder "${dir}" must be a folder of yours that only you can open ` +
        `(mode 700): fix it, or ${other}`,
    );
  }
  return dir;
}

/**
 * The build server's folder cannot be made or is not safe to use (see {@linkcode serverDir}).
 *
 * @example
 * ```ts
 * import { ServerDirError } from "./files.ts";
 * new ServerDirError("Cannot make the build server folder").name; // "ServerDirError"
 * ```
 */
export class ServerDirError extends Error {
  override name = "ServerDirError";
}

/**
 * The files of the server for `key`: named by an 80-bit hash of slop's
 * version, the working directory, the config, the state dir and `SLOP_DIR`
 * (FNV-1a, computed in this thread: `crypto.subtle.digest` waits for the
 * thread pool, at every client's start).
 *
 * @example
 * ```ts
 * import { serverFiles } from "./files.ts";
 * const files = serverFiles({ config: "slop.config.ts" });
 * files.socket; // "/run/user/1000/slop/3f2a...c1.sock"
 * ```
 */
export function serverFiles(key: ServerKey): ServerFiles {
  const dir = serverDir();
  const named = JSON.stringify([
    serverVersion(),
    key.cwd ?? Deno.cwd(),
    key.config ?? null,
    key.stateDir ?? null,
    Deno.env.get("SLOP_DIR") ?? null,
  ]);
  const bytes = new TextEncoder().encode(named);
  const id = (hex64(fnv1a64(bytes, FNV_OFFSET)) + hex64(fnv1a64(bytes, FNV_OFFSET_2))).slice(0, 20);
  const at = (ext: string) => `${dir}/${id}.${ext}`;
  return { dir, id, socket: at("sock"), lock: at("lock"), log: at("log"), info: at("json") };
}

/**
 * Read a time like `30s`, `15m`, `2h` or `500ms` (a plain number is seconds)
 * into milliseconds; undefined when it is none.
 *
 * @example
 * ```ts
 * import { parseDuration } from "./files.ts";
 * parseDuration("15m"); // 900000
 * parseDuration("soon"); // undefined
 * ```
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? "s"]!;
  const ms = Math.round(Number(match[1]) * unit);
  // A timer takes at most MAX_TIMER_MS: a longer one fired at once, and the server ended as it
  // started. So did a server given no time at all (0).
  return ms > 0 && ms <= MAX_TIMER_MS ? ms : undefined;
}

/** The longest idle time, in hours, as an error names it (a timer's longest delay, 2^31 - 1 ms). */
const MAX_IDLE_HOURS = Math.floor(MAX_TIMER_MS / 3_600_000);

/**
 * The error for a value of `flag` that {@linkcode parseDuration} does not take: it says what a
 * time looks like and the range, the maximum named.
 *
 * @example
 * ```ts
 * import { durationError } from "./files.ts";
 * durationError("--idle", "600h");
 * // 'Invalid --idle "600h": expected a time like 30s, 15m or 2h, over 0 and at most 596h'
 * ```
 */
export function durationError(flag: string, text: string): string {
  return `Invalid ${flag} "${text}": expected a time like 30s, 15m or 2h, over 0 and at most ` +
    `${MAX_IDLE_HOURS}h`;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
/** Another offset basis, for a second 64-bit hash of the same bytes (the name takes 80 bits). */
const FNV_OFFSET_2 = 0xaf63bc4c8601b7ben;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

function fnv1a64(bytes: Uint8Array, offset: bigint): bigint {
  let hash = offset;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  return hash;
}

function hex64(value: bigint): string {
  return value.toString(16).padStart(16, "0");
}
