// slop reads each git's output whole at its end, so git buffers it whole (`GIT_FLUSH=0`):
// `git check-attr --stdin` otherwise writes each path's answer into the pipe on its own (and
// slop reads each), 44,040 writes and reads on the monorepo at every build (bench/README.md,
// "A warm build's heads from the pack's index"). A user's own GIT_FLUSH does not change it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { attributeSkips } from "../../pipeline/_git_attributes.ts";
import { gitInit, makeProject, tempDir } from "../_helpers.ts";

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
  const path = Deno.env.get("PATH") ?? "";
  Deno.env.set("PATH", `${bin}:${path}`);
  Deno.env.set("GIT_FLUSH", "1");
  try {
    const skips = await attributeSkips(root, ["a.bin", "b.ts", ".gitattributes"]);
    assert.deepEqual([...skips.keys()], ["a.bin"]);
  } finally {
    Deno.env.set("PATH", path);
    Deno.env.delete("GIT_FLUSH");
  }
  const given = (await Deno.readTextFile(log)).trim().split("\n");
  assert.ok(given.length >= 1 && given.every((v) => v === "0"), given.join(","));
});
