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
import meta from "./deno.json" with { type: "json" };

const CONFIG_HELP = "config file (default: ./slop.config.ts, else zero-config)";
const STATE_DIR_HELP = "where outputs, cache and order state live (env SLOP_DIR)";

/** Exit code for bad usage, config or input. */
export const EXIT_USAGE = 2;

/** Options of {@linkcode main}. */
export interface MainOptions {
  /**
   * Called with the command tree instead of parsing `args`, so nothing runs
   * (the README test checks each documented command line against it).
   */
  inspect?: (program: Command) => void;
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
  let code = 0;
  const program = new Command("slop")
    .description("Bundle a project into one LLM context document with a cache-stable prefix")
    .version(meta.version, "-V, --version", "print the version")
    .exitOverride()
    .configureOutput({ writeErr: (s) => Deno.stderr.writeSync(new TextEncoder().encode(s)) })
    .showHelpAfterError();

  program.command("build [paths...]", { isDefault: true })
    .description("build the context document (the default command)")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--include <glob>", "add files matching GLOB (repeatable)", collect, [])
    .option("--ignore <glob>", "leave out files matching GLOB (repeatable)", collect, [])
    .option("--persona <name>", "apply a persona from the config")
    .option("--preset <name>", "use a preset's files and screenshots")
    .option("--strategy <strategy>", "auto | summarize | full")
    .option("--focus <path>", "render PATH in full (repeatable)", collect, [])
    .option("--since <ref>", "put the files changed since git REF (and untracked files) in focus")
    .option("--budget <tokens>", "fit the document in TOKENS by stepping files down")
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("--stdout", "print the document instead of writing a numbered file")
    .option("--json", "print the manifest as JSON (with --stdout: { manifest, document })")
    .option("--format <format>", "document format: markdown | xml | json (default: output.format)")
    .option("--strict", "exit 1 when any file has an error")
    .option("--fail-on-secret", "exit 1, writing nothing, when a secret is found")
    .option("-q, --quiet", "print nothing but errors")
    .option("--no-cache", "render and count everything anew; read and write no cache")
    .option("--timings", "print the time of each build stage to stderr")
    .action(async (paths: string[], options) => {
      const { commandTypo } = await import("./cli/_command_typo.ts");
      const typo = await commandTypo(paths, [...program.commands.map((c) => c.name()), "help"]);
      if (typo) {
        const { printError } = await import("./cli/_output.ts");
        printError(typo);
        code = EXIT_USAGE;
        return;
      }
      const { runBuild } = await import("./cli/build.ts");
      code = await runBuild(paths, options);
    });

  program.command("stats")
    .description("tokens by section and the top files (o200k, cl100k), and the stable-prefix share")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("--top <n>", "how many files to list", "10")
    .option("--build", "build now instead of reading the latest output")
    .option("--persona <name>", "build now with a persona from the config")
    .option("--preset <name>", "build now with a preset's files and screenshots")
    .option("--json", "print the stats as JSON")
    .action(async (options) => {
      const { runStats } = await import("./cli/stats.ts");
      code = await runStats(options);
    });

  program.command("report")
    .description("write a self-contained HTML report: treemap, prefix vs tail, views per file")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("-o, --out <file>", "where to write the page (default: <output dir>/report.html)")
    .option("--build", "build now instead of reading the latest output")
    .option("--persona <name>", "build now with a persona from the config")
    .option("--preset <name>", "build now with a preset's files and screenshots")
    .option("--stdout", "print the page instead of writing it")
    .option("-q, --quiet", "print nothing but errors")
    .action(async (options) => {
      const { runReport } = await import("./cli/report.ts");
      code = await runReport(options);
    });

  program.command("payload")
    .description("print a provider's request body for the context (cache breakpoints, TTLs)")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("--persona <name>", "apply a persona from the config")
    .option("--preset <name>", "use a preset's files and screenshots")
    .option("--provider <name>", "anthropic | openai | gemini | deepseek (default: provider.name)")
    .option("--model <id>", "model id (default: provider.model, else the provider's default)")
    .option("--ttl <ttl>", "cache lifetime, e.g. 5m or 1h (default: provider.ttl)")
    .option("--prompt <text>", "the question after the context (default: {{prompt}})")
    .option("--max-tokens <n>", "output token limit (default: 1024)")
    .action(async (options) => {
      const { runPayload } = await import("./cli/payload.ts");
      code = await runPayload(options);
    });
  const cache = program.command("cache")
    .description("look into or empty the content-hash cache (cache.dir, default .slop/cache)");
  cache.command("stats")
    .description("entries, bytes and the hit rate of the last build")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("--json", "print the stats as JSON")
    .action(async (options) => {
      const { runCache } = await import("./cli/cache.ts");
      code = await runCache("stats", options);
    });
  cache.command("clear")
    .description("remove every cache entry")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("-q, --quiet", "print nothing but errors")
    .action(async (options) => {
      const { runCache } = await import("./cli/cache.ts");
      code = await runCache("clear", options);
    });
  cache.command("prune")
    .description("remove the least recently used entries until the cache fits cache.maxSize")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("--max-size <size>", "the limit, e.g. 200MB (default: cache.maxSize, 1GB)")
    .option("-q, --quiet", "print nothing but errors")
    .action(async (options) => {
      const { runCache } = await import("./cli/cache.ts");
      code = await runCache("prune", options);
    });

