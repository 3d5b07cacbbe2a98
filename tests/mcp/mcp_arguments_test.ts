import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO } from "../_helpers.ts";
import { texts } from "./_client.ts";
import { loadMcpClient, loadMcpServer } from "../../deps.ts";
import { createMcpServer } from "../../cli/_mcp_server.ts";
import { MAX_ARGUMENT_ELEMENTS, SHOWN_ISSUES } from "../../cli/_mcp_errors.ts";

// The tools' argument errors are slop's: one line per problem naming the argument's path, what it
// takes and the value sent, control characters escaped, long keys cut, at most SHOWN_ISSUES lines
// and "and K more". Resource reads answer with the right JSON-RPC code and name the URI. The
// server and the SDK's client are linked in process (no server process to start).

/** The real server and the SDK's client, linked in process, in `root`. */
async function linked(root: string) {
  const { Client, InMemoryTransport } = await loadMcpClient();
  const [a, b] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(await loadMcpServer(), { root });
  await server.connect(a);
  const client = new Client({ name: "slop-test", version: "1.0.0" });
  await client.connect(b);
  return client;
}

/** A line of an argument error: one plain sentence that names an argument. */
const LINE =
  /^((Invalid|Missing) argument "[^"\n]+": expected .+|Unknown (argument|key) "[^\n]*"( in argument "[^"\n]+")?( \(.*\))?|and [\d,]+ more)$/;

Deno.test("slop mcp's argument errors name each argument's path on a line of bounded length", async (t) => {
  const root = await makeProject({ "a.py": "def f():\n    return 1\n" });
  const client = await linked(root);
  const error = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 200)}`);
    assert.equal(texts(result).length, 1);
    return texts(result)[0];
  };
  try {
    await t.step("a long or odd key is cut and escaped", async () => {
      assert.equal(
        await error("view_files", { files: ["a.py"], mask: { ["x".repeat(2000)]: "q" } }),
        `Invalid argument "mask[${"x".repeat(30)}…]": expected "def", "sig" or "hide", got "q"`,
      );
      assert.equal(
        await error("view_files", { files: ["a.py"], mask: { "a\nb\u001b": 3 } }),
        'Invalid argument "mask[a\\nb\\u{1b}]": expected "def", "sig" or "hide", got 3',
      );
      assert.equal(
        await error("view_files", {
          files: ["a.py"],
          slices: [{ startLine: 1, endLine: 2, "\n": 1 }],
        }),
        'Unknown key "\\n" in argument "slices[0]" (known: startLine, endLine, tag, comment)',
      );
    });

    await t.step("docs/mcp.md's sample lines are what the calls get", async () => {
      const docs = await Deno.readTextFile(join(REPO, "docs/mcp.md"));
      const sample = docs.match(/```text\n((?:\s*Missing argument.*\n|.*\n)*?)\s*```/)?.[1]
        .split("\n").map((line) => line.trim()).filter(Boolean);
      const calls: Array<[string, Record<string, unknown>]> = [
        ["build_context", { budget: "lots" }],
        ["view_files", { files: ["a.py"], slices: [{ startLine: 0, endLine: 2 }] }],
        ["view_files", { files: ["a.py"], mask: { ["x".repeat(2000)]: "q" } }],
        ["view_files", {}],
        ["view_files", { files: ["a.py"], slices: [{ startLine: 1, endLine: 2, colour: 1 }] }],
        ["build_context", { budjet: 1 }],
      ];
      const got = [];
      for (const [name, args] of calls) got.push(await error(name, args));
      assert.deepEqual(sample, got);
    });

    await t.step("many problems: the first ones, then how many more", async () => {
      const text = await error("view_files", { files: Array(50).fill(5) });
      const lines = text.split("\n");
      assert.equal(lines.length, SHOWN_ISSUES + 1);
      assert.equal(lines[0], 'Invalid argument "files[0]": expected a string, got 5');
      assert.equal(lines.at(-1), `and ${50 - SHOWN_ISSUES} more`);
    });

    await t.step(
      "a value the tool checks itself is quoted with its control characters escaped",
      async () => {
        const cases: Array<[string, Record<string, unknown>, string]> = [
          ["view_files", { files: ["a.py"], view: "\u001b[2J" }, 'unknown view mode "\\u{1b}[2J"'],
          ["explain", { config: "a\u0000b" }, 'expected a path or glob, got "a\\0b"'],
          [
            "explain",
            { config: "\u001b[2J" },
            'Invalid argument "config": no file "\\u{1b}[2J"',
          ],
          [
            "token_stats",
            { persona: "a\nb" },
            'Invalid argument "persona": unknown persona "a\\nb"',
          ],
          ["build_context", { paths: ["../a\nb"] }, '"../a\\nb" is outside the project root'],
        ];
        for (const [name, args, shown] of cases) {
          const text = await error(name, args);
          // deno-lint-ignore no-control-regex
          assert.doesNotMatch(text, /[\u0000-\u001f\u007f]/, `${name}: ${JSON.stringify(text)}`);
          assert.ok(text.includes(shown), `${name}: ${JSON.stringify(text)}`);
        }
      },
    );

    await t.step("every argument of every tool, spoiled: lines of slop's form", async () => {
      const { tools } = await client.listTools();
      const odd = [{ ["k".repeat(5000)]: 1, "a\nb": [null] }, "\u0000\n".repeat(3000), -1.5, null];
      for (const tool of tools) {
        const keys = Object.keys(tool.inputSchema.properties ?? {});
        for (const key of keys) {
          for (const value of odd) {
            const args = { [key]: value, ["u\n".repeat(2000)]: 1 };
            const text = await error(tool.name, args);
            const lines = text.split("\n");
            assert.ok(text.length < 4000, `${tool.name} ${key}: ${text.length} characters`);
            assert.ok(lines.length <= SHOWN_ISSUES + 1, `${tool.name} ${key}: ${lines.length}`);
            for (const line of lines) {
              // deno-lint-ignore no-control-regex
              assert.doesNotMatch(line, /[\u0000-\u001f\u007f]/, `${tool.name} ${key}`);
              assert.match(line, LINE, `${tool.name} ${key}`);
            }
            assert.ok(text.includes("Unknown argument"), `${tool.name} ${key}: ${text}`);
          }
        }
      }
    });
  } finally {
    await client.close();
  }
});

Deno.test("slop mcp's resource reads answer -32602 for a bad URI and -32002 for none, naming it", async () => {
  const root = await makeProject({
    "a.py": "x = 1\n",
    "slop.config.ts": "export default { files: 5 };\n",
  });
  const client = await linked(root);
  const failure = async (uri: string) => {
    try {
      await client.readResource({ uri });
    } catch (error) {
      return `${(error as { code: number }).code} ${(error as Error).message}`;
    }
    throw new Error(`${uri} was read`);
  };
  try {
    assert.equal(
      await failure("not a uri"),
      '-32602 MCP error -32602: Invalid resource URI "not a uri": not a URI',
    );
    assert.match(
      await failure("slop://latest/manifest?x=1"),
      /^-32602 MCP error -32602: Invalid resource URI "slop:\/\/latest\/manifest\?x=1": /,
    );
    assert.match(
      await failure("slop://latest/nope"),
      /^-32002 MCP error -32002: No resource "slop:\/\/latest\/nope": slop has slop:\/\/latest\/document, /,
    );
    // A long URI is cut where the message quotes it.
    const long = await failure(`slop://${"x".repeat(5000)}`);
    assert.ok(long.length < 300, `${long.length} characters`);
    assert.match(long, /^-32002 MCP error -32002: No resource "slop:\/\/x+…"/);
    assert.match(
      await failure("file:///etc/passwd"),
      /^-32002 MCP error -32002: No resource "file:\/\/\/etc\/passwd"/,
    );
    // A config error is no internal error: the resource cannot be found, and the reply says why.
    assert.match(
      await failure("slop://latest/document"),
      /^-32002 MCP error -32002: Cannot read "slop:\/\/latest\/document": Invalid config "slop\.config\.ts": "files" must be an array/,
    );
    assert.match(
      await failure("slop://latest/document/2"),
      /^-32002 MCP error -32002: Cannot read "slop:\/\/latest\/document\/2": Invalid config/,
    );
    assert.match(await failure("slop://latest/document/0"), /^-32602 .*Invalid part "0"/);
  } finally {
    await client.close();
  }
  await Deno.remove(join(root, "slop.config.ts"));
});

