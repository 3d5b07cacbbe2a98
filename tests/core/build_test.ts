import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { fixture, raw, snapshotPath, tempDir } from "../_helpers.ts";

const snapshots = snapshotPath(import.meta.url);

async function buildBasic(stateDir?: string) {
  return await buildContext(
    {
      config: join(fixture("basic"), "slop.config.ts"),
      stateDir: stateDir ?? await tempDir(),
    },
    { write: false },
  );
}

Deno.test("build() snapshot: the stable prefix of the basic fixture is byte-exact", async (t) => {
  const result = await buildBasic();
  const prefix = new TextDecoder().decode(
    new TextEncoder().encode(result.document).subarray(0, result.manifest.prefix.bytes),
  );
  await t.assertSnapshot(prefix, { serializer: raw, path: snapshots });
});

Deno.test("build() snapshot: the whole manifest of the basic fixture", async (t) => {
  const result = await buildBasic();
  await t.assertSnapshot(JSON.stringify(result.manifest, null, 2), {
    serializer: raw,
    path: snapshots,
  });
});

Deno.test("build() renders every view and reports every file status", async () => {
  const { files, document } = await buildBasic();
  const byPath = Object.fromEntries(files.map((f) => [f.path, f]));
  assert.equal(byPath["src/app.py"].view, "full");
  assert.equal(byPath["src/big_module.py"].view, "summary");
  assert.match(
    document,
    /### src\/big_module.py\n\n\*\*Python\*\*, 18 lines\n- classes: `Reader`, `Writer`/,
  );
  assert.equal(byPath["docs/excluded.md"].view, "none");
  assert.match(document, /### docs\/excluded.md\n\n\(context excluded\)\n\n/);
  assert.equal(byPath["docs/hidden.md"].status, "skipped");
  assert.equal(byPath["docs/hidden.md"].reason, "autoAggregate is false");
  assert.doesNotMatch(document, /docs\/hidden.md/);
  assert.match(
    document,
    /### docs\/guide.md\n\n```markdown\n---\n\[Slice: install\] \(how to install\)\nLines 3-4:\nInstall with `deno task install`.\nThen run `deno task context`.\n```\n/,
  );
  assert.equal(byPath["missing/file.py"].status, "error");
  assert.match(document, /ERROR: file not found: missing\/file.py/);
  assert.equal(byPath["logo.png"].status, "skipped");
  assert.equal(byPath["logo.png"].reason, "binary file");
  assert.equal(byPath["docs/session_history.toml"], undefined, "history files are blacklisted");
});

Deno.test("build() sizes each code fence beyond the backtick runs inside the file", async () => {
  const { document } = await buildBasic();
  assert.match(document, /### src\/fenced.md\n\n````markdown\n# Fences\n/);
  assert.match(document, /### src\/app.py\n\n```python\n/);
});

Deno.test("build() puts files, then screenshots, then history, and the prefix ends at history", async () => {
  const { document, manifest } = await buildBasic();
  const files = document.indexOf("## Files\n");
  const shots = document.indexOf("## Screenshots\n\n![home.png](shots/home.png)\n");
  const history = document.indexOf("## Discussion History\n");
  assert.ok(files === 0 && files < shots && shots < history);
  assert.equal(new TextEncoder().encode(document.slice(0, history)).length, manifest.prefix.bytes);
  assert.match(
    document,
    /### Discussion Excerpt 1\n\nUser: Explain greet\(\).\n\n---\n\n### Discussion Excerpt 2\n\nAI: It formats a greeting.\n/,
  );
});

Deno.test("build() block offsets and lengths tile the document exactly", async () => {
  const { document, blocks, manifest } = await buildBasic();
  const bytes = new TextEncoder().encode(document);
  let offset = 0;
  for (const block of manifest.blocks) {
    assert.equal(block.offset, offset);
    offset += block.length;
  }
  assert.equal(offset, bytes.length);
  assert.equal(blocks.map((b) => b.text).join(""), document);
  assert.ok(manifest.blocks.every((b) => b.tokens > 0));
});

Deno.test("build() with strategy summarize renders every file as a summary under its heading", async () => {
  const result = await buildContext(
    {
      config: join(fixture("basic"), "slop.config.ts"),
      stateDir: await tempDir(),
      strategy: "summarize",
    },
    { write: false },
  );
  assert.ok(result.document.startsWith("## Files (Summary)\n\n"));
  const rendered = result.files.filter((f) => f.status === "rendered");
  assert.ok(rendered.every((f) => f.view === "summary" || f.path === "src/fenced.md"));
  assert.equal(
    result.files.find((f) => f.path === "src/fenced.md")?.view,
    "full",
    "forceFull wins",
  );
});
