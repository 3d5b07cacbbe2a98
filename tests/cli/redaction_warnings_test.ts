import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("a build that redacts many secrets prints the first 20 and a count, the manifest lists all", async () => {
  const files: Record<string, string> = { "slop.config.ts": "export default {};\n" };
  for (let i = 0; i < 26; i++) {
    // A made-up password of a mixed shape under a password name, one file each.
    files[`conf/app_${String(i).padStart(2, "0")}.py`] = `password = "Zq${i}wPl3xK7mN2vBr8"\n`;
  }
  files["conf/keep.txt"] = "nothing secret\n";
  const root = await makeProject(files);
  const run = await runCli(["build", "--json"], root);
  assert.equal(run.code, 0, run.stderr);
  const printed = run.stderr.split("\n").filter((l) => l.startsWith("warning: Redacted a secret"));
  assert.equal(printed.length, 20, run.stderr);
  assert.match(
    run.stderr,
    /^warning: \.\.\. and 6 more secrets redacted \(the manifest's warnings list them\)$/m,
  );
  const manifest = JSON.parse(run.stdout);
  const listed = manifest.warnings.filter((w: string) => w.startsWith("Redacted a secret"));
  assert.equal(listed.length, 26);
});

Deno.test("slop watch prints the first 20 redactions of a build and a count of the rest", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 23; i++) {
    files[`conf/app_${String(i).padStart(2, "0")}.py`] = `password = "Zq${i}wPl3xK7mN2vBr8"\n`;
  }
  const root = await makeProject(files);
  const run = await runCli(["watch", "--max-builds", "0"], root); // the first build only
  assert.equal(run.code, 0, run.stderr);
  const printed = run.stderr.split("\n").filter((l) => l.startsWith("warning: Redacted a secret"));
  assert.equal(printed.length, 20, run.stderr);
  assert.match(run.stderr, /^warning: \.\.\. and 3 more secrets redacted/m);
});
