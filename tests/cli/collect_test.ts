import assert from "node:assert/strict";
import { BIG_TREE_V8_FLAGS } from "../../cli/_v8_flags.ts";

Deno.test("collectGarbage() collects what nothing refers to any more", async () => {
  // In a process of its own started without `--expose-gc` (the suite's test process has it, so
  // its collector is V8's own): here the collector is the one of a context made with the flag set
  // at run time, as in a small tree's `slop watch`.
  const module = new URL("../../accel/collect.ts", import.meta.url).href;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { collectGarbage } from "${module}";
       const before = typeof globalThis.gc;
       let held = { data: new Array(1000).fill("x") };
       const ref = new WeakRef(held);
       held = undefined;
       // A weak reference holds its target until the current task is done.
       await new Promise((resolve) => setTimeout(resolve, 0));
       const collected = collectGarbage();
       console.log(JSON.stringify({ before, collected, gone: ref.deref() === undefined, after: typeof globalThis.gc }));`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.success, true, new TextDecoder().decode(out.stderr));
  // The flag is set only while the collector is looked for: later contexts have no `gc`.
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), {
    before: "undefined",
    collected: true,
    gone: true,
    after: "undefined",
  });
});

Deno.test("collectGarbage() in a big tree's process is one full collection", async () => {
  // The spill asks for a collection every 128M characters (27 in a cold build of the monorepo):
  // counted here by V8's trace, one line a collection.
  const module = new URL("../../accel/collect.ts", import.meta.url).href;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `${BIG_TREE_V8_FLAGS},--trace-gc`,
      `import { collectGarbage } from "${module}";
       const held = Array.from({ length: 20000 }, (_, i) => ({ i }));
       collectGarbage();
       if (!held.length) throw new Error("lost");`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const trace = new TextDecoder().decode(out.stdout);
  assert.equal(out.success, true, new TextDecoder().decode(out.stderr));
  const full = trace.split("\n").filter((line) => line.includes("Mark-Compact"));
  assert.equal(full.length, 1, trace);
});
