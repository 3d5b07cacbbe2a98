import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";
import { connect, texts } from "../mcp/_client.ts";

/** A config of one plugin of `kind` whose hook runs `body` and returns `result`. */
function config(kind: string, hook: string, body: string, result: string): string {
  const extra = kind === "view-mode" ? 'version: "1", ' : "";
  const views = kind === "view-mode" ? ', view: "stray"' : "";
  return `export default {\n  files: [{ path: "a.ts"${views} }],\n  plugins: [{\n` +
    `    kind: "${kind}", name: "stray", ${extra}\n` +
    `    ${hook}() {\n      ${body}\n      return ${result};\n    },\n  }],\n};\n`;
}

/**
 * A config's code or plugin that leaves a promise which rejects later, or whose timer's callback
 * throws, after its hook returned: Deno ended slop at once with its own backtrace, no document
 * written and nothing naming the config (a `slop watch` or `slop mcp` went down with it). The
 * command goes on, one line names the config's line, and the exit code is 1.
 */
Deno.test("an error no hook awaited, from a config's plugin, is one line naming its file; the document is whole", async () => {
  const cases: Record<string, string> = {
    "a promise left to reject": config(
      "section",
      "compose",
      'setTimeout(() => Promise.reject(new Error("late rejection")), 10);',
      "[]",
    ),
    "a timer's callback that throws": config(
      "view-mode",
      "render",
      'setTimeout(() => { throw new Error("thrown in a timer"); }, 10);',
      '"rendered by stray\\n"',
    ),
    "a rejection the config's code leaves as it loads": 'Promise.reject(new Error("at load"));\n' +
      'export default { files: ["a.ts"] };\n',
  };
  for (const [name, text] of Object.entries(cases)) {
    const root = await makeProject({ "a.ts": "export const a = 1;\n", "slop.config.ts": text });
    const run = await runCli(["build", "--stdout", "--no-server"], root);
    assert.equal(run.code, 1, `${name}: ${run.stderr}`);
    assert.match(run.stdout, /export const a = 1;|rendered by stray/, name);
    const lines = run.stderr.split("\n").filter((l) => l.startsWith("slop: Uncaught error"));
    assert.equal(lines.length, 1, `${name}: ${run.stderr}`);
    assert.match(lines[0], /^slop: Uncaught error at "slop\.config\.ts:\d+:\d+" \(/, name);
    assert.ok(!run.stderr.includes("    at "), `${name}: a backtrace: ${run.stderr}`);
  }
});

/** The same in `slop mcp`: it went down with the first build, and the agent's call got no answer. */
Deno.test("slop mcp stays up through a plugin's error no hook awaited, and answers each call", async () => {
  const text = config(
    "section",
    "compose",
    'setTimeout(() => Promise.reject(new Error("late rejection")), 10);',
    "[]",
  );
  const root = await makeProject({ "a.ts": "export const a = 1;\n", "slop.config.ts": text });
  const session = await connect(root);
  try {
    for (const budget of [1000, 1001]) {
      const result = await session.client.callTool({
        name: "build_context",
        arguments: { budget },
      });
      assert.ok(!result.isError, texts(result).join("\n"));
      // The timer fires after the build: the next call must find the server up.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(session.stderr(), /slop: Uncaught error at "slop\.config\.ts:\d+:\d+"/);
  } finally {
    await session.close();
  }
});
