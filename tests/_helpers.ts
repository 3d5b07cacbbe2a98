/**
 * Shared test helpers: temp projects, CLI runs, git repos.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildsInProcess } from "../cli/_relaunch.ts";
import { SLOP_V8_FLAGS } from "../cli/_v8_flags.ts";

/** Absolute path of the slop repository. */
export const REPO: string = join(dirname(fileURLToPath(import.meta.url)), "..");

// Tests keep the per-machine BPE table (pipeline/_table_store.ts) in a temp folder, not the home
// folder; test processes and the CLIs they start share it.
if (!Deno.env.get("SLOP_CACHE_HOME")) {
  Deno.env.set(
    "SLOP_CACHE_HOME",
    join(Deno.env.get("TMPDIR") ?? "/tmp", "slop-test-machine-cache"),
  );
}

/**
 * The environment as this module found it, before any test ran. `deno test` runs test files as
 * threads of one process, so a variable one test sets is set for every thread: a child another
 * test starts meanwhile inherits it (a build server's client then asks for another config, a fake
 * `git` on `PATH` answers another test's build). Every child the helpers below start gets this
 * environment and the variables its test names, never what the process holds at that moment; and
 * the suite's runners refuse `Deno.env.set` and `Deno.env.delete` once the tests start
 * ({@linkcode guardEnv}).
 */
export const START_ENV: Readonly<Record<string, string>> = Object.freeze(Deno.env.toObject());

/**
 * A child's whole environment: {@linkcode START_ENV}, `NO_COLOR`, then the test's `env`; for a
 * `Deno.Command` with `clearEnv: true`.
 *
 * @example
 * ```ts ignore
 * new Deno.Command("git", { args: ["status"], clearEnv: true, env: childEnv({ GIT_DIR: dir }) });
 * ```
 */
export function childEnv(env: Record<string, string> = {}): Record<string, string> {
  return { ...START_ENV, NO_COLOR: "1", ...env };
}

let envSetsAllowed = 0;

/**
 * Run `make` (synchronous code only) with `vars` set in this process's environment, then put the
 * environment back: for code under test that reads the process's environment, such as
 * `serverFiles()` and `XDG_RUNTIME_DIR`. Nothing asynchronous may run inside, so no other test of
 * this thread sees the change; another thread may for that moment, which is why only such a
 * synchronous read belongs inside, never a child's start.
 *
 * @example
 * ```ts ignore
 * const files = withEnvSync({ XDG_RUNTIME_DIR: runtime }, () => serverFiles(key));
 * ```
 */
export function withEnvSync<T>(vars: Record<string, string>, make: () => T): T {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, Deno.env.get(name)]));
  envSetsAllowed++;
  try {
    for (const [name, value] of Object.entries(vars)) Deno.env.set(name, value);
    return make();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
    envSetsAllowed--;
  }
}

/**
 * Make `Deno.env.set` and `Deno.env.delete` throw in this worker from now on when they would
 * change a variable, but inside {@linkcode withEnvSync}: a suite runner calls it once its test
 * files are imported (their top-level settings, such as the loopback LLM server's key, are made by
 * then), so that a test that changes the process's environment for a while fails at once instead
 * of leaking the change into a test running beside it.
 *
 * @example
 * ```ts ignore
 * for (const file of files) await import(file);
 * guardEnv();
 * ```
 */
export function guardEnv(): void {
  const { set, delete: remove } = Deno.env;
  // A change that changes nothing passes: a dependency may do it as it loads (the `debug` package
  // deletes an unset DEBUG).
  const refuse = (name: string, value?: string) => {
    if (envSetsAllowed > 0 || Deno.env.get(name) === value) return;
    throw new Error(
      `A test changed the process environment ("${name}"): test files run as threads of one process, ` +
        "so pass the variable to the child (runCli's env) or use withEnvSync for synchronous code",
    );
  };
  Deno.env.set = (name, value) => {
    refuse(name, value);
    set.call(Deno.env, name, value);
  };
  Deno.env.delete = (name) => {
    refuse(name);
    remove.call(Deno.env, name);
  };
}

/** Temp folders this test module made; removed when the module unloads. */
const made: string[] = [];
globalThis.addEventListener("unload", () => {
  for (const dir of made) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // Already gone, or a test left it read-only on purpose: nothing to keep.
    }
  }
});

/**
 * A new temp folder that is removed when the test module ends (a suite run
 * leaves nothing in the temp dir).
 */
export async function tempDir(options: Deno.MakeTempOptions = {}): Promise<string> {
  const dir = await Deno.makeTempDir(options);
  // A folder inside another temp folder goes with it.
  if (!made.some((d) => dir.startsWith(d + "/"))) made.push(dir);
  return dir;
}

