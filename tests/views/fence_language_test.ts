// A `.h` or `.m` file is C, MATLAB or Objective-C by its words, not its name: an Objective-C
// file's fence says `objective-c`, in a warm build too, whose renders come from the cache (the
// label is kept with the render: a warm build may not read the file).
import assert from "node:assert/strict";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { isCpp } from "../../pipeline/extension.ts";
import { makeProject } from "../_helpers.ts";

const TREE: Record<string, string> = {
  "include/Cart.h": "#import <Foundation/Foundation.h>\n\n@interface Cart : NSObject\n" +
    "- (void)addItem:(NSString *)name;\n@end\n",
  "src/Cart.m":
    '#import "Cart.h"\n\n@implementation Cart\n- (void)addItem:(NSString *)name {}\n@end\n',
  "src/add.h": "int add(int a, int b);\n",
  "src/add.c": '#include "add.h"\nint add(int a, int b) { return a + b; }\n',
};

/** C++ headers, each with one of C++'s words, and C headers with look-alikes of them. */
const HEADERS: Record<string, string> = {
  "cpp/ns.h": "#pragma once\nnamespace shop {\nint total();\n}\n",
  "cpp/using.h": "#include <string>\nusing namespace std;\n",
  "cpp/class.h": "#pragma once\nclass Cart\n{\n  int n;\n};\n",
  "cpp/derived.h": "class API Cart : Base {\n};\n",
  "cpp/template.h": "template <typename T>\nT twice(T x) { return x + x; }\n",
  "cpp/public.h": "struct Cart {\npublic:\n  int n;\n};\n",
  "cpp/scope.h": "#include <string>\nstd::string name();\n",
  "c/extern.h": '#ifdef __cplusplus\nextern "C" {\n#endif\nint add(int a, int b);\n' +
    "#ifdef __cplusplus\n}\n#endif\n",
  "c/comments.h": "/* The namespace of a class: Cart::add\n * class Cart {\n * public: */\n" +
    "int add(int a, int b); // see Cart::add\n",
  "c/strings.h": '#define LOCALHOST "::1"\n[[gnu::unused]] static int unused;\nint class_count;\n',
  // Block comments whose lines do not start with `*` (valgrind's libvex.h): text, not code.
  "c/block.h": "/*\n   Calls A::b when ready.\n*/\nint add(int a, int b);\n",
  "c/block_words.h": "/* Unlike C++:\nclass Cart;\nnamespace shop {\npublic:\n*/\nint n;\n",
  // Code after a comment's end, and a `/*` in a string or a line comment: code still.
  "cpp/after_comment.h": "/* the name\n */ std::string name();\n",
  "cpp/glob_string.h": '#define GLOB "src/*.c"\nstd::string name();\n',
  "c/two_comments.h": "/*\n A::b\n*/\nint n;\n/*\nclass Cart;\n*/\n",
  "cpp/word_after_comment.h": "/* A::b */\nint n;\nnamespace shop {\n}\n",
  "cpp/line_comment.h": "// see /* here\nnamespace shop {\n}\n",
  "c/label.h": "static inline int f(int x) {\n  if (x) goto done;\ndone:\n  return x;\n}\n",
};

/** The fence each file's block opens with, by path. */
function fences(document: string): Map<string, string> {
  const found = [...document.matchAll(/^### (\S+)\n\n```(\S*)\n/gm)];
  return new Map(found.map(([, path, label]) => [path, label]));
}

async function fencesOf(root: string) {
  const config = await loadConfig({ cwd: root });
  const result = await build(config, { builtins: defaultPlugins(), layer: speedLayer() });
  return { fences: fences(result.document), document: result.document };
}

Deno.test("an Objective-C header's fence says objective-c, a C header's c, cold and warm", async () => {
  const root = await makeProject(TREE);
  const cold = await fencesOf(root);
  assert.equal(cold.fences.get("include/Cart.h"), "objective-c");
  assert.equal(cold.fences.get("src/Cart.m"), "objective-c");
  assert.equal(cold.fences.get("src/add.h"), "c");
  assert.equal(cold.fences.get("src/add.c"), "c");
  // Warm: every render is a cache hit; the same bytes.
  const warm = await fencesOf(root);
  assert.equal(warm.document, cold.document);
});

Deno.test("a .h file with C++'s words is fenced cpp, a C header with look-alikes of them c, cold and warm", async () => {
  const root = await makeProject(HEADERS);
  const cold = await fencesOf(root);
  for (const path of Object.keys(HEADERS)) {
    assert.equal(cold.fences.get(path), path.startsWith("cpp/") ? "cpp" : "c", path);
  }
  const warm = await fencesOf(root);
  assert.equal(warm.document, cold.document);
});

Deno.test("the C++ test of a header is linear in its text", () => {
  // Lines of a megabyte that come near each word and miss: each must finish (a test that tries
  // every split of such a line, or looks back over it from each "::", takes minutes).
  const long = 1 << 20;
  const lines = [
    "namespace" + " a".repeat(long / 2) + "!",
    "class " + "a".repeat(long) + "!",
    "class a" + " ".repeat(long) + "!",
    "template" + " ".repeat(long) + "!",
    "public" + " ".repeat(long) + "!",
    "x" + " a:: ".repeat(long / 5) + "//",
    "// " + "a::b ".repeat(long / 5),
    "/* a::b */ ".repeat(long / 11),
    '"/* a::b '.repeat(long / 9),
    "'\\".repeat(long / 2) + "/*",
  ];
  for (const line of lines) assert.equal(isCpp(line + "\n" + line), false, line.slice(0, 12));
});
