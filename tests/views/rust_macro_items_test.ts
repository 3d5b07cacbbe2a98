import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

const TEXT = `define_rejection! {
    #[status = BAD_REQUEST]
    #[body = "Failed to buffer the body; try again"]
    /// Encountered an unknown error when buffering the body. struct NotThis;
    pub struct UnknownBodyError(Error);
}

cfg_rt! {
    pub mod runtime;
    pub(crate) const unsafe fn spawn<T: Send>(task: T) -> Handle { todo!() }
    fn private_helper() {}
}

lazy_static! {
    static ref TABLE: Vec<u8> = vec![1, 2];
}

bitflags! {
    pub struct Flags: u32 {
        const A = 0b01;
    }
}

thread_local! { static DEPTH: Cell<u8> = Cell::new(0) }

impl Handle {
    forward! { pub fn id(&self) -> u64; }
}

vec![struct_like, "struct X", 'c'];
json!({ "fn": "f" });
quote! { pub struct #name; }
assert_eq!(a, b);
`;

Deno.test("a Rust macro call's items are symbols: structs, mods, fns, statics, in impls too", async () => {
  const view = (await renderCode("lib.rs", TEXT))!;
  const symbols = view.symbols.map((s) =>
    `${s.kind} ${s.qualifiedName} ${s.public ? "pub" : "-"} | ${s.signature}`
  );
  assert.deepEqual(symbols, [
    "struct UnknownBodyError pub | pub struct UnknownBodyError(Error)",
    "mod runtime pub | pub mod runtime",
    "fn spawn pub | pub(crate) const unsafe fn spawn<T: Send>(task: T) -> Handle",
    "fn private_helper - | fn private_helper()",
    "static TABLE - | static ref TABLE: Vec<u8> = ...",
    "struct Flags pub | pub struct Flags: u32",
    "static DEPTH - | static DEPTH: Cell<u8> = ...",
    "impl Handle pub | impl Handle",
    "fn Handle.id pub | pub fn id(&self) -> u64",
  ]);
  // The outline lists the public ones; the skeleton keeps the calls as written.
  const outline = outlineText(view.symbols, "//");
  assert.match(outline, /^pub struct UnknownBodyError\(Error\) {2}\/\/ struct$/m);
  assert.match(view.text, /pub struct UnknownBodyError\(Error\);/);
});

Deno.test("a macro's word that is no item's start declares nothing; an inner attribute is an item's lead", async () => {
  const text = `html! {
    <input value={v} type="text" />
    <div class={x} static other />
    <script src={s} async fn />
    <p id={a} struct=1 />
}

items! {
    #![allow(dead_code)]
    pub struct AfterInner;
    pub mod parts { }
    pub trait T: Send {}
    pub type Alias = u8;
}
`;
  const view = (await renderCode("lib.rs", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName} | ${s.signature}`), [
    "struct AfterInner | pub struct AfterInner",
    "mod parts | pub mod parts",
    "trait T | pub trait T: Send",
    "type Alias | pub type Alias = u8",
  ]);
});
