// `deno task ok` type-checks the JSDoc examples of every source folder: a folder added later
// (as server/ was) must be in its `deno check --doc-only` list, or its examples go unchecked.
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "../_helpers.ts";

/** Folders whose TypeScript is tests or measurements, not the product's source. */
const NOT_SOURCE = new Set(["tests", "bench", "node_modules"]);

Deno.test("deno task ok checks the doc examples of every top-level folder with TypeScript", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json"))).tasks;
  const docOnly = /deno check --doc-only ([^&]+)&&/.exec(tasks.ok)?.[1].trim().split(/\s+/);
  assert.ok(docOnly, `no "deno check --doc-only" in the ok task: ${tasks.ok}`);
  const git = new Deno.Command("git", { args: ["ls-files", "*.ts"], cwd: REPO, stdout: "piped" });
  const files = new TextDecoder().decode((await git.output()).stdout).split("\n").filter(Boolean);
  const folders = new Set(files.filter((f) => f.includes("/")).map((f) => f.split("/")[0]));
  const missing = [...folders].filter((d) => !NOT_SOURCE.has(d) && !docOnly.includes(d)).sort();
  assert.deepEqual(missing, []);
});
