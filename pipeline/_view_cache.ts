/**
 * The transform stage's use of the cache: a rendered view is stored under
 * the sha256 of (plugin name, plugin cache version (`cacheVersion`: a user
 * plugin's version with a hash of its code and options), canonical entry options, path,
 * content hash, the plugin's `cacheKey` material). The entry also lists every
 * view plugin the render went through (fallbacks, `renderAs`) with its
 * version, and the warnings it raised: a hit is only taken when those
 * plugins still have the same versions, and replays the warnings.
 *
 * @module
 */

import type { Cache, DecodedReadOptions, PackPlace } from "./cache.ts";
import { canonicalJson, countWork, PluginError, sha256Hex } from "./helpers.ts";
import { mergedSources } from "./_resolve_entries.ts";
import { typeName } from "./schema.ts";
import { lazyCopy, type TextBacking } from "./lazy_text.ts";
import { cacheVersion, callHook, findViewMode, loadViewModes, type Registry } from "./registry.ts";
import type { FileEntry, ViewContext, ViewInput, ViewModePlugin, ViewOutput } from "./types.ts";
import { headAndText } from "./text_hash.ts";
import { extensionOf, wordsTellLanguage } from "./extension.ts";
import { crc32 } from "node:zlib";

/** What is stored per rendered view. */
interface ViewEntry {
  output: ViewOutput;
  /**
   * `name@version` of every view plugin the render used (`cacheVersion` for a user plugin other
   * than the chosen one, whose code the key holds).
   */
  plugins: string[];
  warnings: string[];
}

/** What {@linkcode cachedRender} needs besides the cache. */
export interface CachedRenderInput {
  /** The chosen view. */
  view: string;
  /** The file as the view sees it. */
  input: ViewInput;
  /** The file's merged entry. */
  entry: FileEntry;
  registry: Registry;
  /** Context for the plugin's `cacheKey` hook (made only for a plugin that has one). */
  context: () => ViewContext;
  /** Where warnings go. */
  warn: (message: string) => void;
  /** Hook timeout in ms. */
  timeoutMs?: number;
  /** A deferred file's input: when the `cacheKey` hook reads its text, it is loaded and asked again. */
  lazy?: { touched(): boolean; load(): Promise<void> };
  /** Keep a hit's text where the cache has it instead of decoding it (`RenderOptions.keepText`). */
  keepText?: KeepText;
  /** Render for real: gets a warning sink and the set that collects the plugins used. */
  render: (warn: (message: string) => void, used: Set<string>) => Promise<ViewOutput>;
}

/** What {@linkcode cachedRender} gives: the output, whether the cache had it, and its key. */
export interface CachedRender {
  output: ViewOutput;
  cache: "hit" | "miss";
  /** The cache's key of the output, when it has it (a hit) or was given it (a miss stored). */
  key?: string;
}

/**
 * Render through the cache: a valid entry is returned as it was stored
 * (`hit`), else the view renders and the result is stored (`miss`), unless
 * the output says `cacheable: false`. A hit is given at once (not a promise) when the cache
 * reads synchronously (`Cache.readDecoded`), the view has no `cacheKey` hook and the view modes
 * the entry names are loaded: a warm build takes most of a big tree's files so, with no task
 * turn for each.
 *
 * @example
 * ```ts
 * import { cachedRender } from "./_view_cache.ts";
 * // const { output, cache } = await cachedRender(cache, { view, input, ... });
 * ```
 */
export function cachedRender(
  cache: Cache,
  args: CachedRenderInput,
): CachedRender | Promise<CachedRender> {
  const plugin = findViewMode(args.registry, args.view);
  if (!plugin || !cache.enabled || plugin.cacheKey || !cache.readDecoded) {
    return keyedRender(cache, args, plugin);
  }
  const key = viewKey(plugin, { entry: args.entry, input: args.input, extra: "" });
  const entry = cache.readDecoded(key, decoderOf(args.keepText), headOf(args));
  return storedOrRendered(cache, args, { plugin, key, entry });
}

/** A read's options: only the entry's head when its text is kept where the cache has it. */
function headOf(args: CachedRenderInput): DecodedReadOptions {
  return args.keepText ? HEAD_ONLY : WHOLE;
}

