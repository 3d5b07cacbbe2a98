/**
 * `slop server`: the build server behind `slop build --server`, one per
 * project (working directory, `--config`, `--state-dir`), listening on a Unix
 * socket only its user can open. It runs the builds clients hand it one at a
 * time, in the client's working directory and environment, keeping what
 * `slop watch` keeps between builds (the opened cache, the stat index, the
 * rendered files, the blocks' hashes and counts) and the loaded config while
 * its file is unchanged; a file watcher tells each build what changed (see
 * `_server_watch.ts`). It exits after a time without builds, on
 * `slop server stop`, or when a module it loaded changes (the next client
 * starts a new one). This module is the process around the builds
 * (`_server_builds.ts`) and the commands that start, ask and stop it.
 *
 * @module
 */

import { readFrames, readMessage, writeMessage } from "./_frames.ts";
import { closeQuietly, connectServer, startServer } from "./_client.ts";
import {
  DEFAULT_IDLE_MS,
  parseDuration,
  serverDir,
  type ServerFiles,
  serverFiles,
  type ServerInfo,
  serverVersion,
} from "./_server_files.ts";
import type { BuildRequest, BuildStats, ServerBuilds } from "./_server_builds.ts";
import { formatBytes } from "./_output.ts";

/** Flags of `slop server run|start|status|stop`. */
export interface ServerFlags {
  /** Config file (`--config`), as the builds give it. */
  config?: string;
  /** State dir (`--state-dir`), as the builds give it. */
  stateDir?: string;
  /** Time without builds before the server exits (`--idle`). @default {"15m"} */
  idle?: string;
  /** Ignore SIGINT and SIGHUP and log to the server's log file (`--detached`). */
  detached?: boolean;
  /** Every server of this user, not the project's (`--all`). */
  all?: boolean;
  /** Print JSON (`--json`). */
  json?: boolean;
  /** Print nothing but errors (`--quiet`). */
  quiet?: boolean;
}

/** A running server's answer to `status`. */
export interface ServerStatus extends ServerInfo, BuildStats {
  /** Resident set size now, in bytes. */
  rss: number;
}

/** Quiet milliseconds after a build before the server's upkeep (a collection) runs. */
const UPKEEP_AFTER_MS = 150;

/**
 * Prepared builds take at most this share of the time: after one that took `t` ms, the next
 * waits `t * (1 / PREPARE_SHARE - 1)` ms (a file rewritten again and again costs little).
 */
const PREPARE_SHARE = 0.1;

/**
 * Run a build server in this process until it is idle for `--idle`, stopped
 * or stale; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runServer } from "./server.ts";
 * // await runServer({ idle: "10m" });
 * ```
 */
export async function runServer(flags: ServerFlags): Promise<number> {
  const idleMs = idleFlag(flags.idle);
  if (idleMs === undefined) return 2;
  const files = serverFiles({ config: flags.config, stateDir: flags.stateDir });
  if (flags.detached) trimLog(files.log);
  const log = flags.detached
    ? (text: string) => appendLog(files.log, text)
    : (text: string) => console.error(`slop: ${text}`);
  const running = await connectServer(files.socket);
  if (running) {
    running.close();
    log(`a build server already listens at "${files.socket}"`);
    return 1;
  }
  try {
    return await serve(files, flags, idleMs, log);
  } catch (error) {
    // A detached server has no stderr: what stopped it goes to the log the client points to.
    log(`stopped by an error: ${error instanceof Error ? error.stack : String(error)}`);
    removeOwn(files);
    return 1;
  }
}

/**
 * What a serving process holds: its files and listener, the builds, and the queue they run in.
 * Builds run one at a time, in the order they came. Upkeep between builds (a garbage collection)
 * waits for a quiet moment: a build asked for soon after the last one does not wait behind it. A
 * prepare (see {@linkcode prepareSoon}) is no activity: it neither keeps an idle server nor delays
 * its upkeep. The work a build or prepare leaves (cache writes, the next draft) waits until its
 * client has exited, unless a build or prepare comes first and has to wait for it.
 */
interface Serving {
  files: ServerFiles;
  idleMs: number;
  log: (text: string) => void;
  info: ServerInfo;
  listener: Deno.Listener<Deno.UnixConn, Deno.UnixAddr>;
  builds: ServerBuilds;
  closed: boolean;
  /** Builds (and stops) queued or running: while any, the idle timer waits. */
  active: number;
  /** Build requests queued and not started yet. */
  waiting: number;
  timer?: ReturnType<typeof setTimeout>;
  upkeep?: ReturnType<typeof setTimeout>;
  queue: Promise<void>;
  prepareQueued: boolean;
  prepareAfter: number;
}

