/**
 * The HTTP client behind the provider plugins' `complete` hooks: JSON POSTs
 * with a per-attempt timeout, retries with exponential backoff on 429, 5xx,
 * timeouts and network errors (honouring `retry-after` and `retry-after-ms`),
 * a concurrency limit, and errors that name the plugin and never carry the
 * API key.
 *
 * @module
 */

import { limiter, PluginError } from "../../pipeline/helpers.ts";
import type { ProviderContext } from "../../pipeline/types.ts";

/** Settings of the HTTP client, shared by every provider plugin's options. */
export interface HttpOptions {
  /** Milliseconds one attempt may take (headers and body). @default {60000} */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx, timeouts and network errors. @default {2} */
  retries?: number;
  /** First backoff delay; doubles on each retry (with up to 25% jitter). @default {500} */
  backoffMs?: number;
  /** Longest wait before a retry, also for a server's `retry-after`. @default {30000} */
  maxBackoffMs?: number;
  /** Requests in flight at once per provider plugin. @default {4} */
  concurrency?: number;
}

/** Defaults of {@linkcode HttpOptions}. */
const HTTP_DEFAULTS: Required<HttpOptions> = {
  timeoutMs: 60_000,
  retries: 2,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  concurrency: 4,
};

/** A JSON POST. */
export interface PostRequest {
  /** Full URL (never carries the key). */
  url: string;
  /** Request headers (may carry the key). */
  headers: Record<string, string>;
  /** JSON body. */
  body: unknown;
  /** Caller's abort signal. */
  signal?: AbortSignal;
}

/** A JSON client bound to one plugin: its name, limits and secrets. */
export interface HttpClient {
  /** POST JSON and parse the JSON answer; throws a {@linkcode PluginError} on failure. */
  post(request: PostRequest, secrets: string[]): Promise<unknown>;
}

/**
 * A client for one provider plugin. Errors read `[plugin <name>] ...` and
 * have every secret passed to `post` replaced by `***`.
 *
 * @example
 * ```ts
 * import { httpClient } from "./_http.ts";
 * const http = httpClient("slop:openai", { retries: 1 });
 * // await http.post({ url, headers: { authorization: `Bearer ${key}` }, body }, [key]);
 * ```
 */
export function httpClient(plugin: string, options: HttpOptions = {}): HttpClient {
  const settings = { ...HTTP_DEFAULTS, ...options };
  const limit = limiter(settings.concurrency);
  return {
    post: (request, secrets) =>
      limit(() => postWithRetries(plugin, settings, request, secrets.filter(Boolean))),
  };
}

async function postWithRetries(
  plugin: string,
  settings: Required<HttpOptions>,
  request: PostRequest,
  secrets: string[],
): Promise<unknown> {
  const fail = (message: string) => new PluginError(plugin, "complete", redact(message, secrets));
  const where = `"${safeUrl(request.url)}"`;
  const attempts = settings.retries + 1;
  let last = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (request.signal?.aborted) throw fail(`Request to ${where} was aborted`);
    const outcome = await attemptOnce(request, settings.timeoutMs);
    if (outcome.kind === "ok") return outcome.json;
    if (outcome.kind === "aborted") throw fail(`Request to ${where} was aborted`);
    if (outcome.kind === "bad-json") {
      throw fail(
        `Request to ${where} returned a body that is not JSON: ${snippet(outcome.text, secrets)}`,
      );
    }
    if (outcome.kind === "http") {
      last = `HTTP ${outcome.status}${outcome.text ? `: ${snippet(outcome.text, secrets)}` : ""}`;
      if (!retryable(outcome.status)) throw fail(`Request to ${where} failed with ${last}`);
    } else {
      last = outcome.kind === "timeout"
        ? `no answer within ${settings.timeoutMs} ms`
        : `network error: ${outcome.message}`;
    }
    if (attempt === attempts) break;
    const wait = outcome.kind === "http" && outcome.retryAfterMs !== undefined
      ? Math.min(outcome.retryAfterMs, settings.maxBackoffMs)
      : backoff(settings, attempt);
    await sleep(wait, request.signal);
  }
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  throw fail(`Request to ${where} failed after ${tries}: ${last}`);
}

