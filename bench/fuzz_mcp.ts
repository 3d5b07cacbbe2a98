/**
 * A seeded fuzzer of `slop mcp`'s tool arguments: the real server (`createMcpServer()`) and the
 * MCP SDK's client, linked in process, in a small project that sits beside a file outside its
 * root (and holds links to it). Every tool is called with arguments made from its own input
 * schema (from `tools/list`), each spoiled at random: wrong types, empty, huge, NUL, control
 * characters, `..`, absolute and `file:` paths, links out of the root, globs that match nothing,
 * negative, fractional and huge numbers, unknown keys; one call in ten reads a resource
 * (`slop://latest/document/…`) with an odd part. What must hold on every call:
 *
 * - a result or a tool error (`isError`), or an MCP error that is not -32603 (internal error);
 * - a tool error's first line is one plain sentence (no stack, no runtime error name) naming one
 *   of the arguments given (its key, or its value quoted);
 * - every error (a tool's or an MCP error) is under {@linkcode MAX_ERROR_CHARS} characters, of at
 *   most {@linkcode MAX_ERROR_LINES} lines, with no raw control character in a line;
 * - nothing outside the root is read: the outside file's marker is in no reply;
 * - nothing is written outside the root or the state folder;
 * - each call answers within `--timeout` seconds (a hang).
 *
 * ```sh
 * deno run -A bench/fuzz_mcp.ts --seed 1 --rounds 300
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadMcpClient, loadMcpServer } from "../deps.ts";
import { createMcpServer } from "../cli/_mcp_server.ts";
import { quote } from "../pipeline/schema.ts";
import { prng } from "../tests/_helpers.ts";
import { messageFaults, treeState } from "../tests/hostile/_bad_input.ts";

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** The text of the file outside the root: a reply holding it read outside the root. */
const MARKER = "OUTSIDE_MARKER_7f3a9c";

/**
 * The longest error a call may get, in characters and lines: an argument error lists 10 problems
 * and "and K more"; a config error its file, 20 problems, "and K more" and a hint.
 */
const MAX_ERROR_CHARS = 4000;
const MAX_ERROR_LINES = 23;

/** What is wrong with an error's shape: too long, too many lines, a raw control character. */
function shapeFaults(message: string): string[] {
  const faults: string[] = [];
  if (message.length >= MAX_ERROR_CHARS) faults.push(`${message.length} characters`);
  const lines = message.split("\n");
  if (lines.length > MAX_ERROR_LINES) faults.push(`${lines.length} lines`);
  // deno-lint-ignore no-control-regex
  if (lines.some((line) => /[\u0000-\u001f\u007f]/.test(line))) {
    faults.push("a raw control character");
  }
  return faults;
}

/** Strings that are bad as a path, a name, a ref or a task. */
const ODD_STRINGS = [
  "",
  " ",
  "a\u0000b",
  "a\nb",
  "\u001b[2J",
  "\ud800",
  "../outside.txt",
  "../../../../../../etc/passwd",
  "/etc/passwd",
  "OUTSIDE",
  "file:///etc/passwd",
  "%2e%2e/outside.txt",
  "~/.ssh/id_rsa",
  "$HOME",
  "C:\\Windows\\win.ini",
  "\\\\server\\share\\x",
  "out_link",
  "out_dir/outside.txt",
  "out_dir/**",
  "src/../../outside.txt",
  "**/nothing_here_*",
  "[unclosed",
  "{a,b",
  "*",
  "**",
  ".",
  "./",
  "src/",
  "-rf",
  "--config=/etc/passwd",
  "HEAD~99999",
  "constructor",
  "__proto__",
  "x".repeat(300_000),
  "é".repeat(5000),
];

/** Numbers that are bad as a budget, a count or a share. */
const ODD_NUMBERS = [-1, 0, -0, 1.5, 1e308, -1e308, 2 ** 53 + 2, 1e-300, 3];

/** An odd value of any type. */
function anyOdd(random: Random): unknown {
  return pick(random, [
    null,
    true,
    5,
    -7.5,
    "x",
    [],
    {},
    [null],
    { a: { b: [1] } },
    pick(random, ODD_STRINGS),
  ]);
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
}

/** A value for `schema`, odd four times in ten. */
function valueFor(random: Random, schema: JsonSchema, depth = 0): unknown {
  if (random() < 0.1) return anyOdd(random);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum) return random() < 0.7 ? pick(random, schema.enum) : pick(random, ODD_STRINGS);
  if (schema.anyOf) return valueFor(random, pick(random, schema.anyOf), depth);
  switch (type) {
    case "string":
      return random() < 0.3
        ? pick(random, ["a.py", "src/b.ts", "README.md"])
        : pick(random, ODD_STRINGS);
    case "number":
    case "integer":
      return pick(random, ODD_NUMBERS);
    case "boolean":
      return random() < 0.8 ? random() < 0.5 : anyOdd(random);
    case "array": {
      const n = pick(random, [0, 1, 1, 2, 3, 5000]);
      return Array.from({ length: n }, () => valueFor(random, schema.items ?? {}, depth + 1));
    }
    case "object": {
      const out: Record<string, unknown> = {};
      const props = Object.entries(schema.properties ?? {});
      for (const [key, sub] of props) {
        if (random() < 0.6) out[key] = valueFor(random, sub, depth + 1);
      }
      if (!props.length || random() < 0.3) {
        const extra = typeof schema.additionalProperties === "object"
          ? schema.additionalProperties
          : {};
        out[pick(random, ["f", "g", "constructor", "x".repeat(2000)])] = valueFor(random, extra);
      }
      return out;
    }
    default:
      return anyOdd(random);
  }
}

