/**
 * Summary cache entries of the `llm_summary` view, one JSON file per entry,
 * keyed by content hash. Reads ignore missing, unreadable or corrupt entries
 * (the caller summarizes again and rewrites them); writes are atomic (temp
 * file, then rename).
 *
 * @module
 */

import { join } from "node:path";

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

/**
 * Read an entry; undefined when missing, corrupt or for other content.
 *
 * @example
 * ```ts
 * import { readEntry } from "./_summary_store.ts";
 * // const entry = await readEntry(".slop/cache/llm_summary", key, fileHash);
 * ```
 */
export async function readEntry(
  dir: string,
  key: string,
  fileHash: string,
): Promise<SummaryEntry | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await Deno.readTextFile(join(dir, `${key}.json`)));
  } catch {
    return undefined;
  }
  const entry = value as SummaryEntry;
  const ok = typeof entry === "object" && entry !== null &&
    ["file_path", "file_hash", "summary", "outline", "generated_at", "generator_tier"]
      .every((k) => typeof (entry as unknown as Record<string, unknown>)[k] === "string") &&
    entry.file_hash === fileHash && entry.summary.trim() !== "";
  return ok ? entry : undefined;
}

/**
 * Write an entry atomically; a failure to write is not an error (the cache is
 * an optimisation).
 *
 * @example
 * ```ts
 * import { writeEntry } from "./_summary_store.ts";
 * // await writeEntry(".slop/cache/llm_summary", key, entry);
 * ```
 */
export async function writeEntry(dir: string, key: string, entry: SummaryEntry): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true });
    const tmp = join(dir, `.${key}.${crypto.randomUUID()}.tmp`);
    await Deno.writeTextFile(tmp, JSON.stringify(entry, null, 2) + "\n");
    await Deno.rename(tmp, join(dir, `${key}.json`));
  } catch {
    // A read-only or full disk only costs a summary next time.
  }
}
