import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { CODE_EXTENSIONS } from "../../grammars/languages.ts";

// Small files of each kind, written for these tests.
const CASES: Array<[string, string, string]> = [
  [
    "Sources/Shop/Inventory.swift",
    [
      "import Foundation",
      "@testable import ShopCore",
      "",
      "public protocol Priced { var price: Double { get } }",
      "",
      "@MainActor",
      "public final class Inventory: Priced {",
      "    public private(set) var items: [String: Int] = [:]",
      "    public func add(_ sku: String, quantity: Int = 1) {}",
      "    class func make() -> Inventory { Inventory() }",
      "    private static func secret<T>(_ x: T) -> T { x }",
      "}",
      "",
      "extension Inventory: CustomStringConvertible {",
      '    public var description: String { "" }',
      "}",
      "enum Color { case red, green }",
      "actor Counter {}",
    ].join("\n"),
    "**Swift**, 18 lines\n" +
    "- types: `Priced`, `Inventory`, `Color`, `Counter`\n" +
    "- functions: `add`, `make`, `secret`\n" +
    "- imports: `Foundation`, `ShopCore`",
  ],
  [
    "lib/shop/inventory.ex",
    [
      "defmodule Shop.Inventory do",
      "  use GenServer",
      "  alias Shop.Item",
      "",
      "  def start_link(opts), do: GenServer.start_link(__MODULE__, opts)",
      "  def empty?(inv), do: inv == %{}",
      "  defp secret(x), do: x",
      "  defmacro with_item(item, do: block), do: block",
      "end",
      "",
      "defimpl String.Chars, for: Shop.Inventory do",
      '  def to_string(_), do: "inventory"',
      "end",
    ].join("\n"),
    "**Elixir**, 13 lines\n" +
    "- modules: `Shop.Inventory`\n" +
    "- implementations: `String.Chars`\n" +
    "- functions: `start_link`, `empty?`, `with_item`, `to_string`\n" +
    "- private functions: `secret`\n" +
    "- uses: `GenServer`, `Shop.Item`",
  ],
  [
    "lib/inventory.dart",
    [
      "import 'package:meta/meta.dart';",
      "",
      "abstract class Priced {",
      "  double get price;",
      "}",
      "",
      "mixin Counting {}",
      "enum Color { red, green }",
      "",
      "class Inventory extends Priced with Counting {",
      "  Inventory(this.items);",
      "  final Map<String, int> items;",
      "  @override",
      "  double get price => 0;",
      "  Future<void> add(String sku, {int quantity = 1}) async {",
      "  }",
      "  static Inventory empty() => Inventory({});",
      "}",
      "",
      "void main() {",
      "}",
    ].join("\n"),
    "**Dart**, 21 lines\n" +
    "- types: `Priced`, `Counting`, `Color`, `Inventory`\n" +
    // A getter (`double get price => 0;`) has no parameter list: not listed.
    "- functions: `add`, `empty`, `main`\n" +
    "- imports: `package:meta/meta.dart`",
  ],
  [
    "src/Shop/Inventory.hs",
    [
      "module Shop.Inventory (Inventory, add) where",
      "",
      "import qualified Data.Map as M",
      "import Data.Maybe (fromMaybe)",
      "",
      "newtype Inventory = Inventory (M.Map String Int)",
      "data Color = Red | Green deriving (Show)",
      "class Monoid a => Stock a where",
      "  count :: a -> Int",
      "",
      "instance Show Inventory where",
      '  show _ = "inventory"',
      "",
      "add :: String -> Inventory -> Inventory",
      "add sku (Inventory m) = Inventory (M.insertWith (+) sku 1 m)",
    ].join("\n"),
    "**Haskell**, 15 lines\n" +
    "- module: `Shop.Inventory`\n" +
    "- types: `Inventory`, `Color`, `Stock`\n" +
    "- instances: `Show Inventory`\n" +
    "- functions: `add`\n" +
    "- imports: `Data.Map`, `Data.Maybe`",
  ],
  [
    "src/inventory.zig",
    [
      'const std = @import("std");',
      "",
      "pub const Inventory = struct {",
      "    items: std.StringHashMap(u32),",
      "    pub fn init(allocator: std.mem.Allocator) Inventory {",
      "        return .{ .items = std.StringHashMap(u32).init(allocator) };",
      "    }",
      "    fn secret() void {}",
      "};",
      "",
      "const Color = enum { red, green };",
      "export fn add(x: i32) i32 { return x; }",
      "",
      'test "inventory starts empty" {',
      "}",
    ].join("\n"),
    "**Zig**, 15 lines\n" +
    "- types: `Inventory`, `Color`\n" +
    "- functions: `init`, `secret`, `add`\n" +
    "- tests: `inventory starts empty`\n" +
    "- imports: `std`",
  ],
  [
    "infra/main.tf",
    [
      "terraform {",
      '  required_version = ">= 1.0"',
      "}",
      'provider "aws" {',
      '  region = "eu-west-1"',
      "}",
      "",
      'variable "name" {',
      "  type = string",
      "}",
      "",
      'resource "aws_vpc" "this" {',
      '  cidr_block = "10.0.0.0/16"',
      "}",
      "",
      'data "aws_region" "current" {}',
      "",
      'module "subnets" {',
      '  source = "./subnets"',
      "}",
      "",
      'output "vpc_id" {',
      "  value = aws_vpc.this.id",
      "}",
    ].join("\n"),
    "**Terraform**, 24 lines\n" +
    "- resources: `aws_vpc.this`\n" +
    "- data sources: `data.aws_region.current`\n" +
    "- modules: `subnets`\n" +
    "- variables: `name`\n" +
    "- outputs: `vpc_id`\n" +
    "- providers: `aws`\n" +
    "- blocks: `terraform`",
  ],
  [
    "live/prod/vpc/terragrunt.hcl",
    [
      'include "root" {',
      "  path = find_in_parent_folders()",
      "}",
      "",
      'dependency "network" {',
      '  config_path = "../network"',
      "}",
      "",
      "terraform {",
      '  source = "git::github.com/acme/modules//vpc"',
      "}",
      "",
      "inputs = {",
      '  name = "prod"',
      "}",
    ].join("\n"),
    "**Terragrunt**, 15 lines\n" +
    "- blocks: `include.root`, `dependency.network`, `terraform`\n" +
    "- settings: `inputs`",
  ],
  [
    "images/web.pkr.hcl",
    [
      'source "amazon-ebs" "web" {',
      '  ami_name = "web"',
      "}",
      "",
      "build {",
      '  sources = ["source.amazon-ebs.web"]',
      '  provisioner "shell" {',
      '    inline = ["echo ok"]',
      "  }",
      "}",
    ].join("\n"),
    "**Packer template**, 10 lines\n" +
    "- blocks: `source.amazon-ebs.web`, `build`\n" +
    "- inner blocks: `provisioner.shell`",
  ],
  [
    "jobs/web.nomad.hcl",
    [
      'job "web" {',
      '  datacenters = ["dc1"]',
      '  group "frontend" {',
      '    task "nginx" {',
      '      driver = "docker"',
      "      config {",
      '        image = "nginx"',
      "      }",
      "    }",
      "  }",
      "}",
    ].join("\n"),
    "**Nomad job**, 11 lines\n" +
    "- blocks: `job.web`\n" +
    "- inner blocks: `group.frontend`, `task.nginx`",
  ],
  [
    "live/prod/env.hcl",
    ["locals {", '  environment = "prod"', "}", "retry_max_attempts = 3"].join("\n"),
    "**HCL**, 4 lines\n" +
    "- blocks: `locals`\n" +
    "- settings: `retry_max_attempts`",
  ],
  [
    "src/components/Cart.vue",
    [
      "<template>",
      "  <div>{{ total }}</div>",
      "</template>",
      "",
      '<script setup lang="ts">',
      'import { computed } from "vue";',
      "export interface Item { price: number }",
      "function total(items: Item[]) { return 0; }",
      "</script>",
      "",
      "<style scoped>",
      ".cart { color: red; }",
      "</style>",
    ].join("\n"),
    "**Vue component**, 13 lines\n" +
    '- blocks: `template`, `script setup lang="ts"`, `style scoped`\n' +
    "- functions: `total`\n" +
    "- interfaces: `Item`\n" +
    "- imports: `vue`",
  ],
  [
    "src/lib/Cart.svelte",
    [
      "<script>",
      '\timport { onMount } from "svelte";',
      "\texport let items = [];",
      "\tfunction total() {",
      "\t\tfunction inner() {}",
      "\t}",
      "</script>",
      "",
      "<p>{total()}</p>",
    ].join("\n"),
    "**Svelte component**, 9 lines\n" +
    "- blocks: `script`\n" +
    "- functions: `total`\n" +
    "- exports: `items`\n" +
    "- imports: `svelte`",
  ],
  [
    "sass/button.scss",
    [
      '@use "sass:math";',
      '@import "variables";',
      "$button-color: red !default;",
      ":root {",
      "  --button-size: 1rem;",
      "}",
      "@mixin focus($color) {",
      "  outline: 1px solid $color;",
      "}",
      "@function half($x) { @return math.div($x, 2); }",
      ".#{$prefix}button, .btn {",
      "  color: $button-color;",
      "  &:hover { color: blue; }",
      "}",
      "@media screen and (min-width: 768px) {",
      "  .btn { width: 100%; }",
      "}",
    ].join("\n"),
    "**SCSS**, 17 lines\n" +
    "- imports: `sass:math`, `variables`\n" +
    "- variables: `button-color`\n" +
    "- custom properties: `--button-size`\n" +
    "- mixins: `focus`\n" +
    "- functions: `half`\n" +
    "- media queries: `screen and (min-width: 768px)`\n" +
    "- selectors: `:root`, `.#{$prefix}button, .btn`",
  ],
  [
    "charts/app/templates/_helpers.tpl",
    [
      '{{- define "app.name" -}}',
      "{{ .Chart.Name }}",
      "{{- end }}",
      '{{- define "app.labels" -}}',
      'app: {{ include "app.name" . }}',
      "{{- end }}",
    ].join("\n"),
    "**Template**, 6 lines\n" +
    "- defines: `app.name`, `app.labels`\n" +
    "- includes: `app.name`",
  ],
  [
    "lua/shop/init.lua",
    [
      'local json = require("json")',
      "local M = {}",
      "function M.new(name) end",
      "function M:add(sku) end",
      "local function secret() end",
      "M.total = function(self) end",
      "return M",
    ].join("\n"),
    "**Lua**, 7 lines\n" +
    "- functions: `M.new`, `M:add`, `secret`\n" +
    "- function values: `M.total`\n" +
    "- requires: `json`",
  ],
  [
    "src/main/kotlin/Inventory.kt",
    [
      "package shop.core",
      "import kotlinx.coroutines.flow.Flow",
      "data class Item(val sku: String)",
      "fun interface Runner { fun run() }",
      "sealed interface Shape",
      "object Registry",
      "class Inventory {",
      "    suspend fun <T> put(key: T) {}",
      "    private fun String.shout() = uppercase()",
      "    companion object {}",
      "}",
    ].join("\n"),
    "**Kotlin**, 11 lines\n" +
    "- package: `shop.core`\n" +
    "- types: `Item`, `Runner`, `Shape`, `Registry`, `Inventory`\n" +
    // What follows a `{` on the same line is no line's start: `run` is not listed.
    "- functions: `put`, `String.shout`\n" +
    "- imports: `kotlinx.coroutines.flow.Flow`",
  ],
];

