/**
 * Transform stage: pick each file's view (first match wins) and render it
 * with the view mode plugin. A plugin that throws yields an error block
 * naming the plugin and the file; the build goes on.
 *
 * @module
 */

import { extname } from "./_path.ts";
import { dataReason, translationReason } from "./data_files.ts";
import { wordsTellLanguage } from "./extension.ts";
import { callHook, findViewMode, loadPlugins, type Registry } from "./registry.ts";
import { dedupOutput } from "./dedup.ts";
import { type Cache, openCache } from "./cache.ts";
import { cachedRender, type KeepText, packedText } from "./_view_cache.ts";
import { lazyCopy, type TextBacking, textBacking, textMarks } from "./lazy_text.ts";
import { bidiControls, bidiNote } from "./bidi_controls.ts";
import { chooseView, NOTEBOOK_VIEW, summarizedAsData } from "./_transform_view_choice.ts";
import { focusOf, loadFocusGlobs } from "./_transform_focus.ts";
import { languageOf } from "./_transform_language.ts";

export type { KeepText, KeptBytes } from "./_view_cache.ts";
export { chooseView } from "./_transform_view_choice.ts";
export { focusMatcher, focusOf, loadFocusGlobs } from "./_transform_focus.ts";
export { languageOf } from "./_transform_language.ts";
import { lazyInput } from "./_lazy_input.ts";
import type {
  CompleteFn,
  Logger,
  RenderedFile,
  ResolvedConfig,
  SourceFile,
  Store,
  ViewContext,
  ViewInput,
  ViewModePlugin,
  ViewOutput,
} from "./types.ts";

/** The view used when a view mode does not accept a file. */
const FALLBACK_VIEW = "summary";

/** Views that fall back to {@linkcode FALLBACK_VIEW} when they are not installed. */
const GRAMMAR_VIEWS = ["skeleton", "outline"];

/** Options of {@linkcode transformFiles}. */
export interface TransformOptions extends Logger {
  /** Asks the configured provider (for LLM view modes). */
  complete: CompleteFn;
  /** Hook timeout in ms. @default {60000} */
  timeoutMs?: number;
  /** Called as each file finishes (in completion order), for progress reports. */
  onFile?: (file: RenderedFile) => void;
  /** Render a file with this view instead of the one {@linkcode chooseView} picks (budget step-downs). */
  viewOf?: (file: SourceFile) => string | undefined;
  /** The content-hash cache for rendered views (see `pipeline/cache.ts`). */
  cache?: Cache;
  /** The plugins' store (`ctx.store`). @default {the cache folder, opened when first used} */
  store?: Store;
}

/** Options of {@linkcode renderFile}: the stage's, and how a cache hit's text is decoded. */
export interface RenderOptions extends Omit<TransformOptions, "onFile"> {
  /**
   * Keep a cache hit's text where the cache has it (a pack's record), read again when used,
   * instead of decoding it.
   * @default {undefined} every hit's text decoded
   */
  keepText?: KeepText;
}

/** One file rendered by {@linkcode renderFile}. */
export interface Render {
  /** The rendered file (or the file with its problem: read error, skipped, render error). */
  file: RenderedFile;
  /** The view's output it was made from; `undefined` when no view rendered the file. */
  output?: ViewOutput;
  /** The warnings its render gave (told through `warn` too). */
  warnings: string[];
  /**
   * The view cache's key of `output`, when the cache has it (a hit) or was given it (a miss
   * stored): where {@linkcode packedRenderText} finds its text once the cache's writes are done.
   */
  cacheKey?: string;
}

/**
 * What every file's render shares: which files are focus files (focus globs loaded first) and the
 * plugins' store.
 *
 * @example
 * ```ts
 * import { renderSetup } from "./transform.ts";
 * // const { isFocus, options: ready } = await renderSetup(files, config, options);
 * ```
 */
export async function renderSetup<T extends TransformOptions>(
  files: SourceFile[],
  config: ResolvedConfig,
  options: T,
): Promise<{ isFocus: (path: string) => boolean; options: T }> {
  await loadFocusGlobs(config);
  const isFocus = focusOf(config, files.map((f) => f.path));
  return { isFocus, options: { ...options, store: options.store ?? pluginStore(config) } };
}

/**
 * The view a file is rendered with: `viewOf`'s, else {@linkcode chooseView}'s.
 *
 * @example
 * ```ts
 * import { viewFor } from "./transform.ts";
 * // viewFor(file, { config, isFocus: isFocus(file.path) }, options) === "full"
 * ```
 */
