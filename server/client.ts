/**
 * The client's side of the build server: find the project's server, start it when none runs (one
 * client at a time; not for a CI job, which builds once), hand it a build and relay what it
 * sends to this process's stdout and stderr. What it buys: the client loads nothing of the
 * pipeline, so a build the server has warm costs this process little more than Deno's start
 * (bench/README.md, "Runtime flags" and "Numbers that were in code comments"). `slop build
 * --server` (`cli/_client.ts`) makes the request; when no server can be used, it builds in its
 * own process.
 *
 * @module
 */

import { type Frame, readFrames, readMessage, writeMessage } from "./_frames.ts";
import type { ServerFiles } from "./files.ts";

/** How long a client waits for a server it started to listen. */
const START_TIMEOUT_MS = 30_000;
/** Milliseconds between tries to connect to a server starting. */
const START_POLL_MS = 2;

/** Where a build's output goes in the client: its own stdout and stderr. */
export interface ClientOutput {
  /** Write bytes to stdout, all of them. */
  stdout(bytes: Uint8Array): Promise<void>;
  /** Write bytes to stderr, all of them. */
  stderr(bytes: Uint8Array): void;
}

/** Options of {@linkcode handOff}. */
export interface HandOffOptions extends StartServerOptions {
  /** Where the build's output goes. */
  output: ClientOutput;
}

/**
 * Hand a build request to the project's build server (started when none runs) and relay its
 * output; the build's exit code, why no server could build it, or undefined in a CI job with no
 * server running (none is started).
 *
 * @example
 * ```ts
 * import { handOff } from "./client.ts";
 * // const answer = await handOff(files, request, { idleMs, entry, output });
 * ```
 */
export async function handOff(
  files: ServerFiles,
  request: Record<string, unknown>,
  options: HandOffOptions,
): Promise<{ code: number } | { why: string } | undefined> {
  // A server that finds itself stale (slop or a module of the config changed) answers
  // "restart" and exits: the build goes to a new one.
  for (let attempt = 0; attempt < 2; attempt++) {
    const conn = await connectOrStart(files, { ...options, first: attempt === 0 });
    if (!conn || "why" in conn) return conn;
    const answer = await exchange(conn, request, options.output);
    if (answer?.type === "exit") return { code: Number(answer.code) };
    if (answer?.type !== "restart") {
      return {
        why: `the build server ended without an answer${lastStop(files.log)} (see "${files.log}")`,
      };
    }
    await gone(files.socket);
  }
  return { why: "the build server asked for a restart twice" };
}

/** What the log's last line says stopped the server (a plugin's hook that held it), if it does. */
function lastStop(log: string): string {
  try {
    const last = Deno.readTextFileSync(log).trimEnd().split("\n").at(-1) ?? "";
    const stopped = last.match(/^\S+ stopped: (.*)$/)?.[1];
    return stopped ? `: ${stopped}` : "";
  } catch {
    return "";
  }
}

/**
 * Whether the `CI` environment variable says this is a CI job (GitHub Actions,
 * GitLab CI and most runners set it): anything but unset, empty, `0` or `false`.
 *
 * @example
 * ```ts
 * import { isCi } from "./client.ts";
 * isCi("true"); // true
 * isCi("0"); // false
 * ```
 */
export function isCi(value: string | undefined): boolean {
  return value !== undefined && !["", "0", "false"].includes(value.trim().toLowerCase());
}

/**
 * A connection to the project's build server, started when none runs; in a CI job, undefined on
 * the first try (none is started), and why there is none when it cannot be started.
 */
async function connectOrStart(
  files: ServerFiles,
  options: StartServerOptions & { first: boolean },
): Promise<Deno.UnixConn | { why: string } | undefined> {
  let conn: Deno.UnixConn | undefined;
  try {
    conn = await connectServer(files.socket);
    // A CI job builds once: a server started for it would only sit idle until it exits.
    if (!conn && options.first && isCi(Deno.env.get("CI"))) return undefined;
    conn ??= await startServer(files, options);
  } catch (error) {
    // The lock file cannot be opened, the server process cannot be spawned...
    const why = error instanceof Error ? error.message : String(error);
    return { why: `the build server cannot be started (${why})` };
  }
  return conn ?? { why: `the build server did not start (see "${files.log}")` };
}

/**
 * Send one request and relay the answer (then close); undefined when the connection broke. A
 * failed write to this process's own output is thrown: the server built, and what it sent was
 * partly printed, so building again here would print it again after that part.
 */
async function exchange(
  conn: Deno.UnixConn,
  request: Record<string, unknown>,
  output: ClientOutput,
): Promise<Record<string, unknown> | undefined> {
  try {
    await writeMessage(conn, request);
    return await relay(readFrames(conn), output);
  } catch (error) {
    if (error instanceof OutputFailed) throw error.cause;
    return undefined;
  } finally {
    closeQuietly(conn);
  }
}

/** A write to the client's own stdout or stderr that failed (a full disk), not the connection. */
class OutputFailed extends Error {}

