import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { languageOf } from "../../pipeline/transform.ts";

// Kinds a summary showed as text (their first lines: a license comment, a module's export list)
// though their names are read by a line scan: Solidity contracts, Verilog modules, Coq theories,
// VHDL entities, Elm and Gleam modules, Nix files, Tcl scripts, R documentation, R Markdown and
// Quarto documents, Gradle's Kotlin scripts; tests named by a call (R, Julia, Elixir, Dart,
// Clojure) or in backticks (F#, Kotlin); and listed with no name at all: R's testthat files,
// Kotlin files of top-level properties, Dart libraries of top-level constants, Kotlin scripts of
// statements. Written for these tests.
const CASES: Array<[string, string, string]> = [
  [
    "contracts/token/Token.sol",
    [
      "// SPDX-License-Identifier: MIT",
      "pragma solidity ^0.8.20;",
      'import {IERC20} from "./IERC20.sol";',
      'import "../utils/Context.sol";',
      "abstract contract Token is IERC20 {",
      "    error TokenInvalidSender(address sender);",
      "    event Minted(address to);",
      "    struct Slot { uint256 value; }",
      "    modifier onlyOwner() { _; }",
      "    function transfer(address to, uint256 value) public returns (bool) {}",
      "}",
      "interface IHook { function hook() external; }",
      "library Math { }",
      // A user-defined value type (Uniswap v4's `PoolId`): it was no type the summary listed.
      "type PoolId is bytes32;",
    ].join("\n") + "\n",
    "**Solidity**, 14 lines\n- contracts: `Token`\n- interfaces: `IHook`\n- libraries: `Math`\n- functions: `transfer`\n- modifiers: `onlyOwner`\n- events: `Minted`\n- errors: `TokenInvalidSender`\n- types: `Slot`, `PoolId`\n- imports: `./IERC20.sol`, `../utils/Context.sol`",
  ],
  [
    "rtl/core.v",
    [
      "/* Copyright (C) 2015 */",
      "`timescale 1 ns / 1 ps",
      "`define DEBUG(x) $display(x)",
      '`include "defs.vh"',
      "module core #(",
      "  parameter WIDTH = 32",
      ") (input clk);",
      "  function [31:0] next_pc;",
      "    input [31:0] pc;",
      "  endfunction",
      "  task automatic reset_all();",
      "  endtask",
      "endmodule",
      "module core_regs (input clk); endmodule",
    ].join("\n") + "\n",
    "**Verilog**, 14 lines\n- modules: `core`, `core_regs`\n- functions: `next_pc`, `reset_all`\n- macros: `DEBUG`\n- includes: `defs.vh`",
  ],
  [
    "theories/Nat.v",
    [
      "(* A Coq theory, in a .v file as Verilog's are. *)",
      "From Coq Require Import Arith Lia.",
      "Module NatFacts.",
      "Fixpoint double (n : nat) : nat := match n with 0 => 0 | S m => S (S (double m)) end.",
      "Lemma double_plus : forall n, double n = n + n.",
      "Proof. induction n; simpl; lia. Qed.",
      "End NatFacts.",
    ].join("\n") + "\n",
    "**Coq**, 7 lines\n- modules: `NatFacts`\n- definitions: `double`\n- theorems: `double_plus`\n- requires: `Arith Lia`",
  ],
  [
    "src/alu.vhd",
    [
      "library ieee;",
      "use ieee.std_logic_1164.all;",
      "entity alu is",
      "  port (a : in std_logic);",
      "end entity;",
      "architecture rtl of alu is",
      "  function parity(v : std_logic_vector) return std_logic is",
      "  begin",
      "  end function;",
      "begin",
      "end architecture;",
    ].join("\n") + "\n",
    "**VHDL**, 11 lines\n- entities: `alu`\n- architectures: `rtl of alu`\n- functions: `parity`\n- uses: `ieee.std_logic_1164.all`",
  ],
  [
    "src/Result.elm",
    [
      "module Result exposing",
      "  ( Result(..)",
      "  , withDefault, map",
      "  )",
      "import Maybe exposing ( Maybe(..) )",
      "type Result error value = Ok value | Err error",
      "type alias Pair = ( Int, Int )",
      "withDefault : a -> Result x a -> a",
      "withDefault def result =",
      "  case result of",
      "    Ok a -> a",
      "    Err _ -> def",
      "map f (Ok a) = Ok (f a)",
      "port send : String -> Cmd msg",
    ].join("\n") + "\n",
    "**Elm**, 14 lines\n- module: `Result`\n- types: `Result`, `Pair`\n- functions: `withDefault`, `map`\n- ports: `send`\n- imports: `Maybe`",
  ],
  [
    "src/gleam/option.gleam",
    [
      "//// Options are values that may be absent.",
      "import gleam/list",
      "pub type Option(a) {",
      "  Some(a)",
      "  None",
      "}",
      "pub opaque type Key { Key(String) }",
      "pub const none_value = None",
      '@external(erlang, "lists", "reverse")',
      "fn reverse(list: List(a)) -> List(a)",
      "pub fn unwrap(option: Option(a), or default: a) -> a {",
      "  list.map([], fn(x) { x })",
      "}",
    ].join("\n") + "\n",
    "**Gleam**, 13 lines\n- types: `Option`, `Key`\n- functions: `reverse`, `unwrap`\n- constants: `none_value`\n- imports: `gleam/list`",
  ],
  [
    "modules/programs/bat.nix",
    [
      "{ config, lib, pkgs, ... }:",
      "let",
      "  cfg = config.programs.bat;",
      "in",
      "{",
      "  meta.maintainers = [ ];",
      "  options.programs.bat = {",
      '    enable = lib.mkEnableOption "bat";',
      '    package = lib.mkPackageOption pkgs "bat" { };',
      "    config = mkOption { type = types.attrs; };",
      "  };",
      "  config = lib.mkIf cfg.enable { };",
      "}",
    ].join("\n") + "\n",
    "**Nix**, 13 lines\n- option sets: `programs.bat`\n- options: `enable`, `package`, `config`\n- bindings: `cfg`, `meta.maintainers`, `options.programs.bat`, `config`",
  ],
  [
    "lib/util.tcl",
    [
      "package require Tcl 8.6",
      "package provide util 1.0",
      "namespace eval ::util {",
      "  proc ::util::greet {name} { puts $name }",
      "}",
      "proc main {} { }",
    ].join("\n") + "\n",
    "**Tcl**, 6 lines\n- namespaces: `::util`\n- procedures: `::util::greet`, `main`\n- packages: `Tcl`, `util`",
  ],
  [
    "man/across.Rd",
    [
      "% Generated by roxygen2: do not edit by hand",
      "\\name{across}",
      "\\alias{across}",
      "\\alias{if_any}",
      "\\title{Apply a function (or functions) across \\code{cols}}",
      "\\usage{across(.cols, .fns)}",
    ].join("\n") + "\n",
    "**R documentation**, 6 lines\n- name: `across`\n- title: `Apply a function (or functions) across \\code{cols}`\n- aliases: `across`, `if_any`",
  ],
  [
    "vignettes/intro.Rmd",
    [
      "---",
      'title: "Introduction"',
      "---",
      "```{r}",
      "# a comment in a chunk, no heading",
      "library(dplyr)",
      "```",
      "## Data",
      "### Filtering",
    ].join("\n") + "\n",
    "**R Markdown**, 9 lines\n- Data\n  - Filtering",
  ],
  ["docs/index.qmd", "# Guide\n\nText.\n", "**Quarto**, 3 lines\n- Guide"],
  [
    "tests/testthat/test-pull.R",
    [
      'test_that("default extracts last var", {',
      "  expect_equal(pull(df), 1:10)",
      "})",
      "test_that('can extract by name', {",
      "})",
    ].join("\n") + "\n",
    "**R**, 5 lines\n- tests: `default extracts last var`, `can extract by name`",
  ],
  [
    "build-support/src/main/kotlin/jvm.kt",
    [
      "package build",
      "typealias Bytes = ByteArray",
      'val loomEnabled = System.getProperty("loom", "false").toBoolean()',
      "private const val LIMIT = 8",
      "val String.size: Int get() = length",
      "class Sink {",
      "  val buffer = Bytes(0)",
      "}",
    ].join("\n") + "\n",
    "**Kotlin**, 8 lines\n- package: `build`\n- types: `Bytes`, `Sink`\n- properties: `loomEnabled`, `LIMIT`, `String.size`",
  ],
  [
    "lib/src/providers.dart",
    [
      "part of '../types.dart';",
      "const futureProviderType = TypeChecker.fromName('FutureProvider');",
      "final Map<String, int> counts = {};",
      "late final String? name;",
      "class A {",
      "  final int field = 0;",
      "}",
    ].join("\n") + "\n",
    "**Dart**, 7 lines\n- types: `A`\n- variables: `futureProviderType`, `counts`, `name`",
  ],
  [
    "settings.gradle.kts",
    [
      'rootProject.name = "okio-parent"',
      'includeBuild("build-support")',
      'include(":okio")',
      "plugins {",
      '  id("com.vanniktech.maven.publish.base")',
      "}",
      'tasks.register<Copy>("dist") { }',
    ].join("\n") + "\n",
    "**Gradle (Kotlin)**, 7 lines\n- plugins: `com.vanniktech.maven.publish.base`\n- tasks: `dist`\n- blocks: `plugins`\n- includes: `build-support`, `:okio`",
  ],
  [
    "src/posh-git.psd1",
    "@{\n# Script module file.\nRootModule = 'posh-git.psm1'\nModuleVersion = '1.1.0'\nPrivateData = @{\n    PSData = @{\n    }\n}\n}\n",
    "**PowerShell data**, 9 lines\n- keys: `RootModule`, `ModuleVersion`, `PrivateData`, `PSData`",
  ],
  [
    "src/kemal/handler.cr",
    [
      'require "http"',
      "module Kemal",
      "  abstract class Handler",
      "    def self.radix_method(m) : String",
      "    end",
      "    def call(env)",
      "    end",
      '    macro only(paths, method = "GET")',
      "    end",
      "  end",
      "end",
    ].join("\n") + "\n",
    "**Crystal**, 11 lines\n- modules: `Kemal`\n- types: `Handler`\n- methods: `self.radix_method`, `call`\n- macros: `only`\n- requires: `http`",
  ],
  [
    "rackunit/private/check.rkt",
    [
      "#lang racket/base",
      "(require racket/match)",
      "(define (fail-check [msg #f])",
      "  (define inner 1)",
      "  inner)",
      "(define-syntax-rule (define-check name) name)",
      "(define ((curried a) b) a)",
      "(struct check-info (name value))",
      "(module+ test",
      '  (test-case "fails with a message" (fail-check)))',
    ].join("\n") + "\n",
    "**Racket**, 10 lines\n- language: `racket/base`\n- definitions: `fail-check`, `define-check`, `curried`\n- structs: `check-info`\n- tests: `fails with a message`",
  ],
  [
    "scribblings/api.scrbl",
    '#lang scribble/manual\n@title{RackUnit API}\n@section[#:tag "checks"]{Checks}\n@defproc[(check-equal? [v1 any/c] [v2 any/c]) void?]\n',
    "**Scribble**, 4 lines\n- sections: `RackUnit API`, `Checks`\n- definitions: `check-equal?`",
  ],
  [
    "src/pixie/images.nim",
    [
      "import blends, chroma",
      "from std/math import floor",
      "type UnsafeImage = distinct Image",
      "type",
      "  Image* = ref object",
      "    width*, height*: int",
      "  Mode* {.pure.} = enum",
      "    Normal, Multiply",
      "proc `$`*(image: Image): string =",
      "  discard",
      "func inside*(image: Image, x, y: int): bool = true",
      "template unsafe*(src: Image): UnsafeImage = cast[UnsafeImage](src)",
    ].join("\n") + "\n",
    "**Nim**, 12 lines\n- types: `UnsafeImage`, `Image`, `Mode`\n- procedures: `` `$` ``, `inside`, `unsafe`\n- imports: `blends`, `chroma`, `std/math`",
  ],
  // An import list that goes on on the next lines (jester's `import asyncdispatch, …,` then
  // `  net, strtabs, uri,`): one module each, the continuation's too, no trailing comma.
  [
    "jester/private/utils.nim",
    [
      "import asyncdispatch, asynchttpserver,",
      "  net, strtabs, uri, # the server's",
      "  tables",
      "import std/[os, strutils] except getEnv",
      "import times as t",
      "proc parse*(s: string): int = 0",
    ].join("\n") + "\n",
    "**Nim**, 6 lines\n- procedures: `parse`\n- imports: `asyncdispatch`, `asynchttpserver`, `net`, `strtabs`, `uri`, `tables`, `std/[os, strutils]`, `times`",
  ],
  [
    "pixie.nimble",
    'version = "5.0.0"\nrequires "nim >= 1.4.8"\nrequires "vmath >= 3.0.0"\n',
    "**Nimble package**, 3 lines\n- requires: `nim >= 1.4.8`, `vmath >= 3.0.0`",
  ],
  [
    "test/add.wat",
    '(module $adder\n  (import "env" "log" (func $log (param i32)))\n  (func $add (export "add") (param i32 i32) (result i32)\n    local.get 0))\n',
    "**WebAssembly text**, 4 lines\n- modules: `$adder`\n- functions: `$log`, `$add`\n- imports: `env.log`\n- exports: `add`",
  ],
  // Julia's methods written as assignments (a third of DataFrames.jl's were left out).
  [
    "src/dataframerow.jl",
    [
      "row(r::DataFrameRow) = getfield(r, :dfrow)",
      "Base.parent(r::DataFrameRow) = getfield(r, :df)",
      "Base.size(r::DataFrameRow{T}) where {T} = (length(r),)",
      "nrow(df)::Int = size(df, 1)",
      "function Base.show(io::IO, r::DataFrameRow)",
      "end",
      "check(x) == 1",
      "  local_helper(x) = x",
    ].join("\n") + "\n",
    "**Julia**, 8 lines\n- functions: `row`, `Base.parent`, `Base.size`, `nrow`, `Base.show`",
  ],
  // Tests named by a call or a quoted name (they were listed as nothing, or as functions named
  // `test` and `group`).
  [
    "test/join.jl",
    'module TestJoin\n@testset "inner joins" begin\nend\n  @testset verbose = true "outer joins" begin\n  end\nend\n',
    "**Julia**, 6 lines\n- modules: `TestJoin`\n- tests: `inner joins`, `outer joins`",
  ],
  [
    "test/cart_test.exs",
    'defmodule CartTest do\n  describe "add/2" do\n    test "adds an item" do\n    end\n  end\nend\n',
    "**Elixir script**, 6 lines\n- modules: `CartTest`\n- tests: `add/2`, `adds an item`",
  ],
  [
    "test/container_test.dart",
    [
      "void main() {",
      "  group('ProviderContainer', () {",
      '    test("reads a value", () {',
      "      expect(() => read(), throwsStateError);",
      "    });",
      "  });",
      "}",
    ].join("\n") + "\n",
    "**Dart**, 7 lines\n- functions: `main`\n- tests: `ProviderContainer`, `reads a value`",
  ],
  [
    "test/compojure/route_test.clj",
    "(ns compojure.route-test)\n(deftest not-found-route\n  (is true))\n(deftest ^:slow files-route)\n",
    "**Clojure**, 4 lines\n- namespace: `compojure.route-test`\n- tests: `not-found-route`, `files-route`",
  ],
  [
    "tests/SecurityTests.fs",
    "module Giraffe.Tests.SecurityTests\n[<Fact>]\nlet ``safeRedirectTo allows relative URLs`` () =\n    ()\ntype T() =\n    member _.``round trips`` () = ()\n",
    "**F#**, 6 lines\n- modules: `Giraffe.Tests.SecurityTests`\n- types: `T`\n- functions: ``` ``safeRedirectTo allows relative URLs`` ```\n- members: ``` ``round trips`` ```",
  ],
  [
    "src/test/BufferTest.kt",
    "class BufferTest {\n  @Test fun `reads a byte`() {}\n  fun `access$timeout`() {}\n}\n",
    "**Kotlin**, 4 lines\n- types: `BufferTest`\n- functions: `` `reads a byte` ``, `` `access$timeout` ``",
  ],
  // A script of statements alone is shown by its first lines, as text is.
  ["scripts/run.kts", 'println("hello")\n', '**Kotlin script**, 1 line\n\n    println("hello")'],
];

