import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// Declarations with macros the parser cannot know, in front of the type and after the
// declarator (an export prefix, an attribute): tree-sitter splits some of them into a declaration
// and a statement that starts on the same line.
const PREFIXES = ["API", "REDISMODULE_API", "LUA_API", "JEMALLOC_EXPORT"];
const TYPES = ["void", "int", "void *", "char **", "struct s *"];
const NAMES = ["(*Free)", "(*RedisModule_Free)", "(*cb_with_a_long_name)", "(*Create)"];
const PARAMS = [
  "(void *ptr)",
  "(int a, ...)",
  "(void)",
  "(Ctx *ctx, const char *name, Func f, const char *flags, int first, int last, int step)",
];
const SUFFIXES = ["ATTR", "REDISMODULE_ATTR", "JET_MUTABLE"];

/** Every declaration the lists make, one per line. */
function declarations(): string[] {
  const out: string[] = [];
  for (const prefix of PREFIXES) {
    for (const type of TYPES) {
      for (const [i, name] of NAMES.entries()) {
        out.push(`${prefix} ${type} ${name}${PARAMS[i]} ${SUFFIXES[(i + type.length) % 3]};`);
      }
    }
  }
  return out;
}

Deno.test("a C or C++ skeleton shows a declaration with unknown macros whole, on its line", async () => {
  const lines = declarations();
  for (const path of ["api.h", "api.c", "api.cpp"]) {
    const out = (await renderCode(path, lines.join("\n") + "\n"))!.text.split("\n");
    const cut = lines.filter((line) => !out.includes(line));
    assert.deepEqual(cut, [], `${path}: ${cut.length} of ${lines.length} declarations cut`);
  }
});

// A call of a name alone there (`foo();`) is a macro's, kept (`cpp_macro_words_test.ts`).
Deno.test("statements where only declarations stand are still left out of a C skeleton", async () => {
  const text = "int a;\nx = 1;\n/* c */ a->b();\nint b; baz();\n";
  assert.equal((await renderCode("x.c", text))!.text, "int a;\nint b; baz();\n");
});
