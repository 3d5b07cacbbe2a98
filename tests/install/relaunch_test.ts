import assert from "node:assert/strict";
import { join } from "node:path";
import { buildsInProcess, relaunchLine } from "../../cli/_relaunch.ts";
import { SLOP_V8_FLAGS } from "../../cli/init.ts";
import {
  BIG_TREE_V8_FLAGS,
  largestTracked,
  projectDirsOf,
  trackedFiles,
  TURBOFAN_FROM_BYTES,
  v8FlagsFor,
} from "../../cli/_v8_flags.ts";
import { loadedModules, makeProject, REPO, tempDir } from "../_helpers.ts";

Deno.test("the commands that build in their own process are the ones that start again with slop's V8 flags", () => {
  const cases: [string[], boolean][] = [
    [[], true],
    [["build"], true],
    [["src", "--focus", "a.ts"], true],
    [["-q", "--stdout"], true],
    [["build", "--server", "--no-server"], true],
    [["check", "--max-invalidated", "5%"], true],
    [["stats"], true],
    [["report"], true],
    [["payload"], true],
    [["watch"], true],
    [["mcp"], true],
    [["build", "--server"], false],
    [["--server", "-q"], false],
    [["build", "--no-server", "--server"], false],
    [["--version"], false],
    [["-V"], false],
    [["check", "--help"], false],
    [["help", "build"], false],
    [["init"], false],
    [["server", "run"], false],
    [["cache", "stats"], false],
    [["slice", "list"], false],
    [["knowledge", "digest"], false],
    [["explain"], false],
  ];
  for (const [args, expected] of cases) {
    assert.equal(buildsInProcess(args), expected, JSON.stringify(args));
  }
});

Deno.test("the line to start again is the deno run line with slop's V8 flags after run, else nothing", () => {
  // The shim `deno install -g` writes.
  const shim = [
    "deno",
    "run",
    "--allow-all",
    "--config",
    "/home/u/.deno/bin/.slop/deno.json",
    "file:///src/slop/cli.ts",
    "check",
    "",
    "--json",
  ];
  assert.deepEqual(relaunchLine(shim, ["check", "", "--json"]), [
    "deno",
    "run",
    SLOP_V8_FLAGS,
    "--allow-all",
    "--config",
    "/home/u/.deno/bin/.slop/deno.json",
    "file:///src/slop/cli.ts",
    "check",
    "",
    "--json",
  ]);
  // Other arguments than the started ones (a build whose server could not be used).
  assert.deepEqual(
    relaunchLine(["/usr/bin/deno", "run", "-A", "cli.ts", "-q"], ["-q"], {
      args: ["-q", "--no-server"],
    }),
    ["/usr/bin/deno", "run", SLOP_V8_FLAGS, "-A", "cli.ts", "-q", "--no-server"],
  );
  // An argument that looks like the script is not taken for it.
  assert.deepEqual(relaunchLine(["deno", "run", "cli.ts", "cli.ts"], ["cli.ts"]), [
    "deno",
    "run",
    SLOP_V8_FLAGS,
    "cli.ts",
    "cli.ts",
  ]);
  const none: [string[], string[]][] = [
    // V8 flags named by the user (or a start again): as they are.
    [["deno", "run", "-A", "--v8-flags=--max-old-space-size=100", "cli.ts"], []],
    [["deno", "run", "--v8-flags", "--no-opt", "-A", "cli.ts", "x"], ["x"]],
    [["deno", "run", "--inspect-brk", "-A", "cli.ts"], []],
    [["deno", "run", "--watch", "-A", "cli.ts"], []],
    // Not deno run (a compiled binary, deno eval...), or a line that does not end with the args.
    [["slop", "build"], ["build"]],
    [["deno", "eval", "x"], []],
    [["deno", "run", "-A", "cli.ts", "a"], ["b"]],
    [["deno", "run"], ["run"]],
  ];
  for (const [cmdline, args] of none) {
    assert.equal(relaunchLine(cmdline, args), undefined, JSON.stringify(cmdline));
  }
});

