import assert from "node:assert/strict";
import { join } from "node:path";
import { build, loadConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { markStateDir, STATE_GITIGNORE } from "../../pipeline/state_dir.ts";
import { git, gitInit, makeProject, runCliShared } from "../_helpers.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("a build's first write leaves a .gitignore of * in .slop/, so git status stays clean", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  await gitInit(root);
  const out = await runCliShared(["build", "--no-server", "--quiet"], root);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(await Deno.readTextFile(join(root, ".slop/.gitignore")), STATE_GITIGNORE);
  assert.ok(await exists(join(root, ".slop/out/context_001.md")));
  assert.equal(await git(root, "status", "--porcelain", "--untracked-files=all"), "");
});

Deno.test("a state dir moved by --state-dir or SLOP_DIR gets the .gitignore where it is", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  await gitInit(root);
  const flag = await runCliShared(
    ["build", "--no-server", "--quiet", "--state-dir", "state"],
    root,
  );
  assert.equal(flag.code, 0, flag.stderr);
  const env = await runCliShared(["build", "--no-server", "--quiet"], root, {
    SLOP_DIR: "tmp/slop",
  });
  assert.equal(env.code, 0, env.stderr);
  for (const dir of ["state", "tmp/slop"]) {
    assert.equal(await Deno.readTextFile(join(root, dir, ".gitignore")), STATE_GITIGNORE, dir);
  }
  assert.ok(!(await exists(join(root, ".slop"))));
  assert.equal(await git(root, "status", "--porcelain", "--untracked-files=all"), "");
});

Deno.test("markStateDir() keeps the user's own .gitignore and never writes into the root or above", async () => {
  const root = await makeProject({ ".slop/.gitignore": "", "a.ts": "a\n" });
  markStateDir(join(root, ".slop"), root);
  assert.equal(await Deno.readTextFile(join(root, ".slop/.gitignore")), "");
  markStateDir(root, root);
  markStateDir(join(root, ".."), root);
  assert.ok(!(await exists(join(root, ".gitignore"))));
  // A folder that cannot be made is left to the build's own writes to report.
  markStateDir(join(root, "a.ts", "state"), root);
});

Deno.test("a build that writes nothing makes no state dir", async () => {
  const root = await makeProject({ "a.ts": "a\n" });
  const config = await loadConfig({ cwd: root, inline: { cache: { enabled: false } } });
  // No output, no cache, and no order memory (every build that makes a document records it).
  await build(config, { builtins: defaultPlugins(), write: false, remember: false });
  assert.ok(!(await exists(join(root, ".slop"))));
});

Deno.test("a piped build's order memory comes with the .gitignore, so git status stays clean", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  await gitInit(root);
  const out = await runCliShared(
    ["build", "--no-server", "--quiet", "--stdout", "--no-cache"],
    root,
  );
  assert.equal(out.code, 0, out.stderr);
  assert.ok(await exists(join(root, ".slop/order/context.json")));
  assert.equal(await Deno.readTextFile(join(root, ".slop/.gitignore")), STATE_GITIGNORE);
  assert.equal(await git(root, "status", "--porcelain", "--untracked-files=all"), "");
});

Deno.test("a state, output or cache dir that is the project folder is an error naming its flag or key: the order memory and outputs would be bundled, the project's out/ and cache/ written into", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n", "cache/keep.ts": "mine\n" });
  const mixed = "slop's outputs, cache and order memory would mix with the project's files; name " +
    "a folder of their own";
  await assert.rejects(
    () => loadConfig({ cwd: root, stateDir: "." }),
    (error: Error) => {
      assert.equal(error.name, "ConfigError");
      assert.equal(
        error.message,
        `The state dir "${root}" (--state-dir) is the project folder: ${mixed} (the default is ".slop")`,
      );
      return true;
    },
  );
  for (
    const [key, inline] of [["output.dir", { output: { dir: "." } }], ["cache.dir", {
      cache: { dir: "./" },
    }]] as const
  ) {
    await assert.rejects(
      () => loadConfig({ cwd: root, inline }),
      (error: Error) => {
        const given = key === "output.dir" ? "." : "./";
        assert.equal(
          error.message,
          `Invalid config "inline config": ${key} "${given}" is the project folder: ${mixed}`,
        );
        return true;
      },
    );
  }
  // From the command line, with the flag or variable named; exit 2, nothing written.
  const flag = await runCliShared(["build", "--stdout", "--state-dir", "."], root);
  assert.equal(flag.code, 2);
  assert.match(
    flag.stderr,
    /^slop: The state dir ".*" \(--state-dir\) is the project folder: .*\n$/,
  );
  const env = await runCliShared(["build"], join(root, "cache"), { SLOP_DIR: "." });
  assert.equal(env.code, 2);
  assert.match(
    env.stderr,
    /^slop: The state dir ".*cache" \(SLOP_DIR\) is the project folder: .*\n$/,
  );
  assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), ["a.ts", "cache"]);
  assert.deepEqual([...Deno.readDirSync(join(root, "cache"))].map((e) => e.name), ["keep.ts"]);
  // A folder of its own inside the project, or above it, is fine.
  await loadConfig({ cwd: root, stateDir: "state" });
  await loadConfig({ cwd: join(root, "cache"), stateDir: ".." });
});
