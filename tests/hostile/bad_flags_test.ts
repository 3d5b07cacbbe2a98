// Bad command lines on every command of `slop`: a missing, empty or malformed value, a near-miss
// flag, a file that is not there or is a folder. Each is exit 2 and one line that names the flag
// and quotes the value, with nothing written. The commands run in this process (their output
// captured), so the whole sweep takes a second.
import assert from "node:assert/strict";
import { type CommandSpec, optionFlags, parseArgs, type ProgramSpec } from "../../cli/_args.ts";
import { main } from "../../cli/_main.ts";
import { makeProject, prng, runScript } from "../_helpers.ts";
import { messageFaults, nearMiss, treeState } from "./_bad_input.ts";

/** The command tree, and every leaf command with its path. */
async function program(): Promise<{ spec: ProgramSpec; leaves: Array<[string[], CommandSpec]> }> {
  let spec: ProgramSpec | undefined;
  await main([], { inspect: (p) => (spec = p) });
  const leaves: Array<[string[], CommandSpec]> = [];
  const walk = (command: CommandSpec, path: string[]) => {
    if (!command.commands) leaves.push([path, command]);
    command.commands?.forEach((sub) => walk(sub, [...path, sub.name]));
  };
  walk(spec!, []);
  return { spec: spec!, leaves };
}

Deno.test("every option of every command: a missing, empty or unwanted value, or a near-miss name, is a usage error naming it", async () => {
  const { spec, leaves } = await program();
  const random = prng(20261129);
  const failures: string[] = [];
  const expect = (args: string[], flag: string) => {
    const parsed = parseArgs(spec, args);
    const first = "print" in parsed ? parsed.print.split("\n")[0] : "accepted";
    const code = "print" in parsed ? parsed.code : 0;
    if (code !== 2 || !first.includes(flag) || !first.startsWith("slop: ")) {
      failures.push(`slop ${args.join(" ")}: ${code} ${first}`);
    }
  };
  for (const [path, command] of leaves) {
    for (const option of (command.options ?? []).map(optionFlags)) {
      if (option.takesValue) {
        expect([...path, option.long], option.long);
        expect([...path, option.long, ""], option.long);
        expect([...path, `${option.long}=`], option.long);
        if (option.short) expect([...path, option.short, ""], option.long);
      } else expect([...path, `${option.long}=yes`], option.long);
      const typo = `--${nearMiss(option.long.slice(2), random)}`;
      const taken = (command.options ?? []).some((o) => optionFlags(o).long === typo);
      if (!taken && typo !== "--help") expect([...path, typo], typo);
    }
  }
  assert.deepEqual(failures, []);
});

/**
 * Run each of `runs` as `slop ARGS` in `cwd`, one after another in one child process (the
 * commands run in its process, their stderr captured): each one's exit code and stderr. A child,
 * because a command reads its working folder and this process's test files share theirs.
 */
async function runEach(
  runs: string[][],
  cwd: string,
): Promise<Array<{ code: number; stderr: string }>> {
  const main = JSON.stringify(new URL("../../cli/_main.ts", import.meta.url).href);
  const code = `import { main } from ${main};
let stderr = "";
const stream = Deno.stderr;
stream.writeSync = (bytes) => {
  stderr += new TextDecoder().decode(bytes);
  return bytes.length;
};
console.error = (...parts) => (stderr += parts.join(" ") + "\\n");
console.log = () => {};
const out = [];
for (const args of ${JSON.stringify(runs)}) {
  stderr = "";
  const code = await main(args);
  out.push({ code, stderr });
}
await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(out)));`;
  const run = await runScript(code, cwd);
  const text = run.stdout;
  assert.ok(run.code === 0 && text, run.stderr);
  return JSON.parse(text);
}

