/**
 * The build server's memory after a one-file edit, alone: the bench's `server cold` and
 * `server warm, one file edited` pair (`run.ts`) without Repomix and without the other cases,
 * on a copy of a corpus, with the slop of any checkout (to compare commits). Each run starts a
 * server in a fresh state dir, builds, edits the corpus's middle file (by path, as `run.ts`
 * does), builds again and prints the server's peaks (`slop server status --json`): the whole
 * process's after the cold build, and the warm build's (from the prepare after the edit to the
 * build's end, the bench's `server warm` RSS).
 *
 * ```sh
 * deno run -A bench/server_rss.ts --corpus bench/.cache/corpora/typescript-lib/package/lib [--runs 3] [--repo ../other-checkout]
 * ```
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { walkFiles } from "./_corpora.ts";
import { MAX_FILE_SIZE } from "./_jobs.ts";
import { RACY_MS } from "../accel/stat_index.ts";

const V8_FLAGS = "--v8-flags=--max-semi-space-size=4,--no-turbofan";

interface Args {
  corpus: string;
  runs: number;
  repo: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    corpus: "",
    runs: 3,
    repo: join(dirname(fileURLToPath(import.meta.url)), ".."),
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--corpus") args.corpus = argv[++i];
    else if (argv[i] === "--runs") args.runs = Number(argv[++i]);
    else if (argv[i] === "--repo") args.repo = resolve(argv[++i]);
    else {throw new Error(
        `[bench] Unknown argument "${argv[i]}": expected --corpus, --runs or --repo`,
      );}
  }
  if (!args.corpus) throw new Error(`[bench] Missing --corpus (a folder to copy and build)`);
  if (!(args.runs >= 1)) throw new Error(`[bench] Invalid --runs "${args.runs}"`);
  return args;
}

/**
 * Run `deno` with `args` and `env` in `cwd` (the checkout measured, as `deno task bench` runs
 * there: its `deno.json` and `node_modules/` are used); its stdout (throws with its stderr when it
 * fails).
 */
async function deno(args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    env,
    cwd,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** One cold and warm pair in a fresh state dir and servers' folder; the server's peaks in MB. */
async function pair(args: Args, corpus: string, target: string): Promise<string> {
  const work = await Deno.makeTempDir({ prefix: "slop_server_rss_" });
  const config = join(work, "slop.full.config.js");
  const settings = {
    root: corpus,
    files: [`${corpus}/**`],
    defaultView: "full",
    maxFileSize: MAX_FILE_SIZE,
  };
  await Deno.writeTextFile(config, `export default ${JSON.stringify(settings)};\n`);
  const cli = join(args.repo, "cli.ts");
  const where = ["--config", config, "--state-dir", join(work, "state-server")];
  const servers = join(work, "servers");
  await Deno.mkdir(servers);
  const env = { NO_COLOR: "1", XDG_RUNTIME_DIR: servers, CI: "" };
  const build = () =>
    deno(
      ["run", "-A", V8_FLAGS, "--quiet", cli, "build", "-q", ...where, "--server"],
      env,
      args.repo,
    );
  const status = async () =>
    JSON.parse(
      await deno(
        ["run", "-A", "--quiet", cli, "server", "status", "--json", ...where],
        env,
        args.repo,
      ),
    );
  const original = await Deno.readFile(target);
  const mb = (bytes = 0) => (bytes / 1024 / 1024).toFixed(1);
  try {
    await build();
    const cold = await status();
    // As `run.ts` writes it: the whole file again, with a line added.
    const mark = new TextEncoder().encode(
      `\n${target.endsWith(".py") ? "#" : "//"} slop bench edit 1\n`,
    );
    await Deno.writeFile(target, new Uint8Array([...original, ...mark]));
    await build();
    const warm = await status();
    const prepared = warm.lastBuildPrepared ? ` (prepared in ${warm.lastPrepareMs} ms)` : "";
    return `server cold peak ${mb(cold.peakRss)} MB, server warm peak ${
      mb(warm.lastBuildPeakRss)
    } MB, warm build ${warm.lastBuildMs} ms${prepared}`;
  } finally {
    await Deno.writeFile(target, original);
    await deno(["run", "-A", "--quiet", cli, "server", "stop", ...where], env, args.repo).catch(
      () => "",
    );
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const args = parseArgs(Deno.args);
  const copy = await Deno.makeTempDir({ prefix: "slop_server_rss_corpus_" });
  try {
    await new Deno.Command("cp", { args: ["-r", `${args.corpus}/.`, copy] }).output();
    // A file changed less than `RACY_MS` before a build is not trusted by its stamp the next time
    // (every build would read it): the bench's corpora were written long before.
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 500));
    const files = await walkFiles(copy);
    const target = files[Math.floor(files.length / 2)];
    for (let i = 0; i < args.runs; i++) console.log(await pair(args, copy, target));
  } finally {
    await Deno.remove(copy, { recursive: true }).catch(() => {});
  }
}
