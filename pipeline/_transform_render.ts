/**
 * One file's render with a view mode: through the view cache or now
 * (`renderCached`), the view mode found, loaded and called with its context
 * (`renderView`), its fallbacks (a view not installed or not taking the
 * file: `summary`, or `full` for a notebook), its output deduplicated and its
 * language told by its words; and the plugins' store (`ctx.store`).
 *
 * @module
 */

import { extname } from "./_path.ts";
import { wordsTellLanguage } from "./extension.ts";
import { callHook, findViewMode, isUserPlugin, loadPlugins, type Registry } from "./registry.ts";
import { dedupOutput } from "./dedup.ts";
import { hookErrorText } from "./error_text.ts";
import {
  frozenConfig,
  frozenCopy,
  guardedStore,
  pluginWarn,
  readTracked,
} from "./_plugin_context.ts";
import { quote } from "./schema.ts";
import { type Cache, openCache } from "./cache.ts";
import { type CachedRender, cachedRender, type KeepText } from "./_view_cache.ts";
import type { lazyInput } from "./_lazy_input.ts";
import { languageOf } from "./_transform_language.ts";
import { NOTEBOOK_VIEW } from "./_transform_view_choice.ts";
import type {
  CompleteFn,
  Logger,
  ResolvedConfig,
  SourceFile,
  Store,
  ViewContext,
  ViewInput,
  ViewModePlugin,
  ViewOutput,
} from "./types.ts";

/**
 * What a render takes of the stage's options (`TransformOptions` and `RenderOptions` of
 * `transform.ts`).
 */
interface ViewOptions extends Logger {
  /** Asks the configured provider (for LLM view modes). */
  complete: CompleteFn;
  /** Hook timeout in ms. @default {60000} */
  timeoutMs?: number;
  /** The content-hash cache for rendered views. */
  cache?: Cache;
  /** The plugins' store (`ctx.store`). @default {the cache folder, opened when first used} */
  store?: Store;
  /** Keep a cache hit's text where the cache has it. @default {undefined} */
  keepText?: KeepText;
}

/** The view used when a view mode does not accept a file. */
const FALLBACK_VIEW = "summary";

/** Views that fall back to {@linkcode FALLBACK_VIEW} when they are not installed. */
const GRAMMAR_VIEWS = ["skeleton", "outline"];

/**
 * The view's output through the cache (`hit`: as stored, at once when the cache answers so), or
 * rendered now (`miss`); `warn` takes
 * the render's warnings, a hit's replayed ones too (the `cacheKey` hook's and `renderAs`'s go to
 * the options' `warn` alone).
 *
 * @example
 * ```ts
 * import { renderCached } from "./_transform_render.ts";
 * // const { output, cache } = await renderCached({ view, input, file, config, registry }, options, warn);
 * ```
 */
export function renderCached(
  { view, input, file, config, registry, lazy }: {
    view: string;
    input: ViewInput;
    file: SourceFile;
    config: ResolvedConfig;
    registry: Registry;
    lazy?: ReturnType<typeof lazyInput>;
  },
  options: ViewOptions,
  warn: (message: string) => void,
): CachedRender | Promise<CachedRender> {
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
  if (!options.cache) return render(warn, new Set()).then((output) => ({ output, cache: "miss" }));
  return cachedRender(options.cache, {
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
      viewContext(
        { input, file, config, registry, options, seen: new Set() },
        async (other) => {
          await lazy?.load();
          return await renderView(other, {
            input,
            file,
            config,
            registry,
            options,
            seen: new Set(),
          });
        },
        findViewMode(registry, view),
      ),
  });
}

/** What rendering a file's view needs; `seen`: the view modes this render went through. */
interface ViewJob {
  input: ViewInput;
  file: SourceFile;
  config: ResolvedConfig;
  registry: Registry;
  options: ViewOptions;
  seen: Set<string>;
}

/**
 * The context `plugin` renders `job`'s file with; `renderAs` renders it with another view. A
 * config's plugin's `warn` and `store` are guarded, its `config` and `entry` frozen copies
 * (`_plugin_context.ts`).
 */
function viewContext(
  job: ViewJob,
  renderAs: ViewContext["renderAs"],
  plugin: ViewModePlugin | undefined,
): ViewContext {
  const { file, config, options } = job;
  const store = options.store ?? pluginStore(config);
  const user = plugin !== undefined && isUserPlugin(plugin);
  return {
    options: { ...factoryOptions(plugin), ...file.entry.options },
    // A config's plugin sees frozen copies: one that sets a field fails, naming it.
    entry: user ? frozenCopy(file.entry) : file.entry,
    config: user ? frozenConfig(config) : config,
    warn: user ? pluginWarn(plugin.name, options.warn) : options.warn,
    complete: options.complete,
    renderAs,
    store: user ? guardedStore(store) : store,
  };
}

/**
 * The options a view mode's factory put on its `options` field, which an entry's `options` go
 * over in `ctx.options` (they were left out: a factory's options reached `ctx.options` only
 * through a closure). Options that are not an object of keys (an array, a string) are the
 * plugin's own business, seen by its cache key alone.
 */
