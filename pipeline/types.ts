/**
 * The plain data that flows through slop's pipeline, and the plugin shapes.
 *
 * config -> resolve -> read -> transform -> compose -> order -> emit
 *
 * @module
 */

/** How often a block is expected to change; ordering puts `static` first and `volatile` last. */
export type Stability = "static" | "stable" | "volatile";

/** The aggregation strategy of the seed: `auto` follows per-file views. */
export type Strategy = "auto" | "summarize" | "full";

/** Per-symbol mask modes of the `masked` view. */
export type MaskMode = "def" | "sig" | "hide";

/** Output document formats. */
export type OutputFormat = "markdown" | "xml" | "json";

/** Tokenizers slop counts with (exactly, see `pipeline/tokens.ts`). */
export type Tokenizer = "o200k" | "cl100k";

/** A line slice of the `custom` view (1-based, inclusive). */
export interface Slice {
  /** First line, 1-based. */
  startLine: number;
  /** Last line, 1-based, inclusive. */
  endLine: number;
  /** Human label. */
  tag?: string;
  /** Human comment. */
  comment?: string;
  /** sha256 of the slice's lines when it was made (for re-anchoring). */
  contentHash?: string;
  /** Lines of context around the slice when it was made (for re-anchoring). */
  anchorLines?: string[];
}

/** One entry of `files`: a path or glob plus per-file options. */
export interface FileEntry {
  /** A path or a glob, relative to `root`. */
  path: string;
  /** View mode name (`full`, `summary`, `skeleton`, a plugin's view, ...). */
  view?: string;
  /** Render in full whatever else says otherwise. */
  forceFull?: boolean;
  /** `false`: list the file in the manifest but do not render it. @default {true} */
  autoAggregate?: boolean;
  /** Line slices for the `custom` view. */
  slices?: Slice[];
  /** Per-symbol mask for the `masked` view. */
  mask?: Record<string, MaskMode>;
  /** Largest file size in bytes for this entry (overrides `maxFileSize`). */
  maxBytes?: number;
  /** Replace large data URLs and base64 blobs with references. @default {true} */
  dedup?: boolean;
  /** Options handed to the view mode plugin. */
  options?: Record<string, unknown>;
}

/** A discussion message. */
export interface HistoryMessage {
  /** Who spoke (`User`, `AI`, `assistant`, ...). */
  role: string;
  /** What was said. */
  content: string;
}

/** A discussion message as a config gives it: without a role, the speaker is `Unknown`. */
export interface HistoryInput {
  /** Who spoke. @default {"Unknown"} */
  role?: string;
  /** What was said. */
  content: string;
}

/** A named file set that replaces `files` and `screenshots` when selected. */
export interface Preset {
  /** Files of the preset. */
  files?: Array<string | FileEntry>;
  /** Screenshots of the preset. */
  screenshots?: string[];
  /** Human-readable label. */
  description?: string;
  /** The task at hand for builds with this preset (see `docs/task_context.md`). */
  task?: string;
}

/** A persona overlays strategy, views and focus on the config. */
export interface Persona {
  /** Aggregation strategy for this persona. */
  strategy?: Strategy;
  /** Default view for this persona. */
  defaultView?: string;
  /** Agent tier (1 orchestrator, 2 tech lead, 3 worker). */
  tier?: 1 | 2 | 3;
  /** Files rendered in full. */
  focus?: string[];
  /** Token budget for this persona. */
  budget?: number;
  /** The task at hand for builds with this persona (over a preset's and the config's). */
  task?: string;
}

/** Where outputs go. */
export interface OutputConfig {
  /** Output folder. @default {".slop/out"} (inside the state dir) */
  dir?: string;
  /** File name prefix. @default {"context"} */
  namespace?: string;
  /** Document format. @default {"markdown"} */
  format?: OutputFormat;
  /**
   * How many numbered outputs (document and manifest of a number) stay after a build publishes:
   * the oldest others are removed. Numbers are never reused. `false` keeps every output.
   * @default {20}
   */
  keep?: number | false;
  /**
   * The most bytes the kept outputs may take together: past it the oldest go, but the newest
   * two (one with `keep: 1`) always stay. `false` sets no limit. @default {1073741824} (1 GiB)
   */
  keepBytes?: number | false;
}

/** The content-hash cache. */
export interface CacheConfig {
  /** @default {true} */
  enabled?: boolean;
  /** @default {".slop/cache"} */
  dir?: string;
  /**
   * Most bytes the cache folder may hold, as a number or `"512MB"` (units of 1024); past it a
   * build evicts the least recently used entries. @default {"1GB"}
   */
  maxSize?: number | string;
}

/** The provider used for payloads and LLM calls. */
export interface ProviderConfig {
  /** Provider plugin name (`anthropic`, `openai`, `gemini`, `deepseek`, ...). */
  name?: string;
  /** Model id. */
  model?: string;
  /** API base URL (OpenAI-compatible servers, proxies, tests). */
  baseUrl?: string;
  /** Name of the environment variable holding the API key. */
  apiKeyEnv?: string;
  /** Cache TTL (`5m`, `1h`). */
  ttl?: string;
}

