import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, tempDir } from "../_helpers.ts";

// `slop build > build.log` or `slop build --stdout > ctx.md` in the project: the file the
// command's own output goes to is created (empty) before slop lists the project, and was bundled
// as one more file. It is left out, in process and through the build server.
/** `sh -c "slop <args> <redirect>"` in `root` (with `env`); its exit code. */
async function shell(
  root: string,
  args: string,
  redirect: string,
  env: Record<string, string> = { CI: "1" },
): Promise<number> {
  const slop = [Deno.execPath(), "run", "-A", "--quiet", join(REPO, "cli.ts")]
    .map((arg) => `'${arg}'`).join(" ");
  const { code } = await new Deno.Command("sh", {
    args: ["-c", `${slop} ${args} ${redirect}`],
    cwd: root,
    env: { NO_COLOR: "1", ...env },
  }).output();
  return code;
}

Deno.test("slop build leaves out the files its own stdout and stderr go to", async () => {
  const root = await makeProject({ "a.py": "x = 1\n", "notes.md": "# Notes\n" });
  assert.equal(await shell(root, "build --stdout", "> ctx.md 2> err.log"), 0);
  const printed = await Deno.readTextFile(join(root, "ctx.md"));
  assert.match(printed, /^### a\.py$/m);
  assert.match(printed, /^### notes\.md$/m);
  assert.doesNotMatch(printed, /^### (ctx\.md|err\.log)$/m);

  assert.equal(await shell(root, "build", "> build.log 2>&1"), 0);
  const summary = await Deno.readTextFile(join(root, "build.log"));
  assert.match(summary, /^slop: wrote \.slop\/out\/context_001\.md /);
  const written = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  assert.doesNotMatch(written, /^### build\.log$/m);
  // Another file is still a file of the project: ctx.md, printed by the first build.
  assert.match(written, /^### ctx\.md$/m);
});

Deno.test("slop build --server leaves out the file the client's output goes to", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  // A folder of its own for the server; CI empty, so that --server starts one on a CI machine.
  const env = { XDG_RUNTIME_DIR: await tempDir({ prefix: "slop_servers_" }), CI: "" };
  try {
    assert.equal(await shell(root, "build --server", "> build.log 2>&1", env), 0);
    const summary = await Deno.readTextFile(join(root, "build.log"));
    assert.match(summary, /^slop: wrote \.slop\/out\/context_001\.md /);
    assert.match(summary, /\nfiles: 1 rendered, 0 skipped, 0 errors\n/);
  } finally {
    await shell(root, "server stop --all --quiet", "", env);
  }
});

// Every command that prints a document, a payload or a page to stdout: `... | head` closes the
// pipe after a few bytes, and the rest must end quietly (no stack trace, no error, exit 0).
const COMMANDS = [
  ["build", "--stdout"],
  ["build", "--stdout", "--json"],
  ["build", "--json"],
  ["build", "--stdout", "--format", "xml"],
  ["payload"],
  ["report", "--stdout"],
];

/** Run the CLI, read its first stdout chunk, then close the pipe as `head -c` does. */
async function runAndHangUp(args: string[], cwd: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), ...args],
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  await reader.cancel();
  const [status, stderr] = await Promise.all([
    child.status,
    new Response(child.stderr).text(),
  ]);
  return { first, code: status.code, stderr };
}

Deno.test("a reader that closes stdout early ends the output quietly", async () => {
  // Well over a pipe's buffer (64 KiB), so the writer is still writing when the pipe closes.
  const tree: Record<string, string> = {};
  for (let i = 0; i < 40; i++) tree[`src/f${i}.txt`] = `line ${i} `.repeat(2000) + "\n";
  const root = await makeProject(tree);
  for (const args of COMMANDS) {
    const run = await runAndHangUp(args, root);
    const what = `slop ${args.join(" ")}`;
    assert.ok(!run.first.done, `${what} printed nothing`);
    assert.doesNotMatch(run.stderr, /Broken ?pipe|Uncaught|os error|\n {4}at /i, what);
    assert.equal(run.code, 0, `${what}: ${run.stderr}`);
  }
});
