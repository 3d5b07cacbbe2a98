import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { languageFor, languageOf } from "../../grammars/languages.ts";
import { makeProject } from "../_helpers.ts";
import { buildContext } from "../../mod.ts";
import { assertMasks, corrupted, languageGoldens, type MaskCase } from "./_language_goldens.ts";

// Small files using most of each language's declarations, written for these tests (the same as
// tests/fixtures/views/sample.ps1 and .hs).
const FIXTURES = new URL("../fixtures/views/", import.meta.url);
const POWERSHELL = await Deno.readTextFile(new URL("sample.ps1", FIXTURES));
const HASKELL = await Deno.readTextFile(new URL("sample.hs", FIXTURES));

const SAMPLES: Array<[string, string]> = [
  ["src/Thing.ps1", POWERSHELL],
  ["src/Shop/Inventory.hs", HASKELL],
];

languageGoldens(SAMPLES, import.meta.url);

Deno.test("languageFor() knows PowerShell and Haskell by extension, and languageOf() a #! line naming pwsh or runghc", () => {
  const ids = (paths: string[]) => paths.map((p) => languageFor(p)?.id ?? "-");
  assert.deepEqual(ids(["a.sol", "a.ps1", "M.psm1", "M.psd1", "a.hs", "a.lhs"]), [
    "-",
    "powershell",
    "powershell",
    "-",
    "haskell",
    "-",
  ]);
  assert.equal(languageOf("bin/tool", "#!/usr/bin/env pwsh\nWrite-Output 1\n")?.id, "powershell");
  assert.equal(languageOf("bin/tool", "#!/usr/bin/env runghc\nmain = print 1\n")?.id, "haskell");
});

Deno.test("maskedViewMode() shows one PowerShell or Haskell function whole and the rest as signatures", async () => {
  const cases: MaskCase[] = [
    ["a.ps1", POWERSHELL, "Add-Numbers", "return $a + $b"],
    ["a.hs", HASKELL, "add", "Map.insertWith (+) sku n (items inv)"],
  ];
  await assertMasks(
    cases,
    (hidden, name) =>
      new RegExp(`(function|^|\\n)${name.split(".").at(-1)!.replace("-", "\\-")}\\b`).test(
        hidden,
      ),
  );
});

Deno.test("corrupted PowerShell and Haskell files render without a crash, the same bytes twice, and whole lines when they parse", async () => {
  for (const [path, text] of SAMPLES) {
    for (const variant of corrupted(text)) {
      const first = await renderCode(path, variant);
      assert.ok(first, path);
      assert.deepEqual(await renderCode(path, variant), first);
      if (first.hasErrors) continue;
      for (const line of first.text.split("\n")) {
        const parts = line.split("{ ... }").join("\0").split("...").join("\0").split("\0");
        for (const part of parts.map((p) => p.trim()).filter(Boolean)) {
          assert.ok(variant.includes(part), `${path}: "${line}" is no line of the file`);
        }
      }
    }
  }
});

Deno.test("a build shows .ps1, .psm1 and .hs files as skeletons", async () => {
  const root = await makeProject({
    "build.ps1": "function Invoke-Build {\n    Write-Output 1\n}\n",
    "M.psm1": "function Get-M { 1 }\nExport-ModuleMember -Function Get-M\n",
    "Main.hs": "module Main where\n\nmain :: IO ()\nmain = do\n  print 1\n",
  });
  const { manifest, document } = await buildContext({
    cwd: root,
    inline: { files: [{ path: "**", view: "skeleton" }], cache: { enabled: false } },
  }, { write: false });
  const views = Object.fromEntries(manifest.files.map((f) => [f.path, f.view]));
  assert.deepEqual(views, {
    "M.psm1": "skeleton",
    "Main.hs": "skeleton",
    "build.ps1": "skeleton",
  });
  assert.match(document, /function Invoke-Build \{\n {4}\.\.\.\n\}\n/);
  assert.match(document, /main :: IO \(\)\nmain = \.\.\.\n/);
});

