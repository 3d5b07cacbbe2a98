import assert from "node:assert/strict";
import { join } from "node:path";
import { hollowRanges } from "../../grammars/_hollow.ts";
import { hollowJs, jsBodies } from "../../grammars/_js_hollow.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import {
  assertHollowCase,
  assertMangledTexts,
  assertSameShape,
  assertWholeParseWhenBroken,
} from "./_hollow_helpers.ts";
import { prng, REPO } from "../_helpers.ts";

/** The hollowed bodies of a text: the text of each region. */
function hollowed(text: string, typescript = false): string[] {
  return (jsBodies(text, typescript) ?? []).map((r) => text.slice(r.start, r.end));
}

const BODY = "  const y = x * 2;\n" + '  total += compute(y, "a{b", `c}${y}`);\n'.repeat(3) +
  "  return y;\n";

const TRICKY = [
  "  const re = /[{/]+\\/\\{/g, div = a / b / c;",
  "  if (/}/.test(s)) return { s };",
  "  const t = `a ${b ? `{${c}}` : { d: `}` }.d} ${'`'} }`;",
  "  const o = { m() { return '}'; }, n: function () {}, p: () => ({}) };",
  "  for (const k in o) { label: { break label; } }",
  "  switch (k) { case 1: { break; } default: {} }",
  "  try { f(); } catch { g(); } finally { h(); }",
  "  // a comment with } and {",
  "  /* another { */ return y",
].join("\n") + "\n";

const JS_CASES: Record<string, string> = {
  "a function declaration": `function f(x) {\n${BODY}}\n`,
  "regular expressions, templates, strings and comments holding braces":
    `export function f(x) {\n${TRICKY}${BODY}}\nexport const after = 1;\n`,
  "arrow functions and function expressions": `export const a = (x) => {\n${BODY}};\n` +
    `export const b = async x => {\n${BODY}};\nexport const c = function* named(x) {\n${BODY}};\n` +
    `module.exports.d = function (x) {\n${BODY}};\n`,
  "class methods, getters, setters, static blocks and fields":
    `export class A extends B {\n  #p = 1;\n  static s = () => {\n${BODY}  };\n` +
    `  constructor(x) {\n    super();\n${BODY}  }\n  get v() {\n${BODY}  }\n` +
    `  set v(x) {\n${BODY}  }\n  static async *gen(x) {\n${BODY}  }\n  #priv(x) {\n${BODY}  }\n` +
    `  ["computed" + 1](x) {\n${BODY}  }\n  static {\n${BODY}  }\n}\n`,
  "object literal methods":
    `export const o = {\n  m(x) {\n${BODY}  },\n  get g() {\n${BODY}  },\n` +
    `  "quoted"(x) {\n${BODY}  },\n  async [k](x) {\n${BODY}  },\n  if(x) {\n${BODY}  },\n};\n`,
  "control blocks at the top level": `if (a) {\n${BODY}}\nfor (const x of y) {\n${BODY}}\n` +
    `while (a) {\n${BODY}}\ntry {\n${BODY}} catch {\n${BODY}}\nlabel: {\n${BODY}}\n` +
    `{\n${BODY}}\nswitch (a) {\n  case 1: {\n${BODY}  }\n}\n`,
  "regular expression after a control head and a block": `if (a) /x{/.test(s);\n{\n}\n` +
    `/}/g.exec(s);\nexport function f(x) {\n${BODY}}\n`,
  "automatic semicolon insertion": `export let a = f(x)\n{\n${BODY}}\nexport let b = 1\n` +
    `export function g(x) {\n${BODY}}\nlet c = a\n/re/g.test(c)\n`,
  "a destructuring default holding a function":
    `export const { a = () => {\n${BODY}} } = obj;\nexport const [b = function () {\n${BODY}}] = arr;\n`,
  "a body of comments alone": `export function f() {\n  // ${"nothing here ".repeat(8)}\n}\n` +
    `export function g() {\n  /* ${"nothing here ".repeat(8)} */\n}\n`,
  "a function inside a call, a decorator-free IIFE and nested functions":
    `var ts = {}; ((module) => {\n"use strict";\nfunction inner() {\n${BODY}}\n` +
    `var x = function () { return function () {\n${BODY}}; };\n})(typeof module === "object" ? module : {});\n`,
  "CRLF line breaks": `export function f(x) {\n${TRICKY}${BODY}}\n`.replaceAll("\n", "\r\n"),
  "a one-line body and a body starting on its brace's line":
    `export function f(x) { return x + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 14; }\n` +
    `export function g(x) { const y = x;\n${BODY}}\n`,
  "a syntax error outside bodies": `export function f(x) {\n${BODY}}\nexport const = 1;\n`,
};

