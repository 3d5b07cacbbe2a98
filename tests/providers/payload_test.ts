import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  anthropicProvider,
  type Block,
  build,
  buildContext,
  callCost,
  chooseBreakpoints,
  ConfigError,
  deepseekProvider,
  geminiProvider,
  loadConfig,
  openaiProvider,
  type SectionPlugin,
} from "../../mod.ts";
import { countTokens } from "../../pipeline/tokens.ts";
import { manifestBreakpoints } from "../../report/stats.ts";
import { renderPayload } from "../../cli/payload.ts";
import type { AnthropicBody } from "../../plugins/providers/anthropic.ts";
import type { OpenaiBody } from "../../plugins/providers/openai.ts";
import type { GeminiPayload } from "../../plugins/providers/gemini.ts";
import {
  fixture,
  makeProject,
  prng,
  raw,
  runCliShared,
  snapshotPath,
  tempDir,
} from "../_helpers.ts";

const snapshots = snapshotPath(import.meta.url);
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, startLlmServer } from "../_llm_server.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { contextWarning } from "../../pipeline/cache_plan.ts";
import {
  ANTHROPIC_MODELS,
  DEEPSEEK_MODELS,
  GEMINI_MODELS,
  OPENAI_MODELS,
} from "../../plugins/providers/_models.ts";

// The loopback server's key, read from the environment by the builds below: set once, for the
// whole process (a test may not change the environment while tests run beside it).
Deno.env.set(LLM_TEST_KEY_ENV, LLM_TEST_KEY);

const CONFIG = join(fixture("payload"), "slop.config.ts");
const PROMPT = "Which module prices orders?";

async function payload<T>(provider: string, model?: string): Promise<T> {
  const stateDir = await tempDir();
  return await renderPayload({ config: CONFIG, stateDir, provider, model, prompt: PROMPT }) as T;
}

async function fixtureBuild() {
  return await buildContext({ config: CONFIG, stateDir: await tempDir() }, {
    write: false,
  });
}

function utf8Prefix(document: string, bytes: number): string {
  return new TextDecoder().decode(new TextEncoder().encode(document).subarray(0, bytes));
}

for (
  const [provider, model] of [
    ["anthropic", "claude-sonnet-4-5"],
    ["openai", "gpt-5"],
    ["gemini", "gemini-2.5-flash"],
    ["deepseek", "deepseek-chat"],
  ]
) {
  Deno.test(`${provider} payload of the payload fixture is byte-exact`, async (t) => {
    const body = await payload(provider, model);
    await t.assertSnapshot(JSON.stringify(body, null, 2), { serializer: raw, path: snapshots });
  });
}

