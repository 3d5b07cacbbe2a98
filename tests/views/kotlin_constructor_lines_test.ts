import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { kotlinParseText } from "../../grammars/_kotlin.ts";

// A nested class whose primary constructor is on the line below its name (square's style in
// kotlinpoet: `public class Builder` then `internal constructor(...) : ... {`) was read by
// tree-sitter-kotlin as a class with no body, a secondary constructor and an error running to
// the middle of a later string: the outer class's members were lost and its skeleton had a line
// cut inside a string (kotlinpoet's `PropertySpec.kt`, 5 files). Written for this test.
Deno.test("a nested Kotlin class with its primary constructor on the next line keeps its members", async () => {
  const text = [
    "public class PropertySpec private constructor(builder: Builder) : Taggable {",
    "  public val name: String = builder.name",
    "",
    "  public class Builder",
    "  internal constructor(internal val name: String) :",
    "    Taggable.Builder<Builder> {",
    "    internal var mutable = false",
    "",
    "    public fun setter(setter: FunSpec?): Builder = apply {",
    '      require(setter == null) { "${setter!!.name} is not a setter" }',
    "    }",
    "  }",
    "",
    "  public class Other<T>",
    "  @Inject constructor(val t: T)",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("PropertySpec.kt", text))!;
  assert.equal(view.hasErrors, false);
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["PropertySpec", "class"],
    ["PropertySpec.name", "property"],
    ["PropertySpec.Builder", "class"],
    ["PropertySpec.Builder.mutable", "property"],
    ["PropertySpec.Builder.setter", "method"],
    ["PropertySpec.Other", "class"],
  ]);
  assert.match(
    view.text,
    /^ {2}public class Builder\n {2}internal constructor\(internal val name/m,
  );
  assert.equal(view.text.includes("is not a setter"), false, view.text);
});

Deno.test("the parse text of a class head above its constructor keeps the file's length and lines", () => {
  const text = "class A {\n    class B<T>\n    private constructor(x: T)\n}\n";
  const read = kotlinParseText(text)!;
  assert.equal(read.length, text.length);
  assert.deepEqual(read.split("\n").map((l) => l.length), text.split("\n").map((l) => l.length));
  // A head with a comment on its line, or not followed by a constructor, is read as written.
  assert.equal(
    kotlinParseText("class A {\n  class B // x\n  internal constructor()\n}\n"),
    undefined,
  );
  assert.equal(kotlinParseText("class A {\n  class B\n  fun constructor() = 1\n}\n"), undefined);
});