CASES.push([
  "docs/index.html",
  [
    "<!doctype html>",
    "<html><head><title>Shop docs</title>",
    '<link rel="stylesheet" href="css/site.css">',
    '<script src="js/app.js"></script></head>',
    '<body><h1 class="top">The <em>shop</em></h1>',
    "<h2>Install</h2><h4>Small</h4>",
    "</body></html>",
  ].join("\n"),
  "**HTML**, 7 lines\n" +
  "- title: `Shop docs`\n" +
  "- headings: `The shop`, `Install`\n" +
  "- scripts: `js/app.js`\n" +
  "- stylesheets: `css/site.css`",
]);

for (const [path, text, expected] of CASES) {
  Deno.test(`summarize() lists the declarations of ${path} by a line scan`, () => {
    assert.equal(summarize(path, `${text}\n`), expected);
  });
}

Deno.test("summarize() of one-line files a quarter megabyte long of each new kind names nothing it cannot close", () => {
  // Long lines of openings that never close (a quadratic pattern would spend minutes here; the
  // module's comment says why none does): each summary is its header alone.
  const long = "a".repeat(1 << 18);
  const cases: Array<[string, string, string]> = [
    ["a.scss", `${long}#{x${long}`, "**SCSS**, 1 line"],
    ["a.dart", `${long}(${long}`, "**Dart**, 1 line"],
    ["a.swift", "public ".repeat(30_000), "**Swift**, 1 line"],
    // A script never closed is no block.
    ["a.vue", "<script>\n".repeat(1 << 15), "**Vue component**, 32,768 lines"],
    ["a.hs", `instance ${long}`, "**Haskell**, 1 line"],
    ["a.html", "<h1 <title <script <link href='".repeat(10_000), "**HTML**, 1 line"],
    ["a.zig", '@import("'.repeat(30_000), "**Zig**, 1 line"],
  ];
  for (const [path, text, header] of cases) assert.equal(summarize(path, text), header, path);
});

