// A build that takes longer than the server's reply time (`slop mcp --reply-within`): the call
// is answered with how far it got and goes on; the next identical call gets its result. The
// build is held by a view plugin that waits for a gate file, so no test waits on a clock.
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadMcpClient } from "../../deps.ts";
import { makeProject, REPO, tempDir } from "../_helpers.ts";
import { connect, data, type McpClient, serverEnv, texts } from "./_client.ts";

/** A project whose `m/hold.ts` renders only once `gate` exists; each render is logged. */
async function heldProject(): Promise<{ root: string; gate: string; log: string }> {
  const outside = await tempDir({ prefix: "slop_gate_" });
  const gate = join(outside, "gate");
  const log = join(outside, "renders.log");
  const plugin = `{
    kind: "view-mode", name: "held", version: "1", timeoutMs: 600000,
    render: async (file) => {
      await Deno.writeTextFile(${JSON.stringify(log)}, file.path + "\\n", { append: true });
      for (;;) {
        try { await Deno.stat(${JSON.stringify(gate)}); break; }
        catch { await new Promise((go) => setTimeout(go, 10)); }
      }
      return file.text;
    },
  }`;
  const config = (dir: string) =>
    `export default { files: ["m/**", { path: "m/hold.ts", view: "held" }], ` +
    `output: { dir: ${JSON.stringify(dir)} }, plugins: [${plugin}] };\n`;
  const root = await makeProject({
    // Its own text: no earlier test run's cached render of it stands in for the plugin.
    "m/hold.ts": `export const held = ${JSON.stringify(crypto.randomUUID())};\n`,
    "m/a.ts": "export const a = 1;\n",
    "m/b.ts": "export const b = 2;\n",
    "slop.config.ts": config("out"),
    // Its output folder is a file: a build with it fails as it writes, after the held render.
    "fail.config.ts": config("blocked"),
    blocked: "not a folder\n",
  });
  return { root, gate, log };
}

/** How many times the held file's render began. */
function holds(log: string): number {
  try {
    return Deno.readTextFileSync(log).split("\n").filter((line) => line === "m/hold.ts").length;
  } catch {
    return 0;
  }
}

/** Call until the reply is the result, not that the build goes on (at most 60 s of calls). */
async function untilDone(client: McpClient, name: string, args: Record<string, unknown>) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const result = await client.callTool({ name, arguments: args });
    if (data(result)?.callAgain !== true) return result;
    assert.ok(Date.now() < deadline, `still not done: ${texts(result)[0]}`);
  }
}

/** Wait until `ready()` holds (at most 60 s). */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ready()) {
    assert.ok(Date.now() < deadline, `waited 60 s for ${what}`);
    await new Promise((go) => setTimeout(go, 20));
  }
}

Deno.test("a build past the reply time is answered with its progress, goes on, and the next identical call gets its result", async () => {
  const { root, gate, log } = await heldProject();
  const { client, close } = await connect(root, ["--reply-within", "0.2"]);
  try {
    // The tools say so to an agent.
    const { tools } = await client.listTools();
    const described = tools.find((t: { name: string }) => t.name === "build_context")!;
    assert.match(described.description!, /still running/);
    assert.match(described.description!, /call again with the same arguments/);

    const failing = { config: "fail.config.ts", maxInlineTokens: 100000 };
    const first = await client.callTool({ name: "build_context", arguments: failing });
    assert.equal(first.isError, undefined);
    assert.equal(data(first).status, "running");
    assert.match(
      texts(first)[0],
      /^build_context is still running after 200 ms \((nothing rendered yet|rendered \d+ of 3 files[^)]*\))\): .* call build_context again with the same arguments/,
    );
    // Other arguments wait for their turn, and are told so.
    const wanted = { maxInlineTokens: 100000 };
    const queued = await client.callTool({ name: "build_context", arguments: wanted });
    assert.equal(data(queued).status, "queued");
    assert.equal(data(queued).ahead.tool, "build_context");
    assert.match(texts(queued)[0], /^build_context has not started: .* It stays queued/);

    // A run a reply said goes on is not stopped by a later identical call's cancel.
    const interrupted = new AbortController();
    const again = client.callTool({ name: "build_context", arguments: wanted }, undefined, {
      signal: interrupted.signal,
    });
    interrupted.abort();
    await assert.rejects(again, /abort/i);
    await client.listTools();

    await Deno.writeTextFile(gate, "");
    // The first build went on and failed as it wrote: its next call says so, with the cause.
    const failed = await untilDone(client, "build_context", failing);
    assert.equal(failed.isError, true);
    assert.match(
      texts(failed)[0],
      /^The build_context run that went on in the background failed: Cannot create the output folder "blocked"/,
    );
    // The queued one ran after it: its result is the written document, byte for byte, and the
    // same bytes as a build of its own.
    const late = await untilDone(client, "build_context", wanted);
    assert.equal(holds(log), 2);
    assert.equal(late.isError, undefined, texts(late)[0]);
    assert.equal(data(late).number, 1);
    const document = texts(late)[1];
    assert.equal(document, await Deno.readTextFile(join(root, data(late).document)));
    assert.match(
      texts(late).at(-2)!,
      /^slop: this is the result of the build_context run an earlier/,
    );
    // A new call after the result was taken builds anew. On a loaded machine that build may
    // itself run past the 200 ms: then its result comes to the next identical call.
    let fresh = await client.callTool({ name: "build_context", arguments: wanted });
    const direct = data(fresh).status !== "running";
    if (!direct) fresh = await untilDone(client, "build_context", wanted);
    assert.equal(data(fresh).number, 2);
    assert.equal(texts(fresh)[1], document);
    if (direct) assert.ok(!texts(fresh).some((t) => t.startsWith("slop: this is the result")));
  } finally {
    await close();
  }
});

