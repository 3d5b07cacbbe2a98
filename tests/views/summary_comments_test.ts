import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { codeText } from "../../plugins/view_modes/_summary_blanks.ts";

// A summary's patterns read lines, and a line in a block comment or in a string over lines was
// read as code: a `Package.swift`'s `.package(url: ...)` commented out was a dependency, a
// here-string's `Describe "x" {` a Pester test (review18 left it). Each language's block comments
// and strings over lines are blanks now; a line comment or a one-line string holding a comment's
// opening opens none. Written for this test.
const CASES: Array<[string, string, string[], string[]]> = [
  [
    "Package.swift",
    'let package = Package(\n  dependencies: [\n    .package(url: "https://x/a.git", from: "1.0.0"),\n    /*\n    .package(url: "https://x/old.git", from: "1.0.0"),\n    */\n  ]\n)\nlet s = """\nfunc inString() {}\n"""\nfunc real() {}\n',
    ["`a`", "`real`"],
    ["old", "inString"],
  ],
  [
    "a.c",
    'const char *glob = "src/*.c"; // see /* below\n/*\nint commented(void) {\n*/\nint real(void) {\n  return 0;\n}\n',
    ["`real`"],
    ["commented"],
  ],
  // A label at a line's start, then a comment taken out: the statement after it is no function
  // (tmux's `skip:` above `/* ... */` and `if (w != NULL) {`).
  [
    "resize.c",
    "int\nresize(int w)\n{\nskip:\n\t/*\n\t * Do not.\n\t */\n\tif (w != 0) {\n\t\treturn 1;\n\t}\ndone:\n\twhile (w)\n\t\tw--;\n}\n",
    ["`resize`"],
    ["`if`", "`while`"],
  ],
  [
    "a.rs",
    "fn borrow<'a>(x: &'a str) -> &'a str { x }\n/* fn hidden() {} */\n/*\nfn hidden2() {}\n*/\nfn after() {}\n",
    ["`borrow`", "`after`"],
    ["hidden"],
  ],
  [
    "A.java",
    'public class A {\n  String s = """\npublic class Inner {\n""";\n}\n/*\nclass Old {}\n*/\n',
    ["`A`"],
    ["Inner", "Old"],
  ],
  // A string on one line stays whatever its quotes: circe's `checkAll("""Codec["foo"]"""", ...)`
  // taken out left `checkAll(", CodecTests[...` and a test titled `, CodecTests[`.
  [
    "LiteralSuite.scala",
    'class LiteralSuite extends CirceMunitSuite {\n  checkAll("""Codec["foo"]"""", CodecTests["foo"].codec)\n  test("x") {}\n}\n',
    ["`LiteralSuite`"],
    ["CodecTests["],
  ],
  [
    "main.go",
    "package main\n\nvar tmpl = `\nfunc inTemplate() {}\n`\n/*\nfunc old() {}\n*/\nfunc main() {}\n",
    ["`main`"],
    ["inTemplate", "old"],
  ],
  [
    "P.cs",
    'class P {\n  string s = @"\nclass InString {}\n";\n}\n/*\nclass Old {}\n*/\n',
    ["`P`"],
    ["InString", "Old"],
  ],
  [
    "a.py",
    '"""Usage:\n\nimport os\ndef example():\n"""\nimport sys\nX = """\nclass Q:\n"""\n# a comment with """ in it\ndef real():\n    pass\n',
    ["`sys`", "`real`"],
    ["`os`", "example", "`Q`"],
  ],
  [
    "lib.ex",
    'defmodule Lib do\n  @moduledoc """\n      def hello do\n  """\n  def real, do: 1\nend\n',
    ["`real`"],
    ["hello"],
  ],
  [
    "a.lua",
    "--[[\nfunction M.old() end\n]]\nlocal s = [==[\nfunction M.inString() end\n]==]\nfunction M.real() end\n",
    ["`M.real`"],
    ["old", "inString"],
  ],
  [
    "a.rb",
    "=begin\ndef old\nend\n=end\nSQL = <<~EOS\n  def in_heredoc\nEOS\ndef real\nend\n",
    ["`real`"],
    ["old", "in_heredoc"],
  ],
  [
    "a.ps1",
    '<#\nfunction NotReal { }\n#>\n$x = @"\nDescribe "in a here-string" {\n"@\nDescribe "real" {\n  It "works" { }\n}\n',
    ["`real`", "`works`"],
    ["here-string", "NotReal"],
  ],
  [
    "a.ts",
    'const glob = "src/**/*.ts";\n/*\nexport function old() {}\n*/\nexport function real() {}\n',
    ["`real`"],
    ["old"],
  ],
  // Rust's, Swift's, Kotlin's, Scala's and Dart's block comments nest: the text after an inner
  // comment's close was read as code (review20).
  [
    "nested.rs",
    "/*\n/* inner */\npub fn hidden() {}\n*/\npub fn real() {}\n",
    ["`real`"],
    ["hidden"],
  ],
  [
    "Nested.swift",
    "/* a /* b */\nfunc hidden() {}\n*/\nfunc real() {}\n",
    ["`real`"],
    ["hidden"],
  ],
  // A heredoc's terminator before a CRLF line end closed nothing: the rest of the file was taken
  // out (review20).
  [
    "crlf.rb",
    "SQL = <<~EOS\r\n  def in_heredoc\r\nEOS\r\ndef real\r\nend\r\n",
    ["`real`"],
    ["in_heredoc"],
  ],
  // JSX's text may hold `/*` (a glob, `src/*.ts`): read as a comment that never closed, it took
  // the rest of the file, and a raw string's `/*` the tokens misread did too (review20).
  [
    "Files.tsx",
    "export function Files() {\n  return <p>Matches src/*.ts files</p>;\n}\nexport function real() {}\n",
    ["`Files`", "`real`"],
    [],
  ],
  [
    "Glob.jsx",
    "export function Glob() {\n  return <p>src/*.ts</p>;\n}\nexport function real() {}\n/* a note */\n",
    ["`Glob`", "`real`"],
    [],
  ],
  [
    "raw.rs",
    'const S: &str = r#"a"/*"#;\npub fn real() {}\n',
    ["`real`"],
    [],
  ],
  // Haskell's block comments (`{- -}`, which nest) and line comments: a commented-out `data`,
  // `import` or `instance` was listed (only functions were read past `{- -}`; one nested in
  // another ended at the inner close); an infix definition (`a --> b = a`) was named by its left
  // operand. Written for this test.
  [
    "Shop.hs",
    [
      "module Shop where",
      "{- An old design:",
      "import Data.Hidden",
      "{- nested -}",
      "data Hidden = Hidden",
      "instance Show Hidden where",
      "hiddenFn x = x",
      "-}",
      "-- data AlsoHidden = A",
      "import Data.Real",
      "data Real = Real",
      "(-->) :: Int -> Int -> Int",
      "a --> b = a",
      "x `plus` y = x",
      "real x = x",
      "",
    ].join("\n"),
    ["`Data.Real`", "`Real`", "`real`", "`(-->)`", "`plus`"],
    ["Hidden", "hiddenFn", "AlsoHidden", "`a`", "`x`"],
  ],
];