Deno.test("summarize() lists each Java and C function after one whose body has no `;` (an empty body), in either Java expression", () => {
  // The name's pattern ended `\([^;]*$`, which ran on over line ends to the next `;`: a method
  // with an empty body swallowed the methods after it, up to the first statement.
  const java = (indent: string) =>
    [
      "class Shop {",
      `${indent}public void open() {`,
      `${indent}}`,
      "",
      `${indent}@Override`,
      `${indent}public String toString() {`,
      `${indent}  if (ready()) {`,
      `${indent}    return "open";`,
      `${indent}  }`,
      `${indent}  return "shut";`,
      `${indent}}`,
      `${indent}void close() { }`,
      `${indent}boolean ready() {`,
      `${indent}  synchronized (this) {`,
      `${indent}    return true;`,
      `${indent}  }`,
      `${indent}}`,
      "}",
    ].join("\n");
  const methods = "- methods: `open`, `toString`, `close`, `ready`";
  assert.equal(
    summarize("Shop.java", java("  ")),
    `**Java**, 18 lines\n- types: \`Shop\`\n${methods}`,
  );
  // A line over 1,000 characters reads the file with the linear expression.
  const long = `${java("  ")}\n// ${"x".repeat(1_001)}`;
  assert.match(summarize("Shop.java", long), new RegExp(`\n${methods}$`));
  const c = [
    "int open(void)",
    "{",
    "}",
    "",
    "static void close(int x) {",
    "}",
    "",
    "int ready(void) {",
    "  return 1;",
    "}",
  ];
  assert.equal(
    summarize("shop.c", c.join("\n")),
    "**C**, 10 lines\n- functions: `open`, `close`, `ready`",
  );
});

