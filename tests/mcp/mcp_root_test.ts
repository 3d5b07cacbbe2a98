import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, tempDir } from "../_helpers.ts";
import { connect, serverEnv, texts } from "./_client.ts";
import { loadMcpClient, loadMcpServer } from "../../deps.ts";
import { createMcpServer } from "../../cli/_mcp_server.ts";

// `slop mcp` started without --root in the file system's root or the home folder (where Claude
// Desktop starts the servers it gives no folder) refuses to serve it, naming --root; an explicit
// --root of that folder is served.
/** `slop mcp` with `args` in `cwd`, stdin closed at once; its exit code and stderr. */
async function mcp(cwd: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), "mcp", ...args],
    cwd,
    env: serverEnv(env),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("slop mcp refuses the file system's root or the home folder as an implied project root", async () => {
  const root = await mcp("/", []);
  assert.equal(root.code, 2);
  assert.equal(
    root.stderr,
    'slop: No project to serve: the server was started in the file system\'s root ("/"); pass ' +
      "the project's folder as --root <dir> (docs/mcp.md shows it for each client)\n",
  );
  const home = await tempDir({ prefix: "slop_home_" });
  const inHome = await mcp(home, [], { HOME: home });
  assert.equal(inHome.code, 2);
  assert.match(
    inHome.stderr,
    /started in your home folder \(".*slop_home_.*"\); pass .* --root <dir>/,
  );
  // Named, it is the user's choice: served (stdin is closed, so the session ends at once).
  const named = await mcp(home, ["--root", home], { HOME: home });
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stderr, /^slop mcp: serving .*slop_home_.* over stdio\n/);
});

// The project folder of a running `slop mcp` deleted and made again (a fresh clone at the same
// path) is served again; deleted for good, each call says so in one line.
Deno.test("slop mcp serves its project folder again when it is deleted and made again, and names it when it is gone", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const session = await connect(root);
  try {
    const first = await session.client.callTool({
      name: "view_files",
      arguments: { files: ["a.ts"] },
    });
    assert.ok(!first.isError, texts(first)[0]);
    await Deno.remove(root, { recursive: true });
    await makeProject({ "b.ts": "export const b = 2;\n" }, root);
    const remade = await session.client.callTool({
      name: "view_files",
      arguments: { files: ["b.ts"] },
    });
    assert.ok(!remade.isError, texts(remade)[0]);
    assert.match(texts(remade).join("\n"), /export const b = 2;/);
    await Deno.remove(root, { recursive: true });
    const gone = await session.client.callTool({ name: "build_context", arguments: {} });
    assert.equal(gone.isError, true);
    assert.deepEqual(texts(gone), [
      `The project folder "${await realParent(root)}" is gone (deleted or moved): start slop mcp ` +
      "again in the project's folder, or with --root <dir>",
    ]);
  } finally {
    await session.close();
  }
});

/** `path` with its parent's real path (the server names the root as it resolved it). */
async function realParent(path: string): Promise<string> {
  return join(await Deno.realPath(join(path, "..")), path.split("/").pop()!);
}

Deno.test("build_context served in the file system's root says what to do in the agent's terms", async () => {
  // It said "run slop in a project's folder, or name what to bundle (slop build src/)": a
  // command line's remedy, which a tool's caller cannot type.
  const sdk = await loadMcpServer();
  const { Client, InMemoryTransport } = await loadMcpClient();
  const [a, b] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(sdk, { root: "/" });
  await server.connect(a);
  const client = new Client({ name: "root-test", version: "1.0.0" });
  await client.connect(b);
  try {
    const result = await client.callTool({ name: "build_context", arguments: { budget: 1000 } });
    assert.equal(result.isError, true);
    assert.equal(
      texts(result)[0],
      'No project here: "/" is the file system\'s root, and without a config slop would bundle ' +
        'every file under it; name what to bundle in the "paths" argument, or serve the ' +
        "project's folder (--root <dir> in the agent's MCP config)",
    );
  } finally {
    await client.close();
  }
});

// A --root that is no folder (not made yet, a typo in the client's settings): the server starts
// and answers each call with why, which the agent sees; one that ended before the handshake
// showed its client only that it stopped.
Deno.test("slop mcp with a --root that is no folder starts, and answers each call naming the root", async () => {
  const parent = await makeProject({ "a.py": "x = 1\n" });
  const missing = join(parent, "not-made-yet");
  for (const [given, why] of [[missing, "no such folder"], ["a.py", "not a folder"]]) {
    const session = await connect(parent, ["--root", given]);
    try {
      const expected = `Invalid --root "${given}": ${why}: start slop mcp again with the ` +
        "project's folder as --root <dir>";
      for (
        const [name, args] of [["build_context", {}], ["view_files", { files: ["a.py"] }]] as const
      ) {
        const result = await session.client.callTool({ name, arguments: args });
        assert.equal(result.isError, true, name);
        assert.deepEqual(texts(result), [expected], name);
      }
      assert.ok(
        session.stderr().startsWith(`slop: ${expected} (each tool call answers with this error)\n`),
        session.stderr(),
      );
    } finally {
      await session.close();
    }
  }
});
