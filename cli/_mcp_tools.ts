/**
 * What each tool of `slop mcp` does, as plain functions: arguments in, texts
 * and data out. They call the same functions as the commands they mirror
 * (`build`, `stats`, `check`, `explain`); `_mcp_server.ts` declares their
 * schemas and wires them to the SDK.
 *
 * @module
 */

import { join } from "node:path";
import { type ConfigFlags, loadConfig } from "../pipeline/config.ts";
import { build, type BuildProgress } from "../pipeline/build.ts";
import { PathsError, resolveTargets } from "../pipeline/resolve.ts";
import { checkPrefix } from "../pipeline/pin.ts";
import { displayPath } from "../pipeline/config.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import type { FileEntry, MaskMode, ResolvedConfig, Slice } from "../pipeline/types.ts";
import { builtinPlugins } from "./_builtins.ts";
import { fileCounts, loadBuildConfig, sinceLine, summaryText } from "./build.ts";
import { loadStats, statsText } from "./stats.ts";
import { checkReport, checkSummary, parseBudget, updateCommand, withinBudget } from "./check.ts";
import { explainLastBuilds, explainText, NEED_TWO_BUILDS } from "./explain.ts";
import { readLatest } from "./_latest.ts";
import { allInsideRoot, ArgumentError, insideRoot } from "./_mcp_paths.ts";
import { printWarning } from "./_output.ts";
import { boundedBudget, boundedWarnings } from "./_mcp_bounds.ts";
import { REPLY_TOKENS, replyTokens, RESOURCES } from "./_mcp_reply.ts";
import { speedLayer } from "../accel/speed_layer.ts";
import { headingText, isGlob } from "../pipeline/helpers.ts";
import { blankText, quote } from "../pipeline/schema.ts";
import { redactMessage } from "../pipeline/redact_message.ts";
import { shownPath } from "../pipeline/paths.ts";
import { formatCount } from "../pipeline/figures.ts";

/** Where the server runs: the project root and the defaults of its command line. */
export interface ToolContext {
  /** The project root (absolute; the server's working directory). */
  root: string;
  /** The config file of `slop mcp --config`, used when a call names none. */
  config?: string;
  /** The state dir of `slop mcp --state-dir`. */
  stateDir?: string;
  /**
   * The working folder the server keeps (`slop mcp` enters the root as it starts): before each
   * call it enters that path again when the folder there was deleted and made again.
   * @default {the working folder when the server is made}
   */
  home?: string;
  /**
   * How long a call waits for its work before the reply says it goes on in the background
   * (`slop mcp --reply-within`); 0 waits for the end.
   * @default {45000}
   */
  replyWithinMs?: number;
  /**
   * Why the root `slop mcp --root` was given cannot be served (no such folder): each call is
   * answered with it, as the client cannot see the server's stderr.
   */
  rootError?: string;
}

/** What a tool returns: texts for the model, and the same facts as data. */
export interface ToolOutput {
  /**
   * Text items, in order (a summary first). They may quote config values and arguments (a
   * path, a lock's name, a command to run), so the server redacts them before they are sent.
   */
  texts: string[];
  /**
   * What the build made, after the texts: the document, or the rendered files. Sent as it is:
   * the build's scan redacted it with slop's rules, secretlint's and the config's.
   */
  built?: string;
  /** The facts as JSON-ready data (`structuredContent`), redacted as the texts are. */
  data: Record<string, unknown>;
}

/** Called as a long build goes on: work done, work in all, and what it is. */
export type ProgressFn = (done: number, total: number, message: string) => void;

/**
 * `build_context` returns the document inline when its reply (summary, document, data) has at most
 * this many tokens, and `view_files` shows files up to it (their defaults).
 */
export const MAX_INLINE_TOKENS = REPLY_TOKENS;

/** Arguments of `build_context`. */
export interface BuildContextArgs {
  config?: string;
  persona?: string;
  preset?: string;
  focus?: string[];
  paths?: string[];
  view?: string;
  strategy?: "auto" | "summarize" | "full";
  since?: string;
  budget?: number;
  /** The task at hand: its files follow the task-independent map. */
  task?: string;
  format?: "markdown" | "xml" | "json";
  /** The reply's tokens (summary, document, data) at most for the document to come inline. */
  maxInlineTokens?: number;
}