// PowerShell, Objective-C and shell scripts: their declarations, not their first lines.
const SCRIPT_CASES: Array<[string, string, string]> = [
  [
    "tools/Deploy.ps1",
    [
      "#Requires -Version 5",
      "[CmdletBinding()]",
      "param(",
      "    # Where the site goes.",
      "    [Parameter(Mandatory = $true, Position = 0)]",
      "    [ValidateNotNullOrEmpty()]",
      "    [string]$Target,",
      "    [switch]$Force = $false,",
      '    $Name = "site (x)", # a comment with $notAParameter',
      "    [int[]]$Ports = @(80, 443)",
      ")",
      "Import-Module ./Shop.psm1",
      "<#",
      ".NOTES",
      "    Call this function instead of that one:",
      "    function Old-Way { }",
      "#>",
      "enum Stage { Build; Ship }",
      "class Release {",
      "    [string]$Tag",
      "}",
      "function Get-Release([string]$Tag) { }",
      "Function script:Invoke-Step {",
      "    param([scriptblock]$Body)",
      "}",
      "filter Select-Ok { $_ }",
    ].join("\n"),
    "**PowerShell**, 26 lines\n" +
    "- parameters: `Target`, `Force`, `Name`, `Ports`\n" +
    "- types: `Stage`, `Release`\n" +
    "- functions: `Get-Release`, `Invoke-Step`, `Select-Ok`\n" +
    "- imports: `./Shop.psm1`",
  ],
  [
    "Shop/SHPCart.m",
    [
      '#import "SHPCart.h"',
      "#import <Foundation/Foundation.h>",
      "@import UIKit;",
      "@protocol SHPPriced;",
      "@protocol SHPObserver <NSObject>",
      "- (void)cartDidChange:(SHPCart *)cart;",
      "@end",
      "@interface SHPCart () <SHPObserver>",
      "@end",
      "@implementation SHPCart",
      "+ (instancetype)cartWithItems:(NSArray *)items {",
      "    return [[self alloc] init];",
      "}",
      "- (void)addItem:(id)item quantity:(NSInteger)n completion:(void (^)(BOOL ok))done {",
      "}",
      "- (NSUInteger)count { return 0; }",
      "- (void)GET:(NSString *)url",
      "   parameters:(nullable id)parameters",
      "      success:(nullable void (^)(NSURLSessionDataTask * _Nonnull, id _Nullable))success",
      "{",
      "}",
      "@end",
      "@implementation SHPCart (Totals)",
      "@end",
    ].join("\n"),
    "**Objective-C**, 24 lines\n" +
    "- protocols: `SHPObserver`\n" +
    "- interfaces: `SHPCart ()`\n" +
    "- implementations: `SHPCart`, `SHPCart (Totals)`\n" +
    "- methods: `-cartDidChange:`, `+cartWithItems:`, `-addItem:quantity:completion:`, `-count`, " +
    "`-GET:parameters:success:`\n" +
    "- imports: `SHPCart.h`, `Foundation/Foundation.h`, `UIKit`",
  ],
  [
    "scripts/release.sh",
    [
      "#!/bin/sh",
      "set -e",
      ". ./lib/common.sh",
      'source "$HOME/.shoprc"',
      "usage() {",
      '  echo "usage: $0" # not_a_function() here',
      "}",
      "function build_site {",
      "  :",
      "}",
      "function ship() { :; }",
      "  clean_up () {",
      "    rm -rf out",
      "  }",
      'case "$1" in',
      "  start) build_site ;;",
      "esac",
      "size=$((1 << bits))",
      "cat >server.py <<-'EOF'",
      "\tdef serve():",
      "\t    self.end_headers()",
      "\tmake_site() { :; }",
      "\tEOF",
      "after_doc() { :; }",
    ].join("\n"),
    "**Shell**, 24 lines\n" +
    "- functions: `usage`, `build_site`, `ship`, `clean_up`, `after_doc`\n" +
    "- sources: `./lib/common.sh`, `$HOME/.shoprc`",
  ],
];
for (const [path, text, expected] of SCRIPT_CASES) {
  Deno.test(`summarize() lists the declarations of ${path} by a line scan`, () => {
    assert.equal(summarize(path, `${text}\n`), expected);
  });
}

