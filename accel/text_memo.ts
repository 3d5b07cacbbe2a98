/**
 * What a build made from its unchanged texts, remembered for the next build:
 * a warm build keeps its cached renders' texts where the cache's pack has them
 * (`text_spill.ts`), each named by its record's checked sha256, and a value
 * made from such a text (the order memory's content key, a hash of the whole
 * text, its UTF-16 length and marks) is looked up by that name instead of made
 * again; so is the data limit of plain text its text decides (by the stat
 * index's recorded sha256), so an unchanged one is not read. Kept beside the
 * stat index, as JSON; a missing or damaged file is an empty memo. What it saves is
 * measured in bench/README.md ("Monorepo scale").
 *
 * @module
 */

import { dirname } from "../pipeline/paths.ts";
import { readSettingTextSync, STATE_FILE_LIMIT } from "../pipeline/helpers.ts";

/** Values made from texts, by the texts' names and what was made. */
export interface TextMemo {
  /** Those the last build made. */
  known: Map<string, string>;
  /** Those this build made or used (the next build's `known`). */
  used: Map<string, string>;
}

/**
 * The memo the last build saved at `path` (empty when there is none, or it is damaged).
 *
 * @example
 * ```ts
 * import { loadTextMemo } from "./text_memo.ts";
 * loadTextMemo("/no/such/memo.json").known.size; // 0
 * ```
 */
export function loadTextMemo(path: string): TextMemo {
  const known = new Map<string, string>();
  try {
    const data = JSON.parse(readSettingTextSync(path, STATE_FILE_LIMIT));
    if (Array.isArray(data?.entries)) {
      for (const entry of data.entries) {
        if (
          Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "string"
        ) known.set(entry[0], entry[1]);
      }
    }
  } catch {
    // None yet, or damaged: nothing known.
  }
  return { known, used: new Map() };
}

/**
 * Save what this build made or used (temp file and rename; failures are ignored: the memo only
 * spares work).
 *
 * @example
 * ```ts
 * import { loadTextMemo, saveTextMemo } from "./text_memo.ts";
 * const path = `${await Deno.makeTempDir()}/memo.json`;
 * const memo = loadTextMemo(path);
 * memo.used.set("name\0what", "value");
 * await saveTextMemo(path, memo);
 * loadTextMemo(path).known.get("name\0what"); // "value"
 * ```
 */
export async function saveTextMemo(path: string, memo: TextMemo): Promise<void> {
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(tmp, JSON.stringify({ entries: [...memo.used] }));
    await Deno.rename(tmp, path);
  } catch {
    await Deno.remove(tmp).catch(() => {});
  }
}

/**
 * `compute()`, or the value `memo` knows for the text `name` and `salt` (what is made); noted
 * as used either way (moved from `known` to `used`).
 *
 * @example
 * ```ts
 * import { memoized } from "./text_memo.ts";
 * const memo = { known: new Map(), used: new Map() };
 * memoized(memo, "abc+12", "content", () => "1f"); // "1f"
 * memo.used.size; // 1
 * ```
 */
export function memoized(
  memo: TextMemo,
  name: string,
  salt: string,
  compute: () => string,
): string {
  return memoizedIf(memo, name, salt, compute)!;
}

/**
 * {@linkcode memoized} of a `compute` that may make nothing (`undefined`: nothing is noted). The
 * key is made once and looked up at most twice: a big tree's warm build asks this of each kept
 * text twice (its measures, its content key), a recall and a remember each, which made the key
 * twice and went to the maps six times.
 *
 * @example
 * ```ts
 * import { memoizedIf } from "./text_memo.ts";
 * const memo = { known: new Map(), used: new Map() };
 * memoizedIf(memo, "abc+12", "measure", () => undefined); // undefined
 * memo.used.size; // 0
 * ```
 */
export function memoizedIf(
  memo: TextMemo,
  name: string,
  salt: string,
  compute: () => string | undefined,
): string | undefined {
  const key = `${name}\0${salt}`;
  const used = memo.used.get(key);
  if (used !== undefined) return used;
  // Moved, not copied: the two maps never hold a key each (about 100 characters a file).
  let value = memo.known.get(key);
  if (value !== undefined) memo.known.delete(key);
  else value = compute();
  if (value !== undefined) memo.used.set(key, value);
  return value;
}

/**
 * The value `memo` knows for the text `name` and `salt`, noted as used (moved from `known` to
 * `used`); `undefined` when it knows none (make it, then {@linkcode remember} it).
 *
 * @example
 * ```ts
 * import { recall, remember } from "./text_memo.ts";
 * const memo = { known: new Map(), used: new Map() };
 * recall(memo, "abc", "limit"); // undefined
 * remember(memo, "abc", "limit", "32768");
 * recall(memo, "abc", "limit"); // "32768"
 * ```
 */
export function recall(memo: TextMemo, name: string, salt: string): string | undefined {
  const key = `${name}\0${salt}`;
  const value = memo.used.get(key) ?? memo.known.get(key);
  if (value === undefined) return undefined;
  memo.known.delete(key);
  memo.used.set(key, value);
  return value;
}

/**
 * Note the value made from the text `name` for `salt` (the next build's memo holds it).
 *
 * @example
 * ```ts
 * import { remember } from "./text_memo.ts";
 * const memo = { known: new Map(), used: new Map() };
 * remember(memo, "abc", "limit", "32768");
 * memo.used.size; // 1
 * ```
 */
export function remember(memo: TextMemo, name: string, salt: string, value: string): void {
  const key = `${name}\0${salt}`;
  memo.known.delete(key);
  memo.used.set(key, value);
}
