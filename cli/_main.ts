/**
 * The `slop` command tree and the runner behind `cli.ts`: every command, its
 * options and help, parsed by `_args.ts`. Each command's module is loaded
 * only when it runs.
 *
 * @module
 */

import { EXIT_USAGE, type Options, parseArgs, type ProgramSpec } from "./_args.ts";
import meta from "../deno.json" with { type: "json" };

const CONFIG = {
  flags: "-c, --config <path>",
  description: "config file (default: ./slop.config.ts, else zero-config)",
};
const STATE_DIR = {
  flags: "--state-dir <dir>",
  description: "where outputs, cache and order state live (env SLOP_DIR)",
};
const QUIET = { flags: "-q, --quiet", description: "print nothing but errors" };
const JSON_FLAG = (what: string) => ({ flags: "--json", description: `print ${what} as JSON` });
const PERSONA = { flags: "--persona <name>", description: "apply a persona from the config" };
const PRESET = { flags: "--preset <name>", description: "use a preset's files and screenshots" };
const NO_CACHE = {
  flags: "--no-cache",
  description: "render and count everything anew; read and write no cache",
};
const IDLE = {
  flags: "--idle <time>",
  description: "how long the server waits for a build before it exits, e.g. 30s, 15m, 2h",
  default: "15m",
};
const ALL_SERVERS = { flags: "--all", description: "every build server of this user" };
const BUILD_NOW = [
  { flags: "--build", description: "build now instead of reading the latest output" },
  { flags: "--persona <name>", description: "build now with a persona from the config" },
  { flags: "--preset <name>", description: "build now with a preset's files and screenshots" },
];

/**
 * The command tree: every command, its options and help texts, and what it runs
 * (each command's module is loaded only when it runs).
 */
