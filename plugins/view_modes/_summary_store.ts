/**
 * Summary cache entries of the `llm_summary` view, kept in slop's
 * content-addressed store (`ctx.store`, in the cache folder) under a key made of the
 * prompt material, the path and the file's content hash. The view cache may
 * miss where these entries still hit (a new version of the outline or summary
 * view that renders the outline part): the model is not asked again for a
 * summary it already wrote. A corrupt entry reads as missing (the cache checks
 * its hash; this module checks its shape) and is rewritten by the next
 * summary.
 *
 * @module
 */

import { cacheKey } from "../../pipeline/helpers.ts";
import type { Store } from "../../pipeline/types.ts";

/** A summary cache entry: the seed's data model (snake_case as in the seed). */
export interface SummaryEntry {
  /** Path relative to the project root when it was summarized. */
  file_path: string;
  /** sha256 of the file's bytes. */
  file_hash: string;
  /** The model's summary. */
  summary: string;
  /** The outline of a code file (empty for other files). */
  outline: string;
  /** ISO timestamp of the summary; never part of the document. */
  generated_at: string;
  /** Which tier asked for it (`tier-1`, `tier-2`, `tier-3`, `default`). */
  generator_tier: string;
}

const FIELDS = ["file_path", "file_hash", "summary", "outline", "generated_at", "generator_tier"];

/**
 * The cache key of a summary: the prompt material's hash, the path (the
 * prompt names it) and the content hash.
 *
 * @example
 * ```ts
 * import { entryKey } from "./_summary_store.ts";
 * entryKey("<material sha256>", { path: "src/a.py", sha256: "<file sha256>" }).length; // 64
 * ```
 */
export function entryKey(material: string, file: { path: string; sha256: string }): string {
  return cacheKey(["llm_summary", material, file.path, file.sha256]);
}

/**
 * Read an entry; undefined when missing or corrupt (a field missing, an
 * empty summary). Store entries with `store.set(key, entry)`.
 *
 * @example
 * ```ts
 * import { readEntry } from "./_summary_store.ts";
 * // const entry = await readEntry(ctx.store, key);
 * ```
 */
export async function readEntry(store: Store, key: string): Promise<SummaryEntry | undefined> {
  const value = await store.get<Record<string, unknown>>(key);
  const ok = typeof value === "object" && value !== null &&
    FIELDS.every((k) => typeof value[k] === "string") && (value.summary as string).trim() !== "";
  return ok ? value as unknown as SummaryEntry : undefined;
}