const TS_CASES: Record<string, string> = {
  "return types with object types, unions and generics":
    `export function f(x: number): { a: number; b: { c: string } } {\n${BODY}}\n` +
    `export function g<T extends { k: 1 }>(x: T): Promise<{ a: T }> | { b: 1 } {\n${BODY}}\n` +
    `export function h(x: unknown): x is { a: 1 } {\n${BODY}}\n` +
    `export function i(x: unknown): asserts x {\n${BODY}}\n` +
    `export function j(): () => { a: 1 } {\n${BODY}}\n`,
  "arrow functions with types and generics":
    `export const a = <T,>(x: T): { a: T } => {\n${BODY}};\n` +
    `export const b = async (x: number): Promise<void> => {\n${BODY}};\n` +
    `export let c: (x: number) => { a: number; b: string; c: boolean; d: number[] } = f;\n`,
  "classes with modifiers, overloads, abstract members and parameter properties":
    `export abstract class A<T> extends B<{ a: 1 }> implements C, D<T> {\n` +
    `  private x: number = 1;\n  constructor(private readonly y: T, public z?: string) {\n${BODY}  }\n` +
    `  m(x: string): void;\n  m(x: number): void;\n  m(x: unknown): void {\n${BODY}  }\n` +
    `  abstract n(): { a: 1 }\n  protected get p(): number {\n${BODY}  }\n` +
    `  static s = async (x: number): Promise<number> => {\n${BODY}  };\n` +
    `  @dec() q(@inject() x: number) {\n${BODY}  }\n}\n`,
  "interfaces, types, enums, namespaces and declarations": `export interface I {\n` +
    `  m(x: number): { a: 1 };\n  n: (x: number) => { b: 2 };\n  o(): void\n}\n` +
    `export type T = { m(): void; n(x: number): { a: 1 } } & ((x: number) => { c: 3 });\n` +
    `export enum E { A = 1, B = A << 2 }\nexport namespace N {\n  export function f(x: number) {\n` +
    `${BODY}  }\n}\ndeclare function g(x: number): void;\ndeclare module "m" {\n  export function h(): void;\n}\n` +
    `export function k(): I\nnamespace M {\n  export const v = 1;\n}\n`,
  "type assertions and satisfies": `export const a = <any>{ m() {\n${BODY}} };\n` +
    `export const b = { f(x: number) {\n${BODY}} } satisfies Record<string, unknown>;\n`,
  "a switch with object-literal cases and labels": `export function f(x: number) {\n${BODY}}\n` +
    `switch (x) {\n  case a ? b : c: {\n    const o = { k: 1 };\n  }\n  default: {\n${BODY}  }\n}\n`,
};

/** JSX that JavaScript (`.js`, `.jsx`) and TSX share: each case holds bodies to hollow. */
const JSX_CASES: Record<string, string> = {
  "a component whose body returns elements": `export function App(props) {\n${BODY}` +
    `  return (\n    <div className="app">\n      <Header.Title level={1} />\n` +
    `      <p>Hello</p>\n    </div>\n  );\n}\nexport const after = 1;\n`,
  "fragments": `export function List({ items }) {\n${BODY}  return (\n    <>\n` +
    `      <span>one</span>\n      <>nested</>\n    </>\n  );\n}\n`,
  "attributes with strings holding quotes, slashes, comment starts and braces":
    `export function Link(props) {\n${BODY}` +
    `  return <a title="it's" href='//example.com/*x*/' data-x="{" data-y='"}"' aria-label="a/b"\n` +
    `    {...props} on:custom="1" data-z={"}"}>go</a>;\n}\n`,
  "text children with apostrophes, quotes and slashes": `export function Note() {\n${BODY}` +
    `  return <p>It's a "quote" // not a comment /* nor this */ and a/b/c path's end</p>;\n}\n` +
    `export function after(x) {\n${BODY}}\n`,
  "expression children holding arrows with bodies, nested elements and templates":
    `export function Items({ items }) {\n${BODY}  return (\n    <ul>\n` +
    `      {items.map((item) => {\n        const k = \`\${item.id}-}\`;\n` +
    `        return <li key={k} onClick={() => { select(item); }}>{item.name} {"}"}</li>;\n` +
    `      })}\n      {/* a comment child */}\n      {cond ? <b>yes</b> : <i>no</i>}\n` +
    `      {cond && <Empty />}\n    </ul>\n  );\n}\n`,
  "elements outside function bodies, with arrow bodies in their attributes":
    `render(<App onClick={() => {\n${BODY}}} title="t" />, root);\n` +
    `export const el = <div>{(() => {\n${BODY}})()}</div>;\nexport const a = 1 / 2 / 3;\n`,
  "arrow functions returning elements and a regular expression after one":
    `export const A = () => <div>a</div>;\nexport const B = (x) => (\n  <span>{x}</span>\n);\n` +
    `const re = <p /> && /x{/g;\nexport function f(x) {\n${BODY}}\n`,
};