/**
 * `build_context`: build and write like `slop build` (order memory, cache,
 * numbered output), then return the summary, the prefix hash and the
 * document, or its path when it has more than `maxInlineTokens` tokens.
 *
 * @example
 * ```ts
 * import { buildContextTool } from "./_mcp_tools.ts";
 * // const { texts, data } = await buildContextTool({ focus: ["src/a.ts"] }, { root: Deno.cwd() });
 * ```
 */
export async function buildContextTool(
  args: BuildContextArgs,
  context: ToolContext,
  progress?: ProgressFn,
  signal?: AbortSignal,
): Promise<ToolOutput> {
  const { root } = context;
  const config = await buildContextConfig(args, context);
  const result = await build(config, {
    builtins: builtinPlugins(),
    layer: speedLayer(),
    write: true,
    onProgress: buildProgress(progress, signal),
  });
  const m = result.manifest;
  const limit = args.maxInlineTokens ?? MAX_INLINE_TOKENS;
  let reply = await buildReply(result, { config, root });
  // A document within the limit that the lists beside it (files stepped down, skipped, secrets
  // redacted: 20 of each) push past it comes inline all the same, with those lists cut short: the
  // agent asked for the document (a budget below the limit says so), and the manifest has them.
  if (reply.rest + m.total.tokens > limit && m.total.tokens < limit) {
    const short = await buildReply(result, { config, root, listMax: SHORT_LIST_MAX });
    if (short.rest + m.total.tokens <= limit) reply = short;
  }
  const { head, data, rest } = reply;
  data.inline = rest + m.total.tokens <= limit;
  const where = { limit, rest, budget: args.budget, tokenizer: config.budget.tokenizer ?? "o200k" };
  const summary = [...head, documentLine(m.total.tokens, data.document, where)].join("\n");
  return { texts: [summary], ...(data.inline ? { built: result.document } : {}), data };
}

/** How many items each list of a `build_context` reply keeps when the full lists push its document out. */
const SHORT_LIST_MAX = 3;

/**
 * A `build_context` reply but its document line: the summary's lines and the data, with lists of
 * at most `listMax` items (20 by default), and the tokens they take with that line (`rest`).
 */
async function buildReply(
  result: Awaited<ReturnType<typeof build>>,
  { config, root, listMax }: { config: ResolvedConfig; root: string; listMax?: number },
) {
  const m = result.manifest;
  const output = result.output!;
  const head = [
    summaryText(result, { tokenizer: config.budget.tokenizer, listMax }),
    ...(listMax === undefined ? [] : [
      `lists cut to ${listMax} items each so that the document fits the reply: the manifest ` +
      `"${shownPath(output.manifest, root)}" lists them all`,
    ]),
    ...(config.since ? [sinceLine(config.since)] : []),
    `prefix sha256: ${m.prefix.sha256}`,
  ];
  const data = {
    number: output.number,
    document: shownPath(output.document, root),
    manifest: shownPath(output.manifest, root),
    inline: true,
    format: config.output.format,
    prefix: m.prefix,
    total: m.total,
    // As the summary counts them: its text and its data say the same.
    files: fileCounts(result),
    ...(result.budget ? { budget: boundedBudget(result.budget, listMax) } : {}),
    ...(m.task ? { task: m.task } : {}),
    ...boundedWarnings(result.warnings, listMax),
  };
  // The limit is the whole reply's: the summary and the data come with the document.
  const rest = await replyTokens([...head, JSON.stringify(data)]) + DOCUMENT_LINE_TOKENS;
  return { head, data, rest };
}

