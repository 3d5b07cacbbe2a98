import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";
import { png } from "../_images.ts";

const PNG = png(2, 2);

/** The image links of a screenshots section, read the way CommonMark reads `![alt](dest)`. */
function images(document: string): Array<{ alt: string; dest: string }> {
  const section = document.slice(document.indexOf("## Screenshots"));
  const out: Array<{ alt: string; dest: string }> = [];
  for (const m of section.matchAll(/^!\[((?:\\.|[^\]\\\n])*)\]\(([^\s()<>]*)\)$/gm)) {
    out.push({ alt: m[1], dest: m[2] });
  }
  return out;
}

Deno.test("a screenshot whose name has parentheses, brackets, spaces, % or a newline is one whole image link", async () => {
  const names = ["a b).png", "c]d.png", "e(f).png", "g%20h.png", "new\nline.png", "plain.png"];
  const tree: Record<string, Uint8Array | string> = {
    "slop.config.ts": `export default { screenshots: ["shots/*.png"] };\n`,
  };
  for (const name of names) tree[`shots/${name}`] = PNG;
  const root = await makeProject(tree);
  const result = await buildContext({ cwd: root }, { write: false });
  const links = images(result.document);
  assert.equal(links.length, names.length, result.document);
  // Each destination decodes back to the file's path.
  const decoded = links.map((l) => decodeURIComponent(l.dest)).sort();
  assert.deepEqual(decoded, names.map((n) => `shots/${n}`).sort());
  assert.ok(links.some((l) => l.alt === "c\\]d.png"));
});
