import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

/** The outline of a file (every symbol, public or not), and its symbols as `line name kind`. */
async function outline(path: string, lines: string[], comment = "//"): Promise<string> {
  const view = (await renderCode(path, lines.join("\n") + "\n"))!;
  const names = view.symbols.map((s) => `${s.line} ${s.qualifiedName} ${s.kind}`);
  return `${outlineText(view.symbols, comment)}\n${names.join("\n")}\n`;
}

Deno.test("a Ruby outline lists each attribute attr_reader, attr_writer and attr_accessor declare, private ones left out", async () => {
  const text = [
    "module Shop",
    "  attr_accessor :registry",
    "  class Item",
    '    attr_reader :sku, "name", *EXTRA',
    "    attr_writer :price",
    "    attr_accessor(:count)",
    "    def total; end",
    "    private attr_reader :cost",
    "    protected",
    "    attr_accessor :margin",
    "    public",
    "    attr_reader :label",
    "    self.attr_reader :not_a_declaration",
    "  end",
    "end",
  ];
  assert.equal(
    await outline("shop.rb", text, "#"),
    [
      "module Shop  # module",
      "  attr_accessor :registry  # attribute",
      "  class Item  # class",
      "    attr_reader :sku  # attribute",
      '    attr_reader "name"  # attribute',
      "    attr_writer :price  # attribute",
      "    attr_accessor :count  # attribute",
      "    def total; end  # method",
      "    attr_reader :label  # attribute",
      "    self.attr_reader :not_a_declaration  # call",
      "",
      "1 Shop module",
      "2 Shop.registry attribute",
      "3 Shop.Item class",
      "4 Shop.Item.sku attribute",
      "4 Shop.Item.name attribute",
      "5 Shop.Item.price attribute",
      "6 Shop.Item.count attribute",
      "7 Shop.Item.total method",
      "8 Shop.Item.cost attribute",
      "10 Shop.Item.margin attribute",
      "12 Shop.Item.label attribute",
      "13 Shop.Item.self.attr_reader :not_a_declaration call",
      "",
    ].join("\n"),
  );
});

Deno.test("a dotted namespace is one level of the outline, in C#, TypeScript and C++", async () => {
  const csharp = [
    "namespace Shop.Core.Items",
    "{",
    "    public class Item { public void Touch() {} }",
    "    namespace Deep.Er { public class Inner {} }",
    "}",
  ];
  assert.equal(
    await outline("Item.cs", csharp),
    [
      "namespace Shop.Core.Items  // namespace",
      "  public class Item  // class",
      "    public void Touch()  // method",
      "  namespace Deep.Er  // namespace",
      "    public class Inner  // class",
      "",
      "1 Shop.Core.Items namespace",
      "3 Shop.Core.Items.Item class",
      "3 Shop.Core.Items.Item.Touch method",
      "4 Shop.Core.Items.Deep.Er namespace",
      "4 Shop.Core.Items.Deep.Er.Inner class",
      "",
    ].join("\n"),
  );
  const typescript = ["export namespace A.B.C {", "  export function f(): void {}", "}"];
  assert.equal(
    await outline("ns.ts", typescript),
    "namespace A.B.C  // namespace\n  function f(): void  // function\n\n" +
      "1 A.B.C namespace\n2 A.B.C.f function\n",
  );
  const cpp = ["namespace a::b {", "int f(int x);", "}"];
  assert.equal(
    await outline("ns.cpp", cpp),
    "namespace a::b  // namespace\n  int f(int x)  // function\n\n1 a.b namespace\n2 a.b.f function\n",
  );
});

Deno.test("a C typedef of a struct, union or enum is one symbol of that kind, its members under it", async () => {
  const text = [
    "/* A point. */",
    "typedef struct point /* tag */ {",
    "    int x; /* across */",
    "    int y;",
    "} /* name */ point_t;",
    "typedef struct { int a; } anon_t;",
    "typedef union value { int i; float f; } value_t;",
    "typedef enum color { RED, GREEN } color_t;",
    "typedef struct node node_t;",
    "struct node;",
    "struct node { node_t *next; };",
    "struct node *head;",
    "void push(struct node *n, enum color c);",
    "struct pair { int l, r; } origin;",
  ];
  assert.equal(
    await outline("shapes.h", text),
    [
      "typedef struct point { ... } point_t  // struct",
      "  int x  // field",
      "  int y  // field",
      "typedef struct { ... } anon_t  // struct",
      "  int a  // field",
      "typedef union value { ... } value_t  // union",
      "  int i  // field",
      "  float f  // field",
      "typedef enum color { RED, GREEN } color_t  // enum",
      "typedef struct node node_t  // type",
      "struct node  // struct",
      "struct node  // struct",
      "  node_t *next  // field",
      "struct node *head  // variable",
      "void push(struct node *n, enum color c)  // function",
      "struct pair { ... } origin  // variable",
      "  struct pair  // struct",
      "    int l, r  // field",
      "",
      "2 point_t struct",
      "3 point_t.x field",
      "4 point_t.y field",
      "6 anon_t struct",
      "6 anon_t.a field",
      "7 value_t union",
      "7 value_t.i field",
      "7 value_t.f field",
      "8 color_t enum",
      "9 node_t type",
      "10 node struct",
      "11 node struct",
      "11 node.next field",
      "12 head variable",
      "13 push function",
      "14 origin variable",
      "14 origin.pair struct",
      "14 origin.pair.l field",
      "",
    ].join("\n"),
  );
});

Deno.test("a Rust signature does not end with its where clause's trailing comma; a C macro's value keeps its comma", async () => {
  const rust = await outline("src/lib.rs", [
    "pub trait Expected {}",
    "impl<'de, T> Expected for T",
    "where",
    "    T: Visitor<'de>,",
    "{",
    "}",
    "pub fn parse<D>(d: D) -> u8",
    "where",
    "    D: Read,",
    "{",
    "    0",
    "}",
  ]);
  assert.match(rust, /^impl<'de, T> Expected for T where T: Visitor<'de> {2}\/\/ impl$/m);
  assert.match(rust, /^pub fn parse<D>\(d: D\) -> u8 where D: Read {2}\/\/ fn$/m);
  const c = await outline("a.h", ["#define OP(counter) mutex_counter_##counter,"]);
  assert.match(c, /^#define OP\(counter\) mutex_counter_##counter, {2}\/\/ macro$/m);
});
