// The agent skill (skills/slop/SKILL.md): its front matter as agents read it, and every command
// and MCP call it shows, run in a project as an agent following it would.
import assert from "node:assert/strict";
import { join } from "node:path";
import { git, gitInit, makeProject, REPO, runCliShared } from "../_helpers.ts";
import { MAX_INLINE_TOKENS } from "../../cli/_mcp_tools.ts";
import { skillFolder } from "../../cli/skill.ts";

const SKILL = join(REPO, "skills/slop/SKILL.md");

/** The fenced blocks of `markdown` whose info string is `lang`, as lists of non-empty lines. */
function blocks(markdown: string, lang: string): string[][] {
  const found: string[][] = [];
  for (const m of markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    if (m[1].trim() === lang) found.push(m[2].split("\n").filter((l) => l.trim()));
  }
  return found;
}

/** A project as the skill's examples expect: a small app, a big module, a git history, a lock. */
async function project(): Promise<string> {
  const big = Array.from({ length: 60 }, (_, i) =>
    `def function_${i}(alpha, beta, gamma=None):\n` +
    `    """Compute value number ${i} from alpha and beta."""\n` +
    `    total = alpha + beta\n    for k in range(${i}):\n        total += k * alpha - beta\n` +
    `    return total\n`).join("\n\n");
  const root = await makeProject({
    "README.md": "# Demo\n\nA project for the skill's commands.\n",
    "issue.md": "The app's main() should return 1 when the big module fails to load.\n",
    "src/app.py": 'def main():\n    """Run the app."""\n    return 0\n',
    "src/big_module.py": big,
  });
  await gitInit(root);
  // A change on top of main (for --since main), and the prefix pinned with it.
  await Deno.writeTextFile(
    join(root, "src/app.py"),
    'def main():\n    """Run the app."""\n    return 1\n',
  );
  const pin = await runCliShared(["check", "--update", "-q"], root);
  assert.equal(pin.code, 0, pin.stderr);
  await git(root, "add", "slop.lock");
  return root;
}

