/**
 * The last document copied while the build runs: a `slop build` of its own
 * (no resident) reads the last document's record as its blocks are counted
 * and has the kernel copy that document to a hidden draft on the runtime's
 * thread pool (`makeDraft()` of `patch_write.ts`), while this thread counts,
 * writes the caches and makes the manifest. The emit stage then patches the draft (`writePatched()` renames it
 * into place) instead of copying the whole document on this thread first: the
 * same bytes, the copy no longer on the build's path. A draft the build did
 * not use (a document that shares too little with the last, a build that
 * failed or did not write) is removed once its copy is done.
 *
 * @module
 */

import {
  type Draft,
  dropDraft,
  loadWritten,
  makeDraft,
  type WrittenDocument,
} from "./patch_write.ts";
import { countWork } from "../pipeline/helpers.ts";

/** The last document's record, read as the build starts, and its draft under way. */
export interface DraftAhead {
  /** The last document's record (`undefined`: none, or damaged). */
  last?: WrittenDocument;
  /** The copy of the last document, once made (`undefined`: not made, see `makeDraft()`). */
  draft: Promise<Draft | undefined>;
}

/**
 * Read the record of the last document (at `writtenPath`) and start copying that document to a
 * draft beside it.
 *
 * @example
 * ```ts
 * import { startDraft } from "./draft_ahead.ts";
 * const ahead = startDraft("/no/such/record.doc.json");
 * ahead.last; // undefined: no last document, no copy
 * ```
 */
export function startDraft(writtenPath: string): DraftAhead {
  const last = loadWritten(writtenPath);
  if (last) countWork("last document drafted", 1);
  return { last, draft: last ? makeDraft(last) : Promise.resolve(undefined) };
}

/**
 * The last document's record with its draft once the copy is done, for `writePatched()` to
 * patch; `last` as given when it is not the record the draft was made from.
 *
 * @example
 * ```ts
 * import { startDraft, withDraft } from "./draft_ahead.ts";
 * await withDraft(startDraft("/no/such/record.doc.json"), undefined); // undefined
 * ```
 */
export async function withDraft(
  ahead: DraftAhead,
  last: WrittenDocument | undefined,
): Promise<WrittenDocument | undefined> {
  if (!last || last !== ahead.last) return last;
  const draft = await ahead.draft;
  return draft ? { ...last, draft } : last;
}

/**
 * Remove the draft when it was not used (renamed into place), once its copy is done.
 *
 * @example
 * ```ts
 * import { dropUnusedDraft, startDraft } from "./draft_ahead.ts";
 * await dropUnusedDraft(startDraft("/no/such/record.doc.json"));
 * ```
 */
export function dropUnusedDraft(ahead: DraftAhead): Promise<void> {
  const dropping = ahead.draft.then((draft) => {
    // Renamed into place by the emit stage: nothing is left at its path.
    if (draft) dropDraft(draft);
  });
  dropped.add(dropping);
  return dropping.finally(() => dropped.delete(dropping));
}

/** The drops of unused drafts under way ({@linkcode draftsDropped} waits for them). */
const dropped = new Set<Promise<void>>();

/**
 * Wait until every unused draft this process started to drop is gone (a build ends before the
 * copy it started may be done: a test looks at the output folder after this).
 *
 * @example
 * ```ts
 * import { draftsDropped } from "./draft_ahead.ts";
 * await draftsDropped();
 * ```
 */
export async function draftsDropped(): Promise<void> {
  await Promise.all([...dropped]);
}
