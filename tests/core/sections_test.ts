import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { parseHistory } from "../../plugins/sections/_history.ts";
import { renderHistory } from "../../plugins/sections/history.ts";
import { makeProject } from "../_helpers.ts";
import { png } from "../_images.ts";

Deno.test("parseHistory() reads JSONL and reports bad lines by number", async () => {
  const warnings: string[] = [];
  const entries = await parseHistory(
    '{"role":"User","content":"a"}\nnot json\n\n[1]\n{"role":"AI","content":"b"}\n',
    "h.jsonl",
    (w) => warnings.push(w),
  );
  assert.deepEqual(entries, [{ role: "User", content: "a" }, { role: "AI", content: "b" }]);
  assert.deepEqual(warnings, [
    'Skipped "h.jsonl" line 2: not valid JSON',
    'Skipped "h.jsonl" line 4: expected a string or { role, content }',
  ]);
});

Deno.test("parseHistory() reads TOML [[entries]] tables and history arrays", async () => {
  const warn = () => {};
  assert.deepEqual(
    await parseHistory(
      '[[entries]]\nrole = "User"\ncontent = "hi"\n\n[[entries]]\nrole = "AI"\ncontent = """\nhello\n"""\n',
      "d.toml",
      warn,
    ),
    [{ role: "User", content: "hi" }, { role: "AI", content: "hello\n" }],
  );
  assert.deepEqual(await parseHistory('history = ["User: a", "AI: b"]\n', "d.toml", warn), [
    "User: a",
    "AI: b",
  ]);
});

Deno.test("renderHistory() renders excerpts joined by separators, strings and messages alike", () => {
  assert.equal(
    renderHistory(["User: legacy  ", { role: "AI", content: "\n  new\n" }]),
    "### Discussion Excerpt 1\n\nUser: legacy\n\n---\n\n### Discussion Excerpt 2\n\nAI: new",
  );
});

Deno.test("the history section is volatile and the screenshots section lists images", async () => {
  const root = await makeProject({
    "a.ts": "a",
    "shots/b.png": png(2, 2),
    "shots/a b.png": png(2, 2),
  });
  const result = await buildContext({
    cwd: root,
    inline: {
      files: ["a.ts"],
      screenshots: ["shots/*.png", "missing.png"],
      history: [{ role: "User", content: "hi" }, "AI: yo"],
    },
  }, { write: false });
  assert.deepEqual(result.blocks.map((b) => [b.id, b.stability]), [
    ["files", "stable"],
    ["files:a.ts", "stable"],
    ["screenshots", "stable"],
    ["history", "volatile"],
    ["history:recent", "volatile"],
  ]);
  assert.match(
    result.document,
    /## Screenshots\n\n!\[missing.png\]\(missing.png\)\n!\[a b.png\]\(shots\/a%20b.png\)\n!\[b.png\]\(shots\/b.png\)\n\n/,
  );
  assert.deepEqual(result.warnings, ['Screenshot not found: "missing.png"']);
});
