/**
 * The build server's warm answer, part by part: a first build through a new server (`slop build
 * --server`), then rounds of a one-line edit of FILE followed at once by a new client, as
 * `deno task bench --corpus monorepo` does for its `server warm` row. Each round prints the
 * client's wall and CPU, the server's CPU over the round (from `/proc`), and what the server says
 * of the build (`slop server status --json`): the build's own ms, whether it finished a build
 * prepared ahead, that prepare's ms and the prepares so far. The client's wall less the prepare
 * and the build is what the client waits for besides the server's work (its own start and exit,
 * a queue). `--pause MS` waits after each round (the work a build leaves, a collection, runs
 * then); `--state DIR` starts from a copy of a state folder (a first build from its cache, not
 * cold). The file is put back at the end and the server stopped.
 *
 * ```sh
 * deno run -A bench/server_warm.ts CONFIG FILE [--rounds 3] [--pause 0] [--state DIR] [--repo DIR] [--log]
 * ```
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

/** What the script reads of `slop server status --json`. */
interface Status {
  pid?: number;
  lastBuildMs?: number;
  lastBuildPrepared?: boolean;
  lastPrepareMs?: number;
  prepares?: number;
  lastPrepareUnused?: string;
}

/** One process's wall and CPU (user + sys) in ms, and its exit code. */
interface Timed {
  wall: number;
  cpu: number;
  code: number;
}

/** Options of {@linkcode serverWarm}. */
export interface ServerWarmOptions {
  rounds: number;
  pause: number;
  /** A state folder copied to start from. */
  state?: string;
  /** The slop checkout whose `cli.ts` runs (another version, to compare). @default {this one} */
  repo?: string;
  /** Print the server's log at the end (what it noted, with its times). */
  log?: boolean;
}

/**
 * Run the rounds; one line a round on stdout.
 *
 * @example
 * ```ts
 * import { serverWarm } from "./server_warm.ts";
 * // await serverWarm("/tmp/m60/config.js", "/tmp/m60/tree/a.py", { rounds: 3, pause: 0 });
 * ```
 */
export async function serverWarm(config: string, file: string, options: ServerWarmOptions) {
  const servers = await Deno.makeTempDir({ prefix: "slop_server_warm_" });
  const state = await Deno.makeTempDir({ prefix: "slop_server_warm_state_" });
  if (options.state) await copyState(options.state, state);
  const env = { NO_COLOR: "1", XDG_RUNTIME_DIR: servers, CI: "" };
  const slop = (
    args: string[],
  ) => [join(options.repo ?? REPO, "cli.ts"), ...args, "--config", config, "--state-dir", state];
  const original = await Deno.readFile(file);
  try {
    const first = await timed(["run", "-A", "--quiet", ...slop(["build", "-q", "--server"])], env);
    const status = await serverStatus(slop, env);
    console.log(
      `first build: client ${ms(first.wall)}, the server's build ${status.lastBuildMs} ms`,
    );
    for (let round = 0; round < options.rounds; round++) {
      const before = processCpu(status.pid);
      await Deno.writeFile(file, edited(original, round, file));
      const client = await timed(
        ["run", "-A", "--quiet", ...slop(["build", "-q", "--server"])],
        env,
      );
      const server = processCpu(status.pid) - before;
      console.log(roundLine(round, client, server, await serverStatus(slop, env)));
      if (options.pause) await new Promise((resolve) => setTimeout(resolve, options.pause));
    }
  } finally {
    await Deno.writeFile(file, original);
    await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", ...slop(["server", "stop"])],
      env,
      stdout: "null",
      stderr: "null",
    }).output();
    if (options.log) printLogs(join(servers, "slop"));
    await Deno.remove(servers, { recursive: true }).catch(() => {});
    await Deno.remove(state, { recursive: true }).catch(() => {});
  }
}

/** One round's line: the client, the server's CPU and what its status says. */
function roundLine(round: number, client: Timed, serverCpu: number, status: Status): string {
  const work = (status.lastBuildPrepared ? status.lastPrepareMs ?? 0 : 0) +
    (status.lastBuildMs ?? 0);
  const prepared = status.lastBuildPrepared
    ? `prepared in ${status.lastPrepareMs} ms`
    : `not prepared (${status.lastPrepareUnused ?? "none was prepared"})`;
  return `round ${round}: client wall ${ms(client.wall)} CPU ${ms(client.cpu)}` +
    `${client.code ? ` exit ${client.code}` : ""}; server CPU ${ms(serverCpu)}; ` +
    `its build ${status.lastBuildMs} ms, ${prepared}, ${status.prepares} prepares; ` +
    `client wall less the server's work ${ms(client.wall - work)}`;
}

/** Run `deno ARGS` under `/usr/bin/time`: its wall, CPU and exit code. */
async function timed(args: string[], env: Record<string, string>): Promise<Timed> {
  const times = await Deno.makeTempFile({ prefix: "slop_server_warm_time_" });
  const start = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%U %S", "-o", times, Deno.execPath(), ...args],
    env,
    stdout: "null",
    stderr: "inherit",
  }).output();
  const wall = performance.now() - start;
  const line = (await Deno.readTextFile(times)).trim().split("\n").at(-1) ?? "0 0";
  await Deno.remove(times);
  const [user, sys] = line.split(" ").map(Number);
  return { wall, cpu: (user + sys) * 1000, code: out.code };
}

async function serverStatus(
  slop: (args: string[]) => string[],
  env: Record<string, string>,
): Promise<Status> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ...slop(["server", "status", "--json"])],
    env,
    stdout: "piped",
    stderr: "null",
  }).output();
  return out.success ? JSON.parse(new TextDecoder().decode(out.stdout)) : {};
}

/** A process's CPU (user + sys) so far in ms, from `/proc` (clock ticks of 10 ms); 0 if gone. */
function processCpu(pid: number | undefined): number {
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

function printLogs(dir: string): void {
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name.endsWith(".log")) console.log(Deno.readTextFileSync(join(dir, entry.name)));
  }
}

async function copyState(from: string, to: string): Promise<void> {
  const out = await new Deno.Command("cp", { args: ["-a", `${from}/.`, to] }).output();
  if (!out.success) throw new Error(`[bench] Cannot copy the state folder "${from}"`);
}

/** The file with a comment line appended (in the file's own comment syntax). */
function edited(original: Uint8Array, round: number, path: string): Uint8Array {
  const mark = path.endsWith(".py") ? "#" : "//";
  const note = new TextEncoder().encode(`\n${mark} slop server warm edit ${round}\n`);
  const out = new Uint8Array(original.length + note.length);
  out.set(original);
  out.set(note, original.length);
  return out;
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

if (import.meta.main) {
  const named = (flag: string) => {
    const at = Deno.args.indexOf(flag);
    return at < 0 ? undefined : Deno.args[at + 1];
  };
  const values = new Set(["--rounds", "--pause", "--state", "--repo"].map(named));
  const [config, file] = Deno.args.filter((a) => !a.startsWith("--") && !values.has(a));
  if (!config || !file) {
    console.error(
      "usage: deno run -A bench/server_warm.ts CONFIG FILE [--rounds N] [--pause MS] [--state DIR] [--repo DIR]",
    );
    Deno.exit(2);
  }
  await serverWarm(config, file, {
    rounds: Number(named("--rounds") ?? 3),
    pause: Number(named("--pause") ?? 0),
    state: named("--state"),
    repo: named("--repo"),
    log: Deno.args.includes("--log"),
  });
}