/** An entry's decoder, as a build's `keepText` keeps its texts: made once per `keepText`. */
function decoderOf(
  keepText: KeepText | undefined,
): (bytes: Uint8Array, place?: PackPlace) => ViewEntry | undefined {
  if (!keepText) return decodeWhole;
  let decode = decoders.get(keepText);
  if (!decode) {
    decoders.set(
      keepText,
      decode = (bytes, place) => decodeEntry(bytes, place, keepText),
    );
  }
  return decode;
}

const decoders = new WeakMap<
  KeepText,
  (bytes: Uint8Array, place?: PackPlace) => ViewEntry | undefined
>();

function decodeWhole(bytes: Uint8Array, place?: PackPlace): ViewEntry | undefined {
  return decodeEntry(bytes, place);
}

/** {@linkcode cachedRender} through the cache's promises (a `cacheKey` hook, an async cache). */
async function keyedRender(
  cache: Cache,
  args: CachedRenderInput,
  plugin: ViewModePlugin | undefined,
): Promise<CachedRender> {
  if (!plugin || !cache.enabled) {
    return { output: await args.render(args.warn, new Set()), cache: "miss" };
  }
  // Held to the plugin's own time limit, as its `render` is; a key of another type than a
  // string (an object's text is "[object Object]" whatever it holds) is an error naming it.
  const material = async () => {
    const path = args.input.path;
    const extra = await callHook(
      plugin,
      "cacheKey",
      () => plugin.cacheKey!(args.input, args.context()),
      { path, timeoutMs: plugin.timeoutMs ?? args.timeoutMs },
    );
    if (typeof extra === "string") return extra;
    throw new PluginError(
      plugin.name,
      "cacheKey",
      `Hook "cacheKey" returned ${shownType(extra)} for "${path}": expected a string`,
      { path },
    );
  };
  let extra = plugin.cacheKey ? await material() : "";
  if (plugin.cacheKey && args.lazy?.touched()) {
    await args.lazy.load();
    extra = await material();
  }
  const key = viewKey(plugin, { entry: args.entry, input: args.input, extra });
  // Decoded as it is read: a cache that can reads it into a buffer it reuses.
  // A text kept where the cache has it is not read here: the entry's head alone is, when the
  // cache can read only that.
  const entry = cache.getDecoded
    ? await cache.getDecoded(key, decoderOf(args.keepText), headOf(args))
    : decodeEntry(await cache.getBytes(key));
  return await storedOrRendered(cache, args, { plugin, key, entry });
}

/**
 * The stored entry given when the view modes it went through are the registry's now (its
 * warnings told again), else the view rendered and stored.
 */
function storedOrRendered(
  cache: Cache,
  args: CachedRenderInput,
  found: { plugin: ViewModePlugin; key: string; entry: ViewEntry | undefined },
): CachedRender | Promise<CachedRender> {
  const { entry, key } = found;
  // Lazy built-ins (`cli/_builtins.ts`) the entry names are imported to compare versions.
  const loading = entry &&
    loadViewModes(args.registry, entry.plugins.map((p) => p.slice(0, p.lastIndexOf("@"))));
  if (loading) return loading.then(() => storedOrRendered(cache, args, found));
  if (entry && entry.plugins.every((p) => current(args.registry, p))) {
    for (const warning of entry.warnings) args.warn(warning);
    return { output: entry.output, cache: "hit", key };
  }
  return renderedAnew(cache, args, found);
}

/** A miss: the view rendered now and stored (the view modes it goes through collected). */
async function renderedAnew(
  cache: Cache,
  args: CachedRenderInput,
  { plugin, key }: { plugin: ViewModePlugin; key: string },
): Promise<CachedRender> {
  const output = await renderAndStore(cache, args, { plugin, key, used: new Set() });
  return { output, cache: "miss", key: output.cacheable === false ? undefined : key };
}

/**
 * The text of the render stored under `key` (`cachedRender`'s), where the cache's pack holds it
 * now, handed to `keep` as a hit's text is (`CachedRenderInput.keepText`): for a text kept
 * elsewhere until the cache's writes were done (a cold build's pack is written after it).
 * `undefined` when the pack does not hold the record whole and checked.
 *
 * @example
 * ```ts
 * import { packedText } from "./_view_cache.ts";
 * // const backing = packedText(cache, key, (bytes, place) => spill.keepAt(bytes, place));
 * ```
 */