for (const [path, text, shown, hidden] of CASES) {
  Deno.test(`a summary of ${path} reads no line of a block comment or a string over lines`, () => {
    const summary = summarize(path, text);
    for (const name of shown) assert.ok(summary.includes(name), `${name} in:\n${summary}`);
    for (const name of hidden) assert.ok(!summary.includes(name), `${name} not in:\n${summary}`);
  });
}

// A string that did not close on its line was tried again from each quote in it, to the line's
// end each time (a line of 80 KB of `\"` took seconds), and a comment's or string's opening in
// its text opened one, and lines of code after it were blanks (review20). A string runs to its
// line's end now, as a compiler reads it: the text after it is code. Written for this test.
const UNCLOSED: Array<[string, string]> = [
  [".c", 'char *s = "a \\" /* b\nint after(void) {}\n*/\n'],
  [".go", 'var s = "a \\" /* b\nfunc after() {}\n*/\n'],
  [".cs", 'var s = "a \\" /* b\nclass After {}\n*/\n'],
  [".java", 'String s = "a \\" /* b\nclass After {}\n*/\n'],
  [".php", "$s = 'a \\' /* b\nfunction after() {}\n*/\n"],
  [".py", 's = \'a \\\' """ b\ndef after():\n"""\n'],
  [".rb", 's = "a \\" <<~A b\ndef after\nA\n'],
  [".ps1", '$s = "a \\" <# b\nfunction After { }\n#>\n'],
  [".lua", 's = "a \\" --[[ b\nfunction after() end\n]]\n'],
];
for (const [ext, text] of UNCLOSED) {
  Deno.test(`a ${ext} string that does not close on its line ends there`, () => {
    const lines = (t: string) => t.split("\n").slice(0, 2);
    assert.deepEqual(lines(codeText(ext, text)), lines(text));
  });
}