/**
 * The snapshot file of the test file at `testUrl` (`__snapshots__/<name>.snap` beside it), for
 * `t.assertSnapshot(value, { path })`. Deno looks for the snapshots of the file it was given, so a
 * test file that a group's runner imports (`tests/_suite.ts`) would otherwise use the runner's.
 */
export function snapshotPath(testUrl: string): string {
  const file = fileURLToPath(testUrl);
  return join(dirname(file), "__snapshots__", `${basename(file)}.snap`);
}

/** Absolute path of a fixture folder. */
export function fixture(name: string): string {
  return join(REPO, "tests", "fixtures", name);
}

/** Files of a temp project: text or bytes by relative path. */
export type Tree = Record<string, string | Uint8Array>;

/**
 * Write a tree into a new temp folder (or `dir`) and return its path.
 */
export async function makeProject(tree: Tree, dir?: string): Promise<string> {
  const root = dir ?? await tempDir({ prefix: "slop_test_" });
  for (const [path, content] of Object.entries(tree)) {
    const abs = join(root, path);
    await Deno.mkdir(dirname(abs), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(abs, content);
    else await Deno.writeFile(abs, content);
  }
  return root;
}

/**
 * slop's V8 flags, for a `deno eval` or script a test starts that loads slop's modules: Deno keeps
 * one compiled copy of each module for the processes started with the same flags, the CLI's
 * builds' (see {@linkcode runCli}).
 */
export const V8_FLAGS: string = SLOP_V8_FLAGS;

/** What a CLI run printed. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run `cli.ts` in a subprocess with `cwd`, in {@linkcode START_ENV} and the extra `env`; `signal`
 * stops it (a deadline of its own).
 * A command that builds starts as the `slop` command does, and starts again with slop's V8 flags
 * (`cli/_relaunch.ts`); one that does not (`init`, `slice`, `explain`, `--help`, ...) is given the
 * same flags up front. They change no output, and Deno keeps one compiled copy of each module for
 * every process started with the same flags: a process without them compiles again the modules
 * the next build loads (bench/README.md, "The suite's time").
 */
export async function runCli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  { signal }: { signal?: AbortSignal } = {},
): Promise<CliRun> {
  const flags = buildsInProcess(args) ? [] : [SLOP_V8_FLAGS];
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ...flags, join(REPO, "cli.ts"), ...args],
    cwd,
    clearEnv: true,
    env: childEnv(env),
    stdout: "piped",
    stderr: "piped",
    signal,
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * Commands that are about their process, or outlive their answer, or read stdin, which the CLI
 * runner leaves to a process of their own; a word of a command line that names one is enough.
 */
const PROCESS_COMMANDS = new Set(["watch", "mcp", "server", "--server"]);

/** Variables Deno or V8 read only when the process starts (`Deno.noColor`, the time zone). */
const AT_START = /^(TZ|LANG|LANGUAGE|LC_\w+|NO_COLOR|DENO_\w+)$/;

/**
 * Whether the CLI runner can run `args` in `env` as a new process would: not a command of
 * {@linkcode PROCESS_COMMANDS}, no task read from stdin, no variable of {@linkcode AT_START},
 * no `signal` (a test of a hang kills a process).
 */
function runnerCan(args: string[], env: Record<string, string>, signal?: AbortSignal): boolean {
  if (signal || Object.keys(env).some((name) => AT_START.test(name))) return false;
  if (args.some((a) => PROCESS_COMMANDS.has(a))) return false;
  return !args.some((a, i) =>
    a === "--task-file=-" || (a === "--task-file" && args[i + 1] === "-")
  );
}

/** The worker's CLI runner: the child, its pipes, and the folder of its output files. */
interface Runner {
  child: Deno.ChildProcess;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  dir: string;
  /** Bytes read from the child and not used yet. */
  held: Uint8Array;
}

/** The runner of this worker, started at its first command; undefined after it ended. */
let runner: Promise<Runner> | undefined;
/** The runner's child, for the worker's end. */
let runnerChild: Deno.ChildProcess | undefined;
/** The commands given to the runner, one at a time. */
let runnerQueue: Promise<unknown> = Promise.resolve();
/** How long one command may take in the runner before it is taken for a hang. */
const RUNNER_LIMIT_MS = 600_000;

globalThis.addEventListener("unload", () => {
  try {
    runnerChild?.kill("SIGKILL");
  } catch {
    // Already ended.
  }
});