Deno.test("a cancelled call stops its build only when no other call waits on it", async () => {
  const { root, gate, log } = await heldProject();
  // 0: each call waits for its build's end, however long the held render takes to begin.
  const { client, close, progress } = await connect(root, ["--reply-within", "0"]);
  try {
    const args = { maxInlineTokens: 100000 };
    const call = (signal: AbortSignal) =>
      client.callTool({ name: "build_context", arguments: args }, undefined, { signal });
    const [one, two] = [new AbortController(), new AbortController()];
    const cancelled = call(one.signal);
    const waiting = call(two.signal);
    await until(() => holds(log) === 1, "the held render");
    one.abort();
    await assert.rejects(cancelled, /abort/i);
    // Answered after the server read the cancel (stdin's messages are handled in order).
    await client.listTools();
    await Deno.writeTextFile(gate, "");
    // The other call still waited on the build: it went on, and rendered the held file once.
    assert.equal(data(await waiting).number, 1);
    assert.equal(holds(log), 1);

    // Alone, a cancelled call's build stops: the next identical call builds anew (the held file
    // is edited so that its render is not cached) and takes the next number.
    await Deno.remove(gate);
    await Deno.writeTextFile(
      join(root, "m/hold.ts"),
      `export const held = "${crypto.randomUUID()}";\n`,
    );
    const alone = new AbortController();
    const stopped = call(alone.signal);
    await until(() => holds(log) === 2, "the second held render");
    // The resources are not queued behind it: they give the last written build, whole.
    const written = join(root, "out", "context_001.md");
    const document = await client.readResource({ uri: "slop://latest/document" });
    assert.equal(document.contents[0].text, await Deno.readTextFile(written));
    const manifest = await client.readResource({ uri: "slop://latest/manifest/1" });
    assert.equal(JSON.parse(String(manifest.contents[0].text)).output, "out/context_001.md");
    // So is explain, which reads the written builds only (here one, too few).
    const explained = await client.callTool({ name: "explain", arguments: {} });
    assert.match(texts(explained)[0], /^Need two written builds/);
    alone.abort();
    await assert.rejects(stopped, /abort/i);
    await client.listTools();
    await Deno.writeTextFile(gate, "");
    const again = await client.callTool({ name: "build_context", arguments: args });
    assert.equal(data(again).number, 2);
    assert.equal(holds(log), 3);

    // token_stats tells its progress as the builds do: the files rendered, then the blocks
    // counted, all sent before its reply (read off the stream: `progress()` of `_client.ts`).
    const before = progress().length;
    const stats = await client.callTool(
      { name: "token_stats", arguments: { build: true } },
      undefined,
      { onprogress: () => {} },
    );
    assert.equal(stats.isError, undefined, texts(stats)[0]);
    const told = progress().slice(before).map((p) => p.message ?? "");
    assert.ok(told.some((m) => /^rendered 3 of 3 files/.test(m)), told.join("\n"));
    assert.match(told.at(-1)!, /^counted the tokens of (\d+) of \1 blocks$/, told.join("\n"));
  } finally {
    await close();
  }
});

