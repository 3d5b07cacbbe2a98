import assert from "node:assert/strict";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, startLlmServer } from "../_llm_server.ts";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("slop check --determinism names the view of the differing block and says when a model answered anew", async () => {
  let n = 0;
  const server = startLlmServer({ reply: () => `Summary number ${++n}.` });
  try {
    const provider = { ...server.provider("openai"), model: "gpt-5-mini" };
    const root = await makeProject({
      "src/a.py": "def a():\n    return 1\n",
      "slop.config.ts": `export default ${
        JSON.stringify({ files: [{ path: "src/**", view: "llm_summary" }], provider })
      };\n`,
    });
    const env = { [LLM_TEST_KEY_ENV]: LLM_TEST_KEY };
    assert.equal((await runCli(["build", "-q"], root, env)).code, 0);
    const run = await runCli(["check", "--determinism"], root, env);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^slop: Not deterministic: two builds differ at byte \d+ \(block "files:src\/a\.py", view "llm_summary": the model answered anew in the build without the cache\) \(\d+ vs \d+ bytes\)\n$/,
    );
  } finally {
    await server.close();
  }
});
