import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A macro call's items were symbols but its text stayed whole in a skeleton: each function's
// body, an `impl`'s methods' bodies, `cfg_if!`'s branches (whose items were not read at all), and
// http's 900-line `standard_headers! { ... }` table (hunt27's and review28's leftovers). Written
// for this test, in the forms of tokio's `cfg_rt!`, the cfg-if crate and http's headers.
Deno.test("a Rust macro call's items are a skeleton: function bodies elided, cfg_if! branches read", async () => {
  const text = [
    "cfg_if::cfg_if! {",
    "    if #[cfg(unix)] {",
    "        mod unix;",
    "        pub fn open(path: &str) -> File {",
    "            File::open(path).unwrap()",
    "        }",
    "    } else if #[cfg(windows)] {",
    "        pub struct Handle(u32);",
    "    } else {",
    "        pub fn open(path: &str) -> File {",
    "            unimplemented!()",
    "        }",
    "    }",
    "}",
    "",
    "define_things! {",
    "    pub struct Thing {",
    "        a: u8,",
    "    }",
    "",
    "    impl Thing {",
    "        pub fn new() -> Self {",
    "            Self { a: 1 }",
    "        }",
    "    }",
    "",
    "    pub fn helper(x: u8) -> impl Iterator<Item = u8> {",
    "        std::iter::once(x)",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("lib.rs", text))!;
  assert.equal(
    view.text,
    [
      "cfg_if::cfg_if! {",
      "    if #[cfg(unix)] {",
      "        mod unix;",
      "        pub fn open(path: &str) -> File { ... }",
      "    } else if #[cfg(windows)] {",
      "        pub struct Handle(u32);",
      "    } else {",
      "        pub fn open(path: &str) -> File { ... }",
      "    }",
      "}",
      "",
      "define_things! {",
      "    pub struct Thing {",
      "        a: u8,",
      "    }",
      "",
      "    impl Thing {",
      "        pub fn new() -> Self { ... }",
      "    }",
      "",
      "    pub fn helper(x: u8) -> impl Iterator<Item = u8> { ... }",
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind, s.public]), [
    ["unix", "mod", false],
    ["open", "fn", true],
    ["Handle", "struct", true],
    ["open", "fn", true],
    ["Thing", "struct", true],
    ["helper", "fn", true],
  ]);
});

Deno.test("a long Rust macro table that declares no item is { ... }; a short one stays", async () => {
  const rows = Array.from({ length: 13 }, (_, i) => `    (Header${i}, HEADER_${i}, "x-${i}");`);
  const text = ["standard_headers! {", ...rows, "}", "", "short! {", ...rows.slice(0, 2), "}", ""]
    .join("\n");
  const out = (await renderCode("headers.rs", text))!.text;
  assert.equal(
    out,
    ["standard_headers! { ... }", "", "short! {", ...rows.slice(0, 2), "}", ""].join("\n"),
  );
});

Deno.test("a macro_rules! rule's expansion over lines is { ... }; its pattern stays", async () => {
  const text = [
    "macro_rules! square {",
    "    ($x:expr) => {",
    "        $x * $x",
    "    };",
    "    () => ( 0 );",
    "}",
    "",
  ].join("\n");
  const out = (await renderCode("m.rs", text))!.text;
  assert.equal(out, "macro_rules! square {\n    ($x:expr) => { ... };\n    () => ( 0 );\n}\n");
});
