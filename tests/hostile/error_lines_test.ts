import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/** The markdown headings of a document (lines that start with 1 to 6 `#` and a space). */
function headings(document: string): string[] {
  return document.split("\n").filter((l) => /^#{1,6} /.test(l)).sort();
}

Deno.test("an error's message stays on one line: a file name or a plugin's message with line breaks adds no heading", async () => {
  const root = await makeProject({
    "ok.md": "ok\n",
    "view.ts": "export const v = 1;\n",
  });
  // A broken link and a link out of the root, named to forge headings.
  await Deno.symlink("nowhere", join(root, "bad\n## Files\n### injected.md"));
  await Deno.symlink("/etc/hostname", join(root, "out\n### x.md"));
  const result = await buildContext({
    cwd: root,
    inline: {
      files: ["ok.md", "bad*", "out*", { path: "view.ts", view: "boom" }],
      plugins: [{
        kind: "view-mode",
        name: "boom",
        version: "1",
        render: () => {
          throw new Error("cannot parse\n## Files\n### forged.ts\n```");
        },
      }],
    },
  }, { write: false });
  const errors = result.manifest.files.filter((f) => f.status === "error");
  assert.equal(errors.length, 3, JSON.stringify(result.manifest.files));
  assert.deepEqual(
    headings(result.document),
    [
      "## Files",
      "### bad\\n## Files\\n### injected.md",
      "### ok.md",
      "### out\\n### x.md",
      "### view.ts",
    ],
  );
  // Each error line is whole, with the breaks written as escapes.
  assert.match(
    result.document,
    /\nERROR: broken symbolic link: bad\\n## Files\\n### injected\.md\n/,
  );
  // A plugin's message comes escaped already (one line, `\n`), and the line escapes its backslashes.
  assert.match(result.document, /cannot parse\\\\n## Files\\\\n### forged\.ts\\\\n```\n/);
});
