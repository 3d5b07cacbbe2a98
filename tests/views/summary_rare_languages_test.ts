import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";

// Small files of each kind, written for these tests; each opens with a license comment, which
// was all a summary showed of them (as text, its first lines) before these languages had patterns.
const CASES: Array<[string, string, string]> = [
  [
    "src/server.ml",
    [
      "(*{{{ Copyright (c) 2014 A. Author",
      " * Permission to use, copy, modify = granted",
      " *}}}*)",
      "open Base",
      "open! Async_kernel",
      "module Body = Body_raw",
      "module type S = sig end",
      "type t = { n : int }",
      "type 'a pair = 'a * 'a",
      "exception Closed of string",
      "let create n = { n }",
      "let rec loop t =",
      "  let inner = t.n in",
      "  inner",
      "and stop _ = ()",
      "let ( >>| ) x f = f x",
      "let () = ignore (create 1)",
    ].join("\n") + "\n",
    "**OCaml**, 17 lines\n- modules: `Body`, `S`\n- types: `t`, `pair`\n- values: `create`, `loop`, `stop`, `( >>| )`\n- exceptions: `Closed`\n- opens: `Base`, `Async_kernel`",
  ],
  [
    "src/server.mli",
    [
      "type t",
      "val create : int -> t",
      "val ( >>| ) : 'a -> ('a -> 'b) -> 'b",
      'external now : unit -> float = "caml_now"',
    ].join("\n") + "\n",
    "**OCaml interface**, 4 lines\n- types: `t`\n- signatures: `create`, `( >>| )`, `now`",
  ],
  [
    "src/Cart.fs",
    [
      "namespace Shop.Carts",
      "open System",
      "open type System.Math",
      "[<AbstractClass>]",
      "type Priced() =",
      "    abstract member Price : decimal",
      "type Cart(items: string list) =",
      "    member this.Count = items.Length",
      "    static member Empty = Cart([])",
      '    override _.ToString() = "cart"',
      "module Helpers =",
      "    let private total xs = List.sum xs",
      "    let inline twice x = x * 2",
      "        let nested = 1",
    ].join("\n") + "\n",
    "**F#**, 14 lines\n- modules: `Shop.Carts`, `Helpers`\n- types: `Priced`, `Cart`\n- functions: `total`, `twice`\n- members: `Price`, `Count`, `Empty`, `ToString`\n- opens: `System`, `System.Math`",
  ],
  [
    "src/cart.erl",
    [
      "%% Copyright (c) 2024 A. Author",
      "-module(cart).",
      "-export([new/0, add/2]).",
      '-include("cart.hrl").',
      '-include_lib("kernel/include/file.hrl").',
      "-record(cart, {items = []}).",
      "-type item() :: {atom(), integer()}.",
      "new() ->",
      "    #cart{}.",
      "add(Item, #cart{items = Is} = C) ->",
      "    C#cart{items = [Item | Is]};",
      "add(_, C) ->",
      "    C.",
    ].join("\n") + "\n",
    "**Erlang**, 13 lines\n- module: `cart`\n- functions: `new`, `add`\n- records: `cart`\n- types: `item`\n- includes: `cart.hrl`, `kernel/include/file.hrl`",
  ],
  [
    "src/shop/cart.clj",
    [
      ";; Copyright (c) 2024 A. Author",
      "(ns shop.cart",
      "  (:require [clojure.string :as str]))",
      "(def ^:private tax 0.2)",
      "(defonce state (atom {}))",
      "(defprotocol Priced (price [x]))",
      "(defrecord Cart [items])",
      "(defn- secret [x] x)",
      "(defn ^String total",
      '  "Sum of prices."',
      "  [cart] (reduce + (map price (:items cart))))",
      "(defmacro with-cart [c & body] `(let [~'cart ~c] ~@body))",
    ].join("\n") + "\n",
    "**Clojure**, 12 lines\n- namespace: `shop.cart`\n- functions: `secret`, `total`, `with-cart`\n- vars: `tax`, `state`\n- types: `Priced`, `Cart`",
  ],
  [
    "src/geometry.f90",
    [
      "! Copyright (c) 2024 A. Author",
      "module geometry",
      "  use iso_fortran_env, only: dp => real64",
      "  use, intrinsic :: iso_c_binding",
      "  implicit none",
      "  type :: point",
      "    real(dp) :: x, y",
      "  end type point",
      "  type, extends(point) :: circle",
      "    real(dp) :: r",
      "  end type circle",
      "contains",
      "  pure real(dp) function area(c)",
      "    type(circle), intent(in) :: c",
      "    area = 3.14_dp * c%r**2",
      "  end function area",
      "  recursive subroutine walk(n)",
      "    integer :: n",
      "    select type (n)",
      "    type is (integer)",
      "    end select",
      "  end subroutine walk",
      "end module geometry",
      "program main",
      "  use geometry",
      "end program main",
    ].join("\n") + "\n",
    "**Fortran**, 26 lines\n- programs: `main`\n- modules: `geometry`\n- procedures: `area`, `walk`\n- types: `point`, `circle`\n- uses: `iso_fortran_env`, `iso_c_binding`, `geometry`",
  ],
  [
    "src/PAYROLL.cbl",
    [
      "      *> Copyright (c) 2024 A. Author",
      "       IDENTIFICATION DIVISION.",
      "       PROGRAM-ID. PAYROLL.",
      "       ENVIRONMENT DIVISION.",
      "       INPUT-OUTPUT SECTION.",
      "       FILE-CONTROL.",
      "           SELECT EMP ASSIGN TO EMPFILE.",
      "       DATA DIVISION.",
      "       WORKING-STORAGE SECTION.",
      "           COPY EMPREC.",
      "       PROCEDURE DIVISION.",
      "       MAIN-LOGIC SECTION.",
      "       OPEN-FILES.",
      "           OPEN INPUT EMP.",
      "           IF X = 1",
      "              DISPLAY 'X'",
      "           END-IF.",
      "       CLOSE-STOP.",
      "           CLOSE EMP.",
      "           GOBACK.",
    ].join("\n") + "\n",
    "**COBOL**, 20 lines\n- programs: `PAYROLL`\n- sections: `MAIN-LOGIC`\n- paragraphs: `OPEN-FILES`, `CLOSE-STOP`\n- copybooks: `EMPREC`",
  ],
  [
    "boot/entry.S",
    [
      "/* Copyright (c) 2024 A. Author */",
      '#include "common.h"',
      ".section .text.boot",
      ".globl _start",
      "_start:",
      "    mov $1, %eax",
      "1:  jmp 1b",
      ".macro PUSH_ALL",
      ".endm",
      ".data",
      'message: .asciz "hi"',
    ].join("\n") + "\n",
    "**Assembly**, 11 lines\n- globals: `_start`\n- labels: `_start`, `message`\n- macros: `PUSH_ALL`\n- sections: `.text.boot`, `.data`\n- includes: `common.h`",
  ],
  [
    "win/start.asm",
    [
      "; Copyright (c) 2024 A. Author",
      '%include "defs.inc"',
      "global main",
      "section .text",
      "main PROC",
      "    ret",
      "main ENDP",
    ].join("\n") + "\n",
    "**Assembly**, 7 lines\n- globals: `main`\n- procedures: `main`\n- sections: `.text`\n- includes: `defs.inc`",
  ],
  [
    "proto/shop.proto",
    [
      "// Copyright (c) 2024 A. Author",
      'syntax = "proto3";',
      "package shop.v1;",
      'import "google/protobuf/timestamp.proto";',
      'import public "shop/v1/common.proto";',
      "message Cart {",
      "  message Item { string sku = 1; }",
      "  enum State { OPEN = 0; }",
      "  repeated Item items = 1;",
      "}",
      "service Carts {",
      "  rpc GetCart(GetCartRequest) returns (Cart);",
      "}",
    ].join("\n") + "\n",
    "**Protocol Buffers**, 13 lines\n- package: `shop.v1`\n- messages: `Cart`, `Item`\n- enums: `State`\n- services: `Carts`\n- methods: `GetCart`\n- imports: `google/protobuf/timestamp.proto`, `shop/v1/common.proto`",
  ],
  [
    "app/build.gradle",
    [
      "// Copyright (c) 2024 A. Author",
      "plugins {",
      "    id 'com.android.application'",
      '    id("org.jetbrains.kotlin.android")',
      "}",
      "apply plugin: 'maven-publish'",
      "android {",
      "    compileSdk 34",
      "}",
      "dependencies {",
      "    implementation project(':core')",
      "}",
      "task cleanAll(type: Delete) {",
      "}",
      "tasks.register('printVersion') {",
      "}",
    ].join("\n") + "\n",
    "**Gradle**, 16 lines\n- plugins: `com.android.application`, `org.jetbrains.kotlin.android`, `maven-publish`\n- tasks: `cleanAll`, `printVersion`\n- blocks: `plugins`, `android`, `dependencies`",
  ],
  [
    "src/Cart.groovy",
    [
      "// Copyright (c) 2024 A. Author",
      "package shop",
      "abstract class Cart implements Priced {",
      "    def add(item) { items << item }",
      "    private static def secret() {}",
      "}",
      "enum Color { RED }",
    ].join("\n") + "\n",
    "**Groovy**, 7 lines\n- types: `Cart`, `Color`\n- methods: `add`, `secret`",
  ],
  [
    "src/Prelude.hs",
    [
      "{-",
      "    Copyright 2022 A. Author",
      "    along with this program = see the license | or not",
      "-}",
      "module Shop.Prelude where",
      "import Data.List",
      "",
      "headOrDefault _ (a:_) = a",
      "headOrDefault def _   = def",
      "",
      "(!!!) list i =",
      "    case drop i list of",
      "        [] -> Nothing",
      "",
      "total :: [Int] -> Int",
      "total = sum",
      "",
      "clamp x",
      "  | x < 0 = 0",
      "sign x | x < 0 = -1",
      "main = print (total [1])",
    ].join("\n") + "\n",
    "**Haskell**, 21 lines\n- module: `Shop.Prelude`\n- functions: `headOrDefault`, `(!!!)`, `total`, `clamp`, `sign`, `main`\n- imports: `Data.List`",
  ],
];

