import assert from "node:assert/strict";
import {
  type CommandSpec,
  helpText,
  optionFlags,
  parseArgs,
  type Parsed,
  type ProgramSpec,
} from "../../cli/_args.ts";
import { EXIT_USAGE, main } from "../../cli.ts";
import { commandTypo } from "../../cli/_command_typo.ts";
import { EXIT_USAGE as ARGS_EXIT_USAGE } from "../../cli/_args.ts";
import meta from "../../deno.json" with { type: "json" };
import { loadedModules, runCliShared, tempDir } from "../_helpers.ts";

let TREE: ProgramSpec | undefined;
await main([], { inspect: (program) => TREE = program });
const PROGRAM = TREE!;

/** The command `args` run, with its operands and options; fails on help, version or an error. */
function run(args: string[]) {
  const parsed = parseArgs(PROGRAM, args);
  assert.ok("run" in parsed, `${args.join(" ")}: ${"print" in parsed ? parsed.print : ""}`);
  return { path: parsed.path.join(" "), operands: parsed.operands, options: parsed.options };
}

/** What `args` print (help, version or a usage error), where, and the exit code. */
function printed(args: string[]): Extract<Parsed, { print: string }> {
  const parsed = parseArgs(PROGRAM, args);
  assert.ok("print" in parsed, `${args.join(" ")} runs ${"run" in parsed && parsed.path}`);
  return parsed;
}

Deno.test("options keep their defaults, repeatable options collect in order, --no-x turns x off", () => {
  assert.deepEqual(run(["build"]).options, { include: [], ignore: [], focus: [], cache: true });
  assert.deepEqual(run(["build", "--include", "a/**", "--include=b/**", "--no-cache"]).options, {
    include: ["a/**", "b/**"],
    ignore: [],
    focus: [],
    cache: false,
  });
  assert.deepEqual(run(["stats"]).options, { top: "10" });
  assert.deepEqual(run(["stats", "--top", "3", "--top", "5"]).options, { top: "5" });
  assert.equal(run(["watch"]).options.debounce, "200");
  assert.equal(run(["knowledge", "harvest", "--no-harvest"]).options.harvest, false);
  assert.deepEqual(run(["check", "--state-dir", "s", "--max-invalidated", "5%"]).options, {
    stateDir: "s",
    maxInvalidated: "5%",
  });
});

Deno.test("--no-server after --server builds in the process: the last of a pair wins", () => {
  assert.equal(run(["build"]).options.server, undefined, "neither given: no server");
  assert.equal(run(["build", "--server"]).options.server, true);
  assert.equal(run(["build", "--server", "--no-server"]).options.server, false);
  assert.equal(run(["build", "--no-server", "--server"]).options.server, true);
});

Deno.test("--task given twice is a usage error naming it and both values, not the last task alone", () => {
  for (
    const [args, flag, values] of [
      [["build", "--task", "fix a", "--task", "fix b"], "--task", '("fix a", then "fix b")'],
      [["--task=a", "--budget", "9", "--task", "a"], "--task", '("a", then "a")'],
      [["rank", "--task-file", "x.md", "--task-file=y.md"], "--task-file", '("x.md", then "y.md")'],
    ] as const
  ) {
    const error = printed([...args]);
    assert.equal(error.code, 2, args.join(" "));
    assert.ok(
      error.print.startsWith(
        `slop: Option "${flag}" takes one value and was given twice ${values}\n`,
      ),
      error.print,
    );
  }
  // Other value options still take the last one given (a task's flags overridden).
  assert.equal(run(["build", "--task", "a", "--budget", "1", "--budget", "2"]).options.budget, "2");
});

Deno.test("a value comes as --opt value, --opt=value, -o value, -ovalue or after grouped short flags", () => {
  for (
    const args of [
      ["--config", "x.ts"],
      ["--config=x.ts"],
      ["-c", "x.ts"],
      ["-cx.ts"],
    ]
  ) {
    assert.equal(run(["build", ...args]).options.config, "x.ts", args.join(" "));
  }
  const grouped = run(["build", "-qc", "x.ts"]).options;
  assert.equal(grouped.quiet, true);
  assert.equal(grouped.config, "x.ts");
  assert.deepEqual(run(["build", "--focus", "-"]).options.focus, ["-"], "a value may be '-'");
});

