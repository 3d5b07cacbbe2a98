/**
 * The build server's process: one per project, listening on a Unix socket only its user can
 * open, running the builds clients hand it one at a time in the client's working directory and
 * environment. What it buys: a build after an edit without a runtime start, a config load, a
 * cache open or a look at every file, because the process keeps them (`session.ts`) and a
 * watcher says what changed (`_watch.ts`); and, after an edit, the next build prepared before it
 * is asked for (`builds.ts`, `_prepare.ts`); what that buys is measured in `bench/README.md`
 * ("Numbers behind code choices", `bench/results.md`). The server exits after a time
 * without builds, when stopped, or when a module it loaded changes (the next client starts a new
 * one). `slop server` (`cli/server.ts`) is the command around it; the build it runs is handed in
 * ({@linkcode ServeOptions.load}), so this folder imports nothing of the command line.
 *
 * @module
 */

import { dirname } from "node:path";
import { removeQuietly } from "../pipeline/helpers.ts";
import { redactMessage } from "../pipeline/redact_message.ts";
import { sayStallsIn } from "../pipeline/hook_watchdog.ts";
import { readFrames, readMessage, writeMessage } from "./_frames.ts";
import { connectServer } from "./client.ts";
import { type ServerFiles, type ServerInfo, serverVersion } from "./files.ts";
import type { BuildRequest, BuildRunner, BuildStats, ServerBuilds } from "./builds.ts";

/** A running server's answer to `status`. */
export interface ServerStatus extends ServerInfo, BuildStats {
  /** Resident set size now, in bytes. */
  rss: number;
  /** The work its queue ran last, oldest first: `build`, `prepare`, `upkeep` (at most 20). */
  work?: string[];
}

/** Options of {@linkcode serveProject}. */
export interface ServeOptions {
  /** Milliseconds without a build before the server exits. */
  idleMs: number;
  /** Log to the server's log file instead of stderr (started by a client). */
  detached?: boolean;
  /** `--config` as the builds give it (written to the info file). */
  config?: string;
  /** `--state-dir` as the builds give it (written to the info file). */
  stateDir?: string;
  /**
   * What runs a client's build and the built-in plugins, loaded once the server listens (the
   * command line's `slop build`, see `cli/server.ts`).
   */
  load: () => Promise<BuildRunner>;
}

/** Quiet milliseconds after a build before the server's upkeep (a collection) runs. */
const UPKEEP_AFTER_MS = 150;

/**
 * Quiet milliseconds after an upkeep left for an edit's build before it runs anyway: files that
 * change with no build asked for (a log the project writes) do not hold the collection for good.
 */
const UPKEEP_HELD_MS = 10_000;

/** The kinds of work kept for `status` (see {@linkcode ServerStatus.work}). */
const WORK_KEPT = 20;

/**
 * Prepared builds take at most this share of the time: after one that took `t` ms, the next
 * waits `t * (1 / PREPARE_SHARE - 1)` ms (a file rewritten again and again costs little).
 */
const PREPARE_SHARE = 0.1;

/**
 * Run a build server for `files` in this process until it is idle for `options.idleMs`, stopped
 * or stale; resolves to the exit code (1 when one already listens there, or on an error).
 *
 * @example
 * ```ts
 * import { serveProject } from "./serve.ts";
 * import { serverFiles } from "./files.ts";
 * // await serveProject(serverFiles({}), { idleMs: 600_000, load: async () => runner });
 * ```
 */
