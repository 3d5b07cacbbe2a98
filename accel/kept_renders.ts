/**
 * The transform stage with what the speed layer keeps of renders: the same
 * files as `transformFiles()` of `pipeline/transform.ts`, built on its steps
 * (`renderSetup`, `viewFor`, `renderFile`), with three more ways to render:
 *
 * - `rendered`: a resident's memo (`slop watch`, the build server) gives a
 *   file it rendered before again, at once, while the file, its entry's
 *   values, its view and the view modes are the same (a config loaded again
 *   with the same values takes them too);
 * - `window`: at most this many files render at once (each holds its text,
 *   read from the spill as it renders);
 * - `keepText`: a cache hit's text stays in the cache's pack, read again when
 *   used, instead of decoded.
 *
 * @module
 */

import {
  eachInWindow,
  type KeepText,
  type Render,
  renderSetup,
  renderSoon,
  type TransformOptions,
  viewFor,
  warningsInOrder,
} from "../pipeline/transform.ts";
import { cacheVersion, findViewMode, type Registry } from "../pipeline/registry.ts";
import { canonicalJson } from "../pipeline/helpers.ts";
import type { KeptMemo } from "./_same_text.ts";
import { copyLazy } from "../pipeline/lazy_text.ts";
import type {
  FileEntry,
  RenderedFile,
  ResolvedConfig,
  SourceFile,
  ViewModePlugin,
  ViewOutput,
} from "../pipeline/types.ts";

/** A file rendered as the cache has it, as a resident process keeps it for its next builds. */
export interface RenderedMemo {
  /**
   * The rendered file, given to each build that takes it as this same record (no stage writes to
   * a rendered file; a build that would change one takes a copy, {@linkcode KeptRenderOptions.given}).
   */
  file: RenderedFile;
  /** The view's output it was made from. */
  output: ViewOutput;
  /** The warnings its render gave. */
  warnings: string[];
  /** The view cache's key of `output` (`Render.cacheKey`: where the cache's pack has its text). */
  cacheKey?: string;
  /**
   * What it was rendered from but its path, by which the memo holds it ({@linkcode renderedKey}):
   * a build takes it while these are its file's.
   */
  key?: RenderKey;
}

/**
 * What a kept render depends on besides its path (the memo's key): the view cache's key material
 * (the view modes and their versions, the entry's values, the content hash) and the view chosen,
 * as numbers and strings compared one by one (no key text made for each of a big tree's files at
 * each build).
 */
interface RenderKey {
  /** The config's number when the view has a `cacheKey` hook (which reads it), else "". */
  hooked: number | "";
  modes: number;
  entry: number;
  view: string;
  sha256: string | undefined;
}

/** Options of {@linkcode transformKept}. */
export interface KeptRenderOptions extends TransformOptions {
  /**
   * Files a resident process rendered before, as the cache has them: given again, with their
   * warnings, while the file's hash, its entry's values, its view and the view modes are the
   * same (and the config object, for a view with a `cacheKey` hook), without going through the
   * cache.
   * Kept by path ({@linkcode RenderedMemo.key} holds the rest of its key).
   * @default {undefined} none
   */
  rendered?: KeptMemo<RenderedMemo>;
  /**
   * At most this many files rendering at once (each file rendering holds its text).
   * @default {RENDER_WINDOW} as many as the plain stage renders at once (`eachInWindow()`)
   */
  window?: number;
  /**
   * Asked before each file renders: a promise to wait for first (a turn that lets the early
   * counts' workers be handed their next texts, `precount.ts`), or nothing.
   * @default {undefined} none
   */
  between?: () => Promise<void> | undefined;
  /**
   * Keep a cache hit's text where the cache has it (a pack's record), read again when used,
   * instead of decoding it.
   * @default {undefined} every hit's text decoded
   */
  keepText?: KeepText;
  /**
   * Make a text lazy where the build keeps its texts (a spill, `text_spill.ts`): a rendered file
   * and its view's output before `rendered` keeps them, so the memo holds their record, not
   * their text.
   * @default {undefined} the memo holds the texts
   */
  keepLazy?: (target: { text?: string }) => void;
  /**
   * Told of each render `rendered` keeps from this build (`keepLazy` done): a resident moves the
   * texts of a cold build's renders from its spill to the cache's pack once the pack is written.
   * @default {undefined} none
   */
  onKept?: (kept: RenderedMemo) => void;
  /**
   * A kept render as this build takes it: the memo's record itself unless the build would change
   * it (then a copy, which the memo does not see). The record is shared by every build that takes
   * it: what a build writes to its rendered files must go to a copy.
   * @default {undefined} the memo's record
   */
  given?: (file: RenderedFile) => RenderedFile;
}