/** Token budget. */
export interface BudgetConfig {
  /** Maximum tokens of the document. */
  tokens?: number;
  /** Tokenizer used for the budget. @default {"o200k"} */
  tokenizer?: "o200k" | "cl100k";
  /**
   * With a task, the share of the budget the task section may take (its files in their task
   * views and the task text); the rest goes to the task-independent repository map before it,
   * which is the cached prefix. Between 0 and 1. @default {0.5}
   */
  taskShare?: number;
  /**
   * With a task, the most tokens the map takes (its part is `tokens * (1 - taskShare)` up to
   * this): a larger budget goes to the task's files. @default {16000}
   */
  mapTokens?: number;
  /**
   * With a task, the share of the map's tokens that goes first to the files changed most in the
   * recent git history (per token), kept in full; the other files step down in the rest. Between
   * 0 and 1; `0` steps every file down alike. @default {1}
   */
  mapFull?: number;
}

/** Ranking files for a task (`slop rank`, a task build); see `pipeline/rank.ts`. */
export interface RankConfig {
  /**
   * How much each signal counts: `lexical` (BM25 over contents), `path` (BM25 over path
   * tokens), `graph` (symbol graph), `coChange` (git co-change), `history` (the task's words
   * in past commit messages), `pairs` (the task's neighbouring words next to each other in the
   * file), `pastCommits` (past commits worded like the task lend their files a share, past the
   * ranking's first 20 places); the defaults are `DEFAULT_WEIGHTS` of `pipeline/rank.ts`.
   */
  weights?: RankWeights;
}

/** How much each signal counts; each defaults as documented. */
export interface RankWeights {
  /** BM25 over contents. @default {1} */
  lexical?: number;
  /** BM25 over path tokens. @default {1} */
  path?: number;
  /** Symbol-graph rank personalized to the task. @default {0.25} */
  graph?: number;
  /** Co-change score from `options.coChange`. @default {0.2} */
  coChange?: number;
  /** The task's words in the past commit messages of the file (`options.history`). @default {0.1} */
  history?: number;
  /** The task's neighbouring words next to each other in the file. @default {0.1} */
  pairs?: number;
  /**
   * Past commits whose message is like the task's lend the files they changed a share, past the
   * ranking's first 20 places (`options.history`). @default {0.05}
   */
  pastCommits?: number;
}

/** Knowledge artifacts. */
export interface KnowledgeConfig {
  /** @default {"slop/knowledge"} */
  dir?: string;
  /** Inject `digest.md` as the `{knowledge}` block. @default {true} */
  digest?: boolean;
  /** Globs of conversation files to harvest. */
  conversations?: string[];
}

/** Secret scanning. */
export interface SecretsConfig {
  /** Exit non-zero when a secret is found. @default {false} */
  failOnSecret?: boolean;
  /** Extra rules: name -> regular expression source. */
  rules?: Record<string, string>;
}

/** History compaction: summarize the leading messages of a long discussion into a checkpoint. */
export interface CompactionConfig {
  /** Compact at all. @default {true} */
  enabled?: boolean;
  /** Compact when the discussion (checkpoint included) has more messages than this. @default {80} */
  threshold?: number;
  /** Most recent messages kept verbatim after a new checkpoint. @default {24} */
  keep?: number;
  /** The summarizer's system prompt file. @default {"slop/prompts/compaction.md"} */
  prompt?: string;
}

/** Ordering options. */
export interface OrderingConfig {
  /** Explicit file order for the `pinned` rule (paths or globs). */
  pinned?: string[];
}

