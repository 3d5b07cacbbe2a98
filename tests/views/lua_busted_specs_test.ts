import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { summarize } from "../../plugins/view_modes/summary.ts";

// busted's specs (plenary.nvim's too, which Neovim plugins test with) are calls: `describe("a",
// function() ... end)`, `it("b", function() ... end)`, plenary's async ones `a.it(...)`. The code views kept a spec's `require`s
// alone (oil.nvim's 11 `*_spec.lua` files), the summary listed no test. Written for these tests.
Deno.test("a busted spec keeps its suites, tests and hooks, their bodies elided", async () => {
  const text = [
    'local cache = require("oil.cache")',
    "",
    'describe("cache", function()',
    "  before_each(function()",
    "    cache.clear()",
    "  end)",
    "",
    "  it('stores entries', function()",
    '    cache.put("a", 1)',
    '    assert.equals(1, cache.get("a"))',
    "  end)",
    "",
    '  a.describe("eviction", function()',
    '    a.it("drops the oldest", function()',
    "      assert.is_nil(cache.get('z'))",
    "    end)",
    '    pending("by size")',
    "  end)",
    "end)",
    "",
    'vim.cmd("set hidden")',
    "",
  ].join("\n");
  const view = (await renderCode("tests/cache_spec.lua", text))!;
  assert.equal(
    view.text,
    [
      'local cache = require("oil.cache")',
      "",
      'describe("cache", function()',
      "  before_each(function()",
      "    ...",
      "  end)",
      "",
      "  it('stores entries', function()",
      "    ...",
      "  end)",
      "",
      '  a.describe("eviction", function()',
      '    a.it("drops the oldest", function()',
      "      ...",
      "    end)",
      '    pending("by size")',
      "  end)",
      "end)",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["cache", "variable", 'cache = require("oil.cache")'],
    ["cache", "suite", 'describe("cache")'],
    ["cache.stores entries", "test", "it('stores entries')"],
    ["cache.eviction", "suite", 'a.describe("eviction")'],
    ["cache.eviction.drops the oldest", "test", 'a.it("drops the oldest")'],
    ["cache.eviction.by size", "test", 'pending("by size")'],
  ]);
  assert.match(
    summarize("tests/cache_spec.lua", text),
    /^- tests: `cache`, `stores entries`, `eviction`, `drops the oldest`, `by size`$/m,
  );
});
