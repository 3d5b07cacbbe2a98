import assert from "node:assert/strict";
import { memoized, memoizedIf, type TextMemo } from "../../accel/text_memo.ts";

/** A memo whose maps count the calls made to them. */
function countedMemo(known: Array<[string, string]>): { memo: TextMemo; calls: () => number } {
  let calls = 0;
  const counted = (entries: Array<[string, string]>) => {
    const map = new Map(entries);
    for (const name of ["get", "set", "delete", "has"] as const) {
      const real = map[name].bind(map) as (...args: unknown[]) => unknown;
      Object.defineProperty(map, name, {
        value: (...args: unknown[]) => {
          calls++;
          return real(...args);
        },
      });
    }
    return map;
  };
  return { memo: { known: counted(known), used: counted([]) }, calls: () => calls };
}

Deno.test("a value the last build made is moved to this build's memo, not made again", () => {
  const { memo, calls } = countedMemo([["t1\0measure", "12 0 1"]]);
  let made = 0;
  const value = memoized(memo, "t1", "measure", () => String(++made));
  assert.equal(value, "12 0 1");
  assert.equal(made, 0);
  assert.deepEqual([...memo.known], []);
  assert.deepEqual([...memo.used], [["t1\0measure", "12 0 1"]]);
  // Asked again in the same build: from this build's memo, one lookup.
  const before = calls();
  assert.equal(memoized(memo, "t1", "measure", () => String(++made)), "12 0 1");
  assert.equal(calls() - before, 1);
  assert.equal(made, 0);
});

Deno.test("a value looked up costs at most four map calls, made or known", () => {
  const { memo, calls } = countedMemo([["a\0content", "k1"]]);
  memoized(memo, "a", "content", () => "never");
  assert.ok(calls() <= 4, `${calls()} map calls for a known value`);
  const before = calls();
  assert.equal(memoized(memo, "b", "content", () => "k2"), "k2");
  assert.ok(calls() - before <= 4, `${calls() - before} map calls for a new value`);
  assert.deepEqual([...memo.used].sort(), [["a\0content", "k1"], ["b\0content", "k2"]]);
});

Deno.test("a value that cannot be made is not noted, and is asked again next time", () => {
  const { memo } = countedMemo([]);
  let asked = 0;
  assert.equal(memoizedIf(memo, "gone", "measure", () => (asked++, undefined)), undefined);
  assert.equal(memoizedIf(memo, "gone", "measure", () => (asked++, undefined)), undefined);
  assert.equal(asked, 2);
  assert.equal(memo.used.size, 0);
  // Other salts of the same text are other values.
  assert.equal(memoizedIf(memo, "gone", "content", () => "c"), "c");
  assert.deepEqual([...memo.used], [["gone\0content", "c"]]);
});
