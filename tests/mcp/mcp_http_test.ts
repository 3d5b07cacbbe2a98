import assert from "node:assert/strict";
import { join } from "node:path";
import { loadMcpClient } from "../../deps.ts";
import { makeProject, REPO } from "../_helpers.ts";
import { data, serverEnv, texts } from "./_client.ts";
import { sessionTable } from "../../cli/_mcp_sessions.ts";

// `slop mcp --http`: Streamable HTTP on 127.0.0.1, one round trip with the SDK's client, and the
// requests it refuses (another Host, another origin, another path, no session).
/** Read a stream until `pattern` matches what was read; resolves to the match. */
async function waitFor(
  stream: ReadableStream<Uint8Array>,
  pattern: RegExp,
): Promise<{ match: RegExpMatchArray; rest: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The server ended before printing ${pattern}: ${text}`);
    text += decoder.decode(value, { stream: true });
    const match = text.match(pattern);
    if (match) return { match, rest: reader };
  }
}

/** The status of a POST to /mcp with this Host header, sent over a plain TCP socket. */
async function rawStatus(port: number, host: string): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
  await conn.write(
    new TextEncoder().encode(
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    ),
  );
  let text = "";
  for await (const chunk of conn.readable) text += new TextDecoder().decode(chunk);
  return Number(text.match(/^HTTP\/1\.1 (\d+)/)![1]);
}

Deno.test("slop mcp --http serves Streamable HTTP on a loopback port", async () => {
  const root = await makeProject({ "a.py": "def f(x):\n    return x\n" });
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), "mcp", "--http", "--port", "0"],
    cwd: root,
    env: serverEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const { match, rest } = await waitFor(
    server.stderr,
    /serving .* on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)\n/,
  );
  const url = match[1];
  const port = match[2];
  try {
    const { Client, HttpClientTransport } = await loadMcpClient();
    const client = new Client({ name: "slop-test", version: "1.0.0" });
    await client.connect(new HttpClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    assert.equal(tools.length, 5);
    const result = await client.callTool({
      name: "view_files",
      arguments: { files: ["a.py"], view: "skeleton" },
    });
    assert.match(texts(result)[0], /### a\.py\n\n```python\ndef f\(x\):\n {4}\.\.\.\n```/);
    assert.equal(data(result).files[0].view, "skeleton");
    const refused = await client.callTool({ name: "view_files", arguments: { files: ["../x"] } });
    assert.equal(refused.isError, true);
    // Argument errors quote the call: a key in it comes back redacted.
    const token = `ghp_${"Zq7Xw2Vb9Nm4".repeat(3)}`;
    const unknown = await client.callTool({ name: "build_context", arguments: { [token]: 1 } });
    assert.match(texts(unknown).join("\n"), /^Unknown argument "\[REDACTED:github\]"/);
    const wrong = await client.callTool({ name: "build_context", arguments: { budget: "lots" } });
    assert.deepEqual(texts(wrong), [
      'Invalid argument "budget": expected a positive integer, got "lots"',
    ]);
    assert.ok(!JSON.stringify(unknown).includes(token.slice(4, 20)));
    await client.close();

    const post = (headers: Record<string, string>, path = "/mcp") =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    const status = async (response: Promise<Response>) => {
      const r = await response;
      await r.body?.cancel();
      return r.status;
    };
    assert.equal(await status(post({ origin: "https://evil.example" })), 403);
    // fetch() sets Host itself: another Host (a DNS-rebound name) is sent over a plain socket.
    assert.equal(await rawStatus(Number(port), `evil.example:${port}`), 403);
    assert.equal(await rawStatus(Number(port), `localhost:${port}`), 400);
    assert.equal(await status(post({}, "/other")), 404);
    assert.equal(await status(post({ "mcp-session-id": "made-up" })), 404);
    assert.equal(await status(post({})), 400); // no session and not an initialize request
  } finally {
    server.kill("SIGTERM");
    const { code } = await server.status;
    let after = "";
    const decoder = new TextDecoder();
    for (let r = await rest.read(); !r.done; r = await rest.read()) {
      after += decoder.decode(r.value);
    }
    await server.stdout.cancel();
    assert.equal(code, 0);
    // Nothing but slop's own lines: no runtime notice (Deno warns when a handler clones a request).
    assert.equal(after, "");
  }
});

// `slop mcp --http` closes sessions left idle and holds a bounded number of them.
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

Deno.test("a session answering a request is not idle, nor the first closed for a new one", async () => {
  let time = 0;
  const closed: string[] = [];
  const table = sessionTable<ReturnType<typeof transport>>({
    idleMs: 1000,
    max: 2,
    now: () => time,
  });
  table.add("a", transport(closed, "a"));
  table.add("b", transport(closed, "b"));
  const release = table.hold("a");
  time = 5000;
  assert.equal(await table.sweep(), 1);
  assert.deepEqual(closed, ["b"]);
  assert.equal(table.get("a")?.name, "a"); // used at 5000
  // Its end counts as a use: idle from then on.
  time = 9000;
  release();
  release(); // once only
  time = 9500;
  assert.equal(await table.sweep(), 0);
  time = 10_100;
  assert.equal(await table.sweep(), 1);
  assert.deepEqual(closed, ["b", "a"]);
  // A full table closes the least recently used session that answers no request.
  table.add("c", transport(closed, "c"));
  table.add("d", transport(closed, "d"));
  table.hold("c");
  table.add("e", transport(closed, "e"));
  await Promise.resolve();
  assert.deepEqual(closed, ["b", "a", "d"]);
  assert.equal(table.get("c")?.name, "c");
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
      // Far above a busy machine's time between two requests of one client (a session that
      // expired between the second client's connect and its request failed at load 21).
      "3",
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
    await new Promise((done) => setTimeout(done, 7000));
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
