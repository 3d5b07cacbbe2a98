import assert from "node:assert/strict";
import {
  closesFence,
  type Fence,
  markdownLines,
  openingFence,
  unclosedFence,
} from "../../plugins/markdown_fences.ts";
import { closeFences, nestedMarkdown } from "../../plugins/sections/_render.ts";
import { markdownHeadings } from "../../plugins/view_modes/_markdown_headings.ts";

const BACKTICKS: Fence = { char: "`", length: 3 };
const TILDES: Fence = { char: "~", length: 3 };

Deno.test("a fence opens after up to three spaces, never after a tab or four spaces", () => {
  assert.deepEqual(openingFence("```"), BACKTICKS);
  assert.deepEqual(openingFence("   ```ts"), BACKTICKS);
  assert.deepEqual(openingFence("~~~~~"), { char: "~", length: 5 });
  for (const line of ["    ```", "\t```", " \t~~~", "``", "~~", "`~~", "a ```", ">```"]) {
    assert.equal(openingFence(line), undefined, JSON.stringify(line));
  }
});

Deno.test("a backtick fence's info string holds no backtick; a tilde fence's may", () => {
  assert.equal(openingFence("```a`b"), undefined);
  assert.equal(openingFence("``` `"), undefined);
  assert.equal(openingFence("```` x ``"), undefined);
  assert.deepEqual(openingFence("~~~a`b`"), TILDES);
  // Any character but a line ending may follow, U+2028 included.
  assert.deepEqual(openingFence("```js\u2028x"), BACKTICKS);
  assert.deepEqual(openingFence("~~~ \u00a0"), TILDES);
});

Deno.test("a fence closes on the same character, at least as long, with only spaces and tabs after", () => {
  assert.ok(closesFence(BACKTICKS, "```"));
  assert.ok(closesFence(BACKTICKS, "   `````"));
  assert.ok(closesFence(BACKTICKS, "``` \t "));
  assert.ok(closesFence(TILDES, "~~~~"));
  assert.ok(closesFence({ char: "`", length: 5 }, "`````"));
  for (
    const [fence, line] of [
      [BACKTICKS, "~~~"],
      [TILDES, "```"],
      [{ char: "`", length: 4 }, "```"],
      [BACKTICKS, "    ```"],
      [BACKTICKS, "\t```"],
      [BACKTICKS, "``` js"],
      [BACKTICKS, "```\u00a0"],
      [BACKTICKS, "```\f"],
      [TILDES, "~~~ ~"],
    ] as Array<[Fence, string]>
  ) assert.equal(closesFence(fence, line), false, JSON.stringify([fence, line]));
});

Deno.test("lines end at LF, CRLF and a lone CR, and join back to the text", () => {
  const text = "a\r\n```\rb\n\r\n```\r";
  const lines = markdownLines(text);
  assert.deepEqual(lines, ["a", "\r\n", "```", "\r", "b", "\n", "", "\r\n", "```", "\r", ""]);
  assert.equal(lines.join(""), text);
  assert.equal(unclosedFence(text), undefined);
  assert.deepEqual(unclosedFence("```\r\ncode\r\n"), BACKTICKS);
});

Deno.test("a fence left open runs to the end of the text", () => {
  assert.deepEqual(unclosedFence("see:\n````ts\nlet a\n```\n"), { char: "`", length: 4 });
  assert.deepEqual(unclosedFence("~~~\n```\n"), TILDES);
  assert.deepEqual(unclosedFence("```"), BACKTICKS);
  assert.equal(unclosedFence("```\n~~~\n```\n"), undefined);
  assert.deepEqual(unclosedFence("```\n~~~\n```\n~~~"), TILDES);
  assert.equal(unclosedFence("no fence ``` here"), undefined);
});

// The three readers of markdown (the fence closer, the nesting of a view's markdown and the
// summary's heading list) see the same fences: a `# h` line after each case is code or heading
// for all three alike.
const CASES: Array<[text: string, inside: boolean]> = [
  ["```\ncode\n```\n", false],
  ["```\ncode\n```\u00a0\n", true],
  ["```\r\ncode\r\n```\r\n", false],
  ["```\rcode\r```\r", false],
  ["```\rcode\r", true],
  ["   ~~~~\ncode\n~~~~~~\n", false],
  ["````\ncode\n```\n", true],
  ["~~~\ncode\n```\n", true],
  ["```a`b\n", false],
  ["\t```\n", false],
  ["```js\u2028x\n", true],
  ["```\ncode\n``` x\n", true],
  ["```\ncode\n```\t \n", false],
];

Deno.test("the fence closer, the view nesting and the heading list read the same fences", () => {
  for (const [prefix, inside] of CASES) {
    const text = `${prefix}# h`;
    const label = JSON.stringify(text);
    assert.equal(unclosedFence(text) !== undefined, inside, label);
    assert.equal(closeFences(text) !== text, inside, label);
    // Inside a fence the heading stays as it is and the fence is closed after it.
    const nested = inside ? closeFences(text) : text.replace(/# h$/, "#### h");
    assert.equal(nestedMarkdown(text), nested, label);
    assert.deepEqual(markdownHeadings(text), inside ? [] : [[1, "h"]], label);
  }
});

Deno.test("a closed fence is closed once, with the opening run, after the last line", () => {
  assert.equal(closeFences("see:\n````ts\nlet a\n\n"), "see:\n````ts\nlet a\n````");
  assert.equal(closeFences("~~~~~"), "~~~~~\n~~~~~");
  assert.equal(nestedMarkdown("# a\n~~~js\n# b"), "#### a\n~~~js\n# b\n~~~");
  // The line endings of the text are kept.
  assert.equal(
    nestedMarkdown("# a\r\n~~~\r\n# b\r\n~~~\r\n## c"),
    "#### a\r\n~~~\r\n# b\r\n~~~\r\n##### c",
  );
});