/** The config `build_context` builds with: the project's, with the call's arguments applied. */
async function buildContextConfig(args: BuildContextArgs, context: ToolContext) {
  const { root } = context;
  const paths = allInsideRoot(root, "paths", args.paths) ?? [];
  const focus = allInsideRoot(root, "focus", args.focus);
  // White space the schema trims; invisible characters alone (a zero-width space) are as empty.
  if (args.task !== undefined && blankText(args.task)) {
    throw new ArgumentError("task", `expected a non-empty string, got ${quote(args.task)}`);
  }
  const config = await loadBuildConfig(paths, {
    cwd: root,
    config: configArg(args.config, context),
    stateDir: context.stateDir,
    persona: args.persona,
    preset: args.preset,
    focus,
    since: args.since,
    strategy: args.strategy,
    budget: args.budget === undefined ? undefined : String(args.budget),
    task: args.task,
    format: args.format,
  });
  if (args.view !== undefined) {
    checkView(config, "view", args.view);
    config.defaultView = args.view;
  }
  return config;
}

/** The tokens the summary's `document:` line takes at most. */
const DOCUMENT_LINE_TOKENS = 80;

/**
 * Where the document is: below, or at its path with how to get one that fits the reply (the
 * budget that leaves room for the rest of it, `rest` tokens, rounded down to a thousand). Its
 * count names the build's tokenizer, as the summary's do.
 */
function documentLine(
  tokens: number,
  path: string,
  { limit, rest, budget, tokenizer }: {
    limit: number;
    rest: number;
    budget?: number;
    tokenizer: string;
  },
): string {
  const count = `document: ${formatCount(tokens)} ${tokenizer} tokens`;
  if (rest + tokens <= limit) return `${count}, in full below`;
  // Without a budget now, its report (the files stepped down) will come too.
  const fits = Math.floor((limit - rest - (budget === undefined ? 1000 : 0)) / 1000) * 1000;
  return `${count}, more than maxInlineTokens ${formatCount(limit)} with the summary, so ` +
    `not inline: read "${path}" or the resource ${RESOURCES.document} (in parts)` +
    // A model cannot read a document of 300,000 tokens: say how to get one it can.
    (fits > 0 && (budget ?? Infinity) > fits
      ? `, or build again with "budget": ${fits} (and "task") to have it here`
      : "");
}

/** Arguments of `view_files`. */
export interface ViewFilesArgs {
  files: string[];
  view?: string;
  mask?: Record<string, MaskMode>;
  slices?: Slice[];
  config?: string;
  maxFiles?: number;
  /**
   * The reply's tokens at most: files are shown, in order, while the reply with the lines of the
   * others and the data fits (default `MAX_INLINE_TOKENS`).
   */
  maxTokens?: number;
}

/** How many files `view_files` renders at most (its default). */
export const MAX_VIEW_FILES = 50;

/**
 * `view_files`: the files or globs rendered in a view (or the view the
 * config gives each), with the config's plugins, secret rules and cache.
 * Nothing is written and no order is recorded: it is a look, not a build.
 *
 * @example
 * ```ts
 * import { viewFilesTool } from "./_mcp_tools.ts";
 * // await viewFilesTool({ files: ["src/**"], view: "skeleton" }, { root: Deno.cwd() });
 * ```
 */
export async function viewFilesTool(
  args: ViewFilesArgs,
  context: ToolContext,
  progress?: ProgressFn,
  signal?: AbortSignal,
): Promise<ToolOutput> {
  const { root } = context;
  const wanted = allInsideRoot(root, "files", args.files)!;
  if (!wanted.length) throw new ArgumentError("files", "expected at least one path or glob");
  // A path (not a glob) that names nothing is a mistake to say, not a file to render as an error.
  wanted.forEach((path, i) => {
    if (!isGlob(path) && !existsUnder(root, path)) {
      throw new ArgumentError("files", `no file matches ${quote(args.files[i])}`);
    }
  });
  checkSlices(args.slices);
  const base = await loadConfig(configFlags(args.config, context));
  if (args.view !== undefined) checkView(base, "view", args.view);
  for (const key of ["mask", "slices"] as const) {
    if (args[key] !== undefined && args.view !== undefined && leavesUnused(key, args.view)) {
      throw new ArgumentError(
        key,
        `view "${args.view}" does not use it (only view "${VIEW_OF[key]}" does)`,
      );
    }
  }
  const config = viewConfig(base, { root, wanted, args });
  const max = args.maxFiles ?? MAX_VIEW_FILES;
  // Each literal path exists (checked above) and resolve keeps only the files a glob matches
  // that exist: no target left (or none under the paths at all) means the globs matched nothing.
  const targets = await resolveTargets(config).then(
    (resolved) => resolved.targets,
    (error) => {
      if (error instanceof PathsError) return [];
      throw error;
    },
  );
  if (!targets.length) {
    throw new ArgumentError("files", `no file matches ${args.files.map(quote).join(", ")}`);
  }
  if (targets.length > max) {
    throw new ArgumentError(
      "files",
      `${targets.length} files match, more than maxFiles ${max}: ask for fewer or raise maxFiles`,
    );
  }
  const result = await build(config, {
    builtins: builtinPlugins(),
    layer: speedLayer(),
    write: false,
    record: false,
    onProgress: buildProgress(progress, signal),
  });
  return await filesWithin(result, args);
}

