import assert from "node:assert/strict";
import { build, loadConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { contextWarning } from "../../pipeline/cache_plan.ts";
import {
  ANTHROPIC_MODELS,
  DEEPSEEK_MODELS,
  GEMINI_MODELS,
  OPENAI_MODELS,
} from "../../plugins/providers/_models.ts";
import { makeProject, prng } from "../_helpers.ts";

/** Text of varied words (`n` of them), the same on every run. */
function words(n: number, seed: number): string {
  const random = prng(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(Math.floor(random() * 1e6).toString(36));
  return out.join(" ") + "\n";
}

async function buildFor(root: string, model: string, budget?: number) {
  const config = await loadConfig({
    cwd: root,
    inline: {
      provider: { name: "openai", model },
      ...(budget ? { budget: { tokens: budget } } : {}),
    },
  });
  return await build(config, { builtins: defaultPlugins(), write: false });
}

Deno.test("a document larger than the model's context window gets a warning that suggests a budget or skeletons", async () => {
  const root = await makeProject({ "a.txt": words(6000, 1), "b.txt": words(6000, 2) });
  // gpt-3.5-turbo takes 16,385 tokens; the document has more.
  const result = await buildFor(root, "gpt-3.5-turbo");
  const plan = result.cache!;
  const used = plan.prefixTokens + plan.tailTokens;
  assert.ok(used > 16_385, String(used));
  const warning = result.warnings.find((w) => w.includes("context window"));
  assert.ok(warning, result.warnings.join("\n"));
  assert.match(
    warning,
    new RegExp(
      `^The document has ${
        used.toLocaleString("en-US")
      } tokens of "gpt-3\\.5-turbo", over its context window of 16,385: ` +
        `set a token budget \\(--budget \\d+, or "budget\\.tokens"\\) or show files as skeletons ` +
        `\\("defaultView": "skeleton"\\) or summaries \\(--strategy summarize\\)$`,
    ),
  );
  assert.deepEqual(result.manifest.warnings, result.warnings);
  // The suggested budget makes the document fit.
  const suggested = Number(/--budget (\d+)/.exec(warning)![1]);
  const fitted = await buildFor(root, "gpt-3.5-turbo", suggested);
  assert.ok(fitted.cache!.prefixTokens + fitted.cache!.tailTokens <= 16_385);
  assert.ok(!fitted.warnings.some((w) => w.includes("context window")));
  // A model with a larger window takes the same document without a word.
  const large = await buildFor(root, "gpt-4.1");
  assert.ok(!large.warnings.some((w) => w.includes("context window")));
});

Deno.test("contextWarning() counts estimates as 'about', asks to lower a budget, and is quiet when it fits", () => {
  const model = { ...ANTHROPIC_MODELS["claude-sonnet-4-5"], model: "claude-sonnet-4-5" };
  const plan = { model, prefixTokens: 230_000, tailTokens: 10_000 };
  assert.equal(
    contextWarning(plan, 200_000, 210_000),
    'The document has about 240,000 tokens of "claude-sonnet-4-5", over its context window of ' +
      "200,000: lower the token budget from 210000 to 150000 (--budget 150000, or " +
      '"budget.tokens") or show files as skeletons ("defaultView": "skeleton") or summaries ' +
      "(--strategy summarize)",
  );
  assert.equal(contextWarning({ ...plan, prefixTokens: 190_000 }, 170_000), undefined);
  assert.equal(
    contextWarning({ ...plan, model: { ...model, contextWindow: undefined } }, 1),
    undefined,
  );
});

Deno.test("every model of the provider tables knows its context window", () => {
  for (const table of [ANTHROPIC_MODELS, OPENAI_MODELS, GEMINI_MODELS, DEEPSEEK_MODELS]) {
    for (const [id, entry] of Object.entries(table)) {
      assert.ok(Number.isInteger(entry.contextWindow) && entry.contextWindow! >= 16_000, id);
    }
  }
});
