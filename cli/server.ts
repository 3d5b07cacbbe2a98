/**
 * `slop server`: the build server behind `slop build --server`, one per
 * project (working directory, `--config`, `--state-dir`), listening on a Unix
 * socket only its user can open. It runs the builds clients hand it one at a
 * time, in the client's working directory and environment, keeping what
 * `slop watch` keeps between builds (the opened cache, the stat index, the
 * rendered files, the blocks' hashes and counts) and the loaded config while
 * its file is unchanged. Every build looks at every file (a stat each; the
 * changed ones are read), so nothing it keeps can go stale unseen. It exits
 * after a time without builds, on `slop server stop`, or when a module it
 * loaded changes (the next client starts a new one).
 *
 * @module
 */

import type { BuildFlags } from "./build.ts";
import { readFrames, readMessage, writeFrame, writeMessage } from "./_frames.ts";
import { connectServer, startServer } from "./_client.ts";
import {
  DEFAULT_IDLE_MS,
  parseDuration,
  serverDir,
  type ServerFiles,
  serverFiles,
  type ServerInfo,
  serverVersion,
} from "./_server_files.ts";
import type { BuildResult } from "../pipeline/build.ts";
import type { ResolvedConfig } from "../pipeline/types.ts";
import type { Terminal } from "./_terminal.ts";
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
export interface ServerStatus extends ServerInfo {
  /** Builds run. */
  builds: number;
  /** The last build's time in ms (in the server). */
  lastBuildMs?: number;
  /** Resident set size now, in bytes. */
  rss: number;
  /** Peak resident set size, in bytes (0 where the system does not say). */
  peakRss: number;
  /** The last build's peak resident set size, in bytes (Linux; else absent). */
  lastBuildPeakRss?: number;
  /** What the file watcher told before the last build; null when it looked at every file. */
  lastChanges?: { paths: string[]; structural: boolean } | null;
}

/** A build request, as `cli/_client.ts` sends it. */
interface BuildRequest {
  type: "build";
  version: string;
  paths: string[];
  flags: BuildFlags;
  cwd: string;
  env: Record<string, string>;
  stderrIsTerminal: boolean;
}

/** Heap growth in bytes after which the server collects garbage after a build. */
const COLLECT_AFTER = 2 * 1024 * 1024;