/** A valid value of each argument, by name (others are made from the schema). */
const VALID: Record<string, unknown> = {
  config: "slop.config.ts",
  persona: "dev",
  preset: "small",
  focus: ["a.py"],
  paths: ["a.py", "src"],
  files: ["a.py", "src/*.ts"],
  view: "skeleton",
  strategy: "auto",
  budget: 400,
  task: "fix f",
  format: "markdown",
  maxInlineTokens: 2000,
  mask: { f: "sig" },
  slices: [{ startLine: 1, endLine: 2 }],
  maxFiles: 5,
  maxTokens: 2000,
  top: 3,
  build: true,
  maxInvalidated: "10%",
};

/** Arguments for a tool: some of its keys valid, one or two spoiled, sometimes an unknown key. */
function argumentsFor(random: Random, schema: JsonSchema): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const keys = Object.keys(schema.properties ?? {});
  for (const key of keys) {
    if (random() < 0.4 && Object.hasOwn(VALID, key)) args[key] = VALID[key];
  }
  for (let n = random() < 0.8 ? 1 : 2; n > 0 && keys.length; n--) {
    const key = pick(random, keys);
    args[key] = valueFor(random, schema.properties![key]);
  }
  if (random() < 0.05) args[pick(random, ["budgte", "path", "file", "\u0000"])] = 1;
  return args;
}

/** The texts of an MCP result (and its structured content, as JSON). */
function replyText(result: Record<string, unknown>): { first: string; all: string } {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  const texts = content.map((c) => c.text ?? "");
  return {
    first: texts[0] ?? "",
    all: texts.join("\n") + JSON.stringify(result.structuredContent ?? null),
  };
}

/** Does the error name one of the arguments, by key or by value (or a required one, missing)? */
function namesAnArgument(
  message: string,
  args: Record<string, unknown>,
  required: string[] = [],
): boolean {
  if (!Object.keys(args).length || required.some((key) => message.includes(key))) return true;
  return Object.entries(args).some(([key, value]) =>
    message.includes(key) ||
    // A key as errors show it: control characters escaped, a long one cut.
    (key.length > 0 && message.includes(quote(key).slice(0, 20))) ||
    (typeof value === "string" && value.length > 0 &&
      message.includes(JSON.stringify(value.slice(0, 20)).slice(0, -1)))
  );
}

async function project(): Promise<{ root: string; outside: string; parent: string }> {
  const parent = await Deno.makeTempDir({ prefix: "slop_fuzzmcp_" });
  const root = join(parent, "project");
  const outside = join(parent, "outside.txt");
  await Deno.writeTextFile(outside, `${MARKER}\n`);
  await Deno.mkdir(join(parent, "outdir"));
  await Deno.writeTextFile(join(parent, "outdir", "outside.txt"), `${MARKER} in a folder\n`);
  await Deno.mkdir(join(root, "src"), { recursive: true });
  await Deno.writeTextFile(join(root, "a.py"), "def f(x):\n    return x\n");
  await Deno.writeTextFile(join(root, "src", "b.ts"), "export const b = 1;\n");
  await Deno.writeTextFile(join(root, "README.md"), "# P\n");
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    'export default { files: ["**"], personas: { dev: { tier: 1 } }, presets: { small: { files: ["a.py"] } } };\n',
  );
  await Deno.symlink(outside, join(root, "out_link"));
  await Deno.symlink(join(parent, "outdir"), join(root, "out_dir"));
  return { root, outside, parent };
}

