/**
 * slop: a plugin-driven context bundler for LLM agents. It turns a project
 * into one context document whose stable prefix stays byte-identical
 * between runs, so provider prompt caches hit.
 *
 * @example Build from a config object
 * ```ts
 * import { buildContext, defineConfig } from "./mod.ts";
 * const config = defineConfig({ files: ["src/**"], defaultView: "full" });
 * const result = await buildContext({ inline: config, cwd: Deno.cwd() }, { write: false });
 * console.log(result.manifest.prefix.sha256);
 * ```
 *
 * @module
 */

export * from "./pipeline/types.ts";
export {
  ClockError,
  comparePaths,
  dedupNote,
  isClockError,
  isGlob,
  normalizeEntryPath,
  sha256Hex,
  writeAtomic,
} from "./pipeline/helpers.ts";
export { buildContext } from "./api/build_context.ts";
export type { BuildContextOptions } from "./api/build_context.ts";
export { ConfigError, defineConfig, loadConfig, validateConfig } from "./pipeline/config.ts";
export type { ConfigFlags } from "./pipeline/config.ts";
export { build, prepareBuild } from "./pipeline/build.ts";
export { speedLayer } from "./accel/speed_layer.ts";
export type { SpeedOptions } from "./accel/speed_layer.ts";
export type { BuildRun, StageLayer, Stages } from "./pipeline/stages.ts";
export type { BuildOptions, BuildResult, FinishOptions, PreparedBuild } from "./pipeline/build.ts";
export { callHook, PluginError } from "./pipeline/registry.ts";
export type { CallHookOptions } from "./pipeline/registry.ts";
export { countTokens } from "./pipeline/tokens.ts";
export type { Tokenizer } from "./pipeline/tokens.ts";
export { defaultPlugins } from "./plugins/defaults.ts";
export { fullViewMode } from "./plugins/view_modes/full.ts";
export type { FullOptions } from "./plugins/view_modes/full.ts";
export { noneViewMode } from "./plugins/view_modes/none.ts";
export type { NoneOptions } from "./plugins/view_modes/none.ts";
export { summarize, summaryViewMode } from "./plugins/view_modes/summary.ts";
export type { SummaryOptions } from "./plugins/view_modes/summary.ts";
export { customViewMode } from "./plugins/view_modes/custom.ts";
export type { CustomOptions } from "./plugins/view_modes/custom.ts";
export { dedupText } from "./pipeline/dedup.ts";
export type { DedupOptions, DedupReplacement, DedupResult } from "./pipeline/dedup.ts";
export { llmSummaryViewMode, renderEntry } from "./plugins/view_modes/llm_summary.ts";
export type { LlmSummaryOptions } from "./plugins/view_modes/llm_summary.ts";
export type { SummaryEntry } from "./plugins/view_modes/llm_summary.ts";
export { fileKind } from "./plugins/view_modes/llm_summary.ts";
export type { FileKind } from "./plugins/view_modes/llm_summary.ts";
export { skeletonViewMode } from "./plugins/view_modes/skeleton.ts";
export type { SkeletonOptions } from "./plugins/view_modes/skeleton.ts";
export { outlineText, outlineViewMode } from "./plugins/view_modes/outline.ts";
export type { OutlineOptions } from "./plugins/view_modes/outline.ts";
export { maskedViewMode } from "./plugins/view_modes/masked.ts";
export type { MaskedOptions } from "./plugins/view_modes/masked.ts";
export { cellsViewMode } from "./plugins/view_modes/cells.ts";
export type { CellsOptions } from "./plugins/view_modes/cells.ts";
export type { CodeSymbol, CodeView, RenderCodeOptions } from "./plugins/view_modes/code_views.ts";
export { CODE_EXTENSIONS, languageFor, LANGUAGES } from "./grammars/languages.ts";
export type { DefinitionSpec, LanguageSpec, NodeLike, ScopeInfo } from "./grammars/languages.ts";
export { filesSection } from "./plugins/sections/files.ts";
export type { FilesOptions } from "./plugins/sections/files.ts";
export { screenshotsSection } from "./plugins/sections/screenshots.ts";
export type { ScreenshotsOptions } from "./plugins/sections/screenshots.ts";
export { historySection } from "./plugins/sections/history.ts";
export type { HistoryOptions } from "./plugins/sections/history.ts";
export {
  beadsSection,
  compareIds,
  renderBeads,
  trimDescription,
} from "./plugins/sections/beads.ts";
export type { BeadsIssue, BeadsOptions } from "./plugins/sections/beads.ts";
export { knowledgeBlockText, knowledgeSection } from "./plugins/sections/knowledge.ts";
export type { KnowledgeOptions } from "./plugins/sections/knowledge.ts";
export {
  DIGEST_MAX_BYTES,
  DIGEST_SECTIONS,
  regenerateDigest,
  renderDigest,
  TRUNCATION_NOTE,
} from "./knowledge/digest.ts";
export type { DigestResult, DigestSection } from "./knowledge/digest.ts";
export {
  basicScrubber,
  harvestKnowledge,
  inputPrice,
  MAX_HARVEST_SOURCE_BYTES,
  SUMMARIZE_THRESHOLD_BYTES,
} from "./knowledge/harvest.ts";
export type {
  HarvestAction,
  HarvestOptions,
  HarvestOutcome,
  HarvestReport,
  InputPrice,
  PlannedConversation,
  SecretScrubber,
} from "./knowledge/harvest.ts";
export type { Ledger, LedgerEntry, LedgerStatus } from "./knowledge/ledger.ts";
export type { ItemCategory } from "./knowledge/store.ts";
export { stableToVolatileOrdering } from "./plugins/ordering/stable_to_volatile.ts";
export type { StableToVolatileOptions } from "./plugins/ordering/stable_to_volatile.ts";
export { volatilityOrdering } from "./plugins/ordering/volatility.ts";
export type { VolatilityOptions } from "./plugins/ordering/volatility.ts";
export {
  isFileBlock,
  loadPreviousOrder,
  orderFiles,
  orderStatePath,
  writeOrderState,
} from "./pipeline/order_memory.ts";
export type { OrderOrigin, PreviousOrder, PreviousOrderOptions } from "./pipeline/order_memory.ts";
export { pinBlocks, pinnedOrdering } from "./plugins/ordering/pinned.ts";
export type { PinnedOptions } from "./plugins/ordering/pinned.ts";
export { loadGlobs } from "./deps.ts";
export type { GlobOptions } from "./pipeline/paths.ts";
export {
  advanceOrder,
  changePool,
  changeProbability,
  fileContentKey,
  reorderState,
  sortBySizeAndVolatility,
} from "./pipeline/order_state.ts";
export type {
  OrderEntry,
  OrderFile,
  OrderSeed,
  OrderState,
  OrderStep,
  VolatilitySortOptions,
} from "./pipeline/order_state.ts";
export {
  diffLock,
  formatLock,
  LockError,
  lockFromBlocks,
  orderStateFromLock,
  parseLock,
  readLock,
} from "./pipeline/lock.ts";
export type { DivergenceKind, Lock, LockDiff, LockLine } from "./pipeline/lock.ts";
export { checkPrefix, invalidationCosts, lockOf } from "./pipeline/pin.ts";
export type { CheckPrefixOptions, InvalidationCost, PrefixCheck } from "./pipeline/pin.ts";
export { assertStablePrefix, prefixTable } from "./api/testing.ts";
export type { StablePrefixOptions } from "./api/testing.ts";
export { buildFiles, renderView } from "./api/plugin_testing.ts";
export type { RenderedView, RenderViewOptions } from "./api/plugin_testing.ts";
export type { BuildProgress } from "./pipeline/build.ts";
export { FORMAT_EXTENSIONS, formatBlocks } from "./pipeline/formats.ts";
export { renderTree, treeSection } from "./plugins/sections/tree.ts";
export type { TreeOptions } from "./plugins/sections/tree.ts";
export { LIST_HEADING, listedLine, taskSection } from "./plugins/sections/task.ts";
export type { TaskOptions } from "./plugins/sections/task.ts";
export {
  DEFAULT_MAP_FULL,
  DEFAULT_MAP_TOKENS,
  DEFAULT_TASK_SHARE,
  fitTask,
  mapConfig,
  mapKept,
  mapTokens,
  MAX_TASK_FILES,
  taskHistory,
  taskShareOf,
  UNBUDGETED_FILES,
} from "./pipeline/task.ts";
export type { FitTaskOptions, FitTaskResult, TaskHistory } from "./pipeline/task.ts";
export { computeStats, TOKENIZERS } from "./report/stats.ts";
export type {
  ComputeStatsOptions,
  ContextStats,
  FileStats,
  SectionStats,
  TokenCounts,
} from "./report/stats.ts";
export { renderReport } from "./report/html.ts";
export type { ReportOptions } from "./report/html.ts";
export { completer } from "./pipeline/llm.ts";
export type { CompleterOptions } from "./pipeline/llm.ts";
export { changeCounts, fitBudget, LADDER, LISTED, totalTokens } from "./pipeline/budget.ts";
export type { FitOptions, FitResult } from "./pipeline/budget.ts";
export { changedSince, SinceError } from "./pipeline/since.ts";
export { PathsError } from "./pipeline/resolve.ts";
export { tierDefaultView, unmatchedFocus } from "./pipeline/personas.ts";
export type { Tier } from "./pipeline/personas.ts";
export { anthropicProvider } from "./plugins/providers/anthropic.ts";
export type { AnthropicOptions } from "./plugins/providers/anthropic.ts";
export { openaiProvider } from "./plugins/providers/openai.ts";
export type { OpenaiOptions } from "./plugins/providers/openai.ts";
export { geminiProvider } from "./plugins/providers/gemini.ts";
export type { GeminiOptions } from "./plugins/providers/gemini.ts";
export { deepseekProvider } from "./plugins/providers/deepseek.ts";
export type { DeepseekOptions } from "./plugins/providers/deepseek.ts";
export type {
  HttpOptions,
  ModelEntry,
  ModelOverrides,
  PayloadOptions,
} from "./plugins/providers/types.ts";
export { anthropicPayload } from "./plugins/providers/anthropic.ts";
export type { AnthropicBody, AnthropicContent } from "./plugins/providers/anthropic.ts";
export { openaiPayload } from "./plugins/providers/openai.ts";
export type {
  OpenaiBody,
  OpenaiContent,
  OpenaiPayloadOptions,
} from "./plugins/providers/openai.ts";
export { geminiPayload } from "./plugins/providers/gemini.ts";
export type { GeminiPart, GeminiPayload } from "./plugins/providers/gemini.ts";
export { breakpointsOrdering, chooseBreakpoints } from "./plugins/ordering/breakpoints.ts";
export type { BreakpointsOptions, ChooseOptions } from "./plugins/ordering/breakpoints.ts";
export { callCost, lookupModel, modelTokens, planCache } from "./pipeline/cache_plan.ts";
export type { CachePlan, CallCost } from "./pipeline/cache_plan.ts";
export { cacheKey, cacheStats, canonicalJson, clearCache, openCache } from "./pipeline/cache.ts";
export type {
  Cache,
  CacheCounts,
  CacheOptions,
  CacheStats,
  LastBuildStats,
} from "./pipeline/cache.ts";
export { redactText, SecretsFoundError } from "./pipeline/secrets.ts";
export type { Redaction, RedactOptions } from "./pipeline/secrets.ts";
export { DEFAULT_WEIGHTS, OTHER_FILES, rankFiles } from "./pipeline/rank.ts";
export type {
  RankedFile,
  RankInput,
  RankOptions,
  RankReason,
  RankWeights,
} from "./pipeline/rank.ts";
export {
  CO_CHANGE_COMMITS,
  coChangeFromLog,
  coChangeScores,
  recentHistory,
} from "./pipeline/co_change.ts";
export type { CoChangeOptions, HistoryCommit } from "./pipeline/co_change.ts";
export { definedNames } from "./plugins/view_modes/code_views.ts";
