import assert from "node:assert/strict";
import { makeProject } from "../_helpers.ts";
import { connect, texts } from "./_client.ts";

// What a newcomer's agent sends first, through the SDK's client to a spawned `slop mcp`: a config
// file that is not there is named as the argument at fault (it read as a config that failed to
// load, with no word of the argument), on every tool that takes one; a cancelled call leaves the
// server serving.

Deno.test("slop mcp names the config argument when its file does not exist, on every tool", async () => {
  const root = await makeProject({ "a.py": "def f():\n    return 1\n" });
  const { client, close } = await connect(root);
  try {
    const tools = ["build_context", "view_files", "token_stats", "check_prefix", "explain"];
    for (const name of tools) {
      const args = name === "view_files"
        ? { files: ["a.py"], config: "slop.confg.ts" }
        : { config: "slop.confg.ts" };
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, name);
      assert.deepEqual(texts(result), [
        `Invalid argument "config": no file "slop.confg.ts" in the project root "${root}"`,
      ]);
    }
    // A path that matches nothing reads as the other argument errors do, lower case after the colon.
    const paths = await client.callTool({
      name: "build_context",
      arguments: { paths: ["lib/**"] },
    });
    assert.equal(paths.isError, true);
    assert.match(
      texts(paths)[0],
      /^Invalid argument "paths": no file matches the path "lib\/\*\*"/,
    );
  } finally {
    await close();
  }
});

Deno.test("slop mcp answers the next call after a build_context call the client cancelled", async () => {
  const root = await makeProject({ "a.py": "def f():\n    return 1\n", "b.py": "x = 1\n" });
  const { client, close } = await connect(root);
  try {
    const controller = new AbortController();
    const cancelled = client.callTool({ name: "build_context", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    controller.abort("the user pressed escape");
    await assert.rejects(cancelled, /the user pressed escape/);
    const result = await client.callTool({
      name: "view_files",
      arguments: { files: ["a.py"], view: "skeleton" },
    });
    assert.equal(result.isError, undefined);
    assert.match(texts(result)[0], /def f\(\):\n {4}\.\.\./);
  } finally {
    await close();
  }
});