/**
 * The files shown, in order, while the reply fits `maxTokens`: the whole reply's, with the lines
 * of the files not shown and the data.
 */
async function filesWithin(
  result: Awaited<ReturnType<typeof build>>,
  args: ViewFilesArgs,
): Promise<ToolOutput> {
  const limit = args.maxTokens ?? MAX_INLINE_TOKENS;
  for (let room = limit;;) {
    const { texts, files } = shownFiles(result, args, room);
    const data = { files, ...boundedWarnings(result.warnings) };
    const built = texts.join("\n\n");
    const over = await replyTokens([built, JSON.stringify(data)]) - limit;
    if (over <= 0) return { texts: [], built, data };
    // Even listed, hundreds of files (a large maxFiles) can fill a reply: list the first ones.
    if (room <= 0 || !files.some((f) => f.shown)) {
      return files.length > 1 ? await listedWithin(texts, data, limit) : { texts: [], built, data };
    }
    // Each file moved out of the reply adds its line: a little more room for them.
    room -= over + 200;
  }
}

/**
 * The first files' lines and facts that fit a reply of `limit` tokens, with how many more
 * (`moreFiles`) and what to ask for instead.
 */
async function listedWithin(
  texts: string[],
  data: { files: Array<Record<string, unknown>> },
  limit: number,
): Promise<ToolOutput> {
  // One file's line stays: a list of none would say nothing of what matched.
  for (let keep = texts.length;;) {
    keep = Math.max(1, Math.floor(keep * 0.8));
    const more = texts.length - keep;
    const cut = { ...data, files: data.files.slice(0, keep), moreFiles: more };
    const built = [
      ...texts.slice(0, keep),
      `(${more} more files not listed: more would not fit one reply; ask for fewer files)`,
    ].join("\n\n");
    if (keep === 1 || await replyTokens([built, JSON.stringify(cut)]) <= limit) {
      return { texts: [], built, data: cut };
    }
  }
}

/** Each file's text (or the line that stands for it past `limit` tokens) and its facts. */
function shownFiles(
  result: Awaited<ReturnType<typeof build>>,
  args: ViewFilesArgs,
  limit: number,
): { texts: string[]; files: Array<Record<string, unknown>> } {
  const blocks = new Map(result.blocks.map((b) => [b.source, b]));
  const texts: string[] = [];
  const room = roomFor(limit);
  let shownBefore = 0;
  const files = result.files.map((f) => {
    const block = blocks.get(f.path);
    const shown = block === undefined || room(block.tokens);
    if (block && shown) {
      shownBefore++;
      texts.push(block.text.trimEnd());
    } else if (block) texts.push(notShown(f.path, block.tokens, args, shownBefore === 0));
    else texts.push(unrenderedText(f));
    const notes = [
      ...f.notes ?? [],
      ...(["mask", "slices"] as const)
        .filter((key) => args[key] !== undefined && leavesUnused(key, f.view))
        .map((key) =>
          `${key} not used: view "${f.view}" does not use it (give view "${VIEW_OF[key]}")`
        ),
    ];
    return {
      path: f.path,
      view: f.view,
      status: f.status,
      ...(f.reason ? { reason: f.reason } : {}),
      bytes: f.bytes,
      ...(block ? { tokens: block.tokens, shown } : {}),
      // Why the view is not the one asked (a fallback, a custom view with no slices), and a mask
      // or slices its view left unused.
      ...(notes.length ? { notes: notes.map((n) => redactMessage(n)) } : {}),
    };
  });
  return { texts, files };
}