for (const [path, text, expected] of CASES) {
  Deno.test(`summarize() lists the declarations of ${path}, not its license's first lines`, () => {
    assert.equal(summarize(path, text), expected);
  });
}

Deno.test("summarize() of long one-line OCaml, F#, Erlang, Clojure, Fortran, COBOL, assembly, Protocol Buffers, Groovy and Haskell files is linear", () => {
  // Lines of a megabyte built to make an expression try many splits of them: each summary must
  // finish (a pattern that backtracks over a line takes minutes at this length).
  const long = 1 << 20;
  const lines: Array<[string, string]> = [
    ["a.ml", "type " + "(".repeat(long)],
    ["a.ml", "let " + "(".repeat(long)],
    ["a.fs", "[<" + "a".repeat(long) + " type"],
    ["a.fs", "let " + "private ".repeat(long / 8)],
    ["a.erl", "-record(" + "'".repeat(long)],
    ["a.clj", "(defn " + "^:a ".repeat(long / 4)],
    ["a.f90", "type, " + "a".repeat(long)],
    ["a.f90", "pure real(" + "a".repeat(long) + " function"],
    ["a.f90", "real ".repeat(long / 5) + "x"],
    ["a.cbl", "*" + " COPY ".repeat(long / 6)],
    ["a.cbl", "A" + " ".repeat(long) + "SECTIONX"],
    ["a.s", ".section" + " ".repeat(long)],
    ["a.proto", "import " + '"'.repeat(long)],
    ["a.gradle", "id(" + " ".repeat(long) + "x"],
    ["a.hs", "f" + " ".repeat(long) + "x"],
    ["a.hs", "{-" + "-".repeat(long)],
  ];
  for (const [path, line] of lines) {
    const summary = summarize(path, line + "\n" + line);
    assert.match(summary, /, 2 lines/, path);
  }
  // A Haskell name whose next line is blanks with no guard: the look at that line is linear too.
  const noGuard = "f" + " x".repeat(long / 2) + "\n" + " ".repeat(long) + "x";
  assert.match(summarize("a.hs", noGuard), /^\*\*Haskell\*\*, 2 lines$/);
});

