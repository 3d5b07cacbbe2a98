/**
 * The CLI runner: a child process that runs one `slop` command after another, each as `deno run
 * cli.ts` would in a new process, so that a test worker pays for Deno's start and slop's modules
 * once, not once a command (`runCliShared` of `tests/_helpers.ts` starts it and talks to it).
 *
 * A request comes on stdin: a 4-byte big-endian length, then JSON `{ args, cwd, env, stdout,
 * stderr }`. The runner sets its whole environment to `env` and its working folder to `cwd`,
 * points its file descriptors 1 and 2 at the files `stdout` and `stderr` and 0 at `/dev/null`
 * (so every write of the command lands there, byte for byte: `console.log`, `Deno.stdout`, a
 * worker's, a child's that inherits them), runs `main(args)` of `cli.ts`, puts the descriptors
 * back and answers on stdout with the same framing: JSON `{ code, restart }`. `restart` names
 * what the command left behind (work still queued, resources still open, an error no hook
 * awaited): the runner exits after answering, so that no later command runs beside it.
 * Anything that ends the process (`Deno.exit`, an uncaught error of slop's) ends the runner; the
 * helper fails that test and starts another runner for the next.
 *
 * @module
 */

import { main } from "../cli.ts";
import { reportStrayErrors } from "../cli/_stray_errors.ts";
import { reloadEveryConfig } from "../pipeline/config.ts";

/** One command to run. */
interface Request {
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdout: string;
  stderr: string;
}

const O_WRONLY = 0o1;
const O_CREAT = 0o100;
const O_TRUNC = 0o1000;
const O_CLOEXEC = 0o2000000;

const libc = Deno.dlopen("libc.so.6", {
  open: { parameters: ["buffer", "i32", "i32"], result: "i32" },
  dup: { parameters: ["i32"], result: "i32" },
  dup2: { parameters: ["i32", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
}).symbols;

/** Open `path` with `flags` as a raw file descriptor; throws when it cannot. */
function openFd(path: string, flags: number): number {
  const fd = libc.open(new TextEncoder().encode(`${path}\0`), flags | O_CLOEXEC, 0o600);
  if (fd < 0) throw new Error(`The CLI runner cannot open "${path}"`);
  return fd;
}

/** Point descriptors 0, 1 and 2 at `/dev/null` and the two files; returns how to put them back. */
function redirect(request: Request): () => void {
  const saved = [0, 1, 2].map((fd) => libc.dup(fd));
  const opened = [
    openFd("/dev/null", 0),
    openFd(request.stdout, O_WRONLY | O_CREAT | O_TRUNC),
    openFd(request.stderr, O_WRONLY | O_CREAT | O_TRUNC),
  ];
  opened.forEach((fd, target) => libc.dup2(fd, target));
  for (const fd of opened) libc.close(fd);
  return () => {
    saved.forEach((fd, target) => libc.dup2(fd, target));
    for (const fd of saved) libc.close(fd);
  };
}

/** Make this process's environment exactly `env`. */
function setEnvironment(env: Record<string, string>): void {
  for (const name of Object.keys(Deno.env.toObject())) {
    if (!(name in env)) Deno.env.delete(name);
  }
  for (const [name, value] of Object.entries(env)) Deno.env.set(name, value);
}

/** The names of the resources open now, by id. */
function openResources(): Record<string, string> {
  // deno-lint-ignore no-explicit-any
  const internal = (Deno as any)[(Deno as any).internal];
  return { ...internal.core.resources() };
}

/** Whether timers, ops or children the command started still wait to run. */
function workLeft(): boolean {
  // deno-lint-ignore no-explicit-any
  return (Deno as any)[(Deno as any).internal].core.eventLoopHasMoreWork();
}

/** What the command left behind that a later command could meet, or undefined when nothing. */
function leftBehind(before: Record<string, string>, strayed: boolean): string | undefined {
  const opened = Object.entries(openResources())
    .filter(([rid]) => !(rid in before))
    .map(([, name]) => name);
  const left = [
    ...(opened.length ? [`open resources: ${opened.join(", ")}`] : []),
    ...(workLeft() ? ["timers, operations or children still pending"] : []),
    ...(strayed ? ["an error no hook awaited"] : []),
  ];
  return left.length ? left.join("; ") : undefined;
}

/** Run one request; resolves to the answer to send. */
async function run(request: Request, strayed: () => boolean): Promise<Record<string, unknown>> {
  setEnvironment(request.env);
  Deno.chdir(request.cwd);
  const before = openResources();
  const restore = redirect(request);
  let code: number;
  try {
    code = await main(request.args);
    // Let what the command queued last run now, as it would before a process's exit.
    await new Promise((done) => setTimeout(done, 0));
  } catch (error) {
    // A process would end here with Deno's "Uncaught" and the stack.
    return { thrown: error instanceof Error ? error.stack ?? error.message : String(error) };
  } finally {
    restore();
  }
  if (code === 0 && strayed()) code = 1;
  return { code, restart: leftBehind(before, strayed()) };
}

/** A reader of exactly `n` bytes at a time from stdin; undefined at its end. */
async function readExactly(n: number): Promise<Uint8Array | undefined> {
  const out = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const read = await Deno.stdin.read(out.subarray(got));
    if (read === null) return undefined;
    got += read;
  }
  return out;
}

/** Write `value` as a frame on stdout: its JSON's length (4 bytes, big-endian), then the JSON. */
async function answer(value: unknown): Promise<void> {
  const body = new TextEncoder().encode(JSON.stringify(value));
  const frame = new Uint8Array(4 + body.length);
  new DataView(frame.buffer).setUint32(0, body.length);
  frame.set(body, 4);
  let written = 0;
  while (written < frame.length) written += await Deno.stdout.write(frame.subarray(written));
}

/** Answer requests until stdin ends, or a command leaves something behind. */
async function serve(): Promise<void> {
  reloadEveryConfig();
  const strayed = reportStrayErrors(new URL("../", import.meta.url).href);
  while (true) {
    const head = await readExactly(4);
    if (!head) break;
    const body = await readExactly(new DataView(head.buffer).getUint32(0));
    if (!body) break;
    const reply = await run(JSON.parse(new TextDecoder().decode(body)), strayed);
    await answer(reply);
    if (reply.restart || reply.thrown) break;
  }
  Deno.exit(0);
}

// Not awaited at the top level: a module still evaluating counts as work left for the event
// loop, and `workLeft()` must see the command's work only.
if (import.meta.main) serve();
