import assert from "node:assert/strict";
import { join } from "node:path";
import {
  anthropicProvider,
  buildContext,
  defaultPlugins,
  fileKind,
  llmSummaryViewMode,
  openaiProvider,
  type SlopConfig,
  type ViewModePlugin,
} from "../../mod.ts";
import { makeProject, runCliShared } from "../_helpers.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, type LlmServer, startLlmServer } from "../_llm_server.ts";

// The loopback server's key, read from the environment by the builds below: set once, for the
// whole process (a test may not change the environment while tests run beside it).
Deno.env.set(LLM_TEST_KEY_ENV, LLM_TEST_KEY);

const PROJECT = {
  "calc.py":
    "def add(a, b):\n    return a + b\n\n\nclass Calculator:\n    def total(self, xs):\n        return sum(xs)\n",
  "guide.md": "# Guide\n\nHow to use the calculator.\n",
  "settings.toml": '[server]\nport = 8080\nhost = "localhost"\n',
};

/** Answers by the kind of file the prompt is about. */
function reply(request: { prompt: string }): string {
  if (request.prompt.includes("`calc.py`")) return "Adds numbers for the calculator.";
  if (request.prompt.includes("`guide.md`")) return "A short guide to the calculator.";
  return "- server.port: 8080\n- server.host: localhost\n\nConfigures the server.";
}

