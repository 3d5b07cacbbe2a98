import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCliShared, tempDir } from "../_helpers.ts";
import { buildContext } from "../../mod.ts";
import { computeStats } from "../../report/stats.ts";
import { groupDigits, renderReport } from "../../report/html.ts";
import { layoutTreemap, pathTree, squarify } from "../../report/_treemap.ts";
import type { Manifest } from "../../pipeline/types.ts";

const CHROMIUM = findChromium();
if (!CHROMIUM) console.log("tests/report: no chromium on PATH, skipping the browser test");

function findChromium(): string | undefined {
  for (const name of ["chromium", "chromium-browser"]) {
    for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
      try {
        if (Deno.statSync(join(dir, name)).isFile) return join(dir, name);
      } catch { /* not here */ }
    }
  }
  return undefined;
}

const PROJECT = {
  "slop.config.ts": `export default {
  files: ["src/**", "docs/**", { path: "docs/big.md", view: "summary" }],
  history: [{ role: "User", content: "Ship the report" }],
};
`,
  "src/app.ts": "export function main(): number {\n  return 42;\n}\n".repeat(100),
  "src/lib/util.ts": "export const answer = 42;\n",
  "docs/big.md": "# Big\n\n## One\n\ntext\n\n## Two\n\nmore text\n",
  "docs/<odd>&name.md": "# Escaped\n",
};

Deno.test({
  name: "slop report renders in headless Chromium without console errors and shows the totals",
  ignore: !CHROMIUM,
  async fn() {
    const root = await makeProject(PROJECT);
    await buildContext({ cwd: root }); // the state the command reads, built in this process
    const run = await runCliShared(["report", "--out", "report.html"], root);
    assert.equal(run.code, 0, run.stderr);
    const manifest: Manifest = JSON.parse(
      await Deno.readTextFile(join(root, ".slop/out/context_001.json")),
    );
    const profile = await tempDir({ prefix: "slop_chromium_" });
    const out = await new Deno.Command(CHROMIUM!, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        `--user-data-dir=${profile}`,
        "--enable-logging=stderr",
        "--v=0",
        "--dump-dom",
        `file://${join(root, "report.html")}`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dom = new TextDecoder().decode(out.stdout);
    const log = new TextDecoder().decode(out.stderr);
    await Deno.remove(profile, { recursive: true }).catch(() => {});
    assert.equal(out.code, 0, log);
    const consoleLines = log.split("\n").filter((l) => l.includes(":CONSOLE"));
    assert.deepEqual(consoleLines, [], "the page logs nothing to the console");
    assert.match(dom, /<body data-ready="true">/, "the inline script ran to the end");
    const total = /<b id="total-tokens" data-value="(\d+)">([\d,]+)<\/b>/.exec(dom);
    assert.equal(Number(total?.[1]), manifest.total.tokens);
    assert.equal(total?.[2], groupDigits(manifest.total.tokens));
    assert.match(dom, new RegExp(`<b id="total-bytes" data-value="${manifest.total.bytes}">`));
    assert.match(
      dom,
      /<tr data-path="docs\/big.md"><td>docs\/big.md<\/td><td><i [^>]*><\/i>summary/,
    );
    assert.match(dom, /data-path="docs\/&lt;odd&gt;&amp;name.md"/);
    assert.match(dom, /<g class="dir" data-path="src\/lib">/, "folders nest in the treemap");
  },
});

Deno.test("renderReport() is self-contained and byte-stable for the same stats", async () => {
  const root = await makeProject(PROJECT);
  const run = await runCliShared(["build", "--json", "--stdout"], root);
  const { manifest, document }: { manifest: Manifest; document: string } = JSON.parse(run.stdout);
  const stats = await computeStats(document, manifest);
  const a = renderReport(stats);
  assert.equal(a, renderReport(await computeStats(document, manifest)));
  assert.doesNotMatch(a, /(src|href)=["']?https?:/, "no network resources");
  assert.equal(stats.total.o200k, manifest.total.tokens);
  assert.equal(stats.prefix.tokens.o200k, manifest.prefix.tokens);
  assert.ok(stats.total.cl100k > 0);
  assert.match(a, /prefix end/);
  // What a reader sees (the text and the tooltips) groups its counts by thousands, as the
  // numbers at the top do: "Stable prefix 4818 bytes" read as another kind of number.
  const shown = [
    ...a.matchAll(/<p class="muted">(Stable prefix[^<]*)<\/p>|title="([^"]*)"|<title>([^<]*)</g),
  ].map((m) => m[1] ?? m[2] ?? m[3]);
  assert.ok(shown.some((t) => /^Stable prefix \d{1,3}(,\d{3})+ bytes/.test(t)), shown.join("\n"));
  assert.deepEqual(shown.filter((t) => /\d{4,}/.test(t)), []);
});

Deno.test("squarify() fills the rectangle with areas proportional to the weights", () => {
  const rect = { x: 0, y: 0, w: 300, h: 200 };
  const values = [6, 6, 4, 3, 2, 2, 1];
  const rects = squarify(values, rect);
  const total = values.reduce((a, b) => a + b, 0);
  rects.forEach((r, i) => {
    assert.ok(Math.abs(r.w * r.h - (values[i] / total) * 60000) < 1e-6);
    assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.w <= 300 + 1e-9 && r.y + r.h <= 200 + 1e-9);
  });
  const placed = layoutTreemap(
    pathTree([{ path: "a/b.ts", value: 2 }, { path: "a/c.ts", value: 1 }, { path: "d", value: 3 }]),
    { x: 0, y: 0, w: 400, h: 300 },
  );
  assert.deepEqual(placed.map((p) => [p.node.path, p.depth]), [
    ["a", 0],
    ["a/b.ts", 1],
    ["a/c.ts", 1],
    ["d", 0],
  ]);
});

Deno.test("the report marks cache breakpoints recorded in the manifest", async () => {
  const root = await makeProject(PROJECT);
  const run = await runCliShared(["build", "--json", "--stdout"], root);
  const { manifest, document } = JSON.parse(run.stdout);
  const first = manifest.blocks[1];
  manifest.breakpoints = [{ id: first.id }, manifest.prefix.bytes];
  const stats = await computeStats(document, manifest);
  assert.deepEqual(stats.breakpoints, [first.offset + first.length, manifest.prefix.bytes]);
  const html = renderReport(stats);
  assert.match(html, /title="cache breakpoint 1 at byte [\d,]+"><span>bp 1<\/span>/);
  assert.match(html, /<span>bp 2<\/span>/);
  assert.doesNotMatch(html, /No cache breakpoints recorded/);
});
