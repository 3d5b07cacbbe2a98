import assert from "node:assert/strict";
import { join } from "node:path";
import { hollowReader, hollowText } from "../../grammars/_hollow.ts";
import { hollowPython, pythonRegions } from "../../grammars/_python_hollow.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import {
  assertHollowCase,
  assertMangledTexts,
  assertSameShape,
  assertWholeParseWhenBroken,
} from "./_hollow_helpers.ts";
import { pythonStdlib } from "../cache/_cache_helpers.ts";
import { prng } from "../_helpers.ts";

/** Lines indented by `by` (not the empty end after the last line break). */
function indent(text: string, by: string): string {
  return text.replace(/^(?=.)/gm, by);
}

const BODY = "    y = x * 2\n" + "    y += compute(y, 'a#b', \"c\")\n".repeat(4) + "    return y\n";

const CASES: Record<string, string> = {
  "a plain function": `def f(x):\n${BODY}`,
  "a docstring kept": `def f(x):\n    """Double x.\n\n    More.\n    """\n${BODY}`,
  "comments after a docstring": `def f(x):\n    "Double x."\n\n    # How:\n  # odd\n${BODY}`,
  "comments above the first statement": `def f(x):\n    # How:\n    #\n${BODY}`,
  "a docstring alone": `def f(x):\n    """${"Only a docstring. ".repeat(8)}"""\n`,
  "a docstring then a statement on its line": `def f(x):\n    "doc"; y = 1\n${BODY}`,
  "methods, decorators and a nested function":
    `class A:\n    """A class."""\n\n    x: int = 1\n\n` +
    `    @property\n    def p(self) -> int:\n${indent(BODY, "    ")}\n` +
    `    async def q(self, *a, **k):\n        def inner():\n${indent(BODY, "        ")}` +
    `        return inner\n`,
  "a multi-line signature":
    `def f(\n    a: int,\n    b: str = "):",\n) -> dict[str, int]:\n${BODY}`,
  "a one-line def and a short body":
    `def f(x): return x\n\ndef g():\n    pass\n\ndef h(x):\n${BODY}`,
  "nested f-strings, format specs and brackets across lines": `def f(x):\n` +
    `    s = f"{x:#x} {x!r:>{10}} {'}'} {{literal}}"\n` +
    `    t = f"{x["key"]} {f'{x}'}"\n    u = (\n        1,\n        2)\n${BODY}`,
  "line continuations and raw strings": `def f(x):\n    y = 1 + \\\n        2\n` +
    `    z = r"\\"" + '\\'' + """a\n'''\nb"""\n${BODY}`,
  "comments inside and after a body":
    `def f(x):\n    # first\n${BODY}    # trailing\n\n# top\nX = 1\n`,
  "a body ending in a nested block with a deeper comment": `def f(x):\n${BODY}    if x:\n` +
    `        return 2\n        # deeper\nY = 2\n`,
  "CRLF line breaks": `def f(x):\n${BODY}`.replaceAll("\n", "\r\n"),
  "definitions under if and try": `if True:\n    def f(x):\n${indent(BODY, "    ")}` +
    `try:\n    import a\nexcept ImportError:\n    def g(x):\n${indent(BODY, "    ")}`,
  "long values": `TABLE = {\n${'    "k": (1, 2),\n'.repeat(14)}}  # a table\n` +
    `__all__ = [\n${'    "name",\n'.repeat(14)}]\n` +
    `HINTED: dict[str, int] = dict(\n${"    a=1,\n".repeat(14)})\n` +
    `A = B = [\n${"    1,\n".repeat(14)}]\nC += [\n${"    1,\n".repeat(14)}]\n` +
    `D = \\\n    [\n${"    1,\n".repeat(14)}]\nSHORT = [\n    1,\n    2,\n]\n` +
    `class K:\n    X = (\n${"        'x'\n".repeat(14)}    )\n    def f(self, a=1):\n${
      indent(BODY, "    ")
    }`,
  "a syntax error outside bodies": `def f(x):\n${BODY}\nx = = 1\n`,
};

/** Cases with nothing to hollow: a body of a docstring alone, and one whose first line holds two statements. */
const WHOLE = new Set(["a docstring alone", "a docstring then a statement on its line"]);

for (const [name, text] of Object.entries(CASES)) {
  Deno.test(`hollowPython() keeps the views of ${name} the same`, async () => {
    await assertHollowCase("a.py", text, hollowPython(text), {
      whole: WHOLE.has(name),
      hasErrors: name === "a syntax error outside bodies",
    });
  });
}

Deno.test("hollowPython() turns what follows a body's first line into one string of spaces", () => {
  const text = `def f(x):\n    """Doc."""\n${BODY}\nX = 1\n`;
  const hollow = hollowPython(text)!;
  assertSameShape(text, hollow);
  const start = text.indexOf("    y = x") + 4;
  const end = text.indexOf("return y") + "return y".length;
  assert.equal(hollow.slice(0, start), text.slice(0, start));
  assert.equal(hollow.slice(end), text.slice(end));
  assert.match(hollow.slice(start, end), /^"""[ \n]*"""$/);
});

