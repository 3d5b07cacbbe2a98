/**
 * How the budget (`budget.ts`) measures the document while it steps files
 * down: the total tokens and each file block's tokens, after every round of
 * steps and every step taken back.
 *
 * - {@linkcode assembledMeasure} assembles the whole document again (compose,
 *   order, format, place) each time: always right, and as much work as the
 *   document each time.
 * - {@linkcode countedMeasure} changes the total by the difference of the
 *   stepped file's block alone (its tokens counted once per view): one
 *   block's work per step. It is right when the document's total is the sum
 *   of its blocks' tokens (each block is counted on its own, `placeBlocks`)
 *   and a step changes nothing but its file's block, which holds for the
 *   markdown files section. The budget checks that on the real document
 *   ({@linkcode agrees}) before it keeps what the counts decided.
 *
 * @module
 */

import type { PlacedBlock, RenderedFile } from "./types.ts";

/** The document as the budget sees it, measured again as files change in place. */
export interface Measure {
  /** The document's tokens now. */
  total: number;
  /** Block tokens by the block's source path (the file blocks), now. */
  tokens: Map<string, number>;
  /** Measure again after the files at `indexes` changed in place. */
  remeasure(indexes: number[]): Promise<void>;
  /** Remember the measure now; the function returned puts it back. */
  mark(): () => void;
  /** How many times the whole document was assembled (work counted by the tests). */
  assembled: number;
}

/**
 * Block tokens by source path: what the budget's estimates start from.
 */
function blockTokens(placed: PlacedBlock[]): Map<string, number> {
  const tokens = new Map<string, number>();
  for (const b of placed) if (b.source !== undefined) tokens.set(b.source, b.tokens);
  return tokens;
}

/**
 * Sum of block tokens (the manifest's `total.tokens`).
 *
 * @example
 * ```ts
 * import { sumTokens } from "./_budget_measure.ts";
 * sumTokens([]); // 0
 * ```
 */
export function sumTokens(blocks: PlacedBlock[]): number {
  let n = 0;
  for (const b of blocks) n += b.tokens;
  return n;
}

/**
 * The measure that assembles the whole document each time; `placed()` is
 * the last document assembled.
 *
 * @example
 * ```ts
 * import { assembledMeasure } from "./_budget_measure.ts";
 * // const measure = assembledMeasure(placed, assemble);
 * ```
 */
export function assembledMeasure(
  placed: PlacedBlock[],
  assemble: () => Promise<PlacedBlock[]>,
): Measure & { placed(): PlacedBlock[]; stale: boolean } {
  let tokens: Map<string, number> | undefined;
  const measure = {
    /** The last document assembled was put back: the ordering rules last saw another. */
    stale: false,
    total: sumTokens(placed),
    get tokens() {
      return tokens ??= blockTokens(placed);
    },
    assembled: 0,
    async remeasure() {
      placed = await assemble();
      measure.assembled++;
      measure.total = sumTokens(placed);
      tokens = undefined;
      measure.stale = false;
    },
    mark() {
      const [was, total] = [placed, measure.total];
      return () => {
        [placed, measure.total, tokens] = [was, total, undefined];
        measure.stale = true;
      };
    },
    placed: () => placed,
  };
  return measure;
}

/**
 * The measure that counts the stepped files' blocks alone: `count(file)` is
 * a file's block tokens as the document would place it (undefined when it
 * has no block). The files of `placed` are counted as placed; a file object
 * is counted once.
 *
 * @example
 * ```ts
 * import { countedMeasure } from "./_budget_measure.ts";
 * // const measure = countedMeasure(files, placed, count);
 * ```
 */
export function countedMeasure(
  files: RenderedFile[],
  placed: PlacedBlock[],
  count: (file: RenderedFile) => Promise<number | undefined>,
): Measure {
  const tokens = blockTokens(placed);
  const known = new Map<RenderedFile, number | undefined>();
  for (const file of files) known.set(file, tokens.get(file.path));
  // What each change replaced, so that a mark can be put back: [path, tokens before].
  const log: Array<[string, number | undefined]> = [];
  const measure: Measure = {
    total: sumTokens(placed),
    tokens,
    assembled: 0,
    async remeasure(indexes) {
      for (const i of new Set(indexes)) {
        const file = files[i];
        if (!known.has(file)) known.set(file, await count(file));
        const now = known.get(file);
        const old = tokens.get(file.path);
        log.push([file.path, old]);
        measure.total += (now ?? 0) - (old ?? 0);
        if (now === undefined) tokens.delete(file.path);
        else tokens.set(file.path, now);
      }
    },
    mark() {
      const [at, total] = [log.length, measure.total];
      return () => {
        for (const [path, old] of log.splice(at).reverse()) {
          if (old === undefined) tokens.delete(path);
          else tokens.set(path, old);
        }
        measure.total = total;
      };
    },
  };
  return measure;
}

/**
 * Whether the assembled document `real` is what the counts say: the same
 * total and block tokens by source, and every block without a source (other
 * sections, headings) as it was before any step (`before`).
 *
 * @example
 * ```ts
 * import { agrees } from "./_budget_measure.ts";
 * // if (!agrees(real, measure, placedBeforeSteps)) { ... }
 * ```
 */
export function agrees(real: PlacedBlock[], measure: Measure, before: PlacedBlock[]): boolean {
  if (sumTokens(real) !== measure.total) return false;
  const tokens = blockTokens(real);
  if (tokens.size !== measure.tokens.size) return false;
  for (const [path, n] of tokens) if (measure.tokens.get(path) !== n) return false;
  const others = (blocks: PlacedBlock[]) =>
    blocks.filter((b) => b.source === undefined).map((b) => `${b.id}\0${b.sha256}\0${b.tokens}`);
  const [now, was] = [others(real), others(before)];
  return now.length === was.length && now.every((key, i) => key === was[i]);
}