/** Listen and run builds until idle, stopped or stale (see {@linkcode runServer}). */
async function serve(
  files: ServerFiles,
  flags: ServerFlags,
  idleMs: number,
  log: (text: string) => void,
): Promise<number> {
  if (flags.detached) {
    // Started by a client: the terminal's Ctrl-C and hang-up are the client's, not the server's.
    for (const signal of ["SIGINT", "SIGHUP"] as const) Deno.addSignalListener(signal, () => {});
  }
  removeQuietly(files.socket);
  const listener = Deno.listen({ transport: "unix", path: files.socket });
  const info = writeInfo(files, flags, idleMs);
  // Listening already: a client that started this server connects and waits while the pipeline
  // loads (a specifier made at run time, so that Deno does not load it before the first line).
  const { serverBuilds } = await import(
    new URL("./_server_builds.ts", import.meta.url).href
  ) as typeof import("./_server_builds.ts");
  const state: Serving = {
    files,
    idleMs,
    log,
    info,
    listener,
    builds: serverBuilds({
      sources: ownSources(),
      watch: { dir: files.dir, id: files.id, onChange: () => prepareSoon(state) },
      version: serverVersion(),
      onStale: (reason) => {
        // The socket goes first, so that the client's next try starts a new server.
        log(`stale: ${reason}; exiting`);
        stop(state);
        removeOwn(files);
      },
    }),
    closed: false,
    active: 0,
    waiting: 0,
    queue: Promise.resolve(),
    prepareQueued: false,
    prepareAfter: 0,
  };
  await answerAll(state);
  await state.queue;
  await state.builds.close();
  removeOwn(files);
  const count = state.builds.stats().builds;
  log(`exiting after ${count} build${count === 1 ? "" : "s"}`);
  return 0;
}

/** Answer connections until the listener closes (idle, stopped, stale or SIGTERM). */
async function answerAll(state: Serving): Promise<void> {
  const terminate = () => stop(state);
  Deno.addSignalListener("SIGTERM", terminate);
  arm(state);
  state.log(`listening at "${state.files.socket}" (pid ${Deno.pid})`);
  try {
    // A status request is no activity: only builds (and stop) hold the idle timer.
    for await (const conn of state.listener) {
      handle(state, conn).catch((error) => state.log(String(error?.stack ?? error)));
    }
  } catch (error) {
    if (!state.closed) state.log(String((error as Error)?.stack ?? error));
  } finally {
    clearTimeout(state.timer);
    clearTimeout(state.upkeep);
    Deno.removeSignalListener("SIGTERM", terminate);
  }
}

/** Write the server's info file (what `slop server status` shows of it); the info. */
function writeInfo(files: ServerFiles, flags: ServerFlags, idleMs: number): ServerInfo {
  const info: ServerInfo = {
    pid: Deno.pid,
    cwd: Deno.cwd(),
    ...(flags.config !== undefined ? { config: flags.config } : {}),
    ...(flags.stateDir !== undefined ? { stateDir: flags.stateDir } : {}),
    version: serverVersion(),
    started: new Date().toISOString(),
    idleMs,
  };
  Deno.writeTextFileSync(files.info, JSON.stringify(info, null, 2) + "\n", { mode: 0o600 });
  return info;
}

/** Stop listening (once): the serve loop ends and the queued work finishes. */
function stop(state: Serving): void {
  if (state.closed) return;
  state.closed = true;
  state.listener.close();
}

/** Start the idle timer again, unless a build is queued or running. */
function arm(state: Serving): void {
  clearTimeout(state.timer);
  if (!state.active) state.timer = setTimeout(() => stop(state), state.idleMs);
}

/** Queue work behind the builds asked for before it (see {@linkcode Serving}). */
function enqueue(
  state: Serving,
  work: () => Promise<void> | void,
  kind: "build" | "upkeep" | "prepare" = "build",
): void {
  if (kind === "build") clearTimeout(state.upkeep);
  // A build in the queue may be waiting out its quiet time: what it left starts now. With
  // none, the work a prepare left waits (it would take this build's thread for 1-2 ms).
  if (kind !== "upkeep" && state.active) state.builds.hurry();
  const busy = kind !== "prepare";
  if (busy) {
    state.active++;
    clearTimeout(state.timer);
  }
  state.queue = state.queue.then(work).catch((error) => state.log(String(error?.stack ?? error)))
    .finally(() => {
      if (!busy) return;
      state.active--;
      arm(state);
    });
}

