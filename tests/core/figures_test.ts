import assert from "node:assert/strict";
import { formatCount } from "../../pipeline/figures.ts";
import { prng } from "../_helpers.ts";

Deno.test("a count is grouped by thousands as en-US writes it, whole or not, of any sign", () => {
  const next = prng(3);
  const counts = [0, -0, 1, -1, 999, 1000, -1000, 123456, 1234567, 2 ** 53 - 1, -(2 ** 53 - 1)];
  counts.push(2 ** 53, 1e21, 1.5, 0.1, -2.25, NaN, Infinity, -Infinity);
  for (let i = 0; i < 20000; i++) {
    counts.push(Math.floor((next() - 0.5) * 10 ** Math.floor(next() * 16)));
  }
  for (const n of counts) assert.equal(formatCount(n), n.toLocaleString("en-US"), String(n));
  assert.equal(formatCount(14258), "14,258");
});
