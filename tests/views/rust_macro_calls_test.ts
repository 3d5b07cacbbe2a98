import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A macro call ends with `;` in a module, impl or trait body, after any of its delimiters.
const CALLS = ['name!(a, "x");', "ext![b, 1];", "items!{ c }", "m::path!(d);"];

Deno.test("a Rust skeleton keeps the ; of every macro call, at the top and in mod, impl and trait bodies", async () => {
  const text = [
    ...CALLS,
    "mod tests {",
    ...CALLS.map((c) => `    ${c}`),
    "    fn f() {}",
    "}",
    "impl S {",
    ...CALLS.map((c) => `    ${c}`),
    "    pub fn g(&self) -> u8 { 1 }",
    "}",
    "trait T {",
    ...CALLS.map((c) => `    ${c}`),
    "}",
    "",
  ].join("\n");
  const out = (await renderCode("lib.rs", text))!.text;
  const lines = out.split("\n");
  for (const call of CALLS) {
    assert.equal(lines.filter((l) => l.trim() === call).length, 4, `${call} in:\n${out}`);
  }
  // Every line of the skeleton is a line of the file, but for the body markers.
  for (const line of lines) {
    if (!line.includes("{ ... }")) assert.ok(text.split("\n").includes(line), line);
  }
});

Deno.test("a stray ; after an item is still left out of a Rust skeleton", async () => {
  const out =
    (await renderCode("lib.rs", "mod m {\n    fn f() {}\n    ;\n    struct S;\n}\n"))!.text;
  assert.equal(out, "mod m {\n    fn f() {}\n    struct S;\n}\n");
});
