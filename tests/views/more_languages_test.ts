import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { languageFor, languageOf } from "../../grammars/languages.ts";
import { makeProject } from "../_helpers.ts";
import { buildContext } from "../../mod.ts";
import { assertMasks, languageGoldens, type MaskCase } from "./_language_goldens.ts";

// Small files using most of each language's declarations, written for these tests.
const RUBY = [
  "# frozen_string_literal: true",
  'require "json"',
  "",
  "# A shop's inventory.",
  "module Shop",
  '  VERSION = "1.2.0"',
  "",
  "  # Raised when stock runs out.",
  "  class OutOfStock < StandardError; end",
  "",
  "  class Inventory",
  "    include Enumerable",
  "    attr_reader :items, :name",
  "",
  "    def initialize(name, items = {})",
  "      @name = name",
  "      @items = items",
  "    end",
  "",
  "    # Add stock.",
  "    def add(sku, quantity: 1, &block)",
  "      @items[sku] = (@items[sku] || 0) + quantity",
  "      block&.call(sku)",
  "    end",
  "",
  "    def self.build(*args, **opts)",
  "      new(*args, **opts)",
  "    end",
  "",
  "    class << self",
  '      def empty = new("empty")',
  "    end",
  "",
  "    def each(&) = @items.each(&)",
  "",
  "    protected",
  "",
  "    def total",
  "      @items.values.sum",
  "    end",
  "",
  "    private",
  "",
  "    def secret; 42; end",
  "  end",
  "end",
  "",
  "def helper(x)",
  "  x * 2",
  "end",
  "",
  'Shop::Inventory.new("a").add("x")',
].join("\n") + "\n";

const PHP = [
  "<!DOCTYPE html>",
  "<?php",
  "declare(strict_types=1);",
  "",
  "namespace App\\Models;",
  "",
  "use Illuminate\\Support\\Str;",
  "use function strlen;",
  "",
  "const LIMIT = 10;",
  "",
  "/** Something countable. */",
  "interface Countable",
  "{",
  "    public function count(): int;",
  "}",
  "",
  "trait Greets",
  "{",
  '    public function greet(string $who = "you"): string',
  "    {",
  '        return "hi $who";',
  "    }",
  "}",
  "",
  "enum Suit: string",
  "{",
  "    case Hearts = 'H';",
  "    case Spades = 'S';",
  "",
  "    public function color(): string",
  "    {",
  "        return 'Red';",
  "    }",
  "}",
  "",
  "#[Attribute]",
  "abstract class Model implements Countable",
  "{",
  "    use Greets;",
  "",
  "    public const TABLE = 'models';",
  "    protected static ?string $name = null;",
  "    private array $items = [];",
  "",
  "    public function __construct(private readonly int $id, public string $label = '')",
  "    {",
  "        $this->items = [];",
  "    }",
  "",
  "    abstract protected function boot(): void;",
  "",
  "    public static function make(int ...$ids): static",
  "    {",
  "        return new static($ids[0]);",
  "    }",
  "",
  "    private function secret() { return 42; }",
  "}",
  "",
  "function helper(int $x): int",
  "{",
  "    return $x * 2;",
  "}",
  "",
  "echo helper(2);",
  "?>",
  "<p><?= $title ?></p>",
].join("\n") + "\n";

const CSHARP = [
  "using System;",
  "using System.Collections.Generic;",
  "",
  "namespace Shop.Core;",
  "",
  "/// <summary>A thing with a price.</summary>",
  "public interface IPriced",
  "{",
  "    decimal Price { get; }",
  "    void Touch(int times = 1);",
  "}",
  "",
  "public enum Color { Red, Green = 2 }",
  "",
  "public record Point(int X, int Y);",
  "",
  "public struct Size { public int W; public int H; }",
  "",
  "[Serializable]",
  "public sealed class Inventory<T> : IPriced where T : class",
  "{",
  "    public const int Limit = 10;",
  "    private readonly Dictionary<string, T> items = new();",
  "    public decimal Price { get; set; } = 0m;",
  "    public event EventHandler? Changed;",
  "",
  "    public Inventory(int capacity) : base()",
  "    {",
  "        items = new Dictionary<string, T>(capacity);",
  "    }",
  "",
  "    public void Touch(int times = 1) { Console.WriteLine(times); }",
  "",
  "    public T? Get(string key) => items.TryGetValue(key, out var v) ? v : null;",
  "",
  "    internal static async Task<int> CountAsync<U>(IEnumerable<U> xs) where U : struct",
  "    {",
  "        await Task.Delay(1);",
  "        return 0;",
  "    }",
  "",
  "    private void Secret() { }",
  "",
  "    public delegate void Handler(object sender);",
  "",
  "    protected class Nested { int x; }",
  "}",
].join("\n") + "\n";

