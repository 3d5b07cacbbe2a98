import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

/** Modifiers tree-sitter-typescript 0.23.2 cannot read where TypeScript allows them. */
const BUILDER = [
  "export abstract class BaseSelectMenuBuilder<Data extends APISelectMenuComponent>",
  "\textends ComponentBuilder<Data>",
  "{",
  "\t/** @internal */",
  "\tprotected abstract override readonly data: Partial<",
  "\t\tPick<Data, 'custom_id' | 'placeholder'>",
  "\t>;",
  "",
  "\tprotected override abstract validate(): void;",
  "",
  "\tstatic accessor count = 0;",
  "",
  "\t/** Sets the placeholder. */",
  "\tpublic setPlaceholder(placeholder: string) {",
  "\t\tthis.data.placeholder = placeholder.trim().slice(0, MAX_PLACEHOLDER_LENGTH);",
  "\t\treturn this;",
  "\t}",
  "}",
  "",
  "export interface State<in out T> {",
  "\tget(): T;",
  "}",
  "",
  "export interface Shaped<",
  "\t/** @ts-ignore Cast variance */",
  "\tout Shape extends object = {},",
  "> extends Base<Shape> {}",
  "",
].join("\n");

for (const ext of ["ts", "tsx"]) {
  const path = `src/BaseSelectMenu.${ext}`;
  Deno.test(`renderCode() reads a .${ext} class with abstract override fields, static accessors and variance`, async () => {
    const view = (await renderCode(path, BUILDER))!;
    assert.equal(view.hasErrors, false);
    // Its bodies hollowed out or not, the parser reads the same words.
    assert.equal(view.text, (await renderCode(path, BUILDER, { hollow: false }))!.text);
    assert.equal(
      view.text,
      BUILDER.replace(
        /\{\n\t\tthis\.data[^}]*\}/,
        "{ ... }",
      ),
    );
    assert.equal(
      outlineText(view.symbols, "//"),
      [
        "abstract class BaseSelectMenuBuilder<Data extends APISelectMenuComponent> extends ComponentBuilder<Data>  // class",
        "  protected abstract override readonly data: Partial<Pick<Data, 'custom_id' | 'placeholder'> >  // field",
        "  protected override abstract validate(): void  // method",
        "  static accessor count = 0  // field",
        "  public setPlaceholder(placeholder: string)  // method",
        "interface State<in out T>  // interface",
        "  get(): T  // method",
        "interface Shaped<out Shape extends object = {}> extends Base<Shape>  // interface",
        "",
      ].join("\n"),
    );
  });
}

Deno.test("renderCode() reads TypeScript 5's `export type * from` as a re-export", async () => {
  const text = [
    "export type * from './types.js';",
    "export type * as api from './api.js';",
    "export * from './client.js';",
    "export const version = '1.0.0';",
    "",
  ].join("\n");
  const view = (await renderCode("src/index.ts", text))!;
  assert.equal(view.hasErrors, false);
  assert.equal(view.text, text);
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "export type * from './types.js'  // re-export",
      "export type * as api from './api.js'  // re-export",
      "export * from './client.js'  // re-export",
      "version = '1.0.0'  // const",
      "",
    ].join("\n"),
  );
});

/** Members NAMED by modifier words (discord.js's `Deserializer.ts`: `abstract?: boolean;`). */
const NAMED = [
  "interface DocgenMethodJson {",
  "\tabstract: boolean;",
  "\tabstract2?: string;",
  "\tstatic?: boolean;",
  "\treadonly?: boolean;",
  "\tdeclare: string;",
  "\toverride",
  "\tabstract?: boolean",
  "\taccessor(): void;",
  "\tin: number;",
  "\tout: number;",
  "}",
  "",
  "type Flags = { abstract: boolean; static: boolean };",
  "",
  "class Options {",
  "\tabstract = false;",
  "\taccessor!: string;",
  "\tstatic accessor: number;",
  "\toverride abstract: number;",
  "\tpublic build(abstract: boolean, out: number) {",
  "\t\treturn abstract ? out : 0;",
  "\t}",
  "}",
  "",
].join("\n");

Deno.test("renderCode() keeps members and parameters named abstract, static, accessor, in, out", async () => {
  const view = (await renderCode("src/Deserializer.ts", NAMED))!;
  assert.equal(view.hasErrors, false);
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "interface DocgenMethodJson  // interface",
      "  abstract: boolean  // property",
      "  abstract2?: string  // property",
      "  static?: boolean  // property",
      "  readonly?: boolean  // property",
      "  declare: string  // property",
      "  override  // property",
      "  abstract?: boolean  // property",
      "  accessor(): void  // method",
      "  in: number  // property",
      "  out: number  // property",
      "type Flags = { abstract: boolean; static: boolean }  // type",
      "class Options  // class",
      "  abstract = false  // field",
      "  accessor!: string  // field",
      "  static accessor: number  // field",
      "  override abstract: number  // field",
      "  public build(abstract: boolean, out: number)  // method",
      "",
    ].join("\n"),
  );
});