Deno.test("summarize() shows a shell or PowerShell script of commands alone by its first lines", () => {
  assert.equal(
    summarize("run.sh", "#!/bin/sh\nset -e\nmake test\n"),
    "**Shell**, 3 lines\n\n    #!/bin/sh\n    set -e\n    make test",
  );
  assert.equal(
    summarize("a.ps1", "Write-Host hi\n"),
    "**PowerShell**, 1 line\n\n    Write-Host hi",
  );
  assert.equal(summarize("e.sh", ""), "**Shell**, 0 lines");
});

Deno.test("summarize() reads a MATLAB .m file as MATLAB, and a .m file with Objective-C's words as Objective-C", () => {
  const matlab = "function y = f(x)\n  y = x - (x + 1);\nend\n";
  assert.equal(summarize("f.m", matlab), "**MATLAB**, 3 lines\n- functions: `f`");
  assert.match(summarize("g.m", "@implementation G\n@end\n"), /^\*\*Objective-C\*\*, 2 lines\n/);
  assert.match(
    summarize("g.mm", "@implementation G\n@end\n"),
    /^\*\*Objective-C\+\+\*\*, 2 lines\n/,
  );
});

Deno.test("summarize() of long one-line PowerShell, Objective-C and shell files names nothing it cannot close", () => {
  const long = "a".repeat(1 << 18);
  const cases: Array<[string, string, string]> = [
    ["a.ps1", `param(${"[x(".repeat(50_000)}`, "**PowerShell**, 1 line"],
    ["b.ps1", `param('${long}`, "**PowerShell**, 1 line"],
    ["c.ps1", `<#${long}`.repeat(8) + "\nfunction f {}", "**PowerShell**, 2 lines"],
    ["a.mm", `- (${"(".repeat(1 << 17)}`, "**Objective-C++**, 1 line"],
    ["b.mm", `- (${"(x)".repeat(1 << 16)}`, "**Objective-C++**, 1 line"],
    ["a.sh", `${long} (${long}`, "**Shell**, 1 line"],
    ["b.sh", "<<A ".repeat(1 << 16), "**Shell**, 1 line"],
    ["c.sh", "x <<A\nf() {}\n".repeat(1 << 14), "**Shell**, 32,768 lines"],
  ];
  // A script without names shows its first line (cut), and no row of names.
  for (const [path, text, header] of cases) {
    const summary = summarize(path, text);
    assert.ok(summary === header || summary.startsWith(`${header}\n\n    `), path);
    assert.ok(!summary.includes("\n- "), path);
  }
});

Deno.test("summarize() reads every extension a grammar reads as its language, never as text", () => {
  // C# and Scala have grammars (skeleton, outline) but had no summary: a budget that stepped a
  // file down to `summary` showed its first lines, most often a license header.
  for (const ext of CODE_EXTENSIONS) {
    assert.doesNotMatch(summarize(`a${ext}`, "x\n"), /^\*\*Text\*\*/, ext);
  }
  const csharp = [
    "// Copyright (c) Shop Ltd. All rights reserved.",
    "using System;",
    "using static System.Math;",
    "namespace Shop.Orders",
    "{",
    "    public sealed partial class Cart : IDisposable",
    "    {",
    "        public static Cart Create(int size)",
    "        {",
    "            return Build(size);",
    "        }",
    "        private async Task<List<Item>> LoadAsync<T>(CancellationToken token) {",
    "            if (token.IsCancellationRequested) return null;",
    "        }",
    "        public void Dispose() { }",
    "    }",
    "    internal record struct Line(int Id);",
    "    public interface IPriced { decimal Price { get; } }",
    "    enum Stage { Open, Paid }",
    "}",
  ].join("\n");
  assert.equal(
    summarize("src/Cart.cs", csharp),
    "**C#**, 20 lines\n" +
      "- namespaces: `Shop.Orders`\n" +
      "- types: `Cart`, `Line`, `IPriced`, `Stage`\n" +
      "- methods: `Create`, `LoadAsync`, `Dispose`\n" +
      "- usings: `System`, `System.Math`",
  );
  const scala = [
    "package shop.orders",
    "import scala.concurrent.Future",
    "import shop.model.{Item, Price}",
    "sealed trait Priced",
    "final case class Cart(items: List[Item]) extends Priced {",
    "  def total: BigDecimal = items.map(_.price).sum",
    "  private[orders] def add(item: Item): Cart = copy(items = item :: items)",
    "  def +(other: Cart): Cart = ???",
    "}",
    "object Cart {",
    "  implicit val ordering: Ordering[Cart] = ???",
    "}",
    "enum Stage { case Open, Paid }",
  ].join("\n");
  assert.equal(
    summarize("src/Cart.scala", scala),
    "**Scala**, 13 lines\n" +
      "- package: `shop.orders`\n" +
      "- types: `Priced`, `Cart`, `Stage`\n" +
      "- functions: `total`, `add`, `+`\n" +
      "- imports: `scala.concurrent.Future`, `shop.model.{Item, Price}`",
  );
});

