// docs/mcp.md is true: the agents' registrations start a known `slop mcp` command line, the tool
// tables list exactly each tool's arguments, and the defaults and the sample error are the code's.
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadMcpClient, loadMcpServer, loadToml } from "../../deps.ts";
import { createMcpServer } from "../../cli/_mcp_server.ts";
import { RESOURCES } from "../../cli/_mcp_reply.ts";
import { MAX_INLINE_TOKENS, MAX_VIEW_FILES } from "../../cli/_mcp_tools.ts";
import { insideRoot } from "../../cli/_mcp_paths.ts";
import { DEFAULT_PORT, HTTP_PATH } from "../../cli/mcp.ts";
import { REPO } from "../_helpers.ts";
import { parseMarkdown, shellWords } from "../docs/_markdown.ts";
import { checkSlop } from "../docs/_docs.ts";

const TEXT = await Deno.readTextFile(join(REPO, "docs", "mcp.md"));
const DOC = parseMarkdown(TEXT);
const fence = (info: string, has = "") => {
  const found = DOC.fences.filter((f) => f.info === info && f.body.includes(has));
  assert.equal(found.length, 1, `one ${info} block with "${has}"`);
  return found[0].body;
};

/** The problems of `slop` plus `args` as a command line (none when cli.ts knows it). */
function slopLine(command: string, args: string[]): string[] {
  assert.equal(command, "slop");
  assert.equal(args[0], "mcp");
  return checkSlop(args).problems;
}

Deno.test("docs/mcp.md registers a known slop mcp command line with each agent", async () => {
  const claude = fence("sh", "claude mcp add slop --").trim().split("\n");
  const words = shellWords(claude[0]);
  const after = words.indexOf("--");
  assert.deepEqual(slopLine(words[after + 1], words.slice(after + 2)), []);

  const { parse } = await loadToml();
  const codex = parse(fence("toml")) as {
    mcp_servers: { slop: { command: string; args: string[] } };
  };
  assert.deepEqual(slopLine(codex.mcp_servers.slop.command, codex.mcp_servers.slop.args), []);

  const cursor =
    JSON.parse(fence("json", '"mcpServers": {\n    "slop": {\n      "command": "slop"'))
      .mcpServers.slop;
  const args = cursor.args.map((a: string) => a.replace("${workspaceFolder}", "/p"));
  assert.deepEqual(slopLine(cursor.command, args), []);
  assert.ok(args.includes("--root"), "Cursor passes the workspace as --root");

  // VS Code's file has "servers", and each server its "type".
  const vscode = JSON.parse(fence("json", '"servers"'));
  assert.deepEqual(Object.keys(vscode), ["servers"]);
  assert.equal(vscode.servers.slop.type, "stdio");
  const vsArgs = vscode.servers.slop.args.map((a: string) => a.replace("${workspaceFolder}", "/p"));
  assert.deepEqual(slopLine(vscode.servers.slop.command, vsArgs), []);
  assert.ok(vsArgs.includes("--root"), "VS Code passes the workspace as --root");

  // Claude Desktop starts servers outside any project: the installed command by its full path,
  // with the project as --root.
  const desktop = JSON.parse(fence("json", "/.deno/bin/slop")).mcpServers.slop;
  assert.match(desktop.command, /^\/.*\/\.deno\/bin\/slop$/);
  assert.deepEqual(slopLine("slop", desktop.args), []);
  assert.equal(desktop.args[desktop.args.indexOf("--root") + 1][0], "/", "an absolute --root");

  const http = fence("sh", "--transport http").trim().split("\n");
  assert.deepEqual(slopLine("slop", shellWords(http[0]).slice(1)), []);
  const url = `http://127.0.0.1:${DEFAULT_PORT}${HTTP_PATH}`;
  assert.ok(http[1].endsWith(` ${url}`), http[1]);
  assert.ok(TEXT.includes(`\`${url}\``));
});

Deno.test("docs/mcp.md's tool tables list each tool's arguments, and its defaults are the code's", async () => {
  const sdk = await loadMcpServer();
  const { Client, InMemoryTransport } = await loadMcpClient();
  const [a, b] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(sdk, { root: REPO });
  await server.connect(a);
  const client = new Client({ name: "docs-test", version: "1.0.0" });
  await client.connect(b);
  const { tools } = await client.listTools();
  const { resources } = await client.listResources();
  await client.close();
  await server.close();

  const lines = TEXT.split("\n");
  for (const tool of tools as Array<{ name: string; inputSchema: { properties?: object } }>) {
    const heading = lines.indexOf(`### \`${tool.name}\``);
    assert.ok(heading >= 0, `a section on ${tool.name}`);
    const next = lines.findIndex((l, i) => i > heading && l.startsWith("#"));
    const section = lines.slice(heading, next < 0 ? undefined : next);
    const rows = section.filter((l) => /^\| `\w+`/.test(l)).map((l) => l.split("`")[1]);
    const args = Object.keys(tool.inputSchema.properties ?? {});
    if (rows.length) assert.deepEqual(rows.sort(), args.sort(), tool.name);
    else {
      // A tool with one argument names it in the prose.
      assert.deepEqual(args, ["config"], tool.name);
      assert.ok(section.join(" ").includes("Takes `config`"), tool.name);
    }
  }
  for (const uri of Object.values(RESOURCES)) assert.ok(TEXT.includes(`| \`${uri}\``), uri);
  assert.equal((resources as unknown[]).length, Object.keys(RESOURCES).length);

  const thousands = (n: number) => n.toLocaleString("en-US");
  const prose = TEXT.replace(/\s+/g, " ");
  assert.ok(prose.includes(`The default, ${thousands(MAX_INLINE_TOKENS)} tokens`));
  assert.ok(prose.includes(`(default ${thousands(MAX_INLINE_TOKENS)})`));
  assert.ok(prose.includes(`refuse when more files match (default ${MAX_VIEW_FILES})`));
  assert.ok(prose.includes(`list the rest (default ${MAX_INLINE_TOKENS})`));

  // The sample error is the message the fence gives.
  const sample = fence("", "Invalid argument").trim();
  const [, argument, path, root] = sample.match(/"(\w+)": "([^"]+)" is outside .* root "([^"]+)"/)!;
  assert.throws(() => insideRoot(root, argument, path), { message: sample });
});