export async function serveProject(files: ServerFiles, options: ServeOptions): Promise<number> {
  if (options.detached) trimLog(files.log);
  // A plugin's hook that holds the thread ends the server: the log its client points to says so.
  if (options.detached) sayStallsIn(files.log);
  // An error's stack can quote what it was handed (a request's task, a config's value): the log
  // is a file under the project's state folder, and CI keeps such folders as artifacts.
  const log = options.detached
    ? (text: string) => appendLog(files.log, redactMessage(text))
    : (text: string) => console.error(`slop: ${redactMessage(text)}`);
  const running = await connectServer(files.socket);
  if (running) {
    running.close();
    log(`a build server already listens at "${files.socket}"`);
    return 1;
  }
  try {
    return await serve(files, options, log);
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
  /**
   * An edit was seen since the last build began: its client is likely on its way, and the
   * upkeep's collection (seconds on a big tree) waits for that build rather than run before it.
   */
  edited: boolean;
  /** The kinds of work run last (see {@linkcode ServerStatus.work}). */
  done: string[];
}

/** Listen and run builds until idle, stopped or stale (see {@linkcode serveProject}). */
async function serve(
  files: ServerFiles,
  options: ServeOptions,
  log: (text: string) => void,
): Promise<number> {
  const { idleMs } = options;
  if (options.detached) {
    // Started by a client: the terminal's Ctrl-C and hang-up are the client's, not the server's.
    for (const signal of ["SIGINT", "SIGHUP"] as const) Deno.addSignalListener(signal, () => {});
  }
  removeQuietly(files.socket);
  const listener = Deno.listen({ transport: "unix", path: files.socket });
  const info = writeInfo(files, options);
  // Listening already: a client that started this server connects and waits while the pipeline
  // loads (a specifier made at run time, so that Deno does not load it before the first line).
  const [{ serverBuilds }, runner] = await Promise.all([
    import(new URL("./builds.ts", import.meta.url).href) as Promise<typeof import("./builds.ts")>,
    options.load(),
  ]);
  const state: Serving = {
    files,
    idleMs,
    log,
    info,
    listener,
    builds: serverBuilds({
      ...runner,
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
    edited: false,
    done: [],
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
function writeInfo(files: ServerFiles, options: ServeOptions): ServerInfo {
  const { config, stateDir, idleMs } = options;
  const info: ServerInfo = {
    pid: Deno.pid,
    cwd: Deno.cwd(),
    ...(config !== undefined ? { config } : {}),
    ...(stateDir !== undefined ? { stateDir } : {}),
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
  // none, the work a prepare left waits (it would take this build's thread: bench/README.md,
  // "Speed against Repomix").
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
 * After an edit, queue a prepare of the next build (`_prepare.ts`), once the builds asked
 * for are done, and no sooner than {@linkcode PREPARE_SHARE} allows after the last one.
 */
function prepareSoon(state: Serving): void {
  state.edited = true;
  if (state.prepareQueued || state.closed) return;
  state.prepareQueued = true;
  const prepare = async () => {
    state.prepareQueued = false;
    if (state.waiting || state.closed) return;
    noteWork(state, "prepare");
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
  const stats = state.builds.stats();
  const rss = Deno.memoryUsage().rss;
  // Linux updates VmHWM lazily: the peak it gives can be a little below the RSS now.
  const peakRss = stats.peakRss && Math.max(stats.peakRss, rss);
  return { ...state.info, ...stats, rss, peakRss, work: [...state.done] };
}

/** Note a kind of work run, for `status`. */
function noteWork(state: Serving, kind: string): void {
  state.done.push(kind);
  if (state.done.length > WORK_KEPT) state.done.shift();
}

/**
 * The upkeep between builds, unless an edit was seen since the last build began: then the build
 * asked for after it would wait for the collection, and that build schedules the upkeep again
 * (or, with no build asked for, it runs {@linkcode UPKEEP_HELD_MS} later).
 */
function upkeep(state: Serving, held = false): void {
  if (state.edited && !held) {
    clearTimeout(state.upkeep);
    state.upkeep = setTimeout(
      () => enqueue(state, () => upkeep(state, true), "upkeep"),
      UPKEEP_HELD_MS,
    );
    return;
  }
  noteWork(state, "upkeep");
  state.builds.tidy();
}

/** Run one build, then schedule the upkeep for when no build follows soon. */
async function build(state: Serving, conn: Deno.UnixConn, request: BuildRequest): Promise<void> {
  await state.builds.run(conn, request);
  clearTimeout(state.upkeep);
  state.upkeep = setTimeout(
    () => enqueue(state, () => upkeep(state), "upkeep"),
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
      state.edited = false;
      noteWork(state, "build");
      return build(state, conn, request as unknown as BuildRequest).finally(() => conn.close());
    });
  } else {
    conn.close();
  }
}

/** slop's own module files, when it runs from a folder (their edits make the server stale). */
function ownSources(): string[] {
  // The folder above this one (`import.meta.dirname` is unset unless slop runs from files).
  const here = import.meta.dirname;
  if (here === undefined) return [];
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
    walk(dirname(here), true);
  } catch {
    return [];
  }
  return found.sort();
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
