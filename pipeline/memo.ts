/**
 * The memos the stages consult when a long-running process hands them some
 * (see `accel/resident.ts`): their shapes, and the view and redaction memos
 * kept for a cache that such a process opened. The stages import this small
 * module, not the resident: the resident is a layer on top of them.
 *
 * @module
 */

import type { Cache } from "./cache.ts";

/** A view cache entry as `pipeline/_view_cache.ts` decodes it. */
export interface MemoEntry {
  output: { text: string };
  plugins: string[];
  warnings: string[];
}

/** A block's hash, length and count, as the count and place stages compute them. */
export interface BlockMemo {
  /** The block's text (the memo holds for this exact text only). */
  text: string;
  sha256: string;
  /** Its UTF-8 length. */
  length: number;
  /** Tokens by the tokenizer named. */
  tokens: number;
  tokenizer: string;
}

/** A memo that keeps what the current and the previous build used. */
export interface Memo<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
}

/** A redaction the secret stage made: the text views see, its hash, and the findings. */
export interface RedactionMemo {
  text: string;
  sha256: string;
  findings: Array<{ line: number; rule: string }>;
}

/** Decoded view entries of a cache opened by a resident (by cache key). */
const viewMemos = new WeakMap<Cache, Memo<MemoEntry>>();

/** Redactions kept for a cache opened by a resident (by scan key, path and content hash). */
const redactionMemos = new WeakMap<Cache, Memo<RedactionMemo>>();

/**
 * Keep memos for a cache a resident opened: the stages that use that cache find them.
 *
 * @example
 * ```ts
 * import { keepCacheMemos } from "./memo.ts";
 * // keepCacheMemos(cache, views, redactions)
 * ```
 */
export function keepCacheMemos(
  cache: Cache,
  views: Memo<MemoEntry>,
  redactions: Memo<RedactionMemo>,
): void {
  viewMemos.set(cache, views);
  redactionMemos.set(cache, redactions);
}

/**
 * The redactions kept for a cache, when a resident opened it.
 *
 * @example
 * ```ts
 * import { redactionMemo } from "./memo.ts";
 * // redactionMemo(cache)?.get(key)
 * ```
 */
export function redactionMemo(cache: Cache): Memo<RedactionMemo> | undefined {
  return redactionMemos.get(cache);
}

/**
 * The decoded view entries kept for a cache, when a resident opened it.
 *
 * @example
 * ```ts
 * import { viewMemo } from "./memo.ts";
 * // viewMemo(cache)?.get(key)
 * ```
 */
export function viewMemo(cache: Cache): Memo<MemoEntry> | undefined {
  return viewMemos.get(cache);
}