/** The built-in view each of `mask` and `slices` is for. */
const VIEW_OF = { mask: "masked", slices: "custom" } as const;

/**
 * Whether `view` is a built-in view that leaves the argument `key` unused: an argument it drops
 * without a word would look applied (a plugin's view may read either, so it is never refused).
 */
function leavesUnused(key: keyof typeof VIEW_OF, view: string): boolean {
  const name = view.replace(/^slop:/, "");
  return name !== VIEW_OF[key] &&
    builtinPlugins().some((plugin) =>
      plugin.kind === "view-mode" && plugin.name.replace(/^slop:/, "") === name
    );
}

/**
 * Whether a file of `tokens` still fits in `limit` with the files shown before it: a model
 * reads a tool result whole, and one call must not fill its context (`src/**` in full).
 */
function roomFor(limit: number): (tokens: number) => boolean {
  let used = 0;
  return (tokens) => {
    if (used + tokens > limit) return false;
    used += tokens;
    return true;
  };
}

/**
 * The line that stands for a file past `maxTokens`, saying how to see it; `first` when no file
 * was shown before it (then asking for it alone would not help).
 */
function notShown(path: string, tokens: number, args: ViewFilesArgs, first = false): string {
  const limit = args.maxTokens ?? MAX_INLINE_TOKENS;
  const lighter = lighterViews(args.view).map((v) => `"${v}"`).join(", ");
  const how = first
    ? `ask for it with a larger maxTokens${lighter ? `, or in a lighter view (${lighter})` : ""}`
    : `ask for it${
      lighter ? ` in a lighter view (${lighter}),` : ""
    } alone, or with a larger maxTokens`;
  const why = first
    ? `more than maxTokens ${limit}`
    : `past maxTokens ${limit} with the files before it`;
  return redactMessage(
    `### ${headingText(path)}\n\n(not shown: ${formatCount(tokens)} tokens, ${why}: ${how})`,
  );
}

/** The views a budget steps a file through, heaviest first. */
const VIEW_LADDER = ["full", "skeleton", "outline", "summary"];

/**
 * The two views after `view` on the ladder (none after `summary`); after a view off it
 * (`masked`, `custom`, `cells`, a plugin's), `outline` and `summary`.
 */
function lighterViews(view = "full"): string[] {
  const at = VIEW_LADDER.indexOf(view.replace(/^slop:/, ""));
  return at < 0 ? VIEW_LADDER.slice(2) : VIEW_LADDER.slice(at + 1, at + 3);
}

/** A slice whose last line comes before its first is refused, naming it (`slices[0]`). */
function checkSlices(slices: Slice[] | undefined): void {
  for (const [i, slice] of (slices ?? []).entries()) {
    if (slice.endLine < slice.startLine) {
      throw new ArgumentError(
        `slices[${i}]`,
        `endLine ${slice.endLine} is before startLine ${slice.startLine}`,
      );
    }
  }
}

/**
 * The config `view_files` builds with: the project's, on the `wanted` paths only (absolute),
 * each in the asked view, mask and slices, without budget, focus or anything else that would
 * choose or add files, as markdown.
 */
function viewConfig(
  base: ResolvedConfig,
  asked: { root: string; wanted: string[]; args: ViewFilesArgs },
): ResolvedConfig {
  const { root, wanted, args } = asked;
  const options: Partial<FileEntry> = {
    ...(args.view !== undefined ? { view: args.view } : {}),
    ...(args.mask ? { mask: args.mask } : {}),
    ...(args.slices ? { slices: args.slices } : {}),
  };
  // Absolute: the config's root may be another folder than the server's.
  const absolute = wanted.map((path) => `${root}/${path}`.replace(/\/\.$/, ""));
  const config: ResolvedConfig = {
    ...base,
    // The config's entries still give each file its options; the asked ones come last and win.
    files: [...base.files, ...absolute.map((path) => ({ path, ...options }))],
    paths: absolute,
    include: [],
    focus: [],
    since: undefined,
    tier: undefined,
    persona: undefined,
    strategy: "auto",
    summaryOnly: false,
    screenshots: [],
    history: undefined,
    beads: false,
    allowOutsideRoot: false,
    budget: { ...base.budget, tokens: undefined },
    output: { ...base.output, format: "markdown" },
  };
  return config;
}

