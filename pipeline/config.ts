/**
 * Config: `defineConfig`, finding and importing `slop.config.ts`, validation
 * with key paths, and the overlay of persona, preset and CLI flags
 * (flags > persona/preset > file > defaults).
 *
 * @module
 */

import { checkConfigPermissions } from "./_permissions.ts";
import { lockVariant } from "./lock.ts";
import {
  basename,
  dirname,
  isAbsolute,
  join,
  relative,
  resolve,
  sep,
  shownPath,
  toFileUrl,
} from "./_path.ts";
import { normalizeEntryPath, settleWithin } from "./helpers.ts";
import { slopImportHint } from "./_config_import_hint.ts";
import {
  any,
  arr,
  blankText,
  bool,
  closest,
  data,
  fileName,
  httpUrl,
  isPlainObject,
  literal,
  matching,
  num,
  obj,
  oneLine,
  pathText,
  record,
  type Rule,
  str,
  text,
  union,
} from "./schema.ts";
import type {
  ConfigEnv,
  FileEntry,
  ResolvedConfig,
  SlopConfig,
  Strategy,
  UserConfigExport,
} from "./types.ts";
import { findProvider, findViewMode, providers, type Registry, viewNames } from "./registry.ts";
import { checkSecretRules } from "./secrets.ts";
import { secretNameProblems } from "./_config_names.ts";
import { DEFAULT_CACHE_MAX_SIZE, parseSize } from "./cache.ts";
import { cacheSize } from "./_cache_prune.ts";
import { tierDefaultView } from "./personas.ts";
import { changedSince } from "./since.ts";
import { errorText } from "./error_text.ts";
import { ConfigReadError, readConfigOnce } from "./_config_copy.ts";
import { nodeReadError } from "./_setting_file.ts";
import { checkRegular, MAX_TIMER_MS, readSettingTextSync } from "./helpers.ts";
import { globFlagProblem, globText } from "./_glob_rule.ts";
import { watchLoad } from "./config_watchdog.ts";
import { formatCount } from "./figures.ts";

/** The speaker of a history message that names none (the seed's `entry.get("role", "Unknown")`). */
const UNKNOWN_ROLE = "Unknown";

/** Numbered outputs kept after a publish when `output.keep` is not set. */
const DEFAULT_OUTPUT_KEEP = 20;

/** The most bytes the kept outputs take together when `output.keepBytes` is not set: 1 GiB. */
const DEFAULT_OUTPUT_KEEP_BYTES = 1024 ** 3;

/**
 * A screenshot path (or glob) as the document shows it: `/`-separated and
 * relative to the root, also when the config gives it absolute (an absolute
 * path inside the root becomes its relative path; one outside starts with `../`).
 */
function screenshotPath(path: string, root: string): string {
  const given = normalizeEntryPath(path);
  if (!isAbsolute(path)) {
    // `a/../../b` leaves the root as surely as `../b` does.
    const rel = relative(root, resolve(root, given)).split(sep).join("/");
    return rel.startsWith("..") ? rel : given;
  }
  return relative(root, path).split(sep).join("/");
}

/** Config file names looked up in the working directory, in order. */
export const CONFIG_FILES: string[] = ["slop.config.ts", "slop.config.js", "slop.config.mjs"];

/**
 * Identity helper that types a config: an object, a promise or a function of
 * `{ persona, preset }`.
 *
 * @example A config file
 * ```ts
 * import { defineConfig } from "./config.ts";
 * export default defineConfig({ files: ["src/**"], defaultView: "full" });
 * ```
 */
export function defineConfig(config: SlopConfig): SlopConfig;
/** A promise of a config. */
export function defineConfig(config: Promise<SlopConfig>): Promise<SlopConfig>;
/** A function of the persona and preset. */
export function defineConfig(
  config: (env: ConfigEnv) => SlopConfig | Promise<SlopConfig>,
): (env: ConfigEnv) => SlopConfig | Promise<SlopConfig>;
export function defineConfig(config: UserConfigExport): UserConfigExport {
  return config;
}

/** How many of a config's problems its error lists (a list of 100,000 bad items is megabytes). */
const SHOWN_PROBLEMS = 20;