/**
 * After an edit, queue a prepare of the next build (`_server_prepare.ts`), once the builds asked
 * for are done, and no sooner than {@linkcode PREPARE_SHARE} allows after the last one.
 */
function prepareSoon(state: Serving): void {
  if (state.prepareQueued || state.closed) return;
  state.prepareQueued = true;
  const prepare = async () => {
    state.prepareQueued = false;
    if (state.waiting || state.closed) return;
    const start = performance.now();
    await state.builds.prepare();
    const took = performance.now() - start;
    state.prepareAfter = performance.now() + took * (1 / PREPARE_SHARE - 1);
  };
  setTimeout(
    () => enqueue(state, prepare, "prepare"),
    Math.max(0, state.prepareAfter - performance.now()),
  );
}

function status(state: Serving): ServerStatus {
  return { ...state.info, ...state.builds.stats(), rss: Deno.memoryUsage().rss };
}

/** Run one build, then schedule the upkeep for when no build follows soon. */
async function build(state: Serving, conn: Deno.UnixConn, request: BuildRequest): Promise<void> {
  await state.builds.run(conn, request);
  clearTimeout(state.upkeep);
  state.upkeep = setTimeout(
    () => enqueue(state, () => state.builds.tidy(), "upkeep"),
    UPKEEP_AFTER_MS,
  );
}

/** The request a connection opens with, or undefined when it sends none that can be read. */
async function readRequest(conn: Deno.UnixConn): Promise<Record<string, unknown> | undefined> {
  try {
    const opening = (await readFrames(conn).next()).value;
    return opening?.kind === "message" ? readMessage(opening) : undefined;
  } catch {
    return undefined;
  }
}

/** Answer one connection: a status, a stop, or a build (queued). */
async function handle(state: Serving, conn: Deno.UnixConn): Promise<void> {
  const request = await readRequest(conn);
  if (request?.type === "status") {
    await writeMessage(conn, { type: "status", ...status(state) }).catch(() => {});
    conn.close();
  } else if (request?.type === "stop") {
    enqueue(state, async () => {
      stop(state);
      await writeMessage(conn, { type: "stopped", ...status(state) }).catch(() => {});
      conn.close();
    });
  } else if (request?.type === "build") {
    state.waiting++;
    enqueue(state, () => {
      state.waiting--;
      return build(state, conn, request as unknown as BuildRequest).finally(() => conn.close());
    });
  } else {
    conn.close();
  }
}

/**
 * `slop server start`: start this project's build server in the background
 * (unless it runs); resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runServerStart } from "./server.ts";
 * // await runServerStart({ idle: "1h" });
 * ```
 */
export async function runServerStart(flags: ServerFlags): Promise<number> {
  const idleMs = idleFlag(flags.idle);
  if (idleMs === undefined) return 2;
  const files = serverFiles({ config: flags.config, stateDir: flags.stateDir });
  const conn = await connectServer(files.socket) ??
    await startServer(files, { config: flags.config, stateDir: flags.stateDir, idleMs });
  if (!conn) {
    console.error(`slop: The build server did not start (see "${files.log}")`);
    return 1;
  }
  const answer = await ask(conn, { type: "status" });
  if (!flags.quiet && answer) console.log(`slop: ${statusLine(answer)}`);
  return answer ? 0 : 1;
}

/**
 * `slop server status`: whether this project's build server runs (with
 * `--all`, every server of this user), its builds and memory; exit code 1
 * when none runs.
 *
 * @example
 * ```ts
 * import { runServerStatus } from "./server.ts";
 * // await runServerStatus({ json: true });
 * ```
 */
export async function runServerStatus(flags: ServerFlags): Promise<number> {
  const found: ServerStatus[] = [];
  for (const files of serversOf(flags)) {
    const conn = await connectServer(files.socket);
    const answer = conn && await ask(conn, { type: "status" });
    if (answer) found.push(answer);
  }
  if (flags.json) console.log(JSON.stringify(flags.all ? found : found[0] ?? null, null, 2));
  else if (!found.length) console.log("slop: no build server runs" + (flags.all ? "" : " here"));
  else for (const s of found) console.log(`slop: ${statusLine(s)}`);
  return found.length ? 0 : 1;
}

/**
 * `slop server stop`: stop this project's build server (with `--all`, every
 * server of this user) once its current build is done.
 *
 * @example
 * ```ts
 * import { runServerStop } from "./server.ts";
 * // await runServerStop({ all: true });
 * ```
 */