/**
 * Render every file with its view, as `transformFiles()` does, a resident's kept renders given
 * again and at most `window` files at once.
 *
 * @example
 * ```ts
 * import { transformKept } from "./kept_renders.ts";
 * // const files = await transformKept(sources, config, registry, { ...options, window: 8 });
 * ```
 */
export async function transformKept(
  files: SourceFile[],
  config: ResolvedConfig,
  registry: Registry,
  options: KeptRenderOptions,
): Promise<RenderedFile[]> {
  const { isFocus, options: ready } = await renderSetup(files, config, options);
  const out = new Array<RenderedFile>(files.length);
  const keys = renderKeys(config, registry);
  // Warnings in the files' order, however the renders end: the manifest lists them so.
  const order = warningsInOrder(files.length, ready.warn);
  const ended = (i: number, file: RenderedFile) => {
    out[i] = file;
    order.done(i);
    options.onFile?.(file);
  };
  await eachInWindow(files.length, (i) => {
    const file = files[i];
    const focus = isFocus(file.path);
    const own = { ...ready, warn: order.warnOf(i) };
    // Given again by a resident's memo: at once, without a task turn.
    const found = keptFile(file, { config, registry, focus, keys }, own);
    if (found) {
      ended(i, options.given ? options.given(found) : found);
      return undefined;
    }
    const rendered = renderKept(file, { config, registry, focus, keys }, own);
    if (rendered instanceof Promise) return rendered.then((file) => ended(i, file));
    // A cache hit the cache answered at once: no promise, no place in the window.
    ended(i, rendered);
    return undefined;
  }, { window: options.window, between: options.between });
  return out;
}

/** Where a file renders: the build's config and plugins, and whether it is a focus file. */
interface RenderPlace {
  config: ResolvedConfig;
  registry: Registry;
  focus: boolean;
  /** The build's parts of the memo's keys ({@linkcode renderKeys}). */
  keys: RenderKeys;
}

/**
 * Render a file (`renderSoon`: at once for a cache hit the cache answers so), kept in the
 * resident's memo when the cache has its output.
 */
function renderKept(
  file: SourceFile,
  { config, registry, focus, keys }: RenderPlace,
  options: KeptRenderOptions,
): RenderedFile | Promise<RenderedFile> {
  const place = { config, registry, isFocus: focus };
  if (!options.rendered || file.error || file.entry.autoAggregate === false) {
    const render = renderSoon(file, place, options);
    return render instanceof Promise ? render.then(fileOf) : render.file;
  }
  // Keyed before the render: a late read may find the file changed (it gives another hash).
  const view = viewFor(file, place, options);
  const keyed = { sha256: file.sha256, key: renderedKey(file, keys, view) };
  const render = renderSoon(file, place, options);
  return render instanceof Promise
    ? render.then((done) => keptRender(file, done, keyed, options))
    : keptRender(file, render, keyed, options);
}

function fileOf(render: Render): RenderedFile {
  return render.file;
}

/** A render kept in the resident's memo when the cache has its output (the file unchanged since it was keyed). */
function keptRender(
  file: SourceFile,
  { file: rendered, output, warnings, cacheKey }: Render,
  keyed: { sha256: string | undefined; key: RenderKey },
  options: KeptRenderOptions,
): RenderedFile {
  const { key } = keyed;
  if (output && file.sha256 === keyed.sha256) {
    options.keepLazy?.(rendered);
    options.keepLazy?.(output);
    const kept = keepRendered(options, file.path, {
      key,
      file: rendered,
      output,
      warnings,
      cacheKey,
    });
    // A cache hit is given as the memo keeps it (a copy of the same values), as the next builds
    // take it: what this build makes from the record (its block, its manifest entry and that
    // entry's JSON, its placed block) is the next build's too, not made again for every file by
    // the first rebuild after a build server's start.
    if (kept && rendered.cache === "hit") return options.given ? options.given(kept) : kept;
  }
  return rendered;
}