Deno.test("PowerShell: Pester's Describe and Context hold their tests, It and the set-up blocks are elided, titles unquoted", async () => {
  const text = [
    "BeforeAll {",
    '    . "$PSScriptRoot/Thing.ps1"',
    "}",
    "Describe 'Get-Thing' -Tag Unit {",
    '    Context "when it can\'t" {',
    "        It 'fails for ''x''' {",
    "            { Get-Thing x } | Should -Throw",
    "        }",
    "    }",
    "    It -Name 'works' {",
    "        1 | Should -Be 1",
    "    }",
    "}",
    "Write-Host done",
    "",
  ].join("\n");
  const view = (await renderCode("Thing.Tests.ps1", text))!;
  assert.equal(
    view.text,
    [
      "BeforeAll {",
      "    ...",
      "}",
      "Describe 'Get-Thing' -Tag Unit {",
      '    Context "when it can\'t" {',
      "        It 'fails for ''x''' {",
      "            ...",
      "        }",
      "    }",
      "    It -Name 'works' {",
      "        ...",
      "    }",
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["Get-Thing", "suite", "Describe 'Get-Thing' -Tag Unit"],
    ["Get-Thing.when it can't", "suite", 'Context "when it can\'t"'],
    ["Get-Thing.when it can't.fails for 'x'", "test", "It 'fails for ''x'''"],
    ["Get-Thing.works", "test", "It -Name 'works'"],
  ]);
});

// tree-sitter-powershell reads `{}` as an error but in a function's body, and what follows with
// it: Pester's `Fold-Block` (a `$OnBlock = {},` parameter) was shown as `function {`.
Deno.test("PowerShell: an empty script block is read as one, and the function around it keeps its name", async () => {
  const text = [
    "function Fold-Block {",
    "    param(",
    "        $Block,",
    "        $OnBlock = {},",
    "        $OnTest = { },",
    "        $Accumulator",
    "    )",
    "    process {",
    "        & $OnBlock $Block",
    "    }",
    "}",
    "$Hooks = @{}",
    "$Empty = {",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Fold.ps1", text))!;
  assert.equal(view.hasErrors, false);
  assert.equal(
    view.text,
    text.replace("    process {\n        & $OnBlock $Block\n    }\n", "    ...\n"),
  );
  assert.deepEqual(view.symbols.map((s) => s.signature), [
    "function Fold-Block param($Block, $OnBlock = {}, $OnTest = { }, $Accumulator)",
    "$Hooks = @{}",
    "$Empty = ...",
  ]);
});

Deno.test("Haskell: the export list says what is public; an equation after its signature is listed with it", async () => {
  const text = [
    "module Shop (add, Item (..)) where",
    "",
    "data Item = Item Int",
    "data Secret = Secret",
    "",
    "add :: Int -> Int -> Int",
    "add 0 b = b",
    "add a b =",
    "  a + b",
    "",
    "helper x = x",
    "limit = 10",
    "",
  ].join("\n");
  const view = (await renderCode("src/Shop.hs", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.name} ${s.kind} ${s.public}`), [
    "Item data true",
    "Secret data false",
    "add function true",
    "add function false",
    "add function false",
    "helper function false",
    "limit value false",
  ]);
  assert.equal(
    view.text,
    // A right-hand side of one token (`= b`, `= 0`) stays: it is shorter than its marker.
    text.replace("  a + b", "  ..."),
  );
  // Without an export list every top-level name is public.
  const all = (await renderCode("src/Main.hs", "helper x = x\n"))!;
  assert.deepEqual(all.symbols.map((s) => s.public), [true]);
});

// An operator's equation (`a <+> b = ...`, an instance's `T a <> T b = ...`) has no name in
// tree-sitter-haskell's tree: it was no symbol, in the outline or the masked view (grammar26).
// Written for this test.
Deno.test("Haskell: an operator's equation is named by its operator", async () => {
  const text = [
    "module Shop ((<+>), plus) where",
    "",
    "a <+> b = a + b",
    "x `plus` y = x",
    "a <-> b = a - b",
    "",
    "instance Semigroup Cart where",
    "  Cart a <> Cart b = Cart (a ++ b)",
    "",
  ].join("\n");
  const view = (await renderCode("src/Shop.hs", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.qualifiedName} ${s.kind} ${s.public}`), [
    "(<+>) function true",
    "plus function true",
    "(<->) function false",
    // An instance is public where the export list names it (here not); its members are.
    "Semigroup Cart instance false",
    "Semigroup Cart.(<>) function true",
  ]);
});

