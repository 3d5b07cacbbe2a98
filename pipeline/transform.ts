/**
 * Transform stage: pick each file's view (first match wins) and render it
 * with the view mode plugin. A plugin that throws yields an error block
 * naming the plugin and the file; the build goes on.
 *
 * `transformFiles()` renders every file with `renderFile()`, whose steps
 * read in order: the file not rendered (`_transform_rendered.ts`), its view
 * (`viewFor`: `_transform_view_choice.ts`, focus files by
 * `_transform_focus.ts`), its input (read now if the read stage left it
 * unread, `_lazy_input.ts`), its render through the cache
 * (`_transform_render.ts`), and the rendered file (`_transform_rendered.ts`;
 * its fence language, `_transform_language.ts`). At most a window of files render at once
 * (`_render_window.ts`).
 *
 * @module
 */

import type { Registry } from "./registry.ts";
import type { Cache } from "./cache.ts";
import { type KeepText, packedText } from "./_view_cache.ts";
import type { TextBacking } from "./lazy_text.ts";
import { lazyInput } from "./_lazy_input.ts";
import { chooseView, summarizedAsData } from "./_transform_view_choice.ts";
import { focusOf, loadFocusGlobs } from "./_transform_focus.ts";
import { languageOf } from "./_transform_language.ts";
import { byDefaultOutput, renderedFile, unrenderedFile } from "./_transform_rendered.ts";
import { pluginStore, renderCached } from "./_transform_render.ts";
import type { CachedRender } from "./_view_cache.ts";
import { eachInWindow, warningsInOrder } from "./_render_window.ts";
import { isClockError } from "./helpers.ts";
import type {
  CompleteFn,
  Logger,
  RenderedFile,
  ResolvedConfig,
  SourceFile,
  Store,
  ViewInput,
  ViewOutput,
} from "./types.ts";

export type { KeepText, KeptBytes } from "./_view_cache.ts";
export { chooseView } from "./_transform_view_choice.ts";
export { focusHits, focusMatcher, focusOf, loadFocusGlobs } from "./_transform_focus.ts";
export { languageOf } from "./_transform_language.ts";
export {
  eachInWindow,
  type OrderedWarnings,
  RENDER_WINDOW,
  warningsInOrder,
  type WindowOptions,
} from "./_render_window.ts";

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

/**
 * Render every file with its view, {@linkcode RENDER_WINDOW} at once ({@linkcode eachInWindow}),
 * in the files' order. Files with read problems keep them.
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
  const out = new Array<RenderedFile>(files.length);
  // Warnings in the files' order, however the renders end: the manifest lists them so.
  const order = warningsInOrder(files.length, ready.options.warn);
  await eachInWindow(files.length, async (i) => {
    const file = files[i];
    const place = { config, registry, isFocus: ready.isFocus(file.path) };
    const { file: rendered } = await renderFile(file, place, {
      ...ready.options,
      warn: order.warnOf(i),
    });
    order.done(i);
    options.onFile?.(rendered);
    out[i] = rendered;
  });
  return out;
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
  place: { config: ResolvedConfig; registry: Registry; isFocus: boolean },
  options: RenderOptions,
): Promise<Render> {
  return await renderSoon(file, place, options);
}

/**
 * {@linkcode renderFile}'s render, given at once (not a promise) when nothing is rendered: a file
 * not rendered, or a cache hit the cache answers at once (`cachedRender`). A warm build takes
 * most of a big tree's files so, with no task turn for each.
 *
 * @example
 * ```ts
 * import { renderSoon } from "./transform.ts";
 * // const render = renderSoon(source, { config, registry, isFocus: false }, options);
 * // const { file } = render instanceof Promise ? await render : render;
 * ```
 */
export function renderSoon(
  file: SourceFile,
  { config, registry, isFocus }: { config: ResolvedConfig; registry: Registry; isFocus: boolean },
  options: RenderOptions,
): Render | Promise<Render> {
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
  const made = { base, file, config, isFocus, view, warnings };
  try {
    const rendered = renderCached({ view, input, file, config, registry, lazy }, options, warn);
    if (!(rendered instanceof Promise)) return renderOf(made, rendered);
    // The output made into the file inside the catch, as a value's is.
    return rendered.then((done) => renderOf(made, done)).catch((error) =>
      failedRender(made, error, options)
    );
  } catch (error) {
    return failedRender(made, error, options);
  }
}

/** What a file's render is made into: its base record, its view, its warnings. */
interface Made {
  base: Omit<RenderedFile, "view" | "status">;
  file: SourceFile;
  config: ResolvedConfig;
  isFocus: boolean;
  view: string;
  warnings: string[];
}

/** The rendered file of a view's output through the cache. */
function renderOf(made: Made, rendered: CachedRender): Render {
  const { base, file, config, isFocus, view, warnings } = made;
  const { cache, key } = rendered;
  // A data file summarized by default says so on its summary's first line (a text of its own,
  // not the cached render's: no cache key to find it by).
  const byDefault = view === "summary" && summarizedAsData(file, config, isFocus);
  const output = byDefault ? byDefaultOutput(file, rendered.output) : rendered.output;
  const done = renderedFile(base, file, output, { view, cache });
  return byDefault
    ? { file: done, output, warnings }
    : { file: done, output, warnings, cacheKey: key };
}

/** A render that failed: an error file (a clock's stop fails the build). */
function failedRender(made: Made, error: unknown, options: RenderOptions): Render {
  // A render a clock stopped fails the build: an error block would make the document depend
  // on the machine's speed.
  if (isClockError(error)) throw error;
  const { base, view, file, warnings } = made;
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
