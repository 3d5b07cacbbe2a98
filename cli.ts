/**
 * The `slop` command. Subcommands are loaded lazily.
 *
 * ```sh
 * deno run -A cli.ts build --config slop.config.ts
 * ```
 *
 * @module
 */

import { Command, CommanderError } from "./deps.ts";

/** Exit code for bad usage, config or input. */
export const EXIT_USAGE = 2;

/**
 * Run the CLI with `args`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { main } from "./cli.ts";
 * const code = await main(["--help"]);
 * ```
 */
export async function main(args: string[]): Promise<number> {
  let code = 0;
  const program = new Command("slop")
    .description("Bundle a project into one LLM context document with a cache-stable prefix")
    .exitOverride()
    .configureOutput({ writeErr: (s) => Deno.stderr.writeSync(new TextEncoder().encode(s)) })
    .showHelpAfterError();

  program.command("build [paths...]", { isDefault: true })
    .description("build the context document (the default command)")
    .option("-c, --config <path>", "config file (default: ./slop.config.ts, else zero-config)")
    .option("--include <glob>", "add files matching GLOB (repeatable)", collect, [])
    .option("--ignore <glob>", "leave out files matching GLOB (repeatable)", collect, [])
    .option("--persona <name>", "apply a persona from the config")
    .option("--preset <name>", "use a preset's files and screenshots")
    .option("--strategy <strategy>", "auto | summarize | full")
    .option("--focus <path>", "render PATH in full (repeatable)", collect, [])
    .option("--state-dir <dir>", "where outputs, cache and order state live (env SLOP_DIR)")
    .option("--stdout", "print the document instead of writing a numbered file")
    .option("--json", "print the manifest as JSON")
    .option("--strict", "exit 1 when any file has an error")
    .option("-q, --quiet", "print nothing but errors")
    .action(async (paths: string[], options) => {
      const { runBuild } = await import("./cli/build.ts");
      code = await runBuild(paths, options);
    });

  try {
    await program.parseAsync(args, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    throw error;
  }
  return code;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
