import assert from "node:assert/strict";
import { budgetLines } from "../../cli/_budget.ts";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("slop build's summary says 1 error, not 1 errors", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["a.txt", "gone.txt"] };\n`,
    "a.txt": "a\n",
  });
  const run = await runCli(["build"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^files: 1 rendered, 0 skipped, 1 error$/m);
});

Deno.test("slop build's summary lists at most 20 skipped files, then says how many more", async () => {
  const tree: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < 25; i++) {
    tree[`bin/${String(i).padStart(2, "0")}.dat`] = new Uint8Array([0, 1, i]);
  }
  const root = await makeProject(tree);
  const run = await runCli(["build"], root);
  assert.equal(run.code, 0, run.stderr);
  const listed = run.stdout.split("\n").filter((l) => l.startsWith("  skipped: "));
  assert.equal(listed.length, 20);
  assert.equal(listed[0], "  skipped: bin/00.dat (binary file)");
  assert.match(
    run.stdout,
    /\n {2}\.\.\. and 5 more skipped or failed files \(see the manifest\)\n/,
  );
});

Deno.test("slop build's summary does not list a budget-dropped file twice", async () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 4; i++) tree[`doc${i}.txt`] = `${"words and more words ".repeat(200)}${i}\n`;
  const root = await makeProject(tree);
  const run = await runCli(["build", "--budget", "60"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /stepped down: doc\d\.txt full -> .*listed/);
  assert.doesNotMatch(run.stdout, /skipped: doc\d\.txt \(stepped down to fit the token budget\)/);
});

Deno.test("budgetLines() lists at most 20 stepped-down files, then says how many more", () => {
  const steppedDown = Array.from({ length: 23 }, (_, i) => ({
    path: `f${String(i).padStart(2, "0")}.txt`,
    from: "full",
    to: "summary",
  }));
  const lines = budgetLines({ tokens: 10, before: 99, after: 10, met: true, steppedDown });
  assert.equal(lines.length, 22);
  assert.equal(lines[1], "  stepped down: f00.txt full -> summary");
  assert.equal(lines[21], "  ... and 3 more stepped down (see the manifest's budget)");
});
