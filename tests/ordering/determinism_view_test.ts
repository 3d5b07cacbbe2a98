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
      /^slop: Not deterministic: two builds differ at byte \d+ \(block "files:src\/a\.py", view "llm_summary": the model was asked again in the build without the cache\) \(\d+ vs \d+ bytes\)\n$/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("slop check --determinism names the first block whose content differs when the differing byte is a moved block", async () => {
  // "z.txt" renders the time zone; "b.txt" is longer than it in one zone only. With no memory,
  // no lock and no git, files go by size, largest first: "b.txt" is where the bytes first
  // differ in one order, but only "z.txt" changed.
  const root = await makeProject({
    "slop.config.ts": `export default {
  files: ["b.txt", { path: "z.txt", view: "zone" }],
  plugins: [{
    kind: "view-mode",
    name: "zone",
    version: "1",
    render: () => Deno.env.get("TZ") === "America/Adak" ? "x".repeat(200) : "y",
  }],
};
`,
    "b.txt": "b".repeat(100) + "\n",
    "z.txt": "z\n",
  });
  const run = await runCli(["check", "--determinism"], root);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /; first block whose content differs: "files:z\.txt" \(view "zone"\)\n$/,
  );
});
