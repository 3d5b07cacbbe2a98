/**
 * `slop build`: build, write, and print a short summary.
 *
 * @module
 */

import { ConfigError, loadConfig } from "../pipeline/config.ts";
import { checkProjectRoot, NoProjectError } from "./_no_project.ts";
import { parentConfig, parentConfigWarning } from "./_parent_config.ts";
import { build, type BuildOptions, type BuildResult } from "../pipeline/build.ts";
import { builtinPlugins } from "./_builtins.ts";
import { SinceError } from "../pipeline/since.ts";
import { PathsError } from "../pipeline/resolve.ts";
import { LockError } from "../pipeline/lock.ts";
import { budgetLines } from "./_budget.ts";
import {
  formatBytes,
  isRedaction,
  moreRedactions,
  REDACTIONS_SHOWN,
  shownMessage,
} from "./_output.ts";
import { printablePath } from "../pipeline/helpers.ts";
import { DATA_LIMIT, isDataSummarized, isTranslationSummarized } from "../pipeline/data_files.ts";
import { bidiNoteOf } from "../pipeline/bidi_controls.ts";
import {
  applyOverrides,
  flagNumber,
  formatFlagError,
  strategyFlagError,
  taskFlag,
} from "./_flags.ts";
import { cacheLine } from "./_cache_line.ts";
import { overEveryWindow } from "../plugins/providers/windows.ts";
import { suggestedBudget } from "../pipeline/cache_plan.ts";
import { PLAIN_EVERY_MS, progressBar } from "./_progress.ts";
import { type StageClock, stageClock, timingsText } from "../pipeline/timings.ts";
import type { BuildSession } from "../server/session.ts";
import type { RenderedFile, ResolvedConfig, Strategy } from "../pipeline/types.ts";
import { processTerminal, type Terminal } from "./_terminal.ts";
import { speedLayer } from "../accel/speed_layer.ts";
import { draftsDropped } from "../accel/draft_ahead.ts";
import { taskFilePaths, underRoot } from "./_own_output.ts";
import { documentChunks, streamDocument } from "../pipeline/document.ts";
import { textParts } from "../pipeline/block_parts.ts";
import { shownPath } from "../pipeline/paths.ts";
import { formatCount } from "../pipeline/figures.ts";
import { commandErrorText } from "./_error_message.ts";

/** Flags of `slop build`. */
export interface BuildFlags {
  /** The folder the config is looked up from and paths are relative to. @default {Deno.cwd()} */
  cwd?: string;
  config?: string;
  include?: string[];
  ignore?: string[];
  persona?: string;
  preset?: string;
  strategy?: string;
  focus?: string[];
  /** Git ref: the files changed since it are in focus (`--since`). */
  since?: string;
  /** Token budget (`--budget`). */
  budget?: string;
  /** The task at hand (`--task`). */
  task?: string;
  /** A file holding the task (`--task-file`; `-` reads standard input). */
  taskFile?: string;
  stateDir?: string;
  stdout?: boolean;
  json?: boolean;
  /** Document format (`--format`), over `output.format`. */
  format?: string;
  strict?: boolean;
  /** Exit 1 without writing when a secret is found (`--fail-on-secret`). */
  failOnSecret?: boolean;
  quiet?: boolean;
  /** `false` with `--no-cache`. */
  cache?: boolean;
  /** Print each stage's time to stderr (`--timings`). */
  timings?: boolean;
  /**
   * Absolute paths of the files this command's stdout and stderr go to (`slop build > ctx.md`):
   * left out of the build, as its own output (set by the command line, not a flag). A build
   * server is told the `--task-file` here too, which the build leaves out as well.
   */
  outputs?: string[];
}

/** Options of {@linkcode runBuild}. */
export interface RunBuildOptions {
  /** Where the output goes. @default {processTerminal()} */
  terminal?: Terminal;
  /** A build server's state; absent, the build loads everything itself. */
  session?: BuildSession;
  /**
   * Where stderr is not a terminal: a plain line of progress after this many milliseconds, then
   * every as many more (none with `--quiet`). @default {30000}
   */
  progressEveryMs?: number;
}