/** Everything a `slop.config.ts` may set. Unknown keys are errors. */
export interface SlopConfig {
  /** Project root, relative to the config file's folder. @default {"."} */
  root?: string;
  /** Files: paths, globs or entries with per-file options. @default {["**"]} */
  files?: Array<string | FileEntry>;
  /** Globs removed from the file set. */
  exclude?: string[];
  /** Globs added to the file set. */
  include?: string[];
  /** View for files that set none. @default {"full"} */
  defaultView?: string;
  /** @default {"auto"} */
  strategy?: Strategy;
  /** With `strategy: "auto"`, render every file as a summary. @default {false} */
  summaryOnly?: boolean;
  /** Image paths or globs, rendered as markdown images. */
  screenshots?: string[];
  /** A JSONL or TOML discussion file, or an inline array of strings or messages. */
  history?: string | Array<string | HistoryInput>;
  /** History compaction into checkpoints. */
  compaction?: CompactionConfig;
  /** Output settings. */
  output?: OutputConfig;
  /** Named file sets. */
  presets?: Record<string, Preset>;
  /** Named personas. */
  personas?: Record<string, Persona>;
  /** Plugins; a plugin with a built-in's name replaces it. */
  plugins?: Plugin[];
  /** Ordering options. */
  ordering?: OrderingConfig;
  /** Prefix lock file. @default {"slop.lock"} */
  lock?: string;
  /** Content-hash cache. */
  cache?: CacheConfig;
  /** Provider. */
  provider?: ProviderConfig;
  /** Token budget. */
  budget?: BudgetConfig;
  /** Ranking files for a task. */
  rank?: RankConfig;
  /** Knowledge artifacts. */
  knowledge?: KnowledgeConfig;
  /** Beads progress section: `true` requires a Beads project, `false` turns it off. */
  beads?: boolean;
  /** TOML side file of slices. @default {"slop/slices.toml"} */
  slicesFile?: string;
  /** Largest file in bytes. @default {10485760} */
  maxFileSize?: number;
  /** Allow paths and links that leave the root. @default {false} */
  allowOutsideRoot?: boolean;
  /** Secret scanning. */
  secrets?: SecretsConfig;
  /** Add the volatile `## Directory Tree` section after the files. @default {false} */
  tree?: boolean;
  /**
   * The task at hand: files are ranked for it and the most relevant shown in a task section
   * after the task-independent prefix (see `docs/task_context.md`).
   */
  task?: string;
  /** The build server (`slop build --server`). */
  server?: {
    /** Prepare the next build when the watcher sees an edit. @default {true} */
    prepare?: boolean;
  };
}

/** What a config function receives. */
export interface ConfigEnv {
  /** Selected persona, if any. */
  persona?: string;
  /** Selected preset, if any. */
  preset?: string;
}

/** A config module's default export. */
export type UserConfigExport =
  | SlopConfig
  | Promise<SlopConfig>
  | ((env: ConfigEnv) => SlopConfig | Promise<SlopConfig>);

// ---------------------------------------------------------------------------
// Pipeline data

/** A resolved target: one file with its merged entry options. */
export interface Target {
  /** Path relative to root, `/`-separated. */
  path: string;
  /** Absolute path on disk. */
  absPath: string;
  /** Merged options of every `files` entry that matched. */
  entry: FileEntry;
  /** Listed explicitly by a literal path (not a glob). */
  explicit: boolean;
  /**
   * Why the file is listed but not read: a lockfile or another generated file that the config
   * does not name (see `GENERATED_FILES` of `pipeline/resolve.ts`).
   */
  skip?: string;
  /**
   * The size (bytes) over which the file is image data, skipped by default: set on an SVG that
   * the config does not name (`SVG_LIMIT` of `pipeline/_default_skips.ts`).
   */
  imageLimit?: number;
  /**
   * Set on a file the config does not name and `.gitattributes` does not mark
   * `linguist-generated=false`: the read stage skips it when its text shows it generated (a
   * header that says so, a webpack bundle, minified code; `pipeline/_generated_text.ts`).
   */
  judgeGenerated?: true;
  /**
   * The source of a compiled file (`scss/app.scss` of `css/app.css`) in the project: set on a
   * file judged generated that has one, which the read stage skips when its text ends with a
   * source map comment (`compiledSources` of `pipeline/_generated_text.ts`).
   */
  compiledSource?: string;
  /**
   * The size (bytes) over which the file is shown by its shape (`summary`) where it would be
   * shown `full`: set on a data file the config does not name (`DATA_LIMIT` of
   * `pipeline/data_files.ts`).
   */
  dataLimit?: number;
  /**
   * The translation shown whole in this file's set: set on a translation the config does not
   * name, one of a set of siblings (`locales/*.json`), which is summarized where it would be
   * shown `full` (`translationSets` of `pipeline/data_files.ts`).
   */
  translationOf?: string;
}

/** A file after the read stage. Errors never stop the build. */
export interface SourceFile extends Target {
  /** Raw bytes (absent on error). */
  bytes?: Uint8Array;
  /** The text: UTF-8, UTF-16 behind a byte order mark, or an older encoding detected (absent when binary or on error). */
  text?: string;
  /** sha256 of the bytes, hex ("" on error). */
  sha256: string;
  /** Size in bytes. */
  size: number;
  /** Modification time in ms (never used for ordering or output). */
  mtimeMs: number;
  /** Why the file cannot be rendered. */
  error?: FileProblem;
  /**
   * Present on a file the read stage left unread (a speed layer knew it unchanged and gave its
   * recorded hash, with no text): reads it now, in place (bytes, text and hash, or its problem),
   * and gives whether its content differs from the recorded hash. Gone once called. Call it on
   * its file (`file.load()`): it may be one function shared by many files, reading `this`.
   */
  load?: () => Promise<boolean>;
}

/** A file that cannot be rendered, and whether that is an error or a skip. */
export interface FileProblem {
  /** `error` for missing/unreadable, `skipped` for binary/too large/excluded. */
  status: "error" | "skipped";
  /** Human-readable reason (`file not found`, `binary file`, ...). */
  reason: string;
}

