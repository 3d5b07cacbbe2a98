/**
 * The client side of `slop build --server`: find this project's build
 * server (start it when none runs, one client at a time, but not for a CI
 * job, which builds once), hand it the build
 * with this process's working directory and environment, and write what it
 * sends to stdout and stderr. It loads nothing of the pipeline, so a build
 * the server has warm costs this process little more than Deno's start. When
 * no server can be used, the caller builds in this process.
 *
 * @module
 */

import { type Frame, readFrames, readMessage, writeMessage } from "./_frames.ts";
import {
  DEFAULT_IDLE_MS,
  parseDuration,
  type ServerFiles,
  serverFiles,
  serverVersion,
} from "./_server_files.ts";
import { SERVER_V8_FLAGS } from "./_v8_flags.ts";
import type { BuildFlags } from "./build.ts";
import { taskFlag } from "./_flags.ts";
import { writeAllSync, writeStdout } from "./_terminal.ts";

/** Flags of `slop build --server`. */
export interface ServerBuildFlags extends BuildFlags {
  /** How long a server started now waits for a build before it exits (`--server-idle`). */
  serverIdle?: string;
}

/** How long a client waits for a server it started to listen. */
const START_TIMEOUT_MS = 30_000;
/** Milliseconds between tries to connect to a server starting. */
const START_POLL_MS = 2;

/**
 * Run a build in this project's build server; resolves to the exit code, or
 * to undefined (after a warning) when no server can be used.
 *
 * @example
 * ```ts
 * import { buildViaServer } from "./_client.ts";
 * // const code = await buildViaServer([], { config: "slop.config.ts" }) ?? await runBuild(...);
 * ```
 */
export async function buildViaServer(
  paths: string[],
  flags: ServerBuildFlags,
): Promise<number | undefined> {
  const { server: _, serverIdle, ...build } = flags as ServerBuildFlags & { server?: boolean };
  const warn = (why: string) => {
    stderr(`slop: warning: ${why}: building in this process\n`);
    return undefined;
  };
  if (Deno.build.os === "windows") return warn("the build server needs Unix sockets");
  const idleMs = serverIdle === undefined ? DEFAULT_IDLE_MS : parseDuration(serverIdle);
  if (idleMs === undefined) {
    stderr(`slop: Invalid --server-idle "${serverIdle}": expected a time like 30s, 15m or 2h\n`);
    return 2;
  }
  let files: ServerFiles;
  try {
    files = serverFiles({ config: flags.config, stateDir: flags.stateDir });
  } catch (error) {
    return warn(error instanceof Error ? error.message : String(error));
  }
  // The task file is read here: the server has another standard input (`--task-file -`).
  let task: string | undefined;
  try {
    task = await taskFlag(build);
  } catch (error) {
    stderr(`slop: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const request = {
    type: "build",
    version: serverVersion(),
    paths,
    flags: { ...build, task, taskFile: undefined },
    cwd: Deno.cwd(),
    env: Deno.env.toObject(),
    stderrIsTerminal: Deno.stderr.isTerminal(),
  };
  // A server that finds itself stale (slop or a module of the config changed) answers
  // "restart" and exits: the build goes to a new one.
  for (let attempt = 0; attempt < 2; attempt++) {
    const conn = await connectOrStart(files, {
      config: flags.config,
      stateDir: flags.stateDir,
      idleMs,
      first: attempt === 0,
    });
    if (!conn) return undefined;
    if ("why" in conn) return warn(conn.why);
    const answer = await exchange(conn, request);
    if (answer?.type === "exit") return Number(answer.code);
    if (answer?.type !== "restart") {
      return warn(`the build server ended without an answer (see "${files.log}")`);
    }
    await gone(files.socket);
  }
  return warn("the build server asked for a restart twice");
}

/**
 * Whether the `CI` environment variable says this is a CI job (GitHub Actions,
 * GitLab CI and most runners set it): anything but unset, empty, `0` or `false`.
 *
 * @example
 * ```ts
 * import { isCi } from "./_client.ts";
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
  { config, stateDir, idleMs, first }: {
    config?: string;
    stateDir?: string;
    idleMs: number;
    first: boolean;
  },
): Promise<Deno.UnixConn | { why: string } | undefined> {
  let conn: Deno.UnixConn | undefined;
  try {
    conn = await connectServer(files.socket);
    // A CI job builds once: a server started for it would only sit idle until it exits.
    if (!conn && first && isCi(Deno.env.get("CI"))) return undefined;
    conn ??= await startServer(files, { config, stateDir, idleMs });
  } catch (error) {
    // The lock file cannot be opened, the server process cannot be spawned...
    const why = error instanceof Error ? error.message : String(error);
    return { why: `the build server cannot be started (${why})` };
  }
  return conn ?? { why: `the build server did not start (see "${files.log}")` };
}

/** Send one request and relay the answer (then close); undefined when the connection broke. */
async function exchange(
  conn: Deno.UnixConn,
  request: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  try {
    await writeMessage(conn, request);
    return await relay(readFrames(conn));
  } catch {
    return undefined;
  } finally {
    closeQuietly(conn);
  }
}

/** Write stdout and stderr frames to this process's streams; the first message ends it. */
async function relay(frames: AsyncGenerator<Frame>): Promise<Record<string, unknown> | undefined> {
  for await (const frame of frames) {
    if (frame.kind === "message") return readMessage(frame);
    if (frame.kind === "stdout") await writeStdout(frame.data);
    else writeAllSync(Deno.stderr, frame.data);
  }
  return undefined;
}

/** Options of {@linkcode startServer}. */
export interface StartServerOptions {
  /** `--config` as given. */
  config?: string;
  /** `--state-dir` as given. */
  stateDir?: string;
  /** Milliseconds without a build before the server exits. */
  idleMs: number;
}

/**
 * A connection to the server at `socket`, or undefined when none listens.
 *
 * @example
 * ```ts
 * import { connectServer } from "./_client.ts";
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
 * import { startServer } from "./_client.ts";
 * import { serverFiles } from "./_server_files.ts";
 * // const conn = await startServer(serverFiles({}), { idleMs: 60_000 });
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
    const args = ["run", "-A", SERVER_V8_FLAGS, new URL("../cli.ts", import.meta.url).href];
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
    // server listens (waits doubling up to 50 ms lost up to 38 ms of a cold build here).
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
 *
 * @example
 * ```ts
 * import { closeQuietly } from "./_client.ts";
 * // closeQuietly(conn);
 * ```
 */
export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

function stderr(text: string) {
  writeAllSync(Deno.stderr, new TextEncoder().encode(text));
}
