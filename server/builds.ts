/**
 * How a build server runs the builds its clients hand it (`serve.ts` runs the process around
 * it): each in the client's working directory and environment, with its output sent back as
 * frames, its time and peak RSS measured; after the first build a rehearsal, as `slop watch` does
 * before it watches; and between builds, after an edit, the next build prepared ahead (see
 * `_prepare.ts`, which says what prepared builds buy). What the rehearsal buys, switched off
 * (`bench/README.md`, "Speed layers, each switched off", zod): a warm build through the server in
 * 0.095 s against 0.127. This module loads the pipeline: the server imports it once it listens.
 *
 * @module
 */

import { collectGarbage } from "../accel/collect.ts";
import { writeFrame, writeMessage } from "./_frames.ts";
import type { ServerChanges } from "./_watch.ts";
import { type BuildSession, type ServerSession, serverSession } from "./session.ts";
import {
  aheadKey,
  finishable,
  inputStamps,
  preparable,
  type PreparedNext,
  stampOf,
} from "./_prepare.ts";
import { build, type BuildResult, prepareBuild } from "../pipeline/build.ts";
import type { Plugin, ResolvedConfig } from "../pipeline/types.ts";
import { speedLayer } from "../accel/speed_layer.ts";

/** A build request, as a client sends it (see `client.ts`). */
export interface BuildRequest {
  type: "build";
  /** The client's slop and Deno (see `serverVersion()`). */
  version: string;
  paths: string[];
  /** The command line's flags of `slop build`, read by {@linkcode BuildRunner.run}. */
  flags: Record<string, unknown>;
  cwd: string;
  env: Record<string, string>;
  stderrIsTerminal: boolean;
}

/**
 * Where a client's build output goes: the client's stdout and stderr, as frames (the shape of
 * the command line's terminal).
 */
export interface ClientTerminal {
  /** Write bytes or text to the client's stdout, all of it. */
  stdout(data: string | Uint8Array): Promise<void>;
  /** Write text to the client's stderr. */
  stderr(text: string): void;
  /** Whether the client's stderr is a terminal. */
  stderrIsTerminal: boolean;
}

/** What a server runs for its clients, handed in by the command that starts it. */
export interface BuildRunner {
  /** Run a client's build (`slop build` with its paths and flags); resolves to the exit code. */
  run(
    request: BuildRequest,
    options: { terminal: ClientTerminal; session: BuildSession },
  ): Promise<number>;
  /** The built-in plugins, made once for every build. */
  builtins: Plugin[];
}

/** What a server's builds measured, for `slop server status`. */
export interface BuildStats {
  /** Builds run. */
  builds: number;
  /** The last build's time in ms (in the server). */
  lastBuildMs?: number;
  /** Peak resident set size of the process, in bytes (0 where the system does not say). */
  peakRss: number;
  /** The last build's peak resident set size, in bytes (Linux; else absent). */
  lastBuildPeakRss?: number;
  /** What the file watcher told before the last build; null when it looked at every file. */
  lastChanges?: ServerChanges | null;
  /** Builds prepared ahead after an edit (see `_prepare.ts`). */
  prepares: number;
  /** The last prepared build's time in ms. */
  lastPrepareMs?: number;
  /** Whether the last build finished a build prepared ahead (its peak RSS includes that). */
  lastBuildPrepared?: boolean;
  /**
   * Why the last build did not finish a build prepared ahead, when one was prepared since the
   * build before: another config, a change seen after it, an input file changed, or its error.
   */
  lastPrepareUnused?: string;
}

/** Options of {@linkcode serverBuilds}. */
export interface ServerBuildsOptions extends BuildRunner {
  /** slop's own module files (their edits make the server stale). */
  sources: string[];
  /** The server's folder and id, for the file watcher's tick files; `onChange` is told of edits. */
  watch: { dir: string; id: string; onChange?: () => void };
  /** The version clients must have (see `serverVersion()`). */
  version: string;
  /** Called with the reason before a stale server answers "restart" (it should stop listening). */
  onStale: (reason: string) => void;
}