// The other grammars' case is tests/views/parse_deadline_test.ts; bench/README.md, "(seventeenth
// session, grammar26)", has 10,000 levels through the CLI.
Deno.test("PowerShell and Haskell texts nested 3,000 deep fail with the plain reason or render what parsed, never the stack's overflow", async () => {
  const deep: [string, (n: number) => string, number][] = [
    // Each PowerShell bracket is a dozen nodes deep (pipeline, chain, expression levels).
    ["deep.ps1", (n) => `$x = ${"(".repeat(n)}1${")".repeat(n)}\n`, 30],
  ];
  for (const [path, make, walked] of deep) {
    await assert.rejects(
      () => renderCode(path, make(3_000)),
      /^Error: its syntax tree nests deeper than the view follows \(1000 levels\)$/,
    );
    const view = await renderCode(path, make(walked));
    assert.equal(view?.hasErrors, false, path);
  }
  // tree-sitter-haskell reads a few hundred nested brackets as errors, with no deep tree.
  const hs = await renderCode("deep.hs", `x = ${"(".repeat(3_000)}1${")".repeat(3_000)}\n`);
  assert.equal(hs?.hasErrors, true);
  const shallow = await renderCode("deep.hs", `x = ${"(".repeat(30)}1${")".repeat(30)}\n`);
  assert.equal(shallow?.hasErrors, false);
});

// PSScriptAnalyzer's module defines `RuleNameCompleter` inside `if (Get-Command ...) { ... }`: the
// `if` was left out, and the function with it.
Deno.test("PowerShell: an if at a script's level is kept for the definitions it holds, its other statements left out", async () => {
  const text = [
    "if ($IsWindows) {",
    "}",
    "elseif (Get-Command Register-ArgumentCompleter) {",
    "    Write-Host registering",
    "    function Complete-Name {",
    "        param($word)",
    "        Get-Item $word",
    "    }",
    "} else {",
    "    Write-Host none",
    "}",
    "if ($Debug) {",
    "    Write-Host debug",
    "}",
    "$x = if ($a) { 1 } else { 2 }",
    "",
  ].join("\n");
  const view = (await renderCode("Module.psm1", text))!;
  assert.equal(
    view.text,
    [
      "if ($IsWindows) {",
      "}",
      "elseif (Get-Command Register-ArgumentCompleter) {",
      "    function Complete-Name {",
      "        param($word)",
      "        ...",
      "    }",
      "} else {",
      "    ...",
      "}",
      "$x = if ($a) { 1 } else { 2 }",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => s.qualifiedName), ["Complete-Name", "$x"]);
});

Deno.test("PowerShell: a script's and a suite's assignments declare variables, not an environment variable's or a property's", async () => {
  const text = [
    "$script:Limit = 10",
    "$private:Secret = 1",
    '[string]$Name = "a"',
    '$env:PATH = "x"',
    "$a.b = 2",
    "$Config = @{",
    "    A = 1",
    "}",
    "$Items = @($n = 1)",
    "Describe 'x' {",
    "    $Shared = 1",
    "    It 'y' { $z = 1 }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("v.ps1", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature, s.public]), [
    ["$Limit", "variable", "$script:Limit = 10", true],
    ["$Secret", "variable", "$private:Secret = 1", false],
    ["$Name", "variable", '[string]$Name = "a"', true],
    ["$Config", "variable", "$Config = ...", true],
    ["$Items", "variable", "$Items = @($n = 1)", true],
    ["x", "suite", "Describe 'x'", true],
    ["x.$Shared", "variable", "$Shared = 1", true],
    ["x.y", "test", "It 'y'", true],
  ]);
});

