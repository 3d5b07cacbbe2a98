/**
 * The language table: file extensions -> official tree-sitter grammar (npm
 * package and `.wasm`) and the node types the code views work with. Node
 * types are matched by name, the way tree-sitter tag queries match them, so
 * a grammar upgrade that renames a node shows up in the golden tests.
 *
 * @module
 */

import type { HollowOptions, HollowRegion } from "./_hollow.ts";
import { componentParts, isComponentFile } from "./components.ts";
import { jsBodies } from "./_js_hollow.ts";
import { jsTestCall, TEST_LINE } from "./_js_tests.ts";
import { tsParseText } from "./_ts_modifiers.ts";
import { pythonRegions } from "./_python_hollow.ts";
import { blankDirectiveComments } from "./_c_directives.ts";
import { blankMacroWords, catchTest, qtProperty, readsAsQtProperty } from "./_cpp_macros.ts";
import { KOTLIN } from "./_kotlin.ts";
import { LUA } from "./_lua.ts";
import { ZIG } from "./_zig.ts";
import { macroEdits, type MacroItem, macroItems } from "./_rust_macros.ts";
import { ELIXIR } from "./_elixir.ts";
import { POWERSHELL } from "./_powershell.ts";
import { HASKELL } from "./_haskell.ts";
import { batsParseText, batsTest } from "./_bats.ts";
import { extensionOf, isCpp, isObjectiveC } from "../pipeline/extension.ts";

export { isObjectiveC };

/** What a definition node declares. */
export interface DefinitionSpec {
  /** Kind shown by the outline (`function`, `class`, ...). */
  kind: string;
  /** Field holding the name. @default {"name"} */
  nameField?: string;
  /**
   * Whether a node of this type is an item's definition (to find its doc comment and mask mode)
   * only where `LanguageSpec.defines` says it defines a symbol: a call is one only as a test's.
   * @default {false}
   */
  checked?: boolean;
}

/** How a language's code views read its syntax tree. */
/** An edit {@linkcode LanguageSpec.tokenEdits} asks for: `text` in place of `start` to `end`. */
export interface TokenEdit {
  start: number;
  end: number;
  text: string;
}

export interface LanguageSpec {
  /** Language id (`python`, `typescript`, ...). */
  id: string;
  /** Grammar id in `GRAMMAR_WASM` (deps.ts). */
  grammar: string;
  /** npm package of the grammar. */
  pkg: string;
  /** `.wasm` file inside the package. */
  wasm: string;
  /** Extensions with dot. */
  extensions: string[];
  /** What replaces an elided function body. */
  bodyMarker: string;
  /** What replaces an elided long value. */
  valueMarker: string;
  /** Node types whose named children are items (module, class bodies, namespaces). */
  containers: Set<string>;
  /** `type.field` pairs whose child is a function body to elide. */
  functionBodies: Set<string>;
  /** Node types that are function bodies only when their parent is listed in `functionBodies`. */
  bodyTypes: Set<string>;
  /**
   * `type.field` pairs whose child is a function body only when it is a `block` (Kotlin's
   * `lambda_literal`, Scala 3's `colon_argument`) and the node defines a symbol: an operator's operand (ScalaTest's `"pops" in
   * { ... }`, a Kotlin script's `tasks.withType<Test> { ... }`), where another expression (`key :=
   * Seq(...)`, `a && { ... }`, a `.kt` file's `val x = f<T> { ... }`) is a value.
   */
  blockBodies?: Set<string>;
  /** Whether a definition's value stays as it is written at any length (by its definition). */
  wholeValue?: (def: NodeLike) => boolean;
  /**
   * Items kept as they are (with nested bodies elided); `type` is the node's type, when known,
   * `container` the node whose item it is.
   */
  keep: (node: NodeLike, type?: string, container?: NodeLike) => boolean;
  /** Compound items kept only when something inside them is kept (`if`, `try`, `#ifdef`). */
  transparent: Set<string>;
  /**
   * Parts of a compound statement's header that the grammar gives no field name (Python's
   * `with_clause`): they stay whenever the statement does, as fields such as a condition do.
   */
  headers?: Set<string>;
  /** Containers that are types (interface and struct bodies): every comment in them stays. */
  typeBodies?: Set<string>;
  /**
   * Definitions whose scope is the rest of their container when they have no body of their own
   * (C#'s file-scoped `namespace X;`, PHP's `namespace X;`): the items after one, up to the next
   * such definition, are its members.
   */
  scopesRest?: Set<string>;
  /**
   * Labels that apply to the items after them (C++'s `public:`): kept when one of those items is,
   * or when none was left out.
   */
  labels?: Set<string>;
  /** Comments, decorators and attributes: kept when they lead a kept item. */
  attach: Set<string>;
  /**
   * What the item before opens and ends on later lines (Ruby's heredoc bodies, after the
   * statement that opens `<<~SQL`): kept or left out as that item is.
   */
  trailing?: Set<string>;
  /**
   * A `/**` comment is a doc comment (JSDoc, Javadoc, PHPDoc, KDoc, Scaladoc, Doxygen): it
   * documents the definition after it across blank lines too, as those tools read it, unless it
   * is the file's header (see `docAcross` in `plugins/view_modes/_code.ts`).
   */
  docBlocks?: boolean;
  /**
   * A `///` line comment (not `////`) is a doc comment too (Rustdoc's outer doc): it documents
   * the item after it across blank lines, the file's first item included.
   */
  docLines?: boolean;
  /** Definitions by node type. */
  definitions: Record<string, DefinitionSpec>;
  /** `type.field` pairs whose child is a value elided when longer than `maxValueLines`. */
  values: Set<string>;
  /**
   * Of `values`, the pairs whose child is a function's expression body (Kotlin's `fun f() = run {
   * ... }`): elided when it spans more than one line, whatever its length, and never walked.
   */
  expressionBodies?: Set<string>;
  /** Whether a definition is public API (for the outline). */
  isPublic: (def: NodeLike, name: string, scope: ScopeInfo) => boolean;
  /**
   * When set, the walk into a kept item only descends into these node types (in Python no
   * definition or body can sit inside an expression, so expressions need no walk).
   */
  descend?: Set<string>;
  /**
   * Node types the walk into a kept item never enters when they parsed without errors, as they
   * hold no body, value or member definition: types (TypeScript's annotations, arguments,
   * aliases), string literals and what an import names.
   */
  opaque?: Set<string>;
  /** Python-style docstrings (first string statement of a body). */
  docstrings?: boolean;
  /**
   * The regions to hollow out (function bodies, long values) for a parse whose bodies are all
   * elided, or undefined to parse the text itself (see `_hollow.ts`).
   */
  hollow?: (text: string, options?: HollowOptions) => HollowRegion[] | undefined;
  /**
   * The text the parser reads in place of the file's, of the same length and line breaks, or
   * undefined to read the file's own (C's comments inside directives: see `_c_directives.ts`).
   */
  parseText?: (text: string) => string | undefined;
  /**
   * Where a comment that its parse starts late begins in the file, or undefined where the parse
   * starts it (tree-sitter-haskell's `{- ... -}` opening a file: see `_haskell.ts`).
   */
  commentStart?: (text: string, node: NodeLike) => number | undefined;
  /**
   * The node holding a definition's name when no field names it (a C# field's declarator, a PHP
   * constant's name), or undefined to read the `nameField`.
   */
  nameNode?: (def: NodeLike, type: string) => NodeLike | null | undefined;
  /**
   * The name of a definition that no node holds as it is written (a test's title without its
   * quotes, `default` for an anonymous default class), or undefined to read its name node. `text`
   * is the file's (the parser may have read another: see `parseText`).
   */
  symbolName?: (def: NodeLike, type: string, text?: string) => string | undefined;
  /**
   * A definition's name, kind and signature when the language tells them at once, not read from
   * its name node and its text up to its body (a test call: its title, `test`, its callee and
   * title, `it("adds")`), or undefined to read them so. `text` is the file's (the parser may have
   * read another: see `parseText`).
   */
  describe?: (def: NodeLike, type: string, text?: string) => DeclaredName | undefined;
  /**
   * Kinds of symbols whose function arguments' bodies are containers, walked for the items they
   * hold rather than elided (a test suite's callback holds its tests).
   */
  expands?: Set<string>;
  /**
   * The comments at a body's edges are beside it in the tree, not in it (PowerShell's last
   * comment in a function follows its script block): elided with the body.
   */
  bodyComments?: boolean;
  /**
   * Whether a container's items left out are shown by a marker (`valueMarker`), one for each run
   * of them, rather than cut with no trace (the statements of a Go test function around its
   * subtests: its table, its set-up).
   */
  marksLeftOut?: (container: NodeLike) => boolean;
  /**
   * Whether a definition's function body is a container, walked for the items it holds rather
   * than elided (a C# extension method that maps an API's routes: `group.MapGet("/", ...)`).
   */
  walksBody?: (def: NodeLike) => boolean;
  /**
   * Whether a node of a definition's type defines a symbol where it stands (`parentType`: its
   * parent's type), when not every such node does: C's `struct node` as a parameter's type names
   * a type defined elsewhere, and in a `typedef` the typedef is the symbol; a JavaScript
   * assignment defines one only as a statement assigning to a path of names (see `jsDefines`).
   * @default {every node of a definition's type does}
   */
  defines?: (node: NodeLike, type: string, parentType: string | undefined) => boolean;
  /**
   * The symbols an item declares that no definition node holds (Ruby's `attr_reader :a, :b`
   * declares the methods `a` and `b`): a name, a signature and a kind each, or undefined.
   */
  declares?: (node: NodeLike, type: string) => DeclaredName[] | undefined;
  /**
   * What a skeleton leaves out of an item whose text the grammar gives as tokens, as it leaves out
   * the same code written outside one (a Rust macro call's function bodies, a `macro_rules!`
   * rule's expansion): edits by index in the file's text, or undefined to walk the item's
   * children as any other's. `maxLines`: the view's `maxValueLines`.
   */
  tokenEdits?: (node: NodeLike, type: string, maxLines: number) => TokenEdit[] | undefined;
  /**
   * What a skeleton leaves out of a definition's lead while the rest of it is walked as any
   * other's: a test's table of cases written as a run of one attribute (xUnit's `[InlineData(1)]`
   * a line), `...` past `maxLines` lines, as pytest's `parametrize` tables are.
   */
  leadEdits?: (node: NodeLike, type: string, maxLines: number) => TokenEdit[] | undefined;
  /**
   * The names an import binds (`import * as z from "./z"`), asked of a module whose export lists
   * name local names: those they name are symbols (`export { z }` re-exports the module `z`).
   */
  imports?: (node: NodeLike, type: string) => DeclaredName[] | undefined;
  /** What starts a line comment, for the outline's kind notes. @default {"//"} */
  lineComment?: string;
  /**
   * The field of a child the grammar names none, by the parent's and the child's type and the
   * parent (Kotlin's grammar gives a function's body no field name; Elixir's `def` is a call whose
   * `do` block is its body), or undefined for none.
   */
  fieldOf?: (parentType: string, childType: string, parent: NodeLike) => string | undefined;
  /**
   * Fields that name an item of its container, not a header (Lua's `local_declaration`: a
   * `local` declaration in a chunk); a child in any other field but `member` is a header.
   */
  itemFields?: Set<string>;
  /** A definition's kind when its node type does not tell (Kotlin's `interface`, `enum class`). */
  kindOf?: (def: NodeLike, kind: string) => string;
  /** File names (no extension) of this language, lower case (`rakefile`). */
  names?: string[];
  /** Interpreters whose `#!` line makes a file with no extension this language (`bash`). */
  interpreters?: string[];
}

/** A symbol an item declares without a definition node of its own (see `declares`). */
export interface DeclaredName {
  name: string;
  /** The line the outline shows for it (`attr_reader :a`). */
  signature: string;
  kind: string;
}

/** The part of a syntax node the language table looks at. */
export interface NodeLike {
  type: string;
  text: string;
  namedChildren: NodeLike[];
  firstNamedChild: NodeLike | null;
  parent: NodeLike | null;
  previousNamedSibling?: NodeLike | null;
  startIndex?: number;
  endIndex?: number;
  /** The tree it is of (web-tree-sitter's nodes have it; each read of a node makes a new object). */
  tree?: object;
  /** Whether the parser found an error in it. */
  hasError?: boolean;
  startPosition?: { row: number };
  endPosition?: { row: number };
  childForFieldName(name: string): NodeLike | null;
}

/** Where a definition sits, for visibility rules. */
export interface ScopeInfo {
  /** Kind of the enclosing definition (`class`, `impl`, ...), or `module`. */
  parentKind: string;
  /** The enclosing definition node, if any. */
  parent?: NodeLike;
  /** Whether the file uses ES module exports (JS/TS). */
  esm: boolean;
  /** Names the module's export lists make public (`export { a }`, `export default a`: JS/TS). */
  exported?: ReadonlySet<string>;
}

const PY_KEEP = new Set([
  "function_definition",
  "class_definition",
  "decorated_definition",
  "import_statement",
  "import_from_statement",
  "future_import_statement",
  "type_alias_statement",
]);

function pyKeep(node: NodeLike, type: string = node.type): boolean {
  if (PY_KEEP.has(type)) return true;
  if (type !== "expression_statement") return false;
  const first = node.firstNamedChild?.type;
  return first === "assignment" || first === "augmented_assignment";
}

function pyPublic(_def: NodeLike, name: string): boolean {
  return !name.startsWith("_") || (name.startsWith("__") && name.endsWith("__"));
}

const PYTHON: Omit<LanguageSpec, "id" | "extensions"> = {
  grammar: "python",
  hollow: pythonRegions,
  pkg: "tree-sitter-python@0.25.0",
  wasm: "tree-sitter-python.wasm",
  bodyMarker: "...",
  valueMarker: "...",
  containers: new Set(["module", "block"]),
  functionBodies: new Set(["function_definition.body"]),
  bodyTypes: new Set(["block"]),
  keep: pyKeep,
  transparent: new Set([
    "if_statement",
    "try_statement",
    "with_statement",
    "elif_clause",
    "else_clause",
    "except_clause",
    "except_group_clause",
    "finally_clause",
    "ERROR",
  ]),
  headers: new Set(["with_clause"]),
  attach: new Set(["comment"]),
  definitions: {
    function_definition: { kind: "function" },
    class_definition: { kind: "class" },
    assignment: { kind: "variable", nameField: "left" },
    type_alias_statement: { kind: "type", nameField: "left" },
  },
  values: new Set(["assignment.right"]),
  descend: new Set([
    "decorated_definition",
    // Its long arguments are elided (pytest's `parametrize` over a table of cases).
    "decorator",
    "function_definition",
    "class_definition",
    "assignment",
    "augmented_assignment",
    "type_alias_statement",
  ]),
  isPublic: pyPublic,
  docstrings: true,
};

const JS_KEEP_STATEMENTS = new Set(["import_statement", "export_statement"]);

function jsKeep(node: NodeLike, t: string = node.type): boolean {
  if (JS_KEEP_STATEMENTS.has(t)) return true;
  if (t === "labeled_statement") return reactiveName(node) !== undefined;
  if (t === "expression_statement") {
    // `module.exports = ...`, `Foo.prototype.bar = function () {...}`, a nested
    // `namespace a {}`, which the TypeScript grammar parses as an expression statement, and a
    // directive (`"use client"`, `"use strict"`): a string alone changes what the module is.
    const inner = node.firstNamedChild;
    const type = inner?.type;
    return type === "assignment_expression" || type === "internal_module" ||
      type === "string" || (inner !== null && jsRuns(inner));
  }
  return !t.endsWith("_statement") && t !== "ERROR" && t !== "hash_bang_line";
}

/**
 * Whether an expression statement's expression runs code that the reader of a skeleton needs: a
 * call (`app.listen(3000)`, `describe("a", () => {...})`, `Object.defineProperty(exports, ...)`),
 * `new App()`, or either awaited (`await main()`). A function called where it is written (`(function
 * () {...})()`, a whole file's wrapper) is not: its body would be one marker; nor is a call of
 * `console`'s, a logger's (`log`, `logger`), `process.stdout.write` or an assertion.
 */
function jsRuns(expression: NodeLike): boolean {
  const type = expression.type;
  if (type === "await_expression") {
    const awaited = expression.firstNamedChild;
    return awaited !== null && awaited.type !== "await_expression" && jsRuns(awaited);
  }
  if (type === "new_expression") return true;
  if (type !== "call_expression") return false;
  let callee = expression.childForFieldName("function");
  while (callee?.type === "parenthesized_expression") callee = callee.firstNamedChild;
  if (FUNCTION_VALUE.test(callee?.type ?? "")) return false;
  if (callee && PRINTS.test(callee.text)) return false;
  // What a module prints or logs (`console.log("listening")`, `log.debug("server", args)`) is
  // output, not what it sets up; what it
  // asserts (`expect(sum(1, 2)).toBe(3)`, tsd's `expectType<string>(f())`, `assert.ok(x)`) is a
  // test's body at the top level, elided as a test's is.
  for (let i = 0; i < 64; i++) {
    if (callee?.type === "member_expression") callee = callee.childForFieldName("object");
    else if (callee?.type === "call_expression") callee = callee.childForFieldName("function");
    else break;
  }
  return callee?.type !== "identifier" || !UNSHOWN_CALLS.test(callee.text);
}

/** What a module calls to print, apart from `console` (see `jsRuns`). */
const PRINTS = /^process\.(?:stdout|stderr)\.write$/;

/** The roots of calls a module makes that a skeleton leaves out (see `jsRuns`). */
const UNSHOWN_CALLS = /^(?:console|log|logger|assert|expect)(?:[A-Z][\w$]*)?$/;

