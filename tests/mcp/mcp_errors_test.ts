import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { makeProject, REPO, tempDir } from "../_helpers.ts";
import { connect, data, texts } from "./_client.ts";
import { loadMcpClient, loadMcpServer } from "../../deps.ts";
import { createMcpServer, SERVER_WRITE_HINT } from "../../cli/_mcp_server.ts";

// `slop mcp` refuses bad arguments and paths outside the project root with tool errors that name
// the argument and the path, keeps serving after them, and keeps stdout for the protocol.
Deno.test("slop mcp returns tool errors that name the argument and the refused path", async (t) => {
  const outside = await tempDir({ prefix: "slop_outside_" });
  await Deno.writeTextFile(join(outside, "secret.txt"), "not yours\n");
  const root = await makeProject({
    "a.py": "def f():\n    return 1\n",
    "slop.config.ts": 'export default { files: ["a.py"], personas: { dev: { tier: 3 } } };\n',
  });
  await Deno.symlink(outside, join(root, "link"));
  const { client, close } = await connect(root);
  const error = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} is an error`);
    return texts(result).join("\n");
  };
  try {
    await t.step("arguments of the wrong type or unknown", async () => {
      assert.equal(
        await error("build_context", { budget: "lots" }),
        'Invalid argument "budget": expected a positive integer, got "lots"',
      );
      assert.match(await error("build_context", { budget: -5 }), /^Invalid argument "budget"/);
      assert.equal(
        await error("build_context", { format: "yaml" }),
        'Invalid argument "format": expected "markdown", "xml" or "json", got "yaml"',
      );
      assert.match(await error("build_context", { colour: "red" }), /^Unknown argument "colour"/);
      // A misspelt argument names the one meant.
      assert.equal(
        await error("build_context", { budjet: 100 }),
        'Unknown argument "budjet" (did you mean "budget"?)',
      );
      assert.equal(
        await error("view_files", {}),
        'Missing argument "files": expected a non-empty list of strings',
      );
      assert.match(await error("view_files", { files: [] }), /^Invalid argument "files"/);
      assert.equal(
        await error("view_files", { files: ["a.py"], slices: [{ startLine: 0, endLine: 2 }] }),
        'Invalid argument "slices[0].startLine": expected a positive integer, got 0',
      );
    });

    await t.step("values the tools check themselves", async () => {
      assert.match(
        await error("view_files", { files: ["a.py"], view: "skelton" }),
        /^Invalid argument "view": unknown view mode "skelton" \(known: .*skeleton/,
      );
      assert.match(
        await error("build_context", { view: "nope" }),
        /^Invalid argument "view": unknown view mode "nope"/,
      );
      assert.match(
        await error("check_prefix", { maxInvalidated: "lots" }),
        /^Invalid argument "maxInvalidated": expected PERCENT% \(0-100\) or TOKENS, got "lots"$/,
      );
      // Every path of a build matches nothing: an error, not an empty document.
      assert.match(
        await error("build_context", { paths: ["nothere", "*.zz"] }),
        /^Invalid argument "paths": no file matches the paths "nothere", "\*\.zz": nothing to build/,
      );
      assert.match(
        await error("view_files", { files: ["*.zz"] }),
        /^Invalid argument "files": no file matches "\*\.zz"$/,
      );
      // A literal path that names no file, alone: the call is wrong, not a listing with an error.
      assert.match(
        await error("view_files", { files: ["b.py"] }),
        /^Invalid argument "files": no file matches "b\.py"$/,
      );
      assert.match(
        await error("view_files", {
          files: ["a.py"],
          view: "custom",
          slices: [{ startLine: 1, endLine: 2 }, { startLine: 5, endLine: 2 }],
        }),
        /^Invalid argument "slices\[1\]": endLine 2 is before startLine 5$/,
      );
      // A mask or slices that the view asked would drop: refused, not dropped without a word.
      assert.match(
        await error("view_files", { files: ["a.py"], view: "skeleton", mask: { f: "def" } }),
        /^Invalid argument "mask": view "skeleton" does not use it \(only view "masked" does\)$/,
      );
      assert.match(
        await error("view_files", {
          files: ["a.py"],
          view: "outline",
          slices: [{ startLine: 1, endLine: 2 }],
        }),
        /^Invalid argument "slices": view "outline" does not use it \(only view "custom" does\)$/,
      );
      // With no view asked, the file's own view is used, and a note says the mask was not.
      const unmasked = await client.callTool({
        name: "view_files",
        arguments: { files: ["a.py"], mask: { f: "def" } },
      });
      assert.deepEqual(data(unmasked).files[0].notes, [
        'mask not used: view "full" does not use it (give view "masked")',
      ]);
      assert.match(
        await error("view_files", { files: ["a.py", "slop.config.ts"], maxFiles: 1 }),
        /^Invalid argument "files": 2 files match, more than maxFiles 1/,
      );
      // A persona or preset the config does not define names the argument, as a path does.
      assert.match(
        await error("build_context", { persona: "nobody" }),
        /^Invalid argument "persona": unknown persona "nobody"/,
      );
      assert.match(
        await error("token_stats", { preset: "nightly" }),
        /^Invalid argument "preset": unknown preset "nightly"/,
      );
      assert.match(
        await error("explain", {}),
        /^Need two written builds to explain: .* \(or call build_context twice\)$/,
      );
      // The check `--since` shares names the tool's argument, not the command line's flag.
      assert.match(
        await error("build_context", { since: "no-such-ref" }),
        /^Invalid argument "since": "no-such-ref": ".*" is not inside a git work tree$/,
      );
    });

    await t.step("paths outside the project root are refused, naming them", async () => {
      const refused = (argument: string, path: string) =>
        new RegExp(
          `^Invalid argument "${argument}": "${
            path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
          }" is outside the project root`,
        );
      const cases: Array<[string, string, Record<string, unknown>]> = [
        ["build_context", "paths", { paths: ["../x"] }],
        ["build_context", "paths", { paths: ["/etc/passwd"] }],
        ["build_context", "focus", { focus: ["src/../../x"] }],
        ["build_context", "config", { config: "../slop.config.ts" }],
        ["token_stats", "config", { config: "/tmp/slop.config.ts" }],
        ["view_files", "files", { files: ["{..,src}/*.ts"] }],
        ["view_files", "files", { files: ["link/secret.txt"] }],
        ["view_files", "files", { files: ["link"] }],
      ];
      for (const [tool, argument, args] of cases) {
        const path = Object.values(args)[0] as string | string[];
        const value = Array.isArray(path) ? path[0] : path;
        assert.match(await error(tool, args), refused(argument, value), `${tool} ${value}`);
      }
    });

    await t.step("the server still serves after the errors", async () => {
      const result = await client.callTool({
        name: "view_files",
        arguments: { files: ["a.py"], view: "skeleton" },
      });
      assert.equal(result.isError, undefined);
      assert.match(texts(result)[0], /def f\(\):\n {4}\.\.\./);
    });
  } finally {
    await close();
  }
});