/**
 * Run `slop build`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runBuild } from "./build.ts";
 * // const code = await runBuild([], { stdout: true });
 * ```
 */
export async function runBuild(
  paths: string[],
  flags: BuildFlags,
  options: RunBuildOptions = {},
): Promise<number> {
  const terminal = options.terminal ?? processTerminal();
  // In this process, or with a build server's session: chosen here, once.
  const builder = options.session ? sessionBuilder(options.session) : processBuilder();
  // An error may quote input (a flag's value, a parser's excerpt of a broken config line).
  const printError = (message: string) => terminal.stderr(`slop: ${shownMessage(message)}\n`);
  const checked = await checkFlags(flags);
  if ("error" in checked) {
    printError(checked.error);
    return 2;
  }
  const { budget, task } = checked;
  let result: BuildResult;
  let config: ResolvedConfig;
  const clock: StageClock | undefined = flags.timings
    ? stageClock({ startup: builder.first })
    : undefined;
  // A bar on a terminal; elsewhere a plain line now and then of a long build; none with --quiet.
  const bar = progressBar({
    enabled: !flags.quiet && terminal.stderrIsTerminal,
    plainEveryMs: flags.quiet ? 0 : options.progressEveryMs ?? PLAIN_EVERY_MS,
    write: terminal.stderr,
  });
  try {
    config = await builder.config(paths, { ...flags, task }, budget);
    clock?.mark("config");
    const above = config.configPath || flags.config || flags.quiet
      ? undefined
      : parentConfig(config.root);
    if (above) terminal.stderr(`warning: ${parentConfigWarning(above)}\n`);
    result = await builder.build(config, {
      timings: clock,
      write: !flags.stdout,
      onProgress: bar.update,
    });
    bar.done();
    builder.built(result, config);
  } catch (error) {
    bar.done();
    printError(commandErrorText(error));
    return isInputError(error) ? 2 : 1;
  }
  return await printResult(result, {
    flags,
    terminal,
    clock,
    since: config.since,
    tokenizer: config.budget.tokenizer,
  });
}

/** How `slop build` loads its config and builds: in this process, or in a build server's. */
interface Builder {
  /** Whether this is the process's first build (its time includes the process's start). */
  first: boolean;
  /** The config of a build with these paths and (checked) flags. */
  config(paths: string[], flags: BuildFlags, budget?: number): Promise<ResolvedConfig>;
  /** Build with the speed layer (or finish a build prepared ahead). */
  build(
    config: ResolvedConfig,
    options: Pick<BuildOptions, "timings" | "write" | "onProgress">,
  ): Promise<BuildResult>;
  /** Told of each build that succeeded. */
  built(result: BuildResult, config: ResolvedConfig): void;
}

/** A build in this process: the config loaded, the built-ins made, the speed layer. */
function processBuilder(): Builder {
  return {
    first: true,
    config: (paths, flags) => loadBuildConfig(paths, flags),
    // A build that writes its document has the last one copied while it runs, for its emit. A
    // copy the build did not use is removed once it is done: the command waits for that, since
    // the process exits when the command returns and would leave a part-copied file in `out/`.
    build: (config, options) =>
      build(config, {
        ...options,
        builtins: builtinPlugins(),
        layer: speedLayer({ draftAhead: options.write !== false }),
      }).finally(draftsDropped),
    built: () => {},
  };
}

/**
 * A build in a build server, with its session: the config kept while its files are unchanged,
 * a build prepared ahead finished, and the resident's memos in the speed layer.
 */
