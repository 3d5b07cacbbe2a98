/**
 * The targets of the selected paths, in path order: each with its merged
 * entry, its skip reason (a folder row, a secret file, a generated file, an
 * older schema, a name no path opens) and the limits and marks the read and
 * transform stages heed for a file the config does not name (an SVG's, a
 * data file's, a translation's; text to judge generated).
 *
 * @module
 */

import {
  dataLimitOf,
  isDataFile,
  isGettextFile,
  olderSchemaReason,
  olderSchemas,
  SHOWN_TRANSLATION_LIMIT,
  TRANSLATION_LIMIT,
  translationSets,
} from "./data_files.ts";
import { isCodeFile } from "./number_tables.ts";
import { isAbsolute } from "./_path.ts";
import { compiledSources } from "./_generated_text.ts";
import type { Target } from "./types.ts";
import { comparePaths } from "./helpers.ts";
import {
  generatedReason,
  isSvg,
  SECRET_FILE_REASON,
  SVG_LIMIT,
  UNDECODABLE,
  UNDECODABLE_REASON,
} from "./_default_skips.ts";
import type { Selection } from "./_resolve_select.ts";
import { mergeEntries } from "./_resolve_entries.ts";
import { underRoot } from "./_resolve_disk.ts";

/**
 * The targets of the selected paths, in path order, each with its merged entry and skip reason.
 *
 * @example
 * ```ts
 * import { toTargets } from "./_resolve_targets.ts";
 * // const targets = toTargets(config.root, { paths, selection, folders, attributes, notGenerated });
 * ```
 */
export function toTargets(
  root: string,
  { paths, selection, folders, attributes, notGenerated }: {
    paths: string[];
    selection: Selection;
    folders: Map<string, string>;
    attributes: Map<string, string>;
    notGenerated: Set<string>;
  },
): Target[] {
  const abs = underRoot(root);
  // Sibling translations (`locales/*.json`): one of each set shown whole (at any size: the rest's
  // summaries leave their keys and texts to it), the rest summarized.
  const translations = translationSets(paths);
  const shownWhole = new Set(translations.values());
  // A database's exported schemas, one file a version (Android Room): the latest is shown.
  const olderSchema = olderSchemas(paths);
  // Compiled CSS and JavaScript with their sources in the project: skipped when the text says
  // compiled (a file without its source or map is the only copy of its code).
  const compiled = compiledSources(paths);
  return paths.sort(comparePaths).map((path): Target => {
    const slot = selection.selected.get(path)!;
    // Lockfiles and other generated files are listed as skipped unless the config names them.
    const skip = folders.get(path) ??
      (undecodable(root, path)
        ? UNDECODABLE_REASON
        : selection.secretSkipped.has(path)
        ? SECRET_FILE_REASON
        : slot.named
        ? undefined
        : generatedReason(path) ?? attributes.get(path) ?? olderReason(olderSchema.get(path)));
    return {
      path,
      absPath: isAbsolute(path) ? path : abs(path),
      entry: mergeEntries(path, slot.entries),
      explicit: slot.explicit,
      ...(skip ? { skip } : {}),
      // A large SVG is image data: skipped by the read stage unless the config names it.
      ...(!slot.named && isSvg(path) ? { imageLimit: SVG_LIMIT } : {}),
      // A file whose text shows it generated: skipped by the read stage unless named or unmarked.
      ...(!slot.named && !skip && !notGenerated.has(path) ? judged(compiled.get(path)) : {}),
      // A large data file is summarized by the transform stage unless the config names it.
      ...(!slot.named ? dataLimits(path, translations.get(path), shownWhole.has(path)) : {}),
    };
  });
}

/** An older schema version's skip reason (none for any other file). */
function olderReason(latest: string | undefined): string | undefined {
  return latest === undefined ? undefined : olderSchemaReason(latest);
}

/** A target's fields when the read stage judges its text generated. */
function judged(compiledSource: string | undefined): Partial<Target> {
  return compiledSource === undefined
    ? { judgeGenerated: true }
    : { judgeGenerated: true, compiledSource };
}

/**
 * The limits a file the config does not name is summarized over: a translation beside the one
 * of its set shown whole over `TRANSLATION_LIMIT`, the one `shown` (English, a template, a first
 * catalog) and a gettext template or catalog in no set over `SHOWN_TRANSLATION_LIMIT`, another
 * data file over its own limit (`dataLimitOf`: 8 KB for a file an editor writes or an SVG, else
 * 32 KB).
 */
function dataLimits(
  path: string,
  translationOf: string | undefined,
  shown: boolean,
): Partial<Target> {
  if (translationOf !== undefined) return { dataLimit: TRANSLATION_LIMIT, translationOf };
  if (shown || isGettextFile(path)) return { dataLimit: SHOWN_TRANSLATION_LIMIT };
  // Code may be number tables: its limit is the data limit until its text says it is code
  // (`limitByText`, by the read stage).
  return isDataFile(path) || isCodeFile(path) ? { dataLimit: dataLimitOf(path) } : {};
}

/** A listed path with U+FFFD in its name that no file answers to (see {@linkcode existing}). */
function undecodable(root: string, path: string): boolean {
  if (!path.includes(UNDECODABLE) || isAbsolute(path)) return false;
  try {
    Deno.lstatSync(underRoot(root)(path));
    return false;
  } catch {
    return true;
  }
}
