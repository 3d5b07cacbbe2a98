import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { tempDir } from "../_helpers.ts";

Deno.test("a JSON document with every file skipped is one JSON value, cold and warm", async () => {
  const root = await tempDir({ prefix: "slop_empty_json_" });
  await Deno.writeFile(join(root, "a.bin"), new Uint8Array([0, 1, 2, 3]));
  const options = { cwd: root, inline: { output: { format: "json" as const } } };
  for (const build of ["cold", "warm"]) {
    const built = await buildContext(options, { write: build === "warm" });
    assert.deepEqual(JSON.parse(built.document), { format: "slop", version: 1, blocks: [] }, build);
    assert.equal(built.manifest.files[0].status, "skipped");
    const ends = built.manifest.blocks.map((b) => b.offset + b.length);
    assert.equal(ends.at(-1), new TextEncoder().encode(built.document).length, build);
  }
  await Deno.remove(root, { recursive: true });
});