Deno.test("Solidity, HDL, Coq, Elm, Gleam, Nix, Tcl, R, Gradle summaries and tests list their names", () => {
  for (const [path, text, want] of CASES) assert.equal(summarize(path, text), want, path);
  for (const path of ["rtl/pkg.sv", "rtl/defs.svh"]) {
    assert.match(summarize(path, "package p;\nendpackage\n"), /^\*\*SystemVerilog\*\*/, path);
  }
  assert.match(summarize("rtl/defs.vh", "`define W 32\n"), /^\*\*Verilog\*\*/);
  // A `.v` file with Coq's words and Verilog's is Verilog's (a comment may quote either).
  const both = "// Lemma in a comment\nmodule m;\nendmodule\n";
  assert.match(summarize("m.v", both), /^\*\*Verilog\*\*/);
});

Deno.test("Solidity, Verilog, SystemVerilog, VHDL, Coq, Crystal and Racket fences are labelled for their language", () => {
  const want: Record<string, string> = {
    "a.sol": "solidity",
    "rtl/core.v": "verilog",
    "rtl/defs.vh": "verilog",
    "rtl/pkg.sv": "systemverilog",
    "rtl/defs.svh": "systemverilog",
    "src/alu.vhd": "vhdl",
    "src/alu.vhdl": "vhdl",
    "src/kemal.cr": "crystal",
    "check.rkt": "racket",
  };
  for (const [path, label] of Object.entries(want)) assert.equal(languageOf(path), label, path);
  // `v` is the V language's label: a `.v` file is Verilog, or Coq by its words.
  assert.equal(languageOf("rtl/core.v", "module core;\nendmodule\n"), "verilog");
  assert.equal(languageOf("theories/Nat.v", "Require Import Arith.\nLemma a : True.\n"), "coq");
});

