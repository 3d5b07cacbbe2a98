import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { languageFor, languageOf } from "../../grammars/languages.ts";
import { makeProject } from "../_helpers.ts";
import { buildContext } from "../../mod.ts";
import { assertMasks, corrupted, languageGoldens, type MaskCase } from "./_language_goldens.ts";

// Small files using most of each language's declarations, written for these tests.
const KOTLIN = [
  '@file:JvmName("Shop")',
  "package shop.core",
  "",
  "import kotlinx.coroutines.flow.Flow",
  "import java.util.concurrent.atomic.AtomicInteger as Counter",
  "",
  "/** Most items kept. */",
  "const val LIMIT: Int = 10",
  "",
  "typealias Key = String",
  "",
  "/** Something with a price. */",
  "interface Priced {",
  "    val price: Double",
  "    fun touch(times: Int = 1)",
  "}",
  "",
  "enum class Color(val hex: String) {",
  '    RED("#f00"),',
  '    GREEN("#0f0");',
  "",
  "    fun shout(): String = hex.uppercase()",
  "}",
  "",
  "sealed class Shape(open val name: String) : Priced",
  'data class Circle(val r: Double) : Shape("circle") {',
  "    override val price: Double get() = r * 2",
  "    override fun touch(times: Int) {",
  "        println(times)",
  "    }",
  "}",
  "",
  '@Suppress("unused")',
  "class Inventory<T : Any>(private val capacity: Int) {",
  "    private val items = mutableMapOf<Key, T>()",
  "    var count: Int = 0",
  "        private set",
  "",
  "    constructor() : this(10)",
  "",
  "    init {",
  "        require(capacity > 0)",
  "    }",
  "",
  "    /** Put an item. */",
  "    suspend fun <K : Key> put(",
  "        key: K,",
  "        item: T,",
  "    ): Boolean {",
  "        items[key] = item",
  "        return true",
  "    }",
  "",
  "    internal fun size() = items.size",
  "",
  "    private fun secret(): Int {",
  "        return 42",
  "    }",
  "",
  "    protected open fun hook() {}",
  "",
  "    companion object Factory {",
  "        fun empty(): Inventory<String> = Inventory()",
  "    }",
  "",
  "    inner class Cursor {",
  "        fun next(): T? = null",
  "    }",
  "}",
  "",
  "object Registry {",
  "    val all = listOf(",
  "        1,",
  "        2,",
  "    )",
  "}",
  "",
  "fun String.shout(): String {",
  "    return uppercase()",
  "}",
  "",
  "private fun helper(x: Int) = x * 2",
  "",
  "fun main() {",
  "    println(Inventory<String>().size())",
  "}",
].join("\n") + "\n";

const LUA = [
  "--- Inventory of a shop.",
  "-- @module shop.inventory",
  'local json = require("json")',
  'local util = require "shop.util"',
  "",
  "local M = {}",
  "",
  'M.VERSION = "1.2.0"',
  "local LIMIT <const> = 10",
  "",
  "--- Make an inventory.",
  "-- @param name string",
  "function M.new(name, items)",
  "  local self = setmetatable({}, { __index = M })",
  "  self.name = name",
  "  self.items = items or {}",
  "  return self",
  "end",
  "",
  "--- Add stock.",
  "function M:add(sku, quantity)",
  "  self.items[sku] = (self.items[sku] or 0) + (quantity or 1)",
  "end",
  "",
  "local function secret()",
  "  return 42",
  "end",
  "",
  "M.total = function(self)",
  "  local sum = 0",
  "  for _, n in pairs(self.items) do",
  "    sum = sum + n",
  "  end",
  "  return sum",
  "end",
  "",
  "M.handlers = {",
  "  on_add = function(sku) print(sku) end,",
  "  on_remove = function(sku)",
  '    print("removed", sku)',
  "  end,",
  "}",
  "",
  "function helper(x) return x * 2 end",
  "",
  "for i = 1, 3 do",
  "  print(i)",
  "end",
  "",
  "return M",
].join("\n") + "\n";