Deno.test("summarize() lists a template's headings, blocks, includes and components, and shows one with none by its first lines", () => {
  const jinja = [
    '{% extends "base.html" %}',
    "{% block title %}Cart{% endblock %}",
    "{%- block content %}",
    "<h1>Your cart</h1>",
    '{% include "cart/_row.html" %}',
    "{% endblock %}",
  ].join("\n");
  assert.equal(
    summarize("templates/cart.html.j2", jinja),
    "**Jinja template**, 6 lines\n- headings: `Your cart`\n- blocks: `title`, `content`\n" +
      "- includes: `base.html`, `cart/_row.html`",
  );
  const heex = [
    "<Layouts.app flash={@flash}>",
    "  <h2>Items</h2>",
    '  <.table id="items" rows={@items}>',
    "    <:col :let={item}>{item.name}</:col>",
    "  </.table>",
    '  <.button phx-click="clear">Clear</.button>',
    "</Layouts.app>",
  ].join("\n");
  assert.equal(
    summarize("lib/shop_web/live/cart_live.html.heex", heex),
    "**HEEx template**, 7 lines\n- headings: `Items`\n" +
      "- components: `Layouts.app`, `.table`, `.button`",
  );
  const erb = '<h1>Cart</h1>\n<%= render "form", cart: @cart %>\n<%= render partial: "row" %>\n';
  assert.equal(
    summarize("app/views/carts/show.html.erb", erb),
    "**ERB template**, 3 lines\n- headings: `Cart`\n- renders: `form`, `row`",
  );
  assert.equal(
    summarize("templates/page.hbs", "{{> header}}\n<main>{{body}}</main>\n"),
    "**Handlebars template**, 2 lines\n- includes: `header`",
  );
  // A template of a config file names nothing: its first lines, as a text file's.
  assert.equal(
    summarize("rel/vm.args.eex", "## VM flags\n+SDio 5\n"),
    "**EEx template**, 2 lines\n\n    ## VM flags\n    +SDio 5",
  );
});