/** The `/proc/<pid>/cmdline` of a `slop watch` started with `args` and `env`, once it watches. */
async function watchLine(
  denoArgs: string[],
  env: Record<string, string> = {},
): Promise<{ line: string[]; pid: number }> {
  const root = await makeProject({ "a.md": "# A\n" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...denoArgs, "--quiet", join(REPO, "cli.ts"), "watch", "--debounce", "50"],
    cwd: root,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("watching for changes")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    assert.match(out, /watching for changes/);
    const line = Deno.readTextFileSync(`/proc/${child.pid}/cmdline`).split("\0").slice(0, -1);
    // Ctrl-C is taken before the watcher says it watches.
    child.kill("SIGINT");
    await reader.cancel();
    const status = await child.status;
    assert.equal(status.code, 0, "Ctrl-C ends the watcher as before");
    return { line, pid: child.pid };
  } finally {
    clearTimeout(guard);
    await child.stderr.cancel();
  }
}

Deno.test({
  name: "slop watch started without V8 flags runs with slop's, in the same process",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const { line } = await watchLine(["-A"]);
    assert.equal(line[1], "run");
    assert.equal(line[2], SLOP_V8_FLAGS, line.join(" "));
    assert.equal(line.filter((a) => a.startsWith("--v8-flags")).length, 1);
  },
});

Deno.test({
  name:
    "slop watch keeps the V8 flags it was given, and runs as it is without the permission to start again",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const own = await watchLine(["-A", "--v8-flags=--stack-size=900"]);
    assert.deepEqual(own.line.filter((a) => a.includes("v8-flags")), [
      "--v8-flags=--stack-size=900",
    ]);
    const env = await watchLine(["-A"], { DENO_V8_FLAGS: "--stack-size=900" });
    assert.ok(!env.line.some((a) => a.includes("v8-flags")), env.line.join(" "));
    // No --allow-ffi: it cannot replace itself, and runs as started.
    const limited = await watchLine([
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      "--allow-sys",
    ]);
    assert.ok(!limited.line.some((a) => a.includes("v8-flags")), limited.line.join(" "));
  },
});

/** A git index (version 2) of files of these sizes: what `trackedFiles` reads of it. */
function gitIndex(sizes: number[]): Uint8Array {
  const entries = sizes.map((size, i) => {
    const path = new TextEncoder().encode(`src/f${i}.py`);
    // 62 bytes, the path, then NULs to a multiple of 8 (at least one).
    const entry = new Uint8Array((62 + path.length + 8) & ~7);
    const view = new DataView(entry.buffer);
    view.setUint32(24, 0o100644);
    view.setUint32(36, size);
    view.setUint16(60, path.length);
    entry.set(path, 62);
    return entry;
  });
  const head = new Uint8Array(12);
  const view = new DataView(head.buffer);
  view.setUint32(0, 0x44495243);
  view.setUint32(4, 2);
  view.setUint32(8, sizes.length);
  const out = new Uint8Array(12 + entries.reduce((n, e) => n + e.length, 0) + 20);
  out.set(head);
  entries.reduce((at, e) => (out.set(e, at), at + e.length), 12);
  return out;
}

Deno.test("a build's first process loads no node: module and no pipeline module before it starts again", async () => {
  // It ends at the start again (execv): what it loaded is lost, and Deno's Node layer alone cost
  // more than the rest; its modules, compiled without slop's V8 flags, also took the place of
  // the started process's compiled copies in Deno's cache (bench/README.md, "Suite time,
  // twenty-second session").
  assert.deepEqual(await loadedModules("cli/_relaunch.ts"), [
    "cli/_relaunch.ts",
    "cli/_v8_flags.ts",
  ]);
  assert.deepEqual(await loadedModules("cli/_stray_errors.ts"), ["cli/_stray_errors.ts"]);
});