/** A number for each object a memo key names (a config whose view has a `cacheKey` hook). */
const identities = new WeakMap<object, number>();
let nextIdentity = 0;

function identity(value: object): number {
  let id = identities.get(value);
  if (id === undefined) identities.set(value, id = ++nextIdentity);
  return id;
}

/**
 * A short number for an entry's values as the view cache keys them (`canonicalJson` of the entry
 * but its glob), made once per entry object: a config loaded again makes new entry objects with the
 * same values, which get the same number. A number, not the values' text, goes into each file's
 * memo key: the key is made and hashed for a big tree's every file at each build.
 */
const entryValues = new WeakMap<FileEntry, number>();

/**
 * Short numbers for texts, the most recently used {@linkcode NUMBERED_TEXTS} kept: a long-running
 * process (the build server, `slop mcp`) loads configs with ever new values, and a number is only
 * needed while the memo of renders (this build's and the last's) has keys made with it. A text
 * dropped and seen again gets a new number (its files miss the memo once); a number is never given
 * twice, so a memo key never names other values.
 */
class Numbering {
  #numbers = new Map<string, number>();
  #last = 0;

  number(text: string): number {
    let n = this.#numbers.get(text);
    if (n !== undefined) this.#numbers.delete(text);
    else n = ++this.#last;
    this.#numbers.set(text, n);
    if (this.#numbers.size > NUMBERED_TEXTS) {
      this.#numbers.delete(this.#numbers.keys().next().value as string);
    }
    return n;
  }

  get size(): number {
    return this.#numbers.size;
  }
}

/** How many texts each {@linkcode Numbering} keeps (far more than a config has entries). */
const NUMBERED_TEXTS = 4096;

/** The number of each entry's values seen (by {@linkcode entryKey}). */
const entryNumbers = new Numbering();

function entryKey(entry: FileEntry): number {
  let key = entryValues.get(entry);
  if (key === undefined) {
    const { path: _glob, ...options } = entry;
    key = entryNumbers.number(canonicalJson(options));
    entryValues.set(entry, key);
  }
  return key;
}

/** The number of the view modes a registry holds, by name and version (each build has a registry of its own). */
const viewModeKeys = new WeakMap<Registry, number>();

/** A short number for each set of view modes (by {@linkcode viewModesKey}), for memo keys. */
const viewModeNumbers = new Numbering();

function viewModesKey(registry: Registry): number {
  let key = viewModeKeys.get(registry);
  if (key === undefined) {
    const modes = registry.plugins.filter((p) => p.kind === "view-mode");
    const text = modes.map((p) => `${p.name}@${cacheVersion(p as ViewModePlugin)}`).join(",");
    key = viewModeNumbers.number(text);
    viewModeKeys.set(registry, key);
  }
  return key;
}

/**
 * How many entry values and sets of view modes this process holds numbers for (bounded however
 * many configs a long-running process loads).
 *
 * @example
 * ```ts
 * import { keptNumbers } from "./kept_renders.ts";
 * console.log(keptNumbers() <= 8192);
 * ```
 */
export function keptNumbers(): number {
  return entryNumbers.size + viewModeNumbers.size;
}

/**
 * The parts of a memo key one build's files share, each made once a build (a view's hook and the
 * view modes) or once an entry object (its values' number), not once a file.
 */
interface RenderKeys {
  /** The config's number when the view has a `cacheKey` hook (which reads the config), else "". */
  hooked(view: string): number | "";
  /** The view modes' number. */
  modes: number;
  /** The entry's values' number. */
  entry(entry: FileEntry): number;
}

function renderKeys(config: ResolvedConfig, registry: Registry): RenderKeys {
  const hooked = new Map<string, number | "">();
  let last: { entry: FileEntry; key: number } | undefined;
  return {
    hooked(view) {
      let key = hooked.get(view);
      if (key === undefined) {
        hooked.set(view, key = findViewMode(registry, view)?.cacheKey ? identity(config) : "");
      }
      return key;
    },
    modes: viewModesKey(registry),
    entry(entry) {
      if (last?.entry !== entry) last = { entry, key: entryKey(entry) };
      return last.key;
    },
  };
}

