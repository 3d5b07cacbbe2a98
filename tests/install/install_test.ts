import assert from "node:assert/strict";
import { delimiter, join } from "node:path";
import { existsSync } from "node:fs";
import { git, REPO, tempDir } from "../_helpers.ts";
import meta from "../../deno.json" with { type: "json" };

/** What a command printed. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `command` with `args` in `cwd`, with `bin` first on PATH (and `env` beside it). */
async function run(
  command: string,
  args: string[],
  { cwd, bin, env = {} }: { cwd: string; bin: string; env?: Record<string, string> },
): Promise<Run> {
  const out = await new Deno.Command(command, {
    args,
    cwd,
    env: {
      PATH: `${bin}${delimiter}${Deno.env.get("PATH") ?? ""}`,
      NO_COLOR: "1",
      // No build server outlives the test: builds run in the slop process.
      CI: "1",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/**
 * `stderr` without the notice Deno prints the first time slop's npm packages
 * load on a machine: that it ignored the grammar packages' build scripts
 * (slop uses their `.wasm` files, which need no build; docs/install.md says so).
 */
function withoutScriptsNotice(stderr: string): string {
  return stderr.replace(
    /^╭[^\n]*Warning\n(│[^\n]*\n)*?│ {2}Ignored build scripts for packages:\n(│[^\n]*\n)*╰─\n/m,
    "",
  );
}

/** The arguments of `deno install` as docs/install.md shows them, for the clone at REPO. */
const INSTALL = ["install", "-g", "-A", "-c", join(REPO, "deno.json"), "-n", "slop"];

/**
 * `deno task install` in slop's folder into a temp root, as docs/install.md shows (it runs
 * `deno install -g -A -f -c deno.json -n slop cli.ts` there).
 */
async function install(): Promise<{ root: string; bin: string }> {
  const root = await tempDir({ prefix: "slop_install_" });
  const bin = join(root, "bin");
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "install"],
    cwd: REPO,
    env: { DENO_INSTALL_ROOT: root, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  // slop's deno.json declines the grammar packages' build scripts: no warning box to alarm a
  // newcomer (without -c, Deno prints one here and again at the first build).
  assert.doesNotMatch(stderr, /Warning|build scripts|nodeModulesDir/);
  assert.ok(existsSync(join(bin, Deno.build.os === "windows" ? "slop.cmd" : "slop")));
  // The command's npm packages live in a node_modules folder of its own.
  assert.ok(existsSync(join(bin, ".slop", "node_modules", "web-tree-sitter")));
  return { root, bin };
}

/** A fresh git repository with a few files and one commit. */
async function freshRepository(files: Record<string, string>): Promise<string> {
  const dir = await tempDir({ prefix: "slop_user_repo_" });
  await git(dir, "init", "-q");
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "first");
  return dir;
}

const PYTHON = 'def greet(name):\n    """Say hello."""\n    return "hello " + name\n';
const TYPESCRIPT = "/** Add. */\nexport function add(a: number, b: number): number {\n" +
  "  return a + b;\n}\n";

Deno.test("the installed slop runs in a fresh git repository: --version, init, build", async () => {
  const { bin } = await install();
  const repo = await freshRepository({
    "app.py": PYTHON,
    "src/add.ts": TYPESCRIPT,
    "README.md": "# Demo\n\nA small project.\n",
  });
  for (const flag of ["--version", "-V"]) {
    const version = await run("slop", [flag], { cwd: repo, bin });
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout, `${meta.version}\n`);
  }
  const init = await run("slop", ["init"], { cwd: repo, bin });
  assert.equal(init.code, 0, init.stderr);
  assert.equal(withoutScriptsNotice(init.stderr), "");
  assert.match(
    init.stdout,
    /^slop: wrote slop\.config\.ts\nslop: wrote deno\.json with the "context" task\n/,
  );
  assert.doesNotMatch(init.stdout, /v8-flags/);
  // The installed command by name: the task runs in every checkout where slop is installed.
  const deno = JSON.parse(await Deno.readTextFile(join(repo, "deno.json")));
  const server = Deno.build.os === "windows" ? "" : " --server";
  assert.equal(deno.tasks.context, `slop build${server}`);
  assert.doesNotMatch(await Deno.readTextFile(join(repo, "slop.config.ts")), /\bimport\b.*from/);

  const build = await run("slop", ["build"], { cwd: repo, bin });
  assert.equal(build.code, 0, build.stderr);
  assert.equal(build.stderr, "");
  assert.match(build.stdout, /^slop: wrote \.slop\/out\/context_001\.md /);
  assert.match(build.stdout, /files: 5 rendered, 0 skipped, 0 errors/);
  const task = await run(Deno.execPath(), ["task", "-q", "context"], { cwd: repo, bin });
  assert.equal(task.code, 0, task.stderr);
  assert.match(task.stdout, /^slop: wrote \.slop\/out\/context_002\.md /);
  const doc = await Deno.readTextFile(join(repo, ".slop/out/context_001.md"));
  for (const path of ["README.md", "app.py", "deno.json", "slop.config.ts", "src/add.ts"]) {
    assert.match(doc, new RegExp(`^### ${path.replace(".", "\\.")}$`, "m"), path);
  }
  assert.ok(doc.includes("```python\n" + PYTHON + "```\n"), doc);
  assert.ok(doc.includes("```ts\n" + TYPESCRIPT + "```\n"), doc);
  // The build wrote nothing outside .slop/: the work tree is as slop init left it.
  const status = (await git(repo, "status", "--porcelain")).trim().split("\n");
  assert.deepEqual(status.filter((l) => l !== "?? .slop/").sort(), [
    "?? deno.json",
    "?? slop.config.ts",
  ]);
});

Deno.test("the installed slop finds its npm packages and grammars whatever the project's own deno.json says, with no Deno cache", async () => {
  const { bin } = await install();
  // A project whose config would break slop's modules if slop used it: no node_modules to
  // read packages from, and an import map that sends slop's parser elsewhere.
  const repo = await freshRepository({
    "deno.json": JSON.stringify({
      nodeModulesDir: "manual",
      imports: { "web-tree-sitter": "./nope.js", "npm:web-tree-sitter@0.27.1": "./nope.js" },
    }),
    "app.py": PYTHON,
    "src/add.ts": TYPESCRIPT,
    "slop.config.ts": 'export default { files: ["app.py", "src/**"], defaultView: "skeleton" };\n',
  });
  // An empty DENO_DIR, as when an MCP client starts `slop mcp` with a minimal environment that
  // drops the DENO_DIR slop was installed with, and no registry to download from (a closed port
  // on this machine): the grammars are in the command's own node_modules.
  const denoDir = await tempDir({ prefix: "slop_deno_dir_" });
  const build = await run("slop", ["build", "--stdout"], {
    cwd: repo,
    bin,
    env: { DENO_DIR: denoDir, NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/" },
  });
  assert.equal(build.code, 0, build.stderr);
  assert.equal(
    build.stdout,
    "## Files\n\n" +
      "### src/add.ts\n\n```ts\n/** Add. */\nexport function add(a: number, b: number): number { ... }\n```\n\n" +
      '### app.py\n\n```python\ndef greet(name):\n    """Say hello."""\n    ...\n```\n\n',
  );
  assert.ok(!existsSync(join(repo, "node_modules")), "nothing installed into the project");
});

Deno.test("slop installed again with -f replaces the command, and deno uninstall removes it", async () => {
  const { root, bin } = await install();
  const again = await new Deno.Command(Deno.execPath(), {
    args: [...INSTALL, "-f", join(REPO, "cli.ts")],
    env: { DENO_INSTALL_ROOT: root },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(again.code, 0, new TextDecoder().decode(again.stderr));
  const version = await run("slop", ["--version"], { cwd: root, bin });
  assert.equal(version.stdout, `${meta.version}\n`);
  const gone = await new Deno.Command(Deno.execPath(), {
    args: ["uninstall", "-g", "slop"],
    env: { DENO_INSTALL_ROOT: root },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(gone.code, 0, new TextDecoder().decode(gone.stderr));
  assert.ok(!existsSync(join(bin, "slop")));
});
