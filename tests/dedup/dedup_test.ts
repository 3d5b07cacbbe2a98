import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { buildContext } from "../../mod.ts";
import { dedupText } from "../../pipeline/dedup.ts";
import { fixture, makeProject } from "../_helpers.ts";

// A real PNG from the fixtures, as a data URL the way a markdown file or a
// tool response carries it.
const png = await Deno.readFile(`${fixture("basic")}/logo.png`);
const b64 = Buffer.from(png).toString("base64");
const sha = createHash("sha256").update(png).digest("hex");
const reference = `[data:image/png;base64, ${png.length} bytes, sha256 ${sha.slice(0, 12)}…]`;
const doc = `# Report\n\nThe logo:\n\n![logo](data:image/png;base64,${b64})\n\nEnd.\n`;

Deno.test("a real PNG data URL in a file becomes a short reference listed in the manifest", async () => {
  const root = await makeProject({ "docs/report.md": doc });
  const build = () => buildContext({ cwd: root, inline: { files: ["docs/**"] } }, { write: false });
  const result = await build();
  assert.ok(result.document.includes(`![logo](${reference})\n`));
  assert.ok(!result.document.includes(b64.slice(0, 100)));
  assert.deepEqual(result.manifest.files[0].notes, [
    `dedup: line 5: data:image/png;base64 (${png.length} bytes, sha256 ${sha}) replaced by a reference`,
  ]);
  // The reference depends only on the content: the prefix is the same on every build.
  assert.equal((await build()).manifest.prefix.sha256, result.manifest.prefix.sha256);
});

Deno.test("dedup: false keeps a file's data URL verbatim", async () => {
  const root = await makeProject({ "docs/report.md": doc });
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "docs/report.md", dedup: false }] },
  }, { write: false });
  assert.ok(result.document.includes(`data:image/png;base64,${b64})`));
  assert.equal(result.manifest.files[0].notes, undefined);
});

Deno.test("dedupText() replaces wrapped and inline base64 blobs but not small or hex runs", () => {
  const wrapped = b64.match(/.{1,76}/g)!.join("\n");
  const hex = "ab12".repeat(400);
  const small = `data:image/png;base64,${b64.slice(0, 200)}`;
  const text = `cert:\n${wrapped}\n\nconst blob = "${b64}";\n${hex}\n${small}\n`;
  const { text: out, replacements } = dedupText(text);
  const ref = `[base64, ${png.length} bytes, sha256 ${sha.slice(0, 12)}…]`;
  assert.equal(out, `cert:\n${ref}\n\nconst blob = "${ref}";\n${hex}\n${small}\n`);
  assert.deepEqual(replacements.map((r) => [r.kind, r.line, r.bytes, r.sha256]), [
    ["base64", 2, png.length, sha],
    ["base64", 2 + wrapped.split("\n").length + 1, png.length, sha],
  ]);
});

Deno.test("data URLs in discussion history become references listed on the history block", async () => {
  const root = await makeProject({
    "a.md": "# A\n",
    "chat.jsonl": [
      { role: "User", content: "Here is the chart." },
      { role: "AI", content: `Rendered: data:image/png;base64,${b64}` },
    ].map((m) => JSON.stringify(m)).join("\n") + "\n",
  });
  const result = await buildContext({
    cwd: root,
    inline: { files: ["a.md"], history: "chat.jsonl" },
  }, { write: false });
  assert.ok(result.document.includes(`AI: Rendered: ${reference}\n`));
  const history = result.manifest.blocks.find((b) => b.id === "history")!;
  assert.deepEqual(history.notes, [
    `dedup: message 2, line 1: data:image/png;base64 (${png.length} bytes, sha256 ${sha}) replaced by a reference`,
  ]);
});

Deno.test("a notebook's images wrapped inside JSON strings and lists become references in its full view", async () => {
  const lines = b64.match(/.{1,76}/g)!;
  const ref = (kind: string) => `[${kind}, ${png.length} bytes, sha256 ${sha.slice(0, 12)}…]`;
  const output = (data: Record<string, unknown>) => ({
    output_type: "display_data",
    data,
    metadata: {},
  });
  const notebook = {
    cells: [
      {
        cell_type: "markdown",
        metadata: {},
        source: ["![a](attachment:a.png)"],
        attachments: { "a.png": { "image/png": lines.map((l) => l + "\n") } },
      },
      {
        cell_type: "code",
        metadata: {},
        source: ["plot()"],
        execution_count: 1,
        outputs: [
          output({ "image/png": lines.join("\n") + "\n", "text/plain": ["<Figure>"] }),
          output({ "image/jpeg": lines.join("\r\n") }),
          output({ "text/html": [`<img src="data:image/png;base64,${lines.join("\n")}">`] }),
          // Lines of one width that are no blob (no digit) stay as they are.
          output({ "text/plain": Array.from({ length: 30 }, () => "x".repeat(60) + "\n") }),
        ],
      },
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  };
  const text = JSON.stringify(notebook, null, 1) + "\n";
  const root = await makeProject({ "book.ipynb": text });
  // Its JSON, asked for: a notebook the config gives no view is shown as its cells.
  const inline = { files: [{ path: "book.ipynb", view: "full" }] };
  const result = await buildContext({ cwd: root, inline }, { write: false });
  const document = result.document;
  for (const line of lines.slice(0, -1)) assert.ok(!document.includes(line), line);
  assert.ok(
    document.includes(`"a.png": {\n     "image/png": [\n      "${ref("base64")}\\n"\n     ]`),
  );
  assert.ok(document.includes(`"image/png": "${ref("base64")}\\n",`));
  assert.ok(document.includes(`"image/jpeg": "${ref("base64")}"\n`));
  assert.ok(document.includes(`<img src=\\"${ref("data:image/png;base64")}\\">`));
  assert.ok(document.includes(`"${"x".repeat(60)}\\n",`));
  assert.deepEqual(
    result.manifest.files[0].notes?.map((n) => n.replace(/^dedup: line \d+: /, "")),
    [...Array(3).fill("base64"), "data:image/png;base64"].map((kind) =>
      `${kind} (${png.length} bytes, sha256 ${sha}) replaced by a reference`
    ),
  );
});
