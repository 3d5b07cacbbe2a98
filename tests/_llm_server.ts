/**
 * A loopback LLM server for tests. It speaks three API shapes on 127.0.0.1
 * (a free port), records every request and answers from a script:
 *
 * - Anthropic Messages: `POST /v1/messages` (base URL: `server.anthropicUrl`)
 * - OpenAI-compatible chat: `POST /v1/chat/completions` (`server.openaiUrl`)
 * - Gemini: `POST /v1beta/models/{model}:generateContent` and
 *   `POST /v1beta/cachedContents` (`server.geminiUrl`)
 *
 * ```ts
 * const server = startLlmServer();                        // replies "Echo: <prompt>"
 * server.enqueue({ status: 429, headers: { "retry-after": "0" } }, { text: "done" });
 * const config = { provider: server.provider("anthropic") }; // baseUrl + apiKeyEnv
 * // ... run the code under test with env { [LLM_TEST_KEY_ENV]: LLM_TEST_KEY } ...
 * server.requests[1].body;                                 // the parsed JSON body
 * await server.close();
 * ```
 *
 * Scripted answers are used first, in order, whatever the route; when the
 * script is empty the `reply` option answers (default: `Echo: <prompt>`).
 *
 * @module
 */

/** Which API a request spoke, from its path. */
export type LlmApi = "anthropic" | "openai" | "gemini" | "gemini-cache" | "unknown";

/** One scripted answer. */
export interface ScriptedResponse {
  /** HTTP status. @default {200} */
  status?: number;
  /** Reply text, wrapped in the request's API shape. */
  text?: string;
  /** A JSON body sent as is (instead of `text`). */
  body?: unknown;
  /** A raw text body sent as is (instead of `text` and `body`). */
  raw?: string;
  /** Response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** Wait this long before answering; ends early when the server closes. */
  delayMs?: number;
}

/** One recorded request. */
export interface RecordedRequest {
  /** The API its path belongs to. */
  api: LlmApi;
  /** HTTP method. */
  method: string;
  /** URL path (with the query string, if any). */
  path: string;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON body (`undefined` when not JSON). */
  // deno-lint-ignore no-explicit-any
  body: any;
  /** The raw body text. */
  raw: string;
  /** Model: from the body, or from the Gemini URL. */
  model?: string;
  /** System prompt text, joined across blocks. */
  system?: string;
  /** Text of the last user message, joined across blocks. */
  prompt: string;
  /** Milliseconds since the server started when the request arrived. */
  at: number;
}

/** Options of {@linkcode startLlmServer}. */
export interface LlmServerOptions {
  /** Answer when the script is empty: reply text or a full scripted answer. @default {(r) => `Echo: ${r.prompt}`} */
  reply?: (request: RecordedRequest) => string | ScriptedResponse;
}

/** A running loopback server. */
export interface LlmServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Base URL for the Anthropic provider (`provider.baseUrl`). */
  anthropicUrl: string;
  /** Base URL for OpenAI-compatible providers (ends in `/v1`). */
  openaiUrl: string;
  /** Base URL for the Gemini provider (ends in `/v1beta`). */
  geminiUrl: string;
  /** Every request so far, in arrival order. */
  requests: RecordedRequest[];
  /** Most requests that were in flight at once. */
  peakInFlight: number;
  /** Queue scripted answers. */
  enqueue(...responses: ScriptedResponse[]): void;
  /** A `provider` config for this server: name, baseUrl and `apiKeyEnv: LLM_TEST_KEY_ENV`. */
  provider(name: "anthropic" | "openai" | "deepseek" | "gemini"): {
    name: string;
    baseUrl: string;
    apiKeyEnv: string;
  };
  /** Stop the server (pending delays end at once). */
  close(): Promise<void>;
}

/**
 * The environment variable name `server.provider()` configures. A test sets it and never deletes
 * it: the environment is the process's, shared by the test files running alongside, so one file
 * deleting it would fail another's request ("Missing API key") mid-build. All set the same key.
 */
export const LLM_TEST_KEY_ENV = "SLOP_TEST_LLM_KEY";

/** A fake API key for tests: look for it in outputs to prove it never leaks. */
export const LLM_TEST_KEY = "sk-test-0123456789-SECRET-abcdef";

/**
 * Start a loopback LLM server on a free port.
 *
 * @example
 * ```ts
 * const server = startLlmServer({ reply: () => "a summary" });
 * await server.close();
 * ```
 */
