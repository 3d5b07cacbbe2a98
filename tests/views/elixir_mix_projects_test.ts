import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A Mix project's `mix.exs` holds its settings and dependencies in functions (`defp deps do [...]
// end`): the code views showed `defp deps do ... end`, hiding the dependency list a reader of the
// file most wants (phoenix_live_dashboard's `mix.exs`). Written for these tests.
const MIX = [
  "defmodule Demo.MixProject do",
  "  use Mix.Project",
  "",
  "  def project do",
  "    [",
  "      app: :demo,",
  '      elixir: "~> 1.14",',
  "      start_permanent: Mix.env() == :prod,",
  "      deps: deps()",
  "    ]",
  "  end",
  "",
  "  def application do",
  "    [extra_applications: [:logger], mod: {Demo.Application, []}]",
  "  end",
  "",
  "  defp deps do",
  "    # The web framework.",
  "    [",
  '      {:phoenix, "~> 1.7"},',
  '      {:ex_doc, ">= 0.0.0", only: :dev, runtime: false}',
  "    ]",
  "  end",
  "",
  "  defp aliases do",
  '    [setup: ["deps.get"]]',
  "  end",
  "",
  "  defp package do",
  '    [licenses: ["MIT"], links: %{"GitHub" => @url}, files: ~w(lib mix.exs)]',
  "  end",
  "",
  "  defp docs do",
  "    [",
  '      main: "readme",',
  '      source_ref: "v#{@version}",',
  '      extras: ["README.md"]',
  "    ]",
  "  end",
  "end",
  "",
].join("\n");

// Hex's `package` and `docs` lists were elided too: what the package ships and its docs' pages.
Deno.test("a Mix project keeps its project, application, deps, package and docs lists as written", async () => {
  const view = (await renderCode("mix.exs", MIX))!;
  assert.equal(
    view.text,
    MIX.replace('  defp aliases do\n    [setup: ["deps.get"]]\n  end', "  defp aliases do ... end"),
  );
  assert.deepEqual(view.symbols.map((s) => s.name), [
    "Demo.MixProject",
    "project",
    "application",
    "deps",
    "aliases",
    "package",
    "docs",
  ]);
});

// A list built by logic (`if`, `case`, `fn`) is code: it stays elided, as it does in a module that
// is no Mix project.
Deno.test("a Mix function with logic, or another module's deps, keeps its body elided", async () => {
  const text = [
    "defmodule Demo.MixProject do",
    "  use Mix.Project",
    "  defp deps do",
    '    [{:jason, "~> 1.0"}] ++ if(System.get_env("CI"), do: [], else: [])',
    "  end",
    "  def application do",
    "    [mod: Enum.map([1], fn x -> x end)]",
    "  end",
    "end",
    "",
    "defmodule Demo.Graph do",
    "  def deps do",
    "    [:a, :b]",
    "  end",
    "end",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("mix.exs", text))!.text,
    [
      "defmodule Demo.MixProject do",
      "  use Mix.Project",
      "  defp deps do ... end",
      "  def application do ... end",
      "end",
      "",
      "defmodule Demo.Graph do",
      "  def deps do ... end",
      "end",
      "",
    ].join("\n"),
  );
});
