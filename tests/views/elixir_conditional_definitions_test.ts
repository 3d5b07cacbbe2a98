import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { summarize } from "../../plugins/view_modes/summary.ts";

// Elixir defines what depends on an optional library inside `if Code.ensure_loaded?(Jason) do`,
// or once for each of several with `for encoder <- [...] do` (ecto's `lib/ecto/json.ex`: two
// `defimpl`s in each): the code views dropped the whole call at the file's top level, so the
// file's skeleton was empty. Written for these tests.
const TEXT = [
  "if Code.ensure_loaded?(Jason) do",
  "  defimpl Jason.Encoder, for: Money do",
  "    def encode(money, opts) do",
  "      Jason.Encode.string(to_string(money), opts)",
  "    end",
  "  end",
  "end",
  "",
  "for encoder <- [Jason.Encoder, JSON.Encoder] do",
  "  module = Macro.inspect_atom(:literal, encoder)",
  "",
  "  unless encoder == JSON.Encoder do",
  "    IO.puts(module)",
  "    defmodule Money.Encoder do",
  "      @moduledoc false",
  "      def encode(value), do: value",
  "    end",
  "  end",
  "end",
  "",
  'if System.get_env("DEBUG") do',
  '  IO.puts("debugging")',
  "end",
  "",
].join("\n");

Deno.test("Elixir definitions inside a top-level if, unless or for are kept", async () => {
  const view = (await renderCode("lib/money/json.ex", TEXT))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "impl Jason.Encoder",
    "function Jason.Encoder.encode",
    "module Money.Encoder",
    "function Money.Encoder.encode",
  ]);
  assert.equal(
    view.text,
    [
      "if Code.ensure_loaded?(Jason) do",
      "  defimpl Jason.Encoder, for: Money do",
      "    def encode(money, opts) do ... end",
      "  end",
      "end",
      "",
      "for encoder <- [Jason.Encoder, JSON.Encoder] do",
      "",
      "  unless encoder == JSON.Encoder do",
      "    defmodule Money.Encoder do",
      "      @moduledoc false",
      "      def encode(value), do: value",
      "    end",
      "  end",
      "end",
      "",
    ].join("\n"),
  );
});

Deno.test("an if in a module's block keeps its calls, as the module's own calls are kept", async () => {
  const text = [
    "defmodule Web.Router do",
    "  if Mix.env() in [:dev, :test] do",
    '    scope "/dev" do',
    '      get "/mailbox", MailboxController, :index',
    "    end",
    "  end",
    "end",
    "",
  ].join("\n");
  assert.equal((await renderCode("lib/web/router.ex", text))!.text, text);
});

Deno.test("a conditional's else block keeps its definitions, at the top level and in a module", async () => {
  // The other branch of an optional library (`else` defines the fallback): its definitions were
  // left out with the `else`, so the view read as if they existed only with the library.
  const text = [
    "if Code.ensure_loaded?(Jason) do",
    "  defmodule Money.JSON do",
    "    def encode(x), do: Jason.encode!(x)",
    "  end",
    "else",
    "  defmodule Money.JSON do",
    "    def encode(x), do: inspect(x)",
    "  end",
    "end",
    "",
    "defmodule Money.Compat do",
    "  if Code.ensure_loaded?(Decimal) do",
    "    def round(x), do: Decimal.round(x)",
    "  else",
    "    def round(x), do: Float.round(x)",
    "  end",
    "end",
    "",
  ].join("\n");
  const view = (await renderCode("lib/money/json.ex", text))!;
  assert.equal(view.text, text);
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "module Money.JSON",
    "function Money.JSON.encode",
    "module Money.JSON",
    "function Money.JSON.encode",
    "module Money.Compat",
    "function Money.Compat.round",
    "function Money.Compat.round",
  ]);
});

Deno.test("a StreamData property is a test: its block is its body, elided", async () => {
  // hexpm's `authorization_codes_test.exs`: each `property` showed its generators and assertions.
  const text = [
    "defmodule Shop.PriceTest do",
    "  use ExUnitProperties",
    "",
    '  describe "total/1" do',
    '    property "is never negative" do',
    "      check all(prices <- list_of(positive_integer())) do",
    "        assert Shop.total(prices) >= 0",
    "      end",
    "    end",
    "  end",
    "end",
    "",
  ].join("\n");
  const view = (await renderCode("test/shop/price_test.exs", text))!;
  assert.match(view.text, /^ {4}property "is never negative" do \.\.\. end$/m);
  assert.doesNotMatch(view.text, /check all/);
});

Deno.test("an ExUnit file's summary lists its StreamData properties with its tests", () => {
  const text = 'describe "total/1" do\n  property "is never negative" do\n  end\nend\n';
  assert.match(
    summarize("test/shop/price_test.exs", text),
    /- tests: `total\/1`, `is never negative`/,
  );
});