/** Start the CLI runner (`tests/_cli_runner.ts`) with slop's V8 flags. */
async function startRunner(): Promise<Runner> {
  const dir = await tempDir({ prefix: "slop_cli_runner_" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", SLOP_V8_FLAGS, join(REPO, "tests", "_cli_runner.ts")],
    cwd: REPO,
    clearEnv: true,
    env: childEnv(),
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  runnerChild = child;
  const reader = child.stdout.getReader();
  const writer = child.stdin.getWriter();
  return { child, reader, writer, dir, held: new Uint8Array(0) };
}

/** The runner's next answer (a 4-byte big-endian length, then JSON); undefined at its end. */
async function readAnswer(r: Runner): Promise<Record<string, unknown> | undefined> {
  const take = async (n: number): Promise<Uint8Array | undefined> => {
    while (r.held.length < n) {
      const { value, done } = await r.reader.read();
      if (done) return undefined;
      const joined = new Uint8Array(r.held.length + value.length);
      joined.set(r.held);
      joined.set(value, r.held.length);
      r.held = joined;
    }
    const out = r.held.slice(0, n);
    r.held = r.held.slice(n);
    return out;
  };
  const head = await take(4);
  const body = head && await take(new DataView(head.buffer).getUint32(0));
  return body && JSON.parse(new TextDecoder().decode(body));
}

/** `answer` within {@linkcode RUNNER_LIMIT_MS}, else "hang". */
async function withinLimit<T>(answer: Promise<T>): Promise<T | "hang"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"hang">((done) =>
    timer = setTimeout(() => done("hang"), RUNNER_LIMIT_MS)
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Stop the runner `r` for good (the next command starts another). */
async function endRunner(r: Runner, kill: boolean): Promise<Deno.CommandStatus> {
  runner = undefined;
  if (runnerChild === r.child) runnerChild = undefined;
  if (kill) r.child.kill("SIGKILL");
  await r.writer.close().catch(() => {});
  await r.reader.cancel().catch(() => {});
  return await r.child.status;
}

/** Run `args` in the runner; throws, naming the command, when it hung, threw or ended the runner. */
async function runInRunner(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<CliRun> {
  const r = await (runner ??= startRunner());
  const [stdout, stderr] = [join(r.dir, "stdout"), join(r.dir, "stderr")];
  const body = new TextEncoder().encode(
    JSON.stringify({ args, cwd, env: childEnv(env), stdout, stderr }),
  );
  const frame = new Uint8Array(4 + body.length);
  new DataView(frame.buffer).setUint32(0, body.length);
  frame.set(body, 4);
  await r.writer.write(frame);
  const reply = await withinLimit(readAnswer(r));
  const command = `"slop ${args.join(" ")}" in the CLI runner`;
  if (reply === "hang") {
    await endRunner(r, true);
    throw new Error(`${command} did not end in ${RUNNER_LIMIT_MS / 1000} s; the runner was killed`);
  }
  const printed = async () => (await Deno.readTextFile(stderr).catch(() => "")).slice(-4000);
  if (!reply) {
    const { code, signal } = await endRunner(r, false);
    throw new Error(
      `${command} ended the runner (exit code ${code}, signal ${signal}); a test of what ends the ` +
        `process uses runCli. It printed:\n${await printed()}`,
    );
  }
  if (reply.thrown) {
    await endRunner(r, false);
    throw new Error(`${command} threw (a process would end with it): ${reply.thrown}`);
  }
  if (reply.restart) {
    await endRunner(r, false);
    if (START_ENV.SLOP_CLI_RUNNER_TRACE) {
      console.error(`runner restarts after ${command}: ${reply.restart}`);
    }
  }
  const dec = new TextDecoder();
  const [out, err] = [await Deno.readFile(stdout), await Deno.readFile(stderr)];
  return { code: reply.code as number, stdout: dec.decode(out), stderr: dec.decode(err) };
}

/**
 * {@linkcode runCli} in the worker's CLI runner (`tests/_cli_runner.ts`): one child process a
 * test worker runs the commands in, one at a time, each in exactly {@linkcode childEnv} of `env`
 * and `cwd`, with its stdout and stderr byte for byte and its exit code, without the half second
 * of CPU a new `deno run` costs. A command about its process (see `runnerCan`: `watch`, `mcp`,
 * `server`, `--server`, a task from stdin, a variable read at start, a `signal`) runs in a process
 * of its own, as {@linkcode runCli} runs every command; so does any command a test calls with
 * {@linkcode runCli}: a test of exit codes a process ends with, of signals, of what a config's
 * top-level module state does across runs. A command that hangs, throws or ends the runner fails
 * its test with the command named, and the next command starts another runner.
 */
export async function runCliShared(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  options: { signal?: AbortSignal } = {},
): Promise<CliRun> {
  if (!runnerCan(args, env, options.signal)) return await runCli(args, cwd, env, options);
  const turn = runnerQueue.then(() => runInRunner(args, cwd, env));
  runnerQueue = turn.catch(() => {});
  return await turn;
}

/**
 * Run a TypeScript program (`code`, given on stdin) with `deno run -A` in `cwd`: for a test of
 * what changes a process (its working folder, its environment), which this process's test files
 * share. It runs in {@linkcode START_ENV} and `options.env`. `signal` kills it (a test of a hang:
 * a kill, not a wait for good); `signal` in the result is the signal that ended it, `null` when
 * it exited.
 */
export async function runScript(
  code: string,
  cwd: string,
  options: { signal?: AbortSignal; env?: Record<string, string> } = {},
): Promise<CliRun & { signal: Deno.Signal | null }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", V8_FLAGS, "-"],
    cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: childEnv(options.env ?? {}),
    signal: options.signal,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(code));
  await writer.close();
  const out = await child.output();
  const dec = new TextDecoder();
  const { code: exit, signal } = out;
  return { code: exit, signal, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * Run `deno task --quiet <task>` in `cwd` in {@linkcode START_ENV} and the extra `env` (a
 * project's own task, as its users run it); words after the task's name are passed on to it
 * (`"context --no-server"`).
 */
export async function runTask(
  name: string,
  cwd: string,
  env: Record<string, string> = {},
): Promise<CliRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", ...name.split(" ")],
    cwd,
    clearEnv: true,
    env: childEnv(env),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * The modules Deno loads for `entry` (a path in this repository): every `code` dependency,
 * static, and dynamic with a literal specifier (Deno loads those at startup too), from
 * `deno info --json`; this repository's own as paths relative to it, others as specifiers.
 */
export async function loadedModules(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: REPO,
    stdout: "piped",
  }).output();
  const graph: {
    roots: string[];
    modules: { specifier: string; dependencies?: { code?: { specifier: string } }[] }[];
  } = JSON.parse(new TextDecoder().decode(out.stdout));
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  const loaded = new Set<string>();
  const visit = (specifier: string) => {
    if (loaded.has(specifier)) return;
    loaded.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code) visit(dep.code.specifier);
    }
  };
  visit(graph.roots[0]);
  const root = pathToFileURL(REPO + "/").href;
  return [...loaded].map((s) => s.replace(root, "")).sort();
}

/** Run git in `cwd` with a fixed identity and dates, in {@linkcode START_ENV}; throws on failure. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    clearEnv: true,
    env: childEnv({
      GIT_AUTHOR_NAME: "slop",
      GIT_AUTHOR_EMAIL: "slop@example.invalid",
      GIT_COMMITTER_NAME: "slop",
      GIT_COMMITTER_EMAIL: "slop@example.invalid",
      GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
      GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
    }),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (!out.success) throw new Error(`git ${args.join(" ")} failed: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

/** Create a git repo with one commit of everything in it. */
export async function gitInit(root: string): Promise<void> {
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "init");
}

