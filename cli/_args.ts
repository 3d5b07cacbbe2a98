/**
 * slop's argument parser: the command tree is plain data (names, operands,
 * options, help texts), and {@linkcode parseArgs} turns a command line into
 * the command to run with its operands and options, or into the help, the
 * version or a usage error to print. It imports nothing, so `slop --version`
 * and the start of a build load no argument-parsing library (and none of
 * Deno's Node compatibility layer that one would start).
 *
 * @module
 */

import { closest } from "../pipeline/closest.ts";

/** One option of a command, as its help shows it. */
export interface OptionSpec {
  /** The flags and value placeholder: `-c, --config <path>`, `--stdout`, `--no-cache`. */
  flags: string;
  /** The help text. */
  description: string;
  /** The value when the option is not given (shown in the help). */
  default?: string;
  /** Every value is kept, in order, in an array (empty by default). */
  repeatable?: boolean;
  /**
   * Given twice, a usage error rather than the last value (what the command takes is one value:
   * `--task a --task b` is not a task). Value options are otherwise overridden by a later one.
   */
  once?: boolean;
}

/** Parsed options of a command: by camel-case name (`--state-dir` is `stateDir`). */
export type Options = Record<string, string | string[] | boolean>;

/** One command: a leaf that runs, or a group of subcommands. */
export interface CommandSpec {
  /** The name typed after its parent: `build`, `stats`. */
  name: string;
  /** Its operands: `[paths...]` (any number), `<spec>` (one, required), `[dir]` (one, optional). */
  operands?: string;
  /** The help text. */
  description: string;
  /** Its options (`-h, --help` is added to every command). */
  options?: OptionSpec[];
  /** Its subcommands (a group runs nothing itself). */
  commands?: CommandSpec[];
  /** Command lines its help shows under "Examples:", each with what it does (tested to parse). */
  examples?: Array<[line: string, what: string]>;
  /** Run the command; resolves to the exit code. */
  run?: (operands: string[], options: Options) => Promise<number>;
}

/** The whole program: the root command, its version and the command run when none is named. */
export interface ProgramSpec extends CommandSpec {
  /** Printed by `-V, --version`. */
  version: string;
  /** The subcommand that takes the arguments when the first is no command name. */
  defaultCommand: string;
}

/** An option's flags taken apart. */
export interface OptionFlags {
  /** `-c`, if it has a short flag. */
  short?: string;
  /** `--config`, `--no-cache`. */
  long: string;
  /** The key in {@linkcode Options}: `config`, `stateDir`, `cache` for `--no-cache`. */
  key: string;
  /** True when the option takes a value (`<path>`). */
  takesValue: boolean;
  /** True for `--no-x`: it sets `x` to false (x is true by default). */
  negate: boolean;
}

/** One operand of a command, from {@linkcode CommandSpec.operands}. */
export interface OperandSpec {
  /** `paths`, `spec`, `dir`. */
  name: string;
  /** `<spec>`: the command needs it. */
  required: boolean;
  /** `[paths...]`: takes any number. */
  variadic: boolean;
}

/** What a command line asks for: a command to run, or text to print and an exit code. */
export type Parsed =
  | { run: CommandSpec; path: string[]; operands: string[]; options: Options }
  | { print: string; stream: "stdout" | "stderr"; code: number };

/**
 * Exit code for bad usage, config or input.
 *
 * @example
 * ```ts
 * import { EXIT_USAGE } from "./_args.ts";
 * EXIT_USAGE; // 2
 * ```
 */
export const EXIT_USAGE = 2;
/** Help lines are wrapped to this width. */
const HELP_WIDTH = 80;
const HELP_OPTION: OptionSpec = { flags: "-h, --help", description: "display help for command" };
const VERSION_OPTION: OptionSpec = { flags: "-V, --version", description: "print the version" };
const HELP_COMMAND: CommandSpec = {
  name: "help",
  operands: "[command]",
  description: "display help for command",
};
const HELP_FLAGS = ["-h", "--help"];
const VERSION_FLAGS = ["-V", "--version"];

/**
 * An option's flags taken apart.
 *
 * @example
 * ```ts
 * import { optionFlags } from "./_args.ts";
 * optionFlags({ flags: "--state-dir <dir>", description: "" }).key; // "stateDir"
 * ```
 */
