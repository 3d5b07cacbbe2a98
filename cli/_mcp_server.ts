/**
 * The MCP server of `slop mcp`, on the official SDK: the tools with their
 * input schemas (zod, which the SDK turns into JSON Schema and checks calls
 * against), the latest output as resources, progress notifications, and
 * every failure returned as a tool error. The tools themselves are in
 * `_mcp_tools.ts`; the transports in `mcp.ts`.
 *
 * @module
 */

import type { CallToolResult, loadMcpServer, McpServer, ToolExtra } from "../deps.ts";
import { redactMessage } from "../pipeline/secrets.ts";
import { checkArgumentsOurselves } from "./_mcp_errors.ts";
import { oneLine, quote } from "../pipeline/schema.ts";
import { cutLongQuotes } from "./_output.ts";
import { redactedOutput } from "./_mcp_redact.ts";
import { enterRoot } from "./_mcp_root.ts";
import { callShared, type Pending } from "./_mcp_jobs.ts";
import { workingFolder } from "../pipeline/paths.ts";
import { type PartCutter, partCutter, partUri, REPLY_TOKENS, RESOURCES } from "./_mcp_reply.ts";
import { countTokens } from "../pipeline/tokens.ts";
import { SinceError } from "../pipeline/since.ts";
import { PathsError } from "../pipeline/resolve.ts";
import { NoProjectError } from "./_no_project.ts";
import { ConfigError, UnknownNameError } from "../pipeline/config.ts";
import { OutputFolderError } from "../pipeline/emit.ts";
import meta from "../deno.json" with { type: "json" };
import {
  type BuildContextArgs,
  buildContextTool,
  type CheckPrefixArgs,
  checkPrefixTool,
  explainTool,
  INVALID_PARAMS,
  latestOutput,
  MAX_INLINE_TOKENS,
  MAX_VIEW_FILES,
  type ProgressFn,
  RESOURCE_NOT_FOUND,
  ResourceError,
  type TokenStatsArgs,
  tokenStatsTool,
  type ToolContext,
  type ToolOutput,
  type ViewFilesArgs,
  viewFilesTool,
} from "./_mcp_tools.ts";

/** What `loadMcpServer()` of `deps.ts` gives. */
export type McpSdk = Awaited<ReturnType<typeof loadMcpServer>>;

/** Milliseconds between two progress notifications of one call (the first and last always go). */
const PROGRESS_INTERVAL_MS = 100;

/** The MIME type of a document format. */
const MIME: Record<string, string> = {
  markdown: "text/markdown",
  xml: "application/xml",
  json: "application/json",
};

/** Enter the root again before a call's work (the folder may have been deleted and made again). */
function inRoot<T>(context: ToolContext, run: () => Promise<T>): () => Promise<T> {
  return () => {
    if (context.rootError) throw new Error(context.rootError);
    enterRoot(context.root, context.home);
    return run();
  };
}

/**
 * A new MCP server with slop's tools and resources (one per connection: the
 * HTTP mode makes one per session).
 *
 * @example
 * ```ts
 * import { createMcpServer } from "./_mcp_server.ts";
 * import { loadMcpServer } from "../deps.ts";
 * const server = createMcpServer(await loadMcpServer(), { root: Deno.cwd() });
 * ```
 */
export function createMcpServer(sdk: McpSdk, served: ToolContext): McpServer {
  const context = { ...served, home: served.home ?? workingFolder() ?? served.root };
  const { z } = sdk;
  const server = new sdk.McpServer(
    { name: "slop", version: meta.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: "slop bundles this project into one context document whose stable prefix " +
        "stays byte-identical between builds, so provider prompt caches hit. Paths are " +
        "relative to the project root " + JSON.stringify(context.root) + ".",
    },
  );

  const kit = { z, fields: schemaFields(z), context };
  registerBuildContext(server, kit);
  registerViewFiles(server, kit);
  registerReportTools(server, kit);
  registerExplainTool(server, kit);
  registerResources(server, sdk, context);
  checkArgumentsOurselves(server, z);
  return server;
}