/** TSX besides the shared JSX. */
const TSX_CASES: Record<string, string> = {
  "generic arrow functions written for TSX":
    `export const a = <T,>(x: T): { a: T } => {\n${BODY}};\n` +
    `export const b = <T extends object>(x: T) => {\n${BODY}};\n` +
    `export const c = <const T, U = string>(x: T, u: U) => {\n${BODY}};\n` +
    `export const d = <T = unknown,>(x: T) => {\n${BODY}};\n`,
  "a typed component with element type arguments and non-null assertions":
    `interface Props { items: string[]; onPick?: (x: string) => void }\n` +
    `export function Picker({ items, onPick }: Props): JSX.Element {\n${BODY}` +
    `  const first = items[0]! < "m" ? 1 : 2;\n` +
    `  return <List<string> items={items} render={(s: string): JSX.Element => <b>{s}</b>} />;\n}\n` +
    `export const Typed: React.FC<Props> = ({ items }) => {\n${BODY}  return <>{items.length}</>;\n};\n`,
  "a class component": `export class Counter extends React.Component<{ n: number }> {\n` +
    `  state = { n: 0 };\n  render() {\n${BODY}    return <button onClick={() => this.setState({ n: 1 })}>+</button>;\n  }\n}\n`,
};

/** Cases with no body to hollow. */
const WHOLE = new Set(["a body of comments alone", "control blocks at the top level"]);

for (const [name, text] of Object.entries(JS_CASES)) {
  Deno.test(`hollowJs() keeps the views of ${name} the same`, async () => {
    await assertHollowCase("a.js", text, hollowJs(text), {
      whole: WHOLE.has(name),
      hasErrors: name === "a syntax error outside bodies",
    });
  });
}

for (const [name, text] of Object.entries(TS_CASES)) {
  Deno.test(`hollowJs() keeps the TypeScript views of ${name} the same`, async () => {
    await assertHollowCase("a.ts", text, hollowJs(text, true));
  });
}

for (const [name, text] of Object.entries(JSX_CASES)) {
  for (const path of ["a.jsx", "a.js", "a.tsx"]) {
    Deno.test(`hollowJs() keeps the ${path} views of JSX: ${name}`, async () => {
      const typescript = path.endsWith(".tsx");
      await assertHollowCase(path, text, hollowJs(text, typescript, true));
    });
  }
}

for (const [name, text] of Object.entries(TSX_CASES)) {
  Deno.test(`hollowJs() keeps the TSX views of ${name}`, async () => {
    await assertHollowCase("a.tsx", text, hollowJs(text, true, true));
  });
}

Deno.test("jsBodies() hollows only the outermost bodies around and inside JSX", () => {
  const items = hollowed(
    JSX_CASES["expression children holding arrows with bodies, nested elements and templates"],
  );
  assert.equal(items.length, 1, "the arrows inside the component's JSX are not outermost");
  assert.ok(items[0].endsWith("</ul>\n  );"));
  const outside = hollowed(
    JSX_CASES["elements outside function bodies, with arrow bodies in their attributes"],
  );
  assert.deepEqual(outside, [BODY.trim(), BODY.trim()]);
  const note = hollowed(JSX_CASES["text children with apostrophes, quotes and slashes"]);
  assert.equal(note.length, 2, "the apostrophe in the text opens no string");
  const generics = hollowed(TSX_CASES["generic arrow functions written for TSX"], true);
  assert.deepEqual(generics, [BODY.trim(), BODY.trim(), BODY.trim(), BODY.trim()]);
});

Deno.test("jsBodies() leaves JSX it is not sure of to the parser", () => {
  const f = (inner: string) => `function f(x) {\n${BODY}  return ${inner};\n}\n`;
  assert.ok(jsBodies(f("<div>{x}</div>")), "JSX is read");
  assert.equal(jsBodies(f("<div>{x}</span>")), undefined, "a closing tag of another name");
  assert.equal(jsBodies(f("<div>a > b</div>")), undefined, "`>` in text");
  assert.equal(jsBodies(f("<div>a } b</div>")), undefined, "`}` in text");
  assert.equal(jsBodies(f("<div>open")), undefined, "an element left open");
  assert.equal(jsBodies(f('<div a="open>x</div>')), undefined, "an attribute string left open");
  assert.equal(jsBodies(f("<div a=b>x</div>")), undefined, "an attribute value without quotes");
  assert.equal(jsBodies(f("<T>(x: T) => x"), true, true), undefined, "`<T>(` in TSX");
  assert.equal(jsBodies(f("<T extends>x</T>"), true, true), undefined, "`<T extends>` in TSX");
  assert.ok(jsBodies(f("<T,>(x: T) => x"), true, true), "a generic arrow in TSX");
  // In TypeScript that is not TSX the same `<` is a type assertion.
  assert.ok(jsBodies(f("<T>(x)"), true));
});

