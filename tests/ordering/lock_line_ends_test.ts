import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli } from "../_helpers.ts";

// Git for Windows checks text files out with CRLF line ends (core.autocrlf): a slop.lock pinned
// on Linux must pass `slop check` there. A path with a CR in it must not break the lock either.
Deno.test("slop check reads a slop.lock with CRLF line ends, also when a path holds a CR", async () => {
  const root = await makeProject({
    "a.md": "# A\n",
    "b.ts": "export const b = 1;\n",
    "cr\rname.md": "cr\n",
    "tab\tname.md": "tab\n",
    "new\nline.md": "nl\n",
  });
  const pinned = await runCli(["check", "--update"], root);
  assert.equal(pinned.code, 0, pinned.stderr);
  const lockPath = join(root, "slop.lock");
  const lf = await Deno.readTextFile(lockPath);
  assert.ok(!lf.includes("\r"), "no raw CR in the lock");
  assert.match(lf, /^files:cr\\rname\.md\t/m);

  const same = await runCli(["check"], root);
  assert.equal(same.code, 0, same.stderr);
  await Deno.writeTextFile(lockPath, lf.replace(/\n/g, "\r\n"));
  const crlf = await runCli(["check"], root);
  assert.equal(crlf.code, 0, crlf.stdout + crlf.stderr);
  assert.match(crlf.stdout, /the stable prefix matches slop\.lock/);
});
