// `slop mcp` through the MCP Inspector's CLI (npm:@modelcontextprotocol/inspector-cli), a client
// slop did not write: it lists the tools and calls one.
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, tempDir } from "../_helpers.ts";
import { serverEnv } from "./_client.ts";
// In this module's graph, so that Deno's npm cache holds the package before it is run below.
import "npm:@modelcontextprotocol/inspector-cli@1.0.3/package.json" with { type: "json" };

const INSPECTOR = "npm:@modelcontextprotocol/inspector-cli@1.0.3/build/index.js";

/**
 * Run the Inspector's CLI against `slop mcp --root <root>`. It reads its own package.json at
 * `../package.json` relative to its working directory (else `../../package.json`, relative to its
 * module): it runs in a folder whose parent has a package.json, so the first path is taken and
 * resolves to its own file.
 */
async function inspect(root: string, args: string[]): Promise<unknown> {
  const parent = await tempDir({ prefix: "slop_inspector_" });
  await Deno.writeTextFile(join(parent, "package.json"), "{}\n");
  await Deno.mkdir(join(parent, "run"));
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      INSPECTOR,
      Deno.execPath(),
      "run",
      "-A",
      "--quiet",
      join(REPO, "cli.ts"),
      "mcp",
      "--root",
      root,
      ...args,
    ],
    cwd: join(parent, "run"),
    env: serverEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `${stdout}\n${stderr}`);
  return JSON.parse(stdout);
}

Deno.test("the MCP Inspector's CLI lists slop's tools and calls them", async () => {
  const root = await makeProject({
    "lib.py": 'def area(r):\n    """Circle area."""\n    return 3.14 * r * r\n',
  });
  const listed = await inspect(root, ["--method", "tools/list"]) as {
    tools: Array<{ name: string }>;
  };
  assert.deepEqual(listed.tools.map((t) => t.name).sort(), [
    "build_context",
    "check_prefix",
    "explain",
    "token_stats",
    "view_files",
  ]);
  const viewed = await inspect(root, [
    "--method",
    "tools/call",
    "--tool-name",
    "view_files",
    "--tool-arg",
    'files=["lib.py"]',
    "--tool-arg",
    "view=outline",
  ]) as { content: Array<{ text: string }> };
  assert.equal(viewed.content[0].text, "### lib.py\n\n```python\ndef area(r)  # function\n```");
});