async function main() {
  const { values: flags } = parseArgs({
    args: Deno.args,
    options: {
      seed: { type: "string", default: "1" },
      rounds: { type: "string", default: "100" },
      timeout: { type: "string", default: "120" },
    },
  });
  const seed = Number(flags.seed);
  const rounds = Number(flags.rounds);
  const timeoutMs = Number(flags.timeout) * 1000;
  const { root, parent } = await project();
  const sdk = await loadMcpServer();
  const { Client, InMemoryTransport } = await loadMcpClient();
  const [a, b] = InMemoryTransport.createLinkedPair();
  const cwd = Deno.cwd();
  Deno.chdir(root);
  const server = createMcpServer(sdk, { root });
  await server.connect(a);
  const client = new Client({ name: "fuzz-mcp", version: "1.0.0" });
  await client.connect(b);
  const { tools } = await client.listTools();
  const outsideBefore = (await treeState(parent)).filter((l) => !l.startsWith("project/"));
  const findings: string[] = [];
  const found = (i: number, label: string, fault: string) => {
    findings.push(`${label.slice(0, 40)}: ${fault.replace(/"[^"]*"|\d+/g, "…").slice(0, 80)}`);
    console.log(`FOUND #${i} ${label.slice(0, 300)}\n    ${fault.slice(0, 500)}`);
  };
  let slowest = { ms: 0, label: "" };
  const answers = { result: 0, toolError: 0, mcpError: 0 };
  for (let i = 0; i < rounds; i++) {
    const random = prng(seed * 100_003 + i);
    if (random() < 0.1) {
      // A resource: the latest document or manifest, whole or a part named oddly.
      const kind = pick(random, ["document", "manifest"]);
      const part = pick(random, [
        "",
        "/1",
        "/2",
        "/0",
        "/-1",
        "/1.5",
        "/NaN",
        "/1e309",
        "/%00",
        "/..%2F..%2Foutside.txt",
        "/../../outside.txt",
        `/${"9".repeat(400)}`,
        "/1/2",
        "/%ZZ",
      ]);
      const uri = random() < 0.2
        ? pick(random, [
          "not a uri",
          "slop://latest/nope",
          `slop://latest/${kind}?part=2`,
          "file:///etc/passwd",
          "slop://latest/document#x",
          `slop://latest/${"\n".repeat(3)}`,
          `slop://${"x".repeat(5000)}`,
        ])
        : `slop://latest/${kind}${part}`;
      try {
        const read = await client.readResource({ uri });
        if (JSON.stringify(read).includes(MARKER)) {
          found(i, uri, "a resource holds the outside file's text");
        }
        answers.result++;
      } catch (error) {
        answers.mcpError++;
        const code = (error as { code?: number }).code;
        const message = error instanceof Error ? error.message : String(error);
        if (code === -32603 || code === undefined) {
          found(i, uri, `MCP error ${code}: ${message.slice(0, 300)}`);
        }
        const faults = messageFaults(message.replace(/^(MCP error -?\d+: )+/, ""), []);
        faults.push(...shapeFaults(message));
        for (const f of faults) found(i, uri, `${f}: ${JSON.stringify(message.slice(0, 300))}`);
      }
      console.log(`#${i} resource ${uri.slice(0, 120)}`);
      continue;
    }
    const picked = pick(random, tools) as { name: string; inputSchema: { required?: string[] } };
    const tool = { ...picked, required: picked.inputSchema.required ?? [] };
    const args = argumentsFor(random, tool.inputSchema as JsonSchema);
    const label = `${tool.name} ${
      JSON.stringify(args, (_, v) =>
        typeof v === "string" && v.length > 60
          ? `${v.slice(0, 20)}…(${v.length})`
          : Array.isArray(v) && v.length > 10
          ? `[${v.length} items]`
          : v)
    }`;
    const started = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const result = await Promise.race([
        client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: timeoutMs }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`hang: no answer in ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]) as Record<string, unknown>;
      const { first, all } = replyText(result);
      answers[result.isError ? "toolError" : "result"]++;
      if (all.includes(MARKER)) found(i, label, "a reply holds the outside file's text");
      if (result.isError) {
        const faults = messageFaults(first.split("\n")[0], []);
        if (!namesAnArgument(first, args, tool.required)) faults.push("names no argument");
        if (/internal error/i.test(first)) faults.push("internal error");
        faults.push(...shapeFaults(first));
        for (const f of faults) found(i, label, `${f}: ${JSON.stringify(first.slice(0, 300))}`);
      }
    } catch (error) {
      const code = (error as { code?: number }).code;
      answers.mcpError++;
      const message = error instanceof Error ? error.message : String(error);
      if (code === -32603 || code === undefined) {
        found(i, label, `MCP error ${code}: ${message.slice(0, 300)}`);
      } else if (!namesAnArgument(message, args, tool.required)) {
        found(i, label, `MCP error ${code} names no argument: ${message.slice(0, 300)}`);
      }
      for (const f of shapeFaults(message)) found(i, label, `MCP error ${code}: ${f}`);
    } finally {
      clearTimeout(timer);
    }
    const ms = Math.round(performance.now() - started);
    if (ms > slowest.ms) slowest = { ms, label: `#${i} ${label.slice(0, 100)}` };
    console.log(`#${i} ${ms} ms ${label.slice(0, 120)}`);
  }
  const outsideAfter = (await treeState(parent)).filter((l) => !l.startsWith("project/"));
  if (outsideAfter.join("\n") !== outsideBefore.join("\n")) {
    found(rounds, "after all", "a file outside the root was written");
  }
  await client.close();
  Deno.chdir(cwd);
  await Deno.remove(parent, { recursive: true });
  const classes = new Map<string, number>();
  for (const f of findings) classes.set(f, (classes.get(f) ?? 0) + 1);
  console.log(
    `\n${rounds} calls (${
      JSON.stringify(answers)
    }), ${findings.length} findings; slowest ${slowest.ms} ms (${slowest.label})`,
  );
  for (const [cls, n] of [...classes].sort()) console.log(`  ${n} x ${cls}`);
  Deno.exit(0);
}

if (import.meta.main) await main();
