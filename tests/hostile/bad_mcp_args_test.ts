// `slop mcp` answers a tool call with wrong-typed, missing, extra, empty or huge arguments with
// one tool error (isError) that names the argument, without a stack or runtime error text, writes
// nothing for it, and goes on serving. The calls go through the MCP SDK's own client.
import assert from "node:assert/strict";
import { makeProject } from "../_helpers.ts";
import { connect, texts } from "../mcp/_client.ts";
import { messageFaults, treeState } from "./_bad_input.ts";

/** Bad calls: tool, arguments, and what the error must name. */
const CALLS: Array<[string, Record<string, unknown>, string[]]> = [
  ["build_context", { budget: "lots" }, ["budget", '"lots"']],
  ["build_context", { budget: -5 }, ["budget", "-5"]],
  ["build_context", { budget: 1.5 }, ["budget"]],
  ["build_context", { budget: 1e300 }, ["budget"]],
  ["build_context", { budget: null }, ["budget"]],
  ["build_context", { maxInlineTokens: -1 }, ["maxInlineTokens"]],
  ["build_context", { format: "yaml" }, ["format", '"yaml"']],
  ["build_context", { strategy: ["full"] }, ["strategy"]],
  ["build_context", { focus: "a.py" }, ["focus"]],
  ["build_context", { paths: [5] }, ["paths[0]"]],
  ["build_context", { paths: ["../../etc/passwd"] }, ['"paths"', '"../../etc/passwd"']],
  ["build_context", { paths: ["/etc/passwd"] }, ['"paths"', '"/etc/passwd"']],
  ["build_context", { focus: ["a\u0000b"] }, ['"focus"']],
  ["build_context", { budgte: 100 }, ['"budgte"']],
  ["build_context", { persona: "" }, ['persona ""']],
  ["build_context", { persona: "constructor" }, ['persona "constructor"']],
  ["build_context", { persona: "p".repeat(1 << 20) }, ['persona "pppp', "more characters)"]],
  ["build_context", { preset: "__proto__" }, ['preset "__proto__"']],
  ["build_context", { since: "" }, ['"since"', '""']],
  ["build_context", { since: "--output=/tmp/x" }, ['"since"', '"--output=/tmp/x"']],
  ["build_context", { task: " \n " }, ["task"]],
  // Two checks fail on one value (its type and its length): one line, not the same line twice.
  ["build_context", { task: [] }, ["task"]],
  ["view_files", { files: "" }, ["files"]],
  ["build_context", { config: "" }, ['"config"']],
  ["build_context", { config: "sub" }, ['"sub"', "folder"]],
  ["build_context", { config: "a.py" }, ['"a.py"']],
  ["build_context", { view: "skelton" }, ['"view"', '"skelton"']],
  ["build_context", { view: "constructor" }, ['"view"', '"constructor"']],
  ["view_files", {}, ["files"]],
  ["view_files", { files: [] }, ["files"]],
  ["view_files", { files: "a.py" }, ["files"]],
  ["view_files", { files: ["a.py"], maxFiles: 0 }, ["maxFiles"]],
  ["view_files", { files: ["a.py"], mask: { f: "show" } }, ["mask.f", '"show"']],
  ["view_files", { files: ["a.py"], slices: [{ startLine: 3, endLine: "x" }] }, [
    "slices[0].endLine",
  ]],
  ["view_files", { files: ["a.py"], slices: [{ startLine: 1, endLine: 2, extra: 1 }] }, [
    '"extra"',
  ]],
  ["view_files", { files: ["[unclosed"] }, ['"files"', '"[unclosed"']],
  ["view_files", { files: ["x".repeat(100_000)] }, ['"files"']],
  ["view_files", { files: Array.from({ length: 2000 }, (_, i) => `f${i}.py`) }, ['"files"']],
  ["token_stats", { top: -1 }, ["top"]],
  ["token_stats", { build: "yes" }, ["build", '"yes"']],
  ["check_prefix", { maxInvalidated: 5 }, ["maxInvalidated"]],
  ["check_prefix", { maxInvalidated: "101%" }, ['"maxInvalidated"', '"101%"']],
  ["explain", { config: 5 }, ["config"]],
  ["no_such_tool", {}, ["no_such_tool"]],
];

Deno.test("slop mcp answers bad tool arguments with one error naming the argument, writing nothing", async () => {
  const root = await makeProject({
    "a.py": "def f():\n    return 1\n",
    "sub/b.py": "x = 1\n",
    "slop.config.ts":
      'export default { files: ["a.py", "sub/**"], personas: { dev: { tier: 1 } } };\n',
  });
  const before = await treeState(root);
  const { client, close } = await connect(root);
  const failures: string[] = [];
  try {
    for (const [name, args, names] of CALLS) {
      const label = `${name} ${JSON.stringify(args).slice(0, 60)}`;
      const result = await client.callTool({ name, arguments: args });
      const message = texts(result).join("\n");
      const faults = messageFaults(message, names);
      if (result.isError !== true) faults.push("not an error");
      if (faults.length) {
        failures.push(`${label}: ${faults.join(", ")}\n    ${message.slice(0, 300)}`);
      }
    }
    assert.deepEqual(await treeState(root), before, "a bad call wrote nothing");
    // Still serving: a good call after the bad ones.
    const good = await client.callTool({ name: "view_files", arguments: { files: ["a.py"] } });
    assert.equal(good.isError, undefined, texts(good).join("\n"));
  } finally {
    await close();
  }
  assert.deepEqual(failures, []);
});
