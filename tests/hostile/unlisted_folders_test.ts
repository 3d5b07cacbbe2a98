import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/**
 * Make `depth` nested folders of 200-character names under `dir/a` and a file in the deepest,
 * from a process that goes down by relative paths: the deepest path is past the system's limit
 * (4096 bytes), which no call given a whole path can reach.
 */
async function deepTree(dir: string, depth: number): Promise<void> {
  const script = `Deno.chdir("a");
    for (let i = 0; i < ${depth}; i++) { Deno.mkdirSync("d".repeat(200)); Deno.chdir("d".repeat(200)); }
    Deno.writeTextFileSync("deep.py", "x = 1\\n");`;
  const out = await new Deno.Command(Deno.execPath(), { args: ["eval", script], cwd: dir })
    .output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test("a folder a walk cannot list (a path past the length limit) is listed, skipped with the reason", async () => {
  const root = await makeProject({ "a/ok.py": "y = 2\n", "b.md": "# B\n" });
  await deepTree(root, 25);
  const result = await buildContext({ cwd: root }, { write: false });
  const rows = result.manifest.files.map((f) => [f.path.replace(/d{200}/g, "D"), f.status]);
  // The folder whose listing failed stands for its files; the folders above it were listed.
  // (2 + 21 * 201 bytes: the first past 4096.)
  const deepest = `a/${Array(21).fill("D").join("/")}`;
  assert.deepEqual(rows, [
    [deepest, "skipped"],
    ["a/ok.py", "rendered"],
    ["b.md", "rendered"],
  ]);
  const row = result.manifest.files[0];
  assert.match(row.reason!, /^a folder slop cannot list \(.+\): its files are left out$/);
  assert.ok(!row.reason!.includes("dddd"), "the reason does not repeat the path");
  assert.ok(!result.document.includes("x = 1"));
});