// R, Perl, MATLAB, Emacs Lisp, Vim script, Pascal, GDScript, SQL and Julia: their declarations,
// where they showed their first lines (a licence header, magit's and vim-fugitive's comments).
const MORE_CASES: Array<[string, string, string]> = [
  [
    "R/cart.R",
    [
      "# Carts.",
      "library(dplyr)",
      'requireNamespace("R6", quietly = TRUE)',
      "total <- function(x, ...) sum(x)",
      "`%+%` <- function(a, b) paste0(a, b)",
      "helper = function() NULL",
      'Cart <- R6::R6Class("Cart", public = list(add = function(x) x))',
      'setClass("Item", representation(price = "numeric"))',
      "x <- functional(1)",
    ].join("\n"),
    "**R**, 9 lines\n- functions: `total`, `` `%+%` ``, `helper`\n- classes: `Item`\n" +
    "- libraries: `dplyr`, `R6`",
  ],
  [
    "lib/Shop/Cart.pm",
    [
      "package Shop::Cart;",
      "use strict;",
      "use warnings;",
      "use List::Util qw(sum);",
      "require Carp;",
      "sub new { bless {}, shift }",
      "sub Shop::Cart::total {",
      "  my $self = shift; # sub not_a_sub",
      "}",
    ].join("\n"),
    "**Perl module**, 9 lines\n- packages: `Shop::Cart`\n- subs: `new`, `Shop::Cart::total`\n" +
    "- uses: `List::Util`, `Carp`",
  ],
  [
    "NN/nntrain.m",
    [
      "function [nn, L]  = nntrain(nn, train_x, train_y, opts)",
      "%NNTRAIN trains a neural net",
      "  L = zeros(1, 10);",
      "end",
      "function y = sigm(x)",
      "  y = 1 ./ (1 + exp(-x));",
      "end",
      "function run",
      "end",
    ].join("\n"),
    "**MATLAB**, 9 lines\n- functions: `nntrain`, `sigm`, `run`",
  ],
  [
    "lisp/magit-cart.el",
    [
      ";;; magit-cart.el --- Carts  -*- lexical-binding:t -*-",
      "(require 'magit-core)",
      '(defgroup magit-cart nil "Carts.")',
      '(defcustom magit-cart-size 3 "Size." :type \'integer)',
      "(defvar-local magit-cart--items nil)",
      "(defun magit-cart-add (item)",
      '  "Add ITEM."',
      "  (push item magit-cart--items))",
      "(cl-defmethod magit-cart-total ((c cart)) 0)",
      '(define-minor-mode magit-cart-mode "Carts.")',
      "(provide 'magit-cart)",
    ].join("\n"),
    "**Emacs Lisp**, 11 lines\n" +
    "- functions: `magit-cart-add`, `magit-cart-total`, `magit-cart-mode`\n" +
    "- variables: `magit-cart`, `magit-cart-size`, `magit-cart--items`\n" +
    "- requires: `magit-core`\n- provides: `magit-cart`",
  ],
  [
    "autoload/cart.vim",
    [
      '" Carts.',
      "function! cart#Add(item) abort",
      "endfunction",
      "fun s:Total()",
      "endfun",
      "def g:Vim9Cart(): number",
      "enddef",
      "command! -nargs=1 -bang CartAdd call cart#Add(<q-args>)",
      "augroup cart_events",
      "  autocmd!",
      "augroup END",
    ].join("\n"),
    "**Vim script**, 11 lines\n" +
    "- functions: `cart#Add`, `s:Total`, `g:Vim9Cart`\n- commands: `CartAdd`\n" +
    "- augroups: `cart_events`",
  ],
  [
    "source/cart.pas",
    [
      "unit Cart;",
      "interface",
      "uses SysUtils, Classes;",
      "type",
      "  TCart = class(TObject)",
      "    procedure Add(Item: Integer);",
      "    function Total: Integer;",
      "  end;",
      "  TLine = packed record Id: Integer; end;",
      "  TCartClass = class of TCart;",
      "  TForward = class;",
      "implementation",
      "PROCEDURE TCart.Add(Item: Integer);",
      "begin end;",
      "constructor TCart.Create;",
      "begin end;",
      "end.",
    ].join("\n"),
    "**Pascal**, 17 lines\n- unit: `Cart`\n- types: `TCart`, `TLine`\n" +
    "- routines: `Add`, `Total`, `TCart.Add`, `TCart.Create`",
  ],
  [
    "player/player.gd",
    [
      "class_name Player",
      "extends CharacterBody2D",
      "signal hit(damage: int)",
      "const SPEED = 300.0",
      "func _ready() -> void:",
      "\tpass",
      "static func make() -> Player:",
      "\treturn Player.new()",
      "class Inventory:",
      "\tfunc add(item): pass",
    ].join("\n"),
    "**GDScript**, 10 lines\n- class_name: `Player`\n- extends: `CharacterBody2D`\n" +
    "- classes: `Inventory`\n- signals: `hit`\n- functions: `_ready`, `make`, `add`",
  ],
  [
    "db/schema.sql",
    [
      "-- Schema.",
      "CREATE TABLE IF NOT EXISTS carts (id int primary key);",
      'create table "shop"."line items" (id int);',
      "CREATE OR REPLACE VIEW cart_totals AS SELECT 1;",
      "CREATE TEMPORARY TABLE scratch (x int);",
      "CREATE OR REPLACE FUNCTION cart_total(c int) RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql;",
      "CREATE TRIGGER cart_touch BEFORE UPDATE ON carts FOR EACH ROW EXECUTE FUNCTION touch();",
      "CREATE INDEX carts_id ON carts (id);",
    ].join("\n"),
    "**SQL**, 8 lines\n" +
    '- tables: `carts`, `"shop"."line items"`, `cart_totals`, `scratch`\n' +
    "- routines: `cart_total`, `cart_touch`",
  ],
  [
    "src/Cart.jl",
    [
      "module Carts",
      "using DataFrames",
      "import Base.show",
      "abstract type AbstractCart end",
      "mutable struct Cart <: AbstractCart",
      "  items::Vector{Int}",
      "end",
      "function add!(c::Cart, x)",
      "  push!(c.items, x)",
      "end",
      "@inline function Base.length(c::Cart)",
      "end",
      "macro cart(x) end",
      "end",
    ].join("\n"),
    "**Julia**, 14 lines\n- modules: `Carts`\n- types: `AbstractCart`, `Cart`\n" +
    "- functions: `add!`, `Base.length`, `cart`\n- imports: `DataFrames`, `Base.show`",
  ],
];

