import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject, readShownPath } from "../_helpers.ts";

// Characters that are invisible or change how a name reads: a file named "\u202Eexe.md" shows as
// "dm.exe" in a viewer that applies bidi; the document must show what the name really is.
const INVISIBLE = [
  "\u202e", // right-to-left override
  "\u202a", // left-to-right embedding
  "\u2066", // left-to-right isolate
  "\u2069", // pop directional isolate
  "\u200f", // right-to-left mark
  "\u061c", // Arabic letter mark
  "\u200b", // zero-width space
  "\u2060", // word joiner
  "\ufeff", // BOM
  "\u2028", // line separator
  "\u2029", // paragraph separator
  "\x85", // next line (C1)
  "\x1b", // escape (C0)
];

Deno.test("a file name's invisible and direction-changing characters are escaped in its heading", async () => {
  const tree: Record<string, string> = {};
  INVISIBLE.forEach((c, i) => (tree[`n${i}${c}txt.md`] = `${i}\n`));
  // Joiners are part of words (Persian) and emoji: they stay as they are.
  tree["\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.md"] = "fa\n";
  const root = await makeProject(tree);
  const result = await buildContext({ cwd: root }, { write: false });
  const headings = result.document.split("\n").filter((l) => l.startsWith("### "));
  assert.equal(headings.length, INVISIBLE.length + 1);
  INVISIBLE.forEach((c, i) => {
    const code = c.charCodeAt(0);
    const escape = code < 0x100
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u{${code.toString(16)}}`;
    assert.ok(headings.includes(`### n${i}${escape}txt.md`), `${escape}: ${headings}`);
  });
  for (const heading of headings) {
    assert.doesNotMatch(heading, new RegExp(`[${INVISIBLE.join("")}]`));
  }
  assert.ok(headings.includes("### \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.md"));
  // The manifest keeps the real path.
  assert.ok(result.manifest.files.some((f) => f.path === "n0\u202etxt.md"));
});

/** What CommonMark reads as an ATX heading's text: blanks trimmed, a closing `#` run dropped. */
function headingContent(line: string): string {
  return line.replace(/^ {0,3}#{1,6}(?=[ \t]|$)/, "").replace(/(?:^|[ \t]+)#+[ \t]*$/, "")
    .trim().replace(/\\([!-/:-@[-`{-~])/g, "$1");
}

Deno.test("a file name that starts or ends with spaces or ends with a run of # reads as itself in its heading, not as another name or none", async () => {
  const names = ["x", "x ", " x", "  x  ", " ", "#", "##", "notes #", "notes ##", "a#", "a # b"];
  const root = await makeProject(Object.fromEntries(names.map((n, i) => [n, `${i}\n`])));
  const result = await buildContext({ cwd: root }, { write: false });
  const headings = result.document.split("\n").filter((l) => l.startsWith("### "));
  const shown = new Map(headings.map((h) => [headingContent(h), h]));
  assert.equal(shown.size, names.length, `two headings read the same: ${headings.join(" | ")}`);
  assert.ok(!shown.has(""), "a heading reads as no name");
  assert.deepEqual(
    headings.toSorted(),
    [
      "### #",
      "### ##",
      "### \\x20",
      "### \\x20\\x20x\\x20\\x20",
      "### \\x20x",
      "### a # b",
      "### a#",
      "### notes \\##",
      "### notes \\#",
      "### x",
      "### x\\x20",
    ].map((h) => h.replace(/^### (#+)$/, "### \\$1")).toSorted(),
  );
});

Deno.test("a file name holding a backslash reads as itself in its heading and tree, never as the name its escape would be", async () => {
  // Each pair: a name with a real control character, space or mark, and one that spells its
  // escape with a backslash. Both must have their own heading that reads back as the name.
  const names = [
    ["a\nb", "a\\nb"],
    ["t\tb", "t\\tb"],
    ["x ", "x\\x20"],
    ["e\u202e", "e\\u{202e}"],
    ["n #", "n \\#"],
    ["q\\", "q\\\\"],
    ["s\\ ", "s\\\n"],
  ].flat();
  const root = await makeProject(Object.fromEntries(names.map((n, i) => [`d/${n}`, `${i}\n`])));
  const result = await buildContext({ cwd: root, inline: { tree: true } }, { write: false });
  const headings = result.document.split("\n").filter((l) => l.startsWith("### d/"));
  assert.deepEqual(
    headings.map((h) => readShownPath(h.slice(4))).toSorted(),
    names.map((n) => `d/${n}`).toSorted(),
  );
  const tree = result.document.split("## Directory Tree\n\n```\n")[1].split("```")[0];
  const listed = tree.split("\n").filter((l) => l.startsWith("  ")).map((l) =>
    readShownPath(l.slice(2))
  );
  assert.deepEqual(listed.toSorted(), names.toSorted());
});
