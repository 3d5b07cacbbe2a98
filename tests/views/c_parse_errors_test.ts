import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { makeProject, tempDir } from "../_helpers.ts";

// An Objective-C header (AFNetworking's shape): the C grammar reads `@protocol`, `@interface`,
// `@property` and `@end` as errors, and a skeleton made of that reading dropped each `@`.
const OBJC_HEADER = [
  "#import <Foundation/Foundation.h>",
  "",
  "NS_ASSUME_NONNULL_BEGIN",
  "",
  "/** Doc. */",
  "@protocol Serializer <NSObject>",
  "- (nullable NSURLRequest *)requestBySerializing:(NSURLRequest *)request",
  "                                         error:(NSError **)error;",
  "@end",
  "",
  "@class Policy;",
  "",
  "@interface Manager : NSObject <Serializer>",
  "@property (nonatomic, assign) int count;",
  "- (void)run;",
  "+ (instancetype)shared;",
  "@end",
  "",
  "NS_ASSUME_NONNULL_END",
  "",
].join("\n");

Deno.test("an Objective-C .h file is no C: skeleton and outline fall back to its Objective-C summary", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default {
      files: [
        { path: "Manager.h", view: "skeleton" },
        { path: "Outline.h", view: "outline" },
        { path: "Plain.h", view: "skeleton" },
      ],
    };\n`,
    "Manager.h": OBJC_HEADER,
    "Outline.h": OBJC_HEADER,
    "Plain.h": "#include <stddef.h>\n\nint add(int a, int b);\n",
  });
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, { write: false });
  const byPath = Object.fromEntries(result.manifest.files.map((f) => [f.path, f]));
  for (const path of ["Manager.h", "Outline.h"]) {
    assert.equal(byPath[path].view, "summary", path);
    assert.match(byPath[path].notes?.join("\n") ?? "", /does not support/, path);
  }
  assert.equal(byPath["Plain.h"].view, "skeleton");
  // No line the file does not hold: `protocol Serializer`, `property (…)`, `end`.
  assert.doesNotMatch(result.document, /^(?:protocol|interface|property|end)\b/m);
  assert.match(
    summarize("Manager.h", OBJC_HEADER),
    new RegExp(
      "^\\*\\*Objective-C header\\*\\*, 19 lines\\n- protocols: `Serializer`\\n" +
        "- interfaces: `Manager`\\n- methods: `-requestBySerializing:error:`, `-run`, `\\+shared`\\n" +
        "- imports: `Foundation/Foundation.h`$",
    ),
  );
  assert.match(summarize("Plain.h", "int add(int a, int b);\n"), /^\*\*C header\*\*/);
});

Deno.test("a C skeleton keeps a token the parser could not read where it shares a line with code", async () => {
  // Each stray token (`@`, `$$`, a backtick) is an error node on a line with a kept declaration:
  // dropping it alone wrote lines the file does not hold (`attr int f(int x) { ... }`).
  const text = [
    "#include <stdio.h>",
    "",
    "@attr int f(int x) { return x; }",
    "",
    "int g(void) { return 1; } $$ int h(void) { return 2; }",
    "",
    "struct S { int a; @weird int b; };",
    "",
    "`",
    "int k(void) { return 3; }",
    "",
  ].join("\n");
  for (const path of ["a.c", "a.cpp"]) {
    const out = (await renderCode(path, text))!.text;
    const source = text.split("\n");
    for (const line of out.split("\n")) {
      // Each line is the file's, or the file's with a body elided.
      const shown = line.replace(/\{ \.\.\. \}/g, "");
      assert.ok(
        source.some((s) => s.replace(/\{[^{}]*\}/g, "").trimEnd() === shown.trimEnd()) ||
          source.includes(line),
        `${path}: ${JSON.stringify(line)} is no line of the file`,
      );
    }
    assert.match(out, /^@attr int f\(int x\) \{ \.\.\. \}$/m, path);
  }
});