Deno.test("the first word picks the command; otherwise the default command (build) takes every word", () => {
  assert.deepEqual(run(["src", "lib", "--stdout"]), {
    path: "build",
    operands: ["src", "lib"],
    options: { include: [], ignore: [], focus: [], cache: true, stdout: true },
  });
  assert.equal(run(["--json"]).path, "build");
  assert.equal(run(["cache", "prune", "--max-size", "200MB"]).path, "cache prune");
  assert.deepEqual(run(["slice", "add", "a.ts:1-5", "--tag", "t"]).operands, ["a.ts:1-5"]);
  assert.deepEqual(run(["init"]).operands, []);
  assert.deepEqual(run(["build", "--", "--stdout", "-q"]).operands, ["--stdout", "-q"]);
});

Deno.test("an unknown option is a usage error that names it and the closest option", () => {
  const typo = printed(["build", "--stdou"]);
  assert.equal(typo.code, 2);
  assert.equal(typo.stream, "stderr");
  assert.ok(
    typo.print.startsWith(
      'slop: Unknown option "--stdou" (did you mean "--stdout"?)\n\nUsage: slop build [options] [paths...]\n',
    ),
    typo.print,
  );
  assert.match(printed(["--stdou"]).print, /^slop: Unknown option "--stdou" /);
  assert.match(printed(["stats", "-x"]).print, /^slop: Unknown option "-x"\n\nUsage: slop stats/);
  assert.match(
    printed(["build", "--cache"]).print,
    /^slop: Unknown option "--cache" \(did you mean "--no-cache"\?\)\n/,
  );
  assert.match(
    printed(["build", "--quiet=yes"]).print,
    /^slop: Option "--quiet" takes no value\n/,
  );
  assert.match(printed(["cache", "--bogus"]).print, /^slop: Unknown option "--bogus"[ \n]/);
});

Deno.test("a typo of --version is pointed to it, not to a build option", () => {
  // --version is read before any command, so the default command's options are not the only ones.
  assert.match(
    printed(["--verison"]).print,
    /^slop: Unknown option "--verison" \(did you mean "--version"\?\)\n/,
  );
});

Deno.test("a usage error ends with the usage line and where the options are, not the whole help", () => {
  // The whole help after the error pushed it off a terminal's screen.
  assert.equal(
    printed(["build", "--stdou"]).print,
    'slop: Unknown option "--stdou" (did you mean "--stdout"?)\n\n' +
      'Usage: slop build [options] [paths...]\nRun "slop build --help" for its options.\n',
  );
  assert.equal(
    printed(["cache", "stat"]).print,
    'slop: Unknown command "stat" (did you mean "stats"?)\n\n' +
      'Usage: slop cache [options] [command]\nRun "slop cache --help" for its commands.\n',
  );
  assert.equal(
    printed(["slice", "add"]).print,
    'slop: Missing required argument "spec"\n\n' +
      'Usage: slop slice add [options] <spec>\nRun "slop slice add --help" for its options.\n',
  );
});

Deno.test("an option without its value is a usage error that names the option", () => {
  for (
    const [args, flags] of [
      [["build", "--config"], "-c, --config <path>"],
      [["build", "-c"], "-c, --config <path>"],
      [["build", "--config", "--stdout"], "-c, --config <path>"],
      [["stats", "--top"], "--top <n>"],
      [["--include"], "--include <glob>"],
    ] as const
  ) {
    const error = printed([...args]);
    assert.equal(error.code, 2, args.join(" "));
    assert.ok(
      error.print.startsWith(`slop: Option "${flags}" is missing its value\n`),
      error.print,
    );
  }
});

Deno.test("operands are counted: too many, or a required one missing, is a usage error", () => {
  assert.match(
    printed(["init", "a", "b"]).print,
    /^slop: Too many arguments for "init": expected 1 argument but got 2\n/,
  );
  assert.match(
    printed(["cache", "stats", "x"]).print,
    /^slop: Too many arguments for "stats": expected 0 arguments but got 1\n/,
  );
  assert.match(printed(["slice", "add"]).print, /^slop: Missing required argument "spec"\n/);
});