Deno.test("anthropic payload: system is text blocks that spell the stable prefix, at most 4 cached", async () => {
  const body = await payload<AnthropicBody>("anthropic");
  const { document, manifest } = await fixtureBuild();
  const system = body.system!;
  assert.ok(system.every((b) => b.type === "text"));
  const texts = system.map((b) => (b as { text: string }).text);
  assert.equal(texts.join(""), utf8Prefix(document, manifest.prefix.bytes));
  const marked = system.filter((b) => "cache_control" in b && b.cache_control);
  assert.ok(marked.length >= 1 && marked.length <= 4);
  for (const b of marked) {
    assert.deepEqual((b as { cache_control: unknown }).cache_control, {
      type: "ephemeral",
      ttl: "5m",
    });
  }
  const content = body.messages[0].content;
  assert.equal(content[0].type, "image");
  assert.equal(
    (content[0] as { source: { data: string } }).source.data,
    btoa(String.fromCharCode(...await Deno.readFile(join(fixture("payload"), "shots/dot.png")))),
  );
  assert.match((content[1] as { text: string }).text, /^## Discussion History/);
  assert.deepEqual(content[2], { type: "text", text: PROMPT });
});

Deno.test("openai payload: prefix first as the system message, prompt_cache_key from its sha256", async () => {
  const body = await payload<OpenaiBody>("openai", "gpt-5");
  const { document, manifest } = await fixtureBuild();
  const prefix = utf8Prefix(document, manifest.prefix.bytes);
  assert.deepEqual(body.messages[0], { role: "system", content: prefix });
  assert.equal(
    body.prompt_cache_key,
    `slop-${createHash("sha256").update(prefix).digest("hex").slice(0, 32)}`,
  );
  assert.equal(manifest.prefix.sha256.slice(0, 32), body.prompt_cache_key!.slice(5));
  const user = body.messages[1].content as Array<{ type: string; image_url?: { url: string } }>;
  assert.match(user[0].image_url!.url, /^data:image\/png;base64,iVBOR/);
  assert.equal(body.max_completion_tokens, 1024);
});

Deno.test("deepseek payload: OpenAI shape, text only, no prompt_cache_key", async () => {
  const body = await payload<OpenaiBody>("deepseek");
  assert.equal(body.model, "deepseek-chat");
  assert.equal(body.prompt_cache_key, undefined);
  assert.equal(body.messages[0].role, "system");
  assert.equal(typeof body.messages[1].content, "string");
  assert.match(body.messages[1].content as string, /Which module prices orders\?$/);
  assert.equal(body.max_tokens, 1024);
});

Deno.test("gemini payload: a cachedContents body and a generateContent body that references it", async () => {
  const body = await payload<GeminiPayload>("gemini");
  const { document, manifest } = await fixtureBuild();
  const cache = body.cachedContents!;
  assert.equal(cache.model, "models/gemini-2.5-flash");
  assert.equal(cache.ttl, "3600s");
  assert.deepEqual(cache.contents[0].parts[0], {
    text: utf8Prefix(document, manifest.prefix.bytes),
  });
  assert.equal(
    (cache.contents[0].parts[1] as { inlineData: { mimeType: string } }).inlineData
      .mimeType,
    "image/png",
  );
  assert.equal(body.generateContent.cachedContent, "{{cachedContents.name}}");
  assert.match(
    (body.generateContent.contents[0].parts[0] as { text: string }).text,
    /^## Discussion History[\s\S]*Which module prices orders\?$/,
  );
});

Deno.test("gemini payload: a prefix below the model's minimum is sent inline, uncached", async () => {
  const { blocks } = await fixtureBuild();
  const plugin = geminiProvider();
  const body = await plugin.payload!(blocks, { model: "gemini-2.5-pro" }) as GeminiPayload;
  assert.equal(body.cachedContents, undefined);
  assert.equal(body.generateContent.cachedContent, undefined);
  assert.match((body.generateContent.contents[0].parts[0] as { text: string }).text, /^## Files/);
});

// ---------------------------------------------------------------------------
// Breakpoints

function blocksOf(spec: Array<[Block["stability"], number]>) {
  let offset = 0;
  return spec.map(([stability, length], i) => {
    const block = { id: `b${i}`, section: "s", stability, text: "", offset, length };
    offset += length;
    return block;
  });
}

function lcg(seed: number) {
  let s = seed;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

Deno.test("chooseBreakpoints() never returns more than 4, ends on prefix blocks, keeps every span above the minimum", () => {
  const rand = lcg(7);
  for (let trial = 0; trial < 300; trial++) {
    const n = 1 + Math.floor(rand() * 40);
    const spec: Array<[Block["stability"], number]> = [];
    for (let i = 0; i < n; i++) {
      const r = rand();
      spec.push([i < 3 && r < 0.3 ? "static" : r > 0.9 ? "volatile" : "stable", 100]);
    }
    spec.sort((a, b) =>
      ["static", "stable", "volatile"].indexOf(a[0]) -
      ["static", "stable", "volatile"].indexOf(b[0])
    );
    const blocks = blocksOf(spec);
    const tokens = spec.map(() => Math.floor(rand() * 3000));
    const minTokens = [1024, 2048, 4096][trial % 3];
    const bps = chooseBreakpoints(blocks, { tokens, minTokens, ttl: "5m", staticTtl: "1h" });
    assert.ok(bps.length <= 4);
    const prefixEnd = blocks.findIndex((b) => b.stability === "volatile");
    let previous = 0;
    let ttlRank = Infinity;
    for (const bp of bps) {
      const i = blocks.findIndex((b) => b.id === bp.id);
      assert.ok(prefixEnd < 0 || i < prefixEnd, "breakpoints stay in the stable prefix");
      assert.equal(bp.end, blocks[i].offset + blocks[i].length);
      const cum = tokens.slice(0, i + 1).reduce((a, b) => a + b, 0);
      assert.equal(bp.tokens, cum);
      assert.ok(cum - previous >= minTokens, `span of ${cum - previous} < ${minTokens}`);
      previous = cum;
      const rank = bp.ttl === "1h" ? 2 : 1;
      assert.ok(rank <= ttlRank, "larger TTLs come first");
      ttlRank = rank;
    }
  }
});

Deno.test("chooseBreakpoints() takes the prefix end, the static end with the longer TTL, then even spans", () => {
  const blocks = blocksOf([
    ["static", 10],
    ["static", 10],
    ...Array.from({ length: 10 }, () => ["stable", 10] as ["stable", number]),
    ["volatile", 10],
  ]);
  const tokens = [600, 600, ...Array(10).fill(1000), 5000];
  const bps = chooseBreakpoints(blocks, { tokens, minTokens: 1024, ttl: "5m", staticTtl: "1h" });
  assert.deepEqual(bps.map((b) => [b.id, b.ttl, b.tokens]), [
    ["b1", "1h", 1200],
    ["b4", "5m", 4200],
    ["b8", "5m", 8200],
    ["b11", "5m", 11200],
  ]);
  assert.deepEqual(chooseBreakpoints(blocks, { tokens, minTokens: 20_000, ttl: "5m" }), []);
  assert.deepEqual(
    chooseBreakpoints(blocks, { tokens, minTokens: 1024, ttl: "5m", max: 1 }).map((b) => b.id),
    ["b11"],
  );
  const ttlOneHour = chooseBreakpoints(blocks, {
    tokens,
    minTokens: 1024,
    ttl: "1h",
    staticTtl: "5m",
  });
  assert.ok(ttlOneHour.every((b) => b.ttl === "1h"), "a static TTL never undercuts provider.ttl");
});

Deno.test("the manifest records the breakpoints and the report reads them", async () => {
  const { manifest } = await fixtureBuild();
  const bps = manifest.breakpoints!;
  assert.ok(bps.length >= 1 && bps.length <= 4);
  assert.equal(bps.at(-1)!.end, manifest.prefix.bytes);
  assert.deepEqual(manifestBreakpoints(manifest), bps.map((b) => b.end));
  const ids = manifest.blocks.map((b) => b.id);
  assert.ok(bps.every((b) => ids.includes(b.id)));
});

// ---------------------------------------------------------------------------
// Tokens and costs

Deno.test("providers count tokens exactly with o200k/cl100k and by documented estimates otherwise", async () => {
  const text = "def scale(items, factor):\n    return [i * factor for i in items]\n";
  const o200k = await countTokens(text, "o200k");
  const cl100k = await countTokens(text, "cl100k");
  assert.equal(await openaiProvider().countTokens!(text, "gpt-5"), o200k);
  assert.equal(await openaiProvider().countTokens!(text, "gpt-4-turbo"), cl100k);
  assert.equal(await anthropicProvider().countTokens!(text), Math.ceil(o200k * 1.2));
  assert.equal(await geminiProvider().countTokens!(text), Math.ceil(text.length / 4));
  assert.equal(await deepseekProvider().countTokens!("abcdefghij"), 3);
  assert.equal(await deepseekProvider().countTokens!("上下文缓存"), 3);
});

Deno.test("callCost() prices a cold and a warm call from the model table", () => {
  const sonnet = anthropicProvider().modelInfo!("claude-sonnet-4-5-20250929")!;
  assert.equal(sonnet.model, "claude-sonnet-4-5-20250929");
  assert.deepEqual(callCost(sonnet, 100_000, 2_000, "5m"), { cold: 0.381, warm: 0.036 });
  assert.deepEqual(callCost(sonnet, 100_000, 2_000, "1h"), { cold: 0.606, warm: 0.036 });
  assert.deepEqual(callCost(sonnet, 500, 2_000, "5m"), { cold: 0.0075, warm: 0.0075 });
  const gpt5 = openaiProvider().modelInfo!("gpt-5")!;
  assert.deepEqual(callCost(gpt5, 100_000, 0, "5m"), { cold: 0.125, warm: 0.0125 });
  const ds = deepseekProvider().modelInfo!()!;
  assert.deepEqual(callCost(ds, 1_000_000, 0, "5m"), { cold: 0.28, warm: 0.028 });
});

Deno.test("a models override changes the table entry and keeps the rest of its prices", () => {
  const plugin = anthropicProvider({
    models: { "claude-sonnet-4-5": { minCacheTokens: 2048, prices: { input: 4 } } },
  });
  const info = plugin.modelInfo!("claude-sonnet-4-5")!;
  assert.equal(info.minCacheTokens, 2048);
  assert.equal(info.prices.input, 4);
  assert.equal(info.prices.cacheRead, 0.3);
  assert.equal(plugin.modelInfo!("no-such-model"), undefined);
});

Deno.test("the build's cache plan prices the fixture's prefix and tail with the configured model", async () => {
  const { cache, blocks } = await fixtureBuild();
  assert.equal(cache!.provider, "slop:anthropic");
  assert.equal(cache!.model.model, "claude-sonnet-4-5");
  const prefixEnd = blocks.findIndex((b) => b.stability === "volatile");
  const expectPrefix = blocks.slice(0, prefixEnd).reduce(
    (n, b) => n + Math.ceil(b.tokens * 1.2),
    0,
  );
  const expectTail = blocks.slice(prefixEnd).reduce((n, b) => n + Math.ceil(b.tokens * 1.2), 0);
  assert.equal(cache!.prefixTokens, expectPrefix);
  assert.equal(cache!.tailTokens, expectTail);
  assert.deepEqual(cache!.cost, {
    cold: Math.round((expectPrefix * 3.75 + expectTail * 3) / 1e6 * 1e8) / 1e8,
    warm: Math.round((expectPrefix * 0.3 + expectTail * 3) / 1e6 * 1e8) / 1e8,
  });
});

Deno.test("slop payload prints the body and slop build prints prefix tokens and call costs", async () => {
  const stateDir = await tempDir();
  const cwd = fixture("payload");
  const out = await runCliShared(
    ["payload", "--provider", "anthropic", "--prompt", PROMPT, "--state-dir", stateDir],
    cwd,
  );
  assert.equal(out.code, 0, out.stderr);
  const body = JSON.parse(out.stdout) as AnthropicBody;
  assert.equal(body.model, "claude-sonnet-4-5");
  assert.ok(Array.isArray(body.system));

  const bad = await runCliShared(["payload", "--provider", "nope", "--state-dir", stateDir], cwd);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Unknown provider "nope" in --provider: expected one of "anthropic"/);

  const built = await runCliShared(["build", "--stdout", "--state-dir", stateDir], cwd);
  assert.equal(built.code, 0, built.stderr);
  assert.match(
    built.stderr,
    /cache \(anthropic claude-sonnet-4-5, ttl 5m\): prefix ~[\d,]+ tokens \(o200k × 1\.2, estimated\), [1-4] breakpoints?; input cost per call: cold \$0\.\d+, warm \$0\.\d+/,
  );
});

Deno.test("a build with static instructions puts a 1h breakpoint at their end, before the 5m ones", async () => {
  const instructions: SectionPlugin = {
    kind: "section",
    name: "instructions",
    compose: () => [{
      id: "instructions",
      section: "instructions",
      stability: "static",
      text: `## Instructions\n\n${
        "Answer from the files below and cite each path you use.\n".repeat(120)
      }\n`,
    }],
  };
  const root = await makeProject(
    Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [
        `src/m${i}.py`,
        `def f${i}(x):\n    return x + ${i}  # keep the arithmetic simple and obvious\n`.repeat(90),
      ]),
    ),
  );
  const build = (provider: Record<string, string>) =>
    buildContext({
      cwd: root,
      stateDir: join(root, ".state"),
      inline: { files: ["src/**"], plugins: [instructions], provider },
    }, { write: false });
  const result = await build({ name: "anthropic", model: "claude-sonnet-4-5" });
  const bps = result.manifest.breakpoints!;
  assert.equal(bps.length, 4);
  assert.deepEqual(bps[0], {
    id: "instructions",
    end: result.blocks[0].length,
    tokens: result.cache!.tokens[0],
    ttl: "1h",
  });
  assert.deepEqual(bps.slice(1).map((b) => b.ttl), ["5m", "5m", "5m"]);
  assert.equal(bps[3].end, result.manifest.prefix.bytes);

  const hour = await build({ name: "anthropic", model: "claude-sonnet-4-5", ttl: "1h" });
  assert.ok(hour.manifest.breakpoints!.every((b) => b.ttl === "1h"));
  const p = hour.cache!.prefixTokens;
  assert.equal(hour.cache!.cost.cold, Math.round(p * 6 / 1e6 * 1e8) / 1e8);

  const odd = await build({ name: "anthropic", model: "claude-sonnet-4-5", ttl: "10m" });
  assert.equal(odd.cache!.ttl, "5m");
  assert.match(odd.warnings.join("\n"), /Cache TTL "10m" in "provider.ttl" is not offered/);

  const openai = await build({ name: "openai", model: "gpt-5" });
  assert.deepEqual(openai.manifest.breakpoints!.map((b) => b.end), [openai.manifest.prefix.bytes]);
});