/** A file after the transform stage. */
export interface RenderedFile {
  /** Path relative to root. */
  path: string;
  /** The view that produced `text` (after fallbacks). */
  view: string;
  /** What happened to the file. */
  status: "rendered" | "skipped" | "error";
  /** Why it was skipped or failed, or a note about a fallback. */
  reason?: string;
  /** sha256 of the source bytes. */
  sha256: string;
  /** Source size in bytes. */
  bytes: number;
  /** Rendered body (absent when skipped). */
  text?: string;
  /** Whether `text` is code to fence (true) or markdown to inline (false). */
  fenced: boolean;
  /** Fence language tag. */
  language: string;
  /** Extra manifest notes (fallbacks, warnings). */
  notes?: string[];
  /** Views left over a work budget, and why (see {@linkcode ViewOutput.fallback}). */
  fallback?: string;
  /** Cache outcome of the transform. */
  cache?: "hit" | "miss";
}

/** A piece of the document. The document is the concatenation of the ordered blocks' text. */
export interface Block {
  /** Unique id: the section name, or `files:<path>` for a file. */
  id: string;
  /** Section name (`knowledge`, `files`, `screenshots`, `beads`, `history`, ...). */
  section: string;
  /** Volatility class. */
  stability: Stability;
  /** Exact bytes of the block (ends with a blank line). */
  text: string;
  /** Source file path, for file blocks. */
  source?: string;
  /** A section heading: ordering keeps it first in its section. */
  heading?: boolean;
  /** Manifest notes (content dedup replacements, history compaction). */
  notes?: string[];
}

/** A block with its place in the document. */
export interface PlacedBlock extends Block {
  /** Byte offset in the UTF-8 document. */
  offset: number;
  /** Length in bytes. */
  length: number;
  /** sha256 of the block's bytes. */
  sha256: string;
  /** o200k tokens of the block. */
  tokens: number;
}

/** One manifest row per resolved file. */
export interface ManifestFile {
  path: string;
  view: string;
  status: "rendered" | "skipped" | "error";
  reason?: string;
  sha256: string;
  bytes: number;
  cache?: "hit" | "miss";
  notes?: string[];
  /** Views left over a work budget, and why (`skeleton -> summary: over its work budget`). */
  fallback?: string;
}

/** A secret found and redacted: where and by which rule, never the value. */
export interface SecretFinding {
  /** File path relative to root, or the block id for non-file blocks (`history`, ...). */
  path: string;
  /** 1-based line of the match's start (in the file as read). */
  line: number;
  /** Rule name, as in `[REDACTED:<rule>]`. */
  rule: string;
}

/** One manifest row per block. */
export interface ManifestBlock {
  id: string;
  section: string;
  stability: Stability;
  offset: number;
  length: number;
  sha256: string;
  tokens: number;
  notes?: string[];
}

/** The JSON written beside each output. */
export interface Manifest {
  /** Manifest format version. */
  version: 1;
  /** Output document path relative to root (absent with `--stdout`). */
  output?: string;
  /** Files in path order. */
  files: ManifestFile[];
  /** Blocks in document order. */
  blocks: ManifestBlock[];
  /** The stable prefix: every byte before the first volatile block. */
  prefix: { bytes: number; sha256: string; tokens: number };
  /** Totals of the document. */
  total: { bytes: number; sha256: string; tokens: number };
  /** Warnings raised during the build. */
  warnings: string[];
  /** Secrets redacted (present only when some were found). */
  secrets?: SecretFinding[];
  /** The token budget and what was stepped down to meet it (only when a budget is set). */
  budget?: BudgetReport;
  /** Cache breakpoints chosen for the configured provider (absent when none). */
  breakpoints?: Breakpoint[];
  /** The task the document was built for (only with a task). */
  task?: ManifestTask;
}

/** A cache breakpoint: the end of a cached span, at a block boundary. */
export interface Breakpoint {
  /** Id of the block the span ends with. */
  id: string;
  /** Byte offset where the span ends (the block's offset + length). */
  end: number;
  /** Provider tokens from the start of the document to `end`. */
  tokens: number;
  /** Cache lifetime of the span (`5m`, `1h`). */
  ttl: string;
}

/** Prices in US dollars per million tokens. */
export interface ModelPrices {
  /** Uncached input. */
  input: number;
  /** Output. */
  output: number;
  /** Input read from the cache. */
  cacheRead: number;
  /** Input written to the cache, by TTL; absent when writes cost `input`. */
  cacheWrite?: Record<string, number>;
  /** Explicit cache storage per hour (Gemini). */
  storagePerHour?: number;
}

