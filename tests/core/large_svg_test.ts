// An SVG over 64 KB is image data (an icon font, a drawing): skipped by default with its reason,
// rendered when the config names it (its path, or a glob that spells ".svg"). The stat index
// records a file the build read; a warm build (its files known unchanged, a resident's trusted
// records) decides as a cold one does, whichever config read the file first.
import assert from "node:assert/strict";
import { build, defaultPlugins, loadConfig, type SlopConfig, speedLayer } from "../../mod.ts";
import { resident } from "../../accel/resident.ts";
import { RACY_MS } from "../../accel/stat_index.ts";
import { summaryText } from "../../cli/build.ts";
import { svgReason } from "../../pipeline/_default_skips.ts";
import { makeProject } from "../_helpers.ts";

const glyph = (i: number) => `<glyph unicode="&#x${i.toString(16)};" d="M0 0L${i} ${i}Z"/>\n`;
/** An SVG font of 64 KB and a little more. */
const FONT = `<svg xmlns="http://www.w3.org/2000/svg"><font>\n${
  Array.from({ length: 1500 }, (_, i) => glyph(i)).join("")
}</font></svg>\n`;

const TREE: Record<string, string> = {
  "src/app.ts": "export const app = 1;\n",
  "assets/fonts/icons.svg": FONT,
  "assets/LOGO.SVG": FONT,
  "assets/small.svg": '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>\n',
};

const SIZE = new TextEncoder().encode(FONT).length;

/** A build written to the project's state folder: its statuses and the bytes it wrote. */
async function built(root: string, inline: SlopConfig | undefined, options: {
  paths?: string[];
  plain?: boolean;
  kept?: ReturnType<typeof resident>;
} = {}) {
  const config = await loadConfig({ cwd: root, inline, paths: options.paths });
  const layer = options.plain ? undefined : speedLayer({ resident: options.kept });
  const result = await build(config, { builtins: defaultPlugins(), layer });
  const status = new Map(result.manifest.files.map((f) => [f.path, f.status]));
  const { document, manifest } = result.output!;
  const bytes = [await Deno.readTextFile(document), await Deno.readTextFile(manifest)];
  return { result, status, bytes };
}

Deno.test("an SVG over 64 KB is skipped by default with its reason, a small one is rendered", async () => {
  assert.ok(SIZE > 64 * 1024 && SIZE < 80 * 1024, `${SIZE}`);
  const root = await makeProject(TREE);
  const { result, status } = await built(root, undefined);
  assert.equal(status.get("assets/small.svg"), "rendered");
  assert.equal(status.get("src/app.ts"), "rendered");
  const rows = new Map(result.manifest.files.map((f) => [f.path, f]));
  for (const path of ["assets/fonts/icons.svg", "assets/LOGO.SVG"]) {
    assert.equal(rows.get(path)?.status, "skipped", path);
    assert.equal(rows.get(path)?.reason, svgReason(SIZE));
  }
  assert.doesNotMatch(result.document, /<glyph/);
  assert.match(
    summaryText(result),
    /skipped: assets\/fonts\/icons\.svg \(an SVG image of [\d,]+ bytes, over 64 KB: image data, skipped by default: name it in "files"/,
  );
});

Deno.test("a large SVG named by its path, a glob that spells .svg or a build path is rendered", async () => {
  const root = await makeProject(TREE);
  const byPath = await built(root, { files: ["**", "assets/fonts/icons.svg"] });
  assert.equal(byPath.status.get("assets/fonts/icons.svg"), "rendered");
  assert.equal(byPath.status.get("assets/LOGO.SVG"), "skipped");
  const byGlob = await built(root, { files: ["src/**", "assets/**/*.{svg,SVG}"] });
  assert.equal(byGlob.status.get("assets/fonts/icons.svg"), "rendered");
  assert.equal(byGlob.status.get("assets/LOGO.SVG"), "rendered");
  // A folder or `**` does not name the files in it.
  const byFolder = await built(root, { files: ["assets/"] });
  assert.equal(byFolder.status.get("assets/fonts/icons.svg"), "skipped");
  const given = await built(root, undefined, { paths: ["assets/fonts/icons.svg"] });
  assert.equal(given.status.get("assets/fonts/icons.svg"), "rendered");
  assert.match(given.result.document, /<glyph/);
});

Deno.test("a warm build decides on a large SVG as the plain stages do, whichever config read it first", async () => {
  const named: SlopConfig = { files: ["**", "**/*.svg"] };
  const orders = [[undefined, named], [named, undefined]];
  const copies = await Promise.all(
    orders.map(() => Promise.all([TREE, TREE].map((tree) => makeProject(tree)))),
  );
  // Files changed less than RACY_MS before a build's read are read again by the next one.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  for (const [i, order] of orders.entries()) {
    // The same builds of two copies: the plain stages, and the speed layer with its stat index
    // (every file's record trusted from the second build on) and then a resident.
    const [plain, fast] = copies[i];
    const kept = resident();
    for (const [n, inline] of [...order, ...order, ...order].entries()) {
      const expected = await built(plain, inline, { plain: true });
      const got = await built(fast, inline, { kept: n >= 4 ? kept : undefined });
      assert.deepEqual(got.bytes, expected.bytes, `build ${n + 1}`);
      assert.equal(got.status.get("assets/fonts/icons.svg"), inline ? "rendered" : "skipped");
      assert.equal(got.status.get("assets/LOGO.SVG"), "skipped");
    }
    await kept.close();
  }
});
