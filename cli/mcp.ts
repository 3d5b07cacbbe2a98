/**
 * `slop mcp`: slop as an MCP server for coding agents, over stdio (the
 * default) or Streamable HTTP on a loopback port (`--http`). Its tools and
 * resources are in `_mcp_server.ts`. On stdio, stdout carries protocol
 * messages only: everything else slop or a config prints goes to stderr.
 *
 * @module
 */

import { flagNumber } from "./_flags.ts";
import { MAX_TIMER_MS } from "../pipeline/helpers.ts";
import { resolve } from "node:path";
import { broadFolder } from "./_no_project.ts";
import { loadMcpServer } from "../deps.ts";
import { createMcpServer, type McpSdk } from "./_mcp_server.ts";
import { answerWatched } from "./_mcp_dropped.ts";
import { redactingTransport } from "./_mcp_redact.ts";
import { type SessionTable, sessionTable } from "./_mcp_sessions.ts";
import type { ToolContext } from "./_mcp_tools.ts";
import { printError, shownMessage } from "./_output.ts";
import { lastWords } from "../pipeline/hook_watchdog.ts";

/** Flags of `slop mcp`. */
export interface McpFlags {
  /** The project root (`--root`). @default {Deno.cwd()} */
  root?: string;
  /** Config file for calls that name none (`--config`). */
  config?: string;
  /** State dir (`--state-dir`). */
  stateDir?: string;
  /** Serve Streamable HTTP on 127.0.0.1 instead of stdio (`--http`). */
  http?: boolean;
  /** The HTTP port (`--port`; 0 takes a free one). @default {DEFAULT_PORT} */
  port?: string;
  /** Close an HTTP session unused for this many seconds (`--idle-timeout`; 0: never). @default {3600} */
  idleTimeout?: string;
  /**
   * Answer a call whose build has not ended within this many seconds with how far it got, the
   * build going on (`--reply-within`; 0: wait for the end). @default {45}
   */
  replyWithin?: string;
}

/** The port of `slop mcp --http` when `--port` is not given. */
export const DEFAULT_PORT = 7331;

/** The path of the HTTP endpoint. */
export const HTTP_PATH = "/mcp";

/**
 * Run `slop mcp`; resolves to the exit code when the server stops (stdin
 * closed, or a signal in HTTP mode).
 *
 * @example
 * ```ts
 * import { runMcp } from "./mcp.ts";
 * // const code = await runMcp({ http: true, port: "0" });
 * ```
 */
export async function runMcp(flags: McpFlags): Promise<number> {
  const port = flags.port === undefined ? DEFAULT_PORT : flagNumber(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    printError(`Invalid --port "${flags.port}": expected a whole number from 0 to 65535`);
    return 2;
  }
  const idle = flags.idleTimeout === undefined
    ? 3600
    : flagNumber(flags.idleTimeout, { fraction: true });
  if (!Number.isFinite(idle) || idle < 0) {
    printError(`Invalid --idle-timeout "${flags.idleTimeout}": expected seconds, 0 or more`);
    return 2;
  }
  const replyWithin = flags.replyWithin === undefined
    ? undefined
    : flagNumber(flags.replyWithin, { fraction: true });
  if (
    replyWithin !== undefined &&
    (!Number.isFinite(replyWithin) || replyWithin < 0 || replyWithin * 1000 > MAX_TIMER_MS)
  ) {
    printError(
      `Invalid --reply-within "${flags.replyWithin}": expected seconds, from 0 to ` +
        `${Math.floor(MAX_TIMER_MS / 1000)}`,
    );
    return 2;
  }
  for (const flag of ["port", "idleTimeout"] as const) {
    if (flags[flag] !== undefined && !flags.http) {
      const name = flag === "port" ? "--port" : "--idle-timeout";
      printError(`Option ${name} needs --http (without it the server speaks over stdio)`);
      return 2;
    }
  }
  const served = servedRoot(flags.root);
  if (!served) return 2;
  const { root, rootError } = served;
  // The command line's paths are relative to where it was typed, the tools' to the root.
  const context: ToolContext = {
    ...(rootError ? { rootError } : {}),
    root,
    config: flags.config === undefined ? undefined : resolve(flags.config),
    stateDir: flags.stateDir === undefined ? undefined : resolve(flags.stateDir),
    ...(replyWithin === undefined ? {} : { replyWithinMs: replyWithin * 1000 }),
  };
  // Commands' functions show paths relative to the working directory: the root.
  if (!rootError) Deno.chdir(root);
  stdoutForProtocolOnly();
  const sdk = await loadMcpServer();
  return flags.http
    ? await serveHttp(sdk, context, { port, idleMs: idle * 1000 })
    : await serveStdio(sdk, context);
}