/** What a provider knows about a model: caching rules, prices and token counting. */
export interface ModelInfo {
  /** Model id. */
  model: string;
  /** Smallest prefix the provider caches, in its tokens. */
  minCacheTokens: number;
  /** Cache lifetimes the API offers, the default first. */
  ttls: string[];
  /** Whether the API takes explicit breakpoints (Anthropic) or caches prefixes itself. */
  breakpoints: boolean;
  /** Prices. */
  prices: ModelPrices;
  /** Counting: exact with a tiktoken encoding, or an estimate from o200k tokens or characters. */
  tokenizer: "o200k" | "cl100k" | "o200k-estimate" | "chars-estimate";
  /** Estimate factor: provider tokens per o200k token, or per character. @default {1} */
  tokenFactor?: number;
  /**
   * The most input tokens a request may hold, in the provider's tokens (the context window, less
   * what the API keeps for output where it says so). A document larger than this gets a warning.
   */
  contextWindow?: number;
}

/** One file stepped down to fit the token budget. */
export interface StepDown {
  /** Path relative to root. */
  path: string;
  /** The view it had. */
  from: string;
  /** The view it got (`listed`: in the manifest only, not in the document). */
  to: string;
}

/** How a build met (or did not meet) its token budget. */
export interface BudgetReport {
  /** The budget, in tokens of `budget.tokenizer`. */
  tokens: number;
  /** Tokens of the document before stepping down. */
  before: number;
  /** Tokens of the document as written. */
  after: number;
  /** Whether `after <= tokens`. */
  met: boolean;
  /** Files stepped down, in the order they were stepped (a file may appear once per step). */
  steppedDown: StepDown[];
}

// ---------------------------------------------------------------------------
// Plugins

/** Plugin kinds. */
export type PluginKind = "view-mode" | "section" | "ordering" | "provider";

/** Logging sink handed to hooks. */
export interface Logger {
  /** Record a warning (kept in the manifest and printed in the summary). */
  warn(message: string): void;
}

/** Asks the configured provider's model (see `pipeline/llm.ts`). */
export type CompleteFn = (request: CompletionRequest) => Promise<string>;

/**
 * What a view mode's `render` hook gets besides the file; `O` types `options` (a view's own
 * `ViewModePlugin<O>` gives it: slop checks no value of an entry's options for a view of yours,
 * so check what `render` reads before trusting the type).
 */
export interface ViewContext<O extends object = Record<string, unknown>> extends Logger {
  /** Ask the configured provider (`provider.name`); rejects when none is configured. */
  complete: CompleteFn;
  /** Options from the file's entry (`options`) merged over the plugin's own (`options`). */
  options: O;
  /** The merged `files` entry (slices, mask, ...). */
  entry: FileEntry;
  /** The resolved config. */
  config: ResolvedConfig;
  /** Render the same file with another view (for fallbacks). */
  renderAs(view: string): Promise<ViewOutput>;
  /** slop's content-addressed store (`cache.dir`; never hits nor writes with `--no-cache`). */
  store: Store;
}

/**
 * A content-addressed JSON store in slop's cache folder, kept between builds
 * and cleared by `slop cache clear`. Make keys with `cacheKey` (`mod.ts`) from
 * everything the value depends on (a content hash, a model, a prompt).
 */
export interface Store {
  /** The value stored under `key`, or `undefined` when missing or corrupt. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Store a JSON-serializable `value` under `key` (atomically; failures to write are ignored). */
  set(key: string, value: unknown): Promise<void>;
}

/** What a view mode returns: text, or text with details. */
export interface ViewOutput {
  /** Rendered body. */
  text: string;
  /** Fence it as code (`true`) or inline it as markdown. @default {true} */
  fenced?: boolean;
  /** The view that actually produced the text, when it fell back. */
  view?: string;
  /**
   * The fence's language when the file's words tell it and its name does not (an Objective-C
   * `.h` file: `objective-c`); set by the transform stage, kept with the render in the cache.
   * @default {undefined} the language of the path's extension
   */
  language?: string;
  /** Notes for the manifest (e.g. why it fell back). */
  notes?: string[];
  /**
   * The views left because they would cost more work than their per-file budget, and why
   * (`skeleton -> summary: over its work budget`): one file never stalls a build. Shown as the
   * file's `fallback` in the manifest. @default {undefined} none
   */
  fallback?: string;
  /** `false`: do not store this output in the cache (e.g. a fallback after a failed call). @default {true} */
  cacheable?: boolean;
}

/** The file a view mode renders: read once, never re-read. */
export interface ViewInput {
  /** Path relative to root. */
  path: string;
  /** Absolute path (for plugins that need to know, never re-read it). */
  absPath: string;
  /** UTF-8 text. */
  text: string;
  /** sha256 of the bytes. */
  sha256: string;
}

/**
 * A view mode plugin: turns one file into text. `O` is the type of its options as `render` reads
 * them in `ctx.options` (`ViewModePlugin<TodoOptions>`).
 */