const PROGRAM: ProgramSpec = {
  name: "slop",
  version: meta.version,
  description: "Bundle a project into one LLM context document with a cache-stable prefix",
  defaultCommand: "build",
  examples: [
    ["slop build", "bundle this project into .slop/out/context_001.md (no config needed)"],
    [
      "slop build --budget 20000 --focus src/app.ts",
      "src/app.ts in full, the rest stepped down to fit",
    ],
    ["slop init", "write slop.config.ts and a context task to choose files and views"],
    ["slop check --update", "pin the stable prefix in slop.lock; commit it, then slop check in CI"],
    ["slop mcp", "serve slop's tools to a coding agent over MCP (stdio)"],
  ],
  commands: [
    {
      name: "build",
      operands: "[paths...]",
      description: "build the context document (the default command)",
      examples: [
        ["slop build", "every text file git would track, in full, to .slop/out/context_NNN.md"],
        [
          "slop build --budget 20000 --focus src/app.ts",
          "src/app.ts in full, the rest stepped down to fit 20,000 tokens",
        ],
        [
          "slop build --task-file issue.md --budget 32000",
          "the files an issue needs, after a map of the project",
        ],
        [
          "slop build --stdout --budget 6000 src/",
          "print the files under src/ within 6,000 tokens",
        ],
        ["slop build --server", "build in the project's build server, warm after the first build"],
      ],
      options: [
        CONFIG,
        {
          flags: "--include <glob>",
          description: "add files matching GLOB (repeatable)",
          repeatable: true,
        },
        {
          flags: "--ignore <glob>",
          description: "leave out files matching GLOB (repeatable)",
          repeatable: true,
        },
        PERSONA,
        PRESET,
        { flags: "--strategy <strategy>", description: "auto | summarize | full" },
        {
          flags: "--focus <path>",
          description: "render PATH in full (repeatable)",
          repeatable: true,
        },
        {
          flags: "--since <ref>",
          description: "put the files changed since git REF (and untracked files) in focus",
        },
        {
          flags: "--budget <tokens>",
          description: "fit the document in TOKENS by stepping files down",
        },
        {
          flags: "--task <text>",
          description: "the task at hand: its most relevant files follow a task-independent map",
          once: true,
        },
        {
          flags: "--task-file <path>",
          description: "read the task from PATH (- for stdin)",
          once: true,
        },
        STATE_DIR,
        { flags: "--stdout", description: "print the document instead of writing a numbered file" },
        {
          flags: "--json",
          description: "print the manifest as JSON (with --stdout: { manifest, document })",
        },
        {
          flags: "--format <format>",
          description: "document format: markdown | xml | json (default: output.format)",
        },
        { flags: "--strict", description: "exit 1 when any file has an error" },
        {
          flags: "--fail-on-secret",
          description: "exit 1, writing nothing, when a secret is found",
        },
        QUIET,
        NO_CACHE,
        { flags: "--timings", description: "print the time of each build stage to stderr" },
        {
          flags: "--server",
          description: "build in this project's build server, kept warm between builds " +
            "(started when none runs; see slop server)",
        },
        {
          flags: "--no-server",
          description: "build in this process (overrides a --server before it, as in a task)",
        },
        {
          flags: "--server-idle <time>",
          description: "with --server: how long a server started now waits for a build " +
            "before it exits (default: 15m)",
        },
      ],
      run: async (paths, options) => {
        // A first operand that could be a mistyped command (a build with none loads nothing).
        const typo = paths.length
          ? await (await load("_command_typo")).commandTypo(paths, [
            ...PROGRAM.commands!.map((c) => c.name),
            "help",
          ])
          : undefined;
        if (typo) {
          const { printError } = await load("_output");
          printError(typo);
          return EXIT_USAGE;
        }
        // `slop build > ctx.md` in the project: the file the output goes to is not bundled.
        options.outputs = (await load("_output_fds")).ownOutputFiles();
        if (options.server) {
          const code = await (await load("_client")).buildViaServer(paths, options);
          if (code !== undefined) return code;
        }
        const { runBuild } = await load("build");
        return await runBuild(paths, options);
      },
    },
    {
      name: "stats",
      description:
        "tokens by section and the top files (o200k, cl100k), and the stable-prefix share",
      examples: [
        ["slop stats", "the latest written document's tokens by section and its 10 largest files"],
        ["slop stats --build --top 5", "build now (without writing) and list the 5 largest files"],
      ],
      options: [
        CONFIG,
        STATE_DIR,
        { flags: "--top <n>", description: "how many files to list", default: "10" },
        ...BUILD_NOW,
        JSON_FLAG("the stats"),
      ],
      run: async (_, options) => (await load("stats")).runStats(options),
    },
    {
      name: "rank",
      description: "rank the project's files for a task, each with its score and why",
      examples: [[
        "slop rank --task-file issue.md --top 10",
        "the 10 files an issue most likely needs",
      ]],
      options: [
        CONFIG,
        { flags: "--task <text>", description: "the task, as text", once: true },
        {
          flags: "--task-file <path>",
          description: "read the task from PATH (- for stdin)",
          once: true,
        },
        { flags: "--top <n>", description: "how many files to list (0: all)", default: "20" },
        JSON_FLAG("the ranking"),
      ],
      run: async (_, options) => (await load("rank")).runRank(options),
    },
    {
      name: "report",
      description: "write a self-contained HTML report: treemap, prefix vs tail, views per file",
      examples: [["slop report --build", "build now and write .slop/out/report.html"]],
      options: [
        CONFIG,
        STATE_DIR,
        {
          flags: "-o, --out <file>",
          description: "where to write the page (default: <output dir>/report.html)",
        },
        ...BUILD_NOW,
        { flags: "--stdout", description: "print the page instead of writing it" },
        QUIET,
      ],
      run: async (_, options) => (await load("report")).runReport(options),
    },
    {
      name: "payload",
      description: "print a provider's request body for the context (cache breakpoints, TTLs)",
      options: [
        CONFIG,
        STATE_DIR,
        PERSONA,
        PRESET,
        {
          flags: "--provider <name>",
          description: "anthropic | openai | gemini | deepseek (default: provider.name)",
        },
        {
          flags: "--model <id>",
          description: "model id (default: provider.model, else the provider's default)",
        },
        {
          flags: "--ttl <ttl>",
          description: "cache lifetime, e.g. 5m or 1h (default: provider.ttl)",
        },
        {
          flags: "--prompt <text>",
          description: "the question after the context (default: {{prompt}})",
        },
        { flags: "--max-tokens <n>", description: "output token limit (default: 1024)" },
      ],
      run: async (_, options) => (await load("payload")).runPayload(options),
    },
    {
      name: "cache",
      description: "look into or empty the content-hash cache (cache.dir, default .slop/cache)",
      commands: [
        {
          name: "stats",
          description: "entries, bytes and the hit rate of the last build",
          options: [CONFIG, STATE_DIR, JSON_FLAG("the stats")],
          run: async (_, options) => (await load("cache")).runCache("stats", options),
        },
        {
          name: "clear",
          description: "remove every cache entry",
          options: [CONFIG, STATE_DIR, QUIET],
          run: async (_, options) => (await load("cache")).runCache("clear", options),
        },
        {
          name: "prune",
          description: "remove the least recently used entries until the cache fits cache.maxSize",
          options: [
            CONFIG,
            STATE_DIR,
            {
              flags: "--max-size <size>",
              description: "the limit, e.g. 200MB (default: cache.maxSize, 1GB)",
            },
            QUIET,
          ],
          run: async (_, options) => (await load("cache")).runCache("prune", options),
        },
      ],
    },
    {
      name: "init",
      operands: "[dir]",
      description:
        "write a commented slop.config.ts and the context task (deno.json, package.json in a Node project, none in a Python, Go, Rust, JVM or .NET one)",
      examples: [
        ["slop init", "set up this project (never overwrites a file or task)"],
        ["slop init packages/web", "set up one package of a monorepo"],
      ],
      options: [QUIET],
      run: async ([dir], options) => (await load("init")).runInit(dir, options),
    },
    {
      name: "watch",
      description: "rebuild on change (debounced) and print the prefix reuse of each rebuild",
      options: [
        CONFIG,
        STATE_DIR,
        PERSONA,
        PRESET,
        { flags: "--format <format>", description: "document format: markdown | xml | json" },
        { flags: "--debounce <ms>", description: "quiet time before a rebuild", default: "200" },
        { flags: "--max-builds <n>", description: "stop after N rebuilds" },
        QUIET,
        NO_CACHE,
        {
          flags: "--timings",
          description: "print the time of each build stage to stderr after every build",
        },
      ],
      run: async (_, options) => (await load("watch")).runWatch(options),
    },
    {
      name: "server",
      description: "the build servers behind build --server: start, status, stop",
      commands: [
        {
          name: "start",
          description: "start this project's build server in the background (unless it runs)",
          options: [CONFIG, STATE_DIR, IDLE, QUIET],
          run: async (_, options) => (await load("server")).runServerStart(options),
        },
        {
          name: "status",
          description: "whether this project's build server runs, its builds and memory " +
            "(exit 1 when none runs)",
          options: [CONFIG, STATE_DIR, ALL_SERVERS, JSON_FLAG("the status")],
          run: async (_, options) => (await load("server")).runServerStatus(options),
        },
        {
          name: "stop",
          description: "stop this project's build server once its current build is done",
          options: [CONFIG, STATE_DIR, ALL_SERVERS, QUIET],
          run: async (_, options) => (await load("server")).runServerStop(options),
        },
        {
          name: "run",
          description: "be the build server, in the foreground (what start runs in the background)",
          options: [
            CONFIG,
            STATE_DIR,
            IDLE,
            {
              flags: "--detached",
              description: "ignore Ctrl-C and hang-up and write to the server's log file",
            },
          ],
          run: async (_, options) => (await load("server")).runServer(options),
        },
      ],
    },
    {
      name: "check",
      description:
        "compare the stable prefix with the committed lock (slop.lock); exit 1 on mismatch",
      examples: [
        ["slop check --update", "pin the stable prefix in slop.lock (then commit it)"],
        ["slop check", "compare with slop.lock: exit 0 on a match, 1 on a drift"],
        ["slop check --max-invalidated 10%", "pass while at most 10% of the pinned tokens drift"],
      ],
      options: [
        CONFIG,
        STATE_DIR,
        PERSONA,
        PRESET,
        { flags: "--update", description: "re-pin: write the current stable prefix to the lock" },
        {
          flags: "--max-invalidated <budget>",
          description: "pass when at most PERCENT% or TOKENS are invalidated",
        },
        {
          flags: "--determinism",
          description: "also build twice (shuffled listings, other TZ and locale), compare bytes",
        },
        {
          flags: "--fail-on-secret",
          description: "exit 1 when a secret is found (as secrets.failOnSecret)",
        },
        JSON_FLAG("the result"),
        QUIET,
      ],
      run: async (_, options) => (await load("check")).runCheck(options),
    },
    {
      name: "skill",
      description: "print the folder of slop's agent skill, to copy into an agent's skills folder",
      examples: [
        ['cp -r "$(slop skill)" .claude/skills/', "give Claude Code in this project the skill"],
      ],
      run: async () => (await load("skill")).runSkill(),
    },
    {
      name: "explain",
      description: "the shared prefix of the last two builds and the block that ended it",
      options: [CONFIG, STATE_DIR, JSON_FLAG("the result")],
      run: async (_, options) => (await load("explain")).runExplain(options),
    },
    {
      name: "mcp",
      description: "serve slop's tools to coding agents over MCP (stdio, or --http on 127.0.0.1)",
      examples: [
        ["slop mcp", "serve this folder over stdio (register: claude mcp add slop -- slop mcp)"],
        ["slop mcp --root ../app", "serve another project's folder"],
        ["slop mcp --http --port 7331", "serve Streamable HTTP at http://127.0.0.1:7331/mcp"],
      ],
      options: [
        {
          flags: "--root <dir>",
          description: "the project root (default: .); paths outside it are refused",
        },
        { flags: "-c, --config <path>", description: "config file for calls that name none" },
        STATE_DIR,
        { flags: "--http", description: "serve Streamable HTTP on 127.0.0.1 instead of stdio" },
        {
          flags: "--port <n>",
          description: "with --http: the port, 0 for a free one (default: 7331)",
        },
        {
          flags: "--idle-timeout <seconds>",
          description: "with --http: close a session unused this long, 0 for never (default: 3600)",
        },
        {
          flags: "--reply-within <seconds>",
          description: "answer a call whose build goes on longer with its progress, and let it " +
            "go on; the next identical call gets its result (default: 45, 0 waits for the end)",
        },
      ],
      run: async (_, options) => (await load("mcp")).runMcp(options),
    },
    {
      name: "knowledge",
      description: "knowledge artifacts: the digest and the conversation harvest",
      commands: [
        {
          name: "digest",
          description: "regenerate digest.md from the category files (deleted when all are empty)",
          options: [CONFIG, QUIET],
          run: async (_, options) =>
            (await load("knowledge")).runKnowledgeDigest(
              options,
            ),
        },
        {
          name: "harvest",
          description: "distill conversations into the knowledge files (a dry run without --apply)",
          options: [
            CONFIG,
            {
              flags: "--apply",
              description: "ask the provider, append items, write the ledger and the digest",
            },
            {
              flags: "--reclaim",
              description: "with --apply, delete conversations whose harvest succeeded",
            },
            {
              flags: "--no-harvest",
              description: "ask no model: with --apply --reclaim, delete conversations unharvested",
            },
            {
              flags: "--price <usd>",
              description: "USD per million input tokens for the estimate",
            },
            QUIET,
          ],
          run: async (_, options) =>
            (await load("knowledge")).runKnowledgeHarvest(
              options,
            ),
        },
      ],
    },
    {
      name: "slice",
      description: "maintain the custom view's line slices (slicesFile, default slop/slices.toml)",
      commands: [
        {
          name: "add",
          operands: "<spec>",
          description: "add the slice PATH:START-END with its content hash and anchor lines",
          options: [
            CONFIG,
            { flags: "--tag <tag>", description: "label shown as [Slice: TAG]" },
            { flags: "--comment <text>", description: "comment shown after the label" },
            QUIET,
          ],
          run: async ([spec], options) => (await load("slice")).runSliceAdd(spec, options),
        },
        {
          name: "list",
          description: "every slice and its status: exact, moved, re-anchored, stale or unanchored",
          options: [CONFIG, JSON_FLAG("the slices")],
          run: async (_, options) => (await load("slice")).runSliceList(options),
        },
        {
          name: "refresh",
          description: "rewrite moved and re-anchored slices of the side file at their new lines",
          options: [
            CONFIG,
            {
              flags: "--check",
              description: "write nothing; exit 1 when a slice is moved, re-anchored or stale",
            },
            QUIET,
          ],
          run: async (_, options) => (await load("slice")).runSliceRefresh(options),
        },
      ],
    },
  ],
};