export function packedText(cache: Cache, key: string, keep: KeepText): TextBacking | undefined {
  return cache.packed?.(key, (bytes, place) => {
    const newline = bytes.indexOf(10);
    if (newline < 0) return undefined;
    const at = newline + 1;
    const text = bytes.subarray(at);
    return keep({ size: text.length, bytes: () => text }, textPlace(place, at));
  });
}

/**
 * Bytes of a view cache entry read first when its text is to be kept where the cache has it
 * (`KeepText`): its head (the output without the text, the plugins, the warnings: 54 bytes for a
 * plain full view) is in them but for the few with long warnings or notes, which are read whole.
 */
const ENTRY_HEAD = 512;

/** The options of a read of an entry's head ({@linkcode ENTRY_HEAD}), and of a whole entry. */
const HEAD_ONLY: DecodedReadOptions = { head: ENTRY_HEAD };
const WHOLE: DecodedReadOptions = {};

/**
 * Where an entry's text is: `at` bytes into its record, named by the record's sha256 and where it
 * starts in it (the same bytes in every build).
 */
function textPlace(place: PackPlace, at: number): PackPlace {
  const { borrow } = place;
  return { offset: place.offset + at, sha256: `${place.sha256}+${at}`, borrow };
}

/**
 * {@linkcode textPlace} of a text not read with its entry's head (`place.partial`, `head` the
 * bytes read): with what checks it when it is read (`PackPlace.check`).
 */
function unreadTextPlace(place: PackPlace, at: number, head: Uint8Array): PackPlace {
  const out = textPlace(place, at);
  const partial = place.partial;
  if (partial?.crc32 !== undefined) {
    const { damaged } = partial;
    out.check = { seed: crc32(head.subarray(0, at)), crc32: partial.crc32, damaged };
  }
  return out;
}

/** The version of a file's view cache entries (see `viewKey`): by its extension. */
function viewVersion(path: string): string {
  if (!wordsTellLanguage(path)) return "view/4";
  const ext = extensionOf(path.slice(path.lastIndexOf("/") + 1)).toLowerCase();
  return ext === ".h" ? "view/8" : ext === ".v" ? "view/9" : "view/5";
}

/**
 * The cache key of a view of a file: the plugin, its version (a user plugin's with its code and
 * options, `cacheVersion`), the entry's options, the path, the content hash and the `cacheKey`
 * material. The key of the same entry object and inputs is computed once (a resident process
 * builds with the same entries again and again; canonical JSON is the cost): the last one per
 * entry object, which is the file's own (a merged entry is made per file), so it is held by
 * reference to the inputs, with no string made per file but the key.
 */
function viewKey(
  plugin: ViewModePlugin,
  { entry, input, extra }: { entry: FileEntry; input: ViewInput; extra: string },
): string {
  const version = cacheVersion(plugin);
  const last = entryKeys.get(entry);
  if (
    last?.plugin === plugin.name && last.version === version && last.path === input.path &&
    last.sha256 === input.sha256 && last.extra === extra
  ) {
    return last.key;
  }
  // The text `cacheKey([...])` hashes for these parts, written at once: the entry's values (all
  // but its glob) made canonical once per entry object, not copied and made again for each file.
  // 3: entries hold the deduplicated output (pipeline/dedup.ts), not the view's own. 4: dedup
  // also replaces blobs a JSON string or list wraps (a notebook's images). 5: a `.h` or `.m`
  // file's entry holds its fence language (`objective-c` by its words); other entries stay 4.
  // 6: a `.h` file's entry holds `cpp` for C++'s words (a `.m` file's stays 5). 7: such a
  // `.h` file is rendered with the C++ grammar. 9: a `.v` file's entry holds `coq` for Coq's
  // words (the fence was `v`, the V language's, for Verilog and Coq alike).
  const key = sha256Hex(
    `[${JSON.stringify(viewVersion(input.path))},${JSON.stringify(plugin.name)},${
      JSON.stringify(version)
    },${entryValuesJson(entry)},${JSON.stringify(input.path)},${
      JSON.stringify(input.sha256) ?? "null"
    },${JSON.stringify(String(extra))}]`,
  );
  entryKeys.set(entry, {
    plugin: plugin.name,
    version,
    path: input.path,
    sha256: input.sha256,
    extra,
    key,
  });
  return key;
}