Deno.test("skeletonViewMode() parses the whole text when the hollowed TSX does not parse", async () => {
  await assertWholeParseWhenBroken(
    "tsx",
    "a.tsx",
    JSX_CASES["a component whose body returns elements"],
    "0;(/*",
  );
});

Deno.test("hollowJs() keeps offsets, rows and columns outside bodies", () => {
  const text =
    `export function f(x) {\n${TRICKY}${BODY}}\nexport class A {\n  m() {\n${BODY}  }\n}\n`;
  const hollow = hollowJs(text)!;
  assertSameShape(text, hollow);
  const regions = jsBodies(text)!;
  assert.equal(regions.length, 2);
  let at = 0;
  for (const { start, end } of regions) {
    assert.equal(hollow.slice(at, start), text.slice(at, start));
    // The filler is `0;` and one comment of spaces and the same line breaks.
    assert.match(hollow.slice(start, end), /^0;\/\*[ \n]*\*\/$/);
    at = end;
  }
  assert.equal(hollow.slice(at), text.slice(at));
  // The braces stay: what is hollowed lies between them.
  assert.equal(text.slice(0, regions[0].start).trimEnd().at(-1), "{");
  assert.equal(text.slice(regions[0].end).trimStart()[0], "}");
});

Deno.test("jsBodies() hollows the outermost function bodies and nothing else", () => {
  const text = JS_CASES["control blocks at the top level"] +
    `export const o = {\n${BODY.replaceAll(";", ",").replace("const ", "")}};\n` +
    `export class A {\n  x = 1;\n${"  y = 2;\n".repeat(10)}}\n` +
    JS_CASES["a function inside a call, a decorator-free IIFE and nested functions"];
  const bodies = hollowed(text);
  assert.equal(bodies.length, 1, "only the IIFE's body");
  assert.ok(bodies[0].startsWith('"use strict";\nfunction inner() {'));
  assert.ok(bodies[0].endsWith("}; };"));
});

Deno.test("jsBodies() finds a body after a TypeScript return type holding braces", () => {
  const bodies = hollowed(TS_CASES["return types with object types, unions and generics"], true);
  assert.equal(bodies.length, 5);
  for (const body of bodies) assert.equal(body, BODY.trim());
});

Deno.test("jsBodies() leaves text it is not sure of to the parser", () => {
  const f = (inner: string) => `function f(x) {\n${BODY}${inner}\n}\n`;
  assert.equal(jsBodies(f("  s = 'open")), undefined, "unterminated string");
  assert.equal(jsBodies(f("  s = `open ${x}")), undefined, "unterminated template");
  assert.equal(jsBodies(f("  s = /open")), undefined, "unterminated regular expression");
  assert.equal(jsBodies(f("  /* open")), undefined, "unterminated comment");
  assert.equal(jsBodies(f("  y = (1,")), undefined, "unclosed bracket");
  assert.equal(jsBodies(f("  y = 1)")), undefined, "stray close bracket");
  assert.equal(jsBodies(f("  return <div>{x}</span>;")), undefined, "mismatched JSX");
  assert.equal(jsBodies(f("  \\u0061 = 1;")), undefined, "an escape in a name");
  assert.equal(jsBodies("export const a = 1;\nif (a) {\n" + BODY + "}\n"), undefined, "no body");
  // In TypeScript the same `<` is a type assertion.
  assert.ok(jsBodies(f("  return <T>x;"), true));
});

Deno.test("skeletonViewMode() parses the whole text when the hollowed JavaScript does not parse", async () => {
  await assertWholeParseWhenBroken(
    "javascript",
    "a.js",
    JS_CASES["a function declaration"],
    "0;(/*",
  );
});

Deno.test("skeletonViewMode() reports a syntax error outside bodies of a hollowed JavaScript file", async () => {
  const view = (await renderCode("a.js", JS_CASES["a syntax error outside bodies"]))!;
  assert.equal(view.hasErrors, true);
});