/** Arguments of `token_stats`. */
export interface TokenStatsArgs {
  config?: string;
  persona?: string;
  preset?: string;
  build?: boolean;
  top?: number;
}

/**
 * `token_stats`: tokens by section and file (o200k, cl100k) and the stable
 * prefix's share, of the latest output or a fresh build, as `slop stats`;
 * `progress` is told the build's progress, then the count of the blocks, and
 * a call the client cancelled (`signal`) stops at the next file or block.
 *
 * @example
 * ```ts
 * import { tokenStatsTool } from "./_mcp_tools.ts";
 * // await tokenStatsTool({ top: 5 }, { root: Deno.cwd() });
 * ```
 */
export async function tokenStatsTool(
  args: TokenStatsArgs,
  context: ToolContext,
  progress?: ProgressFn,
  signal?: AbortSignal,
): Promise<ToolOutput> {
  const top = args.top ?? 10;
  // The count of the blocks follows a build's progress (made now), in one count that only grows.
  let before = 0;
  const told: ProgressFn | undefined = progress && ((done, total, message) => {
    before = total;
    progress(done, total, message);
  });
  const { stats, from } = await loadStats({
    cwd: context.root,
    config: configArg(args.config, context),
    stateDir: context.stateDir,
    persona: args.persona,
    preset: args.preset,
    build: args.build,
    onProgress: buildProgress(told, signal),
  }, {
    onBlock: (done, total) => {
      throwIfCancelled(signal);
      progress?.(before + done, before + total, `counted the tokens of ${done} of ${total} blocks`);
    },
  });
  // A large top lists thousands of files: as many as fit one reply.
  for (let n = top;; n = Math.floor(n * 0.7)) {
    const texts = [statsText(stats, { top: n, from })];
    if (n < top) {
      texts.push(`(${n} files listed of the top ${top} asked: more would not fit one reply)`);
    }
    const data = { from, ...stats, files: stats.files.slice(0, n) };
    if (n === 0 || await replyTokens([...texts, JSON.stringify(data)]) <= MAX_INLINE_TOKENS) {
      return { texts, data };
    }
  }
}

/** Arguments of `check_prefix`. */
export interface CheckPrefixArgs {
  config?: string;
  persona?: string;
  preset?: string;
  maxInvalidated?: string;
}

/**
 * `check_prefix`: build as `slop check` does (order from the lock only) and
 * compare the stable prefix with `slop.lock`: the first divergent block, the
 * invalidated tokens and their cost per provider. Never re-pins. Without a
 * lock it throws (the call is an error), as `slop check` exits 1.
 *
 * @example
 * ```ts
 * import { checkPrefixTool } from "./_mcp_tools.ts";
 * // await checkPrefixTool({ maxInvalidated: "5%" }, { root: Deno.cwd() });
 * ```
 */
export async function checkPrefixTool(
  args: CheckPrefixArgs,
  context: ToolContext,
  progress?: ProgressFn,
  signal?: AbortSignal,
): Promise<ToolOutput> {
  const budget = args.maxInvalidated === undefined ? undefined : parseBudget(args.maxInvalidated);
  if (args.maxInvalidated !== undefined && !budget) {
    throw new ArgumentError(
      "maxInvalidated",
      `expected PERCENT% (0-100) or TOKENS, got "${args.maxInvalidated}"`,
    );
  }
  const flags = {
    cwd: context.root,
    config: configArg(args.config, context),
    stateDir: context.stateDir,
    persona: args.persona,
    preset: args.preset,
  };
  const config = await loadConfig(flags);
  const lockName = displayPath(config.lock, context.root);
  const onProgress = buildProgress(progress, signal);
  const check = await checkPrefix(config, { builtins: defaultPlugins(), onProgress });
  // No lock to compare with is an error, as `slop check` exits 1 saying so.
  if (!check.pinned) throw new Error(checkReport(check, lockName, updateCommand(flags)));
  const summary = checkSummary(check, lockName);
  const matches = summary.pinned && !summary.diff;
  const within = budget && check.diff ? withinBudget(check.diff, budget) : undefined;
  const texts = [checkReport(check, lockName, updateCommand(flags))];
  if (within !== undefined) {
    texts[0] += `\n${within ? "within" : "over"} maxInvalidated ${args.maxInvalidated}`;
  }
  return {
    texts,
    data: { ...summary, matches, ...(within !== undefined ? { withinBudget: within } : {}) },
  };
}