function sessionBuilder(session: BuildSession): Builder {
  return {
    first: session.first,
    async config(paths, flags, budget) {
      const load = (reload: boolean) => loadBuildConfig(paths, flags, reload);
      // `--since` asks git at load time: a kept config would keep an old answer.
      const config = flags.since === undefined
        ? await keptConfig(session, { paths, flags, budget, load })
        : await load(false);
      await session.changes?.(config);
      return config;
    },
    async build(config, options) {
      const prepared = session.prepared?.(config);
      if (prepared) {
        return await prepared.finish({ write: options.write, timings: options.timings });
      }
      const { resident, renderedAhead, builtins } = session;
      const layer = speedLayer({ resident, renderedAhead });
      return await build(config, { ...options, builtins, layer });
    },
    built: (result, config) => session.built?.(result, config),
  };
}

/**
 * The config a build server keeps for a build. The files the client's output goes to change the
 * config only where they are under its root (they are left out of the build): one outside it (a
 * log file of each run, a terminal) is not part of the key, so the kept config, and the build
 * prepared with it, are used.
 */
async function keptConfig(
  session: BuildSession,
  { paths, flags, budget, load }: {
    paths: string[];
    flags: BuildFlags;
    budget: number | undefined;
    load: (reload: boolean) => Promise<ResolvedConfig>;
  },
): Promise<ResolvedConfig> {
  const key = configKey(paths, flags, budget);
  const config = await session.config(key, load);
  const own = JSON.stringify(underRoot(flags.outputs ?? [], config.root));
  return ownOutputs.get(config) === own ? config : await session.config(key + own, load);
}

/** The files under its root a config leaves out as the command's own output (JSON). */
const ownOutputs = new WeakMap<ResolvedConfig, string>();

/**
 * The flags `runBuild` checks before it loads anything: the strategy and format, then the
 * budget (a positive whole number), then the task (read from its file): the values, or the
 * first error.
 */