/** Bad values of each command's flags and operands: the args, and what the error must name. */
const BAD_VALUES: Array<[string[], string[]]> = [
  ...["-5", "1e999", "abc", "0x10", "5.0", " 5", "0", "99999999999999999999", "Infinity"].map((
    v,
  ): [string[], string[]] => [["build", "--budget", v], ["--budget", `"${v}"`]]),
  [["build", "--format", "yaml"], ["--format", '"yaml"']],
  [["build", "--format", "MARKDOWN"], ["--format", '"MARKDOWN"']],
  [["build", "--strategy", "fast"], ["--strategy", '"fast"']],
  [["build", "--server", "--server-idle", "abc"], ["--server-idle", '"abc"']],
  [["build", "--task-file", "sub"], ["--task-file", '"sub"', "folder"]],
  [["build", "--task-file", "nope.txt"], ["--task-file", '"nope.txt"']],
  [["build", "--task", " "], ["--task", '" "']],
  [["build", "--task", "x", "--task-file", "a.py"], ["--task", "--task-file"]],
  [["build", "--persona", "nobody"], ['persona "nobody"']],
  [["build", "--persona", "constructor"], ['persona "constructor"']],
  [["build", "--preset", "__proto__"], ['preset "__proto__"']],
  [["build", "--config", "missing.ts"], ['"missing.ts"']],
  [["build", "--config", "sub"], ['"sub"', "folder"]],
  [["build", "--since", "no-such-ref"], ["--since", '"no-such-ref"']],
  // A NUL byte in a glob flag is refused as in a config's glob (it matched nothing, silently).
  [["build", "--include", "a\u0000"], ["--include", '"a\\0"', "NUL"]],
  [["build", "--focus", "x\u0000y"], ["--focus", '"x\\0y"', "NUL"]],

  ...["-1", "abc", "1e999", "1.5", "0x5"].map((v): [string[], string[]] => [
    ["stats", "--top", v],
    ["--top", `"${v}"`],
  ]),
  [["rank", "--task", "x", "--top", "abc"], ["--top", '"abc"']],
  [["rank"], ["--task"]],
  ...["abc", "101%", "-5", "5%%"].map((v): [string[], string[]] => [
    ["check", "--max-invalidated", v],
    ["--max-invalidated", `"${v}"`],
  ]),
  [["payload", "--max-tokens", "abc"], ["--max-tokens", '"abc"']],
  [["payload", "--max-tokens", "0"], ["--max-tokens", '"0"']],
  [["payload", "--provider", "nope"], ["--provider", '"nope"']],
  [["payload", "--ttl", "forever"], ["--ttl", '"forever"']],
  [["watch", "--debounce", "abc"], ["--debounce", '"abc"']],
  [["watch", "--debounce", "-1"], ["--debounce", '"-1"']],
  [["watch", "--max-builds", "1.5"], ["--max-builds", '"1.5"']],
  [["server", "start", "--idle", "abc"], ["--idle", '"abc"']],
  [["server", "run", "--idle", "-5m"], ["--idle", '"-5m"']],
  // Past the longest delay a timer takes (2^31 - 1 ms): it fired at once. The error names the
  // longest (it said only what a time looks like); no time at all ended the server at once.
  [["server", "run", "--idle", "600h"], ["--idle", '"600h"', "at most 596h"]],
  [["build", "--server", "--server-idle", "600h"], ["--server-idle", '"600h"', "at most 596h"]],
  [["server", "run", "--idle", "0"], ["--idle", '"0"', "over 0"]],
  [["build", "--server", "--server-idle", "0s"], ["--server-idle", '"0s"', "over 0"]],
  [["watch", "--debounce", "3000000000"], ["--debounce", '"3000000000"']],
  [["mcp", "--reply-within", "3000000"], ["--reply-within", '"3000000"']],
  [["mcp", "--http", "--port", "abc"], ["--port", '"abc"']],
  [["mcp", "--http", "--port", "99999"], ["--port", '"99999"']],
  [["mcp", "--http", "--port", "1e3"], ["--port", '"1e3"']],
  [["mcp", "--http", "--idle-timeout", "abc"], ["--idle-timeout", '"abc"']],
  [["mcp", "--reply-within", "abc"], ["--reply-within", '"abc"']],
  [["mcp", "--reply-within", "-1"], ["--reply-within", '"-1"']],
  [["mcp", "--port", "8080"], ["--port", "--http"]],
  // `mcp --root` of no folder serves, answering each call with the error (mcp_root_test.ts).
  [["knowledge", "harvest", "--price", "abc"], ["--price", '"abc"']],
  [["knowledge", "harvest", "--price", "-1"], ["--price", '"-1"']],
  [["cache", "prune", "--max-size", "abc"], ["--max-size", '"abc"']],
  [["slice", "add", "nope"], ['"nope"']],
  [["slice", "add", "a.py:5-1"], ['"a.py:5-1"']],
  [["slice", "add", "a.py:1-99"], ['"a.py:1-99"']],
  [["slice", "add", "missing.py:1-2"], ['"missing.py']],
  [["slice", "add", "sub:1-2"], ['"sub']],
  [["build", "--state-dir", "a.py"], ['"a.py/out"']],
  // A megabyte-long value is quoted cut short (the line was a megabyte long).
  [["build", "--persona", "z".repeat(1 << 20)], ['persona "zzzz', "more characters)"]],
  [["build", "--task-file", "z".repeat(5000)], ["--task-file", '"zzzz', "file name too long"]],
];

/** The command lines whose failure is a file that cannot be read or written: exit 1. */
const EXIT_1 = new Set(["slice add missing.py:1-2", "slice add sub:1-2", "build --state-dir a.py"]);

Deno.test("a bad value of any command's flag or operand is exit 2 and one line naming the flag and the value, writing nothing", async () => {
  const root = await makeProject({ "a.py": "x = 1\n", "sub/b.py": "y = 2\n" });
  const before = await treeState(root);
  const failures: string[] = [];
  const results = await runEach(BAD_VALUES.map(([args]) => args), root);
  for (const [i, [args, names]] of BAD_VALUES.entries()) {
    const { code, stderr } = results[i];
    const faults = messageFaults(stderr.trimEnd(), names);
    // A file that cannot be read or written is exit 1, as tests/slices and tests/cli pin.
    const exit = EXIT_1.has(args.join(" ")) ? 1 : 2;
    if (code !== exit) faults.push(`exit ${code}`);
    if (faults.length) failures.push(`slop ${args.join(" ")}: ${faults.join(", ")}\n    ${stderr}`);
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await treeState(root), before);
});

Deno.test("a build path that matches nothing is named with its control characters escaped, and the last build's output stays", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  const [first] = await runEach([["build", "-q"]], root);
  assert.equal(first.code, 0, first.stderr);
  const before = await treeState(root);
  const cases: Array<[string[], string[]]> = [
    [["build", "a\u0000.py"], ['"a\\0.py"']],
    [["build", "\u001b[2Jnope"], ['"\\u{1b}[2Jnope"']],
    [["build", "x\u0007", "y\u0008"], ['"x\\u{7}"', '"y\\u{8}"']],
  ];
  const results = await runEach(cases.map(([args]) => args), root);
  const failures: string[] = [];
  for (const [i, [args, names]] of cases.entries()) {
    const { code, stderr } = results[i];
    const faults = messageFaults(stderr.trimEnd(), names);
    if (code !== 2) faults.push(`exit ${code}`);
    if (faults.length) {
      failures.push(`${JSON.stringify(args)}: ${faults.join(", ")}\n    ${stderr}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await treeState(root), before);
});