export function optionFlags(option: OptionSpec): OptionFlags {
  const words = option.flags.split(/[ ,]+/);
  const short = words.find((w) => /^-[^-]$/.test(w));
  const long = words.find((w) => w.startsWith("--"))!;
  const negate = long.startsWith("--no-");
  const bare = negate ? long.slice(5) : long.slice(2);
  const key = bare.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return { short, long, key, takesValue: /<[^>]+>/.test(option.flags), negate };
}

/**
 * The operands a command takes.
 *
 * @example
 * ```ts
 * import { operandsOf } from "./_args.ts";
 * operandsOf({ name: "add", operands: "<spec>", description: "" });
 * // [{ name: "spec", required: true, variadic: false }]
 * ```
 */
export function operandsOf(command: CommandSpec): OperandSpec[] {
  return (command.operands ?? "").split(" ").filter((w) => w !== "").map((w) => ({
    name: w.replace(/[<>[\]]|\.\.\./g, ""),
    required: w.startsWith("<"),
    variadic: w.includes("..."),
  }));
}

/**
 * The option of `command` with the flag `flag` (`-c` or `--config`), if any.
 *
 * @example
 * ```ts
 * import { findOption } from "./_args.ts";
 * const stats = { name: "stats", description: "", options: [{ flags: "--json", description: "" }] };
 * findOption(stats, "--json")?.takesValue; // false
 * ```
 */
export function findOption(command: CommandSpec, flag: string): OptionFlags | undefined {
  return (command.options ?? []).map(optionFlags).find((o) => o.long === flag || o.short === flag);
}

/**
 * Parse `args` (the words after `slop`) against `program`: the command to run,
 * else what to print (help, version or a usage error) and the exit code.
 *
 * @example
 * ```ts
 * import { parseArgs, type ProgramSpec } from "./_args.ts";
 * const program: ProgramSpec = {
 *   name: "tool", version: "1.0.0", description: "a tool", defaultCommand: "go",
 *   commands: [{ name: "go", description: "go", options: [{ flags: "--fast", description: "" }] }],
 * };
 * parseArgs(program, ["--fast"]); // { run: <go>, path: ["go"], operands: [], options: { fast: true } }
 * ```
 */
export function parseArgs(program: ProgramSpec, args: string[]): Parsed {
  const words = args.indexOf("--") < 0 ? args : args.slice(0, args.indexOf("--"));
  if (words.some((w) => VERSION_FLAGS.includes(w))) {
    return { print: program.version + "\n", stream: "stdout", code: 0 };
  }
  const path: CommandSpec[] = [program];
  let i = 0;
  if (HELP_FLAGS.includes(args[0])) return help(path);
  while (path.at(-1)!.commands) {
    const group = path.at(-1)!;
    const word = args[i];
    const sub = group.commands!.find((c) => c.name === word);
    if (sub) {
      path.push(sub);
      i++;
      continue;
    }
    if (word === "help") return helpCommand(path, args.slice(i + 1));
    if (group === program) {
      path.push(group.commands!.find((c) => c.name === program.defaultCommand)!);
      continue;
    }
    if (word === undefined) return help(path, true);
    if (HELP_FLAGS.includes(word)) return help(path);
    if (word.startsWith("-")) return usageError(path, unknownOption(word, group));
    const hint = closest(word, [...group.commands!.map((c) => c.name), "help"]);
    return usageError(path, `Unknown command "${word}"${hint ? ` (did you mean "${hint}"?)` : ""}`);
  }
  return parseLeaf(path, args.slice(i));
}