Deno.test("a build of a tree git tracks 64 MB of starts again with TurboFan, a smaller one without", async () => {
  const dir = await tempDir({ prefix: "slop_tracked_" });
  try {
    const big = join(dir, "big");
    await Deno.mkdir(join(big, ".git"), { recursive: true });
    await Deno.mkdir(join(big, "src", "pkg"), { recursive: true });
    const half = TURBOFAN_FROM_BYTES / 2;
    await Deno.writeFile(join(big, ".git", "index"), gitIndex([half, 1000, half - 1000, 5]));
    // From a folder inside the repository, and from the folder of a config file named.
    assert.deepEqual(trackedFiles(join(big, "src", "pkg")), {
      files: 4,
      bytes: TURBOFAN_FROM_BYTES + 5,
    });
    const dirs = projectDirsOf(["build", "-c", "src/pkg/slop.config.ts"], big);
    assert.deepEqual(dirs, [join(big, "src", "pkg"), big]);
    assert.equal(v8FlagsFor(largestTracked(dirs)), BIG_TREE_V8_FLAGS);
    // A config kept outside the project, named from inside it: the working folder's tree counts.
    const outside = join(dir, "configs");
    await Deno.mkdir(outside);
    const named = projectDirsOf(["build", `--config=${join(outside, "app.config.ts")}`], big);
    assert.deepEqual(named, [outside, big]);
    assert.equal(v8FlagsFor(largestTracked(named)), BIG_TREE_V8_FLAGS);
    assert.deepEqual(projectDirsOf(["build", "-c", "slop.config.ts"], big), [big]);
    // V8 knows every flag of a big tree's build (it refuses to start on one it does not).
    const started = await new Deno.Command(Deno.execPath(), {
      args: ["eval", BIG_TREE_V8_FLAGS, "Deno.exit(0)"],
      stderr: "piped",
    }).output();
    assert.ok(started.success, new TextDecoder().decode(started.stderr));
    // Read as far as asked: the sum stops once it is enough.
    assert.deepEqual(trackedFiles(big, half), { files: 4, bytes: half });
    // A worktree's `.git` file names its git dir.
    const worktree = join(dir, "wt");
    await Deno.mkdir(join(dir, "gitdirs", "wt"), { recursive: true });
    await Deno.mkdir(worktree);
    await Deno.writeTextFile(join(worktree, ".git"), `gitdir: ${join(dir, "gitdirs", "wt")}\n`);
    await Deno.writeFile(join(dir, "gitdirs", "wt", "index"), gitIndex([half, half - 1]));
    assert.deepEqual(trackedFiles(worktree), { files: 2, bytes: TURBOFAN_FROM_BYTES - 1 });
    assert.equal(v8FlagsFor(trackedFiles(worktree)), SLOP_V8_FLAGS);
    // A submodule's names it from its own folder; a `.git` file of no `gitdir:` line names none.
    await Deno.writeTextFile(join(worktree, ".git"), "gitdir: ../gitdirs/wt\n");
    assert.deepEqual(trackedFiles(worktree), { files: 2, bytes: TURBOFAN_FROM_BYTES - 1 });
    await Deno.writeTextFile(join(worktree, ".git"), "not a gitdir line\n");
    assert.equal(trackedFiles(worktree), undefined);
    // Not a git index, one cut short, or no repository: the flags of a small build.
    await Deno.writeTextFile(join(big, ".git", "index"), "not an index");
    assert.equal(trackedFiles(big), undefined);
    await Deno.writeFile(join(big, ".git", "index"), gitIndex([half, half]).subarray(0, 100));
    assert.equal(trackedFiles(big), undefined);
    // A FIFO in its place (its open held every command's start for good): not opened.
    await Deno.remove(join(big, ".git", "index"));
    await new Deno.Command("mkfifo", { args: [join(big, ".git", "index")] }).output();
    assert.equal(trackedFiles(big), undefined);
    assert.equal(v8FlagsFor(undefined), SLOP_V8_FLAGS);
    // This repository's own index: the files git lists, and their sizes.
    const debug = new TextDecoder().decode(
      (await new Deno.Command("git", { args: ["ls-files", "--debug"], cwd: REPO }).output())
        .stdout,
    );
    const sizes = [...debug.matchAll(/^\s+size: (\d+)/gm)].map((m) => Number(m[1]));
    assert.deepEqual(trackedFiles(REPO), {
      files: sizes.length,
      bytes: sizes.reduce((n, s) => n + s, 0),
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