/**
 * `explain`: how much of the newest written document is a byte-identical
 * prefix of the one before, and the block that ended it, as `slop explain`.
 *
 * @example
 * ```ts
 * import { explainTool } from "./_mcp_tools.ts";
 * // await explainTool({}, { root: Deno.cwd() });
 * ```
 */
export async function explainTool(
  args: { config?: string },
  context: ToolContext,
): Promise<ToolOutput> {
  const config = await loadConfig(configFlags(args.config, context));
  const explanation = await explainLastBuilds(config);
  // The agent builds with the tool: say so beside the command.
  if (!explanation) throw new Error(`${NEED_TWO_BUILDS} (or call build_context twice)`);
  return {
    texts: [explainText(explanation, { tokenizer: config.budget.tokenizer })],
    data: { ...explanation },
  };
}

/**
 * MCP's code for a resource that is not there (JSON-RPC's server error range).
 *
 * @example
 * ```ts
 * import { RESOURCE_NOT_FOUND, ResourceError } from "./_mcp_tools.ts";
 * new ResourceError(RESOURCE_NOT_FOUND, "No build yet").code; // -32002
 * ```
 */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * JSON-RPC's code for invalid parameters (a resource URI that does not parse, a bad part).
 *
 * @example
 * ```ts
 * import { INVALID_PARAMS, ResourceError } from "./_mcp_tools.ts";
 * new ResourceError(INVALID_PARAMS, "Invalid part").code; // -32602
 * ```
 */
export const INVALID_PARAMS = -32602;

/**
 * An error of a resource read that the client caused (a part past the last, no build yet): the
 * SDK answers with its `code` (else with -32603, an internal error, which it is not).
 *
 * @example
 * ```ts
 * import { ResourceError } from "./_mcp_tools.ts";
 * new ResourceError(-32602, "Invalid part").code; // -32602
 * ```
 */
export class ResourceError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;

  /**
   * @example
   * ```ts
   * import { ResourceError } from "./_mcp_tools.ts";
   * new ResourceError(-32602, "Invalid part").message; // "Invalid part"
   * ```
   */
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** The latest written document and manifest of the server's config, or why there is none. */
export interface Latest {
  /** The document's text. */
  document: string;
  /** The manifest's JSON text. */
  manifest: string;
  /** The document's format. */
  format: string;
  /** The document's path, relative to the root (or absolute outside it). */
  documentPath: string;
  /** The document's tokens, as its manifest counted them. */
  tokens: number;
}

/**
 * The latest written output of the server's config (the resources
 * `slop://latest/document` and `slop://latest/manifest`).
 *
 * @example
 * ```ts
 * import { latestOutput } from "./_mcp_tools.ts";
 * // const latest = await latestOutput({ root: Deno.cwd() });
 * ```
 */
export async function latestOutput(context: ToolContext): Promise<Latest> {
  const config = await loadConfig(configFlags(undefined, context));
  const latest = await readLatest(config, printWarning);
  if (!latest) {
    throw new ResourceError(
      RESOURCE_NOT_FOUND,
      `No written build in "${shownPath(config.output.dir, context.root)}" yet: ` +
        "call the tool build_context or run `slop build`",
    );
  }
  const output = latest.manifest.output ?? "";
  const format = output.endsWith(".xml")
    ? "xml"
    : output.endsWith(".doc.json")
    ? "json"
    : "markdown";
  return {
    document: latest.document,
    // The file's text, so that the resource's parts join to the file byte for byte.
    manifest: latest.manifestText,
    format,
    documentPath: shownPath(join(config.root, output), context.root),
    tokens: latest.manifest.total.tokens,
  };
}

