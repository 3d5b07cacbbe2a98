// The project folder of a running `slop mcp` deleted and made again (a fresh clone at the same
// path) is served again; deleted for good, each call says so in one line.
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject } from "../_helpers.ts";
import { connect, texts } from "./_client.ts";

Deno.test("slop mcp serves its project folder again when it is deleted and made again, and names it when it is gone", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const session = await connect(root);
  try {
    const first = await session.client.callTool({
      name: "view_files",
      arguments: { files: ["a.ts"] },
    });
    assert.ok(!first.isError, texts(first)[0]);
    await Deno.remove(root, { recursive: true });
    await makeProject({ "b.ts": "export const b = 2;\n" }, root);
    const remade = await session.client.callTool({
      name: "view_files",
      arguments: { files: ["b.ts"] },
    });
    assert.ok(!remade.isError, texts(remade)[0]);
    assert.match(texts(remade).join("\n"), /export const b = 2;/);
    await Deno.remove(root, { recursive: true });
    const gone = await session.client.callTool({ name: "build_context", arguments: {} });
    assert.equal(gone.isError, true);
    assert.deepEqual(texts(gone), [
      `The project folder "${await realParent(root)}" is gone (deleted or moved): start slop mcp ` +
      "again in the project's folder, or with --root <dir>",
    ]);
  } finally {
    await session.close();
  }
});

/** `path` with its parent's real path (the server names the root as it resolved it). */
async function realParent(path: string): Promise<string> {
  return join(await Deno.realPath(join(path, "..")), path.split("/").pop()!);
}