export interface ViewModePlugin<O extends object = Record<string, unknown>> {
  kind: "view-mode";
  /** Unique name; built-ins are `slop:<view>`. Configs refer to `<view>` or the full name. */
  name: string;
  /**
   * Joins the cache key. For a plugin of your own (not a built-in `slop:` one), the source text
   * of its hooks and its `options` join the key too, so an edit shows at once; bump `version`
   * when the output changes in a way they cannot show (a module the hooks call changed).
   */
  version: string;
  /**
   * The factory's options (plain JSON data): they join the cache key, so a change of options
   * never serves the output made with the old ones, and, when an object, `render` reads them in
   * `ctx.options` with a file entry's `options` over them. @default {undefined}
   */
  options?: unknown;
  /** File extensions this view accepts (with dot); others fall back to `summary`. */
  extensions?: string[];
  /** Finer filter than `extensions`; `text` is the file's (a `#!` line may name its language). */
  accepts?: (path: string, text: string) => boolean;
  /** Milliseconds one `render` may take, over the build's hook timeout (LLM views wait in a queue). */
  timeoutMs?: number;
  /** Render a file. */
  render(file: ViewInput, ctx: ViewContext<O>): string | ViewOutput | Promise<string | ViewOutput>;
  /**
   * Extra cache key material beyond name, version, options, path and content hash: whatever else
   * the output depends on (LLM modes: model + parameters + prompt-template hash; factory options).
   */
  cacheKey?(file: ViewInput, ctx: ViewContext<O>): string | Promise<string>;
  /**
   * Called before the secret scan with the files this view will render in this build (paths and
   * lengths in characters, read this build), so it can get ready (start threads, load grammars)
   * while the build scans. The function it returns is called when the transform stage ends.
   * Output must not depend on it.
   */
  prepare?(files: Array<{ path: string; chars: number }>): (() => void) | void;
  /**
   * The names a file defines (functions, classes, methods...), sorted; `undefined` when the view
   * does not read the file's language. Ranking files for a task (`pipeline/task.ts`) asks the
   * `skeleton` view, so the pipeline parses code through a plugin, never by itself. `ctx.store`:
   * the build's cache, where the view may keep what it found by the text's hash; `ctx.parsing`
   * is called before the view parses the file (not when the names come from the store), so the
   * caller gets the view ready (`prepare`) only when there is work.
   */
  definitions?(
    file: Pick<ViewInput, "path" | "text">,
    ctx?: { store?: Store; parsing?: () => void },
  ): Promise<string[] | undefined>;
}

/** The state a section plugin composes from. */
export interface BuildState {
  /** The resolved config. */
  config: ResolvedConfig;
  /** Rendered files in path order. */
  files: RenderedFile[];
  /** Absolute root. */
  root: string;
  /** Absolute state dir. */
  stateDir: string;
  /** The task section's content, when the build has a task (chosen by `pipeline/task.ts`). */
  task?: TaskState;
}

/** What the task stage chose for the task section (see `pipeline/task.ts`). */
export interface TaskState {
  /** The task text, secrets redacted. */
  text: string;
  /** The files ranked for the task that the section names, most relevant first. */
  entries: TaskEntry[];
}

/** One file ranked for the task. */
export interface TaskEntry {
  /** Path relative to root. */
  path: string;
  /** Relevance score (see `pipeline/rank.ts`). */
  score: number;
  /**
   * Where the document shows it: `task` in the task section (`file` holds its task view), `map`
   * only in the repository map before it (in `view`), `listed` named in the task section only.
   */
  where: "task" | "map" | "listed";
  /** The view the document shows it in (`listed`: none). */
  view: string;
  /** The file in its task view (`where: "task"`). */
  file?: RenderedFile;
}

/** The task of a build, as the manifest records it (never its text). */
export interface ManifestTask {
  /** sha256 of the task text as the document holds it (secrets redacted). */
  sha256: string;
  /** Tokens of the task section (its files, the list and the task text). */
  tokens: number;
  /** The share of the budget the task section may take (`budget.taskShare`), with a budget. */
  share?: number;
  /** The files ranked for the task that the document names, most relevant first. */
  files: Array<{ path: string; score: number; where: TaskEntry["where"]; view: string }>;
}

