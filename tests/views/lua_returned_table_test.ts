import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A Lua chunk that returns a long table of data (lazy.nvim's `community/_generated.lua`, 2,797
// lines of plugin names): its skeleton was the whole file, as the value an assignment holds is
// elided past `maxValueLines` and a returned one was not. Written for these tests.
Deno.test("a Lua chunk's long returned table of data is elided", async () => {
  const rows = Array.from(
    { length: 20 },
    (_, i) => `  { name = "p${i}.nvim", version = "1.${i}" },`,
  );
  const text = `-- generated\nreturn {\n${rows.join("\n")}\n}\n`;
  const view = (await renderCode("lua/lazy/community/_generated.lua", text))!;
  assert.equal(view.text, "-- generated\nreturn ...\n");
});

Deno.test("a Lua chunk's returned table keeps its functions, and a short one stays", async () => {
  const text = [
    "return {",
    '  "folke/tokyonight.nvim",',
    "  opts = { style = 'moon' },",
    "  config = function(_, opts)",
    '    require("tokyonight").setup(opts)',
    "    vim.cmd.colorscheme('tokyonight')",
    "  end,",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("lua/plugins/colors.lua", text))!;
  assert.equal(
    view.text,
    [
      "return {",
      '  "folke/tokyonight.nvim",',
      "  opts = { style = 'moon' },",
      "  config = function(_, opts)",
      "    ...",
      "  end,",
      "}",
      "",
    ].join("\n"),
  );
  assert.equal(
    (await renderCode("m.lua", "local M = {}\nreturn M\n"))!.text,
    "local M = {}\nreturn M\n",
  );
});