Deno.test("summarize() of long one-line files of these kinds is linear", () => {
  // Lines of a megabyte built to make an expression try many splits of them: each summary must
  // finish (a pattern that backtracks over a line takes minutes at this length). The first ten
  // took minutes before: blanks read by two quantifiers around an optional part, or by a lazy
  // read and the blanks after it, split every way.
  const long = 1 << 20;
  const lines: Array<[string, string]> = [
    ["a.lua", "require" + " ".repeat(long)],
    ["a.js", "function" + " ".repeat(long)],
    ["a.glsl", "void f()" + " ".repeat(long) + "x"],
    ["build.gradle", "id" + " ".repeat(long)],
    ["a.css", "a" + " ".repeat(long) + "x"],
    ["a.f90", "type" + " ".repeat(long) + "\u0001"],
    ["a.f90", "use" + " ".repeat(long) + "\u0001"],
    ["a.hs", "class" + " ".repeat(long) + "\u0001"],
    ["a.hs", "instance A" + " ".repeat(long) + "x"],
    ["a.bicep", "import" + " ".repeat(long) + "x"],
    ["settings.gradle.kts", "include" + " ".repeat(long)],
    ["a.sol", "import " + " ".repeat(long)],
    ["a.v", "function " + "a ".repeat(long / 2)],
    ["a.elm", "a " + "(a) ".repeat(long / 4)],
    ["a.nix", "  " + "a".repeat(long) + " "],
    ["a.nim", "  A" + " ".repeat(long)],
    ["a.dart", "final ".repeat(long / 6)],
    ["a.kt", "@a ".repeat(long / 3)],
    ["a.jl", "f(" + ") ".repeat(long / 2)],
    ["a.jl", "@testset " + "a=b ".repeat(long / 4)],
    ["a.rkt", "(define " + "(".repeat(long)],
    ["a.wat", '(import "' + "a".repeat(long)],
    ["a.rd", "\\title{" + "{a}".repeat(long / 3)],
  ];
  for (const [path, line] of lines) {
    const summary = summarize(path, line + "\n" + line);
    assert.match(summary, /, 2 lines/, path);
  }
});

