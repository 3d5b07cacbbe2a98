import assert from "node:assert/strict";
import { join } from "node:path";
import { build, buildContext, loadConfig, type SlopConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject, tempDir } from "../_helpers.ts";
import { png } from "../_images.ts";

const PNG = png(2, 2);

async function shotsOf(root: string, inline: SlopConfig, preset?: string) {
  const config = await loadConfig({ cwd: root, inline: { files: ["a.ts"], ...inline }, preset });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  const block = result.blocks.find((b) => b.id === "screenshots");
  return { text: block?.text, warnings: result.warnings, document: result.document };
}

Deno.test("an absolute screenshot path inside the root is shown as its relative path", async () => {
  const root = await makeProject({
    "a.ts": "a\n",
    "shots/login page.png": PNG,
    "shots/b.png": PNG,
  });
  const relative = await shotsOf(root, { screenshots: ["shots/login page.png", "shots/b.png"] });
  const absolute = await shotsOf(root, {
    screenshots: [join(root, "shots/login page.png"), `${root}/shots/b.png`],
  });
  assert.equal(
    absolute.text,
    "## Screenshots\n\n![b.png](shots/b.png)\n![login page.png](shots/login%20page.png)\n\n",
  );
  assert.deepEqual(absolute.warnings, []);
  // The same bytes as the relative paths give: nothing of the machine in the prefix.
  assert.equal(absolute.document, relative.document);
  assert.ok(!absolute.document.includes(root));
  // An absolute glob under the root too.
  const glob = await shotsOf(root, { screenshots: [`${root}/shots/*.png`] });
  assert.equal(glob.text, absolute.text);
});

Deno.test("a screenshot path outside the root is a config error that names it", async () => {
  const outside = await tempDir();
  await Deno.writeFile(join(outside, "x.png"), PNG);
  const root = await makeProject({ "a.ts": "a\n", "in.png": PNG });
  await assert.rejects(
    () => shotsOf(root, { screenshots: ["in.png", join(outside, "x.png")] }),
    new RegExp(
      `"screenshots\\[1\\]" is outside the root: "${join(outside, "x.png")}" ` +
        `\\(set allowOutsideRoot to allow it\\)`,
    ),
  );
  await assert.rejects(
    () => shotsOf(root, { screenshots: ["shots/../../x.png"] }),
    /"screenshots\[0\]" is outside the root: "shots\/\.\.\/\.\.\/x\.png"/,
  );
  await assert.rejects(
    () => shotsOf(root, { presets: { ui: { files: ["a.ts"], screenshots: ["../x.png"] } } }, "ui"),
    /"presets\.ui\.screenshots\[0\]" is outside the root: "\.\.\/x\.png"/,
  );
});

Deno.test("with allowOutsideRoot a screenshot outside the root is shown relative to the root", async () => {
  const parent = await tempDir();
  const root = join(parent, "app");
  await makeProject({ "a.ts": "a\n", "../shared/x.png": PNG }, root);
  const shots = await shotsOf(root, {
    allowOutsideRoot: true,
    screenshots: [join(parent, "shared/x.png")],
  });
  assert.equal(shots.text, "## Screenshots\n\n![x.png](../shared/x.png)\n\n");
  assert.deepEqual(shots.warnings, []);
});

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
