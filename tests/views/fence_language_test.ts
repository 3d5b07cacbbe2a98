// A `.h` or `.m` file is C, MATLAB or Objective-C by its words, not its name: an Objective-C
// file's fence says `objective-c`, in a warm build too, whose renders come from the cache (the
// label is kept with the render: a warm build may not read the file).
import assert from "node:assert/strict";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

const TREE: Record<string, string> = {
  "include/Cart.h": "#import <Foundation/Foundation.h>\n\n@interface Cart : NSObject\n" +
    "- (void)addItem:(NSString *)name;\n@end\n",
  "src/Cart.m":
    '#import "Cart.h"\n\n@implementation Cart\n- (void)addItem:(NSString *)name {}\n@end\n',
  "src/add.h": "int add(int a, int b);\n",
  "src/add.c": '#include "add.h"\nint add(int a, int b) { return a + b; }\n',
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