/**
 * What {@linkcode main} uses of `cli.ts`'s `MainOptions` (named here: `cli.ts` loads this
 * module, so importing from it would close a circle).
 */
export interface RunOptions {
  /** Called with the command tree instead of parsing `args`, so nothing runs. */
  inspect?: (program: ProgramSpec) => void;
}

/**
 * Run the CLI with `args`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { main } from "./_main.ts";
 * const code = await main(["--help"]);
 * ```
 */
export async function main(args: string[], options: RunOptions = {}): Promise<number> {
  if (options.inspect) {
    options.inspect(PROGRAM);
    return 0;
  }
  const parsed = parseArgs(PROGRAM, args);
  if ("print" in parsed) {
    // A usage error quotes what was typed (`Unknown option "--tokn=ghp_…"`): redacted.
    const print = parsed.code === 0
      ? parsed.print
      : (await load("_output")).shownMessage(parsed.print);
    try {
      if (parsed.stream === "stdout") {
        (await load("_terminal")).writeStdoutSync(new TextEncoder().encode(print));
      } else write(Deno.stderr, print);
    } catch (error) {
      return await crashed(error);
    }
    return parsed.code;
  }
  try {
    return await parsed.run.run!(parsed.operands, parsed.options as Options);
  } catch (error) {
    return await crashed(error);
  }
}

