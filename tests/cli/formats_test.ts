import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCliShared } from "../_helpers.ts";
import type { Manifest } from "../../pipeline/types.ts";

const PROJECT = {
  "slop.config.ts": `export default {
  files: ["src/**"],
  history: [{ role: "User", content: "hello <there> & welcome" }],
  tree: true,
};
`,
  "src/a.ts": "export const a = 1 < 2;\n",
  "src/deep/b.py": "def b():\n    return '```'\n",
};

async function built(format: string) {
  const root = await makeProject(PROJECT);
  const run = await runCliShared(["build", "-q", "--format", format], root);
  assert.equal(run.code, 0, run.stderr);
  return root;
}

const encoder = new TextEncoder();

function blockTexts(document: string, manifest: Manifest): string[] {
  const bytes = encoder.encode(document);
  const decoder = new TextDecoder();
  return manifest.blocks.map((b) => decoder.decode(bytes.subarray(b.offset, b.offset + b.length)));
}

Deno.test("--format xml writes the documents-in-tags layout with valid block offsets", async () => {
  const root = await built("xml");
  const document = await Deno.readTextFile(join(root, ".slop/out/context_001.xml"));
  const manifest: Manifest = JSON.parse(
    await Deno.readTextFile(join(root, ".slop/out/context_001.json")),
  );
  assert.equal(manifest.output, ".slop/out/context_001.xml");
  assert.equal(encoder.encode(document).length, manifest.total.bytes);
  const texts = blockTexts(document, manifest);
  assert.equal(texts.join(""), document, "blocks tile the document");
  // The volatility order decides which file comes first; a.ts keeps its own text either way.
  const a = texts.findIndex((t) => t.includes("<source>src/a.ts</source>"));
  assert.equal(
    texts[a].replace(/<\/documents>\n$/, ""),
    `<document index="${a}">\n<source>src/a.ts</source>\n<view>full</view>\n` +
      "<document_content>\nexport const a = 1 < 2;\n</document_content>\n</document>\n",
  );
  assert.ok(document.startsWith('<documents>\n<document index="1">'));
  assert.match(document, /<\/document>\n<\/documents>\n<tree>\n## Directory Tree/);
  assert.ok(document.endsWith("</history>\n"));
  const prefix = document.slice(0, manifest.prefix.bytes);
  assert.ok(prefix.endsWith("</documents>\n"), "the stable prefix ends after the files");
});

Deno.test("--format json writes one JSON document whose blocks keep their offsets", async () => {
  const root = await built("json");
  const document = await Deno.readTextFile(join(root, ".slop/out/context_001.doc.json"));
  const manifest: Manifest = JSON.parse(
    await Deno.readTextFile(join(root, ".slop/out/context_001.json")),
  );
  const parsed = JSON.parse(document);
  assert.equal(parsed.format, "slop");
  assert.deepEqual(
    parsed.blocks.map((b: { id: string }) => b.id),
    manifest.blocks.map((b) => b.id),
  );
  const b = parsed.blocks.find((x: { id: string }) => x.id === "files:src/deep/b.py");
  assert.deepEqual(
    { path: b.path, view: b.view, language: b.language, content: b.content },
    { path: "src/deep/b.py", view: "full", language: "python", content: PROJECT["src/deep/b.py"] },
  );
  const texts = blockTexts(document, manifest);
  assert.equal(texts.join(""), document);
  const second = manifest.blocks[2].id.replaceAll("/", "\\/");
  assert.match(texts[2], new RegExp(`^,\\n\\{"id":"${second}"`));
});

Deno.test("the tree section is off by default and volatile after the files when on", async () => {
  const root = await makeProject({ ...PROJECT, "slop.config.ts": `export default {};\n` });
  const off = await runCliShared(["build", "--stdout"], root);
  assert.doesNotMatch(off.stdout, /Directory Tree/);
  const on = await runCliShared(["build", "--stdout", "--json"], await built("markdown"));
  const { manifest, document }: { manifest: Manifest; document: string } = JSON.parse(on.stdout);
  assert.ok(
    document.includes("## Directory Tree\n\n```\nsrc/\n  a.ts\n  deep/\n    b.py\n```\n\n"),
  );
  const ids = manifest.blocks.map((b) => `${b.id}:${b.stability}`);
  assert.deepEqual(ids.slice(-3), [
    "tree:volatile",
    "history:volatile",
    "history:recent:volatile",
  ]);
  assert.ok(manifest.prefix.bytes < document.indexOf("## Directory Tree") + 1);
});

Deno.test("slop build rejects an unknown --format", async () => {
  const root = await makeProject({ "a.ts": "a" });
  const run = await runCliShared(["build", "--format", "yaml"], root);
  assert.equal(run.code, 2);
  assert.equal(run.stderr.trim(), 'slop: Invalid --format "yaml": expected markdown, xml or json');
});

Deno.test("output.format in the config picks the format and --format overrides it", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["a.ts"], output: { format: "xml" } };\n`,
    "a.ts": "export {};\n",
  });
  assert.equal((await runCliShared(["build", "-q"], root)).code, 0);
  assert.ok(
    (await Deno.readTextFile(join(root, ".slop/out/context_001.xml"))).startsWith("<documents>"),
  );
  assert.equal((await runCliShared(["build", "-q", "--format", "markdown"], root)).code, 0);
  const md = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  assert.ok(md.startsWith("## Files\n"));
});

Deno.test("treeSection({ enabled: true }) in plugins turns the tree on without the config key", async () => {
  const root = await makeProject({
    "slop.config.ts": `import { treeSection } from "${
      new URL("../../mod.ts", import.meta.url).href
    }";\nexport default { files: ["a.ts"], plugins: [treeSection({ enabled: true })] };\n`,
    "a.ts": "export {};\n",
  });
  const run = await runCliShared(["build", "--stdout"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(run.stdout.endsWith("## Directory Tree\n\n```\na.ts\n```\n\n"));
});

Deno.test("slop explain says when the two builds have different formats", async () => {
  const root = await makeProject({ "src/a.ts": "export const a = 1;\n" });
  assert.equal((await runCliShared(["build", "-q"], root)).code, 0);
  assert.equal((await runCliShared(["build", "-q", "--format", "xml"], root)).code, 0);
  const run = await runCliShared(["explain"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /\n {2}formats differ: #001 is markdown, #002 is xml \(each format has its own bytes, so they share no cache\)\n/,
  );
  const json = JSON.parse((await runCliShared(["explain", "--json"], root)).stdout);
  assert.deepEqual(json.formats, ["markdown", "xml"]);
  // Same format: no such line.
  assert.equal((await runCliShared(["build", "-q", "--format", "xml"], root)).code, 0);
  const same = await runCliShared(["explain"], root);
  assert.doesNotMatch(same.stdout, /formats differ/);
});