  program.command("init [dir]")
    .description(
      "write a commented slop.config.ts and the context task in deno.json (never overwrites)",
    )
    .option("-q, --quiet", "print nothing but errors")
    .action(async (dir: string | undefined, options) => {
      const { runInit } = await import("./cli/init.ts");
      code = await runInit(dir, options);
    });

  program.command("watch")
    .description("rebuild on change (debounced) and print the prefix reuse of each rebuild")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("--persona <name>", "apply a persona from the config")
    .option("--preset <name>", "use a preset's files and screenshots")
    .option("--format <format>", "document format: markdown | xml | json")
    .option("--debounce <ms>", "quiet time before a rebuild", "200")
    .option("--max-builds <n>", "stop after N rebuilds")
    .option("-q, --quiet", "print nothing but errors")
    .option("--no-cache", "render and count everything anew; read and write no cache")
    .option("--timings", "print the time of each build stage to stderr after every build")
    .action(async (options) => {
      const { runWatch } = await import("./cli/watch.ts");
      code = await runWatch(options);
    });

  program.command("check")
    .description(
      "compare the stable prefix with the committed lock (slop.lock); exit 1 on mismatch",
    )
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("--persona <name>", "apply a persona from the config")
    .option("--preset <name>", "use a preset's files and screenshots")
    .option("--update", "re-pin: write the current stable prefix to the lock")
    .option("--max-invalidated <budget>", "pass when at most PERCENT% or TOKENS are invalidated")
    .option("--determinism", "also build twice (shuffled listings, other TZ) and compare bytes")
    .option("--json", "print the result as JSON")
    .option("-q, --quiet", "print nothing but errors")
    .action(async (options) => {
      const { runCheck } = await import("./cli/check.ts");
      code = await runCheck(options);
    });

  program.command("explain")
    .description("the shared prefix of the last two builds and the block that ended it")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--state-dir <dir>", STATE_DIR_HELP)
    .option("--json", "print the result as JSON")
    .action(async (options) => {
      const { runExplain } = await import("./cli/explain.ts");
      code = await runExplain(options);
    });

  const knowledge = program.command("knowledge")
    .description("knowledge artifacts: the digest and the conversation harvest");
  knowledge.command("digest")
    .description("regenerate digest.md from the category files (deleted when all are empty)")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("-q, --quiet", "print nothing but errors")
    .action(async (options) => {
      const { runKnowledgeDigest } = await import("./cli/knowledge.ts");
      code = await runKnowledgeDigest(options);
    });
  knowledge.command("harvest")
    .description("distill conversations into the knowledge files (a dry run without --apply)")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--apply", "ask the provider, append items, write the ledger and the digest")
    .option("--reclaim", "with --apply, delete conversations whose harvest succeeded")
    .option(
      "--no-harvest",
      "ask no model: with --apply --reclaim, delete conversations unharvested",
    )
    .option("--price <usd>", "USD per million input tokens for the estimate")
    .option("-q, --quiet", "print nothing but errors")
    .action(async (options) => {
      const { runKnowledgeHarvest } = await import("./cli/knowledge.ts");
      code = await runKnowledgeHarvest(options);
    });
  const slice = program.command("slice")
    .description("maintain the custom view's line slices (slicesFile, default slop/slices.toml)");
  slice.command("add <spec>")
    .description("add the slice PATH:START-END with its content hash and anchor lines")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--tag <tag>", "label shown as [Slice: TAG]")
    .option("--comment <text>", "comment shown after the label")
    .option("-q, --quiet", "print nothing but errors")
    .action(async (spec: string, options) => {
      const { runSliceAdd } = await import("./cli/slice.ts");
      code = await runSliceAdd(spec, options);
    });
  slice.command("list")
    .description("every slice and its status: exact, moved, re-anchored, stale or unanchored")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--json", "print the slices as JSON")
    .action(async (options) => {
      const { runSliceList } = await import("./cli/slice.ts");
      code = await runSliceList(options);
    });
  slice.command("refresh")
    .description("rewrite moved and re-anchored slices of the side file at their new lines")
    .option("-c, --config <path>", CONFIG_HELP)
    .option("--check", "write nothing; exit 1 when a slice is moved, re-anchored or stale")
    .option("-q, --quiet", "print nothing but errors")
    .action(async (options) => {
      const { runSliceRefresh } = await import("./cli/slice.ts");
      code = await runSliceRefresh(options);
    });

  if (options.inspect) {
    options.inspect(program);
    return 0;
  }
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
