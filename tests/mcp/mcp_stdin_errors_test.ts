import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO } from "../_helpers.ts";

// A line on stdin that is not JSON gets JSON-RPC's parse error (-32700), and JSON that is not a
// JSON-RPC message its invalid request error (-32600), both with id null; the server goes on and
// answers the next request.
Deno.test("slop mcp answers a line that is not JSON-RPC with the JSON-RPC error and goes on", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const initialize = {
    jsonrpc: "2.0",
    id: 7,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "test", version: "1" },
    },
  };
  const input = `garbage{\n{"jsonrpc":"2.0","id":1}\n${JSON.stringify(initialize)}\n`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(REPO, "cli.ts"), "mcp"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { CI: "" },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  // Read until the answer to the initialize request, then close stdin to end the session.
  const lines: Array<Record<string, unknown>> = [];
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of child.stdout) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      lines.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
    }
    if (lines.some((line) => line.id === 7)) break;
  }
  await writer.close();
  const stderr = new TextDecoder().decode((await child.output()).stderr);
  assert.deepEqual(lines.slice(0, 2), [
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
    { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } },
  ]);
  assert.equal(lines.length, 3);
  assert.equal((lines[2].result as { serverInfo: { name: string } }).serverInfo.name, "slop");
  assert.match(stderr, /parse error on stdin: .*"garbage\{"/);
  assert.match(stderr, /invalid request on stdin: the line is JSON but not a JSON-RPC/);
});
