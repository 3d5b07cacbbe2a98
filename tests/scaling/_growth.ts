import assert from "node:assert/strict";

/**
 * The sizes (bytes) each shape is made at: 16 KB, 64 KB, 256 KB. Growth is a ratio, so the sizes
 * need only be 4x and 16x apart: a quadratic stage grows 256x at 16x whatever the first size (the
 * ratios measured at 64 KB to 1 MB were the same; bench/README.md, "The suite's time").
 */
export const SIZES = [16 * 1024, 64 * 1024, 256 * 1024];

/** Smaller sizes, for stages that cost more a byte (parsing, counting one huge piece). */
export const SMALL_SIZES = [4 * 1024, 16 * 1024, 64 * 1024];

/**
 * Assert that work grew about linearly with size: at 4x and 16x the smallest size, at most
 * 1.5 times the linear growth (steps that do not depend on size, such as a parser's start,
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