/** Snapshot serializer that keeps text byte-exact. */
export function raw(value: unknown): string {
  return String(value);
}

/**
 * mulberry32: a small seeded PRNG, so generated trees and random points
 * repeat run to run.
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A shown path read back (`printablePath` of pipeline/helpers.ts, in headings and the tree): the
 * escapes slop writes, `\\`, `\n`, `\t`, `\r`, `\xHH`, `\u{H}` and `\#`.
 */
export function readShownPath(shown: string): string {
  return shown.replace(
    /\\(\\|n|t|r|#|x([0-9a-f]{2})|u\{([0-9a-f]+)\})/g,
    (_, c: string, x?: string, u?: string) =>
      x
        ? String.fromCharCode(parseInt(x, 16))
        : u
        ? String.fromCodePoint(parseInt(u, 16))
        : ({ n: "\n", t: "\t", r: "\r" } as Record<string, string>)[c] ?? c,
  );
}

/**
 * The headings of a markdown document outside its code fences (CommonMark's fence rules: a
 * backtick fence's info string holds no backtick), after checking that every fence closes.
 */
export function markdownHeadings(doc: string): string[] {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of doc.split("\n")) {
    const run = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open) {
      if (run && run[1][0] === open[0] && run[1].length >= open.length && !run[2].trim()) {
        open = undefined;
      }
    } else if (run && !(run[1][0] === "`" && run[2].includes("`"))) open = run[1];
    else if (/^ {0,3}#{1,6}(?:[ \t]|$)/.test(line)) out.push(line.trim());
  }
  if (open !== undefined) throw new Error(`A code fence ${open} never closes`);
  return out;
}
