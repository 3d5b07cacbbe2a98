/**
 * Zig in the language table (`languages.ts`): which nodes of tree-sitter-zig's
 * tree the code views keep, elide and name. A declaration's value and a test's
 * block have no field name in the grammar, so `fieldOf` names them.
 *
 * @module
 */

/** A syntax node as the language table sees it (its `NodeLike`, which imports this file). */
interface ZigNode {
  type: string;
  text: string;
  namedChildren: ZigNode[];
  firstNamedChild: ZigNode | null;
  parent: ZigNode | null;
  childForFieldName(name: string): ZigNode | null;
}

/** Items of a file or a container: declarations, fields, tests, `usingnamespace`, `comptime`. */
const ZIG_KEEP = new Set([
  "variable_declaration",
  "function_declaration",
  "container_field",
  "test_declaration",
  "using_namespace_declaration",
  "comptime_declaration",
]);

/** Container types a `const` can hold, as the kind the outline shows. */
const CONTAINER_KINDS: Record<string, string> = {
  struct_declaration: "struct",
  enum_declaration: "enum",
  union_declaration: "union",
  opaque_declaration: "opaque",
  error_set_declaration: "error",
};

/**
 * The field of a child tree-sitter-zig names none: a declaration's value (`= 10`; a container,
 * `= struct {...}`, is its body), and the block of a test or a `comptime` declaration, its body.
 */
function zigFieldOf(parentType: string, childType: string): string | undefined {
  if (parentType === "variable_declaration") {
    // A container is the body (the outline's signature ends before it); other values are values.
    if (CONTAINER_KINDS[childType] !== undefined && childType !== "error_set_declaration") {
      return "body";
    }
    return childType === "identifier" ? undefined : "value";
  }
  if (parentType === "test_declaration" || parentType === "comptime_declaration") {
    return childType === "block" ? "body" : undefined;
  }
  return undefined;
}

/** A declaration's name: its identifier (the grammar gives it no field). */
function zigName(def: ZigNode, type: string): ZigNode | null | undefined {
  if (type !== "variable_declaration") return undefined;
  return def.namedChildren.find((c) => c.type === "identifier") ?? null;
}

/** A `const` holding a container is that container's kind; a `var` is a variable. */
function zigKind(def: ZigNode, kind: string): string {
  if (def.type !== "variable_declaration") return kind;
  const container = def.namedChildren.find((c) => CONTAINER_KINDS[c.type] !== undefined);
  if (container) return CONTAINER_KINDS[container.type];
  return /^(?:pub\s+)?(?:export\s+|extern\s+(?:"[^"]*"\s+)?)?(?:threadlocal\s+)?var\b/.test(
      def.text,
    )
    ? "variable"
    : kind;
}

/**
 * Zig declarations are public with `pub` (or `export`); a container's fields always are, and so
 * are tests (what a file tests, listed as other languages' tests are).
 */
function zigPublic(def: ZigNode): boolean {
  return def.type === "container_field" || def.type === "test_declaration" ||
    /^(?:pub|export)\b/.test(def.text);
}

/**
 * A test declaration as a symbol, kind `test`, named by its string (`test "adds" { ... }`:
 * `adds`) or its identifier (a doctest, `test add { ... }`: `add`); a test with no name (`test {
 * _ = @import("a.zig"); }`, a file's test root) is none.
 */
function zigTest(def: ZigNode, type: string): DeclaredName | undefined {
  if (type !== "test_declaration") return undefined;
  const title = def.namedChildren.find((c) => c.type === "string" || c.type === "identifier");
  const name = title?.type === "string"
    ? title.namedChildren.find((c) => c.type === "string_content")?.text
    : title?.text;
  if (!name || name.includes("\n") || name.length > 300) return undefined;
  return { name, kind: "test", signature: `test ${title!.text}` };
}

/** A symbol a test declaration defines (the language table's `DeclaredName`). */
interface DeclaredName {
  name: string;
  signature: string;
  kind: string;
}

/**
 * Zig's entry of the language table, without its id and extensions.
 *
 * @example
 * ```ts
 * import { ZIG } from "./_zig.ts";
 * ZIG.grammar; // "zig"
 * ```
 */
export const ZIG = {
  grammar: "zig",
  pkg: "@tree-sitter-grammars/tree-sitter-zig@1.1.2",
  wasm: "tree-sitter-zig.wasm",
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: new Set([
    "source_file",
    "struct_declaration",
    "enum_declaration",
    "union_declaration",
    "opaque_declaration",
  ]),
  functionBodies: new Set([
    "function_declaration.body",
    "test_declaration.body",
    "comptime_declaration.body",
  ]),
  bodyTypes: new Set(["block"]),
  typeBodies: new Set(["enum_declaration"]),
  // A container's tag type (`enum(u16)`, `packed struct(u32)`, `enum(Tag)`) has no field name:
  // it stays with the container. No item of a container is one of these alone.
  headers: new Set(["builtin_type", "identifier", "field_expression", "call_expression"]),
  keep: (_node: ZigNode, type: string = _node.type) => ZIG_KEEP.has(type),
  transparent: new Set<string>(),
  attach: new Set(["comment"]),
  definitions: {
    function_declaration: { kind: "function" },
    variable_declaration: { kind: "constant" },
    container_field: { kind: "field" },
    test_declaration: { kind: "test", checked: true },
  },
  defines: (def: ZigNode, type: string) => type !== "test_declaration" || !!zigTest(def, type),
  describe: zigTest,
  symbolName: (def: ZigNode, type: string) => zigTest(def, type)?.name,
  values: new Set(["variable_declaration.value"]),
  isPublic: zigPublic,
  nameNode: zigName,
  fieldOf: zigFieldOf,
  kindOf: zigKind,
  opaque: new Set(["string", "multiline_string"]),
};
