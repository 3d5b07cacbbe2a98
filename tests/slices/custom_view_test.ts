import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { anchorSlice, splitLines } from "../../plugins/view_modes/fuzzy_anchor.ts";
import { formatSlices, parseSlices } from "../../pipeline/slices_file.ts";
import { makeProject, runCliShared } from "../_helpers.ts";
import { stdlibFile, topLevelDef } from "./_stdlib.ts";

const text = await stdlibFile("textwrap.py");
const base = splitLines(text);
const [start, end] = topLevelDef(base, "shorten");
const [dStart, dEnd] = topLevelDef(base, "dedent");

Deno.test("custom view re-anchors side-file slices and marks a deleted one stale", async () => {
  const slices = [
    { path: "textwrap.py", ...anchorSlice(base, start, end, { tag: "shorten" }) },
    { path: "textwrap.py", ...anchorSlice(base, dStart, dEnd, { tag: "dedent", comment: "c" }) },
  ];
  const edited = [...base];
  edited.splice(dStart - 1, dEnd - dStart + 1); // dedent deleted
  edited.splice(2, 0, "# a new comment", "# and another"); // shorten moved down by 2
  const root = await makeProject({
    "textwrap.py": edited.join("\n") + "\n",
    "slop/slices.toml": await formatSlices(slices),
  });
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "textwrap.py", view: "custom" }] },
  }, { write: false });
  const file = result.files[0];
  assert.equal(file.view, "custom");
  assert.match(
    result.document,
    new RegExp(`\\[Slice: shorten\\]\\nLines ${start + 2}-${end + 2}:\\ndef shorten\\(`),
  );
  assert.match(
    result.document,
    new RegExp(`\\[Slice: dedent\\] \\(c\\)\\nStale slice: last known lines ${dStart}-${dEnd};`),
  );
  assert.doesNotMatch(result.document, /def dedent/);
  assert.deepEqual(file.notes, [
    `slice "shorten" ${start}-${end}: moved to ${start + 2}-${end + 2} (same content)`,
    `slice "dedent" ${dStart}-${dEnd}: stale (its lines were deleted (the lines around it are now adjacent)), last known lines ${dStart}-${dEnd}`,
  ]);
  assert.deepEqual(result.manifest.files[0].notes, file.notes);
});

Deno.test("custom view re-anchors config-entry slices, edited in place", async () => {
  const slice = anchorSlice(base, start, end, { tag: "shorten" });
  const edited = [...base];
  edited.splice(start, 0, '    """One more docstring line."""');
  const root = await makeProject({ "textwrap.py": edited.join("\n") + "\n" });
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "textwrap.py", view: "custom", slices: [slice] }] },
  }, { write: false });
  assert.match(result.document, new RegExp(`Lines ${start}-${end + 1}:\\n`));
  assert.match(result.document, /One more docstring line/);
  assert.deepEqual(result.files[0].notes, [
    `slice "shorten" ${start}-${end}: re-anchored to ${start}-${
      end + 1
    } (content changed, anchors intact)`,
  ]);
});

Deno.test("parseSlices() reads the seed's snake_case keys and names bad ones", async () => {
  const slices = await parseSlices(
    '[[slices]]\npath = "a.py"\nstart_line = 2\nend_line = 3\ntag = "t"\ncontent_hash = "h"\nanchor_lines = ["x"]\n',
    "slop/slices.toml",
  );
  assert.deepEqual(slices, [{
    path: "a.py",
    startLine: 2,
    endLine: 3,
    tag: "t",
    contentHash: "h",
    anchorLines: ["x"],
  }]);
  assert.deepEqual(await parseSlices(await formatSlices(slices), "x.toml"), slices);
  await assert.rejects(
    () => parseSlices('[[slices]]\npath = "a.py"\nstart_line = 2\nend_lin = 3\n', "s.toml"),
    /Invalid slices file "s.toml": Unknown key "slices\[0\].end_lin"/,
  );
  await assert.rejects(
    () => parseSlices('[[slices]]\npath = "a.py"\nstart_line = 0\nend_line = 3\n', "s.toml"),
    /"slices\[0\].start_line" must be a whole number of at least 1/,
  );
});

Deno.test("slop slice add, list and refresh maintain slop/slices.toml", async () => {
  const root = await makeProject({
    "textwrap.py": text,
    "slop.config.ts": 'export default { files: [{ path: "textwrap.py", view: "custom" }] };\n',
  });
  const add = await runCliShared(
    ["slice", "add", `textwrap.py:${start}-${end}`, "--tag", "shorten", "--comment", "helper"],
    root,
  );
  assert.equal(add.code, 0, add.stderr);
  assert.match(add.stdout, /added slice textwrap.py:\d+-\d+ "shorten" in slop\/slices.toml/);
  const toml = await Deno.readTextFile(join(root, "slop/slices.toml"));
  assert.match(toml, new RegExp(`start_line = ${start}\\nend_line = ${end}\\ntag = "shorten"`));
  assert.match(toml, /content_hash = "[0-9a-f]{64}"/);
  assert.match(toml, /anchor_lines = \[/);

  const bad = await runCliShared(["slice", "add", "textwrap.py:9-99999"], root);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /"textwrap.py" has \d+ lines/);

  // Lines inserted above: moved; refresh rewrites it; then it is exact again.
  await Deno.writeTextFile(join(root, "textwrap.py"), "# one\n# two\n" + text);
  const list = await runCliShared(["slice", "list"], root);
  assert.match(
    list.stdout,
    new RegExp(`textwrap.py:${start}-${end} +moved +-> ${start + 2}-${end + 2}  "shorten"`),
  );
  const refresh = await runCliShared(["slice", "refresh"], root);
  assert.equal(refresh.code, 0, refresh.stderr);
  assert.match(refresh.stdout, /refreshed 1 slice in slop\/slices.toml/);
  const json = JSON.parse((await runCliShared(["slice", "list", "--json"], root)).stdout);
  assert.equal(json.length, 1);
  assert.equal(json[0].found.status, "exact");
  assert.equal(json[0].slice.startLine, start + 2);
  assert.equal(json[0].slice.comment, "helper");
});

Deno.test("a slices side file that cannot be parsed is a warning, not a failed build", async () => {
  const root = await makeProject({
    "textwrap.py": text,
    "slop/slices.toml": '[[slices]]\npath = "textwrap.py"\nstart_line = "ten"\nend_line = 3\n',
  });
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "textwrap.py", view: "custom" }] },
  }, { write: false });
  assert.deepEqual(result.warnings, [
    'Invalid slices file "slop/slices.toml": "slices[0].start_line" must be a whole number of at least 1, got "ten"',
  ]);
  assert.equal(result.files[0].view, "summary");
});