const ZIG = [
  "//! Inventory of a shop.",
  'const std = @import("std");',
  "const Allocator = std.mem.Allocator;",
  "",
  "/// Most items kept.",
  "pub const limit: u32 = 10;",
  "",
  "/// A color.",
  "pub const Color = enum {",
  "    red,",
  "    green,",
  "",
  "    pub fn hex(self: Color) []const u8 {",
  "        return switch (self) {",
  '            .red => "#f00",',
  '            .green => "#0f0",',
  "        };",
  "    }",
  "};",
  "",
  "pub const Inventory = struct {",
  "    allocator: Allocator,",
  "    items: std.StringHashMap(u32),",
  "",
  "    const Self = @This();",
  "",
  "    /// Make an inventory.",
  "    pub fn init(allocator: Allocator) Self {",
  "        return .{ .allocator = allocator, .items = std.StringHashMap(u32).init(allocator) };",
  "    }",
  "",
  "    pub fn add(self: *Self, sku: []const u8, quantity: u32) !void {",
  "        const entry = try self.items.getOrPut(sku);",
  "        if (!entry.found_existing) entry.value_ptr.* = 0;",
  "        entry.value_ptr.* += quantity;",
  "    }",
  "",
  "    fn secret() u32 {",
  "        return 42;",
  "    }",
  "};",
  "",
  "pub const Error = error{ OutOfStock, Closed };",
  "",
  'extern "c" fn abs(x: c_int) c_int;',
  "",
  "export fn helper(x: i32) i32 {",
  "    return x * 2;",
  "}",
  "",
  'test "inventory starts empty" {',
  "    var inv = Inventory.init(std.testing.allocator);",
  "    try std.testing.expectEqual(@as(u32, 0), inv.items.count());",
  "}",
].join("\n") + "\n";

const ELIXIR = [
  "defmodule Shop.Inventory do",
  '  @moduledoc """',
  "  A shop's inventory.",
  '  """',
  "  use GenServer",
  "  alias Shop.{Item, Store}",
  "  import Enum, only: [map: 2]",
  "  require Logger",
  "",
  "  @limit 10",
  "  @type t :: %__MODULE__{items: map()}",
  "",
  "  defstruct items: %{}, name: nil",
  "",
  '  @doc "Start an inventory."',
  "  @spec start_link(keyword()) :: GenServer.on_start()",
  "  def start_link(opts \\\\ []) do",
  "    GenServer.start_link(__MODULE__, opts, name: __MODULE__)",
  "  end",
  "",
  "  def add(%__MODULE__{} = inv, sku, quantity \\\\ 1) when quantity > 0 do",
  "    update_in(inv.items[sku], &((&1 || 0) + quantity))",
  "  end",
  "",
  "  def empty?(inv), do: inv.items == %{}",
  "",
  "  defp secret do",
  "    42",
  "  end",
  "",
  "  defmacro with_item(item, do: block) do",
  "    quote do",
  "      unquote(block)",
  "    end",
  "  end",
  "",
  "  defimpl String.Chars do",
  "    def to_string(inv), do: inv.name",
  "  end",
  "",
  "  defprotocol Priced do",
  "    def price(item)",
  "  end",
  "end",
  "",
  "defmodule Shop.Item do",
  "  defstruct [:sku]",
  "end",
].join("\n") + "\n";

const SAMPLES: Array<[string, string]> = [
  ["src/shop/Inventory.kt", KOTLIN],
  ["lua/shop/inventory.lua", LUA],
  ["src/inventory.zig", ZIG],
  ["lib/shop/inventory.ex", ELIXIR],
];

languageGoldens(SAMPLES, import.meta.url);

Deno.test("languageFor() knows Kotlin, Lua, Zig and Elixir by extension, and languageOf() a #! line naming lua or elixir", () => {
  const ids = (paths: string[]) => paths.map((p) => languageFor(p)?.id ?? "-");
  assert.deepEqual(ids(["A.kt", "build.gradle.kts", "a.lua", "a.luac", "A.KT", "build.zig"]), [
    "kotlin",
    "kotlin",
    "lua",
    "-",
    "kotlin",
    "zig",
  ]);
  assert.deepEqual(ids(["a.ex", "test/a_test.exs", "a.eex"]), ["elixir", "elixir", "-"]);
  assert.equal(languageOf("bin/tool", "#!/usr/bin/env elixir\nIO.puts(1)\n")?.id, "elixir");
  assert.equal(languageOf("bin/tool", "#!/usr/bin/env lua5.4\nprint(1)\n")?.id, "lua");
  assert.equal(languageOf("bin/tool", "#!/usr/bin/env luajit\nprint(1)\n")?.id, "lua");
});

Deno.test("maskedViewMode() shows one Kotlin, Lua, Zig or Elixir function whole and the rest as signatures", async () => {
  const cases: MaskCase[] = [
    ["a.kt", KOTLIN, "Inventory.secret", "return 42"],
    ["a.lua", LUA, "M.new", "setmetatable({}, { __index = M })"],
    ["a.zig", ZIG, "Inventory.add", "try self.items.getOrPut(sku)"],
    ["a.ex", ELIXIR, "Shop.Inventory.start_link", "GenServer.start_link(__MODULE__"],
  ];
  // The name as its definition writes it (an Elixir `@spec` above a hidden `def` stays).
  await assertMasks(
    cases,
    (hidden, name) =>
      new RegExp(`(fun|function|fn|def) ${name.split(".").at(-1)!}\\(`).test(hidden),
  );
});