function jsPublic(def: NodeLike, name: string, scope: ScopeInfo): boolean {
  // A suite's or test's title is what a test file is about; what a suite's callback declares
  // besides (fixtures, helpers) is not.
  if (def.type === "call_expression") return true;
  if (scope.parentKind === "suite" || scope.parentKind === "test") return false;
  // An assignment's name is a path (`app._init`): its last part says whether it is private.
  const last = name.slice(name.lastIndexOf(".") + 1);
  if (last.startsWith("#") || last.startsWith("_")) return false;
  if (scope.parentKind === "module") {
    if (!scope.esm || scope.exported?.has(name)) return true;
    // CommonJS exports are exported in a file that also has ES exports.
    if (def.type === "assignment_expression") return /^(?:module\.)?exports(?:\.|$)/.test(name);
    for (let n: NodeLike | null = def; n; n = n.parent) {
      if (n.type === "export_statement") return true;
      if (n.type === "program") break;
    }
    return false;
  }
  // Most members have no `private` anywhere in their text: then no modifier says it, and the
  // member's children are not made into nodes to look for one.
  if (!def.text.includes("private")) return true;
  const access = def.namedChildren.find((c) => c.type === "accessibility_modifier")?.text;
  return access !== "private";
}

/** A path of plain names, `app.init`, `Foo.prototype.bar`, `module.exports.x` (no `a[0]`, no call). */
const DOTTED_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)+$/u;

/**
 * Whether a JS/TS definition node defines a symbol where it stands. A pair does when it is a
 * function keyed by a name (`b: function () {}`, `c: (x) => x`) in an object literal that a
 * declaration or an assignment holds. An assignment does as a statement that assigns to a path of
 * plain names: `app.init = function init() {}`, `exports.foo = foo`, `module.exports = {...}`,
 * `Foo.prototype.bar = ...` (CommonJS and pre-ES6 code defines its API so); its name is the path
 * as written. An assignment inside an expression, to a plain variable (`x = 1`), to a computed
 * member (`a[k] = v`) or to `this.x` defines none. Every other definition node does.
 */
function jsDefines(node: NodeLike, type: string, parentType: string | undefined): boolean {
  // A suite's or test's call as a statement (`describe("a", ...)`, `await t.step("b", ...)`).
  if (type === "call_expression") {
    return (parentType === "expression_statement" || parentType === "await_expression") &&
      jsTestCall(node) !== undefined;
  }
  // A class with no name is a symbol as a module's default export: `default`.
  if (type === "class") {
    return parentType === "export_statement" && !node.childForFieldName("name");
  }
  if (type === "pair") {
    if (node.childForFieldName("key")?.type !== "property_identifier") return false;
    if (!FUNCTION_VALUE.test(node.childForFieldName("value")?.type ?? "")) return false;
    // Only in the object a declaration or an assignment holds (`module.exports = { f: ... }`),
    // not in one passed to a call (`new Client({ filter: (v) => v.ok })`: options, not API).
    const holder = node.parent?.parent?.type;
    return holder === "variable_declarator" || holder === "assignment_expression";
  }
  if (type !== "assignment_expression") return true;
  if (parentType !== "expression_statement") return false;
  const left = node.childForFieldName("left");
  if (left?.type !== "member_expression") return false;
  // `this.x = ...` sets a field of an instance (in a function body a `def` mask shows).
  const name = left.text;
  return DOTTED_NAME.test(name) && !name.startsWith("this.");
}

/** The node types of a function written as a value. */
const FUNCTION_VALUE = /^(?:arrow_function|function_expression|function|generator_function)$/;

/** The kind of an assignment by its value: `function`, `class`, or `property` for another. */
function jsKindOf(def: NodeLike, kind: string): string {
  if (def.type !== "assignment_expression") return kind;
  const value = def.childForFieldName("right")?.type ?? "";
  if (FUNCTION_VALUE.test(value)) return "function";
  return value === "class" ? "class" : kind;
}

/**
 * What a module's re-exports make public (`export * from "./a"`, `export * as b from "./b"`,
 * `export { c, d as e } from "./c"`): a module of re-exports alone (an `index.ts` barrel) is its
 * package's surface. One name each, with its statement's words: `export { d as e } from "./c"`;
 * `export * from "./a"` is the name `*`.
 */
function jsDeclares(node: NodeLike, type: string): DeclaredName[] | undefined {
  if (type === "labeled_statement") return reactiveDeclares(node);
  if (type !== "export_statement") return undefined;
  const source = node.childForFieldName("source")?.text;
  if (!source) return jsDefaultExport(node);
  // `export type * from` reaches the parser as `export      * from` (see `_ts_modifiers.ts`).
  const typeOnly = /^export\s+type\b|^export\s{5}\s*\*/.test(node.text) ? "type " : "";
  const clause = node.namedChildren.find((c) => c.type === "export_clause");
  if (!clause) {
    const space = node.namedChildren.find((c) => c.type === "namespace_export");
    const alias = space?.namedChildren.at(-1)?.text;
    return [{
      name: alias ?? "*",
      signature: `export ${typeOnly}*${alias ? ` as ${alias}` : ""} from ${source}`,
      kind: "re-export",
    }];
  }
  const out: DeclaredName[] = [];
  for (const specifier of clause.namedChildren) {
    const name = specifier.childForFieldName("name")?.text;
    if (!name) continue;
    const alias = specifier.childForFieldName("alias")?.text;
    const words = specifier.text.replace(/\s+/g, " ");
    out.push({
      name: alias ?? name,
      signature: `export ${typeOnly}{ ${words} } from ${source}`,
      kind: "re-export",
    });
  }
  return out.length ? out : undefined;
}

/**
 * The name a Svelte reactive declaration defines (`$: doubled = count * 2`, at a script's top
 * level: Svelte declares `doubled` when nothing else does), or none for another labeled statement
 * (`$: console.log(count)`, `$: { ... }`, a loop's `outer:`).
 */
function reactiveName(node: NodeLike): string | undefined {
  if (node.parent?.type !== "program" || node.childForFieldName("label")?.text !== "$") {
    return undefined;
  }
  const body = node.childForFieldName("body");
  const assignment = body?.type === "expression_statement" ? body.firstNamedChild : undefined;
  if (assignment?.type !== "assignment_expression") return undefined;
  const left = assignment.childForFieldName("left");
  return left?.type === "identifier" ? left.text : undefined;
}

/** The name a reactive declaration declares, with its first line (see {@linkcode reactiveName}). */
function reactiveDeclares(node: NodeLike): DeclaredName[] | undefined {
  const name = reactiveName(node);
  if (!name) return undefined;
  let line = node.text.split("\n", 1)[0].trim().replace(/\s*;$/, "");
  if (line.length > 240) line = `${line.slice(0, 237)}...`;
  return [{ name, signature: line, kind: "let" }];
}

/**
 * The names an import binds (`LanguageSpec.imports`): `import * as z from "./z"`, `import { a as b }
 * from "./a"`, `import d from "./d"`; with `export { z }` a module re-exports another as one name.
 */
function jsImported(node: NodeLike, type: string): DeclaredName[] | undefined {
  if (type !== "import_statement") return undefined;
  const source = node.childForFieldName("source")?.text;
  const clause = node.namedChildren.find((c) => c.type === "import_clause");
  if (!source || !clause) return undefined;
  const typeOnly = /^import\s+type\b/.test(node.text) ? "type " : "";
  const out: DeclaredName[] = [];
  const add = (name: string | undefined, words: string) => {
    if (!name) return;
    const signature = `import ${typeOnly}${words.replace(/\s+/g, " ")} from ${source}`;
    out.push({ name, signature, kind: "re-export" });
  };
  for (const part of clause.namedChildren) {
    if (part.type === "identifier") add(part.text, part.text);
    if (part.type === "namespace_import") add(part.namedChildren.at(-1)?.text, part.text);
    if (part.type !== "named_imports") continue;
    for (const specifier of part.namedChildren) {
      if (specifier.type !== "import_specifier") continue;
      const local = specifier.childForFieldName("alias") ?? specifier.childForFieldName("name");
      add(local?.text, `{ ${specifier.text} }`);
    }
  }
  return out.length ? out : undefined;
}

/** The bracket that closes an open one. */
function closer(open: string): string {
  return open === "(" ? ")" : open === "[" ? "]" : "}";
}