/**
 * What an error no command caught prints: one line that says it is slop's bug, and the stack
 * under it for the report, both redacted (the message or a frame may quote a file's text or a
 * flag's value). Exit code 1, as for a failed build.
 */
async function crashed(error: unknown): Promise<number> {
  // A stdout that takes no writes (a full disk) is no bug: one line says so.
  const failed = (await load("_terminal")).stdoutFailure(error);
  const text = failed ? `slop: ${failed}\n` : (await load("_output")).crashReport(error);
  try {
    write(Deno.stderr, text);
  } catch {
    // stderr takes no writes either: the exit code is all that is left to tell.
  }
  return 1;
}

/** The modules of cli/ that commands load when they run, by name. */
interface CommandModules {
  _client: typeof import("./_client.ts");
  _output_fds: typeof import("./_output_fds.ts");
  _command_typo: typeof import("./_command_typo.ts");
  _output: typeof import("./_output.ts");
  _terminal: typeof import("./_terminal.ts");
  build: typeof import("./build.ts");
  cache: typeof import("./cache.ts");
  check: typeof import("./check.ts");
  explain: typeof import("./explain.ts");
  init: typeof import("./init.ts");
  knowledge: typeof import("./knowledge.ts");
  mcp: typeof import("./mcp.ts");
  payload: typeof import("./payload.ts");
  rank: typeof import("./rank.ts");
  report: typeof import("./report.ts");
  server: typeof import("./server.ts");
  skill: typeof import("./skill.ts");
  slice: typeof import("./slice.ts");
  stats: typeof import("./stats.ts");
  watch: typeof import("./watch.ts");
}

/**
 * Import `cli/<name>.ts` when its command runs. The specifier is built at run
 * time on purpose: Deno loads the graph of every string-literal dynamic import
 * before the first line runs (for slop's commands, a large part of a start),
 * and `slop --version` or a build needs none of the other commands' modules.
 */
function load<K extends keyof CommandModules>(name: K): Promise<CommandModules[K]> {
  // Not `import(\`./${name}.ts\`)`: Deno would load every file that template matches.
  return import(new URL(`./${name}.ts`, import.meta.url).href);
}

function write(stream: { writeSync(p: Uint8Array): number }, text: string) {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) written += stream.writeSync(bytes.subarray(written));
}
