/**
 * slop's V8 flags applied by slop itself: a command that builds in its own
 * process starts again, in the same process (`execv`), with
 * {@linkcode SLOP_V8_FLAGS} added to the `deno run` line it was started with,
 * so that neither `slop` (the installed command) nor a task has to name them.
 * V8 reads these flags only when it starts: `node:v8`'s `setFlagsFromString`
 * at run time leaves the young generation's size and the compilers' choices
 * as they were (TurboFan still compiled the hot functions, and the young
 * generation still grew past the size asked; bench/README.md).
 *
 * Only on Linux, where `/proc/self/cmdline` gives the exact line to start
 * again; elsewhere, and whenever the line cannot be read, the process runs as
 * it is (the flags save time and memory, they change no output).
 *
 * @module
 */

import {
  largestTracked,
  projectDirsOf,
  SLOP_V8_FLAGS,
  TURBOFAN_FROM_BYTES,
  v8FlagsFor,
} from "./_v8_flags.ts";

/**
 * Commands that never build in their own process: they start as they are
 * (a start again costs a second runtime's start). A build with `--server`
 * is one too: its process is the build server's client.
 */
const LIGHT_COMMANDS = new Set([
  "init",
  "cache",
  "server",
  "slice",
  "knowledge",
  "explain",
  "help",
]);

/** Commands other than `build` that may build, or read and count, in their own process. */
const OTHER_COMMANDS = new Set(["stats", "report", "payload", "watch", "check", "mcp"]);

/** Options of the root command and of every command that print and exit. */
const PRINT_FLAGS = new Set(["-h", "--help", "-V", "--version"]);

/**
 * Whether the command line `args` (after `slop`) may run a build in its own
 * process, so that slop's V8 flags pay for a start again.
 *
 * @example
 * ```ts
 * import { buildsInProcess } from "./_relaunch.ts";
 * buildsInProcess(["build", "--no-server"]); // true
 * buildsInProcess(["--version"]); // false
 * ```
 */
export function buildsInProcess(args: string[]): boolean {
  if (args.some((a) => PRINT_FLAGS.has(a))) return false;
  const command = args[0] ?? "build";
  if (LIGHT_COMMANDS.has(command)) return false;
  if (OTHER_COMMANDS.has(command)) return true;
  // A build, named or the default: with --server (the last of --server and --no-server
  // wins, as in the parser) this process is the server's client.
  return args.findLastIndex((a) => a === "--server") <=
    args.findLastIndex((a) => a === "--no-server");
}

/**
 * The command line to start this process again with `flags` and the
 * arguments `args`, from the line it was started with (`cmdline`,
 * `/proc/self/cmdline` split at NUL) and the arguments it was started with
 * (`started`, `Deno.args`); undefined when it should run as it is: it
 * was not started by `deno run`, the line already names V8 flags (the user's
 * choice, or a start again), or it runs under `--inspect` or `--watch`.
 *
 * @example
 * ```ts
 * import { relaunchLine } from "./_relaunch.ts";
 * relaunchLine(["deno", "run", "-A", "cli.ts", "build"], ["build"]);
 * // ["deno", "run", "--v8-flags=--max-semi-space-size=4,--no-turbofan", "-A", "cli.ts", "build"]
 * ```
 */
export function relaunchLine(
  cmdline: string[],
  started: string[],
  options: { args?: string[]; flags?: string } = {},
): string[] | undefined {
  if (cmdline[1] !== "run") return undefined;
  // The line ends with the script and its arguments, exactly Deno.args.
  const script = cmdline.length - started.length - 1;
  if (script < 2 || started.some((a, i) => cmdline[script + 1 + i] !== a)) return undefined;
  const denoFlags = cmdline.slice(2, script);
  if (denoFlags.some((f) => /^--(v8-flags|inspect|watch)([-=]|$)/.test(f))) return undefined;
  return [
    cmdline[0],
    "run",
    options.flags ?? SLOP_V8_FLAGS,
    ...cmdline.slice(2, script + 1),
    ...(options.args ?? started),
  ];
}

/**
 * Start this process again with slop's V8 flags and the arguments `args`
 * (those it was started with, `Deno.args`, unless given) when `args` builds
 * in process and the line allows it (see {@linkcode relaunchLine}); returns
 * when it does not (nothing was changed), never when it does. The flags are
 * {@linkcode v8FlagsFor} the files git tracks where it builds: TurboFan for a
 * big tree. Needs the
 * permissions to read `/proc/self/cmdline`, to run `deno` and to call
 * `execv` (`-A` has them); without them the process runs as it is.
 *
 * @example
 * ```ts
 * import { relaunchWithFlags } from "./_relaunch.ts";
 * relaunchWithFlags();
 * ```
 */
export function relaunchWithFlags(args: string[] = Deno.args): void {
  if (Deno.build.os !== "linux" || !buildsInProcess(args)) return;
  const granted = (descriptor: Deno.PermissionDescriptor) =>
    Deno.permissions.querySync(descriptor).state === "granted";
  if (
    !granted({ name: "read", path: "/proc/self/cmdline" }) ||
    !granted({ name: "env", variable: "DENO_V8_FLAGS" }) ||
    !granted({ name: "run", command: Deno.execPath() }) ||
    !granted({ name: "ffi" })
  ) return;
  // DENO_V8_FLAGS set: the user chose the flags.
  if (Deno.env.get("DENO_V8_FLAGS") !== undefined) return;
  let cmdline: string[];
  try {
    cmdline = Deno.readTextFileSync("/proc/self/cmdline").split("\0");
  } catch {
    return;
  }
  // Each argument ends with a NUL: the split leaves one empty string at the end.
  if (cmdline.at(-1) === "") cmdline.pop();
  // TurboFan for a big tree (`v8FlagsFor`): git's index says how many bytes of files, of the
  // config's repository or the working folder's, whichever is larger.
  const flags = v8FlagsFor(largestTracked(projectDirsOf(args, Deno.cwd()), TURBOFAN_FROM_BYTES));
  const line = relaunchLine(cmdline, Deno.args, { args, flags });
  if (!line) return;
  exec(Deno.execPath(), line);
}

/** `execv(path, argv)`: replace this process with `argv`; returns only when it fails. */
function exec(path: string, argv: string[]): void {
  let libc: Deno.DynamicLibrary<{ execv: { parameters: ["buffer", "buffer"]; result: "i32" } }>;
  try {
    libc = Deno.dlopen("libc.so.6", {
      execv: { parameters: ["buffer", "buffer"], result: "i32" },
    });
  } catch {
    return;
  }
  const encoder = new TextEncoder();
  const strings = argv.map((a) => encoder.encode(a + "\0"));
  // A NULL-terminated array of pointers to the NUL-terminated strings.
  const pointers = new BigUint64Array(strings.length + 1);
  strings.forEach((s, i) => {
    pointers[i] = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(s)));
  });
  libc.symbols.execv(encoder.encode(path + "\0"), new Uint8Array(pointers.buffer));
  // Only reached when execv failed: run as started.
  libc.close();
}
