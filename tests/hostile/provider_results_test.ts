import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { renderPayload } from "../../cli/payload.ts";
import { makeProject } from "../_helpers.ts";

/** A project whose config's provider `p` has the hook `hook` (its source). */
async function project(hook: string): Promise<string> {
  return await makeProject({
    "a.ts": "export const a = 1;\n",
    "slop.config.ts": `export default {\n  files: ["a.ts"],\n  provider: { name: "p" },\n` +
      `  plugins: [{ kind: "provider", name: "p", ${hook} }],\n};\n`,
  });
}

/**
 * A provider plugin's `modelInfo` of another shape failed in slop's own code with a message
 * naming nothing (`Cannot read properties of undefined (reading '0')`); its `payload` returning
 * a BigInt or a cycle stopped `slop payload` with JSON's message (the cycle's over four lines),
 * `undefined` was printed as the word `undefined`, and a throw named no plugin.
 */
Deno.test("a provider's modelInfo or payload of another shape is one error naming the plugin and the hook", async () => {
  const models: Array<[string, string]> = [
    ['modelInfo() { return "x"; }', "expected an object"],
    ["modelInfo() { return { name: 5 }; }", '"model" must be a string'],
    [
      'modelInfo() { return { model: "m", minCacheTokens: 0, ttls: [], breakpoints: true, tokenizer: "o200k", prices: {} }; }',
      '"ttls" must be a non-empty array of strings',
    ],
    [
      'modelInfo() { return { model: "m", minCacheTokens: 0, ttls: ["5m"], breakpoints: true, tokenizer: "o200k", prices: { input: NaN, output: 1, cacheRead: 1 } }; }',
      '"prices.input" must be a number of 0 or more',
    ],
  ];
  for (const [hook, problem] of models) {
    const root = await project(hook);
    await assert.rejects(
      buildContext({ config: join(root, "slop.config.ts") }, { write: false }),
      { message: `[plugin p] Hook "modelInfo" returned an invalid model: ${problem}` },
      hook,
    );
  }
  const payloads: Array<[string, string]> = [
    [
      "payload() { return { n: 10n }; }",
      "returned a value JSON cannot hold: Do not know how to serialize a BigInt",
    ],
    [
      "payload() { const a = {}; a.a = a; return a; }",
      "returned a value JSON cannot hold: Converting circular structure to JSON",
    ],
    ["payload() { return undefined; }", "returned no JSON value (undefined)"],
    ['payload() { throw new Error("boom"); }', "failed: boom"],
  ];
  for (const [hook, problem] of payloads) {
    const root = await project(hook);
    await assert.rejects(
      renderPayload({ config: join(root, "slop.config.ts"), stateDir: join(root, ".slop") }),
      { message: `[plugin p] Hook "payload" ${problem}` },
      hook,
    );
  }
});