const BASH = [
  "#!/usr/bin/env bash",
  "# Deploy helper.",
  "set -euo pipefail",
  "",
  "source ./lib/common.sh",
  'readonly VERSION="1.2.0"',
  "export TARGET=${TARGET:-prod}",
  "LOG_DIR=/var/log/deploy",
  "",
  "# Print a message.",
  "log() {",
  '  echo "[$(date)] $*" >&2',
  "}",
  "",
  "function deploy {",
  "  local host=$1",
  '  log "deploying to $host"',
  '  rsync -a ./dist/ "$host:/srv/app"',
  "}",
  "",
  "_private_helper() { true; }",
  "",
  "for h in a b; do",
  '  deploy "$h"',
  "done",
].join("\n") + "\n";

const SCALA = [
  "package shop.core",
  "",
  "import scala.collection.mutable",
  "import scala.concurrent.{Future, ExecutionContext}",
  "",
  "/** Something with a price. */",
  "trait Priced {",
  "  def price: BigDecimal",
  "  def touch(times: Int = 1): Unit",
  "}",
  "",
  "sealed abstract class Shape(val name: String) extends Priced",
  'case class Circle(r: Double) extends Shape("circle") {',
  "  def price: BigDecimal = BigDecimal(r * 2)",
  "  def touch(times: Int = 1): Unit = println(times)",
  "}",
  "",
  "enum Color:",
  "  case Red, Green",
  "  def hex: String = this match",
  '    case Red => "#f00"',
  '    case Green => "#0f0"',
  "",
  "object Inventory {",
  "  val Limit: Int = 10",
  "  private var items = mutable.Map.empty[String, Int]",
  "  type Key = String",
  "",
  '  @deprecated("use add", "1.0")',
  "  def put[K <: Key](key: K, n: Int)(implicit ec: ExecutionContext): Future[Unit] = Future {",
  "    items(key) = n",
  "  }",
  "",
  "  private def secret(): Int = {",
  "    42",
  "  }",
  "",
  "  given ordering: Ordering[Int] = Ordering.Int",
  "",
  "  extension (s: String) def shout: String = s.toUpperCase",
  "}",
  "",
  "@main def run(): Unit =",
  "  println(Inventory.Limit)",
  '  Inventory.put("x", 1)',
].join("\n") + "\n";

const SAMPLES: Array<[string, string]> = [
  ["shop/inventory.rb", RUBY],
  ["app/Models/Model.php", PHP],
  ["Shop/Inventory.cs", CSHARP],
  ["bin/deploy.sh", BASH],
  ["src/Inventory.scala", SCALA],
];

languageGoldens(SAMPLES, import.meta.url);

Deno.test("languageFor() knows Ruby, PHP and C# by extension and Ruby's build files by name", () => {
  const ids = (paths: string[]) => paths.map((p) => languageFor(p)?.id ?? "-");
  assert.deepEqual(
    ids(["a.rb", "lib/x.rake", "x.gemspec", "Rakefile", "sub/Gemfile", "Gemfile.lock"]),
    ["ruby", "ruby", "ruby", "ruby", "ruby", "-"],
  );
  assert.deepEqual(ids(["a.php", "v/index.phtml", "A.cs", "Makefile", "rakefile.txt"]), [
    "php",
    "php",
    "csharp",
    "-",
    "-",
  ]);
});

Deno.test("languageOf() reads the language of a file with no extension from its #! line", () => {
  const of = (path: string, text: string) => languageOf(path, text)?.id ?? "-";
  assert.equal(of("bin/deploy", "#!/bin/sh\necho\n"), "bash");
  assert.equal(of("bin/deploy", "#!/usr/bin/env bash\necho\n"), "bash");
  assert.equal(of("bin/deploy", "#! /bin/bash -e\necho\n"), "bash");
  assert.equal(of("bin/deploy", "#!/usr/bin/env -S LANG=C dash -x\n"), "bash");
  assert.equal(of("bin/serve", "#!/usr/bin/env ruby\nputs 1\n"), "-");
  assert.equal(of("bin/deploy", "echo\n"), "-");
  assert.equal(of("bin/deploy", "#!/usr/bin/env python3\n"), "-");
  // An extension decides, whatever the first line says.
  assert.equal(of("notes.txt", "#!/bin/sh\n"), "-");
  assert.equal(of("run.py", "#!/bin/sh\n"), "python");
});

Deno.test("maskedViewMode() shows one Ruby, PHP or C# method whole and the rest as signatures", async () => {
  const cases: MaskCase[] = [
    ["a.rb", RUBY, "Shop.Inventory.add", "block&.call(sku)"],
    ["a.php", PHP, "App\\Models.Model.make", "return new static($ids[0]);"],
    ["a.cs", CSHARP, "Shop.Core.Inventory.CountAsync", "await Task.Delay(1);"],
    ["a.sh", BASH, "deploy", "rsync -a"],
    ["a.scala", SCALA, "Inventory.secret", "42"],
  ];
  // A definition's name where it is declared (`def add(`), not a call of it (`.add("x")`).
  await assertMasks(
    cases,
    (hidden, name) => new RegExp(`(?:^|\\s)${name.split(".").at(-1)!}\\(`, "m").test(hidden),
  );
});