/** The argument schemas several tools share. */
function schemaFields(z: McpSdk["z"]) {
  const config = z.string().describe(
    "Config file, relative to the project root (default: the server's --config, else " +
      "slop.config.ts in the root, else zero-config: every text file)",
  );
  const persona = z.string().describe("A persona of the config (strategy, views, focus, budget)");
  const preset = z.string().describe("A preset of the config: its files and screenshots");
  const pathList = (what: string) =>
    z.array(z.string()).describe(`${what}: paths or globs relative to the project root`);
  const viewName = z.string().describe(
    "A view mode: full, summary, skeleton (signatures and doc comments, bodies elided), " +
      "outline (the public API), masked (per-symbol mask), custom (line slices), cells (a " +
      "notebook's cells and short outputs), none, llm_summary, or a view mode plugin of the config",
  );
  return { config, persona, preset, pathList, viewName };
}

/** What the tools are registered with: zod, the shared fields, the tools' context. */
interface ToolKit {
  z: McpSdk["z"];
  fields: ReturnType<typeof schemaFields>;
  context: ToolContext;
}

/**
 * A tool's handler: runs the tool (one call at a time, an identical call's run shared) and
 * answers with its texts, what the build made, and its data as JSON (structured too), all but
 * the build's redacted; or with the error's message (redacted); or, when the run has not ended
 * within the server's reply time, with how far it got and to call again (it goes on). A tool
 * that only reads written builds (`queued: false`, `explain`) runs at once, beside a build: a
 * build publishes its outputs whole, so it never sees part of one.
 */
function tool<A>(
  { context, name, queued = true }: { context: ToolContext; name: string; queued?: boolean },
  run: (args: A, progress?: ProgressFn, signal?: AbortSignal) => Promise<ToolOutput>,
): (args: A, extra: ToolExtra) => Promise<CallToolResult> {
  return async (args: A, extra: ToolExtra): Promise<CallToolResult> => {
    const waitMs = context.replyWithinMs ?? REPLY_WITHIN_MS;
    const told = progressOf(extra);
    const progress = told?.tell;
    const call = { tool: name, args, progress, signal: extra.signal, waitMs };
    const work = (progress?: ProgressFn, signal?: AbortSignal) =>
      inRoot(context, () => run(args, progress, signal))();
    const outcome =
      await (queued
        ? callShared(call, work)
        : work(progress, extra.signal).then((output) => ({ output, earlier: false })))
        .catch((error) => ({ error, earlier: false }));
    await told?.sent();
    if ("pending" in outcome) return pendingReply(name, outcome.pending, waitMs);
    if ("error" in outcome) {
      // An error may quote input (a parser's excerpt of a broken config line): redacted.
      const cause = toolMessage(outcome.error);
      const message = outcome.earlier
        ? `The ${name} run that went on in the background failed: ${cause}`
        : cause;
      return {
        content: [{ type: "text", text: cutLongQuotes(redactMessage(lines(message))) }],
        isError: true,
      };
    }
    const output = redactedOutput(outcome.output);
    const texts = output.built === undefined ? output.texts : [...output.texts, output.built];
    if (outcome.earlier) texts.push(ranEarlier(name));
    return {
      content: [
        ...texts.map((text) => ({ type: "text" as const, text })),
        // Compact: a model reads it as well, and indented it was half again as long
        // (bench/README.md).
        { type: "text" as const, text: JSON.stringify(output.data) },
      ],
      structuredContent: output.data,
    };
  };
}

/**
 * How long a call waits for its run before the reply says it goes on: under the 60 s after which
 * MCP clients give up on a call (the SDK's default request timeout, Claude Desktop's fixed limit),
 * with room for a busy machine's stalls (`slop mcp --reply-within`).
 */
const REPLY_WITHIN_MS = 45_000;

