// Files and folders the user slop runs as may not read, enter or write. Root reads and writes
// through permission bits, so as root the commands run in a child that has given up that right
// (`setpriv` drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH: the owner's bits then hold for root
// too); as another user they hold already. The commands run one after another in that one child,
// in its process (`main()`, stderr captured), so the sweep costs one start.
import assert from "node:assert/strict";
import { join } from "node:path";
import { gitInit, makeProject, REPO, V8_FLAGS } from "../_helpers.ts";

const DROP = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"];

/** The command prefix that runs a child under permission bits, or why there is none. */
function bitsHold(): { prefix: string[] } | { why: string } {
  if (Deno.build.os === "windows") return { why: "no permission bits on Windows" };
  if (Deno.uid() !== 0) return { prefix: [] };
  try {
    const probe = new Deno.Command(DROP[0], { args: [...DROP.slice(1), "true"] }).outputSync();
    if (probe.success) return { prefix: DROP };
    return { why: "setpriv cannot drop root's file rights here" };
  } catch {
    return { why: "running as root, and no setpriv to drop root's file rights" };
  }
}

const runner = bitsHold();
if ("why" in runner) console.warn(`permissions_test: skipped (${runner.why})`);

/** Run each `[folder, args]` as `slop ARGS` in `root/folder`, in one child: code and stderr. */
async function runEach(
  root: string,
  runs: Array<[string, string[]]>,
  prefix: string[],
): Promise<Array<{ code: number; stderr: string }>> {
  const main = JSON.stringify(new URL("../../cli/_main.ts", import.meta.url).href);
  const code = `import { main } from ${main};
let stderr = "";
Deno.stderr.writeSync = (bytes) => {
  stderr += new TextDecoder().decode(bytes);
  return bytes.length;
};
console.error = (...parts) => (stderr += parts.join(" ") + "\\n");
console.log = () => {};
const out = [];
for (const [folder, args] of ${JSON.stringify(runs)}) {
  Deno.chdir(${JSON.stringify(root)} + "/" + folder);
  stderr = "";
  const code = await main(args);
  out.push({ code, stderr });
}
Deno.writeTextFileSync(${JSON.stringify(join(root, "out.json"))}, JSON.stringify(out));`;
  const script = join(root, "child.ts");
  await Deno.writeTextFile(script, code);
  const [cmd, ...args] = [...prefix, Deno.execPath()];
  const out = await new Deno.Command(cmd, {
    args: [...args, "run", "-A", "--quiet", V8_FLAGS, script],
    cwd: REPO,
    env: { NO_COLOR: "1", CI: "true" },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(await Deno.readTextFile(join(root, "out.json")));
}

/** The rows of the first manifest a build wrote in `dir`: path, status and reason. */
async function rows(dir: string): Promise<string[]> {
  const manifest = JSON.parse(await Deno.readTextFile(join(dir, ".slop/out/context_001.json")));
  return manifest.files.map((f: { path: string; status: string; reason?: string }) =>
    `${f.path}: ${f.status}${f.reason ? ` (${f.reason})` : ""}`
  );
}

const TREE = {
  "src/a.ts": "export const a = 1;\n",
  "src/closed.ts": "export const secret = 2;\n",
  "locked/in.py": "x = 1\n",
  "shut/in.py": "y = 2\n",
  "ok/z.log": "ignored\n",
  ".gitignore": "*.log\n",
};

/** Take the rights away: a file no one may read, a folder no one may list, one no one may enter. */
async function closeUp(dir: string): Promise<void> {
  await Deno.symlink("locked/in.py", join(dir, "link.py"));
  await Deno.chmod(join(dir, "src/closed.ts"), 0o000);
  await Deno.chmod(join(dir, "locked"), 0o000);
  await Deno.chmod(join(dir, "shut"), 0o600);
  await Deno.chmod(join(dir, ".gitignore"), 0o000);
}

const DENIED = "permission denied: the user slop runs as may not";
const RULES = "; its rules are not applied, so files it would leave out are in the build";

Deno.test({
  name:
    "unreadable files and folders are rows with the reason, and unreadable or unwritable settings and outputs are one line naming the path",
  ignore: "why" in runner,
  fn: async () => {
    const root = await makeProject({});
    const plain = await makeProject(TREE, join(root, "plain"));
    const git = await makeProject(TREE, join(root, "git"));
    await gitInit(git);
    await makeProject({ "a.ts": "export const a = 1;\n" }, join(root, "config"));
    await Deno.writeTextFile(join(root, "config/slop.config.ts"), "export default {};\n");
    await makeProject({ "a.ts": "export const a = 1;\n", ".slop/x": "" }, join(root, "state"));
    await makeProject({ "a.ts": "export const a = 1;\n" }, join(root, "lock"));
    await makeProject({ "a.ts": "export const a = 1;\n" }, join(root, "init"));
    const digest = join(root, "digest/slop/knowledge/digest.md");
    await makeProject({ "a.ts": "export const a = 1;\n" }, join(root, "digest"));
    await makeProject({ "slop/knowledge/digest.md": "# Facts\n" }, join(root, "digest"));
    for (const dir of [plain, git]) await closeUp(dir);
    await Deno.chmod(join(root, "config/slop.config.ts"), 0o000);
    await Deno.chmod(join(root, "state/.slop"), 0o555);
    await Deno.chmod(join(root, "lock"), 0o555);
    await Deno.chmod(join(root, "init"), 0o555);
    await Deno.chmod(digest, 0o000);
    const [plainRun, gitRun, config, state, lock, init, knowledge] = await runEach(root, [
      ["plain", ["build", "--no-server"]],
      ["git", ["build", "--no-server"]],
      ["config", ["build", "--no-server"]],
      ["state", ["build", "--no-server"]],
      ["lock", ["check", "--update", "--state-dir", "../state-lock"]],
      ["init", ["init"]],
      ["digest", ["build", "--no-server"]],
    ], "prefix" in runner ? runner.prefix : []);
    try {
      assert.equal(plainRun.code, 0, plainRun.stderr);
      assert.deepEqual(await rows(plain), [
        `.gitignore: error (${DENIED} read it${RULES})`,
        `link.py: error (cannot follow symbolic link: ${DENIED} enter a folder on its way)`,
        "locked: skipped (a folder slop cannot list (Permission denied): its files are left out)",
        "ok/z.log: rendered",
        `shut/in.py: error (${DENIED} enter a folder on its path)`,
        "src/a.ts: rendered",
        `src/closed.ts: error (${DENIED} read it)`,
      ]);
      assert.equal(gitRun.code, 0, gitRun.stderr);
      assert.deepEqual(await rows(git), [
        `.gitignore: error (${DENIED} read it${RULES})`,
        `link.py: error (cannot follow symbolic link: ${DENIED} enter a folder on its way)`,
        "locked: skipped (a folder git cannot list (Permission denied): its untracked files " +
        "are left out)",
        `locked/in.py: error (${DENIED} enter a folder on its path)`,
        "ok/z.log: rendered",
        `shut/in.py: error (${DENIED} enter a folder on its path)`,
        "src/a.ts: rendered",
        `src/closed.ts: error (${DENIED} read it)`,
      ]);
      assert.deepEqual(config, {
        code: 2,
        stderr: 'slop: Invalid config "slop.config.ts": Cannot load the config: permission ' +
          "denied: the user slop runs as may not read it\n",
      });
      assert.deepEqual(state, {
        code: 1,
        stderr: 'slop: Cannot create the output folder ".slop/out": Permission denied: print ' +
          "the document with --stdout, or pass --state-dir to a folder you can write\n",
      });
      assert.deepEqual(lock, {
        code: 1,
        stderr: 'slop: Cannot write the lock "slop.lock": permission denied: run slop check ' +
          "--update as a user who may write it and its folder\n",
      });
      assert.deepEqual(init, {
        code: 1,
        stderr: 'slop: Cannot write "slop.config.ts": permission denied: run slop init as a ' +
          "user who may write the project's folder\n",
      });
      assert.equal(knowledge.code, 1);
      assert.match(
        knowledge.stderr,
        /Cannot read the knowledge digest "slop\/knowledge\/digest\.md": permission denied\n$/,
      );
    } finally {
      for (const dir of [plain, git]) {
        for (const path of ["src/closed.ts", ".gitignore"]) {
          await Deno.chmod(join(dir, path), 0o644);
        }
        for (const path of ["locked", "shut"]) await Deno.chmod(join(dir, path), 0o755);
      }
      for (const path of ["state/.slop", "lock", "init"]) await Deno.chmod(join(root, path), 0o755);
      await Deno.chmod(join(root, "config/slop.config.ts"), 0o644);
      await Deno.chmod(digest, 0o644);
    }
  },
});
