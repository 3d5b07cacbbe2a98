import assert from "node:assert/strict";
import { join } from "node:path";
import { writeAtomic } from "../../mod.ts";
import { tempDir } from "../_helpers.ts";

Deno.test("writeAtomic() fails with a sentence naming the file, keeps the error's kind and leaves no temp file", async () => {
  const dir = await tempDir();
  const target = join(dir, "context.json");
  await Deno.mkdir(target); // a folder where the file should go
  const error = await writeAtomic(target, "{}\n").then(() => undefined, (e) => e);
  assert.ok(error instanceof Deno.errors.IsADirectory, String(error));
  assert.equal(error.message, `Cannot write "${target}": is a directory`);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["context.json"]);

  const missing = join(dir, "no", "such", "folder", "x.json");
  const gone = await writeAtomic(missing, "x").then(() => undefined, (e) => e);
  assert.ok(gone instanceof Deno.errors.NotFound, String(gone));
  assert.equal(gone.message, `Cannot write "${missing}": no such file or directory`);
  await Deno.remove(dir, { recursive: true });
});
