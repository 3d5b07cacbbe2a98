/**
 * The calls of `slop mcp --http` whose client closes the connection before their reply (an
 * agent killed, a laptop shut, a client that gave up without sending a cancel). The MCP
 * specification does not count a closed connection as a cancellation, since a client may resume
 * a stream from its last event, but this server keeps no events to resume from: the reply of such
 * a call can never reach anyone. So the call is cancelled as if its client had sent
 * `notifications/cancelled` for it, and its run stops unless another call waits on it or a reply
 * said it goes on (`_mcp_jobs.ts`); a run a reply promised goes on and its result is kept for
 * the next identical call. Without this, a dropped build held the one-at-a-time queue to its end,
 * for nobody.
 *
 * @module
 */

import type { McpSdk } from "./_mcp_server.ts";

/** A session's transport. */
type HttpTransport = InstanceType<McpSdk["HttpServerTransport"]>;

/** What {@linkcode answerWatched} tells of a POST. */
export interface WatchedOptions {
  /** The client closed the connection before every reply of the POST was sent: what it asked. */
  dropped: (asked: string) => void;
  /** The POST's answer is over: sent whole, dropped, or not a stream. Called once. */
  ended: () => void;
}

/**
 * What a request asked, as a log line names it (quoted: a client chose it): `"build_context"
 * call`, `"resources/read" request`.
 */
function asked(message: { method: string; params?: { name?: unknown } }): string {
  const name = message.params?.name;
  return message.method === "tools/call" && typeof name === "string"
    ? `${JSON.stringify(name)} call`
    : `${JSON.stringify(message.method)} request`;
}

/**
 * Answer a POST of an open session with its transport, watching the event stream of the reply:
 * when the client stops reading it before its end, each request of the POST is cancelled (one
 * already answered is not affected) and `dropped` is told.
 *
 * @example
 * ```ts
 * import { answerWatched } from "./_mcp_dropped.ts";
 * import { loadMcpServer } from "../deps.ts";
 * const sdk = await loadMcpServer();
 * const transport = new sdk.HttpServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
 * const request = new Request("http://127.0.0.1:7331/mcp", { method: "POST", body: "{}" });
 * const response = await answerWatched(transport, request, {
 *   dropped: (what) => console.error(`dropped: ${what}`),
 *   ended: () => {},
 * });
 * ```
 */
export async function answerWatched(
  transport: HttpTransport,
  request: Request,
  options: WatchedOptions,
): Promise<Response> {
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    options.ended();
  };
  try {
    // Read once and handed to the SDK as parsed (request.clone() makes Deno warn on stderr); a
    // body that is no JSON goes to the SDK as it came, for its own parse error.
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const response = body === undefined
      ? await transport.handleRequest(
        new Request(request.url, { method: request.method, headers: request.headers, body: text }),
      )
      : await transport.handleRequest(request, { parsedBody: body });
    const requests = (Array.isArray(body) ? body : [body]).filter(isRequest);
    const stream = response.headers.get("content-type")?.startsWith("text/event-stream");
    if (!requests.length || !response.body || !stream) {
      end();
      return response;
    }
    const reader = response.body.getReader();
    const watched = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read().catch((error: unknown) => {
          end();
          throw error;
        });
        if (!next.done) return controller.enqueue(next.value);
        controller.close();
        end();
      },
      async cancel(reason) {
        await reader.cancel(reason);
        for (const { id } of requests) {
          transport.onmessage?.({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: id, reason: "The client closed the connection before the reply" },
          });
        }
        options.dropped(requests.map(asked).join(", "));
        end();
      },
    });
    return new Response(watched, { status: response.status, headers: response.headers });
  } catch (error) {
    end();
    throw error;
  }
}

/** Whether a JSON-RPC message is a request (it has an id and a method). */
function isRequest(
  message: unknown,
): message is { id: string | number; method: string; params?: { name?: unknown } } {
  if (!message || typeof message !== "object") return false;
  const { id, method } = message as Record<string, unknown>;
  return (typeof id === "string" || typeof id === "number") && typeof method === "string";
}
