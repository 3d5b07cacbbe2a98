import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli } from "../_helpers.ts";

// The build summary, its warnings and the stats table show paths one per line, with control and
// direction-changing characters written as escapes: a file name cannot add lines or reorder the
// terminal's text.
Deno.test("the build summary, warnings and stats write odd file names with escapes, one line each", async () => {
  const root = await makeProject({
    "\u202eevil.md": "rtl\n",
    "cr\rname.md": "cr\n",
    "slop.config.ts": `export default { files: ["**", "gone\\nwarning.md"] };\n`,
  });
  await Deno.symlink("nowhere", join(root, "bad\nerror: forged.md"));
  const build = await runCli(["build"], root);
  assert.equal(build.code, 0, build.stderr);
  const out = build.stdout + build.stderr;
  assert.ok(!out.includes("\r") && !out.includes("\u202e"), JSON.stringify(out));
  const lines = out.split("\n");
  assert.ok(lines.includes("  error: bad\\nerror: forged.md (broken symbolic link)"), out);
  assert.ok(!lines.some((l) => l.startsWith("error: forged")), out);
  assert.ok(lines.some((l) => l.startsWith("warning: ") && l.includes("gone\\nwarning.md")), out);

  const stats = await runCli(["stats"], root);
  assert.equal(stats.code, 0, stats.stderr);
  assert.ok(!stats.stdout.includes("\r") && !stats.stdout.includes("\u202e"));
  assert.match(stats.stdout, /^\\u\{202e\}evil\.md +full/m);
  assert.match(stats.stdout, /^cr\\rname\.md +full/m);
});