/** The reply to a call whose run goes on: how far it got, or what it waits behind, and what to do. */
function pendingReply(name: string, pending: Pending, waitMs: number): CallToolResult {
  const got = pending.progress ? pending.progress.message : "nothing rendered yet";
  const again = `call ${name} again with the same arguments to get its result (that call waits ` +
    `up to ${seconds(waitMs)} again)`;
  const text = pending.state === "running"
    ? `${name} is still running after ${seconds(waitMs)} (${got}): the first build of a large ` +
      `project takes a while. It goes on in the background: ${again}.`
    : `${name} has not started: calls run one at a time, and it waits for an earlier ` +
      `${pending.ahead?.tool ?? "call"} to end` +
      (pending.ahead?.progress ? ` (${pending.ahead.progress.message})` : "") +
      `. It stays queued: ${again}.`;
  const { state, ...how } = pending;
  const data = { status: state, ...how, callAgain: true };
  return {
    content: [{ type: "text", text }, { type: "text", text: JSON.stringify(data) }],
    structuredContent: data,
  };
}

/** Seconds, as a reply says them. */
function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

/** What a result claimed from a run an earlier call started says after its texts. */
function ranEarlier(name: string): string {
  return `slop: this is the result of the ${name} run an earlier identical call started (it was ` +
    "told to call again); a file changed since that call may not be in it: call again for a new run";
}

/**
 * What to do about an output folder the server cannot write, said where the agent can act: the
 * command line's `--stdout` is no option of a tool, and the state dir is the server's.
 */
export const SERVER_WRITE_HINT = ": start the server with a state dir it can write (--state-dir " +
  "DIR or SLOP_DIR=DIR in the agent's MCP config), or set output.dir in the config to one";

/**
 * An error's message as a tool's caller reads it: a bad `since` names the argument, not the
 * command line's `--since` (the same check serves both); an output folder that takes no writes
 * says what to do for the server, not on the command line.
 */
