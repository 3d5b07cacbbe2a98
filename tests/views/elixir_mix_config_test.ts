import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// Mix's configuration files (`config/config.exs`, `runtime.exs`) are `config` calls at the top
// level, some under `if config_env() == :prod do`: the code views kept `import Config` alone
// (phoenix_live_dashboard's `config/config.exs`). Written for these tests.
Deno.test("an Elixir config file keeps its settings, under a top-level if too", async () => {
  const text = [
    "import Config",
    "",
    "config :logger, level: :warning",
    "",
    "if config_env() == :dev do",
    '  config :esbuild, version: "0.14.41"',
    "end",
    "",
    'IO.puts("configured")',
    'import_config "#{config_env()}.exs"',
    "",
  ].join("\n");
  const view = (await renderCode("config/config.exs", text))!;
  assert.equal(
    view.text,
    [
      "import Config",
      "",
      "config :logger, level: :warning",
      "",
      "if config_env() == :dev do",
      '  config :esbuild, version: "0.14.41"',
      "end",
      "",
      'import_config "#{config_env()}.exs"',
      "",
    ].join("\n"),
  );
});