/**
 * The root to serve, and why it cannot be served when `--root` names no folder; `undefined`
 * (the error printed) when the server must not start. A --root that cannot be served (a folder
 * not made yet, a typo in a client's settings) starts the server all the same, to answer each
 * call with why, which an agent sees: a server that ends before the handshake shows its client
 * only that it stopped.
 */
function servedRoot(given: string | undefined): { root: string; rootError?: string } | undefined {
  const found = projectRoot(given);
  if ("root" in found) return found;
  if (given === undefined) {
    printError(found.error);
    return undefined;
  }
  const rootError =
    `${found.error}: start slop mcp again with the project's folder as --root <dir>`;
  printError(`${rootError} (each tool call answers with this error)`);
  return { root: resolve(given), rootError };
}

/**
 * Send what `console` would print to stdout (a config's `console.log`, a
 * plugin's) to stderr: on stdio, stdout is the protocol's.
 */
function stdoutForProtocolOnly(): void {
  const toStderr = (...data: unknown[]) => console.error(...data);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.table = toStderr;
  console.dir = toStderr;
  console.dirxml = toStderr;
  console.trace = toStderr;
}

/**
 * Keep, as the hook watch's last words (`pipeline/hook_watchdog.ts`), an error answer to each
 * request under way: a plugin's hook that holds the server's thread ends the process, and the
 * client's calls are then answered with what stopped it, not only by a closed pipe.
 */
function answerCallsIfStopped(transport: {
  onmessage?: (message: never, extra?: never) => void;
  send: (message: never, options?: never) => Promise<void>;
}): void {
  const open = new Set<string>();
  // The message stands where the NUL is (none is in an id: JSON escapes it). Replies that do not
  // fit the watch's room are left out whole, and stderr says how many.
  const say = () =>
    lastWords(
      [...open].map((id) =>
        `{"jsonrpc":"2.0","id":${id},"error":{"code":-32603,"message":"\0"}}\n`
      ),
    );
  const received = transport.onmessage?.bind(transport);
  transport.onmessage = (message, extra) => {
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method === "string" && (typeof id === "string" || typeof id === "number")) {
      open.add(JSON.stringify(id));
      say();
    }
    received?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (method === undefined && open.delete(JSON.stringify(id))) say();
    return send(message, options);
  };
}

async function serveStdio(sdk: McpSdk, context: ToolContext): Promise<number> {
  const server = createMcpServer(sdk, context);
  const closed = Promise.withResolvers<void>();
  server.server.onclose = () => closed.resolve();
  // The client closing stdin ends the session.
  // Every error reply is redacted: the SDK's argument errors quote the call.
  const transport = redactingTransport(new sdk.StdioServerTransport());
  // A line that is not JSON, or not a JSON-RPC message, gets the error reply JSON-RPC asks for
  // (id null, since no id could be read); the SDK alone would only drop it.
  transport.onerror = (error: Error) => {
    const code = error instanceof SyntaxError ? -32700 : error.name === "ZodError" ? -32600 : 0;
    if (!code) return;
    const message = code === -32700 ? "Parse error" : "Invalid Request";
    const detail = code === -32700
      ? error.message.split("\n")[0]
      : "the line is JSON but not a JSON-RPC request, response or notification";
    // A JSON parser's message quotes the line it could not read: redacted.
    console.error(`slop mcp: ${message.toLowerCase()} on stdin: ${shownMessage(detail)}`);
    transport.send({ jsonrpc: "2.0", id: null, error: { code, message } } as never)
      .catch(() => {});
  };
  await server.connect(transport);
  answerCallsIfStopped(transport);
  console.error(`slop mcp: serving ${context.root} over stdio`);
  // stdin's end closes the transport (the SDK listens for data only).
  const { stdin } = await import("node:process");
  stdin.once("end", () => server.close());
  await closed.promise;
  return 0;
}

/**
 * The project root: `--root`, else the folder the server was started in, unless that is the
 * file system's root or the home folder, where a desktop client (Claude Desktop) starts servers
 * it gives no folder: a build there would bundle every file below it.
 */
function projectRoot(given: string | undefined): { root: string } | { error: string } {
  let root: string;
  try {
    root = Deno.realPathSync(resolve(given ?? "."));
    if (!Deno.statSync(root).isDirectory) throw new Error("not a folder");
  } catch (error) {
    let why = error instanceof Deno.errors.NotFound ? "no such folder" : (error as Error).message;
    // An argument's bytes that are not valid UTF-8 reach Deno as U+FFFD: no path names them.
    if (given?.includes("\uFFFD")) {
      why += " (bytes that are not valid UTF-8 in an argument arrive as U+FFFD, so slop cannot " +
        "open that path: rename the folder)";
    }
    return { error: `Invalid --root "${given ?? "."}": ${why}` };
  }
  if (given !== undefined) return { root };
  const which = broadFolder(root);
  if (!which) return { root };
  return {
    error: `No project to serve: the server was started in ${which} ("${root}"); ` +
      "pass the project's folder as --root <dir> (docs/mcp.md shows it for each client)",
  };
}

