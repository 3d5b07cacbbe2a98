import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCliShared } from "../_helpers.ts";

// Files whose last lines are blank, or whose text has no final line end, or only blank lines.
const FILES: Record<string, string> = {
  "src/blank_tail.txt": "line one\n\n\n",
  "src/no_end.txt": "no final line end",
  "src/only_blank.txt": "\n\n",
  "src/one_line.txt": "one\n",
};

function contentOf(document: string, path: string): string {
  const start = document.indexOf(`<source>${path}</source>`);
  assert.ok(start >= 0, `${path} is in the document`);
  const open = document.indexOf("<document_content>\n", start) + "<document_content>\n".length;
  return document.slice(open, document.indexOf("</document_content>", open));
}

Deno.test("--format xml keeps every line of a file, blank lines at its end too", async () => {
  const root = await makeProject({
    "slop.config.ts": 'export default { files: ["src/**"] };\n',
    ...FILES,
  });
  const run = await runCliShared(["build", "-q", "--format", "xml"], root);
  assert.equal(run.code, 0, run.stderr);
  const document = await Deno.readTextFile(join(root, ".slop/out/context_001.xml"));
  for (const [path, text] of Object.entries(FILES)) {
    // Only a missing last line end is added, so the closing tag starts a line of its own.
    const expected = text.endsWith("\n") ? text : `${text}\n`;
    assert.equal(contentOf(document, path), expected, path);
  }
});
