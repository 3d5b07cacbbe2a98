// slop reads each git's output whole at its end, so git buffers it whole (`GIT_FLUSH=0`):
// `git check-attr --stdin` otherwise writes each path's answer into the pipe on its own (and
// slop reads each), 44,040 writes and reads on the monorepo at every build (bench/README.md,
// "A warm build's heads from the pack's index"). A user's own GIT_FLUSH does not change it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { gitInit, makeProject, runScript, START_ENV, tempDir } from "../_helpers.ts";

Deno.test("slop's git buffers its output whole, whatever GIT_FLUSH the user set", async () => {
  const root = await makeProject({
    "a.bin": "x\n",
    "b.ts": "b\n",
    ".gitattributes": "*.bin binary\n",
  });
  await gitInit(root);
  // A git on PATH that notes the GIT_FLUSH it was given, then runs the real one.
  const real = new TextDecoder().decode(
    (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output()).stdout,
  ).trim();
  const bin = await tempDir();
  const log = join(bin, "flush.log");
  await Deno.writeTextFile(
    join(bin, "git"),
    `#!/bin/sh\nprintf '%s\\n' "\${GIT_FLUSH-unset}" >> '${log}'\nexec '${real}' "$@"\n`,
  );
  await Deno.chmod(join(bin, "git"), 0o755);
  // In a child of its own: a PATH and GIT_FLUSH set in this process would reach the tests running
  // beside it.
  const module = new URL("../../pipeline/_git_attributes.ts", import.meta.url).href;
  const run = await runScript(
    `import { attributeSkips } from ${JSON.stringify(module)};\n` +
      `const skips = await attributeSkips(Deno.cwd(), ["a.bin", "b.ts", ".gitattributes"]);\n` +
      `console.log(JSON.stringify([...skips.keys()]));\n`,
    root,
    { env: { PATH: `${bin}:${START_ENV.PATH ?? ""}`, GIT_FLUSH: "1" } },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), ["a.bin"]);
  const given = (await Deno.readTextFile(log)).trim().split("\n");
  assert.ok(given.length >= 1 && given.every((v) => v === "0"), given.join(","));
});
