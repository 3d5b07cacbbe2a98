import assert from "node:assert/strict";
import {
  anchorSlice,
  resolveSlice,
  similarity,
  splitLines,
} from "../../plugins/view_modes/fuzzy_anchor.ts";
import { stdlibFile, topLevelDef } from "./_stdlib.ts";

// The base text is the machine's real textwrap.py; every case edits it the
// way a person would and checks where the slice of `def shorten` ends up.
const base = splitLines(await stdlibFile("textwrap.py"));
const [start, end] = topLevelDef(base, "shorten");
const slice = anchorSlice(base, start, end, { tag: "shorten" });
const original = base.slice(start - 1, end);

function linesOf(lines: string[], found: { startLine: number; endLine: number }): string[] {
  return lines.slice(found.startLine - 1, found.endLine);
}

Deno.test("anchorSlice() records the hash and three lines of context on each side", () => {
  assert.equal(slice.contentHash?.length, 64);
  assert.deepEqual(slice.anchorLines, [
    ...base.slice(start - 4, start - 1),
    ...base.slice(end, end + 3),
  ]);
  assert.throws(() => anchorSlice(base, 10, base.length + 1), /not inside the file/);
});

Deno.test("resolveSlice() finds an unchanged slice exactly where it was", () => {
  assert.deepEqual(resolveSlice(slice, base), { status: "exact", startLine: start, endLine: end });
});

Deno.test("resolveSlice() follows a slice moved down by lines inserted above it", () => {
  const edited = [...base];
  const importAt = edited.findIndex((l) => l.startsWith("import re"));
  edited.splice(importAt + 1, 0, "import sys", "import os", "");
  const found = resolveSlice(slice, edited);
  assert.equal(found.status, "moved");
  assert.equal(found.startLine, start + 3);
  assert.deepEqual(linesOf(edited, found), original);
});

Deno.test("resolveSlice() re-anchors an edited slice between its intact anchors", () => {
  const edited = [...base];
  const at = edited.findIndex((l, i) => i >= start - 1 && l.includes("w = TextWrapper("));
  edited.splice(at, 1, "    kwargs.setdefault('placeholder', ' [...]')", edited[at]);
  const found = resolveSlice(slice, edited);
  assert.equal(found.status, "re-anchored");
  assert.deepEqual([found.startLine, found.endLine], [start, end + 1]);
  assert.deepEqual(linesOf(edited, found), edited.slice(start - 1, end + 1));
  assert.ok(linesOf(edited, found).some((l) => l.includes("setdefault('placeholder'")));
});

Deno.test("resolveSlice() follows a function moved to the end of the file", () => {
  const edited = [...base];
  const moved = edited.splice(start - 1, end - start + 1 + 2); // the def and its two blank lines
  edited.push("", "", ...moved.slice(0, end - start + 1));
  const found = resolveSlice(slice, edited);
  assert.equal(found.status, "moved");
  assert.equal(found.endLine, edited.length);
  assert.deepEqual(linesOf(edited, found), original);
});

Deno.test("resolveSlice() calls a deleted slice stale and keeps its last known lines", () => {
  const edited = [...base];
  edited.splice(start - 1, end - start + 1);
  const found = resolveSlice(slice, edited);
  assert.equal(found.status, "stale");
  assert.deepEqual([found.startLine, found.endLine], [start, end]);
  assert.match(found.reason ?? "", /deleted/);
});

Deno.test("resolveSlice() picks the copy whose anchors agree among duplicate regions", () => {
  // A copy of the function pasted above `def fill`, nearer the old position
  // than the shifted original: the anchors say which one is the slice.
  const edited = [...base];
  const [fillStart] = topLevelDef(base, "fill");
  edited.splice(fillStart - 1, 0, ...original, "", "");
  const copyStart = fillStart;
  const originalStart = start + original.length + 2;
  assert.ok(Math.abs(copyStart - start) < Math.abs(originalStart - start));
  const found = resolveSlice(slice, edited);
  assert.equal(found.status, "moved");
  assert.equal(found.startLine, originalStart);
  assert.deepEqual(linesOf(edited, found), original);
});

Deno.test("resolveSlice() takes the nearest copy when duplicates are alike", () => {
  // The same block twice with the same surroundings: the copy at the old
  // position is taken, not the later one.
  const block = base.slice(start - 4, end + 3);
  const edited = [...base.slice(0, end + 3), ...block, ...base.slice(end + 3)];
  const found = resolveSlice(slice, edited);
  assert.deepEqual([found.status, found.startLine], ["exact", start]);
});

Deno.test("resolveSlice() re-anchors by similarity when an anchor line was edited too", () => {
  const edited = [...base];
  // Edit inside the slice (same length) and the comment line right below it.
  const at = edited.findIndex((l, i) => i >= start - 1 && l.includes("w = TextWrapper("));
  edited[at] = edited[at].replace("max_lines=1", "max_lines=1, break_on_hyphens=False");
  const below = slice.anchorLines!.length - 1; // last anchor: a line after the slice
  const belowAt = end + 2;
  assert.equal(edited[belowAt], slice.anchorLines![below]);
  edited[belowAt] = edited[belowAt].replace("Loosely related", "Loosely-related");
  const found = resolveSlice(slice, edited);
  assert.equal(found.status, "re-anchored");
  assert.deepEqual([found.startLine, found.endLine], [start, end]);
  assert.match(found.reason ?? "", /similar/);
});

Deno.test("resolveSlice() says stale when its anchors are too alike to choose", () => {
  // Two places match the anchors equally well: no choice is made.
  const text = ["}", "", "x = 1", "}", "", "}", "", "y = 2", "}", "", "}"];
  const s = anchorSlice(text, 3, 3);
  const edited = ["}", "", "x = 10", "}", "", "}", "", "x = 10", "}", "", "}"];
  const found = resolveSlice(s, edited);
  assert.equal(found.status, "stale");
});

Deno.test("resolveSlice() keeps slices without a content hash at their line numbers", () => {
  assert.deepEqual(resolveSlice({ startLine: 2, endLine: 3 }, ["a"]), {
    status: "unanchored",
    startLine: 2,
    endLine: 3,
  });
});

Deno.test("similarity() is 1 for equal lines and high for small edits", () => {
  assert.equal(similarity("abc", "abc"), 1);
  assert.ok(similarity("# -- Loosely related", "# -- Loosely-related") > 0.8);
  assert.ok(similarity("def wrap(text):", "return None") < 0.3);
});
