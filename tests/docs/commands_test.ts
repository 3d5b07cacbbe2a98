/**
 * The documentation's command lines are true: every `slop ...`, `deno task ...` and
 * `deno run ...` line in README.md, `docs/*.md` and `bench/README.md` is a known command with
 * known flags, the command reference (docs/cli.md) lists every flag cli.ts defines, and no user
 * page asks the user to type V8 flags.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type CommandSpec, findOption, helpText, optionFlags } from "../../cli/_args.ts";
import { codeSpans, type Fence } from "./_markdown.ts";
import {
  checkLine,
  checkSlop,
  commandLines,
  leaves,
  page,
  PAGES,
  program,
  USER_PAGES,
} from "./_docs.ts";

/** The options of `cmd`, their flags taken apart. */
function optionsOf(cmd: CommandSpec) {
  return (cmd.options ?? []).map(optionFlags);
}

Deno.test("every command line in the docs is a known command with known flags", () => {
  const lines = commandLines();
  // The README alone had 30 and more before it was split into pages.
  assert.ok(lines.length >= 60, `${lines.length} command lines`);
  const readme = commandLines(PAGES.filter((p) => p.path === "README.md")).length;
  assert.ok(readme >= 8, `README.md: ${readme} command lines`);
  const problems = lines.flatMap(({ line, where }) => checkLine(line).map((p) => `${where}: ${p}`));
  assert.deepEqual(problems, []);
});

Deno.test("the checker itself rejects unknown commands, flags and tasks", () => {
  assert.equal(program.defaultCommand, "build");
  assert.deepEqual(checkLine("slop build --stdout --json"), []);
  assert.deepEqual(checkLine("slop --version"), []);
  assert.deepEqual(checkLine("deno task slop check --update --config examples/slop.config.ts"), []);
  assert.deepEqual(checkLine("deno install -g -A -n slop slop/cli.ts"), []);
  assert.deepEqual(checkLine("deno install -g -A -c slop/deno.json -n slop slop/cli.ts"), []);
  assert.notDeepEqual(checkLine("slop biuld"), []);
  assert.notDeepEqual(checkLine("slop build --stdou"), []);
  assert.notDeepEqual(checkLine("slop cache"), []);
  assert.notDeepEqual(checkLine("slop init a b"), []);
  assert.notDeepEqual(checkLine("npx -y deno@2 task contxt"), []);
  assert.notDeepEqual(checkLine("deno run -A bench/nothing.ts"), []);
  assert.notDeepEqual(checkLine("deno install -g -A -n slop slop/mod.ts"), []);
});

/** The command reference: the bare block right under docs/cli.md's "## Commands". */
function reference(): Fence {
  const cli = page("docs/cli.md");
  const heading = cli.doc.headings.find((h) => h.text === "Commands")!;
  assert.ok(heading, 'docs/cli.md has a "Commands" heading');
  return cli.doc.fences.find((f) => f.line > heading.line && f.info === "")!;
}

