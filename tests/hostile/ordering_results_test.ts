import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import type { Block } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/** A build of `a.ts` with an ordering rule whose `order` returns `order(blocks)`. */
async function build(root: string, order: (blocks: Block[]) => unknown) {
  const rule = { kind: "ordering" as const, name: "odd", order: (b: Block[]) => order(b) as never };
  return await buildContext({ cwd: root, inline: { files: ["a.ts"], plugins: [rule] } }, {
    write: false,
  });
}

/**
 * An ordering rule may only reorder: one that returned copies of the blocks with another text
 * (a password put back, a block rewritten) changed the document after its secrets were redacted,
 * and one whose blocks threw as they were read was slop's own error, naming no plugin.
 */
Deno.test("an ordering rule that changes a block's text, section or stability, or whose blocks throw, is an error naming it", async () => {
  const key = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";
  const root = await makeProject({ "a.ts": `export const token = "${key}";\n` });
  const cases: Array<[string, (blocks: Block[]) => unknown, RegExp]> = [
    [
      "text",
      (b) => b.map((x) => x.id === "files:a.ts" ? { ...x, text: `token ${key}\n\n` } : x),
      /^\[plugin odd\] Hook "order" changed block "files:a\.ts" \(its "text"\): rules may only reorder$/,
    ],
    [
      "stability",
      (b) => b.map((x) => ({ ...x, stability: "volatile" })),
      /^\[plugin odd\] Hook "order" changed block "files" \(its "stability"\)/,
    ],
    [
      "a getter that throws",
      (b) =>
        b.map((x, i) =>
          i > 0 ? x : Object.defineProperty({ ...x }, "id", {
            get() {
              throw new Error("getter id");
            },
          })
        ),
      /^\[plugin odd\] Hook "order" returned blocks that cannot be read: getter id$/,
    ],
  ];
  for (const [name, order, message] of cases) {
    await assert.rejects(build(root, order), (error: Error) => {
      assert.match(error.message, message, name);
      return true;
    });
  }
  // Copies of the same blocks in another order are the blocks themselves.
  const plain = await build(root, (b) => b);
  const copied = await build(root, (b) => b.map((x) => ({ ...x })));
  assert.equal(copied.document, plain.document);
  assert.ok(!plain.document.includes(key));
});
