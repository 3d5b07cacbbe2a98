import assert from "node:assert/strict";
import { buildContext, llmSummaryViewMode, openaiProvider } from "../../mod.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, type LlmServer, startLlmServer } from "../_llm_server.ts";
import { makeProject } from "../_helpers.ts";

Deno.env.set(LLM_TEST_KEY_ENV, LLM_TEST_KEY);

async function project(files: number): Promise<string> {
  const tree: Record<string, string> = {};
  for (let i = 0; i < files; i++) tree[`src/m${i}.py`] = `def f${i}(x):\n    return x + ${i}\n`;
  return await makeProject(tree);
}

/** Build with every file in llm_summary, one request at a time and no retries. */
async function summarize(root: string, server: LlmServer) {
  return await buildContext({
    cwd: root,
    inline: {
      files: [{ path: "src/**", view: "llm_summary" }],
      provider: { ...server.provider("openai"), model: "gpt-5-mini" },
      plugins: [openaiProvider({ retries: 0 }), llmSummaryViewMode({ concurrency: 1 })],
    },
  }, { write: false });
}

Deno.test("llm_summary stops asking a provider that failed after its retries; the rest fall back at once", async () => {
  const server = startLlmServer({ reply: () => ({ status: 503, text: "overloaded" }) });
  try {
    const result = await summarize(await project(6), server);
    assert.equal(server.requests.length, 1);
    assert.ok(result.files.every((f) => f.view === "summary" && f.status === "rendered"));
    const first = result.warnings.filter((w) => /failed with|failed after/.test(w));
    assert.equal(first.length, 1, result.warnings.join("\n"));
    const skipped = result.warnings.filter((w) => /did not ask the provider/.test(w));
    assert.equal(skipped.length, 5, result.warnings.join("\n"));
    assert.match(
      skipped[0],
      /^\[plugin slop:llm_summary\] Cannot summarize "src\/m\d\.py": did not ask the provider, which failed on "src\/m\d\.py" less than 60 s ago: fell back to the heuristic summary$/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("llm_summary keeps asking after an error about one file (HTTP 400)", async () => {
  const server = startLlmServer({
    reply: (r) => r.prompt.includes("m0.py") ? { status: 400, text: "too long" } : "Adds.",
  });
  try {
    const result = await summarize(await project(3), server);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(result.files.map((f) => f.view), ["summary", "llm_summary", "llm_summary"]);
  } finally {
    await server.close();
  }
});
