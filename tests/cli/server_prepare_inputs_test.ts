import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../mod.ts";
import { inputStamps, preparable, unchangedInputs } from "../../server/_prepare.ts";
import { makeProject } from "../_helpers.ts";

async function configOf(body: string) {
  const root = await makeProject({
    "slop.config.ts": `export default ${body};\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  return await loadConfig({ cwd: root });
}

Deno.test("preparable() refuses configs whose builds read what slop cannot stamp, or that say so", async () => {
  assert.equal(preparable(await configOf(`{ files: ["src/**"] }`)), true);
  const refused = {
    "a user plugin":
      `{ files: ["src/**"], plugins: [{ kind: "section", name: "x", compose: () => [] }] }`,
    "a discussion history": `{ files: ["src/**"], history: "chat.jsonl" }`,
    "Beads": `{ files: ["src/**"], beads: true }`,
    "a token budget": `{ files: ["src/**"], budget: { tokens: 1000 } }`,
    "files outside the root": `{ files: ["src/**"], allowOutsideRoot: true }`,
    "no cache": `{ files: ["src/**"], cache: { enabled: false } }`,
    "server.prepare false": `{ files: ["src/**"], server: { prepare: false } }`,
  };
  for (const [what, body] of Object.entries(refused)) {
    assert.equal(preparable(await configOf(body)), false, what);
  }
});

Deno.test("inputStamps() tells a lock, a digest or a screenshot written since, and nothing else", async () => {
  const config = await configOf(
    `{ files: ["src/**"], knowledge: { digest: true }, screenshots: ["shots/a.png"] }`,
  );
  const stamps = inputStamps(config);
  const paths = stamps.map(([path]) => path);
  for (const path of [config.lock, config.slicesFile, join(config.knowledge.dir, "digest.md")]) {
    assert.ok(paths.includes(path), path);
  }
  assert.ok(unchangedInputs(stamps));
  // A project file is the watcher's to tell, not a stamp's.
  await Deno.writeTextFile(join(config.root, "src/a.ts"), "export const a = 2;\n");
  assert.ok(unchangedInputs(stamps));
  for (
    const made of [
      config.lock,
      join(config.knowledge.dir, "digest.md"),
      join(config.root, "shots/a.png"),
    ]
  ) {
    const before = inputStamps(config);
    await Deno.mkdir(join(made, ".."), { recursive: true });
    await Deno.writeTextFile(made, "new\n");
    assert.equal(unchangedInputs(before), false, made);
  }
});
