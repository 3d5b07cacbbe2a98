import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A Scala self-type (`trait A { this: B => ...}`, circe's `EqInstances`, `JawnParserPlatform`)
// says what the trait's members may use, as `extends` says what they inherit; the code views
// dropped it, and a trait of tests alone read `trait A { ... }`. Written for these tests.
const TEXT = [
  "trait EqInstances { this: ArbitraryInstances =>",
  "  protected def count: Int = 16",
  "  implicit def eqEncoder[A: Arbitrary]: Eq[Encoder[A]] = Eq.instance { (e1, e2) =>",
  "    e1 == e2",
  "  }",
  "}",
  "",
  "class Printer extends Base { self =>",
  "  def print(j: Json): String = j.toString",
  "}",
  "",
  "trait SortedKeysSuite { self: PrinterSuite with Laws =>",
  '  register("sorts keys", {',
  "    sortedLaws",
  "  })",
  "}",
].join("\n") + "\n";

Deno.test("a Scala self-type stays with its template's members", async () => {
  const view = (await renderCode("EqInstances.scala", TEXT))!;
  assert.equal(
    view.text,
    [
      "trait EqInstances { this: ArbitraryInstances =>",
      "  protected def count: Int = 16",
      "  implicit def eqEncoder[A: Arbitrary]: Eq[Encoder[A]] = { ... }",
      "}",
      "",
      "class Printer extends Base { self =>",
      "  def print(j: Json): String = j.toString",
      "}",
      "",
      "trait SortedKeysSuite { self: PrinterSuite with Laws => ... }",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "trait EqInstances",
    "method EqInstances.count",
    "method EqInstances.eqEncoder",
    "class Printer",
    "method Printer.print",
    "trait SortedKeysSuite",
  ]);
});