/**
 * JavaScript and TypeScript files under 100 kB of packages installed for this repository: of each
 * package, at most `PER_PACKAGE` files spread evenly over its sorted list: every package and kind
 * of source, the same sample on any machine (all 3,600 files took 6 s to render twice).
 */
function installedSources(): string[] {
  const byPackage = new Map<string, string[]>();
  for (const path of allInstalledSources().filter((f) => Deno.statSync(f).size < 100_000)) {
    const pkg = path.slice(path.indexOf("/node_modules/.deno/")).split("/")[3];
    if (!byPackage.has(pkg)) byPackage.set(pkg, []);
    byPackage.get(pkg)!.push(path);
  }
  return [...byPackage.values()].flatMap((paths) =>
    paths.length <= PER_PACKAGE
      ? paths
      : Array.from({ length: PER_PACKAGE }, (_, i) =>
        paths[Math.floor(i * paths.length / PER_PACKAGE)])
  );
}

/** Files sampled from each installed package (see `installedSources`). */
const PER_PACKAGE = 6;

/** Every JavaScript and TypeScript file of packages installed for this repository, sorted. */
function allInstalledSources(): string[] {
  const root = join(REPO, "node_modules", ".deno");
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      const path = join(dir, e.name);
      if (e.isDirectory && depth < 8) walk(path, depth + 1);
      else if (e.isFile && /\.(m|c)?(js|ts)$/.test(e.name) && !/\.wasm\.|\.d\.ts$/.test(e.name)) {
        out.push(path);
      }
    }
  };
  walk(root, 0);
  return out;
}

Deno.test("skeletonViewMode() gives the same views with and without hollowing on installed packages' sources", async () => {
  const files = installedSources();
  if (files.length < 20) {
    console.log("skipped: no installed packages under node_modules/.deno (run `deno install`)");
    return;
  }
  let count = 0;
  for (const path of files) {
    const text = await Deno.readTextFile(path);
    const hollow = hollowJs(text, /\.(m|c)?ts$/.test(path));
    if (hollow === undefined) continue;
    count++;
    assertSameShape(text, hollow);
    const plain = await renderCode(path, text, { hollow: false });
    assert.deepEqual(await renderCode(path, text), plain, path);
  }
  assert.ok(count > 20, `only ${count} files hollowed`);
});

for (
  const [language, path, cases] of [
    ["JavaScript", "a.js", JS_CASES],
    ["TypeScript", "a.ts", TS_CASES],
    ["TSX", "a.tsx", { ...JSX_CASES, ...TSX_CASES }],
    ["JSX", "a.jsx", JSX_CASES],
  ] as const
) {
  Deno.test(`jsBodies() never throws, keeps the shape of mangled ${language} and its views where it parses`, async () => {
    const random = prng(11);
    const typescript = /\.tsx?$/.test(path);
    const jsx = !path.endsWith(".ts");
    const base = Object.entries(cases)
      .filter(([name]) => name !== "a syntax error outside bodies")
      .map(([, text]) => text)
      .join("\n");
    const pieces = [
      "'",
      '"',
      "`",
      "${",
      "/*",
      "*/",
      "//",
      "=>",
      "function ",
      "class ",
      "if ",
      "return ",
      ..."/()[]{}:;\n <>x",
      ...(jsx ? ["</", "/>", "<>", "</>", "<a>", "</a>", "={", "'s "] : []),
    ];
    await assertMangledTexts({
      path,
      base,
      pieces,
      runs: 300,
      maxEdits: 3,
      random,
      hollow: (text) => hollowJs(text, typescript, jsx),
    });
  });
}

Deno.test("hollowRanges() leaves out the middle of each region and gives the text's rows and columns", () => {
  const text = JS_CASES["class methods, getters, setters, static blocks and fields"] + "\n";
  const regions = jsBodies(text)!;
  assert.ok(regions.length > 5);
  const ranges = hollowRanges(text, regions);
  assert.equal(ranges.length, regions.length + 1);
  const pointAt = (index: number) => {
    const before = text.slice(0, index);
    return { row: before.split("\n").length - 1, column: index - (before.lastIndexOf("\n") + 1) };
  };
  for (let i = 0; i < ranges.length; i++) {
    const { startIndex, endIndex, startPosition, endPosition } = ranges[i];
    assert.equal(startIndex, i ? regions[i - 1].end - regions[i - 1].tail.length : 0);
    assert.equal(
      endIndex,
      i < regions.length ? regions[i].start + regions[i].head.length : text.length,
    );
    assert.deepEqual(startPosition, pointAt(startIndex));
    assert.deepEqual(endPosition, pointAt(endIndex));
  }
});
