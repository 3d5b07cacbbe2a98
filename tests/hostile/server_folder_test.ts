import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli, tempDir } from "../_helpers.ts";

Deno.test("a build server folder slop cannot make or use is one line naming it and the variable to set, never a stack", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  // Open to others (mode 755): another user could plant a socket there.
  const open = await tempDir();
  await Deno.mkdir(join(open, "slop"), { mode: 0o755 });
  await Deno.chmod(join(open, "slop"), 0o755);
  const cases: [Record<string, string>, RegExp][] = [
    [
      { XDG_RUNTIME_DIR: join(root, "a.ts") },
      /^Cannot make the build server folder ".*a\.ts\/slop" \(.+\): set XDG_RUNTIME_DIR to another folder$/,
    ],
    [
      { XDG_RUNTIME_DIR: "", TMPDIR: join(root, "a.ts") },
      /^Cannot make the build server folder ".*a\.ts\/slop-\d+" \(.+\): set TMPDIR to another folder$/,
    ],
    [
      { XDG_RUNTIME_DIR: open },
      /^The build server folder ".*\/slop" must be a folder of yours that only you can open \(mode 700\): fix it, or set XDG_RUNTIME_DIR to another folder$/,
    ],
  ];
  for (const [env, message] of cases) {
    const status = await runCli(["server", "status"], root, env);
    assert.equal(status.code, 1, JSON.stringify(env));
    assert.equal(status.stdout, "");
    assert.match(status.stderr.replace(/^slop: /, "").replace(/\n$/, ""), message, status.stderr);
  }
  // A build asked to use the server builds in its own process, with the reason as one warning.
  const build = await runCli(["build", "--server", "--quiet", "--stdout"], root, cases[0][0]);
  assert.equal(build.code, 0, build.stderr);
  assert.match(build.stdout, /export const a = 1;/);
  const [line, ...rest] = build.stderr.split("\n").filter(Boolean);
  assert.deepEqual(rest, []);
  assert.match(
    line,
    /^slop: warning: Cannot make the build server folder .*: building in this process$/,
  );
});
