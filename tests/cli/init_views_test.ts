import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("slop init's config names every built-in view mode in the defaultView comment", async () => {
  const root = await makeProject({});
  assert.equal((await runCli(["init", "-q"], root)).code, 0);
  const text = await Deno.readTextFile(join(root, "slop.config.ts"));
  const lines = text.split("\n");
  const first = lines.findIndex((l) => l.includes("The view for files that set none"));
  assert.ok(first >= 0, text);
  const end = lines.findIndex((l, i) => i > first && !l.trim().startsWith("//"));
  const comment = lines.slice(first, end).join(" ");
  const views = defaultPlugins().filter((p) => p.kind === "view-mode").map((p) =>
    p.name.replace(/^slop:/, "")
  );
  for (const view of views) assert.match(comment, new RegExp(`\\b${view}\\b`), view);
});

Deno.test("slop init creates the folder it is given", async () => {
  const root = await makeProject({});
  const run = await runCli(["init", "-q", "new/project"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.ok((await Deno.stat(join(root, "new/project/slop.config.ts"))).isFile);
});