function factoryOptions(plugin: ViewModePlugin | undefined): Record<string, unknown> {
  const own = plugin?.options;
  return typeof own === "object" && own !== null && !Array.isArray(own) ? { ...own } : {};
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
  const ctx = viewContext(job, (other) => renderView(other, job), plugin);
  // The entry's options of a config's view, when it is the entry's own view (not a fallback).
  const tracked = isUserPlugin(plugin) && seen.size === 1 ? entryOptionKeys(file) : [];
  const reads = tracked.length ? readTracked(ctx.options) : undefined;
  if (reads) ctx.options = reads.options;
  const result = await callHook(plugin, "render", () => plugin.render(input, ctx), {
    path: file.path,
    timeoutMs: plugin.timeoutMs ?? options.timeoutMs,
  });
  if (reads) warnUnread(tracked, reads.read, { plugin: plugin.name, file, warn: options.warn });
  return viewOutput(result, plugin.name, { path: file.path, copied: isUserPlugin(plugin) });
}

/** The keys of `file`'s entry's `options`, when they are an object of keys. */
function entryOptionKeys(file: SourceFile): string[] {
  const own = file.entry.options;
  return typeof own === "object" && own !== null && !Array.isArray(own) ? Object.keys(own) : [];
}

/**
 * A warning for each key of an entry's `options` the view's render never read: it changed nothing
 * (most often a misspelled key), which slop cannot check for a view of the config's own.
 */
function warnUnread(
  keys: string[],
  read: Set<string>,
  { plugin, file, warn }: { plugin: string; file: SourceFile; warn: (message: string) => void },
): void {
  const unread = keys.filter((key) => !read.has(key));
  if (!unread.length) return;
  const readKeys = keys.filter((key) => read.has(key)).map(quote).join(", ") || "none of them";
  for (const key of unread) {
    warn(
      `[plugin ${plugin}] Option ${
        quote(key)
      } of the entry for "${file.path}" was never read by the view (it read ${readKeys})`,
    );
  }
}

/** A view output's fields and the types each may have (`types.ts`'s `ViewOutput`). */
const OUTPUT_FIELDS: Record<string, string> = {
  text: "string",
  fenced: "boolean",
  view: "string",
  language: "string",
  notes: "strings",
  fallback: "string",
  cacheable: "boolean",
};

/**
 * A render's result (`copied`: a config's plugin's) read once into a plain output: a getter is
 * called once (one that throws was
 * slop's own error naming no plugin, one that changed gave the block another text than the one
 * checked), and a field of another type is an error naming the plugin (`notes: [5]` ended the
 * build as an internal error).
 */
function viewOutput(
  result: unknown,
  plugin: string,
  { path, copied }: { path: string; copied: boolean },
): ViewOutput {
  if (typeof result === "string") return { text: result };
  const fail = (what: string, why: string) =>
    new Error(`[plugin ${plugin}] Hook "render" returned ${what} for "${path}": ${why}`);
  if (typeof result !== "object" || result === null) {
    throw fail(result === null ? "null" : typeof result, "expected a string or { text }");
  }
  // slop's own views' outputs are plain objects, checked as they are (no copy for each file).
  let out = result as Record<string, unknown>;
  try {
    if (copied) {
      out = { ...out };
      for (const key of Object.keys(OUTPUT_FIELDS)) {
        if (!Object.hasOwn(result, key) && key in result) out[key] = (result as never)[key];
      }
      if (Array.isArray(out.notes)) out.notes = Array.from(out.notes as unknown[]);
    }
  } catch (error) {
    throw fail(
      "an output that cannot be read",
      hookErrorText(error),
    );
  }
  if (typeof out.text !== "string") throw fail("object", "expected a string or { text }");
  for (const [key, type] of Object.entries(OUTPUT_FIELDS)) {
    const value = out[key];
    const ok = value === undefined ||
      (type === "strings"
        ? Array.isArray(value) && value.every((v) => typeof v === "string")
        : typeof value === type);
    const wanted = type === "strings" ? "an array of strings" : `a ${type}`;
    if (!ok) throw fail("an output", `"${key}" must be ${wanted}`);
  }
  return out as unknown as ViewOutput;
}

function accepts(plugin: ViewModePlugin, path: string, input: ViewInput): boolean {
  if (plugin.accepts) {
    let answer: unknown;
    try {
      answer = plugin.accepts(path, input.text);
    } catch (error) {
      const detail = hookErrorText(error);
      throw new Error(`[plugin ${plugin.name}] Hook "accepts" failed on "${path}": ${detail}`);
    }
    // An `async accepts` gives a promise, which is true whatever it settles to: not awaited.
    if (isThenable(answer)) {
      Promise.resolve(answer).catch(() => {}); // its rejection is the plugin's, not unheard
      throw new Error(
        `[plugin ${plugin.name}] Hook "accepts" returned a promise for "${path}": it must answer ` +
          "true or false at once (it is not awaited)",
      );
    }
    return Boolean(answer);
  }
  if (!plugin.extensions) return true;
  const ext = extname(path).toLowerCase();
  return plugin.extensions.includes(ext);
}

/** Whether `value` is a promise or another object with a `then` method. */
function isThenable(value: unknown): boolean {
  try {
    return (typeof value === "object" || typeof value === "function") && value !== null &&
      typeof (value as { then?: unknown }).then === "function";
  } catch {
    return false; // A proxy or getter that throws: not a promise, read as it is.
  }
}

/**
 * The store view plugins get (`ctx.store`): the cache folder, opened on first
 * use apart from the build's view cache (`--no-cache` turns both off).
 *
 * @example
 * ```ts
 * import { pluginStore } from "./_transform_render.ts";
 * // const store = pluginStore(config); // store.get("key")
 * ```
 */
export function pluginStore(config: ResolvedConfig): Store {
  let cache: Cache | undefined;
  const open = () => (cache ??= openCache(config.cache.dir, { enabled: config.cache.enabled }));
  return {
    get: (key) => open().get(key),
    set: (key, value) => open().set(key, value),
  };
}
