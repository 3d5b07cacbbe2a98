import assert from "node:assert/strict";
import { makeProject, tempDir } from "../_helpers.ts";
import { build, countTokens, defaultPlugins, loadConfig } from "../../mod.ts";
import { invalidationCosts } from "../../pipeline/pin.ts";

// Russian prose: o200k counts it in far fewer tokens than cl100k, so a cost
// that took one for the other would be off by a wide margin.
const PROSE = "Быстрая бурая лиса перепрыгивает через ленивую собаку. ".repeat(40);

Deno.test("invalidation costs: a lock counted in cl100k is converted for an o200k model", async () => {
  const root = await makeProject({
    "notes.md": PROSE,
    "slop.config.ts": `export default { files: ["notes.md"], budget: { tokenizer: "cl100k" } };\n`,
  });
  const config = await loadConfig({ cwd: root, stateDir: await tempDir() });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  const cl100k = result.manifest.total.tokens;
  assert.equal(cl100k, await countTokens(result.document, "cl100k"), "the build counts in cl100k");
  const o200k = await countTokens(result.document, "o200k");
  assert.ok(o200k < cl100k * 0.8, `o200k ${o200k} vs cl100k ${cl100k}`);
  const costs = await invalidationCosts(config, defaultPlugins(), 1000, result);
  const openai = costs.find((c) => c.provider === "slop:openai");
  assert.ok(openai, JSON.stringify(costs));
  assert.equal(openai.tokens, Math.round(1000 * o200k / cl100k));
  assert.equal(openai.estimated, true, "scaled by the document's ratio");
  const anthropic = costs.find((c) => c.provider === "slop:anthropic");
  assert.ok(anthropic);
  assert.equal(anthropic.tokens, Math.round(1000 * Math.ceil(o200k * 1.2) / cl100k));
});

Deno.test("invalidation costs: an o200k lock is exact for an o200k model", async () => {
  const root = await makeProject({ "notes.md": PROSE });
  const config = await loadConfig({ cwd: root, stateDir: await tempDir() });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  const costs = await invalidationCosts(config, defaultPlugins(), 1000, result);
  const openai = costs.find((c) => c.provider === "slop:openai");
  assert.ok(openai);
  assert.equal(openai.tokens, 1000);
  assert.equal(openai.estimated, undefined);
});