/** The config file of a call: its `config` argument (checked), else the server's. */
function configArg(config: string | undefined, context: ToolContext): string | undefined {
  if (config === undefined) return context.config;
  const path = insideRoot(context.root, "config", config);
  // Named here, as the argument at fault, not as a config that failed to load.
  if (!existsAt(join(context.root, path))) {
    throw new ArgumentError(
      "config",
      `no file ${quote(config)} in the project root "${context.root}"`,
    );
  }
  return path;
}

/** Whether anything is at `path` (a file, a folder, a FIFO: the config load says what is wrong). */
function existsAt(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function configFlags(config: string | undefined, context: ToolContext): ConfigFlags {
  return { cwd: context.root, config: configArg(config, context), stateDir: context.stateDir };
}

/** Refuse a view the build has no view mode for, naming the argument. */
function checkView(config: ResolvedConfig, argument: string, view: string): void {
  const names = [...builtinPlugins(), ...config.plugins]
    .filter((p) => p.kind === "view-mode")
    .flatMap((p) => [p.name, p.name.replace(/^slop:/, "")]);
  if (names.includes(view)) return;
  const known = [...new Set(names.filter((n) => !n.startsWith("slop:")))];
  throw new ArgumentError(
    argument,
    `unknown view mode ${quote(view)} (known: ${known.join(", ")})`,
  );
}

/**
 * A build's progress as one count that only grows: files rendered, then
 * files plus blocks counted (the blocks' number is known once they are made).
 * The scan's start and end are not told: they move no count. A call the
 * client cancelled (`signal`) stops at the next file rendered, once the
 * blocks are counted, or at the next step of a budget: before anything is
 * written.
 */
function buildProgress(
  progress: ProgressFn | undefined,
  signal: AbortSignal | undefined,
): ((p: BuildProgress) => void) | undefined {
  if (!progress && !signal) return undefined;
  let files = 0;
  let blocks = 0;
  const tell = progress ?? (() => {});
  return (p) => {
    // Not while blocks are counted (threads share that work): once they all are.
    if (p.stage !== "tokens" || p.done === p.total) throwIfCancelled(signal);
    if (p.stage === "scan") return;
    if (p.stage === "transform") {
      files = p.total;
      tell(p.done, p.total, `rendered ${p.done} of ${p.total} files (${p.cacheHits} cached)`);
    } else if (p.stage === "tokens") {
      blocks = p.total;
      tell(files + p.done, files + p.total, `counted ${p.done} of ${p.total} blocks`);
    } else {
      // A budget steps files down for a while (a big tree's first build: its skeletons): told in
      // tokens, after the files and blocks, so that a client's timeout that progress resets holds.
      const before = files + blocks;
      tell(before + p.done, before + p.total, budgetMessage(p.done, p.total));
    }
  };
}

/**
 * A call the client cancelled ends here; nothing answers it (the SDK sends no result).
 *
 * @example
 * ```ts
 * import { CancelledError } from "./_mcp_tools.ts";
 * const error = new CancelledError("The client cancelled the call");
 * ```
 */
export class CancelledError extends Error {}

/**
 * Throw a {@linkcode CancelledError} when the client has cancelled the call.
 *
 * @example
 * ```ts
 * import { throwIfCancelled } from "./_mcp_tools.ts";
 * throwIfCancelled(new AbortController().signal); // nothing: not cancelled
 * ```
 */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError("The client cancelled the call");
}

/** The progress message of a budget's steps. */
function budgetMessage(shed: number, over: number): string {
  return `fitting the budget: stepped files down by ${formatCount(shed)} of the ${
    formatCount(over)
  } tokens over it`;
}

/** Whether something is at `path` under `root` (a name too long for the system is not). */
function existsUnder(root: string, path: string): boolean {
  try {
    Deno.lstatSync(`${root}/${path}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * What `view_files` says of a file it did not render: its heading (escaped as the document's
 * are) and why. A reason may quote the file or a config value: redacted, as the server's replies
 * are.
 */
function unrenderedText(file: { path: string; status: string; reason?: string }): string {
  const why = `(${file.status}: ${file.reason ?? "not rendered"})`;
  return redactMessage(`### ${headingText(file.path)}\n\n${why}`);
}