async function checkFlags(
  flags: BuildFlags,
): Promise<{ budget?: number; task?: string } | { error: string }> {
  const flagError = strategyFlagError(flags.strategy) ?? formatFlagError(flags.format);
  if (flagError) return { error: flagError };
  const budget = flags.budget === undefined ? undefined : flagNumber(flags.budget);
  if (budget !== undefined && !(budget > 0)) {
    return {
      error: `Invalid --budget "${flags.budget}": expected a positive whole number of tokens`,
    };
  }
  try {
    return { budget, task: await taskFlag(flags, flags.cwd) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Print what the flags ask of a build's result (the document, the manifest, both, the summary,
 * the timings) and return the exit code: 1 with `--strict` and a file in error, else 0.
 */
async function printResult(
  result: BuildResult,
  options: {
    flags: BuildFlags;
    terminal: Terminal;
    clock?: StageClock;
    since?: ResolvedConfig["since"];
    tokenizer?: SummaryOptions["tokenizer"];
  },
): Promise<number> {
  const { flags, terminal, clock, since, tokenizer } = options;
  const say = (text: string) =>
    flags.stdout || flags.json ? terminal.stderr(text + "\n") : terminal.stdout(text + "\n");
  if (flags.stdout && flags.json) await printBoth(result, terminal);
  else if (flags.stdout) {
    // Block by block: the document is never joined into one string, nor encoded whole.
    for (const chunk of documentChunks(streamDocument(result.blocks))) {
      await terminal.stdout(chunk);
    }
  } else if (flags.json) await terminal.stdout(JSON.stringify(result.manifest, null, 2) + "\n");
  if (!flags.quiet) await say(summaryText(result, { tokenizer }));
  if (!flags.quiet && since) await say(sinceLine(since));
  if (clock) {
    clock.mark("print");
    terminal.stderr(timingsText(clock) + "\n");
  }
  const errors = result.files.filter((f) => f.status === "error").length;
  return flags.strict && errors ? 1 : 0;
}

/** Files `--since` names on its line, at most. */
const SINCE_LISTED = 10;

/**
 * What `--since REF` put in focus: the files changed since the ref, or that none did (the build
 * is then a plain one, which the summary alone does not tell).
 *
 * @example
 * ```ts
 * import { sinceLine } from "./build.ts";
 * sinceLine({ ref: "main", files: ["src/a.ts"] }); // "since main: 1 file changed, in focus: src/a.ts"
 * ```
 */
export function sinceLine({ ref, files }: { ref: string; files: string[] }): string {
  if (!files.length) return `since ${printablePath(ref)}: no file changed, none in focus`;
  const shown = files.slice(0, SINCE_LISTED).map(printablePath).join(", ");
  const more = files.length > SINCE_LISTED ? ` and ${files.length - SINCE_LISTED} more` : "";
  const count = `${files.length} file${files.length === 1 ? "" : "s"} changed`;
  return `since ${printablePath(ref)}: ${count}, in focus: ${shown}${more}`;
}

/** An error in what the user gave (config, `--since`, the lock, the folder): exit code 2. */
function isInputError(error: unknown): boolean {
  return error instanceof ConfigError || error instanceof SinceError ||
    error instanceof LockError || error instanceof NoProjectError || error instanceof PathsError;
}

/**
 * The config of a `slop build` with these paths and flags (the flags' values
 * checked first): the config file's, with the flags over it. The MCP server's
 * `build_context` tool loads its config with it too.
 *
 * @example
 * ```ts
 * import { loadBuildConfig } from "./build.ts";
 * // const config = await loadBuildConfig(["src"], { persona: "reviewer", budget: "8000" });
 * ```
 */
export async function loadBuildConfig(
  paths: string[],
  flags: BuildFlags,
  reload = false,
): Promise<ResolvedConfig> {
  const config = await loadConfig({
    cwd: flags.cwd,
    config: flags.config,
    include: flags.include,
    ignore: flags.ignore,
    persona: flags.persona,
    preset: flags.preset,
    strategy: flags.strategy as Strategy | undefined,
    focus: flags.focus,
    since: flags.since,
    budget: flags.budget === undefined ? undefined : Number(flags.budget),
    task: flags.task,
    stateDir: flags.stateDir,
    paths,
    reload,
  });
  if (config.zeroConfig && !paths.length && !flags.include?.length) {
    // A crowded folder is refused only for a person at a terminal (a bare `slop` typed in /tmp);
    // a script, CI job or agent building a generated tree without git is not second-guessed.
    const typed = Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
    checkProjectRoot(config.root, { crowded: typed });
  }
  // The command's own output files, and the task's file: neither is a file of the project.
  const leftOut = [...(flags.outputs ?? []), ...taskFilePaths(flags.taskFile, flags.cwd)];
  const under = underRoot(leftOut, config.root);
  if (under.length) config.exclude = [...config.exclude, ...under];
  const applied = applyOverrides(config, flags);
  ownOutputs.set(applied, JSON.stringify(under));
  return applied;
}

/**
 * What a build's config depends on: the working directory, the environment (a config may read
 * it), the paths and the flags that go into the config; not the output flags (`--stdout`,
 * `--json`, `--quiet`...), nor the files the output goes to (see `keptConfig`).
 */
function configKey(paths: string[], flags: BuildFlags, budget: number | undefined): string {
  const env = Object.entries(Deno.env.toObject()).sort(([a], [b]) => a < b ? -1 : 1);
  return JSON.stringify([
    flags.cwd ?? Deno.cwd(),
    env,
    paths,
    [flags.config, flags.include, flags.ignore, flags.persona, flags.preset, flags.strategy],
    [flags.focus, flags.since, budget, flags.stateDir, flags.format, flags.failOnSecret],
    flags.task,
    flags.cache,
  ]);
}

/** Files listed by name in the summary (skipped or failed; the rest is counted). */
const SUMMARY_LIST_MAX = 20;

/** Options of {@linkcode summaryText}. */
export interface SummaryOptions {
  /** The tokenizer of the manifest's counts (`budget.tokenizer`), named beside them. @default {"o200k"} */
  tokenizer?: "o200k" | "cl100k";
  /**
   * The items each list shows at most (files stepped down, files not rendered, warnings), the
   * rest counted in one line: the MCP server cuts them short so that a document fits its reply.
   * @default {20, every warning but the redactions}
   */
  listMax?: number;
}

/**
 * The human summary: files by status, bytes per section, the stable prefix. Each token count
 * names what it counts: the prefix's in the build's tokenizer, the cache line's in the
 * provider's tokens (marked as an estimate where its tokenizer is not public).
 *
 * @example
 * ```ts
 * import { summaryText } from "./build.ts";
 * // console.log(summaryText(result, { tokenizer: config.budget.tokenizer }));
 * ```
 */
export function summaryText(result: BuildResult, options: SummaryOptions = {}): string {
  const tokenizer = options.tokenizer ?? "o200k";
  const lines: string[] = [];
  const m = result.manifest;
  if (result.output) {
    const doc = shownPath(result.output.document);
    lines.push(`slop: wrote ${doc} (manifest ${shownPath(result.output.manifest)})`);
  }
  lines.push(filesLine(fileCounts(result)), ...cacheHitLines(result));
  const bySection = new Map<string, number>();
  for (const b of result.blocks) {
    bySection.set(b.section, (bySection.get(b.section) ?? 0) + b.length);
  }
  lines.push(
    `sections: ${[...bySection].map(([s, n]) => `${s} ${formatBytes(n)}`).join(", ") || "none"}`,
  );
  const share = m.total.bytes ? Math.round((m.prefix.bytes / m.total.bytes) * 100) : 100;
  lines.push(
    `stable prefix: ${formatBytes(m.prefix.bytes)} (${
      formatCount(m.prefix.tokens)
    } ${tokenizer} tokens, ${share}% of ${formatBytes(m.total.bytes)}), sha256 ${
      m.prefix.sha256.slice(0, 12)
    }`,
  );
  if (result.cache) lines.push(cacheLine(result.cache));
  if (m.task) lines.push(taskLine(m.task));
  const listMax = options.listMax;
  if (result.budget) lines.push(...budgetLines(result.budget, { tokenizer, listMax }));
  // The budget it suggests is the one the context-window warning suggests, when there is one.
  const budget = result.cache && suggestedBudget(result.cache, m.total.tokens);
  const tooLarge = overEveryWindow(m.total, { budget, tokenizer });
  if (tooLarge) lines.push(`too large: ${tooLarge}`);
  lines.push(...unrenderedSummary(result, listMax ?? SUMMARY_LIST_MAX));
  lines.push(...summarizedLines(result.files), ...translationLines(result.files));
  lines.push(...bidiLines(result.files));
  // The too-large line says what the model warning says (and suggests the same budget), and a
  // file's error row what the warning of its failed render says: those warnings are left out of
  // the summary; the manifest keeps both.
  const said = new Set(result.files.filter((f) => f.status === "error").map((f) => f.reason));
  if (tooLarge) said.add(result.overWindow);
  const warnings = result.warnings.filter((w) => !said.has(w));
  lines.push(...warningLines(warnings, listMax));
  return lines.join("\n");
}

/**
 * The summary's cache line: how many of the rendered files came from the cache (none when none
 * did). A file a budget stepped down to "listed" is skipped, whatever its cache, unless the task
 * section shows it: the files line and this one count the same rendered files.
 */
function cacheHitLines(result: BuildResult): string[] {
  const rendered = renderedFiles(result, taskShown(result));
  const cached = rendered.filter((f) => f.cache === "hit").length;
  if (!cached) return [];
  const [hits, all] = [formatCount(cached), formatCount(rendered.length)];
  return [`cache: ${hits} of ${all} rendered files from the cache`];
}

/** The summary's lines of the files not rendered: at most `max` lines, then how many more. */
function unrenderedSummary(result: BuildResult, max: number): string[] {
  // Files the budget dropped are in the budget lines already; the manifest has the full list.
  const dropped = new Set(result.budget?.steppedDown.map((s) => s.path));
  const unrendered = result.files.filter((f) =>
    f.status !== "rendered" && !(f.status === "skipped" && dropped.has(f.path))
  );
  const unlisted = unrenderedLines(unrendered);
  const lines = unlisted.slice(0, max).map((l) => l.text);
  const more = unlisted.slice(max).reduce((n, l) => n + l.files, 0);
  if (more) {
    lines.push(`  ... and ${formatCount(more)} more skipped or failed files (see the manifest)`);
  }
  return lines;
}

/** A build's files as its summary counts them (see {@linkcode fileCounts}). */
export interface FileCounts {
  /** Rendered somewhere in the document: in the files section, or in the task section. */
  rendered: number;
  /** Stepped down to "listed" to fit the budget (skipped in the manifest, for no reason of their own). */
  listed: number;
  /** Skipped for a reason of their own (a binary file, a lockfile, a secrets file...). */
  skipped: number;
  errors: number;
}

/**
 * A build's files as the summary's files line counts them: files the budget dropped to "listed"
 * are skipped in the manifest, but not for a reason of their own, so they are counted apart
 * ("150 skipped" over three skipped lines read as files lost); a file the map lists and the task
 * section shows is counted among the rendered. The MCP server's `build_context` gives these
 * counts as its data, so that its text and its data say the same.
 *
 * @example
 * ```ts
 * import { fileCounts } from "./build.ts";
 * // fileCounts(result); // { rendered: 20, listed: 136, skipped: 4, errors: 0 }
 * ```
 */
export function fileCounts(result: BuildResult): FileCounts {
  const dropped = new Set(result.budget?.steppedDown.map((s) => s.path));
  const inTask = taskShown(result);
  const errors = result.files.filter((f) => f.status === "error").length;
  const unshown = result.files.filter((f) => f.status === "skipped" && !inTask.has(f.path));
  const listed = unshown.filter((f) => dropped.has(f.path)).length;
  const rendered = renderedFiles(result, inTask).length;
  return { rendered, listed, skipped: unshown.length - listed, errors };
}

/** The summary's files line: rendered, listed to fit the budget, skipped, failed. */
function filesLine({ rendered, listed, skipped, errors }: FileCounts): string {
  const budgeted = listed ? `${formatCount(listed)} listed to fit the budget, ` : "";
  return `files: ${formatCount(rendered)} rendered, ${budgeted}` +
    `${formatCount(skipped)} skipped, ` +
    `${formatCount(errors)} error${errors === 1 ? "" : "s"}`;
}

/** The paths the task section shows. */
function taskShown(result: BuildResult): Set<string> {
  return new Set(
    result.manifest.task?.files.filter((f) => f.where === "task").map((f) => f.path),
  );
}

/**
 * The files rendered somewhere in the document: rendered ones, and those the map listed and the
 * task section shows (`inTask`; skipped in the manifest, rendered there), so the summary's counts
 * add up.
 */
function renderedFiles(result: BuildResult, inTask: Set<string>): BuildResult["files"] {
  return result.files.filter((f) =>
    f.status === "rendered" || (f.status === "skipped" && inTask.has(f.path))
  );
}

/** Files of the task section named in the summary's task line, at most. */
const TASK_NAMED = 3;

/**
 * The summary's line of the task: how many files its section holds and the first by rank, so
 * that a `--task` build says what it chose (the manifest's `task.files` has them all).
 */
function taskLine(task: NonNullable<BuildResult["manifest"]["task"]>): string {
  const where = (w: string) => task.files.filter((f) => f.where === w);
  const [shown, mapOnly, named] = [where("task"), where("map"), where("listed")];
  const first = shown.slice(0, TASK_NAMED).map((f) => printablePath(f.path)).join(", ");
  const more = shown.length > TASK_NAMED ? ` and ${shown.length - TASK_NAMED} more` : "";
  const head = shown.length
    ? `${shown.length} file${shown.length === 1 ? "" : "s"} in the task section: ${first}${more}`
    : "no file in the task section";
  const rest = [
    ...(mapOnly.length ? [`${mapOnly.length} only in the map`] : []),
    ...(named.length ? [`${named.length} only named`] : []),
  ];
  return `task: ${head}${rest.length ? `; ${rest.join(", ")}` : ""} (slop rank --task says why)`;
}

/** Data files named in the summary's line of those summarized by default, at most. */
const SUMMARIZED_NAMED = 3;

/**
 * The summary's line of the data files over `DATA_LIMIT` shown by their shape: how many, the
 * first by name, and how to show them whole (none when there are none).
 */
function summarizedLines(files: RenderedFile[]): string[] {
  const data = files.filter((f) => f.status === "rendered" && isDataSummarized(f));
  if (!data.length) return [];
  const named = data.slice(0, SUMMARIZED_NAMED).map((f) => printablePath(f.path)).join(", ");
  const rest = data.length > SUMMARIZED_NAMED ? ` and ${data.length - SUMMARIZED_NAMED} more` : "";
  const count = data.length === 1 ? "1 data file" : `${data.length} data files`;
  const them = data.length === 1 ? "it" : "them";
  // Each file's reason says the limit it is over (8 KB for an editor's file or an SVG, 32 KB,
  // 256 KB for prose): the line names those of the files it counts.
  const limits = [...new Set(data.map(limitOf))].sort((a, b) => a - b);
  return [
    `summarized: ${count} over ${limits.join(" or ")} KB (${named}${rest}): name ${them} in ` +
    `"files" to show ${them} whole`,
  ];
}

/** The limit (KB) a data file's reason says it is over. */
function limitOf(file: RenderedFile): number {
  const note = file.notes?.find((n) => / KB, over \d+ KB: /.test(n));
  return Number(note?.match(/ KB, over (\d+) KB: /)?.[1] ?? DATA_LIMIT / 1024);
}

/**
 * The summary's line of the translations summarized beside the one of their set shown whole:
 * how many, the first by name, and how to show them whole (none when there are none).
 */
function translationLines(files: RenderedFile[]): string[] {
  const summarized = files.filter((f) => f.status === "rendered" && isTranslationSummarized(f));
  if (!summarized.length) return [];
  const named = summarized.slice(0, SUMMARIZED_NAMED).map((f) => printablePath(f.path))
    .join(", ");
  const n = summarized.length;
  const rest = n > SUMMARIZED_NAMED ? ` and ${n - SUMMARIZED_NAMED} more` : "";
  const count = n === 1 ? "1 translation" : `${n} translations`;
  const them = n === 1 ? "it" : "them";
  return [
    `summarized: ${count}, one of each set shown whole (${named}${rest}): name ${them} in ` +
    `"files" to show ${them} whole`,
  ];
}

/**
 * The summary's line of the files shown with bidirectional controls in their text (Trojan
 * Source): how many, the first by name, and where their notes are (none when there are none).
 */
function bidiLines(files: RenderedFile[]): string[] {
  const held = files.filter((f) => f.status === "rendered" && bidiNoteOf(f));
  if (!held.length) return [];
  const named = held.slice(0, SUMMARIZED_NAMED).map((f) => printablePath(f.path)).join(", ");
  const rest = held.length > SUMMARIZED_NAMED ? ` and ${held.length - SUMMARIZED_NAMED} more` : "";
  const one = held.length === 1;
  return [
    `bidi controls: ${one ? "1 file" : `${held.length} files`} (${named}${rest}) ` +
    `hold${one ? "s" : ""} bidirectional control characters, by which a viewer may show code in ` +
    `another order than a compiler reads it: noted before ${one ? "its" : "their"} text in the ` +
    `document and in the manifest`,
  ];
}

/** A reason this many files share or more is one line of the summary, with their count. */
const SAME_REASON_MIN = 4;

/**
 * A number with its unit in a reason (`12001000 bytes`): files whose reasons differ only in
 * such measures ("file is 20 bytes, over the limit of 10 bytes") share a reason all the same.
 */
const MEASURE = /\b(\d+)( (?:bytes?|KB|MB|GB|lines?|characters?|columns?|tokens?)\b)/g;

/**
 * The summary's lines of the files not rendered, in path order: one each, except that files with
 * the same status and reason (a project's images: "binary file"; files over the size limit, each
 * by its own size) are one line at the first of them, with how many more there are and the
 * range of each measure. Each line with the number of files it stands for.
 */
function unrenderedLines(files: RenderedFile[]): Array<{ text: string; files: number }> {
  const keys = files.map((f) => `${f.status}\0${(f.reason ?? "").replace(MEASURE, "#$2")}`);
  const groups = new Map<string, RenderedFile[]>();
  files.forEach((f, i) => {
    const group = groups.get(keys[i]);
    if (group) group.push(f);
    else groups.set(keys[i], [f]);
  });
  const lines: Array<{ text: string; files: number }> = [];
  files.forEach((f, i) => {
    const group = groups.get(keys[i])!;
    const together = group.length >= SAME_REASON_MIN;
    if (together && group[0] !== f) return;
    const shown = together ? group : [f];
    // One line each, however the name or message is made (a newline, a bidi override).
    const path = printablePath(f.path) + (together ? ` and ${group.length - 1} more files` : "");
    const text = `  ${f.status}: ${path} (${printablePath(measuredReason(shown))})`;
    lines.push({ text, files: shown.length });
  });
  return lines;
}

/**
 * The reason files share, each measure in it as a person reads it (`12,001,000 bytes`) or, where
 * the files differ, as the range they span (`20 to 44 bytes`).
 */
function measuredReason(files: RenderedFile[]): string {
  const measures = files.map((f) =>
    [...(f.reason ?? "").matchAll(MEASURE)].map((m) => Number(m[1]))
  );
  let i = 0;
  return (files[0].reason ?? "").replace(MEASURE, (_, _n, unit) => {
    const values = measures.map((m) => m[i]);
    i++;
    // Folded, not spread: a group may hold more files than a call takes arguments.
    const low = values.reduce((a, b) => Math.min(a, b));
    const high = values.reduce((a, b) => Math.max(a, b));
    return `${formatCount(low)}${low === high ? "" : ` to ${formatCount(high)}`}${unit}`;
  });
}

/** The build's warnings, one line each; past {@linkcode REDACTIONS_SHOWN} redactions, a count. */
function warningLines(warnings: string[], max?: number): string[] {
  const lines: string[] = [];
  const shown = max ?? REDACTIONS_SHOWN;
  let redactions = 0;
  let others = 0;
  for (const w of warnings) {
    if (isRedaction(w) ? ++redactions > shown : max !== undefined && ++others > max) continue;
    lines.push(`warning: ${printablePath(w)}`);
  }
  if (redactions > shown) lines.push(`warning: ${moreRedactions(redactions - shown)}`);
  if (max !== undefined && others > max) {
    lines.push(
      `warning: ... and ${formatCount(others - max)} more warnings (the manifest lists them)`,
    );
  }
  return lines;
}

/** Characters of the document's JSON string gathered before they are encoded and written. */
const JSON_CHUNK_CHARS = 1 << 20;

/**
 * `--stdout --json`: one JSON value, the manifest and the document it describes, as
 * `JSON.stringify({ manifest, document }, null, 2)` gives it, with the document's string
 * written block part by block part (each escaped on its own: a part never splits a surrogate
 * pair, so the escaped parts joined are the whole escaped), never joined whole.
 */
async function printBoth(result: BuildResult, terminal: Terminal): Promise<void> {
  const head = JSON.stringify({ manifest: result.manifest, document: "" }, null, 2);
  // It ends with the empty document's closing quote and brace: the document goes between.
  await terminal.stdout(head.slice(0, -'"\n}'.length));
  let chunk: string[] = [];
  let chars = 0;
  for (const block of result.blocks) {
    for (const part of textParts(block)) {
      const escaped = JSON.stringify(part);
      chunk.push(escaped.slice(1, -1));
      chars += escaped.length;
      if (chars < JSON_CHUNK_CHARS) continue;
      await terminal.stdout(chunk.join(""));
      [chunk, chars] = [[], 0];
    }
  }
  await terminal.stdout(chunk.join("") + '"\n}\n');
}