/** What a section's hooks get besides the state. */
export interface SectionContext extends Logger {
  /** Ask the configured provider (`provider.name`); rejects when none is configured. */
  complete: CompleteFn;
  /**
   * Every file under the root, `/`-separated and sorted by code point, honouring nested
   * `.gitignore` files the way git does and the default excludes (`.git`, `node_modules`, `.slop`).
   * A path that holds a secret (a token in a file or folder name) is left out, as it is of the files.
   */
  listFiles(): Promise<string[]>;
  /**
   * Where to cut `text` at or before `at` so that no secret in it is cut in two (slop's rules and
   * the config's `secrets.rules`): `at`, or the start of the secret the cut would break. Blocks
   * are redacted after compose, and a key cut in two keeps a first part that no rule knows.
   * `mark`: what the cut text will end with (`...`), which must not be read as part of a value.
   */
  cutOutsideSecrets(text: string, at: number, options?: { mark?: string }): number;
  /**
   * A value made from `text` alone (`salt` names what it is, such as a file's block): `compute()`,
   * or, in a long-running process (`slop watch`, the build server), the value made for the same
   * text and salt in this build or the last. Absent from a context made by hand: compute it.
   */
  derived?: DeriveFn;
  /**
   * A value made from `record` alone (a rendered file: no stage changes one once it is made),
   * `salt` naming what it is (such as a file's block): `compute()`, or, in a long-running process
   * (`slop watch`, the build server), the value made for the same record and salt in an earlier
   * build (a file that renders the same is given as the same record). Absent from a context made by
   * hand: compute it.
   */
  fromRecord?: RecordFn;
}

/**
 * Make a value from `record` alone (`salt` names what it is): `compute()`, or the value a memo of
 * earlier builds holds for the same record and salt (see `SectionContext.fromRecord`).
 */
export type RecordFn = <T>(record: object, salt: string, compute: () => T) => T;

/**
 * Make a value from `text` alone (`salt` names what it is): `compute()`, or the value a memo of
 * earlier builds holds for the same text and salt (see `SectionContext.derived`).
 */
export type DeriveFn = <T>(text: string, salt: string, compute: () => T) => T;

/** A section plugin: turns the build state into blocks. */
export interface SectionPlugin {
  kind: "section";
  name: string;
  /** Return the section's blocks, or none. */
  compose(state: BuildState, ctx: SectionContext): Block[] | Promise<Block[]>;
}

/** What an ordering rule gets besides the blocks. */
export interface OrderContext extends Logger {
  /** The resolved config. */
  config: ResolvedConfig;
  /** Rendered files, for size and hash. */
  files: RenderedFile[];
  /** Absolute root. */
  root: string;
  /** Absolute state dir. */
  stateDir: string;
  /** Where the previous order comes from: local state (`build`) or only the lock (`check`). */
  orderSource: "state" | "lock";
  /** slop's remembered order of the files section (what the `volatility` rule applies). */
  fileOrder: FileOrder;
}

/** Options of {@linkcode FileOrder.next}. */
export interface FileOrderOptions {
  /** The least number of commits of `git log` that seed the first order (the window starts at an anchor commit at least this old). @default {100} */
  seedCommits?: number;
  /** Keep the first modified file at its place instead of re-sorting it. @default {false} */
  keepFirstChanged?: boolean;
  /** `observed`: change counts over the builds seen so far; `window`: over an endless window. @default {"observed"} */
  rate?: "observed" | "window";
}

/**
 * slop's persistent, size-aware file order: the previous order (the state
 * dir's order memory for `slop build`, only `slop.lock` for `slop check`;
 * with neither, `git log`, else sizes) kept up to the first changed file, the
 * rest sorted so that big, rarely changing files come first.
 */
export interface FileOrder {
  /**
   * The paths of the file blocks among `blocks` in their next order (none when
   * there are no file blocks).
   */
  next(blocks: Block[], options?: FileOrderOptions): Promise<string[]>;
  /**
   * Remember the order of the document (call it from `commit`) for the next
   * `slop build`, whether it was written or piped; `slop check` and PATHS
   * builds remember nothing.
   */
  save(blocks: PlacedBlock[]): Promise<void>;
}

/** An ordering rule: reorders blocks. Rules run in registration order. */
export interface OrderingPlugin {
  kind: "ordering";
  name: string;
  /** Return the blocks in their new order (same blocks, no additions). */
  order(blocks: Block[], ctx: OrderContext): Block[] | Promise<Block[]>;
  /**
   * Called once the document is made (written, piped or returned to a library caller), to
   * persist order state; not for inspection builds (`slop stats`, `report`).
   */
  commit?(blocks: PlacedBlock[], ctx: OrderContext): void | Promise<void>;
  /** Choose cache breakpoints in the placed blocks; the last rule that has this hook decides. */
  breakpoints?(blocks: PlacedBlock[], ctx: BreakpointContext): Breakpoint[] | Promise<Breakpoint[]>;
}

/** What an ordering rule's `breakpoints` hook gets besides the blocks. */
export interface BreakpointContext extends OrderContext {
  /** The configured provider's model (Anthropic's default model when none is configured). */
  model: ModelInfo;
  /** The cache lifetime asked for (`provider.ttl`, else the model's default). */
  ttl: string;
  /** Provider tokens of each block, in block order. */
  tokens: number[];
}

/**
 * What a provider's `payload(blocks, options)` hook gets besides the ordered blocks: from
 * `slop payload`, the model, TTL and breakpoints of the build's cache plan, the root and the
 * question (`--prompt`, redacted). Any of them may be absent: the plugin then uses its own.
 */
