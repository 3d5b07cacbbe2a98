/**
 * The `slop` command. Subcommands are loaded lazily; a command that builds in
 * its own process starts again with slop's V8 flags (see `cli/_relaunch.ts`).
 *
 * ```sh
 * deno install -g -A -n slop cli.ts
 * slop build --config slop.config.ts
 * ```
 *
 * @module
 */

import type { ProgramSpec } from "./cli/_args.ts";

/** Exit code for bad usage, config or input. */
export const EXIT_USAGE = 2;

/** Options of {@linkcode main}. */
export interface MainOptions {
  /**
   * Called with the command tree instead of parsing `args`, so nothing runs
   * (the README test checks each documented command line against it).
   */
  inspect?: (program: ProgramSpec) => void;
  /**
   * Start the process again with slop's V8 flags when the command builds in
   * it (see `cli/_relaunch.ts`; Linux only). The `slop` command does;
   * callers that run `main` in their own process should not.
   * @default {false}
   */
  relaunch?: boolean;
}

/**
 * Run the CLI with `args`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { main } from "./cli.ts";
 * const code = await main(["--help"]);
 * ```
 */
export async function main(args: string[], options: MainOptions = {}): Promise<number> {
  // Every command reads the working folder: one whose name Deno cannot hold as a string (not
  // valid UTF-8) or that was deleted under the shell stops here with one line, not a stack.
  const folderError = workingFolderError();
  if (folderError && !options.inspect) {
    console.error(`slop: ${folderError}`);
    return EXIT_USAGE;
  }
  if (options.relaunch && !options.inspect && Deno.build.os === "linux") {
    (await load("_relaunch")).relaunchWithFlags(args);
  }
  return await (await load("_main")).main(args, options);
}

/** Why the working folder cannot be used (`Deno.cwd()` throws), or undefined when it can. */
function workingFolderError(): string | undefined {
  try {
    Deno.cwd();
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof Deno.errors.InvalidData) {
      // Deno's message quotes the path with the bytes escaped (`"/tmp/x\xFF"`).
      const path = /"(.*)"/.exec(message)?.[1];
      return `Cannot use the working folder${path ? ` "${path}"` : ""}: its path is not valid ` +
        "UTF-8, so slop cannot open files in it (rename the folder, or run slop from another)";
    }
    return `Cannot use the working folder: ${message}`;
  }
}

/** The modules of cli/ this entry loads, by name. */
interface EntryModules {
  _main: typeof import("./cli/_main.ts");
  _relaunch: typeof import("./cli/_relaunch.ts");
  _stray_errors: typeof import("./cli/_stray_errors.ts");
}

/**
 * Import `cli/<name>.ts`. The specifier is built at run time on purpose: Deno
 * loads the graph of every string-literal dynamic import before the first line
 * runs, and `--help` or `--version` needs none of the command tree.
 */
function load<K extends keyof EntryModules>(name: K): Promise<EntryModules[K]> {
  return import(new URL(`./cli/${name}.ts`, import.meta.url).href);
}

/**
 * Take over `Deno.exit` (which `process.exit` calls too) for the command's run, and return the
 * real one for its end. slop's commands return their exit code and never exit on their own: an
 * exit meanwhile is a config's code or a plugin's (a module it imports that parses its own flags),
 * which ended the command with code 0 and no word, its work not done. It is named, and the exit
 * code is 1 (or the one given, when not 0).
 */
function exitGuard(): (code?: number) => never {
  const exit = Deno.exit;
  Deno.exit = (code?: number): never => {
    const given = code ?? Deno.exitCode;
    try {
      Deno.stderr.writeSync(
        new TextEncoder().encode(
          `slop: The config's code or a plugin called Deno.exit(${given}) (or process.exit) ` +
            "before the command finished, so its work was cut short: remove the call\n",
        ),
      );
    } catch {
      // A stderr that takes no writes: the exit code says it.
    }
    return exit(given === 0 ? 1 : given);
  };
  return exit;
}

if (import.meta.main) {
  const exit = exitGuard();
  const strayed = (await load("_stray_errors")).reportStrayErrors(
    new URL("./", import.meta.url).href,
  );
  const code = await main(Deno.args, { relaunch: true });
  exit(code === 0 && strayed() ? 1 : code);
}
