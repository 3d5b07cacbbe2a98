/**
 * The secrets stage with its workers handed on: the same redactions and
 * findings as `redactSources()` of `pipeline/secrets.ts`, built on its steps
 * (`planScan`, `scanAll`, `applyScan`), except that the scan's workers keep the
 * texts of the files the hand-off names and, once the scan is done, go on to
 * count them (`precount.ts`) while this thread renders, instead of stopping.
 *
 * @module
 */

import {
  applyScan,
  type CountHelper,
  type PlanOptions,
  planScan,
  type ScanAhead,
  scanAll,
  type ScanOptions,
  scanProgress,
} from "../pipeline/secrets.ts";
import { lazyCopy, textBacking } from "../pipeline/lazy_text.ts";
import type { SecretFinding, SourceFile } from "../pipeline/types.ts";

/** Where the scan's workers go once the scan is done. */
export interface ScanHandOff {
  /** The files whose texts the workers keep. */
  keep: (file: SourceFile) => boolean;
  /** Take the workers, and the kept texts with the index of the worker that holds each. */
  take(files: Array<{ path: string; text: string; helper?: number }>, helpers: CountHelper[]): void;
}

/**
 * Redact every readable source in place as `redactSources()` does, then hand the scan's workers
 * on to `handOff` with the texts of the files it keeps (the workers stop when it keeps none).
 *
 * @example
 * ```ts
 * import { redactHandingOff } from "./scan_handoff.ts";
 * const handOff = { keep: () => true, take: () => {} };
 * await redactHandingOff([], {}, { handOff }); // []
 * ```
 */
export async function redactHandingOff(
  sources: SourceFile[],
  rules: Record<string, string>,
  options: ScanOptions & PlanOptions & {
    handOff: ScanHandOff;
    /**
     * Told, after the scan, the ids of the files found clean under the cache entry `key` (the
     * list as the cache now has it): a resident hands them to its next build (`cleanBefore`).
     */
    keepClean?: (key: string, ids: Set<string>) => void;
    /** The scan begun as files were read (`scanAhead()`): its results are taken. */
    ahead?: ScanAhead;
  },
): Promise<SecretFinding[]> {
  const { handOff, workers, ahead } = options;
  const plan = await planScan(sources, rules, options);
  const onScanned = scanProgress(sources, plan.todo, options.onProgress);
  // The workers keep (to count them next) only the texts of files whose blocks will hold them.
  const { results, helpers, owner } = await scanAll(plan.todo, rules, {
    workers,
    keep: handOff.keep,
    onScanned,
    ahead,
  });
  const findings = await applyScan(sources, plan, results);
  if (plan.cache?.enabled) {
    options.keepClean?.(plan.key, plan.stored ?? plan.before);
  }
  // The scan's workers go on to other work (counting the texts they kept) while this thread renders.
  const handed = plan.todo.filter(handOff.keep);
  if (helpers.length && handed.length) {
    // The worker that scanned each file keeps its text.
    handOff.take(handed.map((f) => handedFile(f, owner.get(f))), helpers);
  } else helpers.forEach((h) => h.stop());
  return findings;
}

/** A file as handed on: a lazy text (`lazy_text.ts`) stays lazy, read when it is counted. */
function handedFile(
  file: SourceFile,
  helper?: number,
): { path: string; text: string; helper?: number } {
  const backing = textBacking(file);
  const out = { path: file.path, text: backing ? "" : file.text!, helper };
  return backing ? lazyCopy(out, backing) : out;
}