Deno.test("the command reference lists every command and flag of cli.ts, each as defined", () => {
  const documented = new Map<string, Set<string>>();
  const problems: string[] = [];
  let current = "";
  for (const line of reference().body.split("\n")) {
    const left = line.trim().split(/\s{2,}/)[0];
    if (line.startsWith("slop ")) {
      const { path, problems: p } = checkSlop(left.split(/\s+/).slice(1));
      problems.push(...p.map((x) => `${left}: ${x}`));
      current = path;
      const flags = documented.get(path) ?? new Set();
      for (const m of left.matchAll(/(--?[\w-]+)/g)) flags.add(m[1]);
      documented.set(path, flags);
    } else if (/^\s+-/.test(line)) {
      const takesValue = left.includes("<");
      for (const item of left.split(/,\s*/)) {
        const flag = item.split(" ")[0];
        documented.get(current)!.add(flag);
        const cmd = leaves().get(current)!;
        const option = findOption(cmd, flag);
        if (!option) problems.push(`${current}: unknown option "${flag}"`);
        else if (option.takesValue !== takesValue) {
          problems.push(`${current}: "${flag}" ${option.takesValue ? "takes" : "takes no"} value`);
        }
      }
    }
  }
  // -c/--config and --state-dir are described once, above the block.
  const common = new Set(["-c", "--config", "--state-dir"]);
  for (const [path, cmd] of leaves()) {
    const flags = documented.get(path);
    if (!flags) {
      problems.push(`"slop ${path}" is missing`);
      continue;
    }
    for (const option of optionsOf(cmd)) {
      if (common.has(option.long)) continue;
      if (!flags.has(option.long) && !flags.has(option.short!)) {
        problems.push(`"slop ${path}": "${option.long}" is missing`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the command reference says which commands take --config and --state-dir, as cli.ts defines them", () => {
  const prose = page("docs/cli.md").doc.paragraphs.find((p) =>
    p.includes("also take `--state-dir <dir>`")
  );
  assert.ok(prose, "the sentence on --state-dir");
  const listed = codeSpans(prose.split("also take `--state-dir")[0].split("zero-config);")[1])
    .sort();
  const tops = (has: string) =>
    program.commands!.filter((c) => (c.commands ?? [c]).every((leaf) => findOption(leaf, has))).map(
      (c) => c.name,
    ).sort();
  assert.deepEqual(listed, tops("--state-dir"));
  assert.match(prose, /Every command but `init` and `skill` takes `-c, --config <path>`/);
  assert.deepEqual(
    program.commands!.map((c) => c.name).filter((n) => !tops("--config").includes(n)),
    ["skill", "init"].sort(),
  );
});

Deno.test("no user page asks the user to type V8 flags", () => {
  const problems: string[] = [];
  for (const p of USER_PAGES) {
    for (const { line, where } of commandLines([p])) {
      if (/--v8-flags/.test(line)) problems.push(`${where}: ${line}`);
    }
    for (const fence of p.doc.fences) {
      if (/--v8-flags/.test(fence.body)) problems.push(`${p.path} line ${fence.line}`);
    }
    for (const paragraph of p.doc.paragraphs) {
      if (/--v8-flags/.test(paragraph)) problems.push(`${p.path}: ${paragraph.slice(0, 80)}`);
    }
  }
  assert.deepEqual(problems, []);
});

// A user copies a command block as it is: a `<...>` to fill in (a URL, an owner) fails when run.
Deno.test("no command block of docs/ or the skill has a placeholder to fill in", () => {
  const skill = Deno.readTextFileSync(new URL("../../skills/slop/SKILL.md", import.meta.url));
  const blocks = [
    ...USER_PAGES.flatMap((p) =>
      p.doc.fences.map((f) => ({ where: p.path, info: f.info, body: f.body }))
    ),
    ...[...skill.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
      where: "skills/slop/SKILL.md",
      info: m[1],
      body: m[2],
    })),
  ];
  const placeholders = blocks
    .filter((b) => ["sh", "yaml", "yml", "toml", "json", "mcp"].includes(b.info))
    .flatMap((b) => b.body.split("\n").map((line) => ({ where: b.where, line })))
    .filter(({ line }) => /<[A-Za-z][\w-]*>/.test(line))
    .map(({ where, line }) => `${where}: ${line}`);
  assert.deepEqual(placeholders, []);
});

/** The commands from the program to the leaf at `path` ("cache stats"), as `helpText` takes them. */
function chainOf(path: string): CommandSpec[] {
  const chain: CommandSpec[] = [program];
  for (const name of path.split(" ")) {
    chain.push(chain.at(-1)!.commands!.find((c) => c.name === name)!);
  }
  return chain;
}

Deno.test("the command reference states each option's default as its --help does", () => {
  // A default is the first value after "default" in an option's text: `(default: 15m)`,
  // `(default 10)`, `default: provider.model, else ...`.
  const stated = (text: string) => text.match(/\bdefault:? ([^,;)]+)/)?.[1].trim();
  const documented = new Map<string, string | undefined>();
  let current = "";
  for (const line of reference().body.split("\n")) {
    const [left, ...rest] = line.trim().split(/\s{2,}/);
    if (line.startsWith("slop ")) {
      current = checkSlop(left.split(/\s+/).slice(1)).path;
    } else if (/^\s+-/.test(line)) {
      for (const item of left.split(/,\s*/)) {
        documented.set(`${current} ${item.split(" ")[0]}`, stated(rest.join(" ")));
      }
    }
  }
  const problems: string[] = [];
  for (const [path, cmd] of leaves()) {
    for (const option of cmd.options ?? []) {
      const { long, short } = optionFlags(option);
      const key = [`${path} ${long}`, `${path} ${short}`].find((k) => documented.has(k));
      if (!key) continue; // -c and --state-dir are described once, above the block
      // What `slop <path> --help` shows: a default of the spec, or one its text states.
      const help = helpText(chainOf(path));
      const entry = help.slice(help.indexOf(`${option.flags}  `)).split(/\n {2}-/)[0]
        .replace(/\s+/g, " ");
      const inHelp = stated(entry);
      const inDocs = documented.get(key);
      if (inHelp !== inDocs) {
        problems.push(`slop ${path} ${long}: --help says ${inHelp}, docs/cli.md ${inDocs}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});
