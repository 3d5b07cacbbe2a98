import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

// Names whose first characters would open a block of their own at the start of a list item's
// text: a heading, a code fence (which swallows the lines after it), a quote, a nested list, a
// numbered item, an HTML block.
const NAMES = [
  "## Files.md",
  "```x.py",
  "~~~y.py",
  "> q.md",
  "- d.md",
  "+ p.md",
  "1. n.md",
  "<div>.md",
];

Deno.test("the task's list of files shows every odd name as the text of its own list item", async () => {
  const tree = Object.fromEntries(NAMES.map((n) => [n, "retry the upload on timeout\n"]));
  const root = await makeProject({ ...tree, "other.md": "unrelated\n" });
  const result = await buildContext({
    cwd: root,
    inline: { task: "retry the upload on timeout" },
  }, { write: false });
  const list = result.document.slice(
    result.document.indexOf("Also relevant, most relevant first:"),
  );
  const items = list.split("\n").filter((l) => l.startsWith("- "));
  assert.equal(items.length, NAMES.length, list);
  for (const item of items) {
    const text = item.slice(2);
    // What follows `- ` opens no block: a backslash escapes its first character, or the `.` of a
    // leading number.
    assert.doesNotMatch(text, /^(?:[`~>+*=_|<[-]|#{1,6}(?:[ \t]|$)|\d{1,9}[.)])/, item);
    assert.match(text, / \(full, in the map above\)$/, item);
  }
  const shown = items.map((i) =>
    i.slice(2, -" (full, in the map above)".length).replace(/\\/g, "")
  );
  assert.deepEqual(shown.sort(), [...NAMES].sort());
});