/** A build server's builds. */
export interface ServerBuilds {
  /** Run a build request and answer it (or answer "restart" when this server is stale). */
  run(conn: Deno.UnixConn, request: BuildRequest): Promise<void>;
  /** Collect the garbage of the builds since the last collection, when it has grown. */
  tidy(): void;
  /**
   * Prepare the next build with the last build's request, unless its config cannot be prepared
   * (see `_prepare.ts`) or this server is stale.
   */
  prepare(): Promise<void>;
  /** A build or prepare is waiting: the work the last build left starts now, not after a pause. */
  hurry(): void;
  /** What the builds measured. */
  stats(): BuildStats;
  /** Stop the file watchers and finish the deferred writes. */
  close(): Promise<void>;
}

/** Heap growth in bytes after which the server collects garbage between builds. */
const COLLECT_AFTER = 2 * 1024 * 1024;

/**
 * The builds of a build server.
 *
 * @example
 * ```ts
 * import { serverBuilds } from "./builds.ts";
 * // const builds = serverBuilds({ run, builtins, sources: [], watch, version, onStale: stop });
 * // await builds.run(conn, request);
 * ```
 */
export function serverBuilds(options: ServerBuildsOptions): ServerBuilds {
  const { sources, watch, builtins } = options;
  const session = serverSession({ sources, watch, builtins });
  const state: BuildsState = {
    options,
    session,
    builds: 0,
    prepares: 0,
    lastBuildPrepared: false,
    ahead: new Set(),
    peakBefore: 0,
    collected: 0,
  };
  session.built = (result, config) => {
    state.builtWith = config;
    if (session.first) state.first = { result, config };
  };
  session.renderedAhead = (file) => state.ahead.has(aheadKey(file));
  session.prepared = (config) => takePrepared(state, config);
  return {
    run: (conn, request) => runRequest(state, conn, request),
    prepare: () => prepareNext(state),
    hurry() {
      void session.resident.settled();
    },
    tidy() {
      if (Deno.memoryUsage().heapUsed - state.collected >= COLLECT_AFTER) collect(state);
    },
    stats: () => buildStats(state),
    async close() {
      dropNext(state);
      session.close();
      await session.resident.close();
    },
  };
}

/** What a server's builds keep between requests. */
interface BuildsState {
  options: ServerBuildsOptions;
  session: ServerSession;
  /** The first build's result and config, for the rehearsal after it. */
  first?: { result: BuildResult; config: ResolvedConfig };
  /** The config the build running now was built with (unset when it failed before). */
  builtWith?: ResolvedConfig;
  builds: number;
  lastBuildMs?: number;
  lastBuildPeakRss?: number;
  /** The last build's request and config: the next build is prepared with them. */
  last?: { request: BuildRequest; config: ResolvedConfig };
  /** The build prepared since the last build. */
  next?: PreparedNext;
  /** What the watcher told the prepares since the last build. */
  toldPrepares?: ServerChanges | null;
  prepares: number;
  lastPrepareMs?: number;
  lastBuildPrepared: boolean;
  /** Why the last build did not finish the build prepared ahead (`BuildStats`). */
  unused?: string;
  /** The last prepare's error: no build was prepared. */
  prepareError?: string;
  /** Files the prepares since the last build rendered: that build reports them as rendered. */
  ahead: Set<string>;
  /** Set by a prepare: the peak RSS is measured from there to the end of the next build. */
  peakReset?: boolean;
  /** The process's peak before the last build (its own peak is the largest of these). */
  peakBefore: number;
  /** The heap in use after the last collection. */
  collected: number;
}

/** The build prepared ahead, when nothing it read changed since; else it is discarded. */
function takePrepared(state: BuildsState, config: ResolvedConfig) {
  const kept = state.next;
  state.next = undefined;
  const unused = whyUnused(state, kept, config);
  state.unused = kept || state.prepareError ? unused : undefined;
  state.lastBuildPrepared = unused === undefined;
  if (unused !== undefined) kept?.build.discard();
  return unused === undefined ? kept!.build : undefined;
}