/** Quiet milliseconds after a build before the server's upkeep (a collection) runs. */
const UPKEEP_AFTER_MS = 150;

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
  const files = await serverFiles({ config: flags.config, stateDir: flags.stateDir });
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
  if (flags.detached) {
    // Started by a client: the terminal's Ctrl-C and hang-up are the client's, not the server's.
    for (const signal of ["SIGINT", "SIGHUP"] as const) Deno.addSignalListener(signal, () => {});
  }
  removeQuietly(files.socket);
  const listener = Deno.listen({ transport: "unix", path: files.socket });
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
  // Listening already: a client that started this server connects and waits while the pipeline
  // loads (a specifier made at run time, so that Deno does not load it before the first line).
  const { build: buildOnce, collectGarbage, runBuild, serverSession, warmUp } = await import(
    new URL("./_server_build.ts", import.meta.url).href
  ) as typeof import("./_server_build.ts");
  const session = serverSession({ sources: ownSources(), watch: { dir: files.dir, id: files.id } });
  // The first build's result, for the warm-up after it.
  let first: { result: BuildResult; config: ResolvedConfig } | undefined;
  session.built = (result, config) => {
    if (session.first) first = { result, config };
  };
  let builds = 0;
  let lastBuildMs: number | undefined;
  let lastBuildPeakRss: number | undefined;
  // The peak RSS before the last build (the process's own peak is the largest of these).
  let peakBefore = 0;
  let collected = 0;
  let active = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const stop = () => {
    if (closed) return;
    closed = true;
    listener.close();
  };
  const arm = () => {
    clearTimeout(timer);
    if (!active) timer = setTimeout(stop, idleMs);
  };
  // Builds run one at a time, in the order they came.
  let queue: Promise<void> = Promise.resolve();
  // Upkeep between builds (a garbage collection) waits for a quiet moment: a build asked for soon
  // after the last one does not wait behind it.
  let upkeep: ReturnType<typeof setTimeout> | undefined;
  let upkeepDue = false;
  const enqueue = (work: () => Promise<void>, quiet = false) => {
    if (!quiet) clearTimeout(upkeep);
    active++;
    clearTimeout(timer);
    queue = queue.then(work).catch((error) => log(String(error?.stack ?? error))).finally(() => {
      active--;
      arm();
    });
  };
  const status = (): ServerStatus => ({
    ...info,
    builds,
    ...(lastBuildMs !== undefined ? { lastBuildMs } : {}),
    rss: Deno.memoryUsage().rss,
    peakRss: Math.max(peakBefore, peakRss()),
    ...(lastBuildPeakRss ? { lastBuildPeakRss } : {}),
    ...(builds ? { lastChanges: session.lastChanges } : {}),
  });
  const build = async (conn: Deno.UnixConn, request: BuildRequest) => {
    const stale = request.version !== serverVersion()
      ? `slop changed (${request.version})`
      : session.stale();
    if (stale) {
      // The socket goes first, so that the client's next try starts a new server.
      log(`stale: ${stale}; exiting`);
      stop();
      removeOwn(files);
      await writeMessage(conn, { type: "restart", reason: stale }).catch(() => {});
      return;
    }
    useEnv(request.env);
    Deno.chdir(request.cwd);
    const start = performance.now();
    peakBefore = Math.max(peakBefore, peakRss());
    const measured = resetPeakRss();
    const { terminal, flushed } = remoteTerminal(conn, request.stderrIsTerminal);
    let code: number;
    try {
      code = await runBuild(request.paths, request.flags, { terminal, session });
    } catch (error) {
      terminal.stderr(`slop: ${error instanceof Error ? error.message : String(error)}\n`);
      code = 1;
    }
    const wasFirst = session.first;
    session.first = false;
    builds++;
    lastBuildMs = Math.round(performance.now() - start);
    lastBuildPeakRss = measured ? peakRss() : undefined;
    await flushed();
    // An edit to a module the config imports is seen from the first answer on.
    await session.settled();
    if (wasFirst) {
      // The first build is usually cold: its cache writes and the rehearsal are done before it
      // answers, as a build in the client's process would do its own, not by the next build,
      // which is the one that should be quick.
      await session.resident.settled();
      if (first) await rehearse(first);
    }
    await writeMessage(conn, { type: "exit", code }).catch(() => {});
    if (wasFirst) {
      // Its garbage (the project's texts, as read, rendered and counted) at once, while the
      // client exits: a next build asked for soon would wait for the collection, but not hold it.
      collectGarbage();
      collected = Deno.memoryUsage().heapUsed;
    }
    // After the answer: the deferred cache writes (the next build would wait for them).
    await session.resident.settled();
    upkeepDue = true;
    clearTimeout(upkeep);
    upkeep = setTimeout(() => enqueue(tidy, true), UPKEEP_AFTER_MS);
  };
  // As `slop watch` does before it watches: load what a build after an edit needs that the first
  // build loaded in a worker only (the secret scanner) or not at all (the grammars of files it
  // took from the cache), and run a build that writes nothing, so that the next build runs code
  // compiled already (zod's first rebuild: 74-101 ms in the server without this, 47-77 with it).
  const rehearse = async ({ result, config }: { result: BuildResult; config: ResolvedConfig }) => {
    first = undefined;
    await warmUp(result.files);
    const told = session.lastChanges;
    await session.changes?.(config);
    session.lastChanges = told;
    const dry = { builtins: session.builtins, resident: session.resident };
    await buildOnce(config, { ...dry, write: false, record: false }).catch(() => {});
    await session.resident.settled();
  };
  const tidy = () => {
    if (!upkeepDue) return Promise.resolve();
    upkeepDue = false;
    // The garbage of the builds since the last collection (see `_collect.ts`).
    if (Deno.memoryUsage().heapUsed - collected >= COLLECT_AFTER) {
      collectGarbage();
      collected = Deno.memoryUsage().heapUsed;
    }
    return Promise.resolve();
  };
  const serve = async (conn: Deno.UnixConn) => {
    const frames = readFrames(conn);
    let request: Record<string, unknown> | undefined;
    try {
      const first = (await frames.next()).value;
      request = first?.kind === "message" ? readMessage(first) : undefined;
    } catch {
      request = undefined;
    }
    if (request?.type === "status") {
      await writeMessage(conn, { type: "status", ...status() }).catch(() => {});
      conn.close();
    } else if (request?.type === "stop") {
      enqueue(async () => {
        stop();
        await writeMessage(conn, { type: "stopped", ...status() }).catch(() => {});
        conn.close();
      });
    } else if (request?.type === "build") {
      enqueue(() => build(conn, request as unknown as BuildRequest).finally(() => conn.close()));
    } else {
      conn.close();
    }
  };
  const terminate = () => stop();
  Deno.addSignalListener("SIGTERM", terminate);
  arm();
  log(`listening at "${files.socket}" (pid ${Deno.pid})`);
  try {
    // A status request is no activity: only builds (and stop) hold the idle timer.
    for await (const conn of listener) {
      serve(conn).catch((error) => log(String(error?.stack ?? error)));
    }
  } catch (error) {
    if (!closed) log(String((error as Error)?.stack ?? error));
  } finally {
    clearTimeout(timer);
    clearTimeout(upkeep);
    Deno.removeSignalListener("SIGTERM", terminate);
  }
  await queue;
  session.close();
  await session.resident.close();
  removeOwn(files);
  log(`exiting after ${builds} build${builds === 1 ? "" : "s"}`);
  return 0;
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
  const files = await serverFiles({ config: flags.config, stateDir: flags.stateDir });
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
  for (const files of await serversOf(flags)) {
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
  for (const files of await serversOf(flags)) {
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
async function serversOf(flags: ServerFlags): Promise<ServerFiles[]> {
  if (!flags.all) return [await serverFiles({ config: flags.config, stateDir: flags.stateDir })];
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
    try {
      conn.close();
    } catch {
      // Closed by the server.
    }
  }
}

function statusLine(s: ServerStatus): string {
  const where = s.config ? `config ${s.config} in ${s.cwd}` : s.cwd;
  const last = s.lastBuildMs === undefined ? "" : `, last ${s.lastBuildMs} ms`;
  const memory = `${formatBytes(s.rss)} resident` +
    (s.peakRss ? `, peak ${formatBytes(s.peakRss)}` : "");
  return `build server pid ${s.pid} for ${where}: ${s.builds} build${
    s.builds === 1 ? "" : "s"
  }${last}; ${memory}; exits after ${Math.round(s.idleMs / 1000)} s idle`;
}

/**
 * A terminal whose output goes to the client as frames, in order; `flushed`
 * waits for every frame. A client that went away is written to no more.
 */
function remoteTerminal(
  conn: Deno.UnixConn,
  stderrIsTerminal: boolean,
): { terminal: Terminal; flushed: () => Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  let gone = false;
  const send = (kind: "stdout" | "stderr", data: string | Uint8Array) => {
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    chain = chain.then(() => gone ? undefined : writeFrame(conn, kind, bytes)).catch(() => {
      gone = true;
    });
    return chain;
  };
  return {
    terminal: {
      stdout: (data) => send("stdout", data),
      stderr: (text) => void send("stderr", text),
      stderrIsTerminal,
    },
    flushed: () => chain,
  };
}

/** Make this process's environment the client's. */
function useEnv(env: Record<string, string>) {
  const now = Deno.env.toObject();
  for (const key of Object.keys(now)) if (!(key in env)) Deno.env.delete(key);
  for (const [key, value] of Object.entries(env)) if (now[key] !== value) Deno.env.set(key, value);
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

/** The peak RSS from `/proc/self/status` (Linux), else 0. */
function peakRss(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Start the peak RSS anew from the current RSS (Linux: `/proc/self/clear_refs`); false where the
 * system does not allow it.
 */
function resetPeakRss(): boolean {
  try {
    Deno.writeTextFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

/** Remove the socket and the info file, if they are still this process's. */
function removeOwn(files: ServerFiles) {
  try {
    const info = JSON.parse(Deno.readTextFileSync(files.info)) as ServerInfo;
    if (info.pid !== Deno.pid) return;
  } catch {
    // No info: the socket is removed all the same.
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
