import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli } from "../_helpers.ts";

const PROJECT = {
  "slop.config.ts": `export default { files: ["src/**"] };\n`,
  "src/a.ts": "export const a = 1;\n",
};

Deno.test("slop stats and report skip a broken latest manifest with a warning and read the one before", async () => {
  const root = await makeProject(PROJECT);
  assert.equal((await runCli(["build", "-q"], root)).code, 0);
  await Deno.writeTextFile(join(root, "src/a.ts"), "export const a = 2;\n");
  assert.equal((await runCli(["build", "-q"], root)).code, 0);
  // A truncated manifest #3 and a manifest #2 whose document is gone.
  await Deno.writeTextFile(join(root, ".slop/out/context_003.json"), "{");
  await Deno.remove(join(root, ".slop/out/context_002.md"));

  const stats = await runCli(["stats"], root);
  assert.equal(stats.code, 0, stats.stderr);
  assert.equal(stats.stdout.split("\n")[0], "slop stats: .slop/out/context_001.md");
  assert.match(
    stats.stderr,
    /^warning: Skipped ".slop\/out\/context_003.json": not a readable manifest \(.+\)\n/m,
  );
  assert.match(
    stats.stderr,
    /^warning: Skipped ".slop\/out\/context_002.json": cannot read its document ".slop\/out\/context_002.md" \(.+\)\n/m,
  );

  const report = await runCli(["report", "--stdout"], root);
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stderr, /Skipped ".slop\/out\/context_003.json"/);
  assert.match(report.stdout, /export const a = 1|<html/);
});