/** A text's first line; when the text goes on, its open brackets closed by `...`. */
function firstLineClosed(text: string): string {
  const line = text.split("\n", 1)[0].trim();
  const open = line.length < text.trim().length ? /[({[]+$/.exec(line)?.[0] : undefined;
  return open
    ? `${line.slice(0, -open.length)}${open}...${[...open].reverse().map(closer).join("")}`
    : line;
}

/** What an anonymous default export is, by its value's node type. */
const JS_DEFAULT_KINDS: Record<string, string> = {
  function_expression: "function",
  function: "function",
  generator_function: "function",
  arrow_function: "function",
  class: "class",
};

/**
 * The name `default` a module's anonymous default export declares (`export default function
 * () {}`, `export default class extends Base {}`, `export default defineConfig({...})`): the
 * module's main value has no name of its own. Its words up to its body, or its first line.
 */
function jsDefaultExport(node: NodeLike): DeclaredName[] | undefined {
  const value = node.childForFieldName("value");
  // An anonymous class is a definition of its own (`jsDefines`): its members are its symbols.
  if (!value || value.type === "identifier" || value.type === "class") return undefined;
  if (node.startIndex === undefined) return undefined;
  const body = value.childForFieldName("body");
  const kind = JS_DEFAULT_KINDS[value.type];
  let words: string;
  if (kind && body?.startIndex !== undefined) {
    words = node.text.slice(0, body.startIndex - node.startIndex).replace(/\s+/g, " ").trim();
  } else words = firstLineClosed(node.text);
  words = words.replace(/\s*;$/, "");
  if (words.length > 240) words = `${words.slice(0, 237)}...`;
  return [{ name: "default", signature: words, kind: kind ?? "default" }];
}

const JS_DEFINITIONS: Record<string, DefinitionSpec> = {
  function_declaration: { kind: "function" },
  generator_function_declaration: { kind: "function" },
  function_signature: { kind: "function" },
  class_declaration: { kind: "class" },
  abstract_class_declaration: { kind: "class" },
  method_definition: { kind: "method" },
  method_signature: { kind: "method" },
  abstract_method_signature: { kind: "method" },
  public_field_definition: { kind: "field" },
  field_definition: { kind: "field", nameField: "property" },
  property_signature: { kind: "property" },
  interface_declaration: { kind: "interface" },
  type_alias_declaration: { kind: "type" },
  enum_declaration: { kind: "enum" },
  internal_module: { kind: "namespace" },
  module: { kind: "module" },
  variable_declarator: { kind: "variable" },
  assignment_expression: { kind: "property", nameField: "left" },
  // An object literal's `key: function () {}` or `key: () => {}`, as its `key() {}` is.
  pair: { kind: "method", nameField: "key" },
  // A suite's or test's call (`describe("a", () => {...})`; see `_js_tests.ts`), its kind
  // `suite` or `test`.
  call_expression: { kind: "test", checked: true },
  // `export default class {...}`.
  class: { kind: "class" },
};

/** A suite's or test's title, or `default` for an anonymous default class (see `jsDefines`). */
function jsSymbolName(def: NodeLike, type: string): string | undefined {
  if (type === "call_expression") return jsTestCall(def)?.name;
  return type === "class" && !def.childForFieldName("name") ? "default" : undefined;
}

/**
 * A suite's or test's title, kind and callee with its title; an anonymous default class's
 * `default`, `class` and `export default class` words.
 */
function jsDescribe(def: NodeLike, type: string): DeclaredName | undefined {
  if (type === "call_expression") return jsTestCall(def);
  const exported = def.parent;
  const body = def.childForFieldName("body");
  if (type !== "class" || exported?.type !== "export_statement") return undefined;
  if (body?.startIndex === undefined || exported.startIndex === undefined) return undefined;
  const words = exported.text.slice(0, body.startIndex - exported.startIndex);
  return { name: "default", kind: "class", signature: words.replace(/\s+/g, " ").trim() };
}

/**
 * The field of a child the JavaScript grammars name none: a statement's call (its arguments are
 * elided as a long value is, each on its own).
 */
function jsFieldOf(parentType: string, childType: string): string | undefined {
  if (parentType !== "expression_statement") return undefined;
  return childType === "call_expression" || childType === "await_expression" ||
      childType === "new_expression"
    ? "value"
    : undefined;
}

/**
 * The function bodies of a JavaScript or TypeScript text to hollow out. A body with a line that
 * starts a suite or a test (a suite's callback, whose statements are shown: see `_js_tests.ts`)
 * is not one: the bodies inside it are, found the same way.
 */
function jsHollow(
  text: string,
  typescript: boolean,
  jsx: boolean,
  options?: HollowOptions,
): HollowRegion[] | undefined {
  const regions = jsBodies(text, typescript, jsx, options);
  if (!regions || !TEST_LINE.test(text)) return regions;
  const out: HollowRegion[] = [];
  for (const region of regions) {
    const inside = text.slice(region.start, region.end);
    if (!TEST_LINE.test(inside)) {
      out.push(region);
      continue;
    }
    for (const inner of jsHollow(inside, typescript, jsx, options) ?? []) {
      out.push({ ...inner, start: inner.start + region.start, end: inner.end + region.start });
    }
  }
  return out.length ? out : undefined;
}

const JS_BASE = {
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: new Set([
    "program",
    "class_body",
    "interface_body",
    "statement_block",
  ]),
  functionBodies: new Set([
    "function_declaration.body",
    "generator_function_declaration.body",
    "function_expression.body",
    "function.body",
    "generator_function.body",
    "arrow_function.body",
    "method_definition.body",
    "class_static_block.body",
  ]),
  bodyTypes: new Set(["statement_block"]),
  typeBodies: new Set(["interface_body"]),
  keep: jsKeep,
  transparent: new Set<string>(),
  attach: new Set(["comment", "decorator"]),
  docBlocks: true,
  definitions: JS_DEFINITIONS,
  defines: jsDefines,
  kindOf: jsKindOf,
  symbolName: jsSymbolName,
  describe: jsDescribe,
  expands: new Set(["suite"]),
  fieldOf: jsFieldOf,
  values: new Set([
    "variable_declarator.value",
    "public_field_definition.value",
    "expression_statement.value",
  ]),
  isPublic: jsPublic,
  declares: jsDeclares,
  imports: jsImported,
  opaque: new Set([
    "type_annotation",
    "opting_type_annotation",
    "omitting_type_annotation",
    "adding_type_annotation",
    "asserts_annotation",
    "type_predicate_annotation",
    "type_arguments",
    "type_parameters",
    "extends_type_clause",
    "implements_clause",
    "object_type",
    "union_type",
    "intersection_type",
    "conditional_type",
    "generic_type",
    "function_type",
    "constructor_type",
    "tuple_type",
    "array_type",
    "lookup_type",
    "index_type_query",
    "type_query",
    "template_literal_type",
    "readonly_type",
    "parenthesized_type",
    // Not types, and as empty: a string literal's parts, an import's names.
    "string",
    "import_clause",
  ]),
};

function goPublic(_def: NodeLike, name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

/**
 * A Go subtest (`t.Run("adds", func(t *testing.T) { ... })`, `b.Run(...)`, a table's
 * `t.Run(tc.name, ...)`): kind `test` named by its title (a string's text, else the expression as
 * written), its signature the call without its function (`t.Run("adds")`); undefined for another
 * statement.
 */
function goSubtest(node: NodeLike): DeclaredName | undefined {
  const call = node.type === "expression_statement" ? node.firstNamedChild : undefined;
  if (call?.type !== "call_expression") return undefined;
  const callee = call.childForFieldName("function");
  if (callee?.type !== "selector_expression" || callee.childForFieldName("field")?.text !== "Run") {
    return undefined;
  }
  const args = call.childForFieldName("arguments")?.namedChildren ?? [];
  if (args.length !== 2) return undefined;
  // A named function (`t.Run("parses", testParse)`, `t.Run(tc.name, tc.check)`) on one line.
  const named = args[1].type !== "func_literal";
  if (named && (!GO_FUNCTION_VALUE.has(args[1].type) || call.text.includes("\n"))) {
    return undefined;
  }
  const title = args[0].text;
  if (title.includes("\n") || title.length > 200) return undefined;
  // testify's `suite.Run(t, new(S))` passes the test's handle, not a title.
  if (named && args[0].type === "identifier" && goHandles(node).includes(title)) return undefined;
  const literal = /^(?:"(?:[^"\\]|\\.)*"|`[^`]*`)$/.test(title);
  return {
    name: literal ? title.slice(1, -1) : title,
    kind: goSubtests(node) ? "suite" : "test",
    signature: named ? call.text : `${callee.text}(${title})`,
  };
}

/** What a subtest's function may be when not written in place: a name, a field, a call's value. */
const GO_FUNCTION_VALUE = new Set(["identifier", "selector_expression", "call_expression"]);

/** The names of the test handles (`t *testing.T`) of the function around a statement. */
function goHandles(node: NodeLike): string[] {
  let up = node.parent;
  for (
    let i = 0;
    up && i < 16 && !/^(?:function_declaration|method_declaration|func_literal)$/.test(up.type);
    i++
  ) {
    up = up.parent;
  }
  const parameters = up?.childForFieldName("parameters")?.text ?? "";
  return [...parameters.matchAll(/(\w+)\s+\*?testing\.(?:T|B|F|TB)\b/g)].map((m) => m[1]);
}

/**
 * {@linkcode goSubtests}'s answers by tree, then by node (its type and start): each read of a node
 * is a new object, and a function's statements each ask about it.
 */
const GO_SUBTESTS = new WeakMap<object, Map<string, boolean>>();

/** The answers {@linkcode goSubtests} gave for a node's tree, and the node's key among them. */
function goSubtestsKnown(def: NodeLike): [Map<string, boolean>, string] {
  const tree = def.tree ?? def;
  let known = GO_SUBTESTS.get(tree);
  if (!known) GO_SUBTESTS.set(tree, known = new Map());
  return [known, `${def.type} ${def.startIndex}`];
}

/**
 * Whether a function runs subtests (`func TestAdd(t *testing.T) { t.Run("adds", ...) }`, or in a
 * table's loop, `for _, tc := range cases { t.Run(tc.name, ...) }`): its body is then walked, each
 * subtest a symbol (see {@linkcode goSubtest}), and the loops that run them stay. Read once per
 * function.
 */
function goSubtests(def: NodeLike): boolean {
  const subtest = def.type === "expression_statement";
  if (def.type !== "function_declaration" && def.type !== "method_declaration" && !subtest) {
    return false;
  }
  const [answers, key] = goSubtestsKnown(def);
  const known = answers.get(key);
  if (known !== undefined) return known;
  // A subtest that runs subtests (`t.Run("math", func(t *testing.T) { t.Run("adds", ...) })`): a
  // suite of them, its function's body walked as a test function's is.
  const fn = subtest ? goSubtestFunction(def) : def;
  const body = fn?.childForFieldName("body");
  const runs = !!body && body.text.includes(".Run(") && (subtest || goTestFunction(def)) &&
    goRunsSubtests(body, 0);
  answers.set(key, runs);
  return runs;
}

/** The function a subtest's statement passes (`t.Run("adds", func(t *testing.T) {...})`). */
function goSubtestFunction(statement: NodeLike): NodeLike | undefined {
  const call = statement.firstNamedChild;
  if (call?.type !== "call_expression") return undefined;
  const fn = call.childForFieldName("arguments")?.namedChildren[1];
  return fn?.type === "func_literal" ? fn : undefined;
}

/**
 * Whether a function is a test's: named as `go test` runs it (`TestAdd`, a testify suite's
 * `func (s *S) TestAdd()`, `BenchmarkX`, `FuzzX`) or given a test's handle (`t *testing.T`,
 * `tb testing.TB`); a program's `group.Run("workers", func() {...})` runs no subtest.
 */
function goTestFunction(def: NodeLike): boolean {
  const name = def.childForFieldName("name")?.text ?? "";
  return /^(?:Test|Benchmark|Fuzz)/.test(name) ||
    /\btesting\.(?:T|B|F|TB)\b/.test(def.childForFieldName("parameters")?.text ?? "");
}

/** Whether a block's statements, or those of its loops, run a subtest. */
function goRunsSubtests(block: NodeLike, depth: number): boolean {
  const list = block.namedChildren.find((c) => c.type === "statement_list");
  return !!list && depth < 4 && list.namedChildren.some((c) =>
    goSubtest(c) !== undefined ||
    c.type === "for_statement" && goRunsSubtests(c.childForFieldName("body")!, depth + 1)
  );
}

/** Whether a statement list is that of a subtest-running function's body or of its loops. */
function goSubtestList(list: NodeLike): boolean {
  let up = list.parent?.parent;
  for (let i = 0; up?.type === "for_statement" && i < 4; i++) up = up.parent?.parent?.parent;
  // A subtest's function: its statement (past the call and its arguments).
  if (up?.type === "func_literal") up = up.parent?.parent?.parent;
  return !!up && goSubtests(up);
}

/**
 * Go's items: declarations, and in a function that runs subtests (see {@linkcode goSubtests}) its
 * subtests and the loops that run them.
 */
function goKeep(node: NodeLike, type: string = node.type, container?: NodeLike): boolean {
  if (container?.type === "statement_list" && goSubtestList(container)) {
    if (type === "for_statement") return goRunsSubtests(node.childForFieldName("body")!, 0);
    return goSubtest(node) !== undefined;
  }
  return type !== "ERROR" && !type.endsWith("_statement");
}

const GO: Omit<LanguageSpec, "id" | "extensions"> = {
  grammar: "go",
  pkg: "tree-sitter-go@0.25.0",
  wasm: "tree-sitter-go.wasm",
  bodyMarker: "{ ... }",
  valueMarker: "...",
  // A subtest-running function's body and its loops' blocks are walked (`goSubtests`).
  containers: new Set([
    "source_file",
    "field_declaration_list",
    "interface_type",
    "block",
    "statement_list",
  ]),
  functionBodies: new Set([
    "function_declaration.body",
    "method_declaration.body",
    "func_literal.body",
  ]),
  bodyTypes: new Set(["block"]),
  typeBodies: new Set(["field_declaration_list", "interface_type"]),
  keep: goKeep,
  transparent: new Set<string>(),
  attach: new Set(["comment"]),
  definitions: {
    function_declaration: { kind: "function" },
    method_declaration: { kind: "method" },
    type_spec: { kind: "type" },
    type_alias: { kind: "type" },
    method_elem: { kind: "method" },
    field_declaration: { kind: "field" },
    const_spec: { kind: "const" },
    var_spec: { kind: "var" },
    // A subtest (see `goSubtest`).
    expression_statement: { kind: "test", checked: true },
  },
  walksBody: goSubtests,
  marksLeftOut: (list) => list.type === "statement_list" && goSubtestList(list),
  // A subtest that runs subtests holds them (see `goSubtests`).
  expands: new Set(["suite"]),
  defines: (node, type) => type !== "expression_statement" || goSubtest(node) !== undefined,
  describe: (def, type) => type === "expression_statement" ? goSubtest(def) : undefined,
  symbolName: (def, type) => type === "expression_statement" ? goSubtest(def)?.name : undefined,
  values: new Set(["const_spec.value", "var_spec.value"]),
  // A subtest is public as its test function is.
  isPublic: (def, name) => def.type === "expression_statement" || goPublic(def, name),
};

function rustPublic(def: NodeLike, name: string, scope: ScopeInfo): boolean {
  if (def.type === "impl_item") return true;
  if (def.type === "macro_invocation") {
    rustMacroDeclares(def, def.type);
    return lastMacro?.public.has(name) ?? false;
  }
  if (scope.parentKind === "trait") return true;
  if (scope.parentKind === "impl" && scope.parent?.childForFieldName("trait")) return true;
  if (def.type === "enum_variant") return true;
  return def.namedChildren.some((c) => c.type === "visibility_modifier");
}

/**
 * Every Rust item but a parse error and a stray `;`. In a module, impl or trait body the grammar
 * gives a macro call's `;` as an empty statement after it (`name!(a, "x");`): it stays with the
 * call, or the kept call would read `name!(a, "x")`.
 */
/**
 * The last macro call asked about (its tree and start), what it declares and the names of those
 * that are `pub`: each call is asked several times, once for each name it declares too.
 */
let lastMacro:
  | { tree: object; start: number | undefined; items: MacroItem[]; public: Set<string> }
  | undefined;

/**
 * The items a macro call declares in its arguments (`define_rejection! { pub struct X(E); }`):
 * they have no node of their own, as the grammar gives the arguments as tokens.
 */
function rustMacroDeclares(
  node: NodeLike,
  type: string,
): (DeclaredName & { public: boolean })[] | undefined {
  if (type !== "macro_invocation") return undefined;
  const owner = node.tree ?? node;
  if (lastMacro?.tree !== owner || lastMacro.start !== node.startIndex) {
    const tree = node.namedChildren.find((c) => c.type === "token_tree");
    const items = tree ? macroItems(tree.text) : [];
    const names = items.filter((item) => item.public).map((item) => item.name);
    lastMacro = { tree: owner, start: node.startIndex, items, public: new Set(names) };
  }
  return lastMacro.items.length ? lastMacro.items : undefined;
}

/** Where a Rust macro call is an item: a file's or a module's, an `impl`'s or a trait's. */
const RUST_ITEM_LISTS = new Set(["source_file", "declaration_list"]);

/**
 * What a skeleton leaves out of a Rust macro call written as an item (see `macroEdits`) and of a
 * `macro_rules!` definition: each rule's expansion over lines, as `{ ... }` (its patterns are
 * the macro's signatures).
 */
function rustTokenEdits(node: NodeLike, type: string, maxLines: number): TokenEdit[] | undefined {
  if (type === "macro_definition") {
    return node.namedChildren.flatMap((rule) => {
      const right = rule.type === "macro_rule" ? rule.childForFieldName("right") : null;
      if (!right || right.startIndex === undefined || !right.text.includes("\n")) return [];
      const [open, close] = [right.text[0], right.text.at(-1)];
      const text = open === "{" ? "{ ... }" : `${open} ... ${close}`;
      return [{ start: right.startIndex, end: right.startIndex + right.text.length, text }];
    });
  }
  if (type !== "macro_invocation" || !RUST_ITEM_LISTS.has(node.parent?.type ?? "")) {
    return undefined;
  }
  const tree = node.namedChildren.find((c) => c.type === "token_tree");
  const at = tree?.startIndex;
  if (!tree || at === undefined) return undefined;
  return macroEdits(tree.text, maxLines).map((e) => ({
    ...e,
    start: e.start + at,
    end: e.end + at,
  }));
}

function rustKeep(node: NodeLike, type: string = node.type): boolean {
  if (type === "empty_statement") return node.previousNamedSibling?.type === "macro_invocation";
  return type !== "ERROR";
}

const RUST: Omit<LanguageSpec, "id" | "extensions"> = {
  grammar: "rust",
  pkg: "tree-sitter-rust@0.24.0",
  wasm: "tree-sitter-rust.wasm",
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: new Set([
    "source_file",
    "declaration_list",
    "field_declaration_list",
    "enum_variant_list",
  ]),
  functionBodies: new Set(["function_item.body", "closure_expression.body"]),
  bodyTypes: new Set(["block"]),
  typeBodies: new Set(["field_declaration_list", "enum_variant_list"]),
  keep: rustKeep,
  transparent: new Set<string>(),
  attach: new Set(["line_comment", "block_comment", "attribute_item"]),
  docBlocks: true,
  docLines: true,
  definitions: {
    function_item: { kind: "fn" },
    function_signature_item: { kind: "fn" },
    struct_item: { kind: "struct" },
    enum_item: { kind: "enum" },
    union_item: { kind: "union" },
    trait_item: { kind: "trait" },
    impl_item: { kind: "impl", nameField: "type" },
    mod_item: { kind: "mod" },
    type_item: { kind: "type" },
    const_item: { kind: "const" },
    static_item: { kind: "static" },
    macro_definition: { kind: "macro" },
    associated_type: { kind: "type" },
    field_declaration: { kind: "field" },
    enum_variant: { kind: "variant" },
  },
  values: new Set(["const_item.value", "static_item.value"]),
  declares: rustMacroDeclares,
  tokenEdits: rustTokenEdits,
  isPublic: rustPublic,
};

/**
 * Whether a Java declaration is visible outside its class: all but a `private` one. No access word
 * is package access, the package's surface: Spring's controllers and configurations and JUnit 5's
 * tests are written so (`@Controller class OwnerController`, `@GetMapping String list()`).
 */
function javaPublic(def: NodeLike, _name: string, scope: ScopeInfo): boolean {
  if (scope.parentKind === "interface") return true;
  const mods = def.namedChildren.find((c) => c.type === "modifiers")?.text ?? "";
  return !/\bprivate\b/.test(mods);
}

const JAVA: Omit<LanguageSpec, "id" | "extensions"> = {
  grammar: "java",
  leadEdits: javaLeadEdits,
  pkg: "tree-sitter-java@0.23.5",
  wasm: "tree-sitter-java.wasm",
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: new Set([
    "program",
    "class_body",
    "interface_body",
    "enum_body",
    "enum_body_declarations",
    "annotation_type_body",
  ]),
  functionBodies: new Set([
    "method_declaration.body",
    "constructor_declaration.body",
    "compact_constructor_declaration.body",
    "lambda_expression.body",
  ]),
  bodyTypes: new Set(["block", "constructor_body"]),
  keep: (_node, type = _node.type) =>
    type !== "ERROR" && type !== "static_initializer" && type !== "block" &&
    !type.endsWith("_statement"),
  transparent: new Set<string>(),
  attach: new Set(["line_comment", "block_comment"]),
  docBlocks: true,
  definitions: {
    class_declaration: { kind: "class" },
    interface_declaration: { kind: "interface" },
    enum_declaration: { kind: "enum" },
    record_declaration: { kind: "record" },
    annotation_type_declaration: { kind: "annotation" },
    method_declaration: { kind: "method" },
    constructor_declaration: { kind: "constructor" },
    compact_constructor_declaration: { kind: "constructor" },
    field_declaration: { kind: "field", nameField: "declarator" },
    constant_declaration: { kind: "constant", nameField: "declarator" },
    enum_constant: { kind: "constant" },
  },
  values: new Set(["variable_declarator.value"]),
  isPublic: javaPublic,
};

const C_DEFINITIONS: Record<string, DefinitionSpec> = {
  function_definition: { kind: "function", nameField: "declarator" },
  declaration: { kind: "declaration", nameField: "declarator" },
  type_definition: { kind: "type", nameField: "declarator" },
  struct_specifier: { kind: "struct" },
  union_specifier: { kind: "union" },
  enum_specifier: { kind: "enum" },
  class_specifier: { kind: "class" },
  namespace_definition: { kind: "namespace" },
  field_declaration: { kind: "field", nameField: "declarator" },
  preproc_def: { kind: "macro" },
  preproc_function_def: { kind: "macro" },
};

function cPublic(def: NodeLike, name: string, scope: ScopeInfo): boolean {
  if (name.startsWith("_")) return false;
  if (scope.parentKind === "module" || scope.parentKind === "namespace") {
    return !def.namedChildren.some((c) =>
      c.type === "storage_class_specifier" && c.text === "static"
    );
  }
  // C++ class members: the last access specifier before the member decides (a Qt property is
  // public wherever it stands).
  if (
    (scope.parentKind === "class" || scope.parentKind === "struct") && !readsAsQtProperty(def.text)
  ) {
    let member = def;
    while (member.parent && member.parent.type !== "field_declaration_list") member = member.parent;
    const accesses = member.parent && memberAccesses(member.parent);
    const key = `${member.type}\0${member.text}`;
    const found = accesses && (accesses.has(key) ? accesses.get(key) : accesses.get(""));
    return (found ?? (scope.parentKind === "struct" ? "public" : "private")) !== "private";
  }
  return true;
}

/** The access of each member of a class's body, by body (see {@linkcode memberAccesses}). */
const MEMBER_ACCESSES = new WeakMap<object, Map<number, Map<string, string | undefined>>>();

/**
 * The last access specifier (`public`) before each member of a C++ class's body, by the member's
 * type and text (the first member of that type and text, as its text finds it), and under `""`
 * the last of the body; undefined before any. Read once per body: read for each member, the
 * members before it made a class of thousands of methods cost their number squared.
 */
function memberAccesses(body: NodeLike): Map<string, string | undefined> {
  const tree = body.tree ?? body;
  let bodies = MEMBER_ACCESSES.get(tree);
  if (!bodies) MEMBER_ACCESSES.set(tree, bodies = new Map());
  const at = body.startIndex ?? 0;
  let accesses = bodies.get(at);
  if (accesses) return accesses;
  accesses = new Map();
  let access: string | undefined;
  for (const c of body.namedChildren) {
    const key = `${c.type}\0${c.text}`;
    if (!accesses.has(key)) accesses.set(key, access);
    if (c.type === "access_specifier") access = c.text.replace(/:$/, "").trim();
  }
  accesses.set("", access);
  bodies.set(at, accesses);
  return accesses;
}

/**
 * C and C++ items: declarations, definitions and directives, not statements. A statement where
 * only declarations may stand is what the parser made of a declaration it could not read (a
 * macro in a type: `API void (*f)(void *p) ATTR;` splits after `(*f)`): it stays when it goes
 * on the line where the item before it ends, so the declaration reads whole.
 */
function cKeep(node: NodeLike, type: string = node.type, container?: NodeLike): boolean {
  if (type !== "expression_statement") return cItem(type);
  // A file or a namespace holds no statement: a call there is a macro's, which declares or
  // registers something (`BENCHMARK(BM_Sort);`, `EXPORT_SYMBOL(f);`, `Q_DECLARE_METATYPE(A);`).
  if (container && C_FILE_LEVEL.has(container.type) && cMacroCall(node)) return true;
  // The parser may make several statements of one declaration's rest: look back over a few.
  let at = node;
  for (let step = 0; step < SPLIT_PARTS; step++) {
    const before = at.previousNamedSibling;
    if (!before || before.endPosition?.row !== at.startPosition?.row) return false;
    if (before.type !== "expression_statement") {
      // An error the parser made of the declaration's start: what it holds is kept (it is
      // transparent), so its end stays too.
      return before.type !== "comment" && (cItem(before.type) || before.type === "ERROR");
    }
    at = before;
  }
  return false;
}

/** Where a C or C++ statement can only be a macro's call: a file's, a namespace's items. */
const C_FILE_LEVEL = new Set([
  "translation_unit",
  "declaration_list",
  "preproc_if",
  "preproc_ifdef",
  "preproc_else",
  "preproc_elif",
]);

/**
 * Whether a statement is a call of a name (`REGISTER(A);`), a macro's at a file's level, or a
 * chain of calls on one (`BENCHMARK(BM_Sort)->Arg(8);`, `REGISTER_OP("Foo").Input("x");`).
 */
function cMacroCall(statement: NodeLike): boolean {
  let call: NodeLike | null = statement.firstNamedChild;
  // With its `;` as written and no error in it: else the parser made the statement of what it
  // could not read (`INFO("x")` before a declaration, googletest's `ACTION_TEMPLATE(R,
  // HAS_1_TEMPLATE_PARAMS(template <typename P> class, ...))` and the tests after it).
  if (call?.type !== "call_expression" || statement.hasError || !statement.text.endsWith(";")) {
    return false;
  }
  while (call) {
    const callee: NodeLike | null = call.childForFieldName("function");
    if (callee?.type === "identifier") return true;
    const on: NodeLike | null = callee?.type === "field_expression"
      ? callee.childForFieldName("argument")
      : null;
    call = on?.type === "call_expression" ? on : null;
  }
  return false;
}

/** Most statements the parser makes of one declaration's rest that are looked back over. */
const SPLIT_PARTS = 8;

/** Whether a node of this type is a C or C++ item kept on its own. */
function cItem(type: string): boolean {
  return !type.endsWith("_statement") && type !== "ERROR" && type !== "preproc_if" &&
    type !== "preproc_ifdef";
}

/** C and C++ type specifiers: each names a type, and defines it when it has a body. */
const C_TYPE_SPECIFIERS = new Set([
  "struct_specifier",
  "union_specifier",
  "enum_specifier",
  "class_specifier",
]);

/** The C and C++ node types whose named children are items. */
const C_CONTAINERS = new Set(["translation_unit", "declaration_list", "field_declaration_list"]);

/**
 * Whether a C or C++ definition node defines a symbol where it stands: a type specifier does
 * with its body, or alone as an item (`struct node;`, a forward declaration); as a parameter's
 * or a variable's type (`struct node *n`) it names a type defined elsewhere, and in a `typedef`
 * the typedef is the symbol (of the type's kind when it has a body).
 */
function cDefines(node: NodeLike, type: string, parentType: string | undefined): boolean {
  if (!C_TYPE_SPECIFIERS.has(type)) return true;
  if (parentType === "type_definition") return false;
  if (parentType === undefined || C_CONTAINERS.has(parentType)) return true;
  if (parentType === "template_declaration") return true;
  return node.childForFieldName("body") !== null;
}

const C_BASE = {
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: C_CONTAINERS,
  functionBodies: new Set(["function_definition.body", "lambda_expression.body"]),
  bodyTypes: new Set(["compound_statement"]),
  keep: cKeep,
  transparent: new Set(["preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "ERROR"]),
  attach: new Set(["comment", "attribute_declaration"]),
  docBlocks: true,
  labels: new Set(["access_specifier"]),
  definitions: C_DEFINITIONS,
  values: new Set(["init_declarator.value"]),
  isPublic: cPublic,
  defines: cDefines,
  parseText: blankDirectiveComments,
};

/** What tree-sitter-cpp reads: a directive's comments and the macro words out of place as spaces. */
function cppParseText(text: string): string | undefined {
  const directives = blankDirectiveComments(text);
  return blankMacroWords(directives ?? text) ?? directives;
}

/**
 * Ruby's attribute calls, ActiveSupport's module and class attributes among them: each name they
 * list is a method (a reader, a writer or both).
 */
const RUBY_ATTRIBUTES = new Set([
  "attr_reader",
  "attr_writer",
  "attr_accessor",
  "mattr_reader",
  "mattr_writer",
  "mattr_accessor",
  "cattr_reader",
  "cattr_writer",
  "cattr_accessor",
  "thread_mattr_accessor",
  "thread_cattr_accessor",
  "class_attribute",
]);

/**
 * Calls that define one method, named by their first argument, and the kind of its symbol:
 * Rails' associations (`has_many :posts` defines `posts`, `belongs_to :family` `family`), its
 * attachments and rich texts, `scope :visible, -> { ... }` (the class method `visible`), and
 * Ruby's `define_method(:total) do ... end`.
 */
const RUBY_DEFINING_CALLS: Record<string, string> = {
  has_many: "association",
  has_one: "association",
  belongs_to: "association",
  has_and_belongs_to_many: "association",
  has_one_attached: "association",
  has_many_attached: "association",
  has_rich_text: "association",
  delegated_type: "association",
  scope: "scope",
  define_method: "method",
};

/** Ruby calls in a class or module body that declare (mixins, accessors, requires, visibility). */
const RUBY_DECLARING_CALLS = new Set([
  ...RUBY_ATTRIBUTES,
  "require",
  "require_relative",
  "autoload",
  "include",
  "extend",
  "prepend",
  "alias_method",
  "private",
  "protected",
  "public",
  "module_function",
  "private_constant",
  "public_constant",
  "private_class_method",
  "public_class_method",
  "using",
  // ActiveSupport's (Rails'): methods delegated to another object; the attribute calls above.
  "delegate",
  ...Object.keys(RUBY_DEFINING_CALLS),
  // Rails' (ActiveRecord's) enum: an attribute with a method a value (see `rubyEnums`).
  "enum",
]);

/**
 * The attributes a Ruby `attr_reader`, `attr_writer` or `attr_accessor` call declares (or
 * ActiveSupport's `mattr_accessor`, `class_attribute`, ...), and the methods a `delegate` call
 * does, one for each name written as a symbol or a string (`attr_reader :a, "b"`), with the
 * call's word: `attr_reader :a`. Names it computes (`attr_reader *FIELDS`) are not known here.
 */
function rubyDeclares(node: NodeLike, type: string): DeclaredName[] | undefined {
  if (type !== "call" || node.childForFieldName("receiver")) return undefined;
  const method = node.childForFieldName("method")?.text ?? "";
  if (method === "enum") return rubyEnums(node);
  const defining = Object.hasOwn(RUBY_DEFINING_CALLS, method) ? RUBY_DEFINING_CALLS[method] : "";
  if (defining) {
    const first = node.childForFieldName("arguments")?.namedChildren[0];
    const name = rubyLiteralName(first);
    return name ? [{ name, signature: `${method} ${first!.text}`, kind: defining }] : undefined;
  }
  // ActiveSupport's `delegate :a, :b, to: X` defines the methods `a` and `b`.
  const kind = method === "delegate" ? "method" : "attribute";
  if (kind === "attribute" && !RUBY_ATTRIBUTES.has(method)) return undefined;
  const args = node.childForFieldName("arguments")?.namedChildren ?? [];
  // `delegate :a, to: :author, prefix: true` defines `author_a` (`prefix: :x`: `x_a`).
  const prefix = kind === "method" ? rubyDelegatePrefix(args) : "";
  if (prefix === undefined) return undefined;
  const out: DeclaredName[] = [];
  for (const arg of args) {
    const name = rubyLiteralName(arg);
    if (name) out.push({ name: prefix + name, signature: `${method} ${arg.text}`, kind });
  }
  return out.length ? out : undefined;
}

/**
 * The attributes a Rails `enum` call declares, kind `enum`: `enum :status, { active: 0 }` (Rails
 * 7) declares `status`, `enum status: { active: 0 }, kind: [:a, :b]` (before) `status` and
 * `kind`; each with its words on one line (`enum status: { active: 0 }`), cut to 120 characters.
 * Rails makes each value a scope and a predicate (`active`, `active?`): the words list them.
 */
function rubyEnums(node: NodeLike): DeclaredName[] | undefined {
  const args = node.childForFieldName("arguments")?.namedChildren ?? [];
  const words = (text: string) => {
    // A comment after an item (`a: "a", # why`) would hide the rest of the one line.
    const line = text.replace(/(?<![ \t])[ \t]+#(?!\{)[^\n]*/g, "").replace(/\s+/g, " ");
    return line.length > 120 ? `${line.slice(0, 117)}...` : line;
  };
  const first = rubyLiteralName(args[0]);
  if (first) {
    return [{
      name: first,
      signature: words(`enum ${args.map((a) => a.text).join(", ")}`),
      kind: "enum",
    }];
  }
  const out: DeclaredName[] = [];
  for (const arg of args) {
    const key = arg.type === "pair" ? arg.childForFieldName("key") : null;
    const value = arg.childForFieldName("value")?.type;
    // `_prefix: true`, `_default: "a"`: options, not attributes.
    if (key?.type !== "hash_key_symbol" || key.text.startsWith("_")) continue;
    if (value !== "hash" && value !== "array") continue;
    out.push({ name: key.text, signature: words(`enum ${arg.text}`), kind: "enum" });
  }
  return out.length ? out : undefined;
}

/** The name a symbol or a plain string literal writes (`:a`, `"a"`), else undefined. */
function rubyLiteralName(node: NodeLike | null | undefined): string | undefined {
  if (node?.type === "simple_symbol") return node.text.slice(1);
  if (node?.type === "string" && /^(["'])[A-Za-z_]\w*\1$/.test(node.text)) {
    return node.text.slice(1, -1);
  }
  return undefined;
}

/**
 * What a `delegate` call's `prefix:` puts before each method's name: "" for none, `author_` for
 * `prefix: true` with `to: :author`, `x_` for `prefix: :x`; undefined when the code computes it
 * (the names are then not known here).
 */
function rubyDelegatePrefix(args: NodeLike[]): string | undefined {
  const option = (key: string) => {
    for (const arg of args) {
      if (arg.type !== "pair") continue;
      const name = arg.childForFieldName("key")?.text.replace(/^:|:$/g, "");
      if (name === key) return arg.childForFieldName("value") ?? null;
    }
    return undefined;
  };
  const prefix = option("prefix");
  if (prefix === undefined || prefix?.type === "false" || prefix?.type === "nil") return "";
  const name = prefix?.type === "true" ? rubyLiteralName(option("to")) : rubyLiteralName(prefix);
  return name === undefined ? undefined : `${name}_`;
}

/** Ruby's visibility words, which apply to the methods after them when they stand alone. */
const RUBY_VISIBILITY = new Set(["private", "protected", "public", "module_function"]);

const RUBY_KEEP = new Set(["method", "singleton_method", "class", "module", "singleton_class"]);

/**
 * Ruby items: definitions, constants (`VERSION = "1.0"`), declaring calls (`include`,
 * `attr_reader`, `require`, `private def x`), a visibility word standing alone (`private`), and
 * the statements of a DSL where one stands (see {@linkcode rubyPlace}): a file's and a class's
 * calls (`has_many :posts`, `Rails.application.routes.draw do`), a block of declarations' calls,
 * settings (`config.x = 1`) and bare words (`use_doorkeeper`).
 */
function rubyKeep(node: NodeLike, type: string = node.type, container?: NodeLike): boolean {
  if (RUBY_KEEP.has(type)) return true;
  const place = rubyPlace(container);
  // A block of declarations is shown as it is (its own blocks decided again).
  if (place === "dsl") return true;
  const open = place !== undefined && place !== "code";
  if (type === "assignment" || type === "operator_assignment") {
    const left = node.childForFieldName("left")?.type;
    if (type === "assignment" && (left === "constant" || left === "scope_resolution")) return true;
    return RUBY_SETTINGS.has(left ?? "") && open;
  }
  if (type === "identifier") return RUBY_VISIBILITY.has(node.text) || place === "suite";
  if (type !== "call") return false;
  if (!node.childForFieldName("receiver") && rubyDeclaringCall(node)) return true;
  return open && !rubyPrints(node);
}

/** What a setting assigns to: an attribute (`config.x = 1`), an element (`ENV["X"] ||= "1"`). */
const RUBY_SETTINGS = new Set(["call", "element_reference"]);

/** Whether a call is one of {@linkcode RUBY_DECLARING_CALLS} (its receiver not asked). */
function rubyDeclaringCall(node: NodeLike): boolean {
  return RUBY_DECLARING_CALLS.has(node.childForFieldName("method")?.text ?? "");
}

/** What a Ruby script prints: output, not what it declares (`puts "done"`, `$stderr.puts`). */
function rubyPrints(call: NodeLike): boolean {
  const receiver = call.childForFieldName("receiver")?.text;
  const method = call.childForFieldName("method")?.text ?? "";
  if (receiver === undefined) return RUBY_PRINTS.has(method);
  return /^(?:\$std(?:out|err)|STD(?:OUT|ERR))$/.test(receiver) && RUBY_PRINTS.has(method);
}

/** Kernel's printing methods. */
const RUBY_PRINTS = new Set(["puts", "print", "p", "pp", "printf", "warn", "write"]);

/**
 * RSpec's and Minitest's hooks and lazy values (`before do`, `setup do`, `let(:user) do`): their
 * blocks are code, as a test's are (a JavaScript suite's `beforeEach` body is elided too).
 */
const RUBY_HOOKS = new Set([
  "before",
  "after",
  "around",
  "prepend_before",
  "append_before",
  "prepend_after",
  "append_after",
  "before_all",
  "after_all",
  "setup",
  "teardown",
  "let",
  "let!",
  "subject",
  "subject!",
]);

/**
 * Rake's and Capistrano's tasks (`task :restart do`): their blocks are what the task runs, code
 * however many calls it makes (`execute`, `sh`), as a method's body is.
 */
const RUBY_TASKS = new Set(["task", "multitask"]);

/**
 * RSpec's, Minitest's (spec style) and shoulda's (`should "adds" do`, a matcher's `should
 * validate_presence_of(:name)`) test calls: their blocks are a test's body.
 */
const RUBY_TESTS = new Set([
  "should",
  "should_not",
  "should_eventually",
  "it",
  "specify",
  "example",
  "scenario",
  "its",
  "test",
  "fit",
  "fspecify",
  "fexample",
  "xit",
  "xspecify",
  "xexample",
  "xscenario",
]);

/** RSpec's and Minitest's example groups: their blocks hold tests, hooks and helpers. */
const RUBY_SUITES = new Set([
  "describe",
  "context",
  "feature",
  "shared_examples",
  "shared_examples_for",
  "shared_context",
  "fdescribe",
  "fcontext",
  "xdescribe",
  "xcontext",
]);

/** Ruby's compound statements a container's item may stand in (`if Rails.env.production?`). */
const RUBY_COMPOUND = new Set(["if", "unless", "then", "else", "elsif"]);

/**
 * Where a Ruby item stands, by its container (`program`, a body): `program` (a file's top
 * level), `body` (a class's or module's), `suite` (an example group's block: `describe`), `dsl`
 * (a statement's block of declarations alone: `routes.draw do`, `create_table "a" do |t|`,
 * `configure do`), `code` (a statement's block of code: a test's, `Sidekiq::Web.use(...) do |u,
 * p|` with its local variables), or undefined elsewhere (a method's body, a block of a value).
 * Read once per container node.
 */
function rubyPlace(container: NodeLike | undefined): string | undefined {
  if (!container) return undefined;
  const known = RUBY_PLACES.get(container);
  if (known !== undefined) return known || undefined;
  let place: string | undefined;
  let holder: NodeLike | null = container;
  for (let i = 0; holder && RUBY_COMPOUND.has(holder.type) && i < 16; i++) holder = holder.parent;
  if (holder?.type === "program") place = "program";
  else if (holder?.type === "body_statement") {
    const owner = holder.parent;
    if (owner?.type === "class" || owner?.type === "module" || owner?.type === "singleton_class") {
      place = "body";
    } else if (owner?.type === "do_block") place = rubyBlockPlace(owner, holder);
  } else if (holder?.type === "block_body" && holder.parent) {
    // A statement's `{ ... }` block over lines is its `do ... end` block in braces (`it {` then
    // `expect(x).to eq(1)`); one on a line, or a value's (`-> { where(a: 1) }`), stays whole.
    const block = holder.parent;
    const oneLine = block.startPosition?.row === block.endPosition?.row;
    place = (!oneLine && rubyBlockPlace(block, holder)) || "dsl";
  }
  RUBY_PLACES.set(container, place ?? "");
  return place;
}

/** {@linkcode rubyPlace}'s answers by container node ("" for none). */
const RUBY_PLACES = new WeakMap<NodeLike, string>();

/** shoulda's test calls, words other DSLs use too (a state machine's `should :approve do`). */
const SHOULDA = new Set(["should", "should_not", "should_eventually"]);

/**
 * Whether a call is a test's (see {@linkcode RUBY_TESTS}): shoulda's only with no receiver and a
 * title or a matcher (`should "adds" do`, `should set_flash[:notice]`), no symbol.
 */
function rubyTest(call: NodeLike, method: string): boolean {
  if (!RUBY_TESTS.has(method)) return false;
  if (!SHOULDA.has(method)) return true;
  const first = call.childForFieldName("arguments")?.namedChildren[0];
  return !call.childForFieldName("receiver") && !/symbol/.test(first?.type ?? "");
}

/** The place a `do ... end` block's body is: see {@linkcode rubyPlace}. */
function rubyBlockPlace(block: NodeLike, body: NodeLike): string | undefined {
  const call = block.parent;
  if (call?.type !== "call" || !rubyStatement(call)) return undefined;
  const method = call.childForFieldName("method")?.text ?? "";
  if (rubyTest(call, method) || RUBY_HOOKS.has(method) || RUBY_TASKS.has(method)) return "code";
  if (RUBY_SUITES.has(method)) return "suite";
  return rubyDeclarations(body) ? "dsl" : "code";
}

/** Whether a call is an item of a container (a statement), not part of an expression. */
function rubyStatement(call: NodeLike): boolean {
  let up = call.parent;
  for (let i = 0; up && RUBY_COMPOUND.has(up.type) && i < 16; i++) up = up.parent;
  return up?.type === "program" || up?.type === "body_statement";
}

/**
 * Whether a block is one of declarations: at most a quarter of its statements are code (a local
 * variable, a `rescue`, an operator or a literal standing alone), the rest calls, bare words,
 * settings (`config.x = 1`), constants and definitions, or conditions holding only those (a
 * Rails environment's `configure` block with one local logger is still its settings).
 */
function rubyDeclarations(body: NodeLike): boolean {
  let code = 0;
  let statements = 0;
  for (const item of body.namedChildren) {
    if (item.type === "comment") continue;
    statements++;
    if (!rubyDeclaration(item, 0)) code++;
  }
  return code * 4 <= statements;
}

/** Whether a statement declares (see {@linkcode rubyDeclarations}). */
function rubyDeclaration(item: NodeLike, depth: number): boolean {
  const type = item.type;
  if (type === "call" || type === "identifier" || type === "comment") return true;
  if (RUBY_KEEP.has(type)) return true;
  if (type === "assignment" || type === "operator_assignment") {
    const left = item.childForFieldName("left")?.type ?? "";
    return RUBY_SETTINGS.has(left) || left === "constant" || left === "scope_resolution";
  }
  if (!RUBY_COMPOUND.has(type) || depth > 8) return false;
  return item.namedChildren.every((part) =>
    part === item.childForFieldName("condition") || rubyDeclaration(part, depth + 1)
  );
}

/**
 * A Ruby call statement that the code views keep as a symbol: not a declaring call (those are
 * `require`s and attributes, see {@linkcode rubyDeclares}), standing in a container; an
 * assignment to a constant, or to a setting as a statement (a local variable is none).
 */
function rubyDefines(node: NodeLike, type: string, parentType: string | undefined): boolean {
  // No parent type: an item of a container asked whether it defines (a mask's, a doc's).
  const statement = parentType === undefined || parentType === "program" ||
    parentType === "body_statement" ||
    (parentType !== undefined && RUBY_COMPOUND.has(parentType) && rubyStatement(node));
  if (type === "assignment" || type === "operator_assignment") {
    // A constant wherever it is set; a setting (`config.x = 1`) as a statement; no local.
    const left = node.childForFieldName("left")?.type ?? "";
    if (type === "assignment" && (left === "constant" || left === "scope_resolution")) return true;
    return RUBY_SETTINGS.has(left) && statement;
  }
  if (type !== "call" || !statement) return type !== "call";
  return !(node.childForFieldName("receiver") === null && rubyDeclaringCall(node));
}

/**
 * A DSL call's name, kind and words before its block: a test (`it "adds"`: `adds`, `test`), an
 * example group (`RSpec.describe User`: `User`, `suite`), else its callee and first argument
 * (`resources :chats`, `create_table accounts`, `Rails.application.routes.draw`: `call`); a
 * setting (`config.x = 1`) its left side, kind `setting`.
 */
function rubyDescribe(def: NodeLike, type: string): DeclaredName | undefined {
  if (type === "assignment" || type === "operator_assignment") {
    const left = def.childForFieldName("left");
    if (!RUBY_SETTINGS.has(left?.type ?? "")) return undefined;
    const name = left!.text.replace(/\s+/g, "");
    return { name, kind: "setting", signature: cutSignature(firstLineClosed(def.text)) };
  }
  if (type !== "call") return undefined;
  const method = def.childForFieldName("method")?.text ?? "";
  const block = def.childForFieldName("block");
  const words =
    (block ? def.text.slice(0, (block.startIndex ?? 0) - (def.startIndex ?? 0)) : def.text)
      .replace(/\s+/g, " ").trim();
  const first = def.childForFieldName("arguments")?.namedChildren[0];
  const title = first && rubyTitle(first);
  const tested = rubyTest(def, method) ? "test" : RUBY_SUITES.has(method) ? "suite" : undefined;
  // A test with no title (`it { should be_valid }`) is named by its call.
  if (tested) return { name: title || method, kind: tested, signature: cutSignature(words) };
  const receiver = def.childForFieldName("receiver");
  const callee = `${receiver ? `${receiver.text.replace(/\s+/g, "")}.` : ""}${method}`;
  const name = title ? `${callee} ${title}` : callee;
  return { name: name.slice(0, 120), kind: "call", signature: cutSignature(words) };
}

/**
 * A first argument as a title: a plain string without its quotes (`"adds"`: `adds`), a symbol,
 * a constant or a number as written; undefined for another (an expression's value).
 */
function rubyTitle(node: NodeLike): string | undefined {
  const type = node.type;
  if (type === "string") {
    const parts = node.namedChildren;
    if (parts.length === 0) return "";
    if (parts.length === 1 && parts[0].type === "string_content") {
      return parts[0].text.slice(0, 120);
    }
    return undefined;
  }
  if (/^(?:simple_symbol|constant|scope_resolution|integer|float)$/.test(type)) {
    return node.text.slice(0, 120);
  }
  return undefined;
}

/**
 * Whether a Ruby method or attribute (`attr_reader :a`) is public: not wrapped in
 * `private`/`protected` (`private def x`) and not after a `private`/`protected` standing alone in
 * its body.
 */
function rubyPublic(def: NodeLike, _name: string, scope: ScopeInfo): boolean {
  // A method, or an attribute call (`attr_reader :a`): the same words decide; a DSL's call is
  // public wherever it stands.
  if (def.type === "call" && !rubyDeclaringCall(def)) return true;
  if (def.type !== "method" && def.type !== "call") return true;
  const parent = def.parent;
  if (parent?.type === "argument_list") {
    const call = parent.parent?.childForFieldName("method")?.text;
    if (call === "private" || call === "protected") return false;
  }
  if (scope.parentKind === "module" && !scope.parent) return true;
  let member: NodeLike = def;
  while (member.parent && member.parent.type !== "body_statement") member = member.parent;
  const body = member.parent;
  if (!body) return true;
  return visibilityAt(body, member.startIndex ?? 0) === "public";
}

/** A body's visibility words standing alone, as offsets and words, by body (one scan a body). */
const VISIBILITY_MARKS = new WeakMap<object, Map<number, Array<[number, string]>>>();

/** The visibility in force at `offset` of a Ruby class or module body. */
function visibilityAt(body: NodeLike, offset: number): string {
  const tree = (body as unknown as { tree?: object }).tree ?? body;
  let bodies = VISIBILITY_MARKS.get(tree);
  if (!bodies) VISIBILITY_MARKS.set(tree, bodies = new Map());
  const key = body.startIndex ?? 0;
  let marks = bodies.get(key);
  if (!marks) {
    marks = [];
    for (const c of body.namedChildren) {
      if (c.type === "identifier" && RUBY_VISIBILITY.has(c.text)) {
        marks.push([c.startIndex ?? 0, c.text]);
      }
    }
    bodies.set(key, marks);
  }
  let visibility = "public";
  for (const [at, word] of marks) {
    if (at > offset) break;
    visibility = word === "module_function" ? "public" : word;
  }
  return visibility;
}

const RUBY: Omit<LanguageSpec, "id" | "extensions"> = {
  grammar: "ruby",
  pkg: "tree-sitter-ruby@0.23.1",
  wasm: "tree-sitter-ruby.wasm",
  names: [
    "rakefile",
    "gemfile",
    "guardfile",
    "capfile",
    "vagrantfile",
    "podfile",
    "brewfile",
    // Berkshelf's, Danger's and fastlane's files
    "berksfile",
    "dangerfile",
    "fastfile",
    "appfile",
  ],
  lineComment: "#",
  // `...` on a line of its own: the body's indentation stays, and `end` closes it.
  bodyMarker: "...",
  valueMarker: "...",
  containers: new Set(["program", "body_statement", "block_body"]),
  functionBodies: new Set(["method.body", "singleton_method.body"]),
  bodyTypes: new Set(["body_statement"]),
  keep: rubyKeep,
  transparent: new Set(["if", "unless", "then", "else", "elsif", "ERROR"]),
  attach: new Set(["comment"]),
  definitions: {
    method: { kind: "method" },
    singleton_method: { kind: "method" },
    class: { kind: "class" },
    module: { kind: "module" },
    assignment: { kind: "constant", nameField: "left", checked: true },
    operator_assignment: { kind: "setting", nameField: "left", checked: true },
    // A DSL's statement (see `rubyDefines`), its kind `call`, `test` or `suite`.
    call: { kind: "call", checked: true },
  },
  values: new Set(["assignment.right"]),
  isPublic: rubyPublic,
  declares: rubyDeclares,
  defines: rubyDefines,
  describe: rubyDescribe,
  symbolName: (def, type) => rubyDescribe(def, type)?.name,
  opaque: new Set(["string", "heredoc_body"]),
  trailing: new Set(["heredoc_body"]),
};

/**
 * PHP items: declarations, `namespace`, `use`, `declare`, the opening `<?php` tag and what the
 * file returns (a Laravel migration's `return new class extends Migration {...};`, a config
 * closure or array: the file's substance).
 */
function phpKeep(node: NodeLike, type: string = node.type): boolean {
  if (type === "php_tag") {
    const before = node.previousNamedSibling;
    return !before || before.type === "text";
  }
  if (type === "declare_statement") return true;
  if (type === "return_statement") return node.parent?.type === "program";
  if (type === "expression_statement") return phpRuns(node);
  return type !== "ERROR" && type !== "text" && type !== "text_interpolation" &&
    !type.endsWith("_statement");
}

/** The expressions that read another file in (`require __DIR__.'/auth.php';`). */
const PHP_REQUIRES = /^(?:require|require_once|include|include_once)_expression$/;

/**
 * Whether a statement is what a file does when it is loaded: a chain of calls rooted at a static
 * call (a routes file's `Route::get('/x', [C::class, 'm'])->name('x')`, `Route::middleware('auth')
 * ->group(function () {...})`, `Artisan::command(...)`, `Schedule::command(...)->daily()`), a
 * route or group of a router in a variable (Slim's `$app->get('/x', Action::class)`), a Pest
 * test, suite, hook or setting (`it('adds', function () {...})`, `uses(TestCase::class)`), a
 * WordPress hook (`add_action('init', ...)`), or a `require` / `include` of another file. A plain call (`the_title();` in a template) is output.
 */
function phpRuns(statement: NodeLike): boolean {
  const expression = statement.firstNamedChild;
  if (!expression) return false;
  if (PHP_REQUIRES.test(expression.type)) return true;
  const chain = phpChain(statement);
  if (!chain) return false;
  const root = chain[chain.length - 1];
  if (root.type === "scoped_call_expression") return true;
  if (root.type === "function_call_expression") {
    const name = phpCallName(root);
    return PEST_CALLS.has(name) || WORDPRESS_HOOKS.has(name);
  }
  return phpRoute(statement) !== undefined;
}

/**
 * The calls of a statement's chain, outermost first, down to its root: a static call
 * (`Route::get(...)`), a function's call (`it(...)`) or a method's call on a variable
 * (`$app->get(...)`); undefined for another statement.
 */
function phpChain(statement: NodeLike): NodeLike[] | undefined {
  const calls: NodeLike[] = [];
  let n = statement.firstNamedChild;
  for (let i = 0; n && i < 64; i++) {
    calls.push(n);
    if (n.type === "scoped_call_expression" || n.type === "function_call_expression") return calls;
    if (n.type !== "member_call_expression" && n.type !== "nullsafe_member_call_expression") break;
    n = n.childForFieldName("object");
    if (n?.type === "variable_name") return calls;
  }
  return undefined;
}

/** A function call's name as written (`it`), or "" for a computed one. */
function phpCallName(call: NodeLike): string {
  const name = call.childForFieldName("function");
  return name?.type === "name" ? name.text : "";
}

/** Pest's test functions (a test's body is elided, its title the symbol's name). */
const PEST_TESTS = new Set(["it", "test", "arch", "todo"]);

/**
 * Pest's functions a test file calls at its top level: tests, `describe` (a suite, whose closure
 * holds tests), hooks and the file's settings (`uses(TestCase::class)->in('Feature')`).
 */
const PEST_CALLS = new Set([
  ...PEST_TESTS,
  "describe",
  "beforeEach",
  "afterEach",
  "beforeAll",
  "afterAll",
  "uses",
  "pest",
  "dataset",
  "covers",
  "mutates",
]);

/**
 * WordPress's functions that hook a plugin or theme in when its file is loaded (`add_action('init',
 * ...)`, `register_activation_hook(__FILE__, ...)`): what the file does, as a route is.
 */
const WORDPRESS_HOOKS = new Set([
  "add_action",
  "add_filter",
  "add_shortcode",
  "register_activation_hook",
  "register_deactivation_hook",
  "register_uninstall_hook",
]);

/**
 * A router's methods that declare a route (Laravel's `Route::get`, `Route::resource`, ...,
 * Livewire Volt's `Volt::route`).
 */
const PHP_ROUTE_METHODS =
  /^(?:get|post|put|patch|delete|options|any|match|view|redirect|permanentRedirect|resource|apiResource|singleton|apiSingleton|resources|apiResources|route)$/;

/** The closure passed to a call, if one is (`group(function () {...})`, `fn () => ...`). */
function phpClosureArgument(call: NodeLike): NodeLike | undefined {
  for (const argument of call.childForFieldName("arguments")?.namedChildren ?? []) {
    const value = argument.firstNamedChild;
    if (value?.type === "anonymous_function" || value?.type === "arrow_function") return value;
  }
  return undefined;
}

/**
 * A routes file's statement as a symbol: a group (`Route::middleware('auth')->group(function ()
 * {...})`: its closure holds routes, walked as a block is) named and shown by its words before the
 * closure, or a route (`Route::get('/profile', ...)`, `$app->get('/', Home::class)`) named by its
 * method and its first argument as written (`get /profile`), shown with closure bodies elided; a
 * Pest test (`it('adds', ...)`: `adds`, kind `test`) or suite (`describe('sum', function () {...})`,
 * kind `suite`); or undefined for another statement. A route on a variable takes two arguments
 * at least (`$client->get($url)` is a request).
 */
function phpRoute(statement: NodeLike): DeclaredName | undefined {
  if (statement.type !== "expression_statement") return undefined;
  const calls = phpChain(statement);
  if (!calls || statement.startIndex === undefined) return undefined;
  const root = calls[calls.length - 1];
  if (root.type === "function_call_expression") return pestCall(statement, calls, root);
  const group = calls.find((c) => c.childForFieldName("name")?.text === "group");
  const closure = group && phpClosureArgument(group);
  if (closure?.startIndex !== undefined) {
    const signature = `${phpWords(statement, closure.startIndex, [])}...)`;
    return { name: signature, kind: "group", signature: cutSignature(signature) };
  }
  for (const call of calls) {
    const method = call.childForFieldName("name")?.text ?? "";
    if (!PHP_ROUTE_METHODS.test(method)) continue;
    const args = call.childForFieldName("arguments")?.namedChildren ?? [];
    const first = args[0]?.firstNamedChild;
    if (first?.type !== "string" && first?.type !== "encapsed_string") continue;
    if (root.type !== "scoped_call_expression" && args.length < 2) continue;
    const signature = phpStatementWords(statement, calls);
    return { name: `${method} ${phpKeyName(first)}`, kind: "route", signature };
  }
  return undefined;
}

/** A statement's words on one line, the bodies of the closures its calls pass elided. */
function phpStatementWords(statement: NodeLike, calls: NodeLike[]): string {
  const bodies = calls.map((c) => phpClosureArgument(c)?.childForFieldName("body"))
    .filter((b): b is NodeLike => b !== null && b !== undefined);
  const end = (statement.startIndex ?? 0) + statement.text.length;
  return cutSignature(phpWords(statement, end, bodies).replace(/;$/, ""));
}

/**
 * A Pest test (`it('adds', function () {...})->with([1, 2])`, `arch('no dd')->expect('dd')`) or
 * suite (`describe('sum', function () {...})`) as a symbol titled by its first argument, a string;
 * undefined for another call (a hook, `uses(...)`).
 */
function pestCall(
  statement: NodeLike,
  calls: NodeLike[],
  root: NodeLike,
): DeclaredName | undefined {
  const name = phpCallName(root);
  const kind = PEST_TESTS.has(name) ? "test" : name === "describe" ? "suite" : undefined;
  const first = root.childForFieldName("arguments")?.namedChildren[0]?.firstNamedChild;
  if (!kind || (first?.type !== "string" && first?.type !== "encapsed_string")) return undefined;
  const closure = phpClosureArgument(root);
  if (kind === "suite") {
    if (!closure || closure.startIndex === undefined) return undefined;
    const signature = `${phpWords(statement, closure.startIndex, [])}...)`;
    return { name: phpKeyName(first), kind, signature: cutSignature(signature) };
  }
  return { name: phpKeyName(first), kind, signature: phpStatementWords(statement, calls) };
}

/**
 * A file's returned closure whose body declares routes or tests (Slim's `return function (App
 * $app) { $app->get(...); };`), or undefined: its body is then walked as a group's is.
 */
function phpReturnedRoutes(statement: NodeLike): NodeLike | undefined {
  if (statement.parent?.type !== "program") return undefined;
  const closure = statement.namedChildren.find((c) => c.type !== "comment");
  if (closure?.type !== "anonymous_function") return undefined;
  const body = closure.childForFieldName("body");
  return body?.namedChildren.some((c) => phpRoute(c) !== undefined) ? closure : undefined;
}

/** A PHP string, else a bracket's inner blank or a trailing comma before a close. */
const PHP_TIGHT = /('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([([]) |,? ([)\]])/g;

/**
 * A statement's words up to `end` (an offset in the file) on one line, as the outline shows a
 * signature: its comments left out, each of `bodies` (closures' bodies) as the skeleton's marker,
 * no blank before a chain's `->`.
 */
function phpWords(statement: NodeLike, end: number, bodies: NodeLike[]): string {
  const from = statement.startIndex ?? 0;
  const cuts: Array<[start: number, end: number, text: string]> = [];
  const elided = new Set<number>();
  for (const body of bodies) {
    if (body.startIndex === undefined) continue;
    elided.add(body.startIndex);
    const marker = body.type === "compound_statement" ? "{ ... }" : "...";
    cuts.push([body.startIndex, body.startIndex + body.text.length, marker]);
  }
  const pending = [statement];
  for (let n = pending.pop(); n; n = pending.pop()) {
    const at = n.startIndex;
    if (at === undefined || at >= end || (elided.has(at) && n !== statement)) continue;
    if (n.type === "comment") cuts.push([at, at + n.text.length, " "]);
    else pending.push(...n.namedChildren);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  let text = "";
  let at = from;
  for (const [start, stop, marker] of cuts) {
    if (start < at) continue;
    text += statement.text.slice(at - from, start - from) + marker;
    at = stop;
  }
  text += statement.text.slice(at - from, Math.max(at, end) - from);
  // A call over lines reads as one on its line: no blank inside a bracket, no trailing comma
  // (`it(\n    'adds',\n    function () {...}\n)` as `it('adds', function () { ... })`); a
  // string's are its text (`it('adds ( one )')`).
  return text.replace(/\s+(?=\??->)/g, "").replace(/\s+/g, " ").trim()
    .replace(
      PHP_TIGHT,
      (_all, literal?: string, open?: string, close?: string) => literal ?? open ?? close ?? "",
    );
}

/** A signature cut to 240 characters, as the outline's other long ones are. */
function cutSignature(words: string): string {
  return words.length > 240 ? `${words.slice(0, 237)}...` : words;
}

/** The name PHP itself gives a closure (in a stack trace: `{closure}()`). */
const PHP_CLOSURE = "{closure}";

/** The name PHP itself gives an anonymous class (`get_class` says `class@anonymous`). */
const PHP_ANONYMOUS_CLASS = "class@anonymous";

/** Whether an anonymous class is the value a file returns (`return new class ... {...};`). */
function phpReturnedClass(node: NodeLike): boolean {
  const created = node.parent;
  const returned = created?.parent;
  return created?.type === "object_creation_expression" &&
    returned?.type === "return_statement" && returned.parent?.type === "program";
}

/**
 * The key of an element of the array a file returns (`return ['name' => env('APP_NAME'), ...];`,
 * a Laravel or Symfony config file: its keys are what `config('app.name')` reads), or undefined
 * for another element or one with no key.
 */
function phpReturnedKey(node: NodeLike): NodeLike | undefined {
  const array = node.parent;
  const returned = array?.parent;
  if (array?.type !== "array_creation_expression" || returned?.type !== "return_statement") {
    return undefined;
  }
  if (returned.parent?.type !== "program") return undefined;
  const parts = node.namedChildren.filter((c) => c.type !== "comment");
  return parts.length === 2 ? parts[0] : undefined;
}

/** A config key's name: a string's content (`'name'` is `name`), else the key as written. */
function phpKeyName(key: NodeLike): string {
  const parts = key.namedChildren;
  const content = parts.length === 1 && parts[0].type === "string_content" ? parts[0].text : "";
  return content || key.text;
}

/**
 * Only a returned anonymous class is a definition (one in a method body is a value), and only a
 * returned array's keyed elements are (the array a function returns is a value).
 */
function phpDefines(node: NodeLike, type: string): boolean {
  if (type === "array_element_initializer") return phpReturnedKey(node) !== undefined;
  if (type === "expression_statement") return phpRoute(node) !== undefined;
  if (type === "return_statement") return phpReturnedRoutes(node) !== undefined;
  return type !== "anonymous_class" || phpReturnedClass(node);
}

/**
 * A returned anonymous class's name (`class@anonymous`), by which a mask names its members; a
 * returned array's key without its quotes.
 */
function phpSymbolName(def: NodeLike, type: string): string | undefined {
  if (type === "expression_statement") return phpRoute(def)?.name;
  if (type === "return_statement") return PHP_CLOSURE;
  if (type === "array_element_initializer") {
    const key = phpReturnedKey(def);
    return key && phpKeyName(key);
  }
  return type === "anonymous_class" ? PHP_ANONYMOUS_CLASS : undefined;
}

/**
 * A returned anonymous class's name, kind and words up to its body (`return new class ...`); a
 * returned array's key with its element's first line (`'providers' => [...]`).
 */
function phpDescribe(def: NodeLike, type: string): DeclaredName | undefined {
  if (type === "expression_statement") return phpRoute(def);
  if (type === "return_statement") {
    const closure = phpReturnedRoutes(def);
    const body = closure?.childForFieldName("body");
    if (!closure || body?.startIndex === undefined || def.startIndex === undefined) {
      return undefined;
    }
    const words = def.text.slice(0, body.startIndex - def.startIndex).replace(/\s+/g, " ").trim();
    return { name: PHP_CLOSURE, kind: "closure", signature: cutSignature(words) };
  }
  if (type === "array_element_initializer") {
    const key = phpReturnedKey(def);
    if (!key) return undefined;
    let words = firstLineClosed(def.text).replace(/\s*,$/, "");
    if (words.length > 240) words = `${words.slice(0, 237)}...`;
    return { name: phpKeyName(key), kind: "key", signature: words };
  }
  if (type !== "anonymous_class") return undefined;
  const returned = def.parent?.parent;
  const body = def.childForFieldName("body");
  if (!returned || returned.startIndex === undefined || body?.startIndex === undefined) {
    return undefined;
  }
  const words = returned.text.slice(0, body.startIndex - returned.startIndex);
  return { name: PHP_ANONYMOUS_CLASS, kind: "class", signature: words.replace(/\s+/g, " ").trim() };
}

/** The value a `return` statement returns, which the grammar gives no field name. */
function phpFieldOf(parentType: string, childType: string): string | undefined {
  return parentType === "return_statement" && childType !== "comment" ? "value" : undefined;
}

/** PHP members are public unless `private` or `protected` says otherwise. */
function phpPublic(def: NodeLike, _name: string, scope: ScopeInfo): boolean {
  if (scope.parentKind === "interface") return true;
  let owner = def;
  // A constant's or property's modifiers sit on its declaration, around the element.
  if (def.type === "const_element" || def.type === "property_element") owner = def.parent ?? def;
  const access = owner.namedChildren.find((c) => c.type === "visibility_modifier")?.text;
  return access !== "private" && access !== "protected";
}

const PHP: Omit<LanguageSpec, "id" | "extensions"> = {
  leadEdits: phpLeadEdits,
  grammar: "php",
  pkg: "tree-sitter-php@0.24.2",
  wasm: "tree-sitter-php.wasm",
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: new Set([
    "program",
    "declaration_list",
    "enum_declaration_list",
    "compound_statement",
    // The alternative syntax's block (`if (!class_exists('A')) : class A {...} endif;`).
    "colon_block",
  ]),
  functionBodies: new Set([
    "function_definition.body",
    "method_declaration.body",
    "anonymous_function.body",
    "arrow_function.body",
  ]),
  bodyTypes: new Set(["compound_statement"]),
  typeBodies: new Set(["enum_declaration_list"]),
  scopesRest: new Set(["namespace_definition"]),
  keep: phpKeep,
  transparent: new Set(["if_statement", "else_clause", "else_if_clause", "ERROR"]),
  attach: new Set(["comment"]),
  docBlocks: true,
  definitions: {
    namespace_definition: { kind: "namespace" },
    function_definition: { kind: "function" },
    class_declaration: { kind: "class" },
    interface_declaration: { kind: "interface" },
    trait_declaration: { kind: "trait" },
    enum_declaration: { kind: "enum" },
    method_declaration: { kind: "method" },
    property_element: { kind: "property" },
    const_element: { kind: "constant" },
    enum_case: { kind: "case" },
    anonymous_class: { kind: "class" },
    // A key of the array a config file returns (see `phpReturnedKey`).
    array_element_initializer: { kind: "key", checked: true },
    // A routes file's route or group, a Pest test or suite (see `phpRoute`).
    expression_statement: { kind: "route", checked: true },
    // A returned closure of routes (see `phpReturnedRoutes`), kind `closure`.
    return_statement: { kind: "closure", checked: true },
  },
  expands: new Set(["group", "suite", "closure"]),
  values: new Set([
    "property_element.default_value",
    "const_element.value",
    "return_statement.value",
  ]),
  defines: phpDefines,
  symbolName: phpSymbolName,
  describe: phpDescribe,
  fieldOf: phpFieldOf,
  isPublic: phpPublic,
  nameNode: (def, type) =>
    type === "const_element" || type === "array_element_initializer"
      ? def.firstNamedChild
      : undefined,
  opaque: new Set(["string", "encapsed_string", "heredoc", "nowdoc"]),
};

/** C#'s access words that make a member part of the API. */
const CSHARP_ACCESS = /^(public|protected|internal)$/;

function csharpPublic(def: NodeLike, _name: string, scope: ScopeInfo): boolean {
  if (scope.parentKind === "interface" || scope.parentKind === "enum") return true;
  // A route is an API's endpoint, whatever maps it.
  if (CSHARP_STATEMENTS.has(def.type)) return true;
  if (def.type.includes("namespace")) return true;
  // A local function is the program's or the method's own, whatever its place.
  if (def.type === "local_function_statement") return false;
  const mods = def.namedChildren.filter((c) => c.type === "modifier").map((c) => c.text);
  if (mods.some((m) => CSHARP_ACCESS.test(m))) return true;
  if (mods.includes("private")) return false;
  // No access word: a type in a namespace is internal (the assembly's API), a member private.
  return scope.parentKind === "module" || scope.parentKind === "namespace";
}

/** A C# field's or event field's name: its first declarator's (`int a, b;` names `a`). */
function csharpName(def: NodeLike, type: string): NodeLike | null | undefined {
  if (type !== "field_declaration" && type !== "event_field_declaration") return undefined;
  const declaration = def.namedChildren.find((c) => c.type === "variable_declaration");
  const declarator = declaration?.namedChildren.find((c) => c.type === "variable_declarator");
  return declarator?.childForFieldName("name");
}

/**
 * C# items: declarations, and a program's top-level statements that set it up (ASP.NET's minimal
 * API: `var builder = WebApplication.CreateBuilder(args);`, `app.MapGet("/", () => ...);`), a
 * declaration or an expression's statement, lambdas' bodies elided, and its local functions (a
 * handler's `static async Task<IResult> GetTodo(...) { ... }`: definitions, their bodies elided).
 * A statement that branches, loops or guards (`if (app.Environment.IsDevelopment()) {...}`,
 * `using (var scope = ...) {...}`, `try`) stays with its head, its blocks' statements read as the
 * program's are (`if (flags.Admin) { app.MapGet("/admin", ...); }` maps a route); a block that
 * keeps none is `{ ... }`.
 */
function csharpKeep(node: NodeLike, type: string = node.type, container?: NodeLike): boolean {
  // A route method's statements (see `csharpRouteMethod`) are kept as a program's are, and so are
  // those of a block of a branch or loop in either that maps a route.
  if (container?.type === "block" && csharpProgramBlock(container)) {
    const section = container.parent?.type === "switch_section";
    return section && CSHARP_JUMPS.has(type) || csharpStatementKept(node, type);
  }
  // A switch's section (or its block): its labels, its statements as a block's, and its jumps (a
  // section that seemed to fall through would mislead).
  if (container?.type === "switch_section") {
    if (!type.endsWith("_statement") && type !== "block") return type !== "ERROR";
    return CSHARP_JUMPS.has(type) ||
      csharpProgramBlock(container) && csharpStatementKept(node, type);
  }
  if (type === "global_statement") {
    const statement = node.firstNamedChild;
    return !!statement && csharpStatementKept(statement, statement.type);
  }
  return type !== "ERROR" && !type.endsWith("_statement");
}

/**
 * Whether a statement of a program or of a route method stays: a declaration, an expression's
 * statement but what it prints (`Console.WriteLine("Starting");` is output, not setup), a local
 * function, and a branch, loop or guard ({@linkcode CSHARP_COMPOUND}).
 */
function csharpStatementKept(node: NodeLike, type: string): boolean {
  if (type === "local_declaration_statement" || type === "local_function_statement") return true;
  if (type === "if_statement") return csharpBranches(node) <= CSHARP_MAX_BRANCHES;
  if (CSHARP_COMPOUND.has(type)) return true;
  return type === "expression_statement" && !CSHARP_PRINTS.test(node.text);
}

/**
 * The most branches an `if`'s `else if` chain may have to stay: each nests in the one before it,
 * and a program's blocks are read as its statements only so many levels deep (see
 * {@linkcode csharpProgramBlock}); a longer chain is left out, as a program's `if` once was (a
 * chain of hundreds nested past the depth the view follows, and the file had no view).
 */
const CSHARP_MAX_BRANCHES = 48;

/** How many branches an `if`'s `else if` chain has, counted to one past {@linkcode CSHARP_MAX_BRANCHES}. */
function csharpBranches(node: NodeLike): number {
  let count = 1;
  for (
    let next = node.childForFieldName("alternative");
    next?.type === "if_statement" && count <= CSHARP_MAX_BRANCHES;
    next = next.childForFieldName("alternative")
  ) count++;
  return count;
}

/** The statements that end a switch's section. */
const CSHARP_JUMPS = new Set([
  "break_statement",
  "return_statement",
  "continue_statement",
  "goto_statement",
  "throw_statement",
]);

/** The statements of a program that branch, loop or guard a block: kept with their heads. */
const CSHARP_COMPOUND = new Set([
  "if_statement",
  "switch_statement",
  "for_statement",
  "foreach_statement",
  "while_statement",
  "do_statement",
  "using_statement",
  "try_statement",
  "lock_statement",
  "checked_statement",
  "unsafe_statement",
  "fixed_statement",
  "block",
]);

/**
 * Whether a block is a route method's body or a block of a program's branches, loops and guards
 * (`if`, `foreach`, `using`, `try` and its `catch` and `finally`, nested in each other), at the
 * program's top level or in a route method: its statements are read as the program's are.
 */
function csharpProgramBlock(block: NodeLike): boolean {
  let up: NodeLike | null = block.parent;
  for (let i = 0; up && i < 64; i++, up = up.parent) {
    if (up.type === "global_statement") return true;
    if (up.type === "method_declaration") return csharpRouteMethod(up);
    if (
      !CSHARP_COMPOUND.has(up.type) && !/^(?:catch|finally)_clause$|^switch_/.test(up.type)
    ) return false;
  }
  return false;
}

/** A statement that prints: `Console`'s and `Debug`'s writes (`System.Console.Error.Write(x)`). */
const CSHARP_PRINTS =
  /^(?:System\.)?(?:Console(?:\.(?:Error|Out))?|(?:Diagnostics\.)?(?:Debug|Trace))\.Write(?:Line)?\s*\(/;

/** ASP.NET's minimal API calls that map a route (`MapGet`) or a group of routes (`MapGroup`). */
const CSHARP_MAPS = /^Map(Get|Post|Put|Patch|Delete|Methods|Fallback|Group)$/;

/**
 * A program's top-level statement that maps a route (`app.MapGet("/todos", ...).WithName("x");`)
 * or a group (`var todos = app.MapGroup("/todos");`) as a symbol: kind `route` named by the verb,
 * lower case, and the pattern (`get /todos`, as PHP's routes are), kind `group` for a group;
 * undefined for another statement.
 */
function csharpRoute(node: NodeLike): DeclaredName | undefined {
  let statement = node.type === "global_statement" ? node.firstNamedChild : node;
  if (statement?.type === "local_declaration_statement") {
    const declarators = statement.firstNamedChild?.namedChildren.filter((c) =>
      c.type === "variable_declarator"
    );
    statement = declarators?.length === 1 ? declarators[0] : null;
  } else if (statement?.type !== "expression_statement") return undefined;
  let call: NodeLike | null | undefined = statement
    ?.namedChildren[statement.namedChildren.length - 1];
  // The chain's calls from its end (`.WithName("x")`) to the one that maps.
  for (let i = 0; call?.type === "invocation_expression" && i < 32; i++) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "member_access_expression") return undefined;
    const verb = CSHARP_MAPS.exec(callee.childForFieldName("name")?.text ?? "")?.[1];
    const first = call.childForFieldName("arguments")?.namedChildren[0]?.firstNamedChild;
    if (verb && first && /^(?:string|verbatim_string)_literal$/.test(first.type)) {
      const pattern = first.text.replace(/^@?"|"$/g, "");
      if (pattern.includes("\n") || pattern.length > 200) return undefined;
      const signature = cutSignature(
        firstLineClosed(node.text).replace(/\s+/g, " ").replace(/;$/, ""),
      );
      return verb === "Group"
        ? { name: `group ${pattern}`, kind: "group", signature }
        : { name: `${verb.toLowerCase()} ${pattern}`, kind: "route", signature };
    }
    call = callee.childForFieldName("expression");
  }
  return undefined;
}

/**
 * Whether a method maps routes (ASP.NET's usual layout: `public static RouteGroupBuilder
 * MapTodos(this IEndpointRouteBuilder routes) { var group = routes.MapGroup("/todos");
 * group.MapGet("/", ...); return group; }`): its body holds a statement that maps a route or a
 * group, and is then walked as a program's top level is, so each route is a symbol. Read once per
 * method.
 */
function csharpRouteMethod(def: NodeLike): boolean {
  if (def.type !== "method_declaration") return false;
  const known = ROUTE_METHODS.get(def);
  if (known !== undefined) return known;
  const body = def.childForFieldName("body");
  const maps = body?.type === "block" && /\.Map[A-Z]/.test(body.text) &&
    body.namedChildren.some((c) =>
      (c.type === "expression_statement" || c.type === "local_declaration_statement") &&
      csharpRoute(c) !== undefined
    );
  ROUTE_METHODS.set(def, maps);
  return maps;
}

/** The statements that may map a route: a program's, and a route method's. */
const CSHARP_STATEMENTS = new Set([
  "global_statement",
  "expression_statement",
  "local_declaration_statement",
]);

/** {@linkcode csharpRouteMethod}'s answers by method node. */
const ROUTE_METHODS = new WeakMap<NodeLike, boolean>();

/**
 * Whether a statement of a route method's body, or of a block of a program's or a route method's
 * branches and loops (a switch's section too), maps a route or a group.
 */
function csharpRouteStatement(node: NodeLike): boolean {
  const up = node.parent;
  return (up?.type === "block" || up?.type === "switch_section") && csharpProgramBlock(up) &&
    csharpRoute(node) !== undefined;
}

/** The last part of a C# attribute list's first attribute's name (`Xunit.InlineData`: `InlineData`). */
function attributeName(list: NodeLike): string {
  const name = list.namedChildren.find((c) => c.type === "attribute")?.childForFieldName("name");
  return name?.text.replace(/^[\s\S]*\./, "") ?? "";
}

/**
 * A run of one attribute over more than `maxLines` lines before a definition (`lists`, in order,
 * each named by `nameOf`) as one `...`: a test's table of cases a case a line (xUnit's
 * `[InlineData(...)]`, NUnit's `[TestCase(...)]`, MSTest's `[DataRow(...)]`, PHPUnit's
 * `#[TestWith([...])]`); the test's other attributes (`[Theory]`) stay.
 */
function attributeRuns(
  lists: NodeLike[],
  nameOf: (list: NodeLike) => string,
  maxLines: number,
): TokenEdit[] | undefined {
  const edits: TokenEdit[] = [];
  let run: NodeLike[] = [];
  const close = () => {
    const [first, last] = [run[0], run[run.length - 1]];
    if (run.length > 1 && last.endPosition!.row - first.startPosition!.row + 1 > maxLines) {
      edits.push({ start: first.startIndex!, end: last.endIndex!, text: "..." });
    }
    run = [];
  };
  for (const list of lists) {
    if (run.length && nameOf(list) !== nameOf(run[0])) close();
    run.push(list);
  }
  close();
  return edits.length ? edits : undefined;
}

/** A C# definition's runs of one attribute (see {@linkcode attributeRuns}). */
function csharpLeadEdits(node: NodeLike, _type: string, maxLines: number): TokenEdit[] | undefined {
  const lists: NodeLike[] = [];
  for (const child of node.namedChildren) {
    if (child.type !== "attribute_list") break;
    lists.push(child);
  }
  return attributeRuns(lists, attributeName, maxLines);
}

/** A PHP definition's runs of one attribute, `#[TestWith([1, 2])]` a line (see `attributeRuns`). */
function phpLeadEdits(node: NodeLike, _type: string, maxLines: number): TokenEdit[] | undefined {
  const groups = node.childForFieldName("attributes")?.namedChildren ?? [];
  const nameOf = (group: NodeLike) =>
    group.firstNamedChild?.firstNamedChild?.text.replace(/^[\s\S]*\\/, "") ?? "";
  return groups.length > 1 ? attributeRuns(groups, nameOf, maxLines) : undefined;
}

/**
 * A Java annotation's argument over more than `maxLines` lines (JUnit's `@CsvSource({` then a
 * case a line `})`, `@ValueSource(strings = {...})`) as `...`, as a Python decorator's is.
 */
function javaLeadEdits(node: NodeLike, _type: string, maxLines: number): TokenEdit[] | undefined {
  const edits: TokenEdit[] = [];
  const modifiers = node.namedChildren.find((c) => c.type === "modifiers");
  for (const annotation of modifiers?.namedChildren ?? []) {
    const args = annotation.type === "annotation"
      ? annotation.childForFieldName("arguments")
      : null;
    for (const arg of args?.namedChildren ?? []) {
      const value = arg.type === "element_value_pair" ? arg.childForFieldName("value") : arg;
      if (!value || value.endPosition!.row - value.startPosition!.row + 1 <= maxLines) continue;
      edits.push({ start: value.startIndex!, end: value.endIndex!, text: "..." });
    }
  }
  return edits.length ? edits : undefined;
}

const CSHARP: Omit<LanguageSpec, "id" | "extensions"> = {
  grammar: "c_sharp",
  leadEdits: csharpLeadEdits,
  pkg: "tree-sitter-c-sharp@0.23.5",
  wasm: "tree-sitter-c_sharp.wasm",
  bodyMarker: "{ ... }",
  valueMarker: "...",
  // A block is walked where no body field holds it: a program's `if`'s and loops' blocks.
  containers: new Set([
    "compilation_unit",
    "declaration_list",
    "enum_member_declaration_list",
    "block",
    // A program's `switch`'s sections (see `csharpKeep`).
    "switch_section",
  ]),
  functionBodies: new Set([
    "method_declaration.body",
    "constructor_declaration.body",
    "destructor_declaration.body",
    "operator_declaration.body",
    "conversion_operator_declaration.body",
    "accessor_declaration.body",
    "local_function_statement.body",
    "lambda_expression.body",
  ]),
  bodyTypes: new Set(["block"]),
  typeBodies: new Set(["enum_member_declaration_list"]),
  scopesRest: new Set(["file_scoped_namespace_declaration"]),
  keep: csharpKeep,
  transparent: new Set<string>(),
  attach: new Set(["comment"]),
  docBlocks: true,
  definitions: {
    namespace_declaration: { kind: "namespace" },
    file_scoped_namespace_declaration: { kind: "namespace" },
    class_declaration: { kind: "class" },
    struct_declaration: { kind: "struct" },
    interface_declaration: { kind: "interface" },
    enum_declaration: { kind: "enum" },
    record_declaration: { kind: "record" },
    delegate_declaration: { kind: "delegate" },
    method_declaration: { kind: "method" },
    constructor_declaration: { kind: "constructor" },
    destructor_declaration: { kind: "destructor" },
    property_declaration: { kind: "property" },
    event_declaration: { kind: "event" },
    event_field_declaration: { kind: "event" },
    field_declaration: { kind: "field" },
    enum_member_declaration: { kind: "constant" },
    // A program's statement that maps a route (see `csharpRoute`), and a route method's.
    global_statement: { kind: "route", checked: true },
    expression_statement: { kind: "route", checked: true },
    local_declaration_statement: { kind: "route", checked: true },
    local_function_statement: { kind: "function" },
  },
  walksBody: csharpRouteMethod,
  values: new Set(["property_declaration.value"]),
  isPublic: csharpPublic,
  nameNode: csharpName,
  defines: (node, type) =>
    type === "global_statement"
      ? csharpRoute(node) !== undefined
      : type === "expression_statement" || type === "local_declaration_statement"
      ? csharpRouteStatement(node)
      : true,
  describe: (def, type) => CSHARP_STATEMENTS.has(type) ? csharpRoute(def) : undefined,
  symbolName: (def, type) => CSHARP_STATEMENTS.has(type) ? csharpRoute(def)?.name : undefined,
  opaque: new Set(["string_literal", "verbatim_string_literal", "raw_string_literal"]),
};

/**
 * Shell commands that stay in a skeleton: what a script reads in (Bats' `load` and
 * `bats_load_library` too) and how it runs.
 */
const BASH_COMMANDS = new Set(["source", ".", "set", "shopt", "load", "bats_load_library"]);

/**
 * Shell items: functions, assignments (`LOG_DIR=/var/log`, `readonly X=1`, `export X`) and the
 * commands that read other files in or set the shell's options; other commands are statements.
 */
function bashKeep(node: NodeLike, type: string = node.type): boolean {
  if (type === "function_definition" || type === "variable_assignment") return true;
  if (type === "declaration_command") return true;
  if (type !== "command") return false;
  return BASH_COMMANDS.has(node.childForFieldName("name")?.text ?? "");
}

const BASH: Omit<LanguageSpec, "id" | "extensions"> = {
  grammar: "bash",
  pkg: "tree-sitter-bash@0.25.1",
  wasm: "tree-sitter-bash.wasm",
  interpreters: ["sh", "bash", "dash", "ksh"],
  lineComment: "#",
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: new Set(["program"]),
  functionBodies: new Set(["function_definition.body"]),
  // `f() ( ... )` runs its body in a subshell: elided with the same marker.
  bodyTypes: new Set(["compound_statement", "subshell"]),
  keep: bashKeep,
  // What the parser could not read is left out (`case` patterns it does not know, say). A script
  // wrapped in `{ ... }` (nvm's, `curl ... | bash` installers: run only once all of it has
  // arrived) holds its items there; a function's `{ ... }` body is elided before it is looked at.
  // So does one whose output is redirected (`{ ... } > install.log 2>&1`): its redirect stays
  // with it, and a redirected command holds no item.
  transparent: new Set(["compound_statement", "redirected_statement"]),
  attach: new Set(["comment"]),
  definitions: {
    function_definition: { kind: "function" },
    variable_assignment: { kind: "variable" },
  },
  values: new Set(["variable_assignment.value"]),
  isPublic: (_def, name) => !name.startsWith("_"),
  opaque: new Set(["string", "raw_string", "heredoc_body"]),
  // A Bats file's `@test "title" { ... }` is read as a function named by its title (`_bats.ts`).
  parseText: batsParseText,
  describe: batsTest,
};

/**
 * Scala items: definitions and declarations, packages and package objects (`package object os {`,
 * Scala 2's members of a package), imports and exports, not expressions but a suite's tests.
 */
function scalaKeep(node: NodeLike, type: string = node.type, container?: NodeLike): boolean {
  if (type === "ERROR") return false;
  if (container?.type === "compilation_unit" && sbtSetting(node, type)) return true;
  if (type === "call_expression") return scalaTest(node) !== undefined;
  if (type === "infix_expression") return scalaSpecTest(node) !== undefined;
  // A test its block's value is ascribed to (`test("x") { ... }: @nowarn("...")`).
  if (type === "ascription_expression") {
    const call = node.firstNamedChild;
    return call?.type === "call_expression" && scalaTest(call) !== undefined;
  }
  return type.endsWith("_definition") || type.endsWith("_declaration") ||
    type === "package_clause" || type === "package_object" || type === "enum_case_definitions";
}

/**
 * Whether a file's top-level statement is an sbt build's (`build.sbt`, `project/plugins.sbt`):
 * a setting (`ThisBuild / scalaVersion := "3.3.1"`, `libraryDependencies ++= Seq(...)`) or a
 * call of sbt's that adds settings (`addSbtPlugin(...)`, `inThisBuild(List(...))`,
 * `enablePlugins(...)`). A Scala source file has no statement at its top level.
 */
function sbtSetting(node: NodeLike, type: string): boolean {
  if (type === "infix_expression") {
    return SBT_OPERATORS.has(node.childForFieldName("operator")?.text ?? "");
  }
  const head = type === "call_expression" ? node.childForFieldName("function") : null;
  return head?.type === "identifier" && SBT_CALLS.test(head.text);
}

/**
 * An sbt build's top-level statement as a symbol (see {@linkcode sbtSetting}): a setting by its
 * key (`ThisBuild / scalaVersion`), kind `setting`; a call by its name and first argument when
 * that is one line (`addSbtPlugin "org.scalameta" % "sbt-scalafmt" % "2.5.2"`), kind `call`.
 */
function sbtDescribe(def: NodeLike, type: string): DeclaredName | undefined {
  if (def.parent?.type !== "compilation_unit" || !sbtSetting(def, type)) return undefined;
  const signature = cutSignature(firstLineClosed(def.text));
  if (type === "infix_expression") {
    const key = def.childForFieldName("left")?.text.replace(/\s+/g, " ") ?? "";
    return key ? { name: key, kind: "setting", signature } : undefined;
  }
  const first = def.childForFieldName("arguments")?.namedChildren[0]?.text ?? "";
  const head = def.childForFieldName("function")!.text;
  const name = first && !first.includes("\n") ? `${head} ${first}`.slice(0, 120) : head;
  return { name, kind: "call", signature: def.text.includes("\n") ? `${head}(...)` : signature };
}

/**
 * Whether a definition is an sbt build's project (`lazy val core = project.in(file("core"))
 * .settings(...)`, `crossProject(JVMPlatform)...`, `(project in file("."))...`), at the file's
 * top level: what the build is made of, kept as it is written at any length.
 */
function sbtProject(def: NodeLike): boolean {
  if (def.type !== "val_definition" || def.parent?.type !== "compilation_unit") return false;
  let node = def.childForFieldName("value");
  for (let i = 0; node && i < 64; i++) {
    // `circeModule("core").settings(...)`: a project a build's own function makes, set up.
    if (
      node.type === "field_expression" &&
      SBT_PROJECT_SETUP.has(node.childForFieldName("field")?.text ?? "")
    ) return true;
    const next = node.type === "call_expression"
      ? node.childForFieldName("function")
      : node.type === "field_expression"
      ? node.childForFieldName("value")
      : node.type === "infix_expression"
      ? node.childForFieldName("left")
      : node.type === "parenthesized_expression" || node.type === "generic_function"
      ? node.firstNamedChild
      : null;
    if (!next) break;
    node = next;
  }
  return node?.type === "identifier" && SBT_PROJECTS.has(node.text);
}

/** sbt's methods that set a project up (`.settings(...)`, `.dependsOn(core)`). */
const SBT_PROJECT_SETUP = new Set([
  "settings",
  "dependsOn",
  "aggregate",
  "enablePlugins",
  "disablePlugins",
  "jvmSettings",
  "jsSettings",
  "nativeSettings",
  "configs",
]);

/** What an sbt project definition starts from. */
const SBT_PROJECTS = new Set(["project", "Project", "crossProject", "projectMatrix"]);

/** sbt's operators that define a setting or task (`:=`, `+=`, `++=`, `~=`, ...). */
const SBT_OPERATORS = new Set([":=", "+=", "++=", "-=", "--=", "~=", "<<=", "<+=", "<++="]);

/** sbt's calls that add settings to a build (`addSbtPlugin`, `inThisBuild`, `enablePlugins`). */
const SBT_CALLS = /^(?:add[A-Z]\w*|in(?:ThisBuild|Scope|Config|Task)|(?:enable|disable)Plugins)$/;

/**
 * A ScalaTest spec's test or suite, an infix whose right side is a block, as a symbol titled by
 * its strings: a test (`"A Stack" should "pop" in { ... }`, FlatSpec's `it should "throw" in
 * { ... }`, `ignore { ... }` or `ignore should "x" in { ... }` for a skipped one, WordSpec's and FreeSpec's `"pops" in { ... }`,
 * options such as `taggedAs Slow` left out of its name), or a suite holding tests (WordSpec's
 * `"A Stack" when { ... }`, `"empty" should { ... }`, FreeSpec's `"A Stack" - { ... }`).
 */
function scalaSpecTest(node: NodeLike): DeclaredName | undefined {
  const block = node.childForFieldName("right");
  const verb = node.childForFieldName("operator")?.text ?? "";
  let left = node.childForFieldName("left");
  if (block?.type !== "block" || !left) return undefined;
  const signature = cutSignature(
    `${left.text} ${verb}`.replace(/\s+/g, " "),
  );
  if (SCALA_SPEC_SUITES.has(verb)) {
    const name = scalaTitle(left);
    return name === undefined ? undefined : { name, kind: "suite", signature };
  }
  if (verb !== "in" && verb !== "ignore") return undefined;
  // `"pops" taggedAs (Slow, Db) in { ... }`: a test's options are no part of its title.
  while (
    left.type === "infix_expression" && left.childForFieldName("operator")?.text === "taggedAs"
  ) {
    left = left.childForFieldName("left")!;
  }
  let name = scalaTitle(left);
  if (name === undefined && left.type === "infix_expression") {
    // FlatSpec's `"A Stack" should "pop"`, `it must "throw"`, `they can "x"`, and `ignore
    // should "x"`: a skipped test, `ignore` in its subject's place.
    const subject = left.childForFieldName("left");
    const how = left.childForFieldName("operator")?.text ?? "";
    const title = scalaTitle(left.childForFieldName("right"));
    const who = subject?.type === "identifier" && /^(?:it|they|ignore)$/.test(subject.text)
      ? subject.text
      : scalaTitle(subject);
    if (title !== undefined && who !== undefined && SCALA_SPEC_VERBS.has(how)) {
      name = `${who} ${how} ${title}`;
    }
  }
  return name === undefined ? undefined : { name, kind: "test", signature };
}

/** A plain string's text (`"A Stack"`: `A Stack`), or undefined for another node. */
function scalaTitle(node: NodeLike | null | undefined): string | undefined {
  return node?.type === "string" && /^"(?:[^"\\\n]|\\.)*"$/.test(node.text)
    ? node.text.slice(1, -1)
    : undefined;
}

/** ScalaTest's verbs between a FlatSpec test's subject and title. */
const SCALA_SPEC_VERBS = new Set(["should", "must", "can"]);

/** ScalaTest's words that open a suite of tests: WordSpec's and FreeSpec's (`-`). */
const SCALA_SPEC_SUITES = new Set(["should", "must", "can", "when", "which", "that", "-"]);

/** Whether a statement is a titled test call (`test("a") { ... }`), asked of a test's block. */
function scalaTitled(node: NodeLike): boolean {
  const head = node.type === "call_expression" ? node.childForFieldName("function") : null;
  const args = node.childForFieldName("arguments")?.type;
  return head?.type === "call_expression" &&
    SCALA_TESTS.has(head.childForFieldName("function")?.text ?? "") &&
    (args === "block" || args === "colon_argument");
}

/**
 * The statements of a test's block: a `{ ... }` block's, or those of Scala 3's indented block
 * after a colon (`test("adds"):` then the body on the lines below).
 */
function scalaBlockItems(block: NodeLike): NodeLike[] {
  if (block.type === "block") return block.namedChildren;
  const inner = block.namedChildren.find((c) => c.type === "indented_block");
  return inner ? inner.namedChildren : block.namedChildren;
}

/** The test calls of munit, ScalaTest's `FunSuite`, `FunSpec` and ScalaCheck's `Properties`. */
const SCALA_TESTS = new Set(["test", "property", "it", "ignore", "scenario"]);

/**
 * A test (munit's and ScalaTest's `test("adds") { ... }`, `test("slow".ignore) { ... }`,
 * ScalaCheck's `property("p") = forAll {...}` is a definition already) or suite (FunSpec's
 * `describe("Stack") { ... }`, utest's `Tests { ... }` and a test holding tests) as a symbol
 * titled by its string, or undefined for another call. Its block is a test's body, elided, or a
 * suite's, holding tests.
 */
function scalaTest(call: NodeLike): DeclaredName | undefined {
  const head = call.childForFieldName("function");
  const block = call.childForFieldName("arguments");
  if (block?.type === "arguments" && head?.type === "identifier" && head.text === "checkAll") {
    return scalaLawCheck(call, block);
  }
  if (block?.type !== "block" && block?.type !== "colon_argument") return undefined;
  // utest's `val tests = Tests { test("a") { ... } }`: the suite of a file's tests.
  if (head?.type === "identifier" && head.text === "Tests") {
    return { name: "Tests", kind: "suite", signature: "Tests" };
  }
  if (head?.type !== "call_expression") return undefined;
  const name = head.childForFieldName("function")?.text ?? "";
  let kind = SCALA_TESTS.has(name) ? "test" : name === "describe" ? "suite" : undefined;
  // A utest test that holds tests (`test("cp") { test("deep") { ... } }`) is their suite.
  if (kind === "test" && scalaBlockItems(block).some((c) => scalaTitled(c))) kind = "suite";
  let title: NodeLike | null | undefined = head.childForFieldName("arguments")?.namedChildren[0];
  // `test("slow".ignore)`, `test("x".tag(Slow))`: munit's options on the title.
  for (let i = 0; title && title.type !== "string" && i < 4; i++) {
    title = title.type === "field_expression"
      ? title.childForFieldName("value")
      : title.type === "call_expression"
      ? title.childForFieldName("function")
      : null;
  }
  if (!kind || title?.type !== "string" || !/^"(?:[^"\\\n]|\\.)*"$/.test(title.text)) {
    return undefined;
  }
  const signature = cutSignature(head.text.replace(/\s+/g, " "));
  return { name: title.text.slice(1, -1), kind, signature };
}

/**
 * Discipline's law check (`checkAll("Codec[Foo]", CodecTests[Foo].codec)`, in munit's and
 * ScalaTest's suites): a test titled by its first argument, a string, kept as it is written.
 */
function scalaLawCheck(call: NodeLike, args: NodeLike): DeclaredName | undefined {
  const title = args.namedChildren[0];
  if (title?.type !== "string" || !/^"(?:[^"\\\n]|\\.)*"$/.test(title.text)) return undefined;
  return {
    name: title.text.slice(1, -1),
    kind: "test",
    signature: cutSignature(call.text.replace(/\s+/g, " ")),
  };
}

/** A Scala call's or infix's symbol: an sbt build's statement, a test or suite, else none. */
function scalaDescribe(def: NodeLike, type: string): DeclaredName | undefined {
  if (type !== "call_expression" && type !== "infix_expression") return undefined;
  return sbtDescribe(def, type) ??
    (type === "call_expression" ? scalaTest(def) : scalaSpecTest(def));
}

/** Scala members are public unless `private` (`private[pkg]` too) says otherwise. */
function scalaPublic(def: NodeLike): boolean {
  // A modifier the parse read as an annotation (see `scalaParseText`): `private enum A`.
  if (def.namedChildren.some((c) => c.type === "annotation" && c.text.startsWith("@rivate"))) {
    return false;
  }
  const mods = def.namedChildren.find((c) => c.type === "modifiers");
  return !mods?.namedChildren.some((c) => c.type === "access_modifier" && /^private/.test(c.text));
}

/** Modifiers before a Scala 3 `enum` at a line's start (`private[ox] final enum A:`). */
const SCALA_ENUM_MODIFIERS =
  /^[ \t]*(?:(?:(?:private|protected)(?:\[[\w.]*\])?|final|sealed|abstract|open)[ \t]+)+enum\b/gm;

/**
 * The text tree-sitter-scala reads for a Scala file: tree-sitter-scala 0.24 takes no modifier
 * before `enum` (`private enum Signal:`, `private[ox] enum Result:`) and read it as an error,
 * cut from the skeleton, and the enum as public. Each such modifier's first letter reads `@`:
 * an annotation the grammar takes (`@rivate[ox] enum`), the text's length and lines kept; the
 * views cut their text from the file, and `@rivate` tells a private one (`private enum A:` reads
 * `@rivate enum A:`). Undefined when there is none.
 */
function scalaParseText(text: string): string | undefined {
  if (!text.includes("enum")) return undefined;
  let changed = false;
  const read = text.replace(SCALA_ENUM_MODIFIERS, (line) => {
    changed = true;
    return line.replace(
      /\b(private|protected|final|sealed|abstract|open)\b/g,
      (w) => `@${w.slice(1)}`,
    );
  });
  return changed ? read : undefined;
}

const SCALA: Omit<LanguageSpec, "id" | "extensions"> = {
  grammar: "scala",
  pkg: "tree-sitter-scala@0.24.0",
  wasm: "tree-sitter-scala.wasm",
  parseText: scalaParseText,
  interpreters: ["scala"],
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: new Set(["compilation_unit", "template_body", "enum_body", "with_template_body"]),
  // A test's block (`test("adds") { ... }`, see `scalaTest`) is a body too.
  functionBodies: new Set([
    "function_definition.body",
    "given_definition.body",
    "call_expression.arguments",
  ]),
  // A ScalaTest spec's block (`"pops" in { ... }`, see `scalaSpecTest`), and Scala 3's test body
  // after a colon (`test("adds"):`, see `scalaTest`; another call's, `new R:` with its members, is
  // no body).
  blockBodies: new Set(["infix_expression.right", "call_expression.arguments"]),
  wholeValue: sbtProject,
  // A body is any expression: blocks, and the expressions that run long, are elided; a short
  // expression (`def size: Int = items.size`) stays as it is written.
  bodyTypes: new Set([
    "block",
    "indented_block",
    "match_expression",
    "call_expression",
    "if_expression",
    "try_expression",
    "for_expression",
    "while_expression",
  ]),
  typeBodies: new Set(["enum_body"]),
  // A self-type (`trait A { this: B =>`) says what the members may use: it stays with the body.
  headers: new Set(["self_type"]),
  keep: scalaKeep,
  // A suite's body after a colon (`describe("Stack"):`) holds its tests in an indented block.
  transparent: new Set(["indented_block"]),
  attach: new Set(["comment", "block_comment"]),
  docBlocks: true,
  definitions: {
    class_definition: { kind: "class" },
    object_definition: { kind: "object" },
    package_object: { kind: "object" },
    trait_definition: { kind: "trait" },
    enum_definition: { kind: "enum" },
    function_definition: { kind: "function" },
    function_declaration: { kind: "method" },
    val_definition: { kind: "val", nameField: "pattern" },
    var_definition: { kind: "var", nameField: "pattern" },
    val_declaration: { kind: "val" },
    var_declaration: { kind: "var" },
    type_definition: { kind: "type" },
    given_definition: { kind: "given" },
    simple_enum_case: { kind: "case" },
    full_enum_case: { kind: "case" },
    call_expression: { kind: "test", checked: true },
    // An sbt build's setting (`name := "core"`, see `sbtSetting`).
    infix_expression: { kind: "setting", checked: true },
  },
  expands: new Set(["suite"]),
  values: new Set(["val_definition.value", "var_definition.value"]),
  isPublic: scalaPublic,
  defines: (node, type) =>
    (type !== "call_expression" && type !== "infix_expression") ||
    scalaDescribe(node, type) !== undefined,
  describe: scalaDescribe,
  symbolName: (def, type) => scalaDescribe(def, type)?.name,
  opaque: new Set(["string", "interpolated_string_expression"]),
};

/** The interpreter a `#!` line names, without its path and version digits (`python3` -> `python`). */
function interpreterOf(text: string): string | undefined {
  if (!text.startsWith("#!")) return undefined;
  const end = text.indexOf("\n");
  const words = text.slice(2, end < 0 ? Math.min(text.length, 256) : Math.min(end, 256))
    .trim().split(/\s+/);
  let at = 0;
  const base = (word: string | undefined) => word?.slice(word.lastIndexOf("/") + 1) ?? "";
  if (base(words[0]) === "env") {
    // `env -S bash -e`, `env LANG=C sh`: options and settings come before the command.
    at = 1;
    while (at < words.length && (words[at].startsWith("-") || words[at].includes("="))) at++;
  }
  return base(words[at]).replace(/[\d.]+$/, "") || undefined;
}

/**
 * Every supported language, in a fixed order.
 *
 * @example
 * ```ts
 * import { LANGUAGES } from "./languages.ts";
 * LANGUAGES.map((l) => l.id); // ["python", "javascript", "typescript", "tsx", "go", ...]
 * ```
 */
export const LANGUAGES: LanguageSpec[] = [
  { id: "python", extensions: [".py", ".pyi"], ...PYTHON },
  {
    id: "javascript",
    extensions: [".js", ".mjs", ".cjs", ".jsx"],
    grammar: "javascript",
    pkg: "tree-sitter-javascript@0.25.0",
    wasm: "tree-sitter-javascript.wasm",
    ...JS_BASE,
    hollow: (text, options) => jsHollow(text, false, true, options),
  },
  {
    id: "typescript",
    extensions: [".ts", ".mts", ".cts"],
    grammar: "typescript",
    pkg: "tree-sitter-typescript@0.23.2",
    wasm: "tree-sitter-typescript.wasm",
    ...JS_BASE,
    hollow: (text, options) => jsHollow(text, true, false, options),
    parseText: tsParseText,
  },
  {
    id: "tsx",
    extensions: [".tsx"],
    grammar: "tsx",
    pkg: "tree-sitter-typescript@0.23.2",
    wasm: "tree-sitter-tsx.wasm",
    ...JS_BASE,
    hollow: (text, options) => jsHollow(text, true, true, options),
    parseText: tsParseText,
  },
  { id: "go", extensions: [".go"], ...GO },
  { id: "rust", extensions: [".rs"], ...RUST },
  { id: "java", extensions: [".java"], ...JAVA },
  {
    id: "c",
    extensions: [".c", ".h"],
    grammar: "c",
    pkg: "tree-sitter-c@0.24.1",
    wasm: "tree-sitter-c.wasm",
    ...C_BASE,
  },
  {
    id: "cpp",
    extensions: [
      ".cc",
      ".cpp",
      ".cxx",
      ".c++",
      ".hpp",
      ".hh",
      ".hxx",
      ".h++",
      ".ipp",
      ".tpp",
      // CUDA is C++ with a few words more (`__global__`, `<<<grid, block>>>` in bodies).
      ".cu",
      ".cuh",
      // An Arduino sketch is C++ (the IDE adds `#include <Arduino.h>` and prototypes before
      // compiling it).
      ".ino",
    ],
    grammar: "cpp",
    pkg: "tree-sitter-cpp@0.23.4",
    wasm: "tree-sitter-cpp.wasm",
    ...C_BASE,
    containers: new Set([...C_BASE.containers]),
    transparent: new Set([...C_BASE.transparent]),
    parseText: cppParseText,
    // Qt's `Q_PROPERTY(QColor color READ color)`, read as a field, and Catch2's
    // `TEST_CASE("adds") { ... }`, read as a function (see `blankMacroWords`).
    describe: (def, type, text) => qtProperty(def, type, text) ?? catchTest(def, type, text),
  },
  { id: "ruby", extensions: [".rb", ".rake", ".gemspec", ".ru"], ...RUBY },
  { id: "php", extensions: [".php", ".phtml"], ...PHP },
  { id: "csharp", extensions: [".cs"], ...CSHARP },
  { id: "bash", extensions: [".sh", ".bash", ".bats"], ...BASH },
  { id: "scala", extensions: [".scala", ".sc", ".sbt"], ...SCALA },
  { id: "kotlin", extensions: [".kt", ".kts"], ...KOTLIN },
  { id: "lua", extensions: [".lua"], ...LUA },
  { id: "zig", extensions: [".zig"], ...ZIG },
  { id: "elixir", extensions: [".ex", ".exs"], ...ELIXIR },
  { id: "powershell", extensions: [".ps1", ".psm1"], ...POWERSHELL },
  { id: "haskell", extensions: [".hs"], ...HASKELL },
];

/**
 * The extensions the grammars named by `ids` read, in turn: for a table by extension outside this
 * one (the summary's comment tokens) that reads a file as its grammar does. Throws on an id that
 * names no grammar.
 *
 * @example
 * ```ts
 * import { extensionsOf } from "./languages.ts";
 * extensionsOf(["c", "go"]); // [".c", ".h", ".go"]
 * ```
 */
export function extensionsOf(ids: string[]): string[] {
  return ids.flatMap((id) => {
    const language = LANGUAGES.find((l) => l.id === id);
    if (!language) throw new Error(`No grammar "${id}" in the language table`);
    return language.extensions;
  });
}

/** The C++ grammar's entry, for the `.h` files that are C++ by their words. */
const CPP = LANGUAGES.find((l) => l.id === "cpp")!;

/**
 * Whether a path is a `.h` file's: C, C++ or Objective-C by its words.
 *
 * @example
 * ```ts
 * import { isHeaderFile } from "./languages.ts";
 * isHeaderFile("include/Cart.H"); // true
 * isHeaderFile("src/cart.c"); // false
 * ```
 */
export function isHeaderFile(path: string): boolean {
  return extensionOf(lastPart(path)).toLowerCase() === ".h";
}

const BY_EXTENSION = new Map(LANGUAGES.flatMap((l) => l.extensions.map((e) => [e, l] as const)));
const BY_NAME = new Map(LANGUAGES.flatMap((l) => (l.names ?? []).map((n) => [n, l] as const)));
/** The JavaScript grammars' entries by grammar, for the scripts of components. */
const BY_GRAMMAR = new Map(LANGUAGES.map((l) => [l.grammar, l] as const));
const BY_INTERPRETER = new Map(
  LANGUAGES.flatMap((l) => (l.interpreters ?? []).map((n) => [n, l] as const)),
);

/**
 * The language of a path by its extension, or undefined when no grammar covers it. A Vue or
 * Svelte component's is TypeScript, the grammar its scripts are mostly read with
 * ({@linkcode languageOf} reads each script's `lang`).
 *
 * @example
 * ```ts
 * import { languageFor } from "./languages.ts";
 * languageFor("src/app.tsx")?.grammar; // "tsx"
 * languageFor("README.md"); // undefined
 * ```
 */
export function languageFor(path: string): LanguageSpec | undefined {
  const name = lastPart(path);
  const ext = extensionOf(name);
  if (isComponentFile(name)) return BY_GRAMMAR.get("typescript");
  return ext ? BY_EXTENSION.get(ext.toLowerCase()) : BY_NAME.get(name.toLowerCase());
}

/**
 * The language of a file by its path ({@linkcode languageFor}), or for a file with no extension
 * by the interpreter its `#!` line names (`#!/usr/bin/env bash` reads as shell). A `.h` file with
 * C++'s words ({@linkcode isCpp}) is C++. A Vue or Svelte component's is its first script's
 * (`lang="ts"`: TypeScript, `lang="tsx"`: TSX, else JavaScript), or none without a script.
 *
 * @example
 * ```ts
 * import { languageOf } from "./languages.ts";
 * languageOf("bin/deploy", "#!/usr/bin/env bash\necho hi\n")?.id; // "bash"
 * languageOf("bin/tool", "echo hi\n"); // undefined
 * languageOf("include/cart.h", "namespace shop {\nclass Cart;\n}\n")?.id; // "cpp"
 * languageOf("Button.vue", '<script setup lang="ts">\nconst a = 1\n</script>\n')?.id; // "typescript"
 * languageOf("Logo.vue", "<template>\n  <svg/>\n</template>\n"); // undefined
 * ```
 */
export function languageOf(path: string, text: string | undefined): LanguageSpec | undefined {
  const known = languageFor(path);
  if (text !== undefined && isComponentFile(lastPart(path))) {
    // A component's scripts are what the code views read: none, and it is not code to them.
    const script = componentParts(text).find((p) => p.kind === "script");
    return script && BY_GRAMMAR.get(script.grammar!);
  }
  if (known?.id === "c" && text !== undefined) {
    // No grammar here reads Objective-C: the C grammar's reading of a header's `@interface` drops
    // its `@` and what follows, so such a header is shown by the views that need no grammar.
    if (isObjectiveC(text)) return undefined;
    // The C grammar reads a C++ header's classes, templates and namespaces as errors, or as
    // functions and variables of other names, or loses them.
    if (isHeaderFile(path) && isCpp(text)) return CPP;
  }
  if (known || text === undefined || extensionOf(lastPart(path))) return known;
  const interpreter = interpreterOf(text);
  return interpreter ? BY_INTERPRETER.get(interpreter) : undefined;
}

const WINDOWS = Deno.build.os === "windows";

/** A path's last part (on Windows `\\` separates too, and a drive letter is not part of it). */
function lastPart(path: string): string {
  const isSep = (c: string) => c === "/" || (WINDOWS && c === "\\");
  const start = WINDOWS && /^[A-Za-z]:/.test(path) ? 2 : 0;
  let end = path.length;
  while (end > start && isSep(path[end - 1])) end--;
  let i = end - 1;
  while (i >= start && !isSep(path[i])) i--;
  return path.slice(i + 1, end);
}

/**
 * Every extension a grammar covers (with dot), sorted: the code views'
 * `extensions`, so other files fall back to `summary` in the transform stage.
 *
 * @example
 * ```ts
 * import { CODE_EXTENSIONS } from "./languages.ts";
 * CODE_EXTENSIONS.includes(".rs"); // true
 * ```
 */
export const CODE_EXTENSIONS: string[] = [...BY_EXTENSION.keys(), ".svelte", ".vue"].sort();
