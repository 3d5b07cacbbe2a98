/**
 * The order memory's content keys without hashing the texts again: a file's
 * content key (`fileContentKey` in `order_state.ts`, the sha256 of its view,
 * status, fence flag, language and rendered text) is a function of the view
 * cache entry its text came from, and the cache checks every payload it
 * serves against its sha256. So a build keeps, in the cache, each content key
 * by that payload sha256 and the key's head; the next build looks a cache hit's
 * key up instead of hashing the whole rendered project again (a warm build of
 * the typescript lib hashed 22 MB for it). A text that did not come from the
 * cache (rendered now, or from a process's memory) is hashed as before.
 *
 * @module
 */

import type { RenderedFile, ViewOutput } from "./types.ts";

/**
 * What the keys need of a cache (`pipeline/cache.ts`'s `Cache` is one): named here, not
 * imported, because the cache imports this module to note the payloads it serves.
 */
export interface KeyStore {
  readonly enabled: boolean;
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

/** The sha256 of payloads the cache served, checked against it. */
const payloads = new WeakMap<Uint8Array, string>();
/** The payload sha256 of outputs decoded from the cache. */
const outputs = new WeakMap<ViewOutput, string>();
/** The payload sha256 of rendered files whose text is a cached output's. */
const rendered = new WeakMap<RenderedFile, string>();
/** The UTF-8 length of outputs' texts decoded from the cache (the bytes they were decoded from). */
const outputBytes = new WeakMap<ViewOutput, number>();
/** The UTF-8 length of rendered files' texts that are a cached output's, with that text. */
const renderedBytes = new WeakMap<RenderedFile, { text: string; bytes: number }>();
/** Content keys by payload sha256 and head: loaded from caches, and made by this process. */
const known = new Map<string, string>();
/** The id (payload sha256 and head) each file's key was looked up by. */
const used = new WeakMap<RenderedFile, string>();
/** What each cache held when it was loaded. */
const loaded = new WeakMap<KeyStore, Record<string, unknown>>();

/** Content keys looked up instead of made, in this thread. */
let served = 0;

/**
 * How many content keys this thread looked up instead of hashing a text (for tests and timings).
 *
 * @example
 * ```ts
 * import { contentKeysServed } from "./content_keys.ts";
 * contentKeysServed(); // 0 before any build
 * ```
 */
export function contentKeysServed(): number {
  return served;
}

/** Where the keys are kept in a cache (content addressed: every config of a folder may share it). */
const KEY = "content-keys/1";
const CONTENT_KEY = /^[0-9a-f]{16}$/;

/**
 * Note the sha256 of a payload the cache checked (the cache calls this).
 *
 * @example
 * ```ts
 * import { notePayload } from "./content_keys.ts";
 * notePayload(new Uint8Array(1), "ab");
 * ```
 */
export function notePayload(payload: Uint8Array, sha256: string): void {
  payloads.set(payload, sha256);
}

/**
 * Note that `output` was decoded from `payload` (the view cache calls this on a hit).
 *
 * @example
 * ```ts
 * import { noteOutput } from "./content_keys.ts";
 * noteOutput({ text: "x" }, new Uint8Array(1));
 * ```
 */
export function noteOutput(output: ViewOutput, payload: Uint8Array | undefined): void {
  const sha = payload && payloads.get(payload);
  if (sha) outputs.set(output, sha);
  // A view entry is its head line, then the text's UTF-8 (`_view_cache.ts`), written by
  // `TextEncoder`, so decoded and encoded again it is the same bytes; unless it starts with a
  // byte order mark, which decoding drops.
  const newline = payload ? payload.indexOf(10) : -1;
  if (newline < 0 || typeof output.text !== "string") return;
  const bom = payload![newline + 1] === 0xef && payload![newline + 2] === 0xbb &&
    payload![newline + 3] === 0xbf;
  if (!bom) outputBytes.set(output, payload!.length - newline - 1);
}

/**
 * Note that `output` was stored as a payload with this sha256 (the view cache calls this when it
 * streamed the payload into the cache instead of making its bytes).
 *
 * @example
 * ```ts
 * import { noteOutputHash } from "./content_keys.ts";
 * noteOutputHash({ text: "x" }, "ab");
 * ```
 */
export function noteOutputHash(output: ViewOutput, sha256: string | undefined): void {
  if (sha256) outputs.set(output, sha256);
}

/**
 * Note that `file`'s text is `output`'s (the transform stage calls this).
 *
 * @example
 * ```ts
 * import { noteRendered } from "./content_keys.ts";
 * // noteRendered(file, output);
 * ```
 */
export function noteRendered(file: RenderedFile, output: ViewOutput): void {
  if (file.text !== output.text) return;
  const sha = outputs.get(output);
  if (sha) rendered.set(file, sha);
  const bytes = outputBytes.get(output);
  if (bytes !== undefined) renderedBytes.set(file, { text: output.text, bytes });
}

/**
 * The UTF-8 length of `text` when it is `file`'s text as it came from the cache (the length of
 * the bytes it was decoded from: nothing to encode to measure it), else `undefined`.
 *
 * @example
 * ```ts
 * import { cachedTextBytes } from "./content_keys.ts";
 * // cachedTextBytes(file, text) ?? utf8Length(text)
 * ```
 */
export function cachedTextBytes(file: RenderedFile, text: string): number | undefined {
  // Compared with the text measured (the same string, unless the file's text was replaced).
  const known = renderedBytes.get(file);
  return known && known.text === text ? known.bytes : undefined;
}

/**
 * The content key of `file` with `head`: looked up when its text is a cached
 * output's, else made by `make` (and kept when it could be looked up later).
 *
 * @example
 * ```ts
 * import { contentKey } from "./content_keys.ts";
 * // contentKey(file, head, () => sha256(head + file.text).slice(0, 16));
 * ```
 */
export function contentKey(file: RenderedFile, head: string, make: () => string): string {
  const sha = rendered.get(file);
  if (!sha) return make();
  const id = `${sha}\0${head}`;
  let key = known.get(id);
  if (key === undefined) known.set(id, key = make());
  else served++;
  used.set(file, id);
  return key;
}

/**
 * Take the content keys a cache holds (before the order stage).
 *
 * @example
 * ```ts
 * import { loadContentKeys } from "./content_keys.ts";
 * // await loadContentKeys(cache);
 * ```
 */
export async function loadContentKeys(cache: KeyStore): Promise<void> {
  if (!cache.enabled) return;
  const stored = await cache.get<Record<string, unknown>>(KEY);
  if (!stored || typeof stored !== "object") return;
  loaded.set(cache, stored);
  for (const [id, key] of Object.entries(stored)) {
    if (typeof key === "string" && CONTENT_KEY.test(key) && !known.has(id)) known.set(id, key);
  }
}

/**
 * Keep the content keys `files` were given in the cache for the next build
 * (written only when they differ from what it held).
 *
 * @example
 * ```ts
 * import { saveContentKeys } from "./content_keys.ts";
 * // await saveContentKeys(cache, files);
 * ```
 */
export async function saveContentKeys(cache: KeyStore, files: RenderedFile[]): Promise<void> {
  if (!cache.enabled) return;
  const keep: Record<string, string> = {};
  for (const file of files) {
    const id = used.get(file);
    const key = id && known.get(id);
    if (id && key) keep[id] = key;
  }
  const ids = Object.keys(keep).sort();
  // A long-running process (slop watch) keeps what its builds use, not every key it ever made.
  if (known.size > 4 * ids.length + 1000) {
    known.clear();
    for (const id of ids) known.set(id, keep[id]);
  }
  const stored = loaded.get(cache);
  const same = stored && Object.keys(stored).length === ids.length &&
    ids.every((id) => stored[id] === keep[id]);
  if (!same) await cache.set(KEY, Object.fromEntries(ids.map((id) => [id, keep[id]])));
}