Deno.test("hollowPython() leaves a body without a docstring one statement that is not one", () => {
  const hollow = hollowPython(`def f(x):\n${BODY}`)!;
  assert.match(hollow, /^def f\(x\):\n {4}_="""[ \n]*"""\n$/);
});

Deno.test("hollowPython() leaves text it is not sure of to the parser", () => {
  const body = BODY.replaceAll("    ", "\t");
  assert.equal(hollowPython(`def f(x):\n${body}`), undefined, "tab indentation");
  assert.equal(hollowPython(`def f(x):\n${BODY}    s = "open\n`), undefined, "unterminated string");
  assert.equal(hollowPython(`def f(x):\n${BODY}    y = (1,\n`), undefined, "unclosed bracket");
  assert.equal(hollowPython(`def f(x):\n${BODY}    y = 1)\n`), undefined, "stray close bracket");
  assert.equal(hollowPython(`def f(x):\n${BODY}  z = 1\n`), undefined, "dedent to no block");
  assert.equal(hollowPython("X = 1\nclass A:\n    y = 2\n"), undefined, "nothing to hollow");
});

Deno.test("skeletonViewMode() parses the whole text when the hollowed one does not parse", async () => {
  await assertWholeParseWhenBroken("python", "a.py", CASES["a plain function"], '_=(""');
});

Deno.test("skeletonViewMode() reports a syntax error outside bodies of a hollowed Python file", async () => {
  const view = (await renderCode("a.py", CASES["a syntax error outside bodies"]))!;
  assert.equal(view.hasErrors, true);
});

Deno.test("skeletonViewMode() gives the same views with and without hollowing on the machine's Python library", async () => {
  const lib = await pythonStdlib();
  if (!lib) {
    console.log("skipped: no python3 on PATH");
    return;
  }
  const names = [...Deno.readDirSync(lib)]
    .filter((e) => e.isFile && e.name.endsWith(".py"))
    .map((e) => e.name)
    .sort();
  let hollowed = 0;
  for (const name of names) {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(join(lib, name)));
    } catch {
      continue;
    }
    const hollow = hollowPython(text);
    if (hollow === undefined) continue;
    hollowed++;
    assertSameShape(text, hollow);
    const plain = await renderCode(name, text, { hollow: false });
    assert.deepEqual(await renderCode(name, text), plain, name);
  }
  assert.ok(hollowed > 100, `only ${hollowed} files hollowed`);
});

Deno.test("hollowReader() reads what hollowText() holds, from any index", () => {
  const text = Object.values(CASES).join("\n");
  const regions = pythonRegions(text)!;
  assert.ok(regions.length > 5);
  const whole = hollowText(text, regions);
  const read = hollowReader(text, regions);
  for (let i = 0; i <= text.length; i++) {
    const piece = read(i);
    assert.equal(piece, whole.slice(i, i + piece.length), `index ${i}`);
    if (i < text.length) assert.ok(piece.length > 0, `index ${i}`);
  }
  let joined = "";
  for (let i = 0; i < text.length; i += read(i).length) joined += read(i);
  assert.equal(joined, whole);
});

Deno.test("hollowPython() never throws, keeps the shape of mangled text and its views where it parses", async () => {
  const random = prng(7);
  const base = Object.entries(CASES)
    .filter(([name]) => name !== "a syntax error outside bodies")
    .map(([, text]) => text)
    .join("\n");
  const pieces = ["'", '"', '"""', "\\", "def ", ..."#()[]{}:;\n \tf"];
  await assertMangledTexts({
    path: "a.py",
    base,
    pieces,
    runs: 400,
    maxEdits: 4,
    random,
    hollow: (text) => hollowPython(text),
  });
});

Deno.test("pythonRegions() hollows comment lines after a docstring, not those above a first statement", () => {
  const after = CASES["comments after a docstring"];
  assert.equal(pythonRegions(after)![0].start, after.indexOf("# How:"));
  const above = CASES["comments above the first statement"];
  assert.equal(pythonRegions(above)![0].start, above.indexOf("y = x"));
});

Deno.test("pythonRegions() hollows plain assignments' values longer than maxValueLines, not __all__", () => {
  const text = CASES["long values"];
  const values = pythonRegions(text)!.filter((r) => r.head === "(");
  const targets = values.map((r) => text.slice(text.lastIndexOf("\n", r.start) + 1, r.start));
  assert.deepEqual(targets, ["TABLE = ", "HINTED: dict[str, int] = ", "    X = "]);
  for (const r of values) assert.equal(text[r.end - 1], text[r.start] === "{" ? "}" : ")");
  const three = pythonRegions(text, { maxValueLines: 3 })!.filter((r) => r.head === "(");
  assert.equal(three.length, 4, "SHORT spans four lines");
});
