import assert from "node:assert/strict";

/**
 * The sizes (bytes) each shape is made at: 4 KB and 64 KB. Growth is a ratio, so the sizes need
 * only be 16x apart: a quadratic stage grows 256x at 16x whatever the first size. The ratios of
 * every shape at 4-64 KB were those at 16-256 KB within 0.7 (ranking, counting, the code views),
 * and those were the ratios at 64 KB-1 MB (bench/README.md, "The suite's time"). A size between
 * adds nothing: work that grows as size^k with k > 1 fails the bound at 16x sooner than at 4x
 * (16^k > 24 from k = 1.15, 4^k > 6 only from k = 1.3).
 */
export const SIZES = [4 * 1024, 64 * 1024];

/** The sizes for stages that cost more a byte (parsing, counting one huge piece): the same. */
export const SMALL_SIZES = SIZES;

/**
 * Assert that work grew about linearly with size: at each size, at most 1.5 times the linear
 * growth from the smallest (steps that do not depend on size, such as a parser's start,
 * only make the ratio smaller). A quadratic stage grows 16x and 256x.
 */
export function assertLinear(what: string, work: number[], sizes: number[] = SIZES): void {
  assert.ok(work[0] > 0, `${what}: no work counted`);
  for (let i = 1; i < work.length; i++) {
    const growth = work[i] / work[0];
    const linear = sizes[i] / sizes[0];
    assert.ok(
      growth <= linear * 1.5,
      `${what}: work grew ${growth.toFixed(1)}x for ${linear}x the input (${work.join(", ")})`,
    );
  }
}