async function withServer(fn: (server: LlmServer) => Promise<void>, failing = false) {
  const server = startLlmServer({
    reply: failing ? () => ({ status: 500, text: "boom" }) : reply,
  });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

function config(server: LlmServer, extra: SlopConfig = {}): SlopConfig {
  return {
    defaultView: "llm_summary",
    provider: { ...server.provider("openai"), model: "summary-model" },
    // No retries: a failing server fails at once.
    plugins: [openaiProvider({ retries: 0 })],
    ...extra,
  };
}

/** The summary entries in a project's cache (payloads that carry the seed's fields). */
async function summaryEntries(root: string): Promise<Array<Record<string, string>>> {
  const dir = join(root, ".slop/cache");
  const out = [];
  for await (const folder of Deno.readDir(dir)) {
    if (!folder.isDirectory) continue;
    for await (const file of Deno.readDir(join(dir, folder.name))) {
      const text = await Deno.readTextFile(join(dir, folder.name, file.name));
      let payload: unknown;
      try {
        payload = JSON.parse(text.slice(text.indexOf("\n") + 1));
      } catch {
        continue; // a view entry (a JSON line, then the raw text), a pack or the BPE table
      }
      if (payload && typeof payload === "object" && "generated_at" in payload) {
        out.push(payload as Record<string, string>);
      }
    }
  }
  return out;
}

Deno.test("fileKind() picks the seed's strategy by file name", () => {
  assert.deepEqual(
    ["a.py", "src/b.tsx", "deno.json", "c.yaml", ".env", "README.md", "notes.txt", "LICENSE"]
      .map(fileKind),
    ["code", "code", "config", "config", "config", "prose", "prose", "prose"],
  );
});

Deno.test("llm_summary sends one request per file with the model, system prompt and file", async () => {
  await withServer(async (server) => {
    const root = await makeProject(PROJECT);
    const result = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 3);
    const byFile = (name: string) => server.requests.find((r) => r.prompt.includes(`\`${name}\``))!;
    const calc = byFile("calc.py");
    assert.equal(calc.path, "/v1/chat/completions");
    assert.equal(calc.body.model, "summary-model");
    assert.equal(calc.body.max_tokens, 600);
    assert.equal(calc.body.messages[0].role, "system");
    assert.match(calc.system!, /succinct, accurate summaries/);
    assert.match(calc.prompt, /Summarize the code file `calc.py` \(py\)/);
    assert.match(calc.prompt, /key signatures/);
    assert.ok(calc.prompt.includes(`<file path="calc.py">\n${PROJECT["calc.py"]}\n</file>`));
    assert.match(byFile("guide.md").prompt, /Summarize the prose file .*\n\nWrite one paragraph/);
    assert.match(byFile("settings.toml").prompt, /Summarize the config file[^]*`- key: value`/);
    assert.equal(calc.headers["authorization"], `Bearer ${LLM_TEST_KEY}`);
    // Code: the summary plus the outline (the heuristic summary until grammars exist).
    assert.match(
      result.document,
      /### calc.py\n\nAdds numbers for the calculator.\n\n\*\*Outline\*\*\n\n(```py\n)?[^]*(`add`|def add\(a, b\))/,
    );
    assert.match(result.document, /### guide.md\n\nA short guide to the calculator.\n\n(###|$)/);
    assert.match(result.document, /### settings.toml\n\n- server.port: 8080\n/);
    assert.deepEqual(result.files.map((f) => f.view), [
      "llm_summary",
      "llm_summary",
      "llm_summary",
    ]);
    assert.deepEqual(result.warnings, []);
  });
});

Deno.test("a cached summary makes no second request and keeps the bytes", async () => {
  await withServer(async (server) => {
    const root = await makeProject(PROJECT);
    const first = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 3);
    const second = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 3);
    assert.equal(second.document, first.document);
    // The entries carry the seed's fields; generated_at never reaches the document.
    const entries = await summaryEntries(root);
    assert.equal(entries.length, 3);
    const calc = entries.find((e) => e.file_path === "calc.py")!;
    assert.deepEqual(Object.keys(calc).sort(), [
      "file_hash",
      "file_path",
      "generated_at",
      "generator_tier",
      "outline",
      "summary",
    ]);
    assert.equal(calc.summary, "Adds numbers for the calculator.");
    assert.equal(calc.generator_tier, "default");
    assert.match(calc.generated_at, /^\d{4}-\d\d-\d\dT/);
    assert.ok(!first.document.includes(calc.generated_at));
    assert.ok(!JSON.stringify(entries).includes(LLM_TEST_KEY));
    // An edit, a new model or a new prompt template asks again, for that file only.
    await Deno.writeTextFile(join(root, "guide.md"), "# Guide\n\nChanged.\n");
    await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 4);
    assert.match(server.requests[3].prompt, /Changed\./);
    const other = config(server);
    other.provider!.model = "other-model";
    await buildContext({ cwd: root, inline: other }, { write: false });
    assert.equal(server.requests.length, 7);
    await makeProject(
      { "slop/prompts/summarize-file.md": "Describe {{path}}:\n{{content}}\n" },
      root,
    );
    await buildContext({ cwd: root, inline: config(server, { exclude: ["slop/**"] }) }, {
      write: false,
    });
    assert.equal(server.requests.length, 10);
    assert.match(server.requests[9].prompt, /^Describe [a-z.]+:\n/);
  });
});

