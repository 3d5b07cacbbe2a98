import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A skeleton took out every blank line that followed a line ending in `:` or `{`, meant for the
// one a deleted first item leaves after its block's opener; it took those of kept text too: a
// docstring's `Example:` and the blank line that makes its code a code block (elixir-ecto/ecto's
// `@moduledoc`, "Let's see an example:" above an indented `defmodule`; Python's Google-style
// docstrings), a heredoc's `{` on a line of its own. Written for this test.

/** Docstrings and heredocs whose blank lines follow a line ending in `:` or `{`, in two languages. */
const KEPT: Array<[string, string, string]> = [
  [
    "lib/a.ex",
    [
      "defmodule A do",
      '  @moduledoc ~S"""',
      "  The following actions:",
      "",
      "    * **filtering**",
      "",
      "  Let's see an example:",
      "",
      "      defmodule User do",
      "      end",
      '  """',
      "",
      '  @doc """',
      "  Config {",
      "",
      "  }",
      '  """',
      "  def f(x) do",
      "    x + 1",
      "  end",
      "end",
      "",
    ].join("\n"),
    "x + 1",
  ],
  [
    "src/a.py",
    [
      "class A:",
      '    """Does it.',
      "",
      "    Example:",
      "",
      "        >>> A().f(1)",
      '    """',
      "",
      "    def f(self, x):",
      "        return x",
      "",
      "",
      "def g():",
      '    """Args:',
      "",
      "    x: a thing {",
      "",
      "    }",
      '    """',
      "    return 1",
      "",
    ].join("\n"),
    "return 1",
  ],
];

Deno.test("a skeleton keeps the blank lines of kept text after a line ending in : or {", async () => {
  for (const [path, text, body] of KEPT) {
    const view = (await renderCode(path, text))!;
    assert.ok(!view.text.includes(body), `${path}: a body is elided`);
    // Every docstring line, blank ones included, is in the view as in the file.
    const doc = (from: string) =>
      text.slice(text.indexOf(from), text.indexOf('"""', text.indexOf(from) + 4));
    for (const from of ['"""Does it.', '"""Args:', "The following actions:", "Config {"]) {
      if (!text.includes(from)) continue;
      assert.ok(
        view.text.includes(doc(from)),
        `${path}: ${JSON.stringify(doc(from))} in\n${view.text}`,
      );
    }
  }
});

Deno.test("a skeleton still leaves no blank line after an opener whose first item it left out", async () => {
  const text = [
    "class A:",
    "    _cache = {}",
    "",
    "    def f(self, x):",
    "        return x",
    "",
  ].join("\n");
  const view = (await renderCode("src/a.py", text, { rest: "hide", mask: { "A.f": "sig" } }))!;
  assert.equal(view.text, "class A:\n    def f(self, x):\n        ...\n");
});
