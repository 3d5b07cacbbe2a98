/**
 * The selection: the files the config's entries (`files`, then `include`)
 * select, each with the entries that matched it and whether one names it;
 * the secret files a folder or glob matched (skipped, never read); the files
 * of a vendored folder an entry names (kept).
 *
 * @module
 */

import type { FileEntry, ResolvedConfig } from "./types.ts";
import { isGlob, normalizeEntryPath } from "./helpers.ts";
import { namesVendored, vendoredFolderOf } from "./_vendored.ts";
import { globNames } from "./_default_skips.ts";
import type { Candidates } from "./_resolve_candidates.ts";
import type { FileFilters } from "./_resolve_filters.ts";
import { matchEntry } from "./_resolve_match.ts";
import { toRootRelative } from "./_resolve_disk.ts";

/**
 * The entries that matched each selected file, whether one named it explicitly, and whether one
 * names it (`named`: a literal path or a glob that spells the file; a generated file is kept).
 */
export interface Slot {
  entries: FileEntry[];
  explicit: boolean;
  named: boolean;
}

/** The files selected so far, and the secret files skipped (listed as skipped, never read). */
export interface Selection {
  selected: Map<string, Slot>;
  secretSkipped: Set<string>;
  /** Files in a vendored folder that an entry or build path naming the folder matched: kept. */
  vendorNamed: Set<string>;
}

/**
 * Add an entry's match to the selection (`named` defaults to `explicit`).
 *
 * @example
 * ```ts
 * import { select } from "./_resolve_select.ts";
 * const selection = { selected: new Map(), secretSkipped: new Set<string>(), vendorNamed: new Set<string>() };
 * select(selection, "a.ts", { entry: { path: "a.ts" }, explicit: true });
 * ```
 */
export function select(
  selection: Selection,
  path: string,
  { entry, explicit, named = explicit }: { entry: FileEntry; explicit: boolean; named?: boolean },
): void {
  const slot = selection.selected.get(path) ?? { entries: [], explicit: false, named: false };
  slot.entries.push(entry);
  slot.explicit ||= explicit;
  slot.named ||= named;
  selection.selected.set(path, slot);
}

/**
 * Select the files each entry of `files` and `include` matches.
 *
 * @example
 * ```ts
 * import { selectEntries } from "./_resolve_select.ts";
 * // const selection = await selectEntries(config, { found, filters, warnings });
 * ```
 */
export async function selectEntries(
  config: ResolvedConfig,
  { found, filters, warnings }: { found: Candidates; filters: FileFilters; warnings: string[] },
): Promise<Selection> {
  const selection: Selection = {
    selected: new Map(),
    secretSkipped: new Set(),
    vendorNamed: new Set(),
  };
  const entries: Array<{ entry: FileEntry; label: string }> = [
    ...config.files.map((entry, i) => ({ entry, label: `files[${i}]` })),
    ...config.include.map((path, i) => ({ entry: { path }, label: `include[${i}]` })),
  ];
  // Files that usually hold secrets, matched by a glob or a folder: listed as skipped, never read.
  const { secretSkipped } = selection;
  for (const { entry, label } of entries) {
    const matched = await matchEntry(entry, { config, found, warnings, label });
    const glob = isGlob(entry.path) ? normalizeEntryPath(entry.path) : undefined;
    const rel = found.vendored.size ? entryRel(entry, config.root) : undefined;
    for (const { path, explicit } of matched) {
      if (filters.isHistoryFile(path) || (!explicit && filters.isExcluded(path))) continue;
      if (rel !== undefined) noteVendorNamed(selection, path, { found, rel });
      if (!explicit && filters.isSecretFile(path)) {
        if (!selection.selected.has(path)) secretSkipped.add(path);
        continue;
      }
      secretSkipped.delete(path);
      const named = explicit || (glob !== undefined && globNames(glob, path));
      select(selection, path, { entry, explicit, named });
    }
  }
  return selection;
}

/** The root-relative path or glob of an entry (`""` for one that leaves the root). */
function entryRel(entry: FileEntry, root: string): string {
  const rel = toRootRelative(normalizeEntryPath(entry.path), root, root) ?? "";
  return rel.startsWith("../") ? "" : rel;
}

/**
 * Note whether `rel` (an entry's path or glob, or a build path) names `path`'s vendored folder.
 *
 * @example
 * ```ts
 * import { noteVendorNamed } from "./_resolve_select.ts";
 * // noteVendorNamed(selection, "vendor/x/a.go", { found, rel: "vendor/x" });
 * ```
 */
export function noteVendorNamed(
  selection: Selection,
  path: string,
  { found, rel }: { found: Candidates; rel: string },
): void {
  const folder = vendoredFolderOf(path, found.vendored);
  if (folder !== undefined && namesVendored(rel, folder)) selection.vendorNamed.add(path);
}