/** An invalid or unloadable config. The message names the file and key paths. */
export class ConfigError extends Error {
  /** Each problem, with its key path. */
  problems: string[];
  /**
   * @param file Config file (relative for display).
   * @param problems What is wrong, each naming its key path.
   * @param options.hint A line of what to do, shown below the problems.
   * @param options.alone The problems say all, that there is no config file too: no head before
   * them (a sentence, not "No config file (zero-config): No conversations to harvest").
   */
  constructor(file: string, problems: string[], options: { hint?: string; alone?: boolean } = {}) {
    // Without a config file there is no file to name: say so, not `"zero-config"` as if a file.
    const head = file === "zero-config"
      ? "No config file (zero-config)"
      : `Invalid config "${oneLine(file)}"`;
    // A value quoted raw in a problem (a view's name, a root) may hold a newline or an escape
    // sequence: each problem stays one line. (A long quoted value is cut where the message is
    // printed: `cutLongQuotes()` of the command line.)
    const shown = problems.slice(0, SHOWN_PROBLEMS).map(oneLine);
    if (problems.length > SHOWN_PROBLEMS) {
      shown.push(`and ${formatCount(problems.length - SHOWN_PROBLEMS)} more`);
    }
    const listed = shown.length === 1
      ? options.alone ? shown[0] : `${head}: ${shown[0]}`
      : `${head}:\n${shown.map((p) => `  - ${p}`).join("\n")}`;
    super(options.hint ? `${listed}\n${options.hint}` : listed);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/**
 * A state, output or cache dir that is the project folder itself would mix slop's files with the
 * project's: the outputs, cache files and order memory would be in the next document, and the
 * project's own `out/`, `cache/` or `order/` folders left out and written into. (One above the
 * project folder holds it but is not listed with it.)
 */
function isProjectFolder(dir: string, root: string): boolean {
  return relative(dir, root) === "";
}

const MIXED = "slop's outputs, cache and order memory would mix with the project's files; name " +
  "a folder of their own";

/** Throw when a glob flag would take too long to match (`globFlagProblem`). */
function checkGlobFlags(flags: ConfigFlags): void {
  const message = globFlagProblem({
    include: flags.include,
    ignore: flags.ignore,
    focus: flags.focus,
  });
  if (!message) return;
  const error = new ConfigError("", [message]);
  error.message = message;
  throw error;
}

/** Throw when the state dir is the project folder, naming where it came from. */
function checkStateDir(stateDir: string, root: string, from: string): void {
  if (!isProjectFolder(stateDir, root)) return;
  const message = `The state dir "${stateDir}"${from ? ` (${from})` : ""} is the project ` +
    `folder: ${MIXED} ` +
    '(the default is ".slop")';
  const error = new ConfigError("", [message]);
  error.message = message;
  throw error;
}

/** Throw when `output.dir` or `cache.dir` is the project folder. */
function checkOwnDirs(raw: SlopConfig, config: ResolvedConfig, display: string): void {
  const dirs: [string, string | undefined, string][] = [
    ["output.dir", raw.output?.dir, config.output.dir],
    ["cache.dir", raw.cache?.dir, config.cache.dir],
  ];
  for (const [key, given, dir] of dirs) {
    if (given !== undefined && isProjectFolder(dir, config.root)) {
      throw new ConfigError(display, [`${key} "${given}" is the project folder: ${MIXED}`]);
    }
  }
}

const fileEntry = obj({
  path: globText(),
  view: str(),
  forceFull: bool(),
  autoAggregate: bool(),
  slices: arr(obj({
    startLine: num({ integer: true, min: 1 }),
    endLine: num({ integer: true, min: 1 }),
    tag: str(),
    comment: str(),
    contentHash: str(),
    anchorLines: arr(str()),
  }, ["startLine", "endLine"])),
  mask: record(literal("def", "sig", "hide")),
  maxBytes: num({ integer: true, min: 0 }),
  dedup: bool(),
  options: record(data()),
}, ["path"]);

const files = arr(union([globText(), fileEntry], "a path string or a file entry object"));
const strategy = literal("auto", "summarize", "full");
// A message without a role is the seed's `Unknown` speaker, from every history source.
const historyMessage = obj({ role: str(), content: str() }, ["content"]);

const SCHEMA: Rule = obj({
  root: pathText(),
  files,
  exclude: arr(globText()),
  include: arr(globText()),
  defaultView: str(),
  strategy,
  summaryOnly: bool(),
  screenshots: arr(pathText()),
  history: union([
    pathText(),
    arr(union([str(), historyMessage], "a string or a { role, content } object")),
  ], "a file path or an array of messages"),
  compaction: obj({
    enabled: bool(),
    threshold: num({ integer: true, min: 1 }),
    keep: num({ integer: true, min: 0 }),
    prompt: pathText(),
  }),
  output: obj({
    dir: pathText(),
    namespace: fileName(),
    format: literal("markdown", "xml", "json"),
    keep: union(
      [num({ integer: true, min: 1 }), literal(false)],
      "a whole number of outputs to keep (at least 1), or false to keep every output",
    ),
    keepBytes: union(
      [num({ integer: true, min: 1 }), literal(false)],
      "a whole number of bytes (at least 1), or false for no limit",
    ),
  }),
  presets: record(obj({ files, screenshots: arr(pathText()), description: str(), task: text() })),
  personas: record(obj({
    strategy,
    defaultView: str(),
    tier: literal(1, 2, 3),
    focus: arr(globText()),
    budget: num({ integer: true, min: 1 }),
    task: text(),
  })),
  plugins: arr(any()),
  ordering: obj({ pinned: arr(globText()) }),
  lock: pathText(),
  cache: obj({ enabled: bool(), dir: pathText(), maxSize: cacheSize() }),
  provider: obj({
    name: str(),
    // Passed on to the provider's API, an environment lookup and the cache plan: checked here,
    // so that a bad value is named by its key rather than failing (or doing nothing) later.
    model: matching(/^[^\s\p{Cc}]{1,200}$/u, "a model name (no spaces or control characters)"),
    baseUrl: httpUrl(),
    apiKeyEnv: matching(
      /^[A-Za-z_][A-Za-z0-9_]{0,255}$/,
      'the name of an environment variable (letters, digits and "_", not starting with a digit)',
    ),
    ttl: matching(/^[1-9][0-9]{0,5}[smhd]$/, 'a cache lifetime such as "5m" or "1h"'),
  }),
  budget: obj({
    tokens: num({ integer: true, min: 1 }),
    tokenizer: literal("o200k", "cl100k"),
    taskShare: num({ min: 0, max: 1 }),
    mapTokens: num({ integer: true, min: 0 }),
    mapFull: num({ min: 0, max: 1 }),
  }),
  rank: obj({
    weights: obj({
      lexical: num({ min: 0 }),
      path: num({ min: 0 }),
      graph: num({ min: 0 }),
      coChange: num({ min: 0 }),
      history: num({ min: 0 }),
      pairs: num({ min: 0 }),
      pastCommits: num({ min: 0 }),
    }),
  }),
  knowledge: obj({ dir: pathText(), digest: bool(), conversations: arr(pathText()) }),
  beads: bool(),
  slicesFile: pathText(),
  maxFileSize: num({ integer: true, min: 0 }),
  allowOutsideRoot: bool(),
  secrets: obj({ failOnSecret: bool(), rules: record(str()) }),
  tree: bool(),
  server: obj({ prepare: bool() }),
  task: text(),
});

/**
 * Check a raw config object; returns the problems, each naming its key path.
 *
 * @example
 * ```ts
 * import { validateConfig } from "./config.ts";
 * validateConfig({ files: [{ path: "a", veiw: "full" }] });
 * // ['Unknown key "files[0].veiw" (did you mean "files[0].view"?)']
 * ```
 */
export function validateConfig(config: unknown): string[] {
  return SCHEMA(config, "");
}

/** CLI flags and other overrides for {@linkcode loadConfig}. */
export interface ConfigFlags {
  /** Explicit config path (`--config`), relative to `cwd`. */
  config?: string;
  /** Working directory. @default {Deno.cwd()} */
  cwd?: string;
  /** State dir (`--state-dir`, else `SLOP_DIR`, else `<root>/.slop`). */
  stateDir?: string;
  /** Persona name (`--persona`). */
  persona?: string;
  /** Preset name (`--preset`). */
  preset?: string;
  /** Strategy (`--strategy`). */
  strategy?: Strategy;
  /** Extra globs (`--include`). */
  include?: string[];
  /** Extra excludes (`--ignore`). */
  ignore?: string[];
  /** Focus files (`--focus`). */
  focus?: string[];
  /** Put the files changed since this git ref in focus (`--since`). */
  since?: string;
  /** Token budget (`--budget`), over the persona's and the config's. */
  budget?: number;
  /** The task at hand (`--task`, `--task-file`), over the persona's, the preset's and the config's. */
  task?: string;
  /** Restrict the build to these paths (positional `PATHS`). */
  paths?: string[];
  /** A config object to use instead of a file (library use). */
  inline?: SlopConfig;
  /** Import the config file anew, not from the module cache (`slop watch` after an edit). */
  reload?: boolean;
  /**
   * How long the config module may take to load, and its function to return, in milliseconds:
   * past it the load fails with an error that names the file instead of waiting forever (a
   * top-level await that never settles would hang a build server or an MCP call). @default {30000}
   */
  loadTimeoutMs?: number;
}

/**
 * Find, import, validate and resolve the config. With no config file, the
 * zero-config default bundles every text file under `cwd` in full view.
 *
 * @example Zero-config in a temp dir
 * ```ts
 * import { loadConfig } from "./config.ts";
 * const config = await loadConfig({ cwd: await Deno.makeTempDir() });
 * console.log(config.zeroConfig); // true
 * ```
 */
export async function loadConfig(flags: ConfigFlags = {}): Promise<ResolvedConfig> {
  const cwd = resolve(flags.cwd ?? Deno.cwd());
  // A program with narrow permissions: one line naming what is missing, not Deno's from inside.
  checkConfigPermissions(cwd);
  let configPath: string | undefined;
  let raw: SlopConfig = {};
  if (flags.inline) {
    raw = flags.inline;
  } else {
    configPath = findConfigFile(cwd, flags.config);
    if (configPath) raw = await importConfig(configPath, flags);
  }
  const display = configPath
    ? displayPath(configPath, cwd)
    : flags.inline
    ? "inline config"
    : "zero-config";
  try {
    raw = readConfigOnce(raw);
  } catch (error) {
    if (error instanceof ConfigReadError) throw new ConfigError(display, [error.message]);
    throw error;
  }
  checkConfig(raw, display);
  checkGlobFlags(flags);
  const base = configPath ? join(configPath, "..") : cwd;
  const root = await configRoot(raw, { base, display });
  const envStateDir = Deno.env.get("SLOP_DIR");
  const stateDir = flags.stateDir
    ? resolve(cwd, flags.stateDir)
    : envStateDir
    ? resolve(cwd, envStateDir)
    : join(root, ".slop");
  checkStateDir(stateDir, root, flags.stateDir ? "--state-dir" : envStateDir ? "SLOP_DIR" : "");
  const { fileList, screenshots } = selectPreset(raw, { preset: flags.preset, display });
  if (flags.task !== undefined && blankText(flags.task)) {
    throw new ConfigError(display, ["The task must not be empty"]);
  }
  const shown = rootScreenshots(raw, { screenshots, root, preset: flags.preset, display });
  const persona = selectPersona(raw, { persona: flags.persona, display });
  const config = await resolvedConfig(raw, {
    flags,
    cwd,
    configPath,
    base,
    root,
    stateDir,
    fileList,
    screenshots: shown,
    persona,
  });
  checkOwnDirs(raw, config, display);
  // Found by its name: another config file beside it is passed over, and each build says so.
  if (configPath && !flags.config) {
    const beside = configFilesBeside(configPath);
    if (beside.length) config.configsBeside = beside;
  }
  return config;
}

/** Validate a config as written; throws a {@linkcode ConfigError} listing what is wrong. */
function checkConfig(raw: SlopConfig, display: string): void {
  let problems: string[];
  try {
    problems = validateConfig(raw);
  } catch (error) {
    // A getter or a proxy in the config that throws when read: name the config, not a stack.
    throw new ConfigError(display, [`Cannot read the config: ${errorText(error)}`]);
  }
  if (!problems.length) problems.push(...checkSecretRules(raw.secrets?.rules));
  if (!problems.length) problems.push(...secretNameProblems(raw));
  if (problems.length) throw new ConfigError(display, problems);
  const { threshold = 80, keep = 24 } = raw.compaction ?? {};
  if (keep >= threshold) {
    throw new ConfigError(display, [
      `"compaction.keep" (${keep}) must be less than "compaction.threshold" (${threshold})`,
    ]);
  }
}

/** The project root: `root` against the config's folder, which must be a folder. */
async function configRoot(
  raw: SlopConfig,
  { base, display }: { base: string; display: string },
): Promise<string> {
  const root = resolve(base, raw.root ?? ".");
  if (raw.root !== undefined) {
    // A root that is not a folder would build an empty document without a word.
    const info = await Deno.stat(root).catch(() => undefined);
    if (!info?.isDirectory) {
      throw new ConfigError(display, [
        `"root" must be a folder, got "${raw.root}" (${info ? "a file" : "not found"})`,
      ]);
    }
  }
  return root;
}

/**
 * A preset or persona the config does not define: a config error whose name came from the
 * caller (`--persona`, an MCP tool's `persona`), which the caller can name.
 *
 * @example
 * ```ts
 * import { UnknownNameError } from "./config.ts";
 * new UnknownNameError("persona", "slop.config.ts", ['Unknown persona "x"']).kind; // "persona"
 * ```
 */
export class UnknownNameError extends ConfigError {
  /** Which name was unknown. */
  kind: "preset" | "persona";
  /**
   * @param kind Which name was unknown.
   * @param file Config file (relative for display).
   * @param problems What is wrong.
   */
  constructor(kind: "preset" | "persona", file: string, problems: string[]) {
    super(file, problems);
    this.kind = kind;
  }
}

/** The error for a preset or persona the config does not define, with the closest name. */
function unknownName(
  kind: "preset" | "persona",
  { name, defined, display }: { name: string; defined?: Record<string, unknown>; display: string },
): ConfigError {
  const hint = closest(name, Object.keys(defined ?? {}));
  return new UnknownNameError(kind, display, [
    `Unknown ${kind} "${name}"${
      hint
        ? ` (did you mean "${hint}"?)`
        : defined
        ? ""
        : display === "zero-config"
        ? ` (${kind}s are defined in a config file: \`slop init\` writes one)`
        : ` (the config defines no ${kind}s)`
    }`,
  ]);
}

/** The file list and screenshots of the preset chosen, else of the config. */
function selectPreset(
  raw: SlopConfig,
  { preset: name, display }: { preset?: string; display: string },
): { fileList: SlopConfig["files"]; screenshots: string[] } {
  if (name === undefined) return { fileList: raw.files, screenshots: raw.screenshots ?? [] };
  // Own keys only: `constructor` or `toString` must not find Object.prototype's members.
  const preset = raw.presets && Object.hasOwn(raw.presets, name) ? raw.presets[name] : undefined;
  if (!preset) throw unknownName("preset", { name, defined: raw.presets, display });
  return { fileList: preset.files ?? [], screenshots: preset.screenshots ?? [] };
}

/** Screenshot paths as the document shows them: relative to the root, never absolute. */
function rootScreenshots(
  raw: SlopConfig,
  { screenshots, root, preset, display }: {
    screenshots: string[];
    root: string;
    preset?: string;
    display: string;
  },
): string[] {
  const shotKey = preset ? `presets.${preset}.screenshots` : "screenshots";
  const shotProblems: string[] = [];
  const paths = screenshots.map((path, i) => {
    const shown = screenshotPath(path, root);
    if (!(raw.allowOutsideRoot ?? false) && (shown === ".." || shown.startsWith("../"))) {
      shotProblems.push(
        `"${shotKey}[${i}]" is outside the root: "${path}" (set allowOutsideRoot to allow it)`,
      );
    }
    return shown;
  });
  if (shotProblems.length) throw new ConfigError(display, shotProblems);
  return paths;
}

/** The persona chosen, with its name. */
function selectPersona(
  raw: SlopConfig,
  { persona: name, display }: { persona?: string; display: string },
): ResolvedConfig["persona"] {
  if (name === undefined) return undefined;
  const found = raw.personas && Object.hasOwn(raw.personas, name) ? raw.personas[name] : undefined;
  if (!found) throw unknownName("persona", { name, defined: raw.personas, display });
  return { name, ...found };
}

function compactionOf(raw: SlopConfig, base: string): ResolvedConfig["compaction"] {
  return {
    enabled: raw.compaction?.enabled ?? true,
    threshold: raw.compaction?.threshold ?? 80,
    keep: raw.compaction?.keep ?? 24,
    prompt: resolve(base, raw.compaction?.prompt ?? "slop/prompts/compaction.md"),
  };
}

function outputOf(
  raw: SlopConfig,
  { base, stateDir }: { base: string; stateDir: string },
): ResolvedConfig["output"] {
  return {
    dir: raw.output?.dir ? resolve(base, raw.output.dir) : join(stateDir, "out"),
    namespace: raw.output?.namespace ?? "context",
    format: raw.output?.format ?? "markdown",
    keep: raw.output?.keep ?? DEFAULT_OUTPUT_KEEP,
    keepBytes: raw.output?.keepBytes ?? DEFAULT_OUTPUT_KEEP_BYTES,
  };
}

function cacheOf(
  raw: SlopConfig,
  { base, stateDir }: { base: string; stateDir: string },
): ResolvedConfig["cache"] {
  return {
    enabled: raw.cache?.enabled ?? true,
    dir: raw.cache?.dir ? resolve(base, raw.cache.dir) : join(stateDir, "cache"),
    maxSize: parseSize(raw.cache?.maxSize) ?? DEFAULT_CACHE_MAX_SIZE,
  };
}

function knowledgeOf(raw: SlopConfig, base: string): ResolvedConfig["knowledge"] {
  return {
    dir: resolve(base, raw.knowledge?.dir ?? "slop/knowledge"),
    digest: raw.knowledge?.digest ?? true,
    conversations: raw.knowledge?.conversations ?? [],
  };
}

/** Where a config was found and what the flags chose: what {@linkcode resolvedConfig} needs. */
interface ConfigPlace {
  flags: ConfigFlags;
  cwd: string;
  configPath?: string;
  /** The config file's folder (the working directory without one). */
  base: string;
  root: string;
  stateDir: string;
  /** The files of the preset or config; undefined for the zero-config default. */
  fileList: SlopConfig["files"];
  screenshots: string[];
  persona: ResolvedConfig["persona"];
}

/** Every setting resolved: defaults filled in, paths absolute, persona and flags applied. */
async function resolvedConfig(raw: SlopConfig, place: ConfigPlace): Promise<ResolvedConfig> {
  const { flags, cwd, configPath, base, root, stateDir, fileList, screenshots, persona } = place;
  const zeroConfig = fileList === undefined;
  const entries: FileEntry[] = (fileList ?? ["**"]).map((f) =>
    typeof f === "string" ? { path: f } : { ...f }
  );

  const strategy = flags.strategy ?? persona?.strategy ?? raw.strategy ?? "auto";
  return {
    configPath,
    root,
    stateDir,
    files: entries,
    paths: (flags.paths ?? []).map((p) => resolve(cwd, p)),
    zeroConfig,
    exclude: [...(raw.exclude ?? []), ...(flags.ignore ?? [])],
    include: [...(raw.include ?? []), ...(flags.include ?? [])],
    defaultView: persona?.defaultView ?? tierDefaultView(persona?.tier, raw.provider ?? {}) ??
      raw.defaultView ?? "full",
    strategy,
    summaryOnly: raw.summaryOnly ?? false,
    screenshots,
    history: Array.isArray(raw.history)
      ? raw.history.map((m) => typeof m === "string" ? m : { ...m, role: m.role ?? UNKNOWN_ROLE })
      : raw.history,
    compaction: compactionOf(raw, base),
    output: outputOf(raw, { base, stateDir }),
    persona,
    preset: flags.preset,
    focus: [...(persona?.focus ?? []), ...(flags.focus ?? [])],
    tier: persona?.tier,
    since: flags.since !== undefined
      ? { ref: flags.since, files: await changedSince(root, flags.since) }
      : undefined,
    ordering: raw.ordering ?? {},
    lock: lockVariant(resolve(base, raw.lock ?? "slop.lock"), [persona?.name, flags.preset]),
    lockBase: resolve(base, raw.lock ?? "slop.lock"),
    cache: cacheOf(raw, { base, stateDir }),
    provider: raw.provider ?? {},
    budget: { ...raw.budget, tokens: flags.budget ?? persona?.budget ?? raw.budget?.tokens },
    task: flags.task ?? persona?.task ??
      (flags.preset ? raw.presets?.[flags.preset]?.task : undefined) ?? raw.task,
    rank: { weights: { ...raw.rank?.weights } },
    knowledge: knowledgeOf(raw, base),
    beads: raw.beads,
    slicesFile: resolve(base, raw.slicesFile ?? "slop/slices.toml"),
    maxFileSize: raw.maxFileSize ?? 10 * 1024 * 1024,
    allowOutsideRoot: raw.allowOutsideRoot ?? false,
    secrets: { failOnSecret: raw.secrets?.failOnSecret ?? false, rules: raw.secrets?.rules ?? {} },
    plugins: (raw.plugins ?? []) as ResolvedConfig["plugins"],
    raw,
  };
}

/**
 * What the built-in views read from a file entry's `options`, by key: each view reads its own
 * keys and passes over the others (one key means the same in each), so another view's key or a
 * key none reads is no error. `indent` is at most 16: it is repeated for each level of nesting.
 */
const BUILT_IN_VIEW_OPTIONS: Record<string, Rule> = {
  maxValueLines: num({ integer: true, min: 0 }),
  maxWork: num({ integer: true, min: 1 }),
  indent: num({ integer: true, min: 0, max: 16 }),
  maxNames: num({ integer: true, min: 1 }),
  headLines: num({ integer: true, min: 0 }),
  maxLineChars: num({ integer: true, min: 1 }),
  rest: literal("sig", "hide"),
  mask: record(literal("def", "sig", "hide")),
  template: str(),
  maxTokens: num({ integer: true, min: 1 }),
  maxChars: num({ integer: true, min: 1 }),
  timeoutMs: num({ min: 1, max: MAX_TIMER_MS }),
  concurrency: num({ integer: true, min: 1 }),
};

/** The problems of the keys of a file entry's `options` that a built-in view reads. */
function builtInViewOptions(options: unknown, path: string): string[] {
  if (!isPlainObject(options)) return [];
  return Object.entries(options).flatMap(([key, value]) =>
    Object.hasOwn(BUILT_IN_VIEW_OPTIONS, key) && value !== undefined
      ? BUILT_IN_VIEW_OPTIONS[key](value, `${path}.${key}`)
      : []
  );
}

/**
 * Check that every view named in the config exists in the registry; the
 * error names the key path and suggests the closest view. A file entry's
 * `options` for a built-in view are checked too, each key by its path.
 *
 * @example
 * ```ts
 * import { checkViews } from "./config.ts";
 * import { createRegistry } from "./registry.ts";
 * checkViews({ defaultView: "full" }, createRegistry([])); // ['Unknown view mode ...']
 * ```
 */
export function checkViews(raw: SlopConfig, registry: Registry): string[] {
  const names = viewNames(registry);
  // A view's short name (`full`) or its plugin's (`slop:full`); a section's, an ordering's or a
  // provider's name is no view (it passed here, and the build rendered the file whole).
  const known = new Set([
    ...names,
    ...registry.plugins.filter((p) => p.kind === "view-mode").map((p) => p.name),
  ]);
  const problems: string[] = [];
  const check = (view: string | undefined, path: string) => {
    if (view === undefined || known.has(view)) return;
    const hint = closest(view, names);
    problems.push(
      `Unknown view mode "${view}" at "${path}"${hint ? ` (did you mean "${hint}"?)` : ""}`,
    );
  };
  const mine = new Set(
    (raw.plugins ?? []).map((p) => isPlainObject(p) && typeof p.name === "string" && p.name),
  );
  const checkFiles = (list: SlopConfig["files"], path: string) =>
    list?.forEach((f, i) => {
      if (typeof f !== "object") return;
      check(f.view, `${path}[${i}].view`);
      // The options of a built-in view (a config's own view reads its own as it likes).
      const view = findViewMode(registry, f.view ?? raw.defaultView ?? "full");
      if (f.options !== undefined && view && !mine.has(view.name) && /^slop:/.test(view.name)) {
        problems.push(...builtInViewOptions(f.options, `${path}[${i}].options`));
      }
    });
  check(raw.defaultView, "defaultView");
  checkFiles(raw.files, "files");
  for (const [name, p] of Object.entries(raw.presets ?? {})) {
    checkFiles(p.files, `presets.${name}.files`);
  }
  for (const [name, p] of Object.entries(raw.personas ?? {})) {
    check(p.defaultView, `personas.${name}.defaultView`);
  }
  return problems;
}

/**
 * Check that `provider.name` names a provider in the registry (a built-in by
 * its short or `slop:` name, or a plugin's); the error names the key and
 * suggests the closest provider.
 *
 * @example
 * ```ts
 * import { checkProvider } from "./config.ts";
 * import { createRegistry } from "./registry.ts";
 * checkProvider({ provider: { name: "x" } }, createRegistry([])); // ['Unknown provider ...']
 * ```
 */
export function checkProvider(raw: SlopConfig, registry: Registry): string[] {
  const name = raw.provider?.name;
  if (name === undefined || findProvider(registry, name)) return [];
  const names = providers(registry).map((p) => p.name.replace(/^slop:/, ""));
  const hint = closest(name, names);
  return [
    `Unknown provider "${name}" at "provider.name"` +
    (hint
      ? ` (did you mean "${hint}"?)`
      : ` (expected one of ${names.map((n) => `"${n}"`).join(", ")})`),
  ];
}

function findConfigFile(cwd: string, explicit?: string): string | undefined {
  if (explicit) {
    const path = resolve(cwd, explicit);
    const info = statOf(path);
    if (!info && loops(path)) {
      throw new ConfigError(explicit, [
        `Cannot load the config: "${path}" is a symbolic link loop`,
      ]);
    }
    if (!info) {
      // Said from the folder the path is relative to, and as the flag that gave it.
      throw new ConfigError(explicit, [
        `No such file in "${cwd}" (--config)`,
      ]);
    }
    loadable(path, info, explicit);
    if (/\.(json5?|jsonc|toml|ya?ml)$/i.test(path)) {
      throw new ConfigError(explicit, [
        "Cannot load the config: it must be a TypeScript or JavaScript module that " +
        "default-exports the config (slop.config.ts), not a data file",
      ]);
    }
    return path;
  }
  for (const name of CONFIG_FILES) {
    const path = join(cwd, name);
    const info = statOf(path);
    if (!info && loops(path)) {
      throw new ConfigError(name, ["Cannot load the config: it is a symbolic link loop"]);
    }
    if (!info) continue;
    loadable(path, info, name);
    return path;
  }
  // A config under another name (a data file, another module kind, other letter case) is no
  // config slop reads: building without it would drop its files, excludes and budget without a word.
  const other = unloadedConfigFile(cwd);
  if (other) {
    throw new ConfigError(other, [
      "slop loads only slop.config.ts, slop.config.js or slop.config.mjs, in lower case (a " +
      "module that default-exports the config): rename it to slop.config.ts (export default " +
      "{ ... }), or move it away to build without a config",
    ]);
  }
  return undefined;
}

/** The most bytes of a config module slop loads: one larger is no config a person wrote. */
const CONFIG_FILE_LIMIT = 16 * 1024 * 1024;

/**
 * Throw a `ConfigError` (named `name`) unless the config file at `path` (`info`: what a stat
 * found there) can be imported: a folder, a FIFO or a device is refused, and so are a file over
 * {@linkcode CONFIG_FILE_LIMIT} and a file of `/proc` that never ends, which Deno's import would
 * read whole (it is read here first, without waiting and at most that many bytes).
 */
function loadable(path: string, info: Deno.FileInfo, name: string): void {
  if (info.isDirectory) {
    throw new ConfigError(name, [`Cannot load the config: "${path}" is a folder, not a file`]);
  }
  notRegular(info, name);
  try {
    readSettingTextSync(path, CONFIG_FILE_LIMIT);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const text = errorText(error);
    const plain = nodeReadError(error);
    const why = code === "EACCES" || code === "EPERM"
      ? "permission denied: the user slop runs as may not read it"
      : text.startsWith("it holds over")
      ? `${text}, more than slop loads of a config module`
      : text.startsWith("it ")
      ? text
      : plain !== error
      ? errorText(plain)
      : `cannot read it: ${text}`;
    throw new ConfigError(name, [`Cannot load the config: ${why}`]);
  }
}
/**
 * The name of a file in `dir` that looks like a slop config but that slop does not load: a data
 * file (`slop.config.yaml`), another module kind (`slop.config.mts`) or a loaded name in other
 * letters (`Slop.Config.ts`, which a case-sensitive file system does not find). Folders and other
 * non-files of such names are passed over; the first name in code-unit order is given.
 * Undefined when there is none (or the folder cannot be read).
 *
 * @example
 * ```ts
 * import { unloadedConfigFile } from "./config.ts";
 * unloadedConfigFile(await Deno.makeTempDir()); // undefined
 * ```
 */
export function unloadedConfigFile(dir: string): string | undefined {
  return configFilesIn(dir, { except: CONFIG_FILES, first: true })[0];
}

/**
 * The files beside a loaded config file that look like slop configs too (`slop.config.yaml`, or
 * `slop.config.js` beside `slop.config.ts`, which is found first): slop loads only the one, so
 * each is told by the build rather than passed over. The loaded file under another spelling (a
 * file system blind to case) is not one. In code-unit order; none when the folder cannot be read.
 */
function configFilesBeside(configPath: string): string[] {
  const loaded = statOf(configPath);
  const same = (info: Deno.FileInfo) =>
    loaded !== undefined && info.ino !== null && info.dev === loaded.dev &&
    info.ino === loaded.ino;
  return configFilesIn(dirname(configPath), { except: [basename(configPath)], same });
}

/** Options of {@linkcode configFilesIn}. */
interface ConfigFilesOptions {
  /** Names passed over. */
  except: string[];
  /** Only the first name. */
  first?: boolean;
  /** Whether a file is the loaded config itself (passed over). */
  same?: (info: Deno.FileInfo) => boolean;
}

/** The regular files of `dir` named as slop configs are (in any letter case), in code-unit order. */
function configFilesIn(dir: string, { except, first = false, same }: ConfigFilesOptions): string[] {
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].map((entry) => entry.name)
      .filter((name) => !except.includes(name) && CONFIG_NAMES.has(name.toLowerCase()))
      .sort();
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const name of names) {
    const info = statOf(join(dir, name));
    if (!info?.isFile || same?.(info)) continue;
    found.push(name);
    if (first) break;
  }
  return found;
}

/**
 * Whether a file's name is one a slop config may be given by, in any letter case: those slop
 * loads (`slop.config.ts`) and those it names as not loaded (`slop.config.yaml`). A watch reloads
 * the config when a file of such a name beside it changes.
 *
 * @example
 * ```ts
 * import { namedAsConfig } from "./config.ts";
 * namedAsConfig("Slop.Config.yaml"); // true
 * namedAsConfig("slop.lock"); // false
 * ```
 */
export function namedAsConfig(name: string): boolean {
  return CONFIG_NAMES.has(name.toLowerCase());
}

/**
 * Names a config may be given by, in lower case: those slop loads ({@linkcode CONFIG_FILES}, in
 * order) and those it names as not loaded.
 */
export const ALL_CONFIG_NAMES: string[] = [
  ...CONFIG_FILES,
  ...["json", "jsonc", "json5", "yaml", "yml", "toml", "cjs", "cts", "mts", "tsx", "jsx"]
    .map((ext) => `slop.config.${ext}`),
];

const CONFIG_NAMES = new Set(ALL_CONFIG_NAMES);

/** Throw when the config's path is a FIFO, socket or device: importing one waits forever. */
function notRegular(info: Deno.FileInfo, name: string): void {
  try {
    checkRegular(info);
  } catch (error) {
    throw new ConfigError(name, [`Cannot load the config: ${errorText(error)}`]);
  }
}

/** What is at `path`, or undefined when nothing is (or it cannot be looked at). */
function statOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` is a symbolic link loop (no missing file, which a config may be). */
function loops(path: string): boolean {
  try {
    Deno.statSync(path);
    return false;
  } catch (error) {
    return error instanceof Deno.errors.FilesystemLoop;
  }
}

/** A terminal colour code (ESC [ ... m). */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** How many times a config was imported anew (a fresh module specifier each time). */
let reloads = 0;

/** Whether every load imports its config anew ({@linkcode reloadEveryConfig}). */
let reloadAlways = false;

/**
 * From now on, import the config file anew at every load in this process, as `reload` does for
 * one: for a process that runs one command after another, each of which must see the config as a
 * new process would (edited since, or reading the environment at its top level). The test suite's
 * CLI runner (`tests/_cli_runner.ts`) calls it. Each load keeps one more module in memory, so a
 * long-lived process that builds again and again (the build server, `slop watch`) does not.
 *
 * @example
 * ```ts
 * import { reloadEveryConfig } from "./config.ts";
 * reloadEveryConfig();
 * ```
 */
export function reloadEveryConfig(): void {
  reloadAlways = true;
}

/** How long a config may take to load when `loadTimeoutMs` is not given. */
const CONFIG_LOAD_MS = 30_000;

async function importConfig(path: string, flags: ConfigFlags): Promise<SlopConfig> {
  const display = displayPath(path, resolve(flags.cwd ?? Deno.cwd()));
  const ms = flags.loadTimeoutMs ?? CONFIG_LOAD_MS;
  const seconds = `${Math.round(ms / 100) / 10} s`;
  // A config that never returns without awaiting holds this thread: only the watch can stop it.
  const done = watchLoad(display, ms);
  try {
    return await importWithin(path, display, flags, { ms, seconds });
  } finally {
    done();
  }
}

/** Import the config module and call (or await) what it exports, each within `ms`. */
async function importWithin(
  path: string,
  display: string,
  flags: ConfigFlags,
  { ms, seconds }: { ms: number; seconds: string },
): Promise<SlopConfig> {
  let mod: Record<string, unknown>;
  try {
    const href = toFileUrl(path).href;
    const fresh = flags.reload || reloadAlways;
    const loading = import(fresh ? `${href}?reload=${++reloads}` : href);
    mod = await settleWithin(
      loading,
      ms,
      () =>
        new Error(
          `it did not finish loading in ${seconds} (a top-level await that never settles?)`,
        ),
    );
  } catch (error) {
    // Deno colours the module locations in its message; the error may go to a file or a pipe.
    const message = errorText(error).replace(ANSI_COLOUR, "");
    const hint = slopImportHint(message, path);
    const detail = loadFailure(message, flags);
    throw new ConfigError(display, [`Cannot load the config: ${detail}`], { hint });
  }
  if (!("default" in mod)) {
    throw new ConfigError(display, ["The config must have a default export (use defineConfig)"]);
  }
  let value = mod.default as UserConfigExport;
  try {
    if (typeof value === "function") {
      value = value({ persona: flags.persona, preset: flags.preset });
    }
    const late = () => new Error(`it did not return in ${seconds}`);
    value = await settleWithin(Promise.resolve(value), ms, late);
  } catch (error) {
    const detail = errorText(error);
    const what = typeof mod.default === "function" ? "config function" : "config's promise";
    throw new ConfigError(display, [`The ${what} failed: ${detail}`]);
  }
  if (!isPlainObject(value)) {
    throw new ConfigError(display, ["The config must export or return an object"]);
  }
  return value as SlopConfig;
}

/**
 * One line for a config module that did not load: the first line of Deno's message, its colours
 * already taken out (without the code frame below it, an error name before it or a period after
 * it), with `file:` URLs and the location of the fault as paths (`slop.config.ts:2:9`).
 */
function loadFailure(message: string, flags: ConfigFlags): string {
  const cwd = resolve(flags.cwd ?? Deno.cwd());
  const lines = message.split("\n");
  const shown = (url: string) => {
    try {
      return displayPath(decodeURIComponent(new URL(url).pathname), cwd);
    } catch {
      return url;
    }
  };
  const at = lines.map((line) => /^\s*at (file:\/\/\S+)\s*$/.exec(line)?.[1]).find((x) => x);
  const first = lines[0].trim().replace(/^[A-Z][A-Za-z]*Error: /, "").replace(/\.$/, "")
    .replace(/file:\/\/[^\s"'`]+/g, shown);
  // Deno gives why an import failed on a line of its own (`    0: Permission denied (os error
  // 13)`): the message would say only that it failed.
  const cause = lines.map((line) => /^\s*\d+: (.+?)(?: \(os error \d+\))?$/.exec(line)?.[1])
    .find((x) => x);
  const said = cause ? `${first}: ${cause.toLowerCase()}` : first;
  return at ? `${said} (at ${shown(at)})` : said;
}

/**
 * The config a resolved config came from, as errors name it: its file (see
 * {@linkcode displayPath}) or "inline config".
 *
 * @example
 * ```ts
 * import { configName, loadConfig } from "./config.ts";
 * configName(await loadConfig({ inline: {} })); // "inline config"
 * ```
 */
export function configName(config: Pick<ResolvedConfig, "configPath">): string {
  return config.configPath ? shownPath(config.configPath) : "inline config";
}

/** A path relative to `cwd` when inside it, else absolute (for messages only). */
export function displayPath(path: string, cwd: string): string {
  return shownPath(path, cwd);
}