/** Why the build prepared ahead (`kept`) is not the one asked for now; undefined when it is. */
function whyUnused(
  state: BuildsState,
  kept: PreparedNext | undefined,
  config: ResolvedConfig,
): string | undefined {
  const seen = state.session.lastChanges;
  if (!kept) return state.prepareError ? `it failed: ${state.prepareError}` : "none was prepared";
  if (kept.after !== state.builds) return "a build ran since it was prepared";
  if (kept.config !== config) return "the build asked for has another config";
  if (!seen) return "the watcher could not say what changed since";
  if (seen.structural) return "files were added, removed or moved since";
  if (seen.paths.length) return `files changed since: ${seen.paths.slice(0, 5).join(", ")}`;
  const changed = kept.stamps.find(([path, stamp]) => stampOf(path) !== stamp);
  return changed ? `an input changed since: ${changed[0]}` : undefined;
}

/** A prepared build that will not be finished: what it wrote ahead goes. */
function dropNext(state: BuildsState): void {
  state.next?.build.discard();
  state.next = undefined;
}

function collect(state: BuildsState): void {
  collectGarbage();
  state.collected = Deno.memoryUsage().heapUsed;
}

/**
 * What the watcher saw since it was last asked, told to the resident but not reported as the last
 * build's (`lastChanges`): for builds nobody asked for.
 */
async function lookAside(session: ServerSession, config: ResolvedConfig) {
  const told = session.lastChanges;
  await session.changes?.(config);
  const seen = session.lastChanges;
  session.lastChanges = told;
  return seen;
}

/**
 * As `slop watch` does before it watches: run a build that writes nothing, so that the next build
 * runs code compiled already.
 */
async function rehearse(
  session: ServerSession,
  { config }: { config: ResolvedConfig },
): Promise<void> {
  await lookAside(session, config);
  const dry = { builtins: session.builtins, layer: speedLayer({ resident: session.resident }) };
  await build(config, { ...dry, write: false, record: false, remember: false }).catch(() => {});
  await session.resident.settled();
}