export async function runServerStop(flags: ServerFlags): Promise<number> {
  let stopped = 0;
  for (const files of serversOf(flags)) {
    const conn = await connectServer(files.socket);
    const answer = conn && await ask(conn, { type: "stop" });
    if (!answer) continue;
    stopped++;
    if (!flags.quiet) console.log(`slop: stopped the build server (pid ${answer.pid})`);
  }
  if (!stopped && !flags.quiet) {
    console.log("slop: no build server runs" + (flags.all ? "" : " here"));
  }
  return 0;
}

/** The server files `flags` name: this project's, or with `--all` every one in the folder. */
function serversOf(flags: ServerFlags): ServerFiles[] {
  if (!flags.all) return [serverFiles({ config: flags.config, stateDir: flags.stateDir })];
  const dir = serverDir();
  const ids: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name.endsWith(".sock")) ids.push(entry.name.slice(0, -5));
  }
  return ids.sort().map((id) => {
    const at = (ext: string) => `${dir}/${id}.${ext}`;
    return { dir, id, socket: at("sock"), lock: at("lock"), log: at("log"), info: at("json") };
  });
}

/** Send one message and read the one answer (undefined when none comes). */
async function ask(conn: Deno.UnixConn, message: unknown): Promise<ServerStatus | undefined> {
  try {
    await writeMessage(conn, message);
    for await (const frame of readFrames(conn)) {
      if (frame.kind === "message") return readMessage(frame) as unknown as ServerStatus;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    closeQuietly(conn);
  }
}

function statusLine(s: ServerStatus): string {
  const where = s.config ? `config ${s.config} in ${s.cwd}` : s.cwd;
  const last = s.lastBuildMs === undefined
    ? ""
    : `, last ${s.lastBuildMs} ms${
      s.lastBuildPrepared ? ` (prepared in ${s.lastPrepareMs} ms)` : ""
    }`;
  const memory = `${formatBytes(s.rss)} resident` +
    (s.peakRss ? `, peak ${formatBytes(s.peakRss)}` : "");
  return `build server pid ${s.pid} for ${where}: ${s.builds} build${
    s.builds === 1 ? "" : "s"
  }${last}; ${memory}; exits after ${Math.round(s.idleMs / 1000)} s idle`;
}

/** slop's own module files, when it runs from a folder (their edits make the server stale). */
function ownSources(): string[] {
  const url = new URL("..", import.meta.url);
  if (url.protocol !== "file:") return [];
  const skip = new Set(["tests", "bench", "examples", "docs", "node_modules"]);
  const found: string[] = [];
  const walk = (dir: string, top: boolean) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) {
        if (!entry.name.startsWith(".") && !(top && skip.has(entry.name))) walk(path, false);
      } else if (/\.(?:ts|json)$/.test(entry.name)) found.push(path);
    }
  };
  try {
    walk(decodeURIComponent(url.pathname).replace(/\/$/, ""), true);
  } catch {
    return [];
  }
  return found.sort();
}

function idleFlag(idle: string | undefined): number | undefined {
  const ms = idle === undefined ? DEFAULT_IDLE_MS : parseDuration(idle);
  if (ms === undefined) {
    console.error(`slop: Invalid --idle "${idle}": expected a time like 30s, 15m or 2h`);
  }
  return ms;
}

/**
 * Remove the socket and the info file, if they are still this process's (a stale server removed
 * them before it answered, and the socket may be a new server's by the time it exits).
 */
function removeOwn(files: ServerFiles) {
  try {
    const info = JSON.parse(Deno.readTextFileSync(files.info)) as ServerInfo;
    if (info.pid !== Deno.pid) return;
  } catch {
    return;
  }
  removeQuietly(files.socket);
  removeQuietly(files.info);
}

function removeQuietly(path: string) {
  try {
    Deno.removeSync(path);
  } catch {
    // Not there.
  }
}

/** The size past which a server starting empties its log (it keeps the last server's lines). */
const LOG_MAX = 1 << 20;

function trimLog(path: string) {
  try {
    if (Deno.statSync(path).size > LOG_MAX) Deno.truncateSync(path, 0);
  } catch {
    // No log yet.
  }
}

function appendLog(path: string, text: string) {
  try {
    Deno.writeTextFileSync(path, `${new Date().toISOString()} ${text}\n`, {
      append: true,
      mode: 0o600,
    });
  } catch {
    // A log that cannot be written is not worth failing a build for.
  }
}