/**
 * What a file's render is kept by in the memo of rendered files, besides its path: what the view
 * cache keys a render by (the view modes and their versions, the entry's values, the path and the
 * content hash), and the view chosen. A render the cache gives depends on nothing else, so a
 * config loaded again (an edit of the config file, another build's flags) takes the renders kept
 * for the last one while these are the same; only a view whose `cacheKey` hook reads the config
 * (its key material) is keyed by the config object too.
 */
function renderedKey(file: SourceFile, keys: RenderKeys, view: string): RenderKey {
  return {
    hooked: keys.hooked(view),
    modes: keys.modes,
    entry: keys.entry(file.entry),
    view,
    sha256: file.sha256,
  };
}

/** Whether a kept render's key is `file`'s with this view and the build's keys. */
function sameKey(
  key: RenderKey | undefined,
  file: SourceFile,
  { keys, view }: { keys: RenderKeys; view: string },
): boolean {
  return key !== undefined && key.sha256 === file.sha256 && key.view === view &&
    key.entry === keys.entry(file.entry) && key.modes === keys.modes &&
    key.hooked === keys.hooked(view);
}

/**
 * A file a resident process rendered before (as the cache has it), given again (the memo's record,
 * its warnings told again) while its key is the same; `undefined` when it must be rendered. The
 * memo holds a render by path: one look of a path (the same string from build to build), the rest
 * of the key compared, and the entry marked used only when it is taken.
 */
function keptFile(
  file: SourceFile,
  { config, focus, keys }: RenderPlace,
  options: KeptRenderOptions,
): RenderedFile | undefined {
  const { rendered } = options;
  if (!rendered || file.error || file.entry.autoAggregate === false) return undefined;
  const view = viewFor(file, { config, isFocus: focus }, options);
  const entry = rendered.entry?.(file.path);
  const kept = rendered.entry ? entry?.value : rendered.get(file.path);
  if (!kept || !sameKey(kept.key, file, { keys, view })) return undefined;
  if (entry && rendered.use && !rendered.use(entry)) return undefined;
  kept.warnings.forEach(options.warn);
  // The same record each build: a copy of each of a big tree's kept renders, each build, was most
  // of the transform's time on a rebuild (bench/README.md, "kept renders as the same records").
  return kept.file;
}

/** The rendered files a resident's memo holds (shared by the builds that take them). */
const keptRecords = new WeakSet<RenderedFile>();

/**
 * Whether `file` is a record a resident's memo of renders holds ({@linkcode RenderedMemo.file}),
 * which later builds are given as it is: a build must not change it (nor make its text lazy in
 * place), but a copy of it.
 *
 * @example
 * ```ts
 * import { isKeptRender } from "./kept_renders.ts";
 * isKeptRender({ path: "a.py" } as import("../pipeline/types.ts").RenderedFile); // false
 * ```
 */
export function isKeptRender(file: RenderedFile): boolean {
  return keptRecords.has(file);
}

/**
 * Keep a rendered file for a resident's next builds (see {@linkcode keptFile}) when the cache has
 * its output: taken from it, or stored now, which the next build would find there. So the next
 * build takes this very output, not a copy decoded from the cache (the server would otherwise
 * hold each text twice: the first build's, in its last document, and the decoded one, here).
 * Returns the record kept, if any.
 */
function keepRendered(
  options: KeptRenderOptions,
  path: string,
  { key, file, output, warnings, cacheKey }: RenderedMemo,
): RenderedFile | undefined {
  const stored = file.cache === "hit" || (options.cache?.enabled && output.cacheable !== false);
  if (stored) {
    const kept = {
      file: copyLazy(file, { cache: "hit" as const }),
      output,
      warnings,
      cacheKey,
      key,
    };
    keptRecords.add(kept.file);
    options.rendered!.set(path, kept);
    options.onKept?.(kept);
    return kept.file;
  }
  return undefined;
}
