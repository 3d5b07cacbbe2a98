import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { warningsInOrder } from "../../pipeline/transform.ts";
import { tempDir } from "../_helpers.ts";

Deno.test("warnings of renders that end out of order are told in the files' order", () => {
  const told: string[] = [];
  const order = warningsInOrder(3, (m) => told.push(m));
  order.warnOf(2)("c1");
  order.warnOf(1)("b1");
  order.warnOf(0)("a1");
  order.done(2);
  order.warnOf(1)("b2");
  order.done(0);
  order.warnOf(1)("b3");
  order.done(1);
  assert.deepEqual(told, ["a1", "b1", "b2", "b3", "c1"]);
});

Deno.test("a view's warnings are listed in path order when the first file's render ends last", async () => {
  const root = await tempDir({ prefix: "slop_warning_order_" });
  await Deno.writeTextFile(join(root, "a.txt"), "a\n");
  await Deno.writeTextFile(join(root, "b.txt"), "b\n");
  // The render of a.txt waits for b.txt's to end: its warning comes second in time.
  let bEnded: () => void = () => {};
  const ended = new Promise<void>((resolve) => bEnded = resolve);
  const view = {
    kind: "view-mode",
    name: "late",
    version: "1",
    async render(file: { path: string; text: string }, ctx: { warn(m: string): void }) {
      if (file.path === "a.txt") await ended;
      ctx.warn(`[plugin late] Note on "${file.path}"`);
      if (file.path === "b.txt") bEnded();
      return file.text;
    },
  };
  const inline = { plugins: [view], files: [{ path: "*.txt", view: "late" }] };
  const built = await buildContext({ cwd: root, inline, noCache: true } as never, {
    write: false,
  });
  const notes = built.manifest.warnings.filter((w) => w.startsWith("[plugin late]"));
  assert.deepEqual(notes, ['[plugin late] Note on "a.txt"', '[plugin late] Note on "b.txt"']);
  await Deno.remove(root, { recursive: true });
});
