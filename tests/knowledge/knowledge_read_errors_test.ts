import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("slop knowledge digest names a category file it cannot read", async () => {
  const root = await makeProject({
    "slop/knowledge/facts.md": "- a fact [from: chat, 2026-01-01]\n",
    "slop/knowledge/decisions.md/keep": "",
  });
  const run = await runCli(["knowledge", "digest"], root);
  assert.equal(run.code, 1);
  assert.equal(run.stderr, `slop: Cannot read "slop/knowledge/decisions.md": it is a folder\n`);
});
