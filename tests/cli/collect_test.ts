import assert from "node:assert/strict";
import { collectGarbage } from "../../accel/collect.ts";

Deno.test("collectGarbage() collects what nothing refers to any more", async () => {
  let held: object | undefined = { data: new Array(1000).fill("x") };
  const ref = new WeakRef(held);
  held = undefined;
  // A weak reference holds its target until the current task is done.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(collectGarbage(), true);
  assert.equal(ref.deref(), undefined);
  // The flag is set only while the collector is looked for: later contexts have no `gc`.
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, "undefined");
});
