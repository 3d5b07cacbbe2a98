import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCliShared } from "../_helpers.ts";
import { loadConfig } from "../../pipeline/config.ts";
import { harvestKnowledge } from "../../knowledge/harvest.ts";
import { openaiProvider } from "../../plugins/providers/openai.ts";
import type { Plugin, ProviderConfig } from "../../pipeline/types.ts";

function chat(text: string): string {
  return JSON.stringify({ role: "User", content: text }) + "\n";
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("the --no-harvest dry run counts what --apply --reclaim deletes, copies included, and asks no price", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default ${
      JSON.stringify({ knowledge: { conversations: ["chats/*.jsonl"] } })
    };\n`,
    "chats/a.jsonl": chat("we chose postgres"),
    "chats/a_copy.jsonl": chat("we chose postgres"),
    "chats/b.jsonl": chat("other"),
  });
  const dry = await runCliShared(["knowledge", "harvest", "--no-harvest"], root);
  assert.equal(dry.code, 0, dry.stderr);
  const line = dry.stdout.split("\n").find((l) => l.startsWith("reclaim candidates:"))!;
  // Nothing is sent: no token estimate and no price to ask for.
  assert.doesNotMatch(dry.stdout, /input tokens|--price/);

  const run = await runCliShared(
    ["knowledge", "harvest", "--apply", "--no-harvest", "--reclaim"],
    root,
  );
  assert.equal(run.code, 0, run.stderr);
  const reclaimed = run.stdout.split("\n").find((l) => /^reclaimed: \d+ \(/.test(l))!;
  assert.match(reclaimed, /^reclaimed: 3 \((\d+ B)/);
  assert.equal(line.match(/^reclaim candidates: (\d+) \((\d+ B)/)?.[1], "3");
  assert.equal(line.match(/\((\d+ B)/)?.[1], reclaimed.match(/\((\d+ B)/)?.[1]);
  for (const name of ["a.jsonl", "a_copy.jsonl", "b.jsonl"]) {
    assert.equal(await exists(join(root, "chats", name)), false, name);
  }
  // No model was asked, so no harvest prompt was written for one.
  assert.equal(await exists(join(root, "slop/prompts/harvest-conversation.md")), false);
  assert.doesNotMatch(run.stdout, /^prompt:/m);
});

async function dryRunCost(provider: ProviderConfig, plugins: Plugin[] = []) {
  const root = await makeProject({
    "chats/a.jsonl": JSON.stringify({ role: "User", content: "we chose heapq" }) + "\n",
  });
  const config = await loadConfig({
    cwd: root,
    inline: { knowledge: { conversations: ["chats/*.jsonl"] }, provider, plugins },
  });
  const report = await harvestKnowledge(config, {});
  assert.ok(report.inputTokens > 0);
  return report.cost;
}

Deno.test("a harvest dry run prices the estimate from the provider's model table", async () => {
  const mini = await dryRunCost({ name: "openai", model: "gpt-5-mini" });
  assert.equal(mini?.perMillion, 0.25);
  assert.equal(mini?.model, "gpt-5-mini");
  assert.equal((await dryRunCost({ name: "deepseek", model: "deepseek-chat" }))?.perMillion, 0.28);
  assert.equal((await dryRunCost({ name: "gemini", model: "gemini-2.5-flash" }))?.perMillion, 0.3);
  // No model: the provider's default model and its price.
  const fallback = await dryRunCost({ name: "anthropic" });
  assert.deepEqual([fallback?.model, fallback?.perMillion], ["claude-haiku-4-5", 1]);
});

Deno.test("a harvest dry run takes the price from a provider plugin's model overrides", async () => {
  const plugins = [openaiProvider({ models: { "gpt-5-mini": { prices: { input: 9 } } } })];
  const cost = await dryRunCost({ name: "openai", model: "gpt-5-mini" }, plugins);
  assert.equal(cost?.perMillion, 9);
});

Deno.test("a harvest dry run without a provider or with an unknown model has no cost", async () => {
  assert.equal(await dryRunCost({}), undefined);
  assert.equal(await dryRunCost({ name: "openai", model: "qwen3:8b" }), undefined);
});

Deno.test("slop knowledge harvest prints the cost for a configured OpenAI model", async () => {
  const root = await makeProject({
    "chats/a.jsonl": JSON.stringify({ role: "User", content: "we chose heapq" }) + "\n",
    "slop.config.ts": `export default ${
      JSON.stringify({
        knowledge: { conversations: ["chats/*.jsonl"] },
        provider: { name: "openai", model: "gpt-5-mini" },
      })
    };\n`,
  });
  const run = await runCliShared(["knowledge", "harvest"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /at \$0\.25 per million input tokens/);
});

Deno.test("slop knowledge harvest warns about a conversation glob that matches no file", async () => {
  const root = await makeProject({
    "chats/a.jsonl": JSON.stringify({ role: "User", content: "we chose heapq" }) + "\n",
    "slop.config.ts": `export default ${
      JSON.stringify({
        knowledge: { conversations: ["chats/*.jsonl", "old/*.jsonl", "chats/gone.jsonl"] },
      })
    };\n`,
  });
  const run = await runCliShared(["knowledge", "harvest"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stderr,
    `warning: No conversation matches "old/*.jsonl" (knowledge.conversations[1])\n` +
      `warning: No conversation matches "chats/gone.jsonl" (knowledge.conversations[2])\n`,
  );
});