Deno.test("a failing server falls back to the heuristic summary with a warning, no key leaks", async () => {
  await withServer(async (server) => {
    const root = await makeProject(PROJECT);
    const result = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    // Files that queue up after the first failure are not sent (the outage rule), so 1 to 3.
    const first = server.requests.length;
    assert.ok(first >= 1 && first <= 3, `requests: ${first}`);
    assert.deepEqual(result.files.map((f) => f.view), ["summary", "summary", "summary"]);
    assert.deepEqual(result.files.map((f) => f.status), ["rendered", "rendered", "rendered"]);
    assert.match(
      result.document,
      /### calc.py\n\n\*\*Python\*\*, 7 lines\n- classes: `Calculator`/,
    );
    assert.match(result.document, /### guide.md\n\n\*\*Markdown\*\*, 3 lines\n- Guide/);
    assert.equal(result.warnings.length, 3);
    for (const w of result.warnings) {
      assert.match(
        w,
        /^\[plugin slop:llm_summary\] Cannot summarize "[a-z.]+": (.*500.*|did not ask the provider, which failed on .*): fell back to the heuristic summary$/,
      );
    }
    assert.ok(result.warnings.some((w) => w.includes("500")), "the server's failure is named");
    assert.equal(result.files[0].notes![0], "llm_summary failed: fell back to summary");
    // Nothing was cached: the next build asks again.
    await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.ok(server.requests.length > first, "the next build asks again");
    for (const text of [result.document, JSON.stringify(result.manifest), ...result.warnings]) {
      assert.ok(!text.includes(LLM_TEST_KEY));
    }
  }, true);
});

Deno.test("slop build with llm_summary and a dead server writes the heuristic summary and exits 0", async () => {
  await withServer(async (server) => {
    const mod = JSON.stringify(new URL("../../mod.ts", import.meta.url).href);
    const provider = JSON.stringify({ ...server.provider("openai"), model: "m" });
    const root = await makeProject({
      ...PROJECT,
      "slop.config.ts": `import { openaiProvider } from ${mod};\nexport default {\n` +
        `  files: ["*.py", "*.md", "*.toml"],\n  defaultView: "llm_summary",\n` +
        `  provider: ${provider},\n  plugins: [openaiProvider({ retries: 0 })],\n};\n`,
    });
    const run = await runCliShared(["build"], root, { [LLM_TEST_KEY_ENV]: LLM_TEST_KEY });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /warning: \[plugin slop:llm_summary\] Cannot summarize "calc.py"/);
    const out = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
    assert.match(out, /### calc.py\n\n\*\*Python\*\*/);
    for (const text of [run.stdout, run.stderr, out]) assert.ok(!text.includes(LLM_TEST_KEY));
  }, true);
});

Deno.test("the tier joins the prompt and the cache entry", async () => {
  await withServer(async (server) => {
    const root = await makeProject({ "guide.md": PROJECT["guide.md"] });
    const personas = { lead: { tier: 2 as const }, worker: { tier: 3 as const } };
    const inline = config(server, { defaultView: undefined, personas });
    const lead = await buildContext({ cwd: root, persona: "lead", inline }, { write: false });
    assert.equal(lead.files[0].view, "llm_summary");
    assert.match(server.requests[0].prompt, /The reader is a tech lead/);
    const [saved] = await summaryEntries(root);
    assert.equal(saved.generator_tier, "tier-2");
  });
});

Deno.test("a re-render after a view cache miss reuses the stored summary without a request", async () => {
  await withServer(async (server) => {
    const root = await makeProject({ "calc.py": PROJECT["calc.py"] });
    const first = await buildContext({ cwd: root, inline: config(server) }, { write: false });
    assert.equal(server.requests.length, 1);
    assert.equal(first.files[0].cache, "miss");
    // A new version of the view that renders the outline part (outline, else summary) invalidates
    // the view cache entry.
    const builtins = defaultPlugins();
    const outline = builtins.find((p) => p.name === "slop:outline") ??
      builtins.find((p) => p.name === "slop:summary")!;
    const inline = config(server);
    inline.plugins = [...inline.plugins!, { ...outline, version: "99" } as ViewModePlugin];
    const second = await buildContext({ cwd: root, inline }, { write: false });
    assert.equal(second.files[0].cache, "miss");
    assert.equal(server.requests.length, 1);
    assert.equal(second.document, first.document);
    const third = await buildContext({ cwd: root, inline }, { write: false });
    assert.equal(third.files[0].cache, "hit");
    // --no-cache (cache.enabled: false) asks the model every time.
    const off = config(server, { cache: { enabled: false } });
    await buildContext({ cwd: root, inline: off }, { write: false });
    assert.equal(server.requests.length, 2);
  });
});

Deno.test("summaries queue at the plugin's concurrency; the clock starts with each request", async () => {
  const server = startLlmServer({
    reply: (r) => ({ text: `About ${r.prompt.length}`, delayMs: 500 }),
  });
  try {
    const tree = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`n${i}.md`, `# Note ${i}\n`]),
    );
    const root = await makeProject(tree);
    const inline = config(server as LlmServer, {
      plugins: [openaiProvider({ retries: 0 }), llmSummaryViewMode({ concurrency: 2 })],
    });
    // Six answers of 500 ms, two at a time, take longer than this build's 1 s hook timeout: only
    // the request's own timeout counts. (The hook's own work must fit 1 s on a loaded machine.)
    const result = await buildContext({ cwd: root, inline }, { write: false, hookTimeoutMs: 1000 });
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(new Set(result.files.map((f) => f.view)), new Set(["llm_summary"]));
    assert.equal(server.requests.length, 6);
    assert.equal(server.peakInFlight, 2);
    // A request slower than `timeoutMs` falls back: answers held for 10 s (until the server
    // closes) against 20 ms, so that no loaded machine answers in time.
    for (let i = 0; i < 6; i++) server.enqueue({ delayMs: 10_000, text: "too late" });
    const slow = config(server as LlmServer, {
      plugins: [openaiProvider({ retries: 0 }), llmSummaryViewMode({ timeoutMs: 20 })],
      cache: { enabled: false },
    });
    const late = await buildContext({ cwd: root, inline: slow }, { write: false });
    assert.equal(late.warnings.length, 6);
    assert.match(late.warnings[0], /Cannot summarize "n\d.md": No answer within 20 ms: fell back/);
  } finally {
    await server.close();
  }
});