export interface PayloadOptions {
  /** Model id. @default {the plugin's default model} */
  model?: string;
  /** Cache lifetime (`5m`, `1h`). @default {the model's first TTL} */
  ttl?: string;
  /** The user's question, after the context. @default {"{{prompt}}"} */
  prompt?: string;
  /** Output token limit. @default {1024} */
  maxTokens?: number;
  /** Breakpoints chosen by the build (`manifest.breakpoints`); chosen here when absent. */
  breakpoints?: Breakpoint[];
  /** Absolute project root, to read screenshots; without it screenshots stay links. */
  root?: string;
}

/** A provider plugin: request payloads, token counts, LLM calls. */
export interface ProviderPlugin {
  kind: "provider";
  name: string;
  /** Build the request body for the ordered blocks. */
  payload?(blocks: PlacedBlock[], options: PayloadOptions): unknown;
  /** Count tokens of a text for a model. */
  countTokens?(text: string, model?: string): number | Promise<number>;
  /** Ask the model; used by LLM views, compaction and harvest. */
  complete?(request: CompletionRequest, ctx: ProviderContext): Promise<string>;
  /** Caching rules, prices and token counting of a model (the provider's default model when absent). */
  modelInfo?(model?: string): ModelInfo | undefined;
}

/** What a provider's `complete` hook gets besides the request. */
export interface ProviderContext {
  /** The config's `provider` settings (model, baseUrl, apiKeyEnv, ttl). */
  provider: ProviderConfig;
  /** Environment lookup (for the API key named by `apiKeyEnv`). */
  env: (name: string) => string | undefined;
}

/** A single-turn LLM request. */
export interface CompletionRequest {
  /** System prompt. */
  system?: string;
  /** User prompt. */
  prompt: string;
  /** Model id. */
  model?: string;
  /** Output token limit. */
  maxTokens?: number;
  /** Abort signal. */
  signal?: AbortSignal;
}

/** Any plugin. */
export type Plugin = ViewModePlugin | SectionPlugin | OrderingPlugin | ProviderPlugin;

// ---------------------------------------------------------------------------
// Resolved config

/** The config after loading, validation, overlays and flags. Paths are absolute. */
export interface ResolvedConfig {
  /** Absolute config file path, or undefined in zero-config mode. */
  configPath?: string;
  /**
   * Files beside the config file that are named as configs too but not loaded (`slop.config.yaml`
   * beside `slop.config.ts`): each build warns of them. Absent when there is none, or when the
   * config was named by `--config`.
   */
  configsBeside?: string[];
  /** Absolute project root. */
  root: string;
  /** Absolute state dir (`.slop` by default). */
  stateDir: string;
  /** File entries (strings promoted to entries). */
  files: FileEntry[];
  /** Absolute positional paths (`slop build PATHS`): restrict the build to them; entries still give options. */
  paths: string[];
  /** No config and no `files`: bundle every text file. */
  zeroConfig: boolean;
  exclude: string[];
  include: string[];
  defaultView: string;
  strategy: Strategy;
  summaryOnly: boolean;
  screenshots: string[];
  history?: string | Array<string | HistoryMessage>;
  /** History compaction; `prompt` is absolute. */
  compaction: { enabled: boolean; threshold: number; keep: number; prompt: string };
  /**
   * `keep`: the numbered outputs kept after a publish, or `false` for every one; `keepBytes`:
   * the most bytes they take together past the newest two, or `false` for no limit.
   */
  output: {
    dir: string;
    namespace: string;
    format: OutputFormat;
    keep: number | false;
    keepBytes: number | false;
  };
  persona?: { name: string } & Persona;
  preset?: string;
  /** Focus files (from persona, `--focus`), paths or globs. */
  focus: string[];
  /** Tier from the persona (3: focus full, others skeleton). */
  tier?: 1 | 2 | 3;
  /** `--since REF`: the ref and the files changed since it (in focus, matched exactly). */
  since?: { ref: string; files: string[] };
  ordering: OrderingConfig;
  /** Absolute lock path (`slop.<persona>.<preset>.lock` for a persona or preset build). */
  lock: string;
  /** Absolute path of the configured lock (`lock`), before any persona or preset variant. */
  lockBase: string;
  cache: { enabled: boolean; dir: string; maxSize: number };
  provider: ProviderConfig;
  budget: BudgetConfig;
  rank: RankConfig;
  knowledge: { dir: string; digest: boolean; conversations: string[] };
  /** The task at hand (`--task`, a persona's, a preset's or the config's `task`). */
  task?: string;
  beads?: boolean;
  /** Absolute slices side file path. */
  slicesFile: string;
  maxFileSize: number;
  allowOutsideRoot: boolean;
  secrets: { failOnSecret: boolean; rules: Record<string, string> };
  /** User plugins from the config. */
  plugins: Plugin[];
  /** The raw config as written (for plugins that need other keys). */
  raw: SlopConfig;
}
