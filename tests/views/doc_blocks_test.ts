import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

/**
 * A `/**` doc comment documents the definition after it across blank lines (express writes one
 * between them); a plain `/*` comment, a file's header and a comment before something that
 * defines nothing keep the rule for other comments: attached only right above their item.
 */
const EXPRESS = [
  "/*!",
  " * app",
  " * MIT Licensed",
  " */",
  "",
  "'use strict';",
  "",
  "/**",
  " * Module dependencies.",
  " * @private",
  " */",
  "",
  "var debug = require('debug');",
  "",
  "/**",
  " * Initialize the server.",
  " * @private",
  " */",
  "",
  "",
  "app.init = function init() {",
  "  this.cache = {};",
  "};",
  "",
  "/* A plain block comment. */",
  "",
  "function plain() {",
  "  return 1;",
  "}",
  "",
  "/** A section's title. */",
  "",
  "// A note.",
  "function noted() {",
  "  return 2;",
  "}",
  "",
  "/** Run once. */",
  "",
  "start();",
  "",
  "/** Right above. */",
  "function direct() {",
  "  return 3;",
  "}",
  "",
  "/** Expose the app. */",
  "",
  "exports = module.exports = app;",
  "",
].join("\n");

Deno.test("renderCode() keeps a /** comment a blank line above a definition, not a /* one or one before code", async () => {
  const view = (await renderCode("lib/app.js", EXPRESS))!;
  assert.equal(
    view.text,
    [
      "'use strict';",
      "",
      "/**",
      " * Module dependencies.",
      " * @private",
      " */",
      "",
      "var debug = require('debug');",
      "",
      "/**",
      " * Initialize the server.",
      " * @private",
      " */",
      "",
      "app.init = function init() { ... };",
      "",
      "function plain() { ... }",
      "",
      "// A note.",
      "function noted() { ... }",
      "",
      // A call run at load stays; the comment a blank line above it documents no definition.
      "start();",
      "",
      "/** Right above. */",
      "function direct() { ... }",
      "",
      "/** Expose the app. */",
      "",
      "exports = module.exports = app;",
      "",
    ].join("\n"),
  );
});

Deno.test("renderCode() masked: a /** comment a blank line above goes with its definition, kept or left out", async () => {
  const view = (await renderCode("lib/app.js", EXPRESS, {
    mask: { "app.init": "sig" },
    rest: "hide",
  }))!;
  assert.equal(
    view.text,
    [
      "/**",
      " * Initialize the server.",
      " * @private",
      " */",
      "",
      "app.init = function init() { ... };",
      "",
    ].join("\n"),
  );
});

Deno.test("renderCode() a file's /** header a blank line above its imports or first definition stays its own", async () => {
  const license = [
    "/**",
    " * Copyright (c) Someone.",
    " * Licensed under the MIT license.",
    " */",
    "",
    'import { a } from "./a.ts";',
    "",
    "/** @module tools */",
    "",
    "export function first(): number {",
    "  return a;",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("src/tools.ts", license))!;
  assert.equal(
    view.text,
    ['import { a } from "./a.ts";', "", "export function first(): number { ... }", ""].join("\n"),
  );
  const header = ["#!/usr/bin/env node", "/** The tool. */", "", "function main() {}", ""];
  const top = (await renderCode("bin/tool.js", header.join("\n")))!;
  assert.equal(top.text, "#!/usr/bin/env node\n\nfunction main() {}\n");
});

Deno.test("renderCode() a /** comment a blank line above a decorated class and a class member documents them", async () => {
  const source = [
    'import { dec } from "./dec.ts";',
    "",
    "/** A widget. */",
    "",
    "@dec()",
    "export class Widget {",
    "  /** Draws it. */",
    "",
    "  draw(): void {",
    "    paint();",
    "  }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("src/widget.ts", source))!;
  assert.equal(
    view.text,
    [
      'import { dec } from "./dec.ts";',
      "",
      "/** A widget. */",
      "",
      "@dec()",
      "export class Widget {",
      "  /** Draws it. */",
      "",
      "  draw(): void { ... }",
      "}",
      "",
    ].join("\n"),
  );
});

Deno.test("renderCode() Java and PHP docblocks a blank line above a definition document it", async () => {
  const java = [
    "package a;",
    "",
    "/** A point. */",
    "",
    "public class Point {",
    "  /** Its length. */",
    "",
    "  public double length() {",
    "    return 0;",
    "  }",
    "  /* Plain. */",
    "",
    "  void plain() {",
    "    run();",
    "  }",
    "}",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("src/Point.java", java))!.text,
    [
      "package a;",
      "",
      "/** A point. */",
      "",
      "public class Point {",
      "  /** Its length. */",
      "",
      "  public double length() { ... }",
      "",
      "  void plain() { ... }",
      "}",
      "",
    ].join("\n"),
  );
  const php = [
    "<?php",
    "/**",
    " * Copyright (c) Someone.",
    " */",
    "",
    "namespace App;",
    "",
    "/**",
    " * Adds.",
    " */",
    "",
    "function add($a, $b) {",
    "  return $a + $b;",
    "}",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("src/add.php", php))!.text,
    [
      "<?php",
      "",
      "namespace App;",
      "",
      "/**",
      " * Adds.",
      " */",
      "",
      "function add($a, $b) { ... }",
      "",
    ].join("\n"),
  );
});