export function viewFor(
  file: SourceFile,
  { config, isFocus }: { config: ResolvedConfig; isFocus: boolean },
  options: Pick<TransformOptions, "viewOf"> = {},
): string {
  return options.viewOf?.(file) ?? chooseView(file, config, isFocus);
}

/** The file a view rendered (`out`), its text kept lazy when the view cache kept it so. */
function renderedFile(
  base: Pick<RenderedFile, "path" | "language">,
  file: SourceFile,
  out: ViewOutput,
  { view, cache }: { view: string; cache: "hit" | "miss" },
): RenderedFile {
  // A text kept where the cache has it (`keepText`) stays there: it is not read here.
  const kept = textBacking(out);
  const result: RenderedFile = {
    ...base,
    // A late read may have found the file changed (and redacted): its hash is the one rendered.
    sha256: file.sha256,
    bytes: file.size,
    language: out.language ?? base.language,
    view: out.view ?? view,
    status: "rendered",
    text: kept ? "" : out.text,
    fenced: out.fenced ?? true,
    notes: notesOf(file, out, kept),
    ...(out.fallback ? { fallback: out.fallback } : {}),
    cache,
  };
  // A copy: turning `result.text` into the lazy accessor would make it a dictionary (`lazyCopy`).
  return kept ? lazyCopy(result, kept) : result;
}

/**
 * The notes of a file's render: `empty file` first, the view's, then its text's bidirectional
 * controls (a kept text's noted where it is kept, so it is not read for them).
 */
function notesOf(file: SourceFile, out: ViewOutput, kept: TextBacking | undefined) {
  const bidi = kept ? (kept.marks ?? textMarks(kept.read())).bidi : bidiControls(out.text);
  const notes = [
    ...(file.size === 0 ? ["empty file"] : []),
    ...(out.notes ?? []),
    ...(bidi ? [bidiNote(bidi)] : []),
  ];
  return notes.length ? notes : undefined;
}

/**
 * Render every file with its view. Files with read problems keep them.
 *
 * @example
 * ```ts
 * import { transformFiles } from "./transform.ts";
 * // const rendered = await transformFiles(files, config, registry, { warn: console.warn });
 * ```
 */
export async function transformFiles(
  files: SourceFile[],
  config: ResolvedConfig,
  registry: Registry,
  options: TransformOptions,
): Promise<RenderedFile[]> {
  const ready = await renderSetup(files, config, options);
  return await Promise.all(files.map(async (file) => {
    const { file: rendered } = await renderFile(
      file,
      { config, registry, isFocus: ready.isFocus(file.path) },
      ready.options,
    );
    options.onFile?.(rendered);
    return rendered;
  }));
}

/**
 * Render one file with its view ({@linkcode viewFor}), through the cache when one is given: the
 * rendered file, the view's output and the warnings the render gave. A file with a read problem,
 * or with `autoAggregate: false`, is not rendered; a view that throws gives an error file.
 *
 * @example
 * ```ts
 * import { renderFile } from "./transform.ts";
 * // const { file, output } = await renderFile(source, { config, registry, isFocus: false }, options);
 * ```
 */