export function startLlmServer(options: LlmServerOptions = {}): LlmServer {
  const script: ScriptedResponse[] = [];
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  const started = performance.now();
  let inFlight = 0;
  const state = { peak: 0 };
  const reply = options.reply ?? ((r: RecordedRequest) => `Echo: ${r.prompt}`);

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      inFlight++;
      state.peak = Math.max(state.peak, inFlight);
      try {
        const recorded = await record(req, performance.now() - started);
        requests.push(recorded);
        const scripted = script.shift();
        const answer: ScriptedResponse = scripted ?? asResponse(reply(recorded));
        if (answer.delayMs) await delay(answer.delayMs, closing.signal);
        return respond(recorded, answer);
      } finally {
        inFlight--;
      }
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  return {
    url,
    anthropicUrl: url,
    openaiUrl: `${url}/v1`,
    geminiUrl: `${url}/v1beta`,
    requests,
    get peakInFlight() {
      return state.peak;
    },
    enqueue: (...responses) => void script.push(...responses),
    provider: (name) => ({
      name,
      baseUrl: name === "gemini" ? `${url}/v1beta` : name === "anthropic" ? url : `${url}/v1`,
      apiKeyEnv: LLM_TEST_KEY_ENV,
    }),
    close: async () => {
      closing.abort();
      await server.shutdown();
    },
  };
}

function asResponse(value: string | ScriptedResponse): ScriptedResponse {
  return typeof value === "string" ? { text: value } : value;
}

async function record(req: Request, at: number): Promise<RecordedRequest> {
  const url = new URL(req.url);
  const raw = await req.text();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  const headers: Record<string, string> = {};
  req.headers.forEach((value, key) => (headers[key] = value));
  const path = url.pathname + url.search;
  const api = apiOf(url.pathname);
  const b = (body ?? {}) as Record<string, unknown>;
  const gemini = url.pathname.match(/\/models\/([^/:]+):generateContent$/);
  return {
    api,
    method: req.method,
    path,
    headers,
    body,
    raw,
    model: gemini
      ? decodeURIComponent(gemini[1])
      : typeof b.model === "string"
      ? b.model
      : undefined,
    system: systemOf(api, b),
    prompt: promptOf(api, b),
    at,
  };
}

function apiOf(path: string): LlmApi {
  if (path.endsWith("/v1/messages")) return "anthropic";
  if (path.endsWith("/chat/completions")) return "openai";
  if (path.endsWith(":generateContent")) return "gemini";
  if (path.endsWith("/cachedContents")) return "gemini-cache";
  return "unknown";
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((c) => (typeof c === "string" ? c : typeof c?.text === "string" ? c.text : ""))
    .join("");
}

function systemOf(api: LlmApi, b: Record<string, unknown>): string | undefined {
  if (api === "anthropic") return b.system === undefined ? undefined : textOf(b.system);
  if (api === "openai") {
    const messages = Array.isArray(b.messages) ? b.messages : [];
    const system = messages.filter((m) => m?.role === "system" || m?.role === "developer");
    return system.length ? system.map((m) => textOf(m.content)).join("") : undefined;
  }
  if (api === "gemini" || api === "gemini-cache") {
    const si = b.systemInstruction as { parts?: unknown } | undefined;
    return si ? textOf(si.parts) : undefined;
  }
  return undefined;
}

function promptOf(api: LlmApi, b: Record<string, unknown>): string {
  if (api === "anthropic" || api === "openai") {
    const messages = Array.isArray(b.messages) ? b.messages : [];
    const user = messages.filter((m) => m?.role === "user").at(-1);
    return user ? textOf(user.content) : "";
  }
  if (api === "gemini" || api === "gemini-cache") {
    const contents = Array.isArray(b.contents) ? b.contents : [];
    const user = contents.filter((c) => c?.role === "user" || c?.role === undefined).at(-1);
    return user ? textOf(user.parts) : "";
  }
  return "";
}

function respond(request: RecordedRequest, answer: ScriptedResponse): Response {
  const status = answer.status ?? 200;
  const headers = new Headers(answer.headers);
  if (answer.raw !== undefined) return new Response(answer.raw, { status, headers });
  headers.set("content-type", "application/json");
  const body = answer.body !== undefined
    ? answer.body
    : status >= 400
    ? { error: { type: "error", message: `scripted status ${status}` } }
    : wrap(request, answer.text ?? "");
  return new Response(JSON.stringify(body), { status, headers });
}

function wrap(request: RecordedRequest, text: string): unknown {
  const model = request.model ?? "test-model";
  const n = requestNumber++;
  if (request.api === "anthropic") {
    return {
      id: `msg_test_${n}`,
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      usage: { input_tokens: 1, output_tokens: 1 },
    };
  }
  if (request.api === "gemini") {
    return {
      candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1 },
      modelVersion: model,
    };
  }
  if (request.api === "gemini-cache") {
    return { name: `cachedContents/test-${n}`, model: request.body?.model };
  }
  return {
    id: `chatcmpl-test-${n}`,
    object: "chat.completion",
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

let requestNumber = 1;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
