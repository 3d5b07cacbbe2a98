/**
 * Drive `slop mcp` as an agent would: the SDK's `Client` over stdio, with the
 * server spawned as `deno run -A cli.ts mcp` in a project.
 *
 * @module
 */

import { join } from "node:path";
import { loadMcpClient } from "../../deps.ts";
import { REPO } from "../_helpers.ts";

/** The SDK client, as `loadMcpClient()` makes it. */
export type McpClient = InstanceType<Awaited<ReturnType<typeof loadMcpClient>>["Client"]>;

/** A progress notification's content. */
export interface ProgressNote {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

/** A running server and the client connected to it. */
export interface Session {
  client: McpClient;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /**
   * Every progress notification the server sent so far, in the order the stream holds them. Read
   * off the transport, before the client handles them: the SDK's client hands a notification to
   * `onprogress` a microtask after it reads it, and drops it when the call's response came in the
   * same read (it has forgotten the call by then), so on a busy machine `onprogress` can miss the
   * last notifications of a call the server did send.
   */
  progress(): ProgressNote[];
  /** Close the client; the server ends with its stdin. */
  close(): Promise<void>;
}

/** The environment of a spawned server: this one's (Deno's cache, slop's test cache), no colour. */
export function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...Deno.env.toObject(), NO_COLOR: "1", ...extra };
}

/**
 * Spawn `slop mcp` (with `args`) in `root` and connect the SDK's client to it over stdio.
 *
 * @example
 * ```ts
 * import { connect } from "./_client.ts";
 * // const { client, close } = await connect(root);
 * ```
 */
export async function connect(root: string, args: string[] = []): Promise<Session> {
  const { Client, StdioClientTransport } = await loadMcpClient();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), "mcp", ...args],
    cwd: root,
    env: serverEnv(),
    stderr: "pipe",
  });
  let stderr = "";
  const decoder = new TextDecoder();
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += decoder.decode(chunk)));
  const progress: ProgressNote[] = [];
  // The client's own handler runs after this one (it keeps one set before it connects).
  transport.onmessage = (message: { method?: string; params?: unknown }) => {
    if (message.method === "notifications/progress") progress.push(message.params as ProgressNote);
  };
  const client = new Client({ name: "slop-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    progress: () => [...progress],
    close: () => client.close(),
  };
}

/** The text items of a tool result. */
export function texts(result: unknown): string[] {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.filter((c) => c.type === "text").map((c) => c.text ?? "");
}

/** A tool result's structured content. */
// deno-lint-ignore no-explicit-any
export function data(result: unknown): any {
  return (result as { structuredContent?: unknown }).structuredContent;
}