/** `slop mcp --http` (with `args`) in `root`: its URL, what it wrote to stderr so far, its end. */
async function httpServer(root: string, args: string[]) {
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), "mcp", "--http", "--port", "0", ...args],
    cwd: root,
    env: serverEnv(),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const read = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of server.stderr) stderr += decoder.decode(chunk, { stream: true });
  })();
  await until(() => /on http:\/\/127\.0\.0\.1:\d+\/mcp\n/.test(stderr), "the server to listen");
  const url = stderr.match(/on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/)![1];
  const stop = async () => {
    server.kill("SIGTERM");
    await server.status;
    await read;
  };
  return { url, stderr: () => stderr, stop };
}

/** A raw POST of one JSON-RPC message to `url` (in `session` when given). */
function post(url: string, message: unknown, session?: string, signal?: AbortSignal) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...(session ? { "mcp-session-id": session } : {}),
    },
    body: JSON.stringify(message),
    signal,
  });
}

Deno.test("over HTTP, a call whose connection drops is cancelled, and an open call keeps its session past the idle timeout", async () => {
  const { root, gate, log } = await heldProject();
  const server = await httpServer(root, ["--reply-within", "0", "--idle-timeout", "1"]);
  const { Client, HttpClientTransport } = await loadMcpClient();
  const transport = new HttpClientTransport(new URL(server.url));
  const client = new Client({ name: "slop-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    const args = { maxInlineTokens: 100000 };
    // A client calls, and drops the connection before the reply: no cancel, no DELETE.
    const drop = new AbortController();
    const call = { name: "build_context", arguments: args };
    const message = { jsonrpc: "2.0", id: 7, method: "tools/call", params: call };
    const dropped = await post(server.url, message, transport.sessionId, drop.signal);
    assert.equal(dropped.status, 200);
    await until(() => holds(log) === 1, "the held render");
    drop.abort();
    await until(
      () =>
        /closed the connection of its "build_context" call before the reply: cancelled/.test(
          server.stderr(),
        ),
      "the drop",
    );
    // Nobody waits on its run and no reply said it goes on: it stops, and the next identical
    // call starts its own (the held file renders again), which writes the first build.
    const next = client.callTool(call);
    await Deno.writeTextFile(gate, "");
    assert.equal(data(await next).number, 1);
    assert.equal(holds(log), 2);

    // A call open for longer than the idle timeout keeps its session: its build is not cancelled.
    // A session made after it began, left idle, is closed first (its event stream ends).
    await Deno.remove(gate);
    await Deno.writeTextFile(
      join(root, "m/hold.ts"),
      `export const held = "${crypto.randomUUID()}";\n`,
    );
    const open = client.callTool(call);
    await until(() => holds(log) === 3, "the third held render");
    const init = await post(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "idle", version: "1" },
      },
    });
    const idle = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const events = await fetch(server.url, {
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": idle,
        "mcp-protocol-version": "2025-06-18",
      },
    });
    assert.equal(events.status, 200);
    for await (const _ of events.body!) { /* until the session is closed */ }
    await Deno.writeTextFile(gate, "");
    const result = await open;
    assert.equal(result.isError, undefined, texts(result)[0]);
    assert.equal(data(result).number, 2);
  } finally {
    await client.close().catch(() => {});
    await server.stop();
  }
});

Deno.test("over HTTP, a dropped call does not stop a run a reply said goes on", async () => {
  const { root, gate, log } = await heldProject();
  // 2 s: the dropped call below is dropped well before its own reply would come.
  const server = await httpServer(root, ["--reply-within", "2"]);
  const { Client, HttpClientTransport } = await loadMcpClient();
  const transport = new HttpClientTransport(new URL(server.url));
  const client = new Client({ name: "slop-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    const call = { name: "build_context", arguments: { maxInlineTokens: 100000 } };
    assert.equal(data(await client.callTool(call)).status, "running");
    const drop = new AbortController();
    const message = { jsonrpc: "2.0", id: 7, method: "tools/call", params: call };
    assert.equal((await post(server.url, message, transport.sessionId, drop.signal)).status, 200);
    drop.abort();
    await until(
      () => /closed the connection of its "build_context" call/.test(server.stderr()),
      "the drop",
    );
    await Deno.writeTextFile(gate, "");
    const result = await untilDone(client, "build_context", call.arguments);
    assert.equal(data(result).number, 1);
    assert.match(
      texts(result).at(-2)!,
      /^slop: this is the result of the build_context run an earlier/,
    );
    assert.equal(holds(log), 1);
  } finally {
    await client.close().catch(() => {});
    await server.stop();
  }
});