/** Write stdout and stderr frames to this process's streams; the first message ends it. */
async function relay(
  frames: AsyncGenerator<Frame>,
  output: ClientOutput,
): Promise<Record<string, unknown> | undefined> {
  for await (const frame of frames) {
    if (frame.kind === "message") return readMessage(frame);
    try {
      if (frame.kind === "stdout") await output.stdout(frame.data);
      else output.stderr(frame.data);
    } catch (cause) {
      throw new OutputFailed("output failed", { cause });
    }
  }
  return undefined;
}

/**
 * Send one message and read the one answer (undefined when none comes); the connection is
 * closed.
 *
 * @example
 * ```ts
 * import { askServer, connectServer } from "./client.ts";
 * // const status = await askServer((await connectServer(socket))!, { type: "status" });
 * ```
 */
export async function askServer(
  conn: Deno.UnixConn,
  message: unknown,
): Promise<Record<string, unknown> | undefined> {
  try {
    await writeMessage(conn, message);
    for await (const frame of readFrames(conn)) {
      if (frame.kind === "message") return readMessage(frame);
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    closeQuietly(conn);
  }
}

/** Options of {@linkcode startServer}. */
export interface StartServerOptions {
  /** `--config` as given. */
  config?: string;
  /** `--state-dir` as given. */
  stateDir?: string;
  /** Milliseconds without a build before the server exits. */
  idleMs: number;
  /** The module whose `server run` command runs the server (slop's `cli.ts`). */
  entry: string | URL;
}

/**
 * A connection to the server at `socket`, or undefined when none listens.
 *
 * @example
 * ```ts
 * import { connectServer } from "./client.ts";
 * await connectServer("/tmp/none.sock"); // undefined
 * ```
 */
export async function connectServer(socket: string): Promise<Deno.UnixConn | undefined> {
  try {
    return await Deno.connect({ transport: "unix", path: socket });
  } catch {
    return undefined;
  }
}

/**
 * Start the server of `files` in the background (unless another client
 * just did) and connect to it; undefined when it did not start listening.
 *
 * @example
 * ```ts
 * import { startServer } from "./client.ts";
 * import { serverFiles } from "./files.ts";
 * // const conn = await startServer(serverFiles({}), { idleMs: 60_000, entry: "./cli.ts" });
 * ```
 */
export async function startServer(
  files: ServerFiles,
  options: StartServerOptions,
): Promise<Deno.UnixConn | undefined> {
  // One client at a time starts it: the others wait here, then find it listening.
  const lock = await Deno.open(files.lock, { create: true, write: true, mode: 0o600 });
  try {
    await lock.lock(true);
    const running = await connectServer(files.socket);
    if (running) return running;
    const args = ["run", "-A", SERVER_V8_FLAGS, String(options.entry)];
    args.push("server", "run", "--detached", "--idle", `${options.idleMs}ms`);
    if (options.config !== undefined) args.push("--config", options.config);
    if (options.stateDir !== undefined) args.push("--state-dir", options.stateDir);
    const child = new Deno.Command(Deno.execPath(), {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    let exited = false;
    child.status.then(() => exited = true, () => exited = true);
    const deadline = Date.now() + START_TIMEOUT_MS;
    // A try costs a failed connect (tens of microseconds): trying often connects as soon as the
    // server listens, where a longer wait would delay a cold build (bench/README.md, "Speed
    // against Repomix").
    while (Date.now() < deadline && !exited) {
      const conn = await connectServer(files.socket);
      if (conn) return conn;
      await new Promise((resolve) => setTimeout(resolve, START_POLL_MS));
    }
    return undefined;
  } finally {
    lock.close();
  }
}

/** Wait (at most 5 s) until nothing listens at `socket`. */
async function gone(socket: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const conn = await connectServer(socket);
    if (!conn) return;
    closeQuietly(conn);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Close a connection the other side may have closed already.
 */
function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

/**
 * The V8 flags of a build server (`slop build --server`): a young generation
 * of at most 1 MB per half, since the server's builds after the first handle
 * one edit's worth of new objects (a larger young generation grew on each of
 * them and stayed, raising the per-build peak), and no TurboFan, as for the
 * command line's (`cli/_v8_flags.ts`), since the server's first build is a
 * cold build. Measured in bench/README.md, "Runtime flags". Its old generation grows by half of
 * what it holds before the next full collection, as a big tree's build does
 * (`cli/_v8_flags.ts`): a server keeps its renders in memory, and V8's own choice let a heap
 * holding a big tree's renders grow to about twice that (bench/README.md, "The old generation's
 * growth").
 *
 * @example
 * ```ts
 * import { SERVER_V8_FLAGS } from "./client.ts";
 * const args = ["run", "-A", SERVER_V8_FLAGS, "cli.ts", "server", "run"];
 * ```
 */
export const SERVER_V8_FLAGS =
  "--v8-flags=--max-semi-space-size=1,--no-turbofan,--heap-growing-percent=50";