/** Render for real and store the output with the plugins it used and its warnings. */
async function renderAndStore(
  cache: Cache,
  args: CachedRenderInput,
  { plugin, key, used }: { plugin: ViewModePlugin; key: string; used: Set<string> },
): Promise<ViewOutput> {
  const warnings: string[] = [];
  const output = await args.render((message) => {
    warnings.push(message);
    args.warn(message);
  }, used);
  if (output.cacheable !== false) {
    // The chosen plugin's code is in the key already: its plain version is stored. Any other user
    // plugin the render went through is stored with its code hash (`cacheVersion`).
    const plugins = [...used].map((name) => {
      const p = findViewMode(args.registry, name);
      return `${name}@${p ? (p === plugin ? p.version : cacheVersion(p)) : "?"}`;
    });
    if (cache.setText) {
      // The head, then the text as it is: a cold build's pack takes the text in pieces (a
      // payload made whole per file was the size of the project, left to the collector).
      const { head, text } = entryParts({ output, plugins, warnings });
      await cache.setText(key, head, text);
    } else {
      const bytes = encodeEntry({ output, plugins, warnings });
      await cache.setBytes(key, bytes);
    }
  }
  return output;
}

/** The canonical JSON of each entry object's values but its glob (see `entryValuesJson`). */
const entryValues = new WeakMap<FileEntry, string>();

/**
 * The canonical JSON of merged entries' values, by the config entries they were merged from: a
 * node for each list of them, reached entry by entry (the same objects). The same for every file
 * those entries match.
 */
interface ValuesNode {
  json?: string;
  next: WeakMap<FileEntry, ValuesNode>;
}

const mergedValues: ValuesNode = { next: new WeakMap() };

/**
 * An entry's values but its glob as canonical JSON, made once per entry object (an entry is not
 * changed once resolved: `kept_renders.ts` numbers its values once too), and once for all the
 * merged entries of the same config entries: the resolve stage merges an entry for each file, and
 * its values but its path are those of the entries it was merged from (counted: `entry values
 * made canonical`).
 */
function entryValuesJson(entry: FileEntry): string {
  const from = mergedSources(entry);
  const node = from?.length ? valuesNode(from) : undefined;
  let json = node?.json ?? entryValues.get(entry);
  if (json === undefined) {
    const { path: _glob, ...options } = entry;
    json = canonicalJson(options);
    countWork("entry values made canonical", 1);
    if (node) node.json = json;
    else entryValues.set(entry, json);
  }
  return json;
}

/** The node of the merged entries made from `from` (made when there is none yet). */
function valuesNode(from: readonly FileEntry[]): ValuesNode {
  let node = mergedValues;
  for (const source of from) {
    let next = node.next.get(source);
    if (!next) node.next.set(source, next = { next: new WeakMap() });
    node = next;
  }
  return node;
}

/** The last view cache key of each entry object, with the inputs it was made of. */
const entryKeys = new WeakMap<
  FileEntry,
  { plugin: string; version: string; path: string; sha256: string; extra: string; key: string }
>();

/** Whether `name@version` is a view plugin of the registry now, by registry (asked per file). */
const currents = new WeakMap<Registry, Map<string, boolean>>();

function current(registry: Registry, used: string): boolean {
  let known = currents.get(registry);
  if (!known) currents.set(registry, known = new Map());
  let is = known.get(used);
  if (is === undefined) {
    const at = used.lastIndexOf("@");
    const p = findViewMode(registry, used.slice(0, at));
    const version = used.slice(at + 1);
    known.set(used, is = p !== undefined && (p.version === version || cacheVersion(p) === version));
  }
  return is;
}

const encoder = new TextEncoder();
// A leading U+FEFF is text kept as it was written (a second byte order mark), not a mark to drop.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** An entry is its JSON without the text, a newline, then the text raw (no JSON escaping to parse). */
function entryParts(entry: ViewEntry): { head: Uint8Array; text: string } {
  const { text, ...output } = entry.output;
  return { head: encoder.encode(`${JSON.stringify({ ...entry, output })}\n`), text };
}

function encodeEntry(entry: ViewEntry): Uint8Array {
  const { head, text } = entryParts(entry);
  return headAndText(head, text);
}

/**
 * A view's text kept where the cache read it from (`text`: its size and UTF-8, at `place` in the
 * pack file), read again when used; `undefined`: decode it now.
 */