Deno.test("renderCode() a /** comment that names what it documents, or the package, stays its own", async () => {
  const source = [
    "// Copyright (c) Someone.",
    "",
    "/**",
    " * The tools.",
    " * @packageDocumentation",
    " */",
    "",
    'export { a } from "./a.js";',
    "",
    "/**",
    " * @typedef {Object} Options",
    " * @property {number} size",
    " */",
    "",
    "class Manager {",
    "  /**",
    "   * The cache.",
    "   * @type {Map<string, number>}",
    "   * @name Manager#cache",
    "   */",
    "",
    "  add(key) {",
    "    return key;",
    "  }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("src/manager.js", source))!;
  // The `@typedef` is a definition of its own (below), not the class's doc.
  assert.equal(
    view.text,
    [
      'export { a } from "./a.js";',
      "",
      "/**",
      " * @typedef {Object} Options",
      " * @property {number} size",
      " */",
      "",
      "class Manager {",
      "  add(key) { ... }",
      "}",
      "",
    ].join("\n"),
  );
});

Deno.test("renderCode() a JSDoc @typedef or @callback stays as a definition and names a symbol, whatever follows it", async () => {
  const source = [
    "'use strict';",
    "",
    "/**",
    " * Data for a message.",
    " * @typedef {Object} MessageData",
    " * @property {{ a: number, b: { c: string } }} [extra] More",
    " */",
    "",
    "/**",
    " * @callback MessageFilter",
    " * @param {Message} message",
    " * @returns {boolean}",
    " */",
    "/** @typedef {import('./x').Y} Z */",
    "start();",
    "",
    "/** @typedef {string} */",
    "var Closure;",
    "",
    "/** Not a @typedef. */",
    "start();",
    "",
  ].join("\n");
  const view = (await renderCode("src/types.js", source))!;
  assert.equal(
    view.text,
    [
      "'use strict';",
      "",
      "/**",
      " * Data for a message.",
      " * @typedef {Object} MessageData",
      " * @property {{ a: number, b: { c: string } }} [extra] More",
      " */",
      "",
      "/**",
      " * @callback MessageFilter",
      " * @param {Message} message",
      " * @returns {boolean}",
      " */",
      "/** @typedef {import('./x').Y} Z */",
      "start();",
      "",
      "/** @typedef {string} */",
      "var Closure;",
      "",
      "/** Not a @typedef. */",
      "start();",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind, s.line, s.signature]), [
    ["MessageData", "typedef", 3, "@typedef {Object} MessageData"],
    ["MessageFilter", "callback", 9, "@callback MessageFilter"],
    ["Z", "typedef", 14, "@typedef {import('./x').Y} Z"],
    ["Closure", "var", 18, "Closure"],
  ]);
  // Masked, a typedef is shown when listed, left out with the rest otherwise.
  const masked = (await renderCode("src/types.js", source, {
    mask: { MessageFilter: "sig" },
    rest: "hide",
  }))!;
  assert.equal(
    masked.text,
    [
      "/**",
      " * @callback MessageFilter",
      " * @param {Message} message",
      " * @returns {boolean}",
      " */",
      "",
    ].join("\n"),
  );
});

Deno.test("renderCode() C: a /** comment a blank line above a function documents it, not a banner or an #if", async () => {
  const source = [
    "#include <stdio.h>",
    "",
    "/******************************************************************************/",
    "",
    "static int ready;",
    "",
    "/** Set-up that only old libraries need. */",
    "",
    "#if OLD_LIB",
    "static void old_init(void) {",
    "  ready = 1;",
    "}",
    "#endif",
    "",
    "/**",
    " * Starts the engine.",
    " */",
    "",
    "int start(void) {",
    "  return ready;",
    "}",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("src/engine.c", source))!.text,
    [
      "#include <stdio.h>",
      "",
      "static int ready;",
      "",
      "#if OLD_LIB",
      "static void old_init(void) { ... }",
      "#endif",
      "",
      "/**",
      " * Starts the engine.",
      " */",
      "",
      "int start(void) { ... }",
      "",
    ].join("\n"),
  );
});

Deno.test("renderCode() Rust: a /// or /** doc a blank line above an item documents it, the file's first too; //! stays the file's, //// and // do not", async () => {
  const source = [
    "//! The crate.",
    "",
    "/// The first item's doc.",
    "",
    "pub struct Foo {",
    "    a: u32,",
    "}",
    "",
    "/** Block doc. */",
    "",
    "pub fn bar() -> u32 {",
    "    1",
    "}",
    "",
    "//// A banner.",
    "",
    "pub fn baz() {}",
    "",
    "// A note.",
    "",
    "fn qux() {}",
    "",
    "/// Over a use.",
    "",
    "use a::b;",
    "",
    "impl Foo {",
    "    /// A method's doc.",
    "    /// Two lines.",
    "",
    "    #[inline]",
    "    pub fn m(&self) -> u32 {",
    "        self.a",
    "    }",
    "}",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("src/lib.rs", source))!.text,
    [
      "//! The crate.",
      "",
      "/// The first item's doc.",
      "",
      "pub struct Foo {",
      "    a: u32,",
      "}",
      "",
      "/** Block doc. */",
      "",
      "pub fn bar() -> u32 { ... }",
      "",
      "pub fn baz() {}",
      "",
      "fn qux() {}",
      "",
      "use a::b;",
      "",
      "impl Foo {",
      "    /// A method's doc.",
      "    /// Two lines.",
      "",
      "    #[inline]",
      "    pub fn m(&self) -> u32 { ... }",
      "}",
      "",
    ].join("\n"),
  );
  // Left out, an item takes its doc with it; the crate's //! stays.
  const masked = (await renderCode("src/lib.rs", source, { mask: { bar: "sig" }, rest: "hide" }))!;
  assert.equal(masked.text, "//! The crate.\n\n/** Block doc. */\n\npub fn bar() -> u32 { ... }\n");
});