Deno.test("a group needs a subcommand: none prints its help as an error, a typo is named", () => {
  const bare = printed(["cache"]);
  assert.equal(bare.code, 2);
  assert.equal(bare.stream, "stderr");
  assert.equal(bare.print, helpText([PROGRAM, PROGRAM.commands!.find((c) => c.name === "cache")!]));
  assert.match(
    printed(["cache", "stat"]).print,
    /^slop: Unknown command "stat" \(did you mean "stats"\?\)\n\nUsage: slop cache/,
  );
  assert.match(printed(["knowledge", "nothing"]).print, /^slop: Unknown command "nothing"\n/);
});

Deno.test("--version anywhere prints the version; -h and help print the help of the command named", () => {
  for (const args of [["--version"], ["-V"], ["stats", "-V"], ["cache", "--version"]]) {
    assert.deepEqual(printed(args), { print: `${meta.version}\n`, stream: "stdout", code: 0 });
  }
  const usage = (args: string[]) => {
    const help = printed(args);
    assert.equal(help.code, 0, args.join(" "));
    assert.equal(help.stream, "stdout");
    return help.print.split("\n")[0];
  };
  assert.equal(usage(["--help"]), "Usage: slop [options] [command]");
  assert.equal(usage(["-h", "build"]), "Usage: slop [options] [command]");
  assert.equal(usage(["help"]), "Usage: slop [options] [command]");
  assert.equal(usage(["build", "-h"]), "Usage: slop build [options] [paths...]");
  assert.equal(usage(["build", "--bogus", "--help"]), "Usage: slop build [options] [paths...]");
  assert.equal(usage(["help", "build"]), "Usage: slop build [options] [paths...]");
  assert.equal(usage(["cache", "-h", "stats"]), "Usage: slop cache [options] [command]");
  assert.equal(usage(["help", "slice", "add"]), "Usage: slop slice add [options] <spec>");
  assert.equal(usage(["slice", "add", "--help"]), "Usage: slop slice add [options] <spec>");
  const unknown = printed(["help", "nothing"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.print, /^slop: Unknown command "nothing"\n/);
});

Deno.test("the help lists every option with its default and every subcommand, wrapped at 80 columns", () => {
  const texts: string[] = [];
  const walk = (path: Parameters<typeof helpText>[0]) => {
    texts.push(helpText(path));
    for (const sub of path.at(-1)!.commands ?? []) walk([...path, sub]);
  };
  walk([PROGRAM]);
  assert.equal(texts.length, 28);
  for (const text of texts) {
    for (const line of text.split("\n")) assert.ok(line.length <= 80, line);
    assert.match(text, /\n {2}-h, --help +display help for command\n/);
  }
  const stats = helpText([PROGRAM, PROGRAM.commands!.find((c) => c.name === "stats")!]);
  // Unquoted, as the descriptions write theirs: `(default: 15m)` beside `(default: "15m")` read
  // as two kinds of value.
  assert.match(stats, /\n {2}--top <n> +how many files to list \(default: 10\)\n/);
  assert.doesNotMatch(texts.join("\n"), /\(default: "/);
  const build = printed(["build", "--help"]).print;
  // A repeatable option says so; "(default: [])" told a user nothing.
  assert.match(build, /\n {2}--include <glob> +add files matching GLOB \(repeatable\)\n/);
  assert.doesNotMatch(texts.join("\n"), /default: \[\]/);
  assert.match(
    build,
    /\n {2}--no-cache +render and count everything anew; read and write no\n +cache\n/,
  );
  const top = printed(["--help"]).print;
  assert.match(top, /\n {2}-V, --version +print the version\n/);
  assert.match(
    top,
    /\nCommands:\n {2}build \[options\] \[paths\.\.\.\] +build the context document/,
  );
  assert.match(top, /\n {2}cache +look into or empty/, "a group lists no [options]");
  assert.match(top, /\n {2}help \[command\] +display help for command\n\nExamples:\n/);
});

Deno.test("slop exits 0 for --version and help, 2 for a usage error, with the message on stderr", async () => {
  const dir = await tempDir();
  const version = await runCliShared(["--version"], dir);
  assert.deepEqual(version, { code: 0, stdout: `${meta.version}\n`, stderr: "" });
  const help = await runCliShared(["stats", "--help"], dir);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: slop stats \[options\]\n/);
  const typo = await runCliShared(["build", "--jsn"], dir);
  assert.equal(typo.code, 2);
  assert.equal(typo.stdout, "");
  assert.match(typo.stderr, /^slop: Unknown option "--jsn" \(did you mean "--json"\?\)\n/);
  const command = await runCliShared(["biuld"], dir);
  assert.equal(command.code, 2);
  assert.match(command.stderr, /Unknown command "biuld" \(did you mean "build"\?\)/);
  assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing was built");
});

Deno.test("slop's entry loads no npm package, no node: module and no command's module before a command runs", async () => {
  // The command tree comes after.
  assert.deepEqual(await loadedModules("cli.ts"), ["cli.ts"]);
  assert.deepEqual(await loadedModules("cli/_main.ts"), [
    "cli/_args.ts",
    "cli/_main.ts",
    "deno.json",
    "pipeline/closest.ts",
  ]);
  assert.equal(EXIT_USAGE, ARGS_EXIT_USAGE);
});

// Two letters typed the wrong way round are the commonest typo: "did you mean" names the option
// or command meant, not another one as far in plain edit distance (`--prot` was `--root`, not
// `--port`). Every option and command of slop, each pair of its letters swapped.
Deno.test("swapped letters in any option or command suggest the one meant", async () => {
  const wrong: string[] = [];
  const swaps = (word: string, from: number) =>
    Array.from({ length: word.length - from - 1 }, (_, i) => from + i)
      .filter((i) => word[i] !== word[i + 1])
      .map((i) => word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  const walk = async (path: string[], command: CommandSpec) => {
    const names = (command.commands ?? []).map((c) => c.name);
    for (const sub of command.commands ?? []) {
      for (const typo of swaps(sub.name, 0)) {
        if (names.includes(typo)) continue;
        // A first word that is no command is build's path: the build tells a typo from a path.
        const said = path.length
          ? printed([...path, typo]).print
          : await commandTypo([typo], [...names, "help"]) ?? "";
        const hint = /did you mean "([^"]+)"/.exec(said)?.[1];
        if (hint !== sub.name) wrong.push(`${[...path, typo].join(" ")}`);
      }
      await walk([...path, sub.name], sub);
    }
    if (command.commands || !command.options) return;
    for (const option of command.options) {
      const long = optionFlags(option).long;
      for (const typo of swaps(long, 2)) {
        const said = parseArgs(PROGRAM, [...path, typo]);
        const hint = "print" in said ? /did you mean "([^"]+)"/.exec(said.print)?.[1] : undefined;
        if (hint !== long) wrong.push(`${[...path, typo].join(" ")} -> ${hint}`);
      }
    }
  };
  await walk([], PROGRAM);
  assert.deepEqual(wrong, []);
});