Deno.test("summarize() lists R, Perl, MATLAB, Emacs Lisp, Vim script, Pascal, GDScript, SQL and Julia declarations", () => {
  for (const [path, text, expected] of MORE_CASES) {
    assert.equal(summarize(path, text), expected, path);
  }
  // A `.m` file with no function or class is no MATLAB of ours to read (Mathematica's, a script).
  assert.match(summarize("a.m", "x = 1;\ny = 2;\n"), /^\*\*Text\*\*, 2 lines/);
  // By the `#!` line: Perl, R and Julia scripts without an extension.
  assert.match(summarize("bin/tool", "#!/usr/bin/env perl\nsub main {}\n"), /^\*\*Perl\*\*/);
  assert.match(
    summarize("bin/report", "#!/usr/bin/env Rscript\nf <- function() 1\n"),
    /^\*\*R\*\*/,
  );
});

Deno.test("summarize() of long one-line R, Perl, MATLAB, Emacs Lisp, Vim, Pascal, GDScript, SQL and Julia files is linear", () => {
  // Lines of a megabyte built to make an expression try many splits of them: each summary must
  // finish (a pattern that backtracks over a line takes minutes at this length).
  const long = 1 << 20;
  const lines: Array<[string, string]> = [
    ["a.R", "f" + " ".repeat(long) + "<-"],
    ["a.R", "x <- " + "setClass(".repeat(long / 9)],
    ["a.pl", "use " + "A::".repeat(long / 3)],
    ["a.m", "function [" + "a,".repeat(long / 2)],
    ["a.el", "(defun " + "(".repeat(long)],
    ["a.vim", "command! " + "-a ".repeat(long / 3)],
    ["a.pas", "TCart" + "<".repeat(long) + " = class"],
    ["a.pas", "procedure " + "a.".repeat(long / 2)],
    ["a.gd", "static " + "func".repeat(long / 4)],
    ["a.sql", "create table " + '"a".'.repeat(long / 4)],
    ["a.sql", "create " + "or replace ".repeat(long / 11)],
    ["a.jl", "@a ".repeat(long / 3) + "function"],
  ];
  for (const [path, line] of lines) {
    const summary = summarize(path, line + "\n" + line);
    assert.match(summary, /, 2 lines/, path);
  }
});

Deno.test("summarize() reads a component's script blocks as the code views do: none inside markup", () => {
  const text = [
    "<script>export let a = 1;",
    "\tfunction total() {}",
    "</script>",
    "<pre>",
    "<script>",
    "function fake() {}",
    "</script>",
    "</pre>",
    "",
  ].join("\n");
  assert.equal(
    summarize("src/A.svelte", text),
    "**Svelte component**, 8 lines\n- blocks: `script`\n- functions: `total`\n- exports: `a`",
  );
  // A block is listed by its whole opening tag, though a `>` stands in a quoted value.
  const vue = '<script setup lang="ts" generic="T extends A<B>">\nfunction f() {}\n</script>\n';
  assert.equal(
    summarize("src/A.vue", vue),
    '**Vue component**, 3 lines\n- blocks: `script setup lang="ts" generic="T extends A<B>"`\n' +
      "- functions: `f`",
  );
});

