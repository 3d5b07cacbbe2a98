import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, makeProject, REPO, tempDir } from "../_helpers.ts";
import { runBuild } from "../../cli/build.ts";
import { builtinPlugins } from "../../cli/_builtins.ts";
import { serverSession } from "../../server/session.ts";
import type { Manifest } from "../../mod.ts";

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

Deno.test("slop build leaves out its own output file whatever glob characters its name holds", async () => {
  const names = ["ctx [1].md", "out/(draft)*.md", "a{b,c}?.md", "back\\slash.md", "!x.md"];
  for (const name of names) {
    const root = await makeProject({ "a.py": "x = 1\n", "out/keep.md": "# Keep\n" });
    const quoted = `'${name.replaceAll("'", "'\\''")}'`;
    assert.equal(await shell(root, "build --json --quiet", `> ${quoted}`), 0, name);
    const manifest: Manifest = JSON.parse(await Deno.readTextFile(join(root, name)));
    assert.deepEqual(manifest.files.map((f) => f.path), ["a.py", "out/keep.md"], name);
  }
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
    clearEnv: true,
    env: childEnv(),
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

Deno.test("a build server keeps one config for builds whose output goes to files outside the project; one under it is left out", async () => {
  const root = await makeProject({ "a.py": "x = 1\n", "slop.config.ts": "export default {};\n" });
  const logs = await tempDir({ prefix: "slop_logs_" });
  const session = serverSession({ builtins: builtinPlugins() });
  // Each config the session loads, counted.
  let loads = 0;
  const kept = session.config.bind(session);
  session.config = (key, load) => kept(key, (reload) => (loads++, load(reload)));
  const silent = { stdout: () => Promise.resolve(), stderr: () => {}, stderrIsTerminal: false };
  const buildTo = async (outputs: string[]) => {
    const flags = { config: join(root, "slop.config.ts"), quiet: true, outputs };
    assert.equal(await runBuild([], flags, { terminal: silent, session }), 0);
    const out = join(root, ".slop/out");
    const last = [...Deno.readDirSync(out)].map((e) => e.name).filter((n) => n.endsWith(".json"))
      .sort().at(-1)!;
    const manifest: Manifest = JSON.parse(await Deno.readTextFile(join(out, last)));
    return manifest.files.map((f) => f.path);
  };
  // A log file of each run, outside the project: one config for both builds.
  await Deno.writeTextFile(join(logs, "1.log"), "");
  await Deno.writeTextFile(join(logs, "2.log"), "");
  assert.deepEqual(await buildTo([join(logs, "1.log")]), ["a.py", "slop.config.ts"]);
  assert.deepEqual(await buildTo([join(logs, "2.log")]), ["a.py", "slop.config.ts"]);
  assert.equal(loads, 1);
  // The output under the project is left out of its build: a config of its own.
  await Deno.writeTextFile(join(root, "ctx.md"), "");
  assert.deepEqual(await buildTo([join(root, "ctx.md")]), ["a.py", "slop.config.ts"]);
  assert.equal(loads, 2);
  // Not left out of a build whose output goes elsewhere.
  assert.deepEqual(await buildTo([join(logs, "1.log")]), ["a.py", "ctx.md", "slop.config.ts"]);
  assert.equal(loads, 2);
  session.close();
  await session.resident.close();
});