// A docs site's headings: react.dev's `### \`useMemo(calculateValue, dependencies)\` {/*usememo*/}`
// showed as `- \\\`useMemo(...)\` {/*usememo*/}`: a backslash before a code span's opening backtick
// (meant for a fence, three of them) left the span unclosed, and the heading's id, MDX's
// `{/*id*/}` or Pandoc's, kramdown's and Docusaurus's `{#id}`, took as many tokens as its title.
// Written for this test.
Deno.test("summarize() shows a heading's code span as written, without its id, and still escapes a fence", () => {
  const text = [
    "## Reference {/*reference*/}",
    "### `useMemo(calculateValue, dependencies)` {/*usememo*/}",
    "### `cache` and `memo` {#cache-memo}",
    "## Install {#install .unnumbered}",
    "## Appendix {-}",
    "## Set {x} and {#y} stay",
    "## ```js",
    "## ~~~",
    "## ~strike~ text",
  ].join("\n");
  assert.equal(
    summarize("docs/use-memo.md", `${text}\n`),
    [
      "**Markdown**, 9 lines",
      "- Reference",
      "  - `useMemo(calculateValue, dependencies)`",
      "  - `cache` and `memo`",
      "- Install",
      "- Appendix",
      "- Set {x} and {#y} stay",
      "- \\```js",
      "- \\~~~",
      "- ~strike~ text",
    ].join("\n"),
  );
});

