import assert from "node:assert/strict";
import { join } from "node:path";
import { buildsInProcess, relaunchLine } from "../../cli/_relaunch.ts";
import { SLOP_V8_FLAGS } from "../../cli/init.ts";
import { makeProject, REPO } from "../_helpers.ts";

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