Deno.test("slop mcp keeps stdout for protocol messages: a config's console.log goes to stderr", async () => {
  const root = await makeProject({
    "a.txt": "hello\n",
    "b.txt": "left out\n",
    "configs/only_a.ts": 'console.log("printed by the config");\nconsole.info("info too");\n' +
      'export default { root: "..", files: ["a.txt"] };\n',
  });
  // Started elsewhere: --root names the project, --config is relative to where it was typed.
  const elsewhere = await tempDir({ prefix: "slop_elsewhere_" });
  const config = relative(elsewhere, join(root, "configs/only_a.ts"));
  const { client, close, stderr } = await connect(elsewhere, ["--root", root, "--config", config]);
  try {
    const result = await client.callTool({ name: "build_context", arguments: {} });
    assert.equal(result.isError, undefined, texts(result).join("\n"));
    assert.match(texts(result)[1], /### a\.txt/);
    assert.doesNotMatch(texts(result)[1], /b\.txt/);
    assert.ok((await Deno.stat(join(root, ".slop/out/context_001.md"))).isFile);
  } finally {
    await close();
  }
  assert.match(stderr(), /printed by the config\n/);
  assert.match(stderr(), /info too\n/);
});

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

// A state dir or output folder the server cannot write: the tool error names the folder and says
// what to do for the server (its state dir, or output.dir), not the command line's `--stdout`.
// /sys takes no new folders (EPERM; EACCES for others), and its folders take no new files.
const REFUSED = "(operation not permitted|permission denied)";

Deno.test({
  name:
    "build_context in a state dir or output folder that takes no writes says what to do for the server",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const root = await makeProject({
      "a.py": "x = 1\n",
      "ro/slop.config.ts":
        'export default { files: ["../a.py"], output: { dir: "/sys/kernel" } };\n',
    });
    const sdk = await loadMcpServer();
    const { Client, InMemoryTransport } = await loadMcpClient();
    const [a, b] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(sdk, { root, stateDir: "/sys/slop_state" });
    await server.connect(a);
    const client = new Client({ name: "unwritable-test", version: "1.0.0" });
    await client.connect(b);
    const cwd = Deno.cwd();
    const hint = SERVER_WRITE_HINT.replace(/[()]/g, "\\$&");
    try {
      for (
        const [args, problem] of [
          [{}, `Cannot create the output folder "/sys/slop_state/out": ${REFUSED}`],
          [
            { config: "ro/slop.config.ts" },
            `Cannot write to the output folder "/sys/kernel" \\("output.dir"\\): ${REFUSED}`,
          ],
        ] as const
      ) {
        const result = await client.callTool({ name: "build_context", arguments: args });
        assert.equal(result.isError, true);
        const [message] = texts(result);
        assert.match(message, new RegExp(`^${problem}${hint}$`, "i"));
        assert.doesNotMatch(message, /--stdout/);
      }
    } finally {
      await client.close();
      await server.close();
      assert.equal(Deno.cwd(), cwd, "a server made in this process keeps its working folder");
    }
  },
});