// A `.pl` file is Perl or Prolog: scryer-prolog's 185 `.pl` files (`src/lib/lists.pl`) showed as
// `**Perl**, 550 lines` and nothing else. Written for this test.
Deno.test("summarize() reads a .pl file with Prolog's directives or rules as Prolog, another as Perl", () => {
  const prolog = [
    "/**",
    "List manipulation predicates",
    "*/",
    ":- module(lists, [member/2, append/3,",
    "                  phrase_all/2]).",
    "/*  a licence",
    "foo(bar) :- not a clause.",
    "*/",
    ":- use_module(library(error)).",
    ":- use_module(library(dcgs)).",
    "",
    "% member(X, Xs) is true if X is in Xs.",
    "member(X, [X|_]).",
    "member(X, [_|Xs]) :-",
    "    member(X, Xs).",
    "",
    "append([], Ys, Ys).",
    "greeting --> [hello].",
    "main :- append(_, _, _).",
  ].join("\n");
  assert.equal(
    summarize("src/lib/lists.pl", `${prolog}\n`),
    "**Prolog**, 19 lines\n- module: `lists`\n- predicates: `member`, `append`, `greeting`, `main`\n" +
      "- uses: `error`, `dcgs`",
  );
  const perl = "#!/usr/bin/perl\nuse strict;\nsub main {\n  my $x = 1; # a :- b\n}\n";
  assert.equal(summarize("bin/run.pl", perl), "**Perl**, 5 lines\n- subs: `main`");
});

// A blog post or docs page keeps its title in its front matter and starts its headings at `##`:
// they were listed two spaces in, under a first level the page does not have.
Deno.test("summarize() lists a page's headings from its shallowest level, at the margin", () => {
  const text =
    "---\ntitle: Release notes\n---\n\n## Version two\n\n### Breaking\n\n## Version one\n";
  assert.equal(
    summarize("content/posts/notes.md", text),
    "**Markdown**, 9 lines\n- Version two\n  - Breaking\n- Version one",
  );
  // A page with a first-level heading anywhere is indented from it, as before.
  assert.equal(
    summarize("README.md", "## Intro\n# Title\n## Use\n"),
    "**Markdown**, 3 lines\n  - Intro\n- Title\n  - Use",
  );
});
