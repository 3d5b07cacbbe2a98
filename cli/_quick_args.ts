/**
 * The command lines of `slop build --server` read without the command tree:
 * a warm build through the build server is mostly the client's start, and
 * loading and running the full parser (`_args.ts` and `_main.ts`) took 2-3 ms
 * of it. Only plain lines are read here (the options below, each value a word
 * of its own that does not start with `-` or after `=`, no operands); for any
 * other line this gives undefined and the full parser reads it. What it gives
 * is what the full parser gives for the same line (`tests/cli/args_test.ts`
 * compares the two).
 *
 * @module
 */

/** A `build --server` command line, as the full parser reads it. */
export interface QuickBuild {
  /** The operands (none: a line with operands is not read here). */
  paths: string[];
  /** The options, with the full parser's defaults. */
  options: Record<string, string | boolean | string[]>;
}

/** Options without a value: the option key and the value they set. */
const SWITCHES: Record<string, [string, boolean]> = {
  "--server": ["server", true],
  "-q": ["quiet", true],
  "--quiet": ["quiet", true],
  "--timings": ["timings", true],
  "--json": ["json", true],
  "--stdout": ["stdout", true],
  "--strict": ["strict", true],
  "--fail-on-secret": ["failOnSecret", true],
  "--no-cache": ["cache", false],
};

/** Options with a value: the option key (the last one given wins). */
const VALUES: Record<string, string> = {
  "-c": "config",
  "--config": "config",
  "--state-dir": "stateDir",
  "--server-idle": "serverIdle",
  "--format": "format",
  "--persona": "persona",
  "--preset": "preset",
  "--strategy": "strategy",
  "--budget": "budget",
  "--since": "since",
};

/** Repeatable options with a value: the option key (the values collect in order). */
const LISTS: Record<string, string> = {
  "--include": "include",
  "--ignore": "ignore",
  "--focus": "focus",
};

/**
 * Read `args` as `slop build --server` when it is a plain such line; undefined
 * otherwise (no `--server`, `--no-server`, help, operands, grouped short flags,
 * an unknown option, a value that starts with `-`...).
 *
 * @example
 * ```ts
 * import { quickBuildArgs } from "./_quick_args.ts";
 * quickBuildArgs(["build", "--server", "-q"])?.options.quiet; // true
 * quickBuildArgs(["build", "--server", "src"]); // undefined: an operand
 * ```
 */
export function quickBuildArgs(args: string[]): QuickBuild | undefined {
  const options: QuickBuild["options"] = { include: [], ignore: [], focus: [], cache: true };
  for (let i = args[0] === "build" ? 1 : 0; i < args.length; i++) {
    const word = args[i];
    const switched = SWITCHES[word];
    if (switched) {
      options[switched[0]] = switched[1];
      continue;
    }
    const eq = word.startsWith("--") ? word.indexOf("=") : -1;
    const name = eq < 0 ? word : word.slice(0, eq);
    const key = VALUES[name] ?? LISTS[name];
    if (!key) return undefined;
    let value: string;
    if (eq >= 0) value = word.slice(eq + 1);
    else if (i + 1 < args.length && !args[i + 1].startsWith("-")) value = args[++i];
    else return undefined;
    if (LISTS[name]) (options[key] as string[]).push(value);
    else options[key] = value;
  }
  return options.server === true ? { paths: [], options } : undefined;
}