// hspec's specs were elided with the body of `spec`: a test file's outline listed no test.
Deno.test("Haskell: an hspec spec holds its suites and tests, named by their titles; an operator's definition keeps its operands", async () => {
  const text = [
    "module ShopSpec (spec) where",
    "",
    "spec :: Spec",
    "spec = do",
    '  describe "add" $ do',
    "    let n = 1",
    '    it "adds an item" $ do',
    "      n `shouldBe` 1",
    '    context "when empty" $ do',
    '      prop "keeps others" $ \\x ->',
    "        x `shouldBe` x",
    '  it "is empty" $ True `shouldBe` True',
    "",
    "instance Semigroup Key where",
    "  Key x <> Key y = Key (x <> y)",
    "",
  ].join("\n");
  const view = (await renderCode("test/ShopSpec.hs", text))!;
  assert.equal(
    view.text,
    [
      "module ShopSpec (spec) where",
      "",
      "spec :: Spec",
      "spec = do",
      '  describe "add" $ do',
      '    it "adds an item" $ ...',
      '    context "when empty" $ do',
      '      prop "keeps others" $ ...',
      '  it "is empty" $ ...',
      "",
      "instance Semigroup Key where",
      "  Key x <> Key y = ...",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.qualifiedName} ${s.kind} ${s.signature}`), [
    "spec value spec :: Spec",
    "spec suite spec = do",
    'spec.add suite describe "add"',
    'spec.add.adds an item test it "adds an item"',
    'spec.add.when empty suite context "when empty"',
    'spec.add.when empty.keeps others test prop "keeps others"',
    'spec.is empty test it "is empty"',
    "Semigroup Key instance instance Semigroup Key",
    // An operator defined infix has no name the grammar gives: its operator's.
    "Semigroup Key.(<>) function Key x <> Key y = Key (x <> y)",
  ]);
});

// `Mock Get-Date {}` at a line's end was read as `Get-Date{;}`: the `{` joined the word and the
// `}` closed the set-up block around it, so the suite's own `}` was lost and its tests fell out of
// it; and a function's comments after its `param(...)` block and after its last statement are the
// function's block's in the tree, not its body's: they stayed around the `...` (grammar26). An
// `InModuleScope` block was a set-up block however many tests it held. Written for this test.
Deno.test("PowerShell: an empty block after a bare word is an argument; a body's edge comments go with it", async () => {
  const text = [
    "function Get-Thing {",
    "    # Gets the thing.",
    "    param($Name)",
    "    # Looked up by name.",
    "    Write-Output $Name",
    "    # Done.",
    "}",
    "",
    'Describe "Thing" {',
    "    BeforeAll {",
    "        Mock Get-Date {}",
    "        Mock Invoke-WebRequest -ModuleName M {}",
    "    }",
    '    It "works" {',
    '        Get-Thing "a" | Should -Be "a"',
    "    }",
    "    InModuleScope 'Things' {",
    "        It 'reads inside' {",
    "            Get-Secret | Should -Be 1",
    "        }",
    "    }",
    "    InModuleScope 'Things' {",
    "        Set-Up",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Thing.Tests.ps1", text))!;
  assert.equal(
    view.text,
    [
      "function Get-Thing {",
      "    # Gets the thing.",
      "    param($Name)",
      "    ...",
      "}",
      "",
      'Describe "Thing" {',
      "    BeforeAll {",
      "        ...",
      "    }",
      '    It "works" {',
      "        ...",
      "    }",
      "    InModuleScope 'Things' {",
      "        It 'reads inside' {",
      "            ...",
      "        }",
      "    }",
      "    InModuleScope 'Things' {",
      "        ...",
      "    }",
      "}",
      "",
    ].join("\n"),
  );
  // A module's scope that holds tests is a suite of them (it hid them as a set-up block).
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "function Get-Thing",
    "suite Thing",
    "test Thing.works",
    "suite Thing.Things",
    "test Thing.Things.reads inside",
  ]);
});

// The parser reads a Pester file with its empty blocks rewritten (`{}` as `{;}`, or `''` after a
// bare word), a title's too: `It 'returns {} when empty'` was named `returns {;}when empty` and
// `'says "Mock X {}"'` `says "Mock X '"` (review25). A title is read as the file has it. Written
// for this test.
Deno.test("a Pester title holding an empty block is named as written", async () => {
  const text = [
    "Describe 'Get-Map {} here' {",
    "    It 'returns {} when empty' {",
    "        Get-Map | Should -Be @{}",
    "    }",
    `    It 'says "Mock X {}"' {`,
    "        1 | Should -Be 1",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Map.Tests.ps1", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["Get-Map {} here", "suite"],
    ["Get-Map {} here.returns {} when empty", "test"],
    ['Get-Map {} here.says "Mock X {}"', "test"],
  ]);
});

// An empty block at a line's end after a parameter (`It 'waits' -Skip {}`, `-MockWith {}`) is the
// parameter's value, not a bare word's argument: read as an empty string, the test had no block
// and was lost (review25). Written for this test.
Deno.test("a Pester test whose empty block follows a parameter is a test", async () => {
  const text = [
    "Describe 'waits' {",
    "    It 'is pending' -Skip {}",
    "    It 'mocks' {",
    "        Mock Get-Date -MockWith {}",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Wait.Tests.ps1", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["waits", "suite"],
    ["waits.is pending", "test"],
    ["waits.mocks", "test"],
  ]);
  assert.equal(view.hasErrors, false);
});

// An empty block after a bare word (`Context Bare {}`, `-Tag Unit {}`) was read as an empty
// string, so the suite or test had no block and was lost (review25's leftover).
Deno.test("a Pester suite or test whose empty block follows a bare word is one, titled as written", async () => {
  const text = [
    "Describe 'Thing' {",
    "    Context Bare {}",
    "    Context Full {",
    "        It 'tagged' -Tag Unit {}",
    "        It Bare-Word tagged\t{}",
    "        It 'works' {",
    "            1 | Should -Be 1",
    "        }",
    "    }",
    "    Mock Get-Date {}",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Thing.Tests.ps1", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["Thing", "suite", "Describe 'Thing'"],
    ["Thing.Bare", "suite", "Context Bare"],
    ["Thing.Full", "suite", "Context Full"],
    ["Thing.Full.tagged", "test", "It 'tagged' -Tag Unit"],
    ["Thing.Full.Bare-Word", "test", "It Bare-Word tagged"],
    ["Thing.Full.works", "test", "It 'works'"],
  ]);
  assert.equal(view.hasErrors, false);
  assert.match(view.text, /^ {4}Context Bare \{\}$/m);
  assert.match(view.text, /^ {8}It 'tagged' -Tag Unit \{\}$/m);
});

// A Pester test's table of cases (`-TestCases @(` then a case a line: platyPS's 25-line tables)
// was kept whole in a skeleton and ran its signature past 240 characters; pytest's
// `parametrize` tables are `...` past `maxValueLines` lines. Written for this test.
Deno.test("a Pester test's long table of cases is ... in a skeleton and @(...) in its signature", async () => {
  const cases = Array.from(
    { length: 14 },
    (_, i) => `        @{ Name = 'n${i}'; Expected = ${i} }`,
  );
  const text = [
    "Describe 'names' {",
    "    It 'reads <Name>' -TestCases @(",
    ...cases,
    "    ) {",
    "        $Name | Should -Not -BeNullOrEmpty",
    "    }",
    "    It 'short <a>' -ForEach @(",
    "        @{ a = 1 }",
    "    ) {",
    "        $a | Should -Be 1",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Names.Tests.ps1", text))!;
  assert.deepEqual(view.symbols.map((s) => s.signature), [
    "Describe 'names'",
    "It 'reads <Name>' -TestCases @(...)",
    "It 'short <a>' -ForEach @(...)",
  ]);
  assert.equal(
    view.text,
    [
      "Describe 'names' {",
      "    It 'reads <Name>' -TestCases ... {",
      "        ...",
      "    }",
      "    It 'short <a>' -ForEach @(",
      "        @{ a = 1 }",
      "    ) {",
      "        ...",
      "    }",
      "}",
      "",
    ].join("\n"),
  );
});

// A class's last comment follows its last method in the tree: the method's body was elided with
// the comments after it, past the method's `}`, and the skeleton lost that `}` and the comment
// (review25). Only a body's own block's comments go with it. Written for this test.
Deno.test("a PowerShell class's last comment keeps its last method's close", async () => {
  const text = [
    "class Cart {",
    "    [int] Count() {",
    "        return 1",
    "        # inside Count",
    "    }",
    "    # about the class's end",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Cart.ps1", text))!;
  assert.equal(
    view.text,
    [
      "class Cart {",
      "    [int] Count() {",
      "        ...",
      "    }",
      "    # about the class's end",
      "}",
      "",
    ].join("\n"),
  );
});

// A word of one character before an empty block (`Context A {}`, `It 'x' -Tag U {}`) has no last
// character to give the block's `;` its room: it was read as an empty string, and the suite or
// test was lost (hunt27's leftover). Written for this test.
Deno.test("a Pester suite or test whose empty block follows a one-character word is one", async () => {
  const text = [
    "Describe 'Outer' {",
    "    Context A {}",
    "    It X {}",
    "    It 'tagged' -Tag U {}",
    "    It 'works' {",
    "        1 | Should -Be 1",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Outer.Tests.ps1", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["Outer", "suite", "Describe 'Outer'"],
    ["Outer.A", "suite", "Context A"],
    ["Outer.X", "test", "It X"],
    ["Outer.tagged", "test", "It 'tagged' -Tag U"],
    ["Outer.works", "test", "It 'works'"],
  ]);
  assert.equal(view.hasErrors, false);
  assert.equal(
    view.text,
    text.replace("        1 | Should -Be 1\n", "        ...\n"),
  );
});

// tree-sitter-haskell starts a `{- ... -}` that opens the file, a pragma below it, after its `{-`
// and the blanks that follow (shellcheck's `src/ShellCheck/Fixer.hs`: a license block, a blank
// line, `{-# LANGUAGE TemplateHaskell #-}`): a skeleton left the comment out but for its `{-`, an
// opener never closed that reads as if the whole view were commented out. Written for this test.
Deno.test("Haskell: a block comment opening the file above a pragma is left out whole, its {- too", async () => {
  const comments = [
    "{-\n    Copyright 2018\n\n    License.\n-}",
    "{- x -}",
    "{-\t\tx\n  -}",
    "{-  x {- y -} -}",
  ];
  for (const comment of comments) {
    for (const gap of ["\n\n", "\n\n\n"]) {
      const text =
        `${comment}${gap}{-# LANGUAGE TemplateHaskell #-}\nmodule A (f) where\n\nf :: Int -> Int\nf x = x + 1\n`;
      const view = (await renderCode("src/A.hs", text))!;
      assert.equal(
        view.text,
        "{-# LANGUAGE TemplateHaskell #-}\nmodule A (f) where\n\nf :: Int -> Int\nf x = ...\n",
        JSON.stringify(comment + gap),
      );
    }
  }
});

// brick's `Brick/Types/Internal.hs`: a record's and a sum type's `-- ^` field comments were kept
// in its one-line signature, so the outline read as one comment from the first field on.
Deno.test("Haskell: a declaration's -- ^ and -- | comments are left out of its one-line signature", async () => {
  const fields = ["hSize :: !Size", "vSize :: !Size", "render :: RenderM n (Result n)"];
  for (const mark of ["-- ^", "-- |", "--"]) {
    const text = [
      "module Widgets where",
      "",
      "data Widget n =",
      `    Widget { ${fields[0]}  ${mark} This widget's horizontal growth policy`,
      `           , ${fields[1]}  ${mark} This widget's vertical growth policy`,
      `           , ${fields[2]}  ${mark} This widget's rendering function`,
      "           }",
      "",
      "data Size = Fixed  " + mark + " Take up the same space",
      "          | Greedy " + mark + " Take up all the space",
      "          deriving (Show, Eq, Ord)",
      "",
    ].join("\n");
    const view = (await renderCode("src/Widgets.hs", text))!;
    const signatures = view.symbols.filter((s) => s.depth === 0).map((s) => s.signature);
    assert.deepEqual(signatures, [
      `data Widget n = Widget { ${fields.join(" , ")} }`,
      "data Size = Fixed | Greedy deriving (Show, Eq, Ord)",
    ], mark);
  }
});
