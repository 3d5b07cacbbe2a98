/**
 * `slop server`: the commands that run, start, ask and stop the build server behind
 * `slop build --server` (its process is `server/serve.ts`, see there what it buys). `run` serves
 * in this process, handing the server `slop build` (`build.ts`) to run for its clients.
 *
 * @module
 */

import { askServer, connectServer, startServer } from "../server/client.ts";
import {
  DEFAULT_IDLE_MS,
  durationError,
  parseDuration,
  serverDir,
  ServerDirError,
  type ServerFiles,
  serverFiles,
} from "../server/files.ts";
import type { BuildRunner } from "../server/builds.ts";
import { serveProject, type ServerStatus } from "../server/serve.ts";
import { formatBytes, printError } from "./_output.ts";
import type { BuildFlags } from "./build.ts";

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
  return await guarded(async () => {
    const idleMs = idleFlag(flags.idle);
    if (idleMs === undefined) return 2;
    const files = serverFiles({ config: flags.config, stateDir: flags.stateDir });
    const { config, stateDir, detached } = flags;
    return await serveProject(files, { idleMs, config, stateDir, detached, load: loadBuild });
  });
}

/**
 * What the server runs for a client: `slop build` with the client's paths and flags, and the
 * built-in plugins (loaded once the server listens: specifiers made at run time).
 */
async function loadBuild(): Promise<BuildRunner> {
  const [{ runBuild }, { builtinPlugins }] = await Promise.all([
    import(new URL("./build.ts", import.meta.url).href) as Promise<typeof import("./build.ts")>,
    import(new URL("./_builtins.ts", import.meta.url).href) as Promise<
      typeof import("./_builtins.ts")
    >,
  ]);
  return {
    run: (request, options) => runBuild(request.paths, request.flags as BuildFlags, options),
    builtins: builtinPlugins(),
  };
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
  return await guarded(async () => {
    const idleMs = idleFlag(flags.idle);
    if (idleMs === undefined) return 2;
    const files = serverFiles({ config: flags.config, stateDir: flags.stateDir });
    const conn = await connectServer(files.socket) ??
      await startServer(files, {
        config: flags.config,
        stateDir: flags.stateDir,
        idleMs,
        entry: new URL("../cli.ts", import.meta.url),
      });
    if (!conn) {
      console.error(`slop: The build server did not start (see "${files.log}")`);
      return 1;
    }
    const answer = await ask(conn, { type: "status" });
    if (!flags.quiet && answer) console.log(`slop: ${statusLine(answer)}`);
    return answer ? 0 : 1;
  });
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
  return await guarded(async () => {
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
  });
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
  return await guarded(async () => {
    let stopped = 0;
    for (const files of serversOf(flags)) {
      const conn = await connectServer(files.socket);
      const answer = conn && await ask(conn, { type: "stop" });
      if (!answer) continue;
      stopped++;
      // With --all, which project's: the user stops servers they did not start by hand.
      const of = flags.all ? ` of ${answer.cwd}${answer.config ? ` (${answer.config})` : ""}` : "";
      if (!flags.quiet) console.log(`slop: stopped the build server${of} (pid ${answer.pid})`);
    }
    if (!stopped && !flags.quiet) {
      console.log("slop: no build server runs" + (flags.all ? "" : " here"));
    }
    return 0;
  });
}

/** Run a server command: a server folder slop cannot use is one line naming it, exit 1. */
async function guarded(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ServerDirError)) throw error;
    console.error(`slop: ${error.message}`);
    return 1;
  }
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

/** Send one message and read the server's status in answer (undefined when none comes). */
async function ask(conn: Deno.UnixConn, message: unknown): Promise<ServerStatus | undefined> {
  return await askServer(conn, message) as ServerStatus | undefined;
}

/**
 * A server's status in one line: its project, builds, memory and idle limit. The peak shown is at
 * least the resident size (a server of an older slop may answer with a lazily updated peak).
 *
 * @example
 * ```ts
 * import { statusLine } from "./server.ts";
 * declare const status: Parameters<typeof statusLine>[0];
 * statusLine(status); // "build server pid 42 for /p: 1 build, last 80 ms; 60.0 MB resident, …"
 * ```
 */
export function statusLine(s: ServerStatus): string {
  const where = s.config ? `config ${s.config} in ${s.cwd}` : s.cwd;
  const last = s.lastBuildMs === undefined
    ? ""
    : `, last ${s.lastBuildMs} ms${
      s.lastBuildPrepared ? ` (prepared in ${s.lastPrepareMs} ms)` : ""
    }`;
  const memory = `${formatBytes(s.rss)} resident` +
    (s.peakRss ? `, peak ${formatBytes(Math.max(s.peakRss, s.rss))}` : "");
  return `build server pid ${s.pid} for ${where}: ${s.builds} build${
    s.builds === 1 ? "" : "s"
  }${last}; ${memory}; exits after ${Math.round(s.idleMs / 1000)} s idle`;
}

function idleFlag(idle: string | undefined): number | undefined {
  const ms = idle === undefined ? DEFAULT_IDLE_MS : parseDuration(idle);
  if (ms === undefined) {
    printError(durationError("--idle", idle!));
  }
  return ms;
}