function parseLeaf(path: CommandSpec[], args: string[]): Parsed {
  const command = path.at(-1)!;
  const end = args.indexOf("--");
  if ((end < 0 ? args : args.slice(0, end)).some((w) => HELP_FLAGS.includes(w))) return help(path);
  const specs = command.options ?? [];
  const flags = specs.map(optionFlags);
  const options = defaults(specs, flags);
  const operands: string[] = [];
  const { set, twice } = setter(specs, flags, options);
  const isFlag = (w: string | undefined) =>
    w !== undefined && flags.some((o) => o.long === w.split("=")[0] || o.short === w);
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      operands.push(word);
      continue;
    }
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      const option = flags.find((o) => o.long === (eq < 0 ? word : word.slice(0, eq)));
      if (!option) return usageError(path, unknownOption(word, command));
      if (eq >= 0 && !option.takesValue) {
        return usageError(path, `Option "${option.long}" takes no value`);
      }
      if (!option.takesValue) set(option, !option.negate);
      else if (eq >= 0 && eq === word.length - 1) return usageError(path, emptyValue(option));
      else if (eq >= 0) set(option, word.slice(eq + 1));
      else if (args[i + 1] === "") return usageError(path, emptyValue(option));
      else if (i + 1 < args.length && !isFlag(args[i + 1])) set(option, args[++i]);
      else return usageError(path, missingValue(option, command));
      continue;
    }
    // One or more short flags: -q, -c path, -cpath, -qc path.
    for (let j = 1; j < word.length; j++) {
      const option = flags.find((o) => o.short === `-${word[j]}`);
      if (!option) return usageError(path, unknownOption(j === 1 ? word : `-${word[j]}`, command));
      if (!option.takesValue) {
        set(option, !option.negate);
        continue;
      }
      if (j + 1 < word.length) set(option, word.slice(j + 1));
      else if (args[i + 1] === "") return usageError(path, emptyValue(option));
      else if (i + 1 < args.length && !isFlag(args[i + 1])) set(option, args[++i]);
      else return usageError(path, missingValue(option, command));
      break;
    }
  }
  const problem = twice() ?? operandProblem(command, operands.length);
  if (problem) return usageError(path, problem);
  return { run: command, path: path.slice(1).map((c) => c.name), operands, options };
}

/**
 * How a parse sets an option's value into `options` (a repeatable one's is added to its list),
 * and the usage error of an option that takes one value, given twice, if one was.
 */
function setter(specs: OptionSpec[], flags: OptionFlags[], options: Options) {
  const given = new Set<string>();
  let twice: string | undefined;
  const set = (option: OptionFlags, value: string | boolean) => {
    const spec = specs[flags.indexOf(option)];
    if (spec.once && given.has(option.key)) twice ??= onceOnly(option, options[option.key], value);
    given.add(option.key);
    if (spec.repeatable) {
      options[option.key] = [...options[option.key] as string[], value as string];
    } else options[option.key] = value;
  };
  return { set, twice: () => twice };
}

/** The usage error of an option that takes one value, given a second. */
function onceOnly(option: OptionFlags, first: Options[string], second: string | boolean): string {
  const shown = (v: Options[string]) => JSON.stringify(String(v));
  return `Option "${option.long}" takes one value and was given twice (${shown(first)}, then ` +
    `${shown(second)})`;
}

/** What is wrong with the number of operands a command was given, if anything. */
function operandProblem(command: CommandSpec, given: number): string | undefined {
  const wanted = operandsOf(command);
  const required = wanted.filter((o) => o.required);
  if (given < required.length) return `Missing required argument "${required[given].name}"`;
  if (!wanted.some((o) => o.variadic) && given > wanted.length) {
    const s = wanted.length === 1 ? "" : "s";
    return `Too many arguments for "${command.name}": expected ${wanted.length} argument${s} but got ${given}`;
  }
  return undefined;
}

function defaults(specs: OptionSpec[], flags: OptionFlags[]): Options {
  const options: Options = {};
  for (const [i, spec] of specs.entries()) {
    const { key, negate } = flags[i];
    if (spec.repeatable) options[key] = [];
    else if (spec.default !== undefined) options[key] = spec.default;
    // `--no-x` alone makes x true by default; beside `--x` (the last one given wins) it does not.
    else if (negate && !flags.some((f) => f.key === key && !f.negate)) options[key] = true;
  }
  return options;
}

function unknownOption(word: string, command: CommandSpec): string {
  const flags = (command.options ?? []).map(optionFlags);
  const name = word.split("=")[0];
  // `--cache` where only `--no-cache` exists (and the reverse) is too far apart for `closest`.
  const hint = flags.find((o) => o.negate && o.long === `--no-${name.slice(2)}`)?.long ??
    // --version is read before any command (`slop build --version` prints it too).
    (name.startsWith("--")
      ? closest(name, [...flags.map((o) => o.long), "--help", "--version"])
      : undefined);
  return `Unknown option "${word}"${hint ? ` (did you mean "${hint}"?)` : ""}`;
}