Deno.test("a Lua module's local table is public when the chunk returns it, other locals are not", async () => {
  const text =
    "local M = {}\nlocal cache = {}\nfunction M.get(k)\n  return cache[k]\nend\nreturn M\n";
  const view = (await renderCode("m.lua", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.qualifiedName} ${s.public}`), [
    "M true",
    "cache false",
    "M.get true",
  ]);
  const other = (await renderCode("m.lua", text.replace("return M", "return cache")))!;
  assert.deepEqual(other.symbols.map((s) => s.public), [false, true, true]);
});

Deno.test("corrupted Kotlin, Lua, Zig and Elixir files render without a crash, the same bytes twice, and whole lines when they parse", async () => {
  for (const [path, text] of SAMPLES) {
    for (const variant of corrupted(text)) {
      const first = await renderCode(path, variant);
      assert.ok(first, path);
      assert.deepEqual(await renderCode(path, variant), first);
      // Every line is the file's own but for the body and value markers (what a parse with
      // errors recovered may lose a word: "rendered what parsed", with a note in the manifest).
      if (first.hasErrors) continue;
      const marker = languageFor(path)!.bodyMarker;
      for (const line of first.text.split("\n")) {
        const parts = line.split(marker).join("\0").split("...").join("\0").split("\0");
        for (const part of parts.map((p) => p.trim()).filter(Boolean)) {
          assert.ok(variant.includes(part), `${path}: "${line}" is no line of the file`);
        }
      }
    }
  }
});

Deno.test("a build shows .kt, .kts, .lua, .zig and .exs files as skeletons", async () => {
  const root = await makeProject({
    "src/App.kt": "package app\n\nfun main() {\n    println(1)\n}\n",
    "build.gradle.kts": 'plugins {\n    kotlin("jvm")\n}\nval v = "1"\n',
    "init.lua": "local M = {}\nfunction M.setup(opts)\n  print(opts)\nend\nreturn M\n",
    "scripts/shop.exs":
      'defmodule ShopTest do\n  use ExUnit.Case\n\n  test "adds" do\n    assert 1 == 1\n  end\nend\n',
    "build.zig": 'const std = @import("std");\npub fn build(b: *std.Build) void {\n    _ = b;\n}\n',
  });
  const { manifest, document } = await buildContext({
    cwd: root,
    inline: { files: [{ path: "**", view: "skeleton" }], cache: { enabled: false } },
  }, { write: false });
  const views = Object.fromEntries(manifest.files.map((f) => [f.path, f.view]));
  assert.deepEqual(views, {
    "build.gradle.kts": "skeleton",
    "build.zig": "skeleton",
    "init.lua": "skeleton",
    "scripts/shop.exs": "skeleton",
    "src/App.kt": "skeleton",
  });
  assert.match(document, /package app\n\nfun main\(\) \{ \.\.\. \}\n/);
  assert.match(document, /function M\.setup\(opts\)\n {2}\.\.\.\nend\nreturn M\n/);
  assert.match(document, /val v = "1"\n/);
  assert.match(
    document,
    /defmodule ShopTest do\n {2}use ExUnit\.Case\n\n {2}test "adds" do \.\.\. end\nend\n/,
  );
  assert.match(document, /pub fn build\(b: \*std\.Build\) void \{ \.\.\. \}\n/);
});

Deno.test("a Zig container's tag type stays, and its outline line ends where the container opens", async () => {
  const text =
    "pub const E = enum(u16) {\n    a = 1,\n};\nconst C = packed struct(u32) { a: u16, b: u16 };\n";
  const view = (await renderCode("e.zig", text))!;
  assert.equal(view.text, text);
  assert.deepEqual(view.symbols.map((s) => `${s.signature} ${s.kind} ${s.public}`), [
    "pub const E = enum(u16) enum true",
    "a = 1 field true",
    "const C = packed struct(u32) struct false",
    "a: u16 field true",
    "b: u16 field true",
  ]);
});

Deno.test("Elixir: a module's block holds items, a function's is its body; a script's calls are statements, left out", async () => {
  const text = [
    "defmodule A.B do",
    "  plug :match",
    "  def f(x) when x > 0 do",
    "    x",
    "  end",
    "  defp g, do: 1",
    "end",
    'IO.puts("hi")',
    "",
  ].join("\n");
  const view = (await renderCode("a.ex", text))!;
  assert.equal(
    view.text,
    "defmodule A.B do\n  plug :match\n  def f(x) when x > 0 do ... end\n  defp g, do: 1\nend\n",
  );
  assert.deepEqual(view.symbols.map((s) => `${s.qualifiedName} ${s.kind} ${s.public}`), [
    "A.B module true",
    "A.B.f function true",
    "A.B.g function false",
  ]);
});

Deno.test("Elixir: a module's own calls are declarations its skeleton keeps (an Ecto schema, a router's pipelines and routes), inside blocks too", async () => {
  const text = [
    "defmodule Shop.Router do",
    "  use Phoenix.Router",
    "  pipeline :api do",
    '    plug :accepts, ["json"]',
    "  end",
    '  scope "/api", Shop do',
    "    pipe_through :api",
    '    get "/carts/:id", CartController, :show',
    "    def helper(x), do: x",
    "  end",
    "end",
    "defmodule Shop.Cart do",
    "  use Ecto.Schema",
    '  schema "carts" do',
    "    field :total, :integer",
    "    has_many :items, Shop.Item",
    "    timestamps()",
    "  end",
    "  def changeset(cart, attrs) do",
    "    cast(cart, attrs, [:total])",
    "  end",
    "end",
    "Shop.Cart.changeset(%Shop.Cart{}, %{}) |> IO.inspect()",
    "",
  ].join("\n");
  const view = (await renderCode("lib/shop/router.ex", text))!;
  // Each kept line is one of the file; only the function's body and the script's call go.
  assert.equal(
    view.text,
    text.replace(
      "  def changeset(cart, attrs) do\n    cast(cart, attrs, [:total])\n  end",
      "  def changeset(cart, attrs) do ... end",
    )
      .replace("Shop.Cart.changeset(%Shop.Cart{}, %{}) |> IO.inspect()\n", ""),
  );
  assert.deepEqual(view.symbols.map((s) => s.qualifiedName), [
    "Shop.Router",
    "Shop.Router.helper",
    "Shop.Cart",
    "Shop.Cart.changeset",
  ]);
});

// A Zig test (`test "adds" { ... }`) stayed in the skeleton but was no symbol: the outline of a
// test file (zap's `src/tests/test_auth.zig`, 12 tests) listed none of them.
Deno.test("a Zig test is a symbol named by its string or identifier; a test root is none", async () => {
  const text = [
    'const std = @import("std");',
    'test "adds" {',
    "    try std.testing.expect(1 + 1 == 2);",
    "}",
    "test add {",
    "    _ = add;",
    "}",
    "test {",
    '    _ = @import("a.zig");',
    "}",
    // A shift's `<< b` keeps its blank (a signature read `<<b`, as if `<` opened a type's list).
    "pub fn bit(b: u3) @TypeOf(@as(u8, 1) << b) {",
    "    return @as(u8, 1) << b;",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("src/add.zig", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind, s.signature, s.public]), [
    ["std", "constant", 'const std = @import("std")', false],
    ["adds", "test", 'test "adds"', true],
    ["add", "test", "test add", true],
    ["bit", "function", "pub fn bit(b: u3) @TypeOf(@as(u8, 1) << b)", true],
  ]);
});

// ExUnit's tests and `describe` groups were kept in a skeleton but were no symbols: a test file's
// outline was its module alone (fly-apps/live_beats' tests), where every other language's tests
// are listed. Written for this test.
Deno.test("ExUnit's tests and describe groups are symbols named by their titles", async () => {
  const text = [
    "defmodule ShopTest do",
    "  use ExUnit.Case, async: true",
    "",
    "  setup do",
    "    {:ok, cart: []}",
    "  end",
    "",
    '  describe "add/2" do',
    '    test "adds an item", %{cart: cart} do',
    "      assert Shop.add(cart, 1) == [1]",
    "    end",
    "  end",
    "",
    '  property "sums commute" do',
    "    assert true",
    "  end",
    "",
    '  test "todo"',
    "end",
    "",
  ].join("\n");
  const view = (await renderCode("test/shop_test.exs", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName} | ${s.signature}`), [
    "module ShopTest | defmodule ShopTest",
    'suite ShopTest.add/2 | describe "add/2"',
    'test ShopTest.add/2.adds an item | test "adds an item", %{cart: cart}',
    'test ShopTest.sums commute | property "sums commute"',
    'test ShopTest.todo | test "todo"',
  ]);
  assert.match(view.text, /\n {4}test "adds an item", %\{cart: cart\} do \.\.\. end\n/);
});