type Outcome =
  | { kind: "ok"; json: unknown }
  | { kind: "http"; status: number; text: string; retryAfterMs?: number }
  | { kind: "bad-json"; text: string }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "network"; message: string };

async function attemptOnce(request: PostRequest, timeoutMs: number): Promise<Outcome> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signal = request.signal
    ? AbortSignal.any([request.signal, timeout.signal])
    : timeout.signal;
  try {
    const response = await fetch(request.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...request.headers },
      body: JSON.stringify(request.body),
      signal,
    });
    const text = await response.text();
    if (!response.ok) {
      return {
        kind: "http",
        status: response.status,
        text,
        retryAfterMs: retryAfter(response.headers),
      };
    }
    try {
      return { kind: "ok", json: JSON.parse(text) };
    } catch {
      return { kind: "bad-json", text };
    }
  } catch (error) {
    if (request.signal?.aborted) return { kind: "aborted" };
    if (timeout.signal.aborted) return { kind: "timeout" };
    return { kind: "network", message: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function backoff(settings: Required<HttpOptions>, attempt: number): number {
  const base = Math.min(settings.backoffMs * 2 ** (attempt - 1), settings.maxBackoffMs);
  return Math.round(base * (1 - Math.random() * 0.25));
}

/**
 * Milliseconds a server asks to wait: `retry-after-ms`, or `retry-after` in
 * seconds or as an HTTP date; `undefined` when absent or unreadable.
 */
function retryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Replace every secret (and its URL-encoded form) in a text by `***`.
 *
 * @example
 * ```ts
 * import { redact } from "./_http.ts";
 * redact("bad key sk-123", ["sk-123"]); // "bad key ***"
 * ```
 */
export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      out = out.split(form).join("***");
    }
  }
  return out;
}

/** A URL for messages: no user info, no query string. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

/**
 * The start of a response body for a message, the request's key replaced before the cut (a
 * server or proxy that quotes the headers it was sent): cut first, a key across the 300th
 * character would keep its first part, which the exact replacement no longer finds. The body can
 * hold no other secret of the project: the prompt was redacted before it was sent, and the
 * message is redacted with every rule where the build reports it.
 */
function snippet(text: string, secrets: string[]): string {
  const flat = redact(text, secrets).replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}...` : flat || "(empty body)";
}

/** Where a provider plugin talks to and with which key. */
export interface Endpoint {
  /** Base URL without a trailing slash. */
  baseUrl: string;
  /** The API key, or `undefined` for servers that need none. */
  key?: string;
}

/** Per-provider defaults of {@linkcode endpoint}. */
export interface EndpointDefaults {
  /** The base URL when `provider.baseUrl` sets none. */
  baseUrl: string;
  /** The provider's public API: a key is required only there. */
  publicBaseUrl: string;
  /** The environment variable that holds the key. */
  apiKeyEnv: string;
}

/**
 * The base URL and key a call uses: `provider.baseUrl` over the plugin's
 * default, the key from the variable `provider.apiKeyEnv` names (or the
 * plugin's default variable). A key is required only for the provider's own
 * public API; other servers (Ollama, llama.cpp, vLLM) may run without one.
 *
 * @example
 * ```ts
 * import { endpoint } from "./_http.ts";
 * endpoint("slop:openai", { provider: { baseUrl: "http://127.0.0.1:11434/v1" }, env: () => undefined },
 *   {
 *     baseUrl: "https://api.openai.com/v1",
 *     publicBaseUrl: "https://api.openai.com/v1",
 *     apiKeyEnv: "OPENAI_API_KEY",
 *   });
 * ```
 */
export function endpoint(
  plugin: string,
  ctx: ProviderContext,
  defaults: EndpointDefaults,
): Endpoint {
  const baseUrl = (ctx.provider.baseUrl ?? defaults.baseUrl).replace(/\/+$/, "");
  const variable = ctx.provider.apiKeyEnv ?? defaults.apiKeyEnv;
  const key = ctx.env(variable)?.trim() || undefined;
  if (!key && baseUrl === defaults.publicBaseUrl.replace(/\/+$/, "")) {
    throw new PluginError(
      plugin,
      "complete",
      `Missing API key: set the environment variable "${variable}" (or "provider.apiKeyEnv")`,
    );
  }
  return { baseUrl, key };
}
