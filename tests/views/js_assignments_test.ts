import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/** CommonJS and pre-ES6 code defines its API by assignment (express's `lib/application.js`). */
const CJS = [
  "'use strict';",
  "var app = exports = module.exports = {};",
  "",
  "/** Initialize the server. */",
  "app.init = function init() {",
  "  this.cache = {};",
  "};",
  "",
  "exports.foo = function foo(a) {",
  "  return a;",
  "};",
  "module.exports.bar = (a) => {",
  "  return a * 2;",
  "};",
  "Foo.prototype.baz = function (x) {",
  "  return x;",
  "};",
  "Foo.Base = class {",
  "  run() {",
  "    return 1;",
  "  }",
  "};",
  "app._private = function () {",
  "  return 0;",
  "};",
  "exports.VALUE = 42;",
  "x = 1;",
  "a[k] = function () {",
  "  return 2;",
  "};",
  "module.exports = {",
  "  a() {",
  "    return 1;",
  "  },",
  "  b: function () {",
  "    return 2;",
  "  },",
  "  c: (x) => x,",
  "};",
  "register({ d: () => 1 });",
  "this.top = function () {",
  "  return 3;",
  "};",
  "",
].join("\n");

for (const ext of ["js", "cjs", "mjs", "ts"]) {
  Deno.test(`renderCode() lists a .${ext} file's top-level assignments to a path of names as symbols, named as written`, async () => {
    const view = (await renderCode(`lib/app.${ext}`, CJS))!;
    assert.deepEqual(
      view.symbols.map((s) => `${s.line} ${s.kind} ${s.qualifiedName} ${s.public}`),
      [
        "2 var app true",
        "5 function app.init true",
        "9 function exports.foo true",
        "12 function module.exports.bar true",
        "15 function Foo.prototype.baz true",
        "18 class Foo.Base true",
        "19 method Foo.Base.run true",
        "23 function app._private false",
        "26 property exports.VALUE true",
        "31 property module.exports true",
        "32 method module.exports.a true",
        "35 method module.exports.b true",
        "38 method module.exports.c true",
      ],
    );
    // Bodies are hollowed as a function declaration's; `x = 1`, `a[k] = ...` and `this.top = ...`
    // stay as before, and so does the call `register(...)`, a statement run at load.
    assert.match(view.text, /\*\/\napp\.init = function init\(\) \{ \.\.\. \};\n/);
    assert.match(view.text, /\nFoo\.prototype\.baz = function \(x\) \{ \.\.\. \};\n/);
    assert.match(view.text, /\n {2}run\(\) \{ \.\.\. \}\n/);
    assert.match(
      view.text,
      /\n {2}b: function \(\) \{ \.\.\. \},\n {2}c: \(x\) => x,\n\};\nregister\(\{ d: \(\) => 1 \}\);\nthis\.top = function \(\) \{ \.\.\. \};\n$/,
    );
  });
}

Deno.test("renderCode() mask names an assignment by its path: app.init, Foo.prototype.baz, module.exports.a", async () => {
  const view = (await renderCode("lib/app.js", CJS, {
    mask: { "app.init": "def", "Foo.prototype.baz": "sig", "module.exports.a": "sig" },
    rest: "hide",
  }))!;
  assert.equal(
    view.text,
    [
      "var app = exports = module.exports = {};",
      "",
      "/** Initialize the server. */",
      "app.init = function init() {",
      "  this.cache = {};",
      "};",
      "",
      "Foo.prototype.baz = function (x) { ... };",
      // The object's members the mask does not list are hidden, as a class's would be.
      "module.exports = {",
      "  a() { ... },",
      "};",
      "",
    ].join("\n"),
  );
});

Deno.test("outlineText() shows assignments; in a file with ES exports only CommonJS exports are public", async () => {
  const plain = (await renderCode("lib/app.js", CJS))!;
  assert.match(
    outlineText(plain.symbols, "//"),
    /^app\.init = function init\(\) {2}\/\/ function$/m,
  );
  const esm = (await renderCode(
    "lib/mixed.js",
    "export const a = 1;\nhelper.run = function () {};\nexports.b = function b() {};\n",
  ))!;
  assert.equal(
    outlineText(esm.symbols, "//"),
    "a = 1  // const\nexports.b = function b()  // function\n",
  );
});

Deno.test("masked: a mask naming a prototype method Foo.bar is told its name, Foo.prototype.bar", async () => {
  const root = await makeProject({
    "lib/view.js":
      "function View() {}\nView.prototype.render = function render(fn) {\n  fn();\n};\n",
    "slop.config.ts":
      `export default { files: [{ path: "lib/view.js", view: "masked", mask: { "View.render": "def" } }] };\n`,
  });
  const result = await buildContext({ cwd: root }, { write: false });
  assert.ok(
    result.warnings.includes(
      '[plugin slop:masked] Mask names no symbol "View.render" in "lib/view.js" ' +
        '(did you mean "View.prototype.render"? Mask keys are qualified names)',
    ),
    result.warnings.join("\n"),
  );
});
