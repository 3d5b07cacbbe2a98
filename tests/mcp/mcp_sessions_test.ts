// `slop mcp --http` closes sessions left idle and holds a bounded number of them.
import assert from "node:assert/strict";
import { join } from "node:path";
import { sessionTable } from "../../cli/_mcp_sessions.ts";
import { loadMcpClient } from "../../deps.ts";
import { makeProject, REPO } from "../_helpers.ts";
import { serverEnv } from "./_client.ts";

function transport(closed: string[], name: string) {
  return { name, close: () => Promise.resolve(void closed.push(name)) };
}

Deno.test("a session idle past the timeout is closed, and a used one is kept", async () => {
  let time = 0;
  const closed: string[] = [];
  const table = sessionTable<ReturnType<typeof transport>>({ idleMs: 1000, now: () => time });
  table.add("a", transport(closed, "a"));
  table.add("b", transport(closed, "b"));
  time = 900;
  assert.equal(table.get("a")?.name, "a"); // used at 900
  time = 1500;
  assert.equal(await table.sweep(), 1);
  assert.deepEqual(closed, ["b"]);
  assert.equal(table.get("b"), undefined);
  time = 1800;
  assert.equal(await table.sweep(), 0);
  // Past its timeout a session is gone even before a sweep finds it.
  time = 3000;
  assert.equal(table.get("a"), undefined);
  await Promise.resolve();
  assert.deepEqual(closed, ["b", "a"]);
  assert.equal(table.size, 0);
});

Deno.test("a full session table closes the least recently used session for a new one", async () => {
  let time = 0;
  const closed: string[] = [];
  const table = sessionTable<ReturnType<typeof transport>>({ max: 2, idleMs: 0, now: () => time });
  table.add("a", transport(closed, "a"));
  table.add("b", transport(closed, "b"));
  time = 10;
  table.get("a");
  table.add("c", transport(closed, "c"));
  await Promise.resolve();
  assert.deepEqual(closed, ["b"]);
  assert.equal(table.size, 2);
  // idleMs 0: never idle.
  time = 1e12;
  assert.equal(await table.sweep(), 0);
  await table.closeAll();
  assert.deepEqual(closed.sort(), ["a", "b", "c"]);
});

Deno.test("slop mcp --http --idle-timeout answers 404 for an expired session, and a new one works", async () => {
  const root = await makeProject({ "a.py": "def f(x):\n    return x\n" });
  const server = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      join(REPO, "cli.ts"),
      "mcp",
      "--http",
      "--port",
      "0",
      "--idle-timeout",
      "0.5",
    ],
    cwd: root,
    env: serverEnv(),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = server.stderr.getReader();
  let text = "";
  let url = "";
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The server ended: ${text}`);
    text += new TextDecoder().decode(value);
    url = text.match(/on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/)?.[1] ?? "";
  }
  try {
    const { Client, HttpClientTransport } = await loadMcpClient();
    const first = new HttpClientTransport(new URL(url));
    const client = new Client({ name: "slop-test", version: "1.0.0" });
    await client.connect(first);
    assert.equal((await client.listTools()).tools.length, 5);
    const id = first.sessionId!;
    await new Promise((done) => setTimeout(done, 1500));
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": id,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    await response.body?.cancel();
    assert.equal(response.status, 404);
    const again = new Client({ name: "slop-test", version: "1.0.0" });
    await again.connect(new HttpClientTransport(new URL(url)));
    assert.equal((await again.listTools()).tools.length, 5);
    await again.close();
    await client.close().catch(() => {});
  } finally {
    server.kill("SIGTERM");
    const { code } = await server.status;
    reader.releaseLock();
    await server.stderr.cancel();
    assert.equal(code, 0);
  }
});