function configText(inline: Record<string, unknown>): string {
  return `export default ${JSON.stringify(inline, null, 2)};\n`;
}

Deno.test("slop payload --provider renders for that provider but summarizes with the configured one", async () => {
  const server = startLlmServer({ reply: () => "A module that adds numbers." });
  try {
    const root = await makeProject({
      "src/calc.py": "def add(a, b):\n    return a + b\n",
      "slop.config.ts": configText({
        files: [{ path: "src/calc.py", view: "llm_summary" }],
        provider: { ...server.provider("openai"), model: "gpt-5-mini" },
      }),
    });
    const config = join(root, "slop.config.ts");
    const stateDir = join(root, ".state");
    const body = await renderPayload({ config, stateDir, provider: "anthropic" }) as AnthropicBody;
    assert.equal(body.model, "claude-haiku-4-5");
    assert.match(JSON.stringify(body.system), /A module that adds numbers\./);
    // The summary came from the configured provider (OpenAI shape), not from Anthropic's API
    // at the OpenAI server's URL.
    assert.deepEqual(server.requests.map((r) => r.api), ["openai"]);

    // The payload for the configured provider reuses the cached summary: no new request.
    const openai = await renderPayload({ config, stateDir }) as OpenaiBody;
    assert.equal(openai.model, "gpt-5-mini");
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("slop payload --ttl that the model does not offer is a usage error naming the flag", async () => {
  const root = await makeProject({
    "a.txt": "hello\n",
    "slop.config.ts": configText({ files: ["a.txt"] }),
  });
  const config = join(root, "slop.config.ts");
  await assert.rejects(
    () => renderPayload({ config, stateDir: join(root, ".state"), ttl: "7d" }),
    /^Error: Invalid --ttl "7d": "claude-haiku-4-5" offers "5m", "1h"$/,
  );
});

Deno.test("slop payload --persona and --preset apply as in slop build", async () => {
  const root = await makeProject({
    "src/a.py": "def alpha():\n    return 1\n",
    "src/b.py": "def beta():\n    return 2\n",
    "slop.config.ts": configText({
      files: ["src/**"],
      presets: { only_b: { files: ["src/b.py"] } },
      personas: { brief: { strategy: "summarize" } },
    }),
  });
  const config = join(root, "slop.config.ts");
  const stateDir = join(root, ".state");
  const preset = await renderPayload({ config, stateDir, preset: "only_b" }) as AnthropicBody;
  const presetText = JSON.stringify(preset.system);
  assert.match(presetText, /src\/b\.py/);
  assert.doesNotMatch(presetText, /src\/a\.py/);
  const persona = await renderPayload({ config, stateDir, persona: "brief" }) as AnthropicBody;
  assert.match(JSON.stringify(persona.system), /## Files \(Summary\)/);
});

Deno.test("slop payload without a provider configured warns once, not once per plan", async () => {
  const root = await makeProject({
    "a.txt": "hello\n",
    "slop.config.ts": configText({ files: ["a.txt"], provider: { model: "claude-nope-9" } }),
  });
  const run = await runCliShared(["payload"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stderr,
    `warning: Unknown model "claude-nope-9" for provider "slop:anthropic": no cost estimate\n`,
  );
});

/** Text of varied words (`n` of them), the same on every run. */
function words(n: number, seed: number): string {
  const random = prng(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(Math.floor(random() * 1e6).toString(36));
  return out.join(" ") + "\n";
}

async function buildFor(root: string, model: string, budget?: number, lock = false) {
  const config = await loadConfig({
    cwd: root,
    inline: {
      provider: { name: "openai", model },
      ...(budget ? { budget: { tokens: budget } } : {}),
    },
  });
  const orderSource = lock ? "lock" as const : undefined;
  return await build(config, { builtins: defaultPlugins(), write: false, orderSource });
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
  // `slop check`'s build (its order from the lock) sends nothing to a model: no word either.
  const checked = await buildFor(root, "gpt-3.5-turbo", undefined, true);
  assert.ok(!checked.warnings.some((w) => w.includes("context window")), checked.warnings.join());
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
  // A budget already under the suggestion was not met (grpc-go, `--focus balancer/ --budget
  // 50000`: its 77 focus files kept whole): "lower ... from 50000 to 149000" named a larger
  // number, and no budget fits a document whose kept files are over it.
  const unmet = contextWarning(plan, 200_000, 50_000)!;
  assert.equal(
    unmet,
    'The document has about 240,000 tokens of "claude-sonnet-4-5", over its context window of ' +
      "200,000 and over the token budget of 50,000, which cannot be met: focus and forceFull " +
      "files are kept whole, with the other sections; focus fewer files",
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

Deno.test("an unknown provider.name is a config error naming the key, with a hint", async () => {
  const root = await makeProject({ "a.txt": "a\n" });
  await assert.rejects(
    buildContext({ cwd: root, inline: { provider: { name: "antropic" } } }, { write: false }),
    (error: Error) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.match(
        error.message,
        /Unknown provider "antropic" at "provider\.name" \(did you mean "anthropic"\?\)/,
      );
      return true;
    },
  );
  // Built-ins by either name, and a plugin's provider by its own, are accepted.
  for (const name of ["openai", "slop:gemini"]) {
    const ok = await buildContext({ cwd: root, inline: { provider: { name } } }, { write: false });
    assert.equal(ok.manifest.files.length, 1);
  }
  const mine = await buildContext({
    cwd: root,
    inline: { provider: { name: "mine" }, plugins: [{ kind: "provider", name: "mine" }] },
  }, { write: false });
  assert.equal(mine.manifest.files.length, 1);
});

Deno.test("slop payload for another model warns of that model's context window, not the configured one's", async () => {
  const root = await makeProject({
    "a.txt": words(6000, 1),
    "b.txt": words(6000, 2),
    "slop.config.ts": configText({
      files: ["a.txt", "b.txt"],
      provider: { name: "openai", model: "gpt-3.5-turbo" },
    }),
  });
  // The configured model's window (16,385) is too small; gpt-4.1's is not: no warning.
  const large = await runCliShared(["payload", "--model", "gpt-4.1"], root);
  assert.equal(large.code, 0, large.stderr);
  assert.equal(large.stderr, "");
  const small = await runCliShared(["payload"], root);
  assert.match(small.stderr, /^warning: The document has [\d,]+ tokens of "gpt-3\.5-turbo", over/);
  // The other way round: the warning names the model of the payload.
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    configText({ files: ["a.txt", "b.txt"], provider: { name: "openai", model: "gpt-4.1" } }),
  );
  const other = await runCliShared(["payload", "--model", "gpt-3.5-turbo"], root);
  assert.equal(other.stderr, small.stderr);
});

Deno.test("a rule's breakpoints are checked against the ends of the blocks they name only", async () => {
  const { planCache } = await import("../../pipeline/cache_plan.ts");
  const { createRegistry } = await import("../../pipeline/registry.ts");
  const { tallyWork } = await import("../../pipeline/helpers.ts");
  const root = await makeProject({ "slop.config.ts": "export default {};\n" });
  const config = await loadConfig({ cwd: root });
  const blocks = Array.from({ length: 2_000 }, (_, i) => ({
    id: `files:f${i}.ts`,
    section: "files",
    stability: "stable" as const,
    text: "x".repeat(10),
    offset: 10 * i,
    length: 10,
    sha256: "",
    tokens: 3,
  }));
  const plan = (end: number) => {
    const rule = {
      kind: "ordering" as const,
      name: "test:ends",
      order: (b: Block[]) => b,
      breakpoints: () => [{ id: "files:f999.ts", end, ttl: "5m" as const, tokens: 3000 }],
    };
    const registry = createRegistry([anthropicProvider(), rule]);
    return planCache(blocks, registry, {
      config,
      files: [],
      root,
      stateDir: config.stateDir,
      orderSource: "state",
      warn: () => {},
    });
  };
  // One end kept for one breakpoint (2,000 before: a map of every block's end).
  const work = await tallyWork(() => plan(10_000));
  assert.equal(work.get("breakpoint ends kept"), 1);
  await assert.rejects(
    plan(10_001),
    /\[plugin test:ends\] Hook "breakpoints" returned "files:f999.ts", which does not end a block at byte 10001/,
  );
});
