import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

/** The skeleton and the outline of a file. */
async function views(
  path: string,
  lines: string[],
): Promise<{ skeleton: string; outline: string }> {
  const view = (await renderCode(path, lines.join("\n") + "\n"))!;
  return { skeleton: view.text, outline: outlineText(view.symbols, "//") };
}

/** `n` lines of JSX children. */
function spans(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `    <span>${i}</span>`);
}

Deno.test("an outline lists what a module's export lists and `export default name` make public, and no more of its own", async () => {
  for (const path of ["ui.tsx", "ui.ts", "ui.js"]) {
    const typed = path !== "ui.js";
    const { outline } = await views(path, [
      `function Button(props${typed ? ": Props" : ""}) {`,
      "  return null",
      "}",
      "const buttonVariants = 1",
      "class Store {}",
      "function helper() {}",
      "const local = 2",
      "function App() {}",
      "export { Button, buttonVariants, Store as DataStore }",
      'export { local } from "./other"',
      "export default App",
    ]);
    assert.equal(
      outline,
      [
        `function Button(props${typed ? ": Props" : ""})  // function`,
        "buttonVariants = 1  // const",
        "class Store  // class",
        "function App()  // function",
        'export { local } from "./other"  // re-export',
        "",
      ].join("\n"),
      path,
    );
  }
});

Deno.test("a JavaScript or TypeScript skeleton keeps a module's directives", async () => {
  for (const directive of ['"use client"', "'use server';", '"use strict";']) {
    const { skeleton } = await views("page.tsx", [
      directive,
      "",
      'import * as React from "react"',
      "",
      "export function Page() {",
      "  return null",
      "}",
    ]);
    assert.equal(
      skeleton,
      [directive, "", 'import * as React from "react"', "", "export function Page() { ... }", ""]
        .join("\n"),
    );
  }
});

Deno.test("a skeleton keeps the signature of a function a call wraps, and of an arrow function with a long expression body", async () => {
  const { skeleton, outline } = await views("card.tsx", [
    "export const Card = React.forwardRef<",
    "  HTMLDivElement,",
    "  {",
    "    title?: string",
    "    compact?: boolean",
    "    footer?: React.ReactNode",
    "    onClose?: () => void",
    "    tone?: 'neutral' | 'warning'",
    "  } & React.HTMLAttributes<HTMLDivElement>",
    ">(({ title, compact = false, ...props }, ref) => {",
    "  const a = 1",
    "  return <div ref={ref} {...props}>{title}</div>",
    "})",
    "",
    "export const Item = ({ label, href }: ItemProps) => (",
    "  <li>",
    ...spans(14),
    "  </li>",
    ")",
    "",
    "export const Row = memo(forwardRef(({ cells }: RowProps, ref) => (",
    "  <tr ref={ref}>",
    ...spans(14),
    "  </tr>",
    ")))",
    "",
    "export const routes = [",
    ...Array.from({ length: 14 }, (_, i) => `  "/page/${i}",`),
    "]",
  ]);
  assert.equal(
    skeleton,
    [
      "export const Card = React.forwardRef<",
      "  HTMLDivElement,",
      "  {",
      "    title?: string",
      "    compact?: boolean",
      "    footer?: React.ReactNode",
      "    onClose?: () => void",
      "    tone?: 'neutral' | 'warning'",
      "  } & React.HTMLAttributes<HTMLDivElement>",
      ">(({ title, compact = false, ...props }, ref) => { ... })",
      "",
      "export const Item = ({ label, href }: ItemProps) => ...",
      "",
      "export const Row = memo(forwardRef(({ cells }: RowProps, ref) => ...))",
      "",
      "export const routes = ...",
      "",
    ].join("\n"),
  );
  assert.equal(
    outline,
    [
      "Card = React.forwardRef<HTMLDivElement, { title?: string compact?: boolean footer?: React.ReactNode onClose?: () => void tone?: 'neutral' | 'warning' } & React.HTMLAttributes<HTMLDivElement> >(({ title, compact = false, ...props }, ref) =>  // const",
      "Item = ({ label, href }: ItemProps) =>  // function",
      "Row = memo(forwardRef(({ cells }: RowProps, ref) =>  // const",
      "routes = ...  // const",
      "",
    ].join("\n"),
  );
});

Deno.test("an outline lists a module's re-exports, one name each", async () => {
  const { outline } = await views("index.ts", [
    'export * from "./core.js";',
    'export * as util from "./util.js";',
    "export {",
    "  toZod,",
    "  _lt as lt,",
    '} from "./util.js";',
    'export type { Shape, Props as ButtonProps } from "./types";',
    'export { default as Button } from "./Button";',
    'import * as z from "./external.js";',
    "export { z };",
  ]);
  assert.equal(
    outline,
    [
      'export * from "./core.js"  // re-export',
      'export * as util from "./util.js"  // re-export',
      'export { toZod } from "./util.js"  // re-export',
      'export { _lt as lt } from "./util.js"  // re-export',
      'export type { Shape } from "./types"  // re-export',
      'export type { Props as ButtonProps } from "./types"  // re-export',
      'export { default as Button } from "./Button"  // re-export',
      // A module imported whole and exported by name.
      'import * as z from "./external.js"  // re-export',
      "",
    ].join("\n"),
  );
});

Deno.test("a masked view shows what a listed name is declared by: a re-export, a Ruby attribute", async () => {
  const masked = async (path: string, lines: string[], mask: Record<string, "def">) =>
    (await renderCode(path, lines.join("\n") + "\n", { mask, rest: "hide" }))!.text;
  assert.equal(
    await masked("index.ts", [
      'export * from "./core.js";',
      'export { toZod, lt } from "./util.js";',
      "export function own() {}",
    ], { toZod: "def" }),
    'export { toZod, lt } from "./util.js";\n',
  );
  assert.equal(
    await masked("item.rb", [
      "class Item",
      "  attr_reader :sku",
      "  attr_writer :price",
      "  def total; end",
      "end",
    ], { "Item.price": "def" }),
    "class Item\n  attr_writer :price\nend\n",
  );
});

Deno.test("an outline lists a module's anonymous default export as `default`", async () => {
  const { outline } = await views("config.ts", [
    "export default function (a: number): string {",
    '  return "";',
    "}",
  ]);
  assert.equal(outline, "export default function (a: number): string  // function\n");
  const others = await Promise.all([
    views("view.ts", ["export default class extends Base {", "  mounted() {}", "}"]),
    views("vite.config.ts", ["export default defineConfig({", "  plugins: [],", "});"]),
    views("options.js", ["export default {", '  name: "x",', "};"]),
    views("arrow.js", ["export default (a) => a * 2;"]),
  ]);
  assert.deepEqual(others.map((o) => o.outline), [
    // Its members are its own, one level in.
    "export default class extends Base  // class\n  mounted()  // method\n",
    "export default defineConfig({...})  // default\n",
    "export default {...}  // default\n",
    "export default (a) =>  // function\n",
  ]);
});
