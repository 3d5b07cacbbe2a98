// A `.h` file with C++'s words is read with the C++ grammar. The C grammar read a namespace of
// plain declarations (fmtlib/fmt's `test/posix-mock.h`) without an error, as a function named
// after the namespace whose body the skeleton elided: the declarations were lost.
import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { languageOf } from "../../grammars/languages.ts";

const HEADER = [
  "#ifndef SHOP_H",
  "#define SHOP_H",
  "namespace shop {",
  "#ifndef _WIN32",
  "using size = unsigned;",
  "int open(const char* path);",
  "#endif",
  "int close(int fd);",
  "}  // namespace shop",
  "#endif",
  "",
].join("\n");

Deno.test("a C++ header named .h keeps its namespace's members in skeleton, outline and masked", async () => {
  const skeleton = (await renderCode("include/shop.h", HEADER))!;
  assert.equal(skeleton.hasErrors, false);
  assert.deepEqual(
    skeleton.symbols.map((s) => `${s.qualifiedName} ${s.kind}`),
    ["SHOP_H macro", "shop namespace", "shop.open function", "shop.close function"],
  );
  assert.equal(skeleton.text, HEADER);
  // The same as the C++ grammar's reading of the same text under a C++ name.
  assert.equal(skeleton.text, (await renderCode("include/shop.hpp", HEADER))!.text);
  const masked = (await renderCode("include/shop.h", HEADER, {
    mask: { "shop.close": "def" },
    rest: "hide",
  }))!;
  assert.ok(masked.text.includes("int close(int fd);"), masked.text);
  assert.equal(languageOf("include/shop.h", HEADER)?.id, "cpp");
});

Deno.test("a C header with a C++ look-alike keeps C's reading when C++'s has errors", async () => {
  // `private:` is a label here (C++'s words: an access specifier) and `new` a name.
  const text = "static inline int twice(int new) {\n  if (new) goto private;\nprivate:\n" +
    "  return new + new;\n}\nint add(int a, int b);\n";
  const view = (await renderCode("util.h", text))!;
  assert.equal(view.hasErrors, false);
  assert.deepEqual(view, await renderCode("util.c", text));
  assert.equal(languageOf("util.h", text)?.id, "cpp");
  // A header in C's syntax that is not C++ by its words stays C.
  assert.equal(languageOf("add.h", "int add(int a, int b);\n")?.id, "c");
});
