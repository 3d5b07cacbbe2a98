import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { codeText } from "../../plugins/view_modes/_summary_blanks.ts";
import { prng } from "../_helpers.ts";

// The expressions the summary view used before it read these forward once: its results must not
// change on text where they finish.
const C_FUNCTION =
  /^(?!\s|#|\/|typedef|return|if|else|for|while|switch)[A-Za-z_][\w\s*&:<>,]*?\b([A-Za-z_~][\w:~]*)\s*\([^;]*$/gm;
/** The words the summary no longer takes for a C function's name. */
const STATEMENT_WORDS = new Set(["if", "for", "while", "switch", "return", "sizeof", "do", "case"]);
const JS_IMPORT = /^import\s[^'"]*?['"]([^'"]+)['"]/gm;
const INI_KEY = /^\s*(?:\[+([^\]]+)\]+|([A-Za-z0-9_.-]+)\s*=)/gm;
const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/gm;

/** A text of `parts` pieces drawn from `pieces`. */
function texts(seed: number, pieces: string[], count: number): string[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => {
    let text = "";
    const parts = 1 + Math.floor(random() * 24);
    for (let i = 0; i < parts; i++) text += pieces[Math.floor(random() * pieces.length)];
    return text;
  });
}

/** A name as the summary shows it: inline code, with line breaks and controls as escapes. */
function span(name: string): string {
  const escapes: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
  const flat = name.replace(
    // deno-lint-ignore no-control-regex
    /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g,
    (c) => escapes[c] ?? `\\u{${c.charCodeAt(0).toString(16)}}`,
  );
  return `\`${flat}\``;
}

/** Assert that a summary lists exactly `names` (trimmed, unique) as `kind`. */
function assertListed(summary: string, kind: string, names: string[], text: string): boolean {
  const unique = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  const row = `\n- ${kind}: ${unique.map(span).join(", ")}`;
  if (unique.length) assert.ok(summary.includes(row), JSON.stringify({ text, summary, row }));
  else assert.ok(!summary.includes(`\n- ${kind}: `), JSON.stringify({ text, summary }));
  return unique.length > 0;
}

Deno.test("summary lists the C functions the old expression found", () => {
  const pieces = [
    "int",
    " ",
    "\n",
    "static",
    "foo",
    "(",
    "f(",
    "(\n",
    "g(\n",
    ")",
    ";",
    "{",
    "}",
    "~",
    "::",
    "*",
    "&",
    "<",
    ">",
    ",",
    "#include <a.h>",
    "return",
    "typedef",
    "\t",
    "x1",
    "_y",
    "/",
    "=",
    "\n\n",
    "if",
    "A::B",
  ];
  let found = 0;
  for (const text of texts(3, pieces, 4000)) {
    // A word that opens a statement names no function (hunt25: `skip:` then `if (w) {`), and the
    // summary reads a C text without its block comments (hunt25).
    const names = [...codeText(".c", text).matchAll(C_FUNCTION)].map((m) => m[1])
      .filter((name) => !STATEMENT_WORDS.has(name));
    if (assertListed(summarize("a.c", text, { maxNames: 1000 }), "functions", names, text)) found++;
  }
  assert.ok(found > 150, `only ${found} texts with functions`);
});

Deno.test("summary lists the JavaScript imports the old expression found", () => {
  const pieces = [
    "import",
    " ",
    "\n",
    "x",
    "{ a, b }",
    " from ",
    "'",
    '"',
    "./a.js",
    ";",
    "export",
    "\t",
    "*",
    "import ",
    "''",
    '"b"',
    "c",
  ];
  let found = 0;
  for (const text of texts(5, pieces, 4000)) {
    const names = [...text.matchAll(JS_IMPORT)].map((m) => m[1]);
    if (assertListed(summarize("a.js", text, { maxNames: 1000 }), "imports", names, text)) found++;
  }
  assert.ok(found > 150, `only ${found} texts with imports`);
});

Deno.test("summary lists the TOML tables and keys the old expression found", () => {
  const pieces = [
    "[",
    "]",
    "[[",
    "]]",
    "a",
    "b.c",
    "-",
    "_",
    " ",
    "\n",
    "\t",
    "=",
    " = ",
    "1",
    '"',
    "#",
    "\n\n",
  ];
  let found = 0;
  for (const text of texts(7, pieces, 4000)) {
    const keys = [...text.matchAll(INI_KEY)].map((m) => m[1] ? `[${m[1]}]` : m[2]);
    if (assertListed(summarize("a.toml", text, { maxNames: 1000 }), "keys", keys, text)) found++;
  }
  assert.ok(found > 150, `only ${found} texts with keys`);
});

Deno.test("summary lists the markdown headings the old expression found on heading lines with a title", () => {
  const random = prng(11);
  const pick = (xs: string[]) => xs[Math.floor(random() * xs.length)];
  for (let n = 0; n < 3000; n++) {
    const lines: string[] = [];
    for (let i = 0; i < 8; i++) {
      // A heading line: hashes, spaces, a title (never blank), maybe closing hashes and spaces.
      // No other line is a setext underline ("-" or "=" alone), which would make the line above
      // it a heading too (tests/views/summary_markdown_headings_test.ts covers those).
      lines.push(
        random() < 0.6
          ? `${"#".repeat(1 + Math.floor(random() * 7))}${pick([" ", "\t", "  "])}${
            pick(["Title", "C#", "a # b", "x ##", "#tag", "Ü", "a\tb"])
          }${pick(["", " ", " ##", "#", " # ", "\t"])}`
          : pick(["text", "", "    code", "- item", "#not"]),
      );
    }
    const text = lines.join("\n") + "\n";
    // Indented from the shallowest level found, as the summary indents them.
    const found = [...text.matchAll(HEADING)];
    const top = Math.min(...found.map((m) => m[1].length));
    const headings = found.map((m) => `${"  ".repeat(m[1].length - top)}- ${m[2]}`);
    const summary = summarize("a.md", text, { maxNames: 1000 });
    assert.deepEqual(summary.split("\n").slice(1), headings, JSON.stringify(text));
  }
});

Deno.test("a Java summary over a long run of blanks or a long line of words lists its methods at once", async () => {
  // The expression tried each split of the run: 4,000 spaces held it for over ten minutes.
  // Lines that are no method, where the expression fails after trying every split.
  const blanks = `class A {\n  public${" ".repeat(20_000)}x\n  void f(int a) {\n  }\n}\n`;
  assert.match(await summarize("A.java", blanks), /\n- methods: `f`$/);
  const words = `class A {\n  ${"public ".repeat(20_000)}x\n  void g() {\n  }\n}\n`;
  assert.match(await summarize("A.java", words), /\n- methods: `g`$/);
});
