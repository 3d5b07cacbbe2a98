// A config's plugin whose hook never returns without awaiting holds the build's thread, and with it
// every timer (a hook's `timeoutMs` among them): the watch (`pipeline/hook_watchdog.ts`, a thread
// of its own) names the plugin, hook and file and ends the process, in the `slop` command and in
// `slop mcp`, whose client's call is answered with the same message, and in the build server, whose
// log and client say it. A build whose hooks return
// exits as usual: the watch keeps no process alive.
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { childEnv, makeProject, REPO, runCli, tempDir, V8_FLAGS } from "../_helpers.ts";
import { connect } from "../mcp/_client.ts";

// Blocked for good without spinning (no CPU spent): the same to the thread as `while (true) {}`.
const BLOCK = "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);";

/** A project whose config's view mode `block` renders `a.ts` with `render`. */
function project(render: string, extra: Record<string, string> = {}) {
  return makeProject({
    "a.ts": "export const a = 1;\n",
    "slop.config.ts": `export default {\n  files: [{ path: "a.ts", view: "block" }],\n` +
      `  plugins: [{ kind: "view-mode", name: "block", version: "1", timeoutMs: 200,\n` +
      `    render: ${render} }],\n};\n`,
    ...extra,
  });
}

const BUILD =
  `import { build, defaultPlugins, loadConfig } from "${
    pathToFileURL(join(REPO, "mod.ts")).href
  }";\nimport { watchConfigLoads } from "${
    pathToFileURL(join(REPO, "pipeline/config_watchdog.ts")).href
  }";\nwatchConfigLoads();\n` +
  "const config = await loadConfig({ cwd: Deno.cwd() });\n" +
  "await build(config, { builtins: defaultPlugins(), write: false });\nconsole.log('built');\n";

const STALLED = '[plugin block] Hook "render" ran for over 0.2 s on "a.ts" without returning';

Deno.test("a plugin's hook that never returns ends the watched process with the plugin, hook and file named", async () => {
  const run = async (render: string) =>
    await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", V8_FLAGS, "build.ts"],
      cwd: await project(render, { "build.ts": BUILD }),
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000), // without the watch: held for good (killed: SIGTERM)
    }).output();
  const renders = [
    `() => { ${BLOCK} return { text: "" }; }`, // in the hook's own call
    `async () => { await null; ${BLOCK} return { text: "" }; }`, // after an await
  ];
  const runs = await Promise.all([...renders, `(input) => ({ text: input.text })`].map(run));
  for (const [i, { signal, stderr }] of runs.slice(0, 2).entries()) {
    assert.equal(signal, "SIGKILL", renders[i]);
    assert.equal(new TextDecoder().decode(stderr), `slop: ${STALLED}\n`, renders[i]);
  }
  // Hooks that return: the build ends, and its process with it.
  const { code, stdout } = runs[2];
  assert.deepEqual([code, new TextDecoder().decode(stdout)], [0, "built\n"]);
});

Deno.test("slop mcp answers the call under way with the stalled hook's message, then ends", async () => {
  const root = await project(`() => { ${BLOCK} return { text: "" }; }`);
  const { client, stderr, close } = await connect(root);
  try {
    await assert.rejects(
      client.callTool({ name: "build_context", arguments: {} }, undefined, { timeout: 60_000 }),
      (error: Error) => {
        assert.equal(error.message, `MCP error -32603: ${STALLED}`);
        return true;
      },
    );
    assert.ok(stderr().includes(`slop: ${STALLED}\n`), stderr());
  } finally {
    await close();
  }
});

Deno.test("a build server held by a plugin's hook ends, and its client says why, then builds in its own process", async () => {
  const runtime = await tempDir({ prefix: "slop_servers_" });
  const root = await project(`() => { ${BLOCK} return { text: "" }; }`);
  const run = await runCli(["build", "--server"], root, { XDG_RUNTIME_DIR: runtime, CI: "" }, {
    signal: AbortSignal.timeout(60_000), // without the watch: held for good
  });
  const log = [...Deno.readDirSync(join(runtime, "slop"))].find((e) => e.name.endsWith(".log"));
  assert.ok(log, "a log file");
  const shown = join(runtime, "slop", log.name);
  // The server's watch ends it (its log says why, the client too), then the client's own.
  assert.equal(
    run.stderr,
    `slop: warning: the build server ended without an answer: ${STALLED} (see "${shown}"): ` +
      `building in this process\nslop: ${STALLED}\n`,
  );
  assert.equal(run.code, 137);
  assert.match(
    await Deno.readTextFile(shown),
    new RegExp(` stopped: ${RegExp.escape(STALLED)}\n$`),
  );
});

Deno.test("a wall clock that steps forward while a hook is awaited does not end the process", async () => {
  // The build's thread reads a wall clock 10 minutes behind the watch's, as after an NTP step or a
  // laptop's sleep (a wall clock moves on, a monotonic one and the hook's timer do not): a hook
  // that awaits a second, well inside its limit, is no stalled hook.
  const behind = "const wall = Date.now;\nDate.now = () => wall() - 600_000;\n";
  const root = await makeProject({
    "a.ts": "export const a = 1;\n",
    "slop.config.ts": `export default {\n  files: [{ path: "a.ts", view: "wait" }],\n` +
      `  plugins: [{ kind: "view-mode", name: "wait", version: "1", timeoutMs: 30_000,\n` +
      `    render: async (input) => { await new Promise((r) => setTimeout(r, 1000));\n` +
      `      return { text: input.text }; } }],\n};\n`,
    "build.ts": behind + BUILD,
  });
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", V8_FLAGS, "build.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const said = new TextDecoder().decode(stderr);
  assert.deepEqual([code, new TextDecoder().decode(stdout), said], [0, "built\n", ""]);
});

Deno.test("slop mcp's last words are whole JSON replies whatever the ids, and say on stderr which calls they leave", async () => {
  // Three calls under way when the hook stalls: one whose id is longer than the room the watch keeps
  // for its replies (16 KB), one whose id holds the text that once stood for the message, one plain.
  const root = await project(`() => { ${BLOCK} return { text: "" }; }`);
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), "mcp"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: childEnv(),
    signal: AbortSignal.timeout(60_000),
  }).spawn();
  const call = (id: unknown) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "build_context", arguments: {} },
  });
  const ids = ["x".repeat(20_000), "%REASON%", 7];
  const lines = [
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    ...ids.map(call),
  ];
  const writer = server.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(lines.map((line) => JSON.stringify(line) + "\n").join("")),
  );
  const { signal, stdout, stderr } = await server.output();
  assert.equal(signal, "SIGKILL");
  const replies = new TextDecoder().decode(stdout).trimEnd().split("\n").map((line) =>
    JSON.parse(line)
  );
  assert.deepEqual(replies.slice(1), [
    { jsonrpc: "2.0", id: "%REASON%", error: { code: -32603, message: STALLED } },
    { jsonrpc: "2.0", id: 7, error: { code: -32603, message: STALLED } },
  ]);
  assert.match(
    new TextDecoder().decode(stderr),
    new RegExp(
      `\n${
        RegExp.escape(
          `slop: ${STALLED}\nslop: 1 call under way was not answered: its reply does not fit in the 16 KB kept for the last replies\n`,
        )
      }$`,
    ),
  );
});