/**
 * Streamable HTTP on 127.0.0.1 only: one MCP session per client, each with
 * its own server; requests whose Host or Origin is not this loopback address
 * are refused (a web page cannot reach it through DNS rebinding). Sessions
 * idle for `idleMs` are closed (`_mcp_sessions.ts`), and a call whose client dropped the
 * connection is cancelled (`_mcp_dropped.ts`).
 */
async function serveHttp(
  sdk: McpSdk,
  context: ToolContext,
  { port, idleMs }: { port: number; idleMs: number },
): Promise<number> {
  const sessions = sessionTable<InstanceType<McpSdk["HttpServerTransport"]>>({ idleMs });
  const listening = Promise.withResolvers<number>();
  const stop = new AbortController();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port,
    signal: stop.signal,
    onListen: ({ port }) => listening.resolve(port),
  }, async (request) => {
    const refusal = refused(request, (await listening.promise).toString());
    if (refusal) return refusal;
    const id = request.headers.get("mcp-session-id");
    const transport = id ? sessions.get(id) : undefined;
    if (id && !transport) return text(404, `Unknown session "${id}"`);
    if (!transport) {
      // Read once and handed to the SDK as parsed: request.clone() would make Deno warn on
      // stderr that the request's signal aborts on success (its legacy behaviour).
      const body = request.method === "POST" ? await request.json().catch(() => null) : null;
      if (!body || !sdk.isInitializeRequest(body)) {
        return text(400, "Bad request: no session id, and not an initialize request");
      }
      const made = newSession(sdk, sessions);
      await createMcpServer(sdk, context).connect(made);
      return await made.handleRequest(request, { parsedBody: body });
    }
    if (request.method !== "POST") return await transport.handleRequest(request);
    // A call keeps its session from idling out while it is answered; a call whose client closed
    // the connection before the reply is cancelled (`_mcp_dropped.ts`).
    return await answerWatched(transport, request, {
      ended: sessions.hold(id!),
      dropped: (what) =>
        console.error(shownMessage(
          `slop mcp: the client of session ${id} closed the connection of its ${what} before ` +
            "the reply: cancelled (its run goes on only when another call waits on it or a " +
            "reply said it goes on)",
        )),
    });
  });
  const actual = await listening.promise;
  console.error(`slop mcp: serving ${context.root} on http://127.0.0.1:${actual}${HTTP_PATH}`);
  const quit = () => stop.abort();
  Deno.addSignalListener("SIGINT", quit);
  Deno.addSignalListener("SIGTERM", quit);
  // Idle sessions are looked for ten times per timeout (at most once a minute).
  const sweeper = idleMs > 0
    ? setInterval(() => void sessions.sweep(), Math.min(idleMs / 10, 60_000))
    : undefined;
  await server.finished;
  clearInterval(sweeper);
  await sessions.closeAll();
  return 0;
}

/**
 * The answer to a request for another path, or from a Host or Origin that is not this loopback
 * address (`port`); `undefined` for one to serve.
 */
function refused(request: Request, port: string): Response | undefined {
  if (new URL(request.url).pathname !== HTTP_PATH) {
    return text(404, `Not found: the endpoint is ${HTTP_PATH}`);
  }
  if (!loopbackHost(request.headers.get("host"), port)) {
    return text(403, "Forbidden: the Host header is not this loopback address");
  }
  const origin = request.headers.get("origin");
  if (origin && !loopbackOrigin(origin)) {
    return text(403, `Forbidden: the origin "${origin}" is not a loopback address`);
  }
  return undefined;
}

/**
 * A new HTTP session's transport, kept in `sessions` from its first answer to its close; its
 * error replies are redacted (the SDK's argument errors quote the call).
 */
function newSession(
  sdk: McpSdk,
  sessions: SessionTable<InstanceType<McpSdk["HttpServerTransport"]>>,
): InstanceType<McpSdk["HttpServerTransport"]> {
  const made = redactingTransport(
    new sdk.HttpServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId: string) => sessions.add(sessionId, made),
      onsessionclosed: (sessionId: string) => void sessions.delete(sessionId),
    }),
  );
  made.onclose = () => made.sessionId && sessions.delete(made.sessionId);
  return made;
}

function text(status: number, body: string): Response {
  return new Response(body + "\n", { status, headers: { "content-type": "text/plain" } });
}

/** Whether a Host header names this server's loopback address and port. */
function loopbackHost(host: string | null, port: string): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** Whether an Origin is a page served from this machine's loopback address. */
function loopbackOrigin(origin: string): boolean {
  try {
    const { hostname } = new URL(origin);
    return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
  } catch {
    return false;
  }
}
