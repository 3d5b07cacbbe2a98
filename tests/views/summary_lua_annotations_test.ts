import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";

// A Neovim plugin's types file is LuaLS annotations alone (lazy.nvim's `lua/lazy/types.lua`:
// `---@class LazyPluginState` and its `---@field`s, `---@alias`): its summary named nothing, and
// the code views, which keep no comment standing alone, fell back to it. Written for this test.
Deno.test("a Lua summary lists the classes, aliases and enums its annotations declare", () => {
  const text = [
    '---@alias LazyPluginKind "normal"|"clean"|"disabled"',
    "",
    "---@class LazyPluginState",
    "---@field cloned? boolean",
    "",
    "---@class (exact) LazyPlugin: LazyPluginBase, LazyPluginState",
    "--- @enum lazy.Level",
    "local Level = { INFO = 1 }",
    "-- ---@class NotThis",
    "return Level",
    "",
  ].join("\n");
  assert.equal(
    summarize("lua/lazy/types.lua", text),
    "**Lua**, 10 lines\n" +
      "- types: `LazyPluginKind`, `LazyPluginState`, `LazyPlugin`, `lazy.Level`",
  );
});
