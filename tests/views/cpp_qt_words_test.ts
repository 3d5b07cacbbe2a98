import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// Qt's words for access labels (`signals:`, `public slots:`), its `Q_OBJECT` above `public:`
// and its `Q_UNUSED(x)` first in a body, with no `;`: macros Qt's headers define, which the
// parser read as errors (flameshot-org/flameshot: 135 of its 225 C++ files; a member named
// `public`, the class's constructors lost). Written for these tests.
Deno.test("Qt's signals, slots and Q_OBJECT read as C++'s labels and blanks", async () => {
  const header = [
    "class ClickableLabel : public QLabel",
    "{",
    "    Q_OBJECT",
    "public:",
    "    explicit ClickableLabel(QWidget* parent = nullptr);",
    "",
    "signals:",
    "    void clicked();",
    "",
    "public slots:",
    "    void refresh();",
    "",
    "private:",
    "    void mousePressEvent(QMouseEvent*);",
    "};",
    "",
  ].join("\n");
  const view = (await renderCode("src/clickablelabel.h", header))!;
  assert.equal(view.hasErrors, false);
  assert.equal(view.text, header);
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "class ClickableLabel : public QLabel  // class",
      "  explicit ClickableLabel(QWidget* parent = nullptr)  // method",
      "  void clicked()  // method",
      "  void refresh()  // method",
      "",
    ].join("\n"),
  );
  const source = [
    "void ArrowTool::pressed(CaptureContext& context)",
    "{",
    "    Q_UNUSED(context)",
    "}",
    "",
    "QIcon ArrowTool::icon(bool inEditor) const",
    "{",
    "    Q_UNUSED(inEditor)",
    "    return QIcon();",
    "}",
    "",
  ].join("\n");
  const body = (await renderCode("src/arrowtool.cpp", source))!;
  assert.equal(body.hasErrors, false);
  // A body the parser reads as empty stays as written; the other is elided.
  assert.equal(
    body.text,
    [...source.split("\n").slice(0, 6), "{ ... }", ""].join("\n"),
  );
});

// Qt's declaring macros called with no `;` (`Q_PROPERTY(...)`, `Q_ENUM(Mode)`, a file's
// `Q_DECLARE_METATYPE(A)`) were read with the line after them as one declaration: methods named
// `Q_PROPERTY`, the function after `Q_DECLARE_METATYPE` lost in it. A property is a member, of
// kind `property` (it had no symbol: a reader asking where `color` is declared found none).
Deno.test("Qt's declaring macros are shown as written, a property a member of its own kind", async () => {
  const text = [
    "class Swatch : public QObject {",
    "  Q_OBJECT",
    '  Q_CLASSINFO("D-Bus Interface", "org.shop.Swatch")',
    "  Q_PROPERTY(QList<int> *sizes READ sizes CONSTANT)",
    "",
    "public:",
    "  Q_PROPERTY(QColor color READ color WRITE setColor NOTIFY colorChanged)",
    "  Q_ENUM(Mode)",
    "  QColor color() const;",
    "  enum Mode { A, B };",
    "};",
    "Q_DECLARE_METATYPE(Swatch)",
    "int area(Swatch s);",
    "",
  ].join("\n");
  const view = (await renderCode("swatch.h", text))!;
  assert.equal(view.text, text);
  assert.equal(view.hasErrors, false);
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["Swatch", "class"],
    ["Swatch.sizes", "property"],
    ["Swatch.color", "property"],
    ["Swatch.color", "method"],
    ["Swatch.Mode", "enum"],
    ["area", "function"],
  ]);
  // Before `public:`, as Qt's own classes declare them: public API still.
  assert.equal(view.symbols[1].public, true);
  assert.equal(
    view.symbols[2].signature,
    "Q_PROPERTY(QColor color READ color WRITE setColor NOTIFY colorChanged)",
  );
});