Deno.test("summarize() of long one-line templates is linear", () => {
  const long = 1 << 20;
  for (
    const line of [
      "{% block ".repeat(long / 9),
      '{% extends "'.repeat(long / 12),
      "{{> ".repeat(long / 4),
      "<%= render ".repeat(long / 11),
      "<A.b".repeat(long / 4),
      "<." + "a".repeat(long),
    ]
  ) {
    assert.match(summarize("a.html.heex", line + "\n" + line), /, 2 lines/);
  }
});

Deno.test("summarize() reads a .fs fragment shader as GLSL, not F#, and .glsl, .vert, .frag files as GLSL", () => {
  const shader = [
    "#version 330",
    "in vec2 fragTexCoord;",
    "uniform sampler2D texture0;",
    "uniform lowp vec4 colDiffuse;",
    "out vec4 finalColor;",
    "vec3 tone(vec3 c) {",
    "    return c;",
    "}",
    "void main()",
    "{",
    "    if (x) { }",
    "    else if (y)",
    "    finalColor = texture(texture0, fragTexCoord) * colDiffuse;",
    "}",
  ].join("\n") + "\n";
  const expected = "**GLSL shader**, 14 lines\n- uniforms: `texture0`, `colDiffuse`\n" +
    "- inputs: `fragTexCoord`\n- outputs: `finalColor`\n- functions: `tone`, `main`";
  for (const path of ["shaders/base.fs", "a.glsl", "a.vert", "a.frag"]) {
    assert.equal(summarize(path, shader), expected, path);
  }
  assert.match(summarize("src/Cart.fs", "module Cart\nlet total xs = 0\n"), /^\*\*F#\*\*/);
  // Long lines of a shader's openings are read in linear time.
  const long = 1 << 20;
  for (const line of ["uniform " + "a".repeat(long), "vec3 f(" + ")".repeat(long) + "x"]) {
    assert.match(summarize("a.frag", line + "\n" + line), /, 2 lines/);
  }
});

Deno.test("summarize() of F# lists the lets of a module, not those in a test's or a type's body", () => {
  const text = [
    "module Tests",
    "let helper x = x + 1",
    "[<Fact>]",
    "let ``adds one`` () =",
    "    let result = helper 1",
    "    Assert.Equal(2, result)",
    "module Inner =",
    "    let visible = 1",
    "    // a comment",
    "    let also x =",
    "        let hidden = x",
    "        hidden",
    "type Cart() =",
    "    let mutable count = 0",
    "    member _.Count = count",
  ].join("\n");
  assert.equal(
    summarize("tests/Tests.fs", `${text}\n`),
    "**F#**, 15 lines\n- modules: `Tests`, `Inner`\n- types: `Cart`\n" +
      "- functions: `helper`, ``` ``adds one`` ```, `visible`, `also`\n- members: `Count`",
  );
});

Deno.test("summarize() of Fortran lists a submodule written against its parent, and no separate module procedure as a module", () => {
  // neural-fortran's `nf_network_submodule.f90` read `module function …` as a module `function`
  const procedures = [
    ["module function", "end function"],
    ["module subroutine", "end subroutine"],
    ["module pure integer function", "end function"],
    ["MODULE ELEMENTAL REAL FUNCTION", "END FUNCTION"],
    ["module recursive subroutine", "end subroutine"],
    ["module procedure", "end procedure"],
  ];
  for (
    const parent of ["submodule(nf_network)", "submodule (nf_network)", "SUBMODULE(nf_network)"]
  ) {
    const text = [
      `${parent} nf_network_submodule`,
      "  implicit none",
      "contains",
      ...procedures.flatMap(([head, end], k) => [`  ${head} p${k}(self)`, `  ${end} p${k}`]),
      "end submodule nf_network_submodule",
    ].join("\n");
    const out = summarize("src/nf/nf_network_submodule.f90", `${text}\n`);
    assert.match(out, /- modules: `nf_network_submodule`\n/, out);
    assert.match(out, /- procedures: `p0`, `p1`, `p2`, `p3`, `p4`\n?/, out);
  }
});