Deno.test("llm_summary given a concurrency under one (a library call, not checked as a config's) still summarizes, one at a time", async () => {
  await withServer(async (server) => {
    const root = await makeProject({ "guide.md": PROJECT["guide.md"] });
    const inline = config(server, {
      plugins: [openaiProvider({ retries: 0 }), llmSummaryViewMode({ concurrency: 0 })],
    });
    // It waited for a free place that never came: a deadline far above a build's time.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("no summary within 60 s")), 60_000);
    });
    try {
      const built = buildContext({ cwd: root, inline }, { write: false });
      const result = await Promise.race([built, deadline]);
      assert.deepEqual(result.warnings, []);
      assert.equal(server.requests.length, 1);
    } finally {
      clearTimeout(timer);
    }
  });
});

Deno.test("a view mode's own timeoutMs must be a positive number a timer takes", async () => {
  const root = await makeProject({ "a.md": "# A\n" });
  // Past 2^31 - 1 ms a timer fires at once: every render "did not settle within 1e12 ms".
  for (const timeoutMs of [-1, 1e12]) {
    const bad = { ...llmSummaryViewMode(), name: "slow", timeoutMs };
    await assert.rejects(
      () => buildContext({ cwd: root, inline: { plugins: [bad] } }, { write: false }),
      /"timeoutMs" must be a positive number of milliseconds, at most 2147483647/,
    );
  }
  const options = { path: "a.md", view: "slop:llm_summary", options: { timeoutMs: 1e12 } };
  await assert.rejects(
    () => buildContext({ cwd: root, inline: { files: [options] } }, { write: false }),
    /"files\[0\]\.options\.timeoutMs" must be at most 2147483647, got 1000000000000/,
  );
});

Deno.test("llm_summary speaks the Anthropic Messages shape through the anthropic provider", async () => {
  await withServer(async (server) => {
    const root = await makeProject({ "guide.md": PROJECT["guide.md"] });
    const result = await buildContext({
      cwd: root,
      inline: {
        defaultView: "llm_summary",
        provider: { ...server.provider("anthropic"), model: "claude-test" },
        plugins: [anthropicProvider({ retries: 0 })],
      },
    }, { write: false });
    const [request] = server.requests;
    assert.equal(request.path, "/v1/messages");
    assert.equal(request.headers["x-api-key"], LLM_TEST_KEY);
    assert.equal(request.body.model, "claude-test");
    assert.equal(request.body.max_tokens, 600);
    assert.match(request.body.system, /succinct, accurate summaries/);
    assert.equal(request.body.messages.length, 1);
    assert.equal(request.body.messages[0].role, "user");
    assert.match(request.body.messages[0].content, /<file path="guide.md">\n# Guide\n/);
    assert.match(result.document, /### guide.md\n\nA short guide to the calculator.\n\n$/);
    assert.ok(!result.document.includes(LLM_TEST_KEY));
  });
});