// A newcomer reads `slop --help` before any page: it shows what to type first, and each example
// of a command's help is a complete command line of that command.
Deno.test("the help shows examples, each a complete command line of its command", () => {
  assert.match(printed(["--help"]).print, /\nExamples:\n {2}slop build\n {4}# /);
  for (const name of ["build", "check", "mcp", "init", "stats"]) {
    assert.match(printed([name, "--help"]).print, /\nExamples:\n {2}slop /, name);
  }
  const walk = (path: string[], command: CommandSpec): string[] => [
    ...(command.examples ?? []).flatMap(([line]) => {
      // A shell line around the command (`cp -r "$(slop skill)" …`) names it whole.
      if (!line.startsWith("slop ")) {
        return line.includes(`"$(slop ${path.join(" ")})"`) ? [] : [`${line}: not this command`];
      }
      const words = line.split(" ").slice(1);
      const parsed = parseArgs(PROGRAM, words);
      const ran = "run" in parsed ? parsed.path.join(" ") : undefined;
      // The program's own examples run any command; a command's run that command.
      const meant = path.length ? path.join(" ") : words[0] ?? "build";
      return ran === meant ? [] : [`${line}: ${"print" in parsed ? parsed.print : ran}`];
    }),
    ...(command.commands ?? []).flatMap((sub) => walk([...path, sub.name], sub)),
  ];
  assert.deepEqual(walk([], PROGRAM), []);
});
