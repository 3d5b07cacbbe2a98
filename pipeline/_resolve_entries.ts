/**
 * A target's entry: every config entry that matched its path merged in
 * order (later keys win), and kept from one resolution to the next when
 * merged from the same entry objects, so that memos keyed on the entry
 * object hold across builds (`keepEntries`, for the speed layer).
 *
 * @module
 */

import type { FileEntry, Target } from "./types.ts";

/**
 * Give each target the merged entry object of the same path in `previous` when it was merged
 * from the same entry objects (memos keyed on entry objects then hold across builds), in place:
 * for a resolution just made.
 *
 * @example
 * ```ts
 * import { keepEntries, resolveTargets } from "./resolve.ts";
 * // const first = await resolveTargets(config);
 * // const again = await resolveTargets(config);
 * // keepEntries(again.targets, first); // again.targets[0].entry === first.targets[0].entry
 * ```
 */
export function keepEntries(targets: Target[], previous: { targets: Target[] }): void {
  const before = new Map(previous.targets.map((t) => [t.path, t.entry]));
  for (const target of targets) {
    const last = before.get(target.path);
    const from = mergedFrom.get(target.entry);
    if (last && from && sameItems(mergedFrom.get(last), from)) target.entry = last;
  }
}

/** The entries each merged entry was made from (the same objects: nothing else is compared). */
const mergedFrom = new WeakMap<FileEntry, FileEntry[]>();

/**
 * The config entries a merged entry was made from, in order (the same objects), or `undefined`
 * for an entry {@linkcode mergeEntries} did not make. Two merged entries of the same entries hold
 * the same values but their paths.
 *
 * @example
 * ```ts
 * import { mergedSources, mergeEntries } from "./_resolve_entries.ts";
 * const all = { path: "**", view: "outline" };
 * mergedSources(mergeEntries("a.ts", [all]))?.[0] === all; // true
 * ```
 */
export function mergedSources(entry: FileEntry): readonly FileEntry[] | undefined {
  return mergedFrom.get(entry);
}

function sameItems<T>(a: T[] | undefined, b: T[]): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Merge every matching entry in order; later keys win (like flat configs).
 *
 * @example
 * ```ts
 * import { mergeEntries } from "./_resolve_entries.ts";
 * mergeEntries("a.ts", [{ path: "**", view: "outline" }, { path: "a.ts", view: "full" }]);
 * // { path: "a.ts", view: "full" }
 * ```
 */
export function mergeEntries(path: string, entries: FileEntry[]): FileEntry {
  const merged: FileEntry = { path };
  mergedFrom.set(merged, entries);
  for (const entry of entries) {
    for (const [key, value] of Object.entries(entry)) {
      if (key === "path" || value === undefined) continue;
      if (key === "options") merged.options = { ...merged.options, ...(value as object) };
      else (merged as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return merged;
}
