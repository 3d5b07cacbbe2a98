/**
 * The MCP server's error replies, redacted on their way out. slop's own tool errors are redacted
 * where they are made (`_mcp_server.ts`), but the SDK answers some calls before a tool runs, and
 * its answers quote the call: its argument errors (`Unknown argument "…"`, `expected a number,
 * got "…"`), `Tool … not found`. A client that pastes a key into the wrong argument would
 * get it back in an error, which agents print and log. A tool's successful result is redacted
 * too ({@linkcode redactedOutput}), all but what the build made (its scan redacted that): its
 * texts and data quote config values and arguments (a lock's name, an output folder, a command
 * to run with the flags given), and a config's `lock: "sk-…"` is a key as much as a flag is.
 *
 * @module
 */

import { redactMessage } from "../pipeline/redact_message.ts";
import type { ToolOutput } from "./_mcp_tools.ts";

/** What is wrapped: a transport's `send`. */
interface Sender {
  // deno-lint-ignore no-explicit-any
  send(message: any, options?: any): Promise<void>;
}

/**
 * `transport`, with every JSON-RPC error's message and data and every tool error's texts
 * redacted before they are sent (the transport itself, changed in place).
 *
 * @example
 * ```ts
 * import { redactingTransport } from "./_mcp_redact.ts";
 * const sent: unknown[] = [];
 * const transport = redactingTransport({ send: async (m: unknown) => void sent.push(m) });
 * await transport.send({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "ghp_…" } });
 * ```
 */
export function redactingTransport<T extends Sender>(transport: T): T {
  const send = transport.send.bind(transport);
  // deno-lint-ignore no-explicit-any
  transport.send = (message: any, options?: any) => send(redactedReply(message), options);
  return transport;
}

/**
 * A JSON-RPC message as it may be sent: an error's message and data, and a tool error's texts,
 * redacted; anything else as it was.
 */
// deno-lint-ignore no-explicit-any
function redactedReply(message: any): any {
  if (!message || typeof message !== "object") return message;
  if (message.error && typeof message.error === "object") {
    const error = { ...message.error };
    if (typeof error.message === "string") error.message = redactMessage(error.message);
    if (error.data !== undefined) error.data = redactedData(error.data);
    return { ...message, error };
  }
  const result = message.result;
  if (result?.isError === true && Array.isArray(result.content)) {
    const content = result.content.map((part: { type?: string; text?: unknown }) =>
      part?.type === "text" && typeof part.text === "string"
        ? { ...part, text: redactMessage(part.text) }
        : part
    );
    return { ...message, result: { ...result, content } };
  }
  return message;
}

/**
 * A tool's result as it may be sent: its texts and data redacted, what the build made as it was.
 *
 * @example
 * ```ts
 * import { redactedOutput } from "./_mcp_redact.ts";
 * const key = `sk-proj-${"Ab3dEf6hIj9kLm2nOp5q".repeat(2)}`;
 * redactedOutput({ texts: [`lock "${key}"`], data: { lock: key } });
 * // { texts: ['lock "[REDACTED:openai-key]"'], data: { lock: "[REDACTED:openai-key]" } }
 * ```
 */
export function redactedOutput(output: ToolOutput): ToolOutput {
  return {
    ...output,
    texts: output.texts.map((text) => redactMessage(text)),
    data: redactedData(output.data) as Record<string, unknown>,
  };
}

/** Data: strings redacted, and the strings inside arrays and objects. */
function redactedData(data: unknown): unknown {
  if (typeof data === "string") return redactMessage(data);
  if (data === null || typeof data !== "object") return data;
  // Redacted as its JSON text: the rules read `"name": "value"` as they read a config file.
  try {
    return JSON.parse(redactMessage(JSON.stringify(data)));
  } catch {
    // A redaction that took a quote or an escape with it: each string on its own.
    return redactedLeaves(data);
  }
}

/** `data` with each string in it redacted on its own. */
function redactedLeaves(data: unknown): unknown {
  if (typeof data === "string") return redactMessage(data);
  if (Array.isArray(data)) return data.map(redactedLeaves);
  if (data === null || typeof data !== "object") return data;
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, redactedLeaves(v)]));
}