Deno.test("slop mcp answers arguments of over MAX_ARGUMENT_ELEMENTS items at once, running no tool", async () => {
  const root = await makeProject({ "a.py": "def f():\n    return 1\n" });
  const client = await linked(root);
  const most = MAX_ARGUMENT_ELEMENTS;
  const refused = (result: unknown) => {
    assert.equal((result as { isError?: boolean }).isError, true);
    assert.deepEqual(texts(result), [
      `Invalid arguments: more than ${most.toLocaleString("en-US")} list items and object keys ` +
      "in all (send fewer, or name a folder or glob in place of each of its files)",
    ]);
  };
  try {
    // Valid values all (a file that exists, a known mask word): only their number is refused.
    refused(
      await client.callTool({
        name: "view_files",
        arguments: { files: Array(most + 1).fill("a.py") },
      }),
    );
    const mask = Object.fromEntries(Array.from({ length: most }, (_, i) => [`f${i}`, "sig"]));
    refused(await client.callTool({ name: "view_files", arguments: { files: ["a.py"], mask } }));
    // Nested: the items of every level count.
    const nested = Array.from({ length: 101 }, () => Array(100).fill("a.py"));
    refused(await client.callTool({ name: "build_context", arguments: { files: nested } }));
    // At the bound, the call is the tool's: it runs.
    const at = await client.callTool({
      name: "view_files",
      arguments: { files: Array(most - 1).fill("a.py") },
    });
    assert.equal(at.isError, undefined, texts(at).join("\n"));
  } finally {
    await client.close();
  }
});