/** Run a build request and answer it, or answer "restart" when this server is stale. */
async function runRequest(
  state: BuildsState,
  conn: Deno.UnixConn,
  request: BuildRequest,
): Promise<void> {
  const { session } = state;
  const stale = request.version !== state.options.version
    ? `slop changed (${request.version})`
    : session.stale();
  if (stale) {
    state.options.onStale(stale);
    await writeMessage(conn, { type: "restart", reason: stale }).catch(() => {});
    return;
  }
  useEnv(request.env);
  Deno.chdir(request.cwd);
  const start = performance.now();
  state.peakBefore = Math.max(state.peakBefore, peakRss());
  const measured = state.peakReset ?? resetPeakRss();
  state.peakReset = undefined;
  state.lastBuildPrepared = false;
  state.builtWith = undefined;
  const { terminal, flushed } = remoteTerminal(conn, request.stderrIsTerminal);
  let code: number;
  try {
    code = await state.options.run(request, { terminal, session });
  } catch (error) {
    terminal.stderr(`slop: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
  const wasFirst = session.first;
  session.first = false;
  recordBuild(state, request, { start, measured });
  await flushed();
  // An edit to a module the config imports is seen from the first answer on.
  await session.settled();
  if (wasFirst) {
    // The first build is usually cold: its cache writes and the rehearsal are done before it
    // answers, as a build in the client's process does its own, not by the next build, which
    // is the one that should be quick.
    await session.resident.settled();
    if (state.first) await rehearse(session, state.first);
    state.first = undefined;
  }
  await writeMessage(conn, { type: "exit", code }).catch(() => {});
  // The first build's garbage (the project's texts as read, rendered and counted) goes at
  // once, while the client exits; a build asked for meanwhile waits for the collection.
  if (wasFirst) collect(state);
  // The deferred cache writes, which the next build would wait for; they start once the client
  // has had time to exit (or when a build or prepare comes).
  await session.resident.settled({ hurry: false });
}

/** Note a build's end: its count, time and peak, and what it leaves for the next prepare. */
function recordBuild(
  state: BuildsState,
  request: BuildRequest,
  { start, measured }: { start: number; measured: boolean },
): void {
  const { session } = state;
  state.builds++;
  // A build prepared ahead that this build did not take (it failed before it looked).
  dropNext(state);
  state.ahead.clear();
  state.prepareError = undefined;
  state.last = state.builtWith ? { request, config: state.builtWith } : undefined;
  if (state.toldPrepares !== undefined) {
    session.lastChanges = joinChanges(state.toldPrepares, session.lastChanges);
  }
  state.toldPrepares = undefined;
  state.lastBuildMs = Math.round(performance.now() - start);
  state.lastBuildPeakRss = measured ? peakRss() : undefined;
}

/**
 * Prepare the next build with the last build's request, unless its config cannot be prepared
 * (see `_prepare.ts`), nothing changed since, or this server is stale.
 */
async function prepareNext(state: BuildsState): Promise<void> {
  const { session } = state;
  const asked = state.last;
  if (!asked || session.stale()) return;
  try {
    // The folder the last build was asked from may be gone (a project removed): nothing to do.
    Deno.chdir(asked.request.cwd);
  } catch {
    return;
  }
  useEnv(asked.request.env);
  const config = asked.config;
  if (!session.current(config) || !preparable(config)) return;
  const start = performance.now();
  // Taken before anything is read: a change while it builds shows.
  const stamps = inputStamps(config, session.resident.orders.keys());
  const seen = await lookAside(session, config);
  state.toldPrepares = state.toldPrepares === undefined
    ? seen
    : joinChanges(state.toldPrepares, seen);
  // Nothing changed since the last build or prepare (the change is built), or the watcher
  // cannot say (the build asked for next looks at every file): nothing to prepare.
  if (!seen || (!seen.paths.length && !seen.structural)) return;
  state.peakBefore = Math.max(state.peakBefore, peakRss());
  state.peakReset ??= resetPeakRss();
  dropNext(state);
  const after = state.builds;
  state.prepareError = undefined;
  try {
    const prepared = await prepareBuild(config, {
      builtins: session.builtins,
      layer: speedLayer({
        resident: session.resident,
        renderedAhead: session.renderedAhead,
      }),
    });
    for (const file of prepared.files) if (file.cache === "miss") state.ahead.add(aheadKey(file));
    if (finishable(prepared.files)) state.next = { build: prepared, config, after, stamps };
    else prepared.discard();
  } catch (error) {
    // The build asked for next runs again and reports it; the status says why none was ready.
    state.prepareError = error instanceof Error ? error.message.split("\n")[0] : String(error);
  }
  // Its cache writes wait, as a build's do (`resident.defer`): until the build asked for has
  // answered, or the next build starts.
  state.prepares++;
  state.lastPrepareMs = Math.round(performance.now() - start);
}

function buildStats(state: BuildsState): BuildStats {
  const { builds, lastBuildMs, lastBuildPeakRss, prepares, lastPrepareMs } = state;
  return {
    builds,
    ...(lastBuildMs !== undefined ? { lastBuildMs } : {}),
    peakRss: Math.max(state.peakBefore, peakRss()),
    ...(lastBuildPeakRss ? { lastBuildPeakRss } : {}),
    ...(builds ? { lastChanges: state.session.lastChanges } : {}),
    prepares,
    ...(lastPrepareMs !== undefined ? { lastPrepareMs } : {}),
    ...(builds ? { lastBuildPrepared: state.lastBuildPrepared } : {}),
    ...(builds && state.unused ? { lastPrepareUnused: state.unused } : {}),
  };
}

/**
 * A terminal whose output goes to the client as frames, in order; `flushed`
 * waits for every frame. A client that went away is written to no more.
 */
function remoteTerminal(
  conn: Deno.UnixConn,
  stderrIsTerminal: boolean,
): { terminal: ClientTerminal; flushed: () => Promise<void> } {
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

/** What two watcher reports told together; null (every file looked at) wins. */
function joinChanges(a: ServerChanges | null, b: ServerChanges | null): ServerChanges | null {
  if (!a || !b) return null;
  const paths = [...new Set([...a.paths, ...b.paths])].sort();
  return { paths, structural: a.structural || b.structural };
}

/** Make this process's environment the client's. */
function useEnv(env: Record<string, string>) {
  const now = Deno.env.toObject();
  for (const key of Object.keys(now)) if (!(key in env)) Deno.env.delete(key);
  for (const [key, value] of Object.entries(env)) if (now[key] !== value) Deno.env.set(key, value);
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