function toolMessage(error: unknown): string {
  if (error instanceof OutputFolderError) return error.problem + SERVER_WRITE_HINT;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof PathsError) {
    return `Invalid argument "paths": ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  }
  if (error instanceof NoProjectError) {
    return `${error.problem}; name what to bundle in the "paths" argument, or serve the ` +
      "project's folder (--root <dir> in the agent's MCP config)";
  }
  if (error instanceof UnknownNameError) {
    const problem = oneLine(error.problems[0] ?? message);
    return `Invalid argument "${error.kind}": ${problem.charAt(0).toLowerCase()}${
      problem.slice(1)
    }`;
  }
  if (error instanceof SinceError) {
    const problem = oneLine(
      message.replace(/ for --since\b/, "").replace(/^Cannot use --since /, ""),
    );
    return `Invalid argument "since": ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`;
  }
  return message;
}

/** What each tool's description says of a long build (a big project's first). */
const STILL_RUNNING = "A call whose build has not ended within the server's reply time (" +
  `${REPLY_WITHIN_MS / 1000} s by default; a large project's first build takes minutes) is ` +
  "answered that it is still running, with how far it got; the build goes on: call again with " +
  "the same arguments to get its result.";

/** `build_context`: build the document as `slop build` does. */
function registerBuildContext(server: McpServer, kit: ToolKit): void {
  const { z, context } = kit;
  const { config, persona, preset, pathList, viewName } = kit.fields;
  server.registerTool(
    "build_context",
    {
      title: "Build the context document",
      description: "Gather the files a task needs into one document, within a token budget: " +
        "give task (the request or issue text) when you do not know which files matter, focus " +
        "when you do, and budget (e.g. 16000) so that it fits this reply. " +
        "Builds the project's context document as `slop build` does: written to " +
        "the output folder (numbered), with the order memory and the cache. Returns the build " +
        "summary, the stable prefix's sha256, and the document itself when the whole reply has at " +
        `most maxInlineTokens tokens (default ${MAX_INLINE_TOKENS}), else its path (also the ` +
        `resource ${RESOURCES.document}, in parts). Reports progress when the call has a ` +
        `progressToken. ${STILL_RUNNING}`,
      inputSchema: z.strictObject({
        config: config.optional(),
        persona: persona.optional(),
        preset: preset.optional(),
        focus: pathList("Files rendered in full whatever their view").optional(),
        paths: pathList("Restrict the build to these files").optional(),
        view: viewName.describe(
          "The view of every file the config names no view for (default: the config's " +
            "defaultView); focus files stay full. " + viewName.description,
        ).optional(),
        strategy: z.enum(["auto", "summarize", "full"]).describe(
          "auto: the views of the config; summarize: every file as summary; full: every file in full",
        ).optional(),
        since: z.string().describe(
          "A git ref: the files changed since it (and untracked ones) are in focus",
        ).optional(),
        budget: z.number().int().positive().describe(
          "Fit the document in this many tokens by stepping files down to lighter views",
        ).optional(),
        task: z.string().trim().min(1).describe(
          "The task at hand (e.g. an issue's text): the files most relevant to it follow a " +
            "repository map that does not depend on the task, so the map stays cached across " +
            "tasks; with a budget, the map takes half of it, at most 16000 tokens (budget.taskShare, " +
            "budget.mapTokens), and the task's files the rest",
        ).optional(),
        format: z.enum(["markdown", "xml", "json"]).describe(
          "Document format (default: the config's output.format, else markdown)",
        ).optional(),
        maxInlineTokens: z.number().int().min(0).describe(
          "Return the document inline when the whole reply (summary, document, data) has at most " +
            `this many tokens, else its path (default ${MAX_INLINE_TOKENS})`,
        ).optional(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    tool<BuildContextArgs>(
      { context, name: "build_context" },
      (args, ...call) => buildContextTool(args, context, ...call),
    ),
  );
}

/** `view_files`: render files or globs in a view. */
function registerViewFiles(server: McpServer, kit: ToolKit): void {
  const { z, context } = kit;
  const { config, pathList, viewName } = kit.fields;
  const slice = z.strictObject({
    startLine: z.number().int().positive().describe("First line, 1-based"),
    endLine: z.number().int().positive().describe("Last line, 1-based, inclusive"),
    tag: z.string().describe("Label shown as [Slice: TAG]").optional(),
    comment: z.string().describe("Comment shown after the label").optional(),
  });
  server.registerTool(
    "view_files",
    {
      title: "Render files in a view",
      description: "Render files or globs in a view mode (skeleton before reading a big file, " +
        "outline for an API, masked with a per-symbol mask, custom with line slices), with the " +
        "config's plugins, secret redaction and cache. Writes nothing and records no order. " +
        `Files past what fits a reply of maxTokens (default ${MAX_INLINE_TOKENS}) are listed, not ` +
        `shown. ${STILL_RUNNING}`,
      inputSchema: z.strictObject({
        files: pathList("The files to render").min(1),
        view: viewName.describe(
          "The view for these files (default: the one the config gives each). " +
            viewName.description,
        ).optional(),
        mask: z.record(z.string(), z.enum(["def", "sig", "hide"])).describe(
          'For view "masked": symbol name -> def (whole definition), sig (signature only) or ' +
            "hide (left out)",
        ).optional(),
        slices: z.array(slice).describe('For view "custom": the line ranges to show').optional(),
        config: config.optional(),
        maxFiles: z.number().int().positive().describe(
          `Refuse when more files than this match (default ${MAX_VIEW_FILES})`,
        ).optional(),
        maxTokens: z.number().int().min(0).describe(
          `Show files, in order, while the whole reply has at most this many tokens; the rest are ` +
            `listed with their tokens (default ${MAX_INLINE_TOKENS})`,
        ).optional(),
      }),
      annotations: { readOnlyHint: true },
    },
    tool<ViewFilesArgs>(
      { context, name: "view_files" },
      (args, ...call) => viewFilesTool(args, context, ...call),
    ),
  );
}

/** `token_stats` and `check_prefix`: what the documents hold and what a change costs. */
function registerReportTools(server: McpServer, kit: ToolKit): void {
  const { z, context } = kit;
  const { config, persona, preset } = kit.fields;
  server.registerTool(
    "token_stats",
    {
      title: "Tokens by section and file",
      description: "Tokens (o200k, cl100k) and bytes of the latest written document by section " +
        "and by file, and the stable prefix's share, as `slop stats`. Builds now (without " +
        "writing) when there is no output yet, or with build, persona or preset. Reports " +
        `progress (the build's, then the count) when the call has a progressToken. ${STILL_RUNNING}`,
      inputSchema: z.strictObject({
        config: config.optional(),
        persona: persona.describe(`${persona.description}; builds now`).optional(),
        preset: preset.describe(`${preset.description}; builds now`).optional(),
        build: z.boolean().describe("Build now instead of reading the latest output").optional(),
        top: z.number().int().min(0).describe("How many files to list (default 10)").optional(),
      }),
      annotations: { readOnlyHint: true },
    },
    tool<TokenStatsArgs>(
      { context, name: "token_stats" },
      (args, ...call) => tokenStatsTool(args, context, ...call),
    ),
  );

  server.registerTool(
    "check_prefix",
    {
      title: "Check the stable prefix against slop.lock",
      description: "Build as `slop check` does (order only from the committed lock) and compare " +
        "the stable prefix with slop.lock: the first divergent block, the invalidated tokens and " +
        "what they cost per provider on the next call. Re-pinning is left to " +
        `\`slop check --update\`. ${STILL_RUNNING}`,
      inputSchema: z.strictObject({
        config: config.optional(),
        persona: persona.describe(`${persona.description} (its own lock)`).optional(),
        preset: preset.describe(`${preset.description} (its own lock)`).optional(),
        maxInvalidated: z.string().describe(
          "A budget, PERCENT% of the pinned prefix tokens or TOKENS: the result says whether " +
            "the divergence is within it",
        ).optional(),
      }),
      annotations: { readOnlyHint: true },
    },
    tool<CheckPrefixArgs>(
      { context, name: "check_prefix" },
      (args, ...call) => checkPrefixTool(args, context, ...call),
    ),
  );
}

/** `explain`: how the last two written builds' documents differ. */
function registerExplainTool(server: McpServer, kit: ToolKit): void {
  const { z, context } = kit;
  const { config } = kit.fields;
  server.registerTool(
    "explain",
    {
      title: "Explain the last prefix change",
      description: "For the last two written builds: how much of the newer document is a " +
        "byte-identical prefix of the older one (bytes and tokens), and which block ended it " +
        "(changed, added, removed or moved), as `slop explain`. Answered at once, also while a " +
        "build runs (it reads only the written builds).",
      inputSchema: z.strictObject({ config: config.optional() }),
      annotations: { readOnlyHint: true },
    },
    tool<{ config?: string }>(
      { context, name: "explain", queued: false },
      (args) => explainTool(args, context),
    ),
  );
}

/**
 * The resources: the latest document and its manifest, each whole when it fits in a reply, else
 * its first part, with a note that says how many parts there are and the next one's URI
 * (`slop://latest/document/2`, a template).
 */
function registerResources(server: McpServer, sdk: McpSdk, context: ToolContext): void {
  const kinds = [
    [
      "document",
      "The latest context document",
      "The highest-numbered document in the " +
      "output folder; a long one comes in parts of at most 18,000 tokens (…/document/2, …)",
    ],
    [
      "manifest",
      "The latest manifest",
      "The manifest of the latest document: blocks with " +
      "byte offsets, sha256 and tokens, the stable prefix, per-file views; in parts when long",
    ],
  ] as const;
  const readers = new Map<string, (uri: URL, part?: string) => Promise<ReadResult>>();
  for (const [kind, title, description] of kinds) {
    const cutter = partCutter();
    const read = (uri: URL, part = 1) => readLatest({ kind, uri, part }, context, cutter);
    const readPart = (uri: URL, part: string) => read(uri, partNumber(uri, part));
    readers.set(
      RESOURCES[kind],
      (uri, part) => part === undefined ? read(uri) : readPart(uri, part),
    );
    const mimeType = kind === "document" ? "text/markdown" : "application/json";
    // Listed by the SDK; read by `readResource()` below.
    server.registerResource(`latest-${kind}`, RESOURCES[kind], {
      title,
      description,
      mimeType,
    }, (uri: URL) => read(uri));
    const template = new sdk.ResourceTemplate(`${RESOURCES[kind]}/{part}`, { list: undefined });
    server.registerResource(
      `latest-${kind}-part`,
      template,
      {
        title: `${title}, one part`,
        description: `Part N (from 1) of ${
          kind === "document" ? "the latest document" : "its manifest"
        }`,
        mimeType,
      },
      (uri: URL, variables: Record<string, string | string[]>) =>
        readPart(uri, String(variables.part)),
    );
  }
  // The SDK's read answers a URI that does not parse with an internal error (-32603) and one it
  // does not know with -32602: slop answers both itself, and says what a failed read was reading.
  server.server.setRequestHandler(
    sdk.ReadResourceRequestSchema,
    (request: { params: { uri: string } }) => readResource(readers, String(request.params.uri)),
  );
}

/** The part number `part` of a resource URI names; a number past 2^53 is no part either. */
function partNumber(uri: URL, part: string): number {
  if (!/^[1-9]\d*$/.test(part) || !Number.isSafeInteger(Number(part))) {
    // Named as sent (not 1e+20 or Infinity).
    throw new ResourceError(
      INVALID_PARAMS,
      `Invalid part ${quote(part)} in ${quote(uri.href)}: a number from 1`,
    );
  }
  return Number(part);
}

/** What a resource read answers. */
type ReadResult = Awaited<ReturnType<typeof readLatest>>;

/**
 * Read the resource `href` by the readers of its URIs (`slop://latest/document` whole, and
 * `…/document/N`): a URI that does not parse or has a query is invalid (-32602), one that names
 * no resource not found (-32002), and a read that fails says which URI it was reading. A config
 * error or an output file that cannot be read is not the server's fault: it is -32002 too, with
 * its cause; anything else stays an internal error, naming the URI.
 */
async function readResource(
  readers: Map<string, (uri: URL, part?: string) => Promise<ReadResult>>,
  href: string,
): Promise<ReadResult> {
  let uri: URL;
  try {
    uri = new URL(href);
  } catch {
    throw new ResourceError(INVALID_PARAMS, `Invalid resource URI ${quote(href)}: not a URI`);
  }
  if (uri.search || uri.hash) {
    throw new ResourceError(
      INVALID_PARAMS,
      `Invalid resource URI ${quote(href)}: slop's resources take no query or fragment`,
    );
  }
  const known = [...readers.keys()];
  const whole = readers.get(uri.href);
  const base = known.find((k) => uri.href.startsWith(`${k}/`));
  const reader = whole ?? (base ? readers.get(base) : undefined);
  if (!reader) {
    throw new ResourceError(
      RESOURCE_NOT_FOUND,
      `No resource ${quote(href)}: slop has ${known.join(", ")} and their parts (…/1, …/2)`,
    );
  }
  try {
    return await (whole ? reader(uri) : reader(uri, uri.href.slice(base!.length + 1)));
  } catch (error) {
    if (error instanceof ResourceError) throw error;
    const message = redactMessage(error instanceof Error ? error.message : String(error));
    const code = error instanceof ConfigError || isFileError(error)
      ? RESOURCE_NOT_FOUND
      : INTERNAL_ERROR;
    throw new ResourceError(code, `Cannot read ${quote(href)}: ${oneLine(message)}`);
  }
}

/** JSON-RPC's code for an error of the server itself. */
const INTERNAL_ERROR = -32603;

/** An error of the file system (a file gone, unreadable, a folder where a file was). */
function isFileError(error: unknown): boolean {
  return Object.values(Deno.errors).some((kind) => error instanceof kind);
}

/**
 * A tool error's lines as they are, with any other control character escaped (an error that
 * quotes a value raw: no escape sequence or NUL reaches the agent's terminal or log).
 */
function lines(message: string): string {
  return message.split("\n").map(oneLine).join("\n");
}

/** One read of a resource: the latest written document or manifest, whole or part `part`. */
async function readLatest(
  { kind, uri, part }: { kind: Kind; uri: URL; part: number },
  context: ToolContext,
  cutter: PartCutter,
) {
  // Not queued behind the calls: a build publishes its document whole (linked from a
  // complete temp file) and its manifest after it (renamed into place), and the latest is
  // looked for by manifest, so a read while a build runs gets the last written build, whole.
  const latest = await inRoot(context, () => latestOutput(context))();
  const mimeType = kind === "document" ? MIME[latest.format] : "application/json";
  // The manifest records where the document went (`output.dir`): redacted as a tool's data is.
  const text = kind === "document" ? latest.document : redactMessage(latest.manifest);
  const fits = kind === "document" ? latest.tokens <= REPLY_TOKENS : false;
  // A part comes after its note in one reply: the part gets the limit less the longest note
  // (numbers of more digits are more tokens, and "read ... next" is longer than the last's).
  const longest = partNote({ kind, part: 1e9, parts: 1e9, path: latest.documentPath });
  const room = REPLY_TOKENS - await countTokens(longest);
  const parts = fits ? [text] : await cutter.parts(text, room);
  if (part > parts.length) {
    throw new ResourceError(INVALID_PARAMS, noSuchPart(kind, part, parts.length));
  }
  const contents = [{ uri: uri.href, mimeType, text: parts[part - 1] }];
  if (parts.length === 1) return { contents };
  const note = partNote({ kind, part, parts: parts.length, path: latest.documentPath });
  return { contents: [{ uri: uri.href, mimeType: "text/plain", text: note }, ...contents] };
}

/** What a part of a long resource says first: which part, how many, where the next one is. */
function partNote(
  { kind, part, parts, path }: { kind: Kind; part: number; parts: number; path: string },
): string {
  const next = part < parts ? `read ${partUri(kind, part + 1)} next` : "this is the last";
  const of = kind === "document" ? `the document "${path}"` : `the manifest of "${path}"`;
  return redactMessage(
    `slop: part ${part} of ${parts} of ${of} (at most ${REPLY_TOKENS} tokens a part; the ` +
      `parts joined, without these notes, are the file): ${next}`,
  );
}

/** A part past the last one. */
function noSuchPart(kind: Kind, part: number, parts: number): string {
  const range = parts > 1 ? `${partUri(kind, 1)} to ${partUri(kind, parts)}` : partUri(kind, 1);
  return `No part ${part}: the latest ${kind} has ${parts} part${parts === 1 ? "" : "s"} ` +
    `(${range})`;
}

/** A resource's kind. */
type Kind = keyof typeof RESOURCES;

/**
 * Progress notifications for a call that asked for them (a `progressToken`),
 * at most one per {@linkcode PROGRESS_INTERVAL_MS} besides the first and the last: `tell` sends
 * one, `sent` resolves once the last one told is written.
 */
function progressOf(
  extra: ToolExtra,
): { tell: ProgressFn; sent: () => Promise<void> } | undefined {
  const token = extra?._meta?.progressToken;
  if (token === undefined) return undefined;
  let last = -Infinity;
  let sent = -1;
  // The last notification's send: the reply goes after it, since a client drops the progress of
  // a call it has the reply of.
  let sending: Promise<void> = Promise.resolve();
  const tell: ProgressFn = (done, total, message) => {
    const now = performance.now();
    if (done <= sent || (now - last < PROGRESS_INTERVAL_MS && done < total)) return;
    last = now;
    sent = done;
    sending = extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken: token, progress: done, total, message },
    }).catch(() => {});
  };
  return { tell, sent: () => sending };
}
