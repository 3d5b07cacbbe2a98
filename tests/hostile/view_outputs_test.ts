import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/** A build of `a.ts` in the view `v`, whose hooks are `hooks`. */
async function build(root: string, hooks: Record<string, unknown>) {
  const view = { kind: "view-mode" as const, name: "v", version: "1", ...hooks };
  return await buildContext({
    cwd: root,
    inline: { files: [{ path: "a.ts", view: "v" }], plugins: [view as never] },
  }, { write: false });
}

/**
 * A view's output with accessors or fields of another type, and an `accepts` that throws: a
 * getter that threw, and `accepts`, were slop's own errors naming no plugin ("getter"); `notes:
 * [5]` ended the build as an internal error (`n.startsWith is not a function`); a getter was read
 * three times, so what was checked was not what was shown.
 */
Deno.test("a view's output is read once, its fields checked, and its accepts hook named when it throws", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      "a getter that throws",
      {
        render: () => ({
          get text(): string {
            throw new Error("getter");
          },
        }),
      },
      '[plugin v] Hook "render" returned an output that cannot be read for "a.ts": getter',
    ],
    [
      "notes of numbers",
      { render: () => ({ text: "x\n", notes: [5] }) },
      '[plugin v] Hook "render" returned an output for "a.ts": "notes" must be an array of strings',
    ],
    [
      "fenced of another type",
      { render: () => ({ text: "x\n", fenced: "no" }) },
      '[plugin v] Hook "render" returned an output for "a.ts": "fenced" must be a boolean',
    ],
    [
      "an accepts that throws",
      {
        accepts: () => {
          throw new Error("accepts threw");
        },
        render: () => "x\n",
      },
      '[plugin v] Hook "accepts" failed on "a.ts": accepts threw',
    ],
  ];
  for (const [name, hooks, reason] of cases) {
    const result = await build(root, hooks);
    const row = result.manifest.files.find((f) => f.path === "a.ts");
    assert.equal(row?.status, "error", name);
    assert.equal(row?.reason, reason, name);
  }
  let reads = 0;
  const changing = await build(root, {
    render: () => ({
      get text(): string {
        return `read ${++reads}\n`;
      },
    }),
  });
  assert.ok(changing.document.includes("read 1\n"), changing.document);
  assert.equal(reads, 1);
});