export async function renderFile(
  file: SourceFile,
  { config, registry, isFocus }: { config: ResolvedConfig; registry: Registry; isFocus: boolean },
  options: RenderOptions,
): Promise<Render> {
  const base = {
    path: file.path,
    sha256: file.sha256,
    bytes: file.size,
    language: languageOf(file.path),
    fenced: true,
  };
  const warnings: string[] = [];
  const unrendered = unrenderedFile(file, config, base);
  if (unrendered) return { file: unrendered, warnings };
  const view = viewFor(file, { config, isFocus }, options);
  // Not read by the read stage (unchanged since the last build): read only if a view needs it.
  const lazy = lazyInput(file, normalizeNewlines);
  const warn = (message: string) => {
    warnings.push(message);
    options.warn(message);
  };
  const input: ViewInput = lazy?.input ?? {
    path: file.path,
    absPath: file.absPath,
    text: normalizeNewlines(file.text ?? ""),
    sha256: file.sha256,
  };
  try {
    const args = { view, input, file, config, registry, lazy };
    const rendered = await renderCached(args, options, warn);
    const { cache, key } = rendered;
    // A data file summarized by default says so on its summary's first line (a text of its own,
    // not the cached render's: no cache key to find it by).
    const byDefault = view === "summary" && summarizedAsData(file, config, isFocus);
    const output = byDefault ? byDefaultOutput(file, rendered.output) : rendered.output;
    const made = renderedFile(base, file, output, { view, cache });
    return { file: made, output, warnings, ...(byDefault ? {} : { cacheKey: key }) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    options.warn(detail);
    return {
      file: {
        ...base,
        view,
        status: "error",
        reason: detail,
        text: `ERROR in ${view} view mode for ${file.path}: ${detail}`,
      },
      warnings,
    };
  }
}

/**
 * The summary of a file summarized by default, its reason first. A translation's is its first two
 * rows (what it is, its keys or first messages): the rest of its shape is its English file's,
 * shown whole.
 */
function byDefaultOutput(file: SourceFile, out: ViewOutput): ViewOutput {
  if (file.translationOf === undefined) {
    return withReason(out, dataReason(file.size, file.dataLimit));
  }
  const rows = out.text.split("\n");
  const brief = rows.length > 2 ? { ...out, text: rows.slice(0, 2).join("\n") } : out;
  return withReason(brief, translationReason(file.translationOf));
}

/** A view's output with `reason` as its first line and first note (its text read). */
function withReason(out: ViewOutput, reason: string): ViewOutput {
  return {
    text: `(${reason})\n\n${out.text}`,
    ...(out.fenced !== undefined ? { fenced: out.fenced } : {}),
    ...(out.view !== undefined ? { view: out.view } : {}),
    ...(out.language !== undefined ? { language: out.language } : {}),
    ...(out.fallback !== undefined ? { fallback: out.fallback } : {}),
    notes: [reason, ...(out.notes ?? [])],
  };
}

/**
 * The text of the render the cache keeps under `key` ({@linkcode Render.cacheKey}), where the
 * cache's pack has it now, handed to `keep` as a cache hit's text is (`RenderOptions.keepText`):
 * for a render whose text was kept elsewhere until the cache's writes were done (a cold build
 * writes its pack after it). `undefined` when the pack does not hold it whole and checked.
 *
 * @example
 * ```ts
 * import { packedRenderText } from "./transform.ts";
 * // const backing = packedRenderText(cache, render.cacheKey!, (bytes, place) => keep(bytes, place));
 * ```
 */
export function packedRenderText(
  cache: Cache,
  key: string,
  keep: KeepText,
): TextBacking | undefined {
  return packedText(cache, key, keep);
}

/** A file that is not rendered: its read problem, or `autoAggregate: false`; else `undefined`. */
function unrenderedFile(
  file: SourceFile,
  config: ResolvedConfig,
  base: Pick<RenderedFile, "path" | "sha256" | "bytes" | "language" | "fenced">,
): RenderedFile | undefined {
  if (file.error) {
    return {
      ...base,
      view: file.entry.view ?? config.defaultView,
      status: file.error.status,
      reason: file.error.reason,
      // The seed renders a missing file as an error line in the document.
      text: file.error.status === "error" ? `ERROR: ${file.error.reason}: ${file.path}` : undefined,
    };
  }
  if (file.entry.autoAggregate === false) {
    return {
      ...base,
      view: file.entry.view ?? "full",
      status: "skipped",
      reason: "autoAggregate is false",
    };
  }
  return undefined;
}

/**
 * The view's output through the cache (`hit`: as stored), or rendered now (`miss`); `warn` takes
 * the render's warnings, a hit's replayed ones too (the `cacheKey` hook's and `renderAs`'s go to
 * the options' `warn` alone).
 */
async function renderCached(
  { view, input, file, config, registry, lazy }: {
    view: string;
    input: ViewInput;
    file: SourceFile;
    config: ResolvedConfig;
    registry: Registry;
    lazy?: ReturnType<typeof lazyInput>;
  },
  options: RenderOptions,
  warn: (message: string) => void,
): Promise<{ output: ViewOutput; cache: "hit" | "miss"; key?: string }> {
  // Deduplicated as it is rendered: the cache keeps the output views are given (its key has
  // the entry's `dedup`), so a cache hit costs no scan for blobs.
  const render = async (warn: (message: string) => void, used: Set<string>) => {
    await lazy?.load();
    const output = await renderView(view, {
      input,
      file,
      config,
      registry,
      options: { ...options, warn },
      seen: used,
    });
    const told = wordsTellLanguage(input.path) ? languageOf(input.path, input.text) : undefined;
    // A lone surrogate from config text (a slice's tag) is U+FFFD, as the cache gives it back.
    const text = output.text.isWellFormed() ? output.text : output.text.toWellFormed();
    const deduped = dedupOutput(text === output.text ? output : { ...output, text }, file.entry);
    return told && told !== languageOf(input.path) ? { ...deduped, language: told } : deduped;
  };
  if (!options.cache) return { output: await render(warn, new Set()), cache: "miss" };
  return await cachedRender(options.cache, {
    view,
    input,
    entry: file.entry,
    registry,
    warn,
    timeoutMs: options.timeoutMs,
    render,
    lazy,
    keepText: options.keepText,
    context: () =>
      viewContext({ input, file, config, registry, options, seen: new Set() }, async (other) => {
        await lazy?.load();
        return await renderView(other, { input, file, config, registry, options, seen: new Set() });
      }),
  });
}

/**
 * CRLF and lone CR become LF (policy: documents are LF-only; hashes stay of the raw bytes).
 *
 * @example
 * ```ts
 * import { normalizeNewlines } from "./transform.ts";
 * normalizeNewlines("a\r\nb\rc\n"); // "a\nb\nc\n"
 * ```
 */
export function normalizeNewlines(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** What rendering a file's view needs; `seen`: the view modes this render went through. */
interface ViewJob {
  input: ViewInput;
  file: SourceFile;
  config: ResolvedConfig;
  registry: Registry;
  options: TransformOptions;
  seen: Set<string>;
}

/** The context a view mode renders `job`'s file with; `renderAs` renders it with another view. */
function viewContext(job: ViewJob, renderAs: ViewContext["renderAs"]): ViewContext {
  const { file, config, options } = job;
  return {
    options: { ...file.entry.options },
    entry: file.entry,
    config,
    warn: options.warn,
    complete: options.complete,
    renderAs,
    store: options.store ?? pluginStore(config),
  };
}

/**
 * Render `job`'s file with the view mode `view`: its fallback's output (noted) when the view is
 * not installed or does not take the file; an error when it falls back to itself.
 */
async function renderView(view: string, job: ViewJob): Promise<ViewOutput> {
  const { input, file, registry, options, seen } = job;
  const plugin = findViewMode(registry, view);
  if (!plugin && GRAMMAR_VIEWS.includes(view)) {
    // Tier 3 picks `skeleton` even when no grammar view is installed: fall back like an unsupported file.
    const out = await renderView(FALLBACK_VIEW, job);
    const note = `${view} is not installed: fell back to ${FALLBACK_VIEW}`;
    return { ...out, view: out.view ?? FALLBACK_VIEW, notes: [note, ...(out.notes ?? [])] };
  }
  if (!plugin && view === NOTEBOOK_VIEW && !file.entry.view) {
    // A registry without the view (a library's own list) shows a notebook as before: its text.
    const out = await renderView("full", job);
    const note = `${view} is not installed: fell back to full`;
    return { ...out, view: out.view ?? "full", notes: [note, ...(out.notes ?? [])] };
  }
  if (!plugin) throw new Error(`Unknown view mode "${view}" for "${file.path}"`);
  const loading = loadPlugins([plugin]);
  if (loading) await loading;
  if (seen.has(plugin.name)) {
    throw new Error(`View mode "${view}" falls back to itself for "${file.path}"`);
  }
  seen.add(plugin.name);
  if (!accepts(plugin, file.path, input) && view !== FALLBACK_VIEW) {
    const out = await renderView(FALLBACK_VIEW, job);
    const shortName = plugin.name.replace(/^slop:/, "");
    return {
      ...out,
      view: out.view ?? FALLBACK_VIEW,
      notes: [
        `${shortName} does not support "${
          extname(file.path) || file.path
        }": fell back to ${FALLBACK_VIEW}`,
        ...(out.notes ?? []),
      ],
    };
  }
  const ctx = viewContext(job, (other) => renderView(other, job));
  const result = await callHook(plugin, "render", () => plugin.render(input, ctx), {
    path: file.path,
    timeoutMs: plugin.timeoutMs ?? options.timeoutMs,
  });
  if (typeof result === "string") return { text: result };
  if (typeof result !== "object" || result === null || typeof result.text !== "string") {
    throw new Error(
      `[plugin ${plugin.name}] Hook "render" returned ${
        result === null ? "null" : typeof result
      } for "${file.path}": expected a string or { text }`,
    );
  }
  return result;
}

function accepts(plugin: ViewModePlugin, path: string, input: ViewInput): boolean {
  if (plugin.accepts) return plugin.accepts(path, input.text);
  if (!plugin.extensions) return true;
  const ext = extname(path).toLowerCase();
  return plugin.extensions.includes(ext);
}

/**
 * The store view plugins get (`ctx.store`): the cache folder, opened on first
 * use apart from the build's view cache (`--no-cache` turns both off).
 */
function pluginStore(config: ResolvedConfig): Store {
  let cache: Cache | undefined;
  const open = () => (cache ??= openCache(config.cache.dir, { enabled: config.cache.enabled }));
  return {
    get: (key) => open().get(key),
    set: (key, value) => open().set(key, value),
  };
}