Deno.test("summarize() of Dart lists no call whose closure argument opens a body", () => {
  const text = [
    "void main() {",
    "  test('reads', () {",
    "    expect(items.map((e) {",
    "      return e;",
    "    }), isNotEmpty);",
    "  });",
    "}",
    "void each(void Function(int) cb, {int a = 1}) {}",
  ].join("\n");
  assert.equal(
    summarize("test/a_test.dart", `${text}\n`),
    "**Dart**, 8 lines\n- functions: `main`, `each`\n- tests: `reads`",
  );
});

Deno.test("summarize() of Dart lists no constructor's super or this call, nor an if, as a function", () => {
  // (shelf's `Request._(…) : …, super(body, …) {` listed `super` among its functions)
  const text = [
    "class Request extends Message {",
    "  Request._(this.method, Uri url, {Object? body})",
    "      : url = url,",
    "        super(body, encoding: null) {",
    "    if(method.isEmpty) {",
    "      throw ArgumentError('empty');",
    "    }",
    "  }",
    "  Request.get(Uri url)",
    "      : this(",
    "          'GET', url) {",
    "  }",
    "  Request change({Map<String, Object?>? headers}) {",
    "    return this;",
    "  }",
    "}",
  ].join("\n");
  assert.equal(
    summarize("lib/src/request.dart", `${text}\n`),
    "**Dart**, 16 lines\n- types: `Request`\n- functions: `change`",
  );
});

Deno.test("summarize() of JavaScript lists nothing a template literal's text holds", () => {
  const text = [
    "import { format } from './format.js';",
    "const header = `",
    'import {Math} from "../math/Math.sol";',
    "`;",
    "const template = (opts) => `",
    "function push(${opts.type} self) internal returns (${opts.value}) {",
    "    return _insert(self.${opts.field});",
    "}",
    "class Fake {}",
    "`;",
    "const pattern = /`/g;",
    "const ratio = a / 2 / `x`;",
    "// a backtick in a comment: `",
    "export function generate() {}",
  ].join("\n");
  assert.equal(
    summarize("scripts/generate/checkpoints.js", `${text}\n`),
    "**JavaScript**, 14 lines\n- functions: `generate`\n- imports: `./format.js`",
  );
});

// C++'s scoped enums (`enum class Mode : std::uint8_t`, `enum struct Kind`): the types' pattern
// read `class` as the enum's name (CLI11's `App.hpp` listed a type `class`). Written for this test.
Deno.test("summarize() names a C++ scoped enum by its name", () => {
  const text = [
    "namespace cli {",
    "enum class Mode : std::uint8_t { Off, On };",
    "enum struct Kind { A };",
    "enum Plain { B };",
    "class App;",
    // An attribute after `enum class` (review25): it was listed as a type `class`.
    "enum class [[nodiscard]] errc { ok };",
    "struct [[deprecated]] Old {};",
    "}",
  ].join("\n");
  assert.equal(
    summarize("app.hpp", text),
    "**C++ header**, 8 lines\n- types: `cli`, `Mode`, `Kind`, `Plain`, `App`, `errc`, `Old`",
  );
});

// A named argument of a call is no definition: dplyr's `R/filter.R` listed `error` and `warning`
// (`withCallingHandlers(..., error = function(cnd) {`) and a backquoted condition class among its
// functions. A list's or R6's members stay. Written for this test.
Deno.test("summarize() of R lists no named argument of a call as a function, but a list's members", () => {
  const text = [
    "filter_rows <- function(data, dots) {",
    "  out <- withCallingHandlers(",
    '    eval(dots), # a comment with ( and "',
    "    error = function(cnd) {",
    '      abort("(", parent = cnd)',
    "    },",
    "    `dplyr:::signal` = function(e) NULL",
    "  )",
    "  local_helper = function(x) x",
    "  lapply(dots, FUN = function(d) d)",
    "}",
    "tryCatch(run(), finally = function() NULL)",
    'Cart <- R6::R6Class("Cart", public = list(',
    "  add = function(x) x,",
    "  total = function() sum(self$items)",
    "))",
    "methods = list(",
    "  print = function(x) cat(x)",
    ")",
    "after = function() NULL",
    "'unclosed (",
  ].join("\n");
  assert.equal(
    summarize("R/filter.R", `${text}\n`),
    "**R**, 21 lines\n- functions: `filter_rows`, `local_helper`, `add`, `total`, `print`, `after`",
  );
});