function missingValue(option: OptionFlags, command: CommandSpec): string {
  const spec = command.options!.find((o) => optionFlags(o).long === option.long)!;
  return `Option "${spec.flags}" is missing its value`;
}

/** An option given an empty value: `--config ""` would read as no option at all. */
function emptyValue(option: OptionFlags): string {
  return `Option "${option.long}" has an empty value`;
}

/**
 * The error, the command's usage line and where its options are: the full help after a typo
 * pushed the error off the screen (43 lines for `build`).
 */
function usageError(path: CommandSpec[], message: string): Parsed {
  const name = path.map((c) => c.name).join(" ");
  const usage = helpText(path).split("\n")[0];
  const more = `Run "${name} --help" for its ${path.at(-1)!.commands ? "commands" : "options"}.`;
  return { print: `slop: ${message}\n\n${usage}\n${more}\n`, stream: "stderr", code: EXIT_USAGE };
}

function help(path: CommandSpec[], error = false): Parsed {
  return {
    print: helpText(path),
    stream: error ? "stderr" : "stdout",
    code: error ? EXIT_USAGE : 0,
  };
}

/** `help [command...]`: the help of that command (a word that is no command is an error). */
function helpCommand(path: CommandSpec[], words: string[]): Parsed {
  const target = [...path];
  for (const word of words) {
    const sub = target.at(-1)!.commands?.find((c) => c.name === word);
    if (word === "help") break;
    if (!sub) {
      if (target.at(-1)!.commands) return usageError(target, `Unknown command "${word}"`);
      break;
    }
    target.push(sub);
  }
  return help(target);
}

/**
 * The help of the last command of `path` (`path[0]` is the program): usage,
 * description, options and subcommands, wrapped to 80 columns.
 *
 * @example
 * ```ts
 * import { helpText } from "./_args.ts";
 * helpText([{ name: "tool", description: "a tool" }]);
 * // "Usage: tool [options]\n\na tool\n\nOptions:\n  -h, --help  display help for command\n"
 * ```
 */
export function helpText(path: CommandSpec[]): string {
  const command = path.at(-1)!;
  const isProgram = path.length === 1 && "version" in command;
  const options = [...(isProgram ? [VERSION_OPTION] : []), ...command.options ?? [], HELP_OPTION]
    .map((o): [string, string] => [o.flags, o.description + defaultNote(o)]);
  const commands = command.commands
    ? [...command.commands, HELP_COMMAND].map((c): [string, string] => [
      [c.name, c.options?.length ? "[options]" : "", c.operands ?? ""].filter((w) => w).join(" "),
      c.description,
    ])
    : [];
  const width = Math.max(...[...options, ...commands].map(([term]) => term.length));
  const list = (items: [string, string][]) =>
    items.map(([term, text]) => helpItem(term, text, width)).join("\n");
  const usage = command.commands ? "[options] [command]" : ["[options]", command.operands]
    .filter((w) => w).join(" ");
  const parts = [
    `Usage: ${path.map((c) => c.name).join(" ")} ${usage}`,
    wrap(command.description, HELP_WIDTH).join("\n"),
    `Options:\n${list(options)}`,
  ];
  if (commands.length) parts.push(`Commands:\n${list(commands)}`);
  if (command.examples?.length) parts.push(`Examples:\n${examplesText(command.examples)}`);
  return parts.join("\n\n") + "\n";
}

/** Each example line, then what it does on the next line, as a shell comment. */
function examplesText(examples: Array<[string, string]>): string {
  return examples.map(([line, what]) =>
    `  ${line}\n${wrap(what, HELP_WIDTH - 6).map((l) => `    # ${l}`).join("\n")}`
  ).join("\n");
}

/** The default as the descriptions write theirs, `(default: 15m)`: unquoted, as it is typed. */
function defaultNote(option: OptionSpec): string {
  if (option.repeatable) return "";
  return option.default === undefined ? "" : ` (default: ${option.default})`;
}

function helpItem(term: string, text: string, width: number): string {
  const lines = wrap(text, HELP_WIDTH - width - 4);
  const indent = " ".repeat(width + 4);
  return `  ${term.padEnd(width)}  ${lines.join(`\n${indent}`)}`;
}

/** Words of `text` in lines of at most `width` characters (a longer word has its own line). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) {
      lines[lines.length - 1] = `${last} ${word}`;
    } else lines.push(word);
  }
  return lines;
}