export type KeepText = (text: KeptBytes, place: PackPlace) => TextBacking | undefined;

/** A text's UTF-8 as {@linkcode KeepText} gets it: its size, and its bytes read when asked for. */
export interface KeptBytes {
  /** The text's length in bytes. */
  size: number;
  /**
   * Its bytes (a view of a buffer the cache reuses), read from the pack if they were not yet
   * (only the entry's head was); `undefined` when they can no longer be read.
   */
  bytes(): Uint8Array | undefined;
}

/**
 * The last entry head parsed, with a copy of its bytes: most files of a tree have the same head
 * (every file of a full view: `{"output":{},"plugins":["slop:full@1"],"warnings":[]}`), so a warm
 * build parses it once, not once a file. Only a head whose output holds no object or list is
 * kept (each entry gets its own copy of the output).
 */
let lastHead: { bytes: Uint8Array; entry: ViewEntry } | undefined;

/**
 * The head of an entry (its first line, to `newline`): its output (a copy of its own), plugins
 * and warnings; `undefined` when it is not one. Parsed unless its bytes are the last head's
 * (counted: `entry heads parsed`).
 */
function entryHead(bytes: Uint8Array, newline: number): ViewEntry | undefined {
  const last = lastHead;
  if (last && sameBytes(last.bytes, bytes, newline)) {
    const { output, plugins, warnings } = last.entry;
    return { output: { ...output }, plugins, warnings };
  }
  countWork("entry heads parsed", 1);
  const line = bytes.subarray(0, newline);
  const entry = JSON.parse(decoder.decode(line)) as ViewEntry;
  if (
    !entry || typeof entry.output !== "object" || !Array.isArray(entry.plugins) ||
    !Array.isArray(entry.warnings)
  ) return undefined;
  const flat = entry.output !== null &&
    Object.values(entry.output).every((v) => v === null || typeof v !== "object");
  lastHead = flat
    ? { bytes: line.slice(), entry: { ...entry, output: { ...entry.output } } }
    : undefined;
  return entry;
}

/** Whether `bytes` begins with `head` and `head` is `length` bytes long. */
function sameBytes(head: Uint8Array, bytes: Uint8Array, length: number): boolean {
  if (head.length !== length || bytes.length < length) return false;
  for (let i = 0; i < length; i++) if (head[i] !== bytes[i]) return false;
  return true;
}

function decodeEntry(
  read: Uint8Array | undefined,
  place?: PackPlace,
  keepText?: KeepText,
): ViewEntry | undefined {
  let bytes = read;
  if (!bytes) return undefined;
  let newline = bytes.indexOf(10);
  const partial = place?.partial;
  // A head without its end (a long output or warning): the record whole.
  if (newline < 0 && partial) {
    bytes = partial.whole();
    newline = bytes?.indexOf(10) ?? -1;
  }
  if (!bytes || newline < 0) return undefined;
  try {
    const entry = entryHead(bytes, newline);
    if (!entry) return undefined;
    const at = newline + 1;
    const text = entryText(bytes, { at, partial });
    const unread = partial !== undefined && bytes.length < partial.length;
    const kept = place &&
      keepText?.(text, unread ? unreadTextPlace(place, at, bytes) : textPlace(place, at));
    if (kept) {
      entry.output = lazyCopy(entry.output, kept);
      return entry;
    }
    const whole = text.bytes();
    if (!whole) return undefined;
    entry.output.text = decoder.decode(whole);
    return entry;
  } catch {
    return undefined;
  }
}

/**
 * The text of an entry read as `bytes`, from byte `at`: when they are its head only (`partial`),
 * the rest is read when asked for, once.
 */
function entryText(
  bytes: Uint8Array,
  { at, partial }: { at: number; partial: PackPlace["partial"] },
): KeptBytes {
  if (!partial || bytes.length === partial.length) {
    const text = bytes.subarray(at);
    return { size: text.length, bytes: () => text };
  }
  let whole: Uint8Array | undefined;
  let tried = false;
  return {
    size: partial.length - at,
    bytes: () => {
      if (!tried) whole = partial.whole()?.subarray(at);
      tried = true;
      return whole;
    },
  };
}

/** What a value a hook returned is (`typeName`), also for a revoked proxy, which throws when asked. */
function shownType(value: unknown): string {
  try {
    return typeName(value);
  } catch {
    return "a value that cannot be read";
  }
}
