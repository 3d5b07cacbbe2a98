import assert from "node:assert/strict";
import { anchorSlice, resolveSlice } from "../../plugins/view_modes/fuzzy_anchor.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { assertLinear } from "./_growth.ts";

const LINES = [4_000, 16_000, 64_000];

/** The work of finding a slice again in `lines`, and how it was found. */
async function resolveWork(
  lines: string[],
  slice: ReturnType<typeof anchorSlice>,
): Promise<[number, string]> {
  let status = "";
  const steps = await tallyWork(() => {
    status = resolveSlice(slice, lines).status;
  });
  return [steps.get("slices") ?? 0, status];
}

Deno.test("finding a slice again costs work linear in the file when every line looks like its anchors", async () => {
  const work: number[] = [];
  for (const n of LINES) {
    // A file of one repeated line: every position matches the anchors, none the content.
    const old = Array.from({ length: n }, () => "    return value;  // the same line");
    old[n / 2] = "    changed = 1;";
    const slice = anchorSlice(old, n / 2 + 1, n / 2 + 1, {});
    const now = [...old];
    now[n / 2] = "    changed = 2;";
    const [steps, status] = await resolveWork(now, slice);
    assert.equal(status, "re-anchored");
    work.push(steps);
  }
  assertLinear("repeated anchor lines", work, LINES);
});

Deno.test("finding a long slice again costs work linear in the file when its content is gone", async () => {
  const work: number[] = [];
  for (const n of LINES) {
    const old = Array.from({ length: n }, (_, i) => `line ${i % 97} of the file`);
    // A slice of a quarter of the file, then edited: no window has its hash.
    const slice = anchorSlice(old, n / 4, n / 2, {});
    const now = [...old];
    now[Math.floor(n / 3)] = "edited";
    const [steps] = await resolveWork(now, slice);
    work.push(steps);
  }
  assertLinear("long slice", work, LINES);
});
