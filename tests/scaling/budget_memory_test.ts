import assert from "node:assert/strict";
import { join } from "node:path";
import { moduleText } from "../../bench/modules.ts";
import { heldMarks } from "./_held_marks.ts";
import { tempDir } from "../_helpers.ts";

/**
 * What a skeleton build holds at the end of each stage, less what it held before reading any
 * file (`_held.ts`, in its own process: bytes counted after a full collection, never timed), with
 * `budget` tokens or none. 80 files of about 25 KB (eight generated modules each), 1.8 MB of text.
 */
async function held(budget?: number): Promise<{ held: Map<string, number>; textBytes: number }> {
  const root = await tempDir({ prefix: "slop_budget_held_" });
  let textBytes = 0;
  const files = 80;
  for (let i = 0; i < files; i++) {
    const text = Array.from({ length: 8 }, (_, k) => moduleText(i * 8 + k, files * 8)).join("\n");
    await Deno.mkdir(join(root, "src"), { recursive: true });
    await Deno.writeTextFile(join(root, "src", `m${i}.${i % 2 ? "py" : "ts"}`), text);
    textBytes += text.length;
  }
  const config = { files: ["src/**"], defaultView: "skeleton", budget: { tokens: budget } };
  await Deno.writeTextFile(
    join(root, "slop.config.js"),
    `export default ${JSON.stringify(config)};\n`,
  );
  const marks = await heldMarks(root, "plain");
  await Deno.remove(root, { recursive: true });
  return { held: new Map(marks.map((m) => [m.stage, m.bytes])), textBytes };
}

Deno.test("a build with a budget lets the sources' texts go after the transform, as one without", async () => {
  // The two builds are processes of their own, with trees of their own: run side by side.
  const [free, fitted] = await Promise.all([held(), held(60_000)]);
  const { textBytes } = free;
  // The texts are held after reading (the measure sees them) ...
  assert.ok(fitted.held.get("read")! >= textBytes / 2, `read: ${fitted.held.get("read")}`);
  // ... and no longer once rendered: a skeleton's blocks hold far less than the sources. The
  // bound is half the texts: the budget stage holds its own state too (each file's stepped
  // views, their token counts waiting to be written to the cache), about 400 KB here, which
  // varies by tens of KB with the collector's timing; texts kept after the transform add 1.8 MB.
  const slack = textBytes / 2;
  for (const stage of ["transform", "count", "budget"]) {
    const [a, b] = [free.held.get(stage), fitted.held.get(stage)];
    if (a === undefined || b === undefined) {
      assert.equal(stage, "budget", `no "${stage}" mark`);
      continue;
    }
    assert.ok(b <= a + slack, `${stage}: ${b} bytes held with a budget, ${a} without`);
  }
  assert.ok(fitted.held.get("budget")! <= free.held.get("count")! + slack);
});