Deno.test("the skill's front matter has the name and description agents read, in plain YAML", async () => {
  const text = await Deno.readTextFile(SKILL);
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(m, "the file starts with front matter between --- lines");
  const fields = new Map<string, string>();
  for (const line of m[1].split("\n")) {
    const field = /^([a-z-]+): (.+)$/.exec(line);
    assert.ok(field, `one "key: value" per line: ${line}`);
    assert.ok(!fields.has(field[1]), `key "${field[1]}" once`);
    fields.set(field[1], field[2]);
  }
  assert.deepEqual([...fields.keys()], ["name", "description"]);
  // The Agent Skills rules: lowercase letters, digits and hyphens, the folder's name, <= 64.
  const name = fields.get("name")!;
  assert.match(name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  assert.ok(name.length <= 64);
  assert.equal(name, "slop", "the name is the folder's");
  const description = fields.get("description")!;
  assert.ok(description.length >= 100 && description.length <= 1024, `${description.length}`);
  // A plain YAML scalar: no ": " or " #" inside, no quote or indicator at the start.
  assert.doesNotMatch(description, /: | #/);
  assert.doesNotMatch(description, /^["'&*!|>%@`{[]/);
  for (const when of ["sub-agent", "skeleton", "commit", "slop.lock"]) {
    assert.ok(description.includes(when), `the description says when: ${when}`);
  }
  const body = text.slice(m[0].length).trimStart();
  assert.match(body, /^# slop\n/);
  assert.match(body, /^## When to call slop$/m);
  assert.match(body, /^## By the command line$/m);
  assert.match(body, /^## By MCP$/m);
});

Deno.test("every command the skill shows runs in a project, in the skill's order", async () => {
  const text = await Deno.readTextFile(SKILL);
  const lines = blocks(text, "sh").flat();
  assert.ok(lines.length >= 8, `${lines.length} commands`);
  const root = await project();
  for (const line of lines) {
    assert.match(line, /^slop( [^\s"'$`|&;<>]+)*$/, `a plain slop command line: ${line}`);
    const run = await runCliShared(line.split(" ").slice(1), root, { CI: "1" });
    assert.equal(run.code, 0, `${line}\n${run.stderr}`);
    const args = line.split(" ");
    if (args.includes("--stdout")) assert.match(run.stdout, /^## Files\n/, line);
    if (line.includes("--budget 2000 src/big_module.py")) {
      // Too big in full: stepped down, every function still named.
      assert.match(run.stderr, /stepped down: src\/big_module\.py full -> skeleton$/m, line);
      for (let i = 0; i < 60; i++) assert.ok(run.stdout.includes(`def function_${i}(`), line);
      assert.doesNotMatch(run.stdout, /total \+= k/, line);
    }
    if (line.includes("--focus src/app.py") && args.includes("--stdout")) {
      assert.ok(run.stdout.includes("    return 1\n"), "the focus file in full");
    }
    if (args[1] === "explain") assert.match(run.stdout, /prefix/, line);
  }
  // docs/agents.md shows some of these lines: each one is the skill's (and so ran above).
  const agents = await Deno.readTextFile(join(REPO, "docs/agents.md"));
  const shown = blocks(agents, "sh").flat().filter((l) => l.startsWith("slop "));
  assert.ok(shown.length >= 3);
  for (const line of shown) assert.ok(lines.includes(line), `docs/agents.md: ${line}`);
  // The skill's builds wrote documents an agent can hand on.
  assert.ok((await Deno.stat(join(root, ".slop/out/context_001.md"))).isFile);
});

/** A minimal MCP client over stdio: JSON-RPC messages, one per line, as the spec's stdio transport. */
async function mcpSession(root: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), "mcp"],
    cwd: root,
    env: { NO_COLOR: "1", CI: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let id = 0;
  const send = (message: Record<string, unknown>) =>
    writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));
  const request = async (method: string, params: unknown) => {
    const mine = ++id;
    await send({ id: mine, method, params });
    for (;;) {
      const newline = buffer.indexOf("\n");
      if (newline < 0) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`slop mcp closed stdout before answering ${method}`);
        buffer += value;
        continue;
      }
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      // stdout carries protocol messages only.
      const message = JSON.parse(line);
      assert.equal(message.jsonrpc, "2.0");
      if (message.id === mine) return message;
    }
  };
  const init = await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "slop-skill-test", version: "1.0.0" },
  });
  assert.ok(init.result?.serverInfo, JSON.stringify(init));
  await send({ method: "notifications/initialized" });
  const close = async () => {
    await writer.close();
    await reader.cancel();
    await child.stderr.cancel();
    await child.status;
  };
  return { request, close };
}

Deno.test({
  name: "every MCP call the skill shows runs against slop mcp",
  fn: async () => {
    const text = await Deno.readTextFile(SKILL);
    const calls = blocks(text, "mcp").flat();
    assert.ok(calls.length >= 5, `${calls.length} calls`);
    const root = await project();
    const session = await mcpSession(root);
    try {
      const tools = await session.request("tools/list", {});
      const names = tools.result.tools.map((t: { name: string }) => t.name);
      for (const line of calls) {
        const m = /^([a-z_]+) (\{.*\})$/.exec(line);
        assert.ok(m, `a tool name and JSON arguments: ${line}`);
        assert.ok(names.includes(m[1]), `the server has the tool ${m[1]}`);
        const answer = await session.request("tools/call", {
          name: m[1],
          arguments: JSON.parse(m[2]),
        });
        assert.ok(answer.result, `${line}: ${JSON.stringify(answer.error)}`);
        assert.notEqual(
          answer.result.isError,
          true,
          `${line}: ${JSON.stringify(answer.result.content)}`,
        );
        assert.ok(answer.result.content.length > 0, line);
      }
      for (const uri of ["slop://latest/document", "slop://latest/manifest"]) {
        assert.ok(text.includes(uri));
        const read = await session.request("resources/read", { uri });
        assert.ok(read.result?.contents?.[0]?.text, `${uri}: ${JSON.stringify(read.error)}`);
      }
    } finally {
      await session.close();
    }
  },
});

// What the skill asks for must reach the agent whole: a build_context budget whose document comes
// back in the reply (with its summary and data), and a --stdout document a shell tool keeps
// (Claude Code's keeps about 30,000 characters of a command's output).
Deno.test("the skill's budgets fit an MCP reply and, with --stdout, a shell tool's output", async () => {
  const text = await Deno.readTextFile(SKILL);
  for (const line of blocks(text, "mcp").flat()) {
    const budget = /^build_context (\{.*\})$/.exec(line) && JSON.parse(line.slice(14)).budget;
    if (budget !== undefined && budget !== null) {
      assert.ok(budget <= MAX_INLINE_TOKENS - 2000, `${line}: room for the summary and data`);
    }
  }
  const printed = blocks(text, "sh").flat().filter((l) => l.includes("--stdout"));
  assert.ok(printed.length >= 2);
  for (const line of printed) {
    const budget = Number(/--budget (\d+)/.exec(line)?.[1]);
    assert.ok(budget <= 7000, `${line}: a budget a shell tool's output keeps`);
  }
});

// The docs copy the skill with `cp -r "$(slop skill)" .claude/skills/`: no path to type.
Deno.test("slop skill prints the skill's folder; docs/agents.md's copy line installs it", async () => {
  assert.deepEqual(await skillFolder(), { path: join(REPO, "skills/slop") });
  const remote = await skillFolder(new URL("https://example.com/slop/skills/slop/"));
  assert.match(
    "error" in remote ? remote.error : "",
    /^This slop runs from https:\/\/example\.com, .*: its skill is https:\/\/example\.com\/slop\/skills\/slop\/SKILL\.md/,
  );
  const empty = await makeProject({ "a.txt": "a\n" });
  const none = await skillFolder(new URL(`file://${empty}/`));
  assert.match("error" in none ? none.error : "", /^No agent skill at /);
  // The page's lines, run in a project as a shell runs them, with `slop` this checkout's cli.ts.
  const agents = await Deno.readTextFile(join(REPO, "docs/agents.md"));
  const lines = blocks(agents, "sh").find((b) => b.some((l) => l.includes(".claude/skills")))!;
  assert.deepEqual(lines, ["mkdir -p .claude/skills", 'cp -r "$(slop skill)" .claude/skills/']);
  const project = await makeProject({ "a.py": "x = 1\n" });
  const slop = `"${Deno.execPath()}" run -A --quiet "${join(REPO, "cli.ts")}"`;
  const script = lines.join("\n").replace("$(slop skill)", `$(${slop} skill)`);
  const run = await new Deno.Command("sh", { args: ["-c", script], cwd: project }).output();
  assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
  assert.equal(
    await Deno.readTextFile(join(project, ".claude/skills/slop/SKILL.md")),
    await Deno.readTextFile(SKILL),
  );
});
