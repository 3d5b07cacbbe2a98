import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// pytest's `parametrize` over lines: the outline's signature kept the line breaks' blanks
// (`@pytest.mark.parametrize( "a, b", [ (1, 2), ], ) def test_add(a, b)`), and a skeleton kept a
// table of cases whole, however long (a decorator was never elided). Written for this test.
Deno.test("a decorator over lines is one tight line, its long arguments elided as values", async () => {
  const rows = Array.from({ length: 20 }, (_, i) => `        (${i}, ${i + 1}),`);
  const text = [
    "import pytest",
    "",
    "",
    "@pytest.mark.parametrize(",
    '    "a, b",',
    "    [",
    "        (1, 2),",
    "        (3, 4),",
    "    ],",
    ")",
    "def test_short(a, b):",
    "    assert a < b",
    "",
    "",
    "@pytest.mark.parametrize(",
    '    "a, b",',
    "    [",
    ...rows,
    "    ],",
    "    ids=[",
    ...rows.map((_, i) => `        "case ${i}",`),
    "    ],",
    ")",
    "def test_long(a, b):",
    "    assert a < b",
    "",
  ].join("\n");
  const view = (await renderCode("tests/test_add.py", text))!;
  assert.equal(
    view.text,
    [
      "import pytest",
      "",
      "@pytest.mark.parametrize(",
      '    "a, b",',
      "    [",
      "        (1, 2),",
      "        (3, 4),",
      "    ],",
      ")",
      "def test_short(a, b):",
      "    ...",
      "",
      "@pytest.mark.parametrize(",
      '    "a, b",',
      "    ...,",
      "    ids=...,",
      ")",
      "def test_long(a, b):",
      "    ...",
      "",
    ].join("\n"),
  );
  assert.equal(
    outlineText(view.symbols, "#"),
    [
      '@pytest.mark.parametrize("a, b", [(1, 2), (3, 4)]) def test_short(a, b)  # function',
      "@pytest.mark.parametrize(...) def test_long(a, b)  # function",
      "",
    ].join("\n"),
  );
});

// A comment after a decorator (`@declared_attr  # type: ignore`, sqlmodel's `__tablename__`) or
// among its arguments is part of the decorator's node: joined into the signature's one line, it
// commented out the rest (`@declared_attr # type: ignore def __tablename__(cls) -> str`).
Deno.test("a decorator's comments are left out of the signature", async () => {
  const text = [
    "class Model:",
    "    @declared_attr  # type: ignore",
    "    def __tablename__(cls) -> str:",
    '        return "model"',
    "",
    "    @app.get(",
    '        "/items",  # the list',
    "        tags=['items'],",
    "    )",
    "    def items(self): ...",
    "",
  ].join("\n");
  const view = (await renderCode("models.py", text))!;
  assert.deepEqual(view.symbols.map((s) => s.signature), [
    "class Model",
    "@declared_attr def __tablename__(cls) -> str",
    "@app.get(\"/items\", tags=['items']) def items(self)",
  ]);
});