Deno.test("a Ruby class whose every item is left out reads as one marker between its lines", async () => {
  const text = "class Routes\n  port = 80\n  puts port\nend\n";
  assert.equal((await renderCode("app.rb", text))!.text, "class Routes\n  ...\nend\n");
});

Deno.test("PHP: HTML around the code is left out, and functions declared under a guard stay", async () => {
  const text = [
    "<html><body>",
    "<?php",
    "if (!function_exists('tap')) {",
    "    function tap($value) { return $value; }",
    "}",
    "echo tap(1);",
    "?>",
    "<p><?= $title ?></p>",
    "</body></html>",
    "",
  ].join("\n");
  const view = (await renderCode("helpers.php", text))!;
  assert.equal(view.hasErrors, false);
  assert.equal(
    view.text,
    "<?php\nif (!function_exists('tap')) {\n    function tap($value) { ... }\n}\n",
  );
  assert.deepEqual(view.symbols.map((s) => s.name), ["tap"]);
});

Deno.test("a build shows Rakefile, a #! shell script and a .php file as skeletons; other files without an extension fall back", async () => {
  const root = await makeProject({
    "Rakefile": "require 'rake'\n\ndef build(target)\n  sh 'make'\nend\n",
    "bin/deploy": "#!/bin/sh\n# Deploy.\ndeploy() {\n  rsync -a dist/ host:\n}\ndeploy\n",
    "bin/notes": "just words\n",
    "index.php": "<html>\n<?php\nfunction page(): string { return 'x'; }\n?>\n</html>\n",
  });
  const { manifest, document } = await buildContext({
    cwd: root,
    inline: { files: [{ path: "**", view: "skeleton" }], cache: { enabled: false } },
  }, { write: false });
  const views = Object.fromEntries(manifest.files.map((f) => [f.path, f.view]));
  assert.deepEqual(views, {
    "Rakefile": "skeleton",
    "bin/deploy": "skeleton",
    "bin/notes": "summary",
    "index.php": "skeleton",
  });
  assert.match(document, /def build\(target\)\n {2}\.\.\.\nend\n/);
  assert.match(document, /#!\/bin\/sh\n# Deploy\.\ndeploy\(\) \{ \.\.\. \}\n/);
  assert.match(document, /<\?php\nfunction page\(\): string \{ \.\.\. \}\n/);
});

Deno.test("a C# file-scoped namespace holds the items after it, as a block namespace does", async () => {
  const members =
    "public class Greeter\n{\n    public string Greet(string name) { return name; }\n}\n" +
    "public interface IThing { void Do(); }\n";
  const indent = (text: string) => text.replace(/^(?=.)/gm, "    ");
  const scoped = (await renderCode("a.cs", `namespace Acme.Tools;\n\n${members}`))!;
  const block = (await renderCode("b.cs", `namespace Acme.Tools\n{\n${indent(members)}}\n`))!;
  const rows = (view: typeof scoped) => view.symbols.map((s) => `${s.depth} ${s.qualifiedName}`);
  assert.deepEqual(rows(scoped), [
    "0 Acme.Tools",
    "1 Acme.Tools.Greeter",
    "2 Acme.Tools.Greeter.Greet",
    "1 Acme.Tools.IThing",
    "2 Acme.Tools.IThing.Do",
  ]);
  assert.deepEqual(rows(scoped), rows(block));
  const masked = (await renderCode("a.cs", `namespace Acme.Tools;\n${members}`, {
    mask: { "Acme.Tools.Greeter.Greet": "def" },
  }))!;
  assert.match(masked.text, /return name;/);
});

Deno.test("a PHP namespace statement holds the items up to the next one, as a block namespace does", async () => {
  const a = "class A { public function f() { return 1; } }\nfunction g() {}\n";
  const b = "class B {}\n";
  const statements = `<?php\nnamespace App\\Models;\n${a}\nnamespace App\\Other;\n${b}`;
  const blocks = `<?php\nnamespace App\\Models {\n${a}}\nnamespace App\\Other {\n${b}}\n`;
  const rows = async (text: string) =>
    (await renderCode("a.php", text))!.symbols.map((s) => `${s.depth} ${s.qualifiedName}`);
  assert.deepEqual(await rows(statements), [
    "0 App\\Models",
    "1 App\\Models.A",
    "2 App\\Models.A.f",
    "1 App\\Models.g",
    "0 App\\Other",
    "1 App\\Other.B",
  ]);
  assert.deepEqual(await rows(statements), await rows(blocks));
});
