/**
 * Haskell in the language table (`languages.ts`): which nodes of
 * tree-sitter-haskell's tree the code views keep, elide and name. Type
 * signatures, data types, classes and instances stay; an equation keeps its
 * head and guards, its right-hand sides and `where` bindings elided.
 *
 * @module
 */

/** A syntax node as the language table sees it (its `NodeLike`, which imports this file). */
interface HaskellNode {
  type: string;
  text: string;
  namedChildren: HaskellNode[];
  firstNamedChild: HaskellNode | null;
  parent: HaskellNode | null;
  startIndex?: number;
  tree?: object;
  childForFieldName(name: string): HaskellNode | null;
}

/**
 * The expressions the grammar's `expression` supertype stands for but one token (a name, a
 * literal, `()`): an equation's right-hand side (`match.expression`) is one of them, the body the
 * views elide; a token alone (`limit = 10`, `f 0 = Nothing`) is shorter than its marker, and stays.
 */
const EXPRESSIONS = [
  "apply",
  "arithmetic_sequence",
  "case",
  "conditional",
  "do",
  "infix",
  "lambda",
  "lambda_case",
  "lambda_cases",
  "left_section",
  "let_in",
  "list",
  "list_comprehension",
  "multi_way_if",
  "negation",
  "parens",
  "prefix_tuple",
  "prefix_unboxed_sum",
  "prefix_unboxed_tuple",
  "projection",
  "projection_selector",
  "quasiquote",
  "quote",
  "record",
  "right_section",
  "splice",
  "tuple",
  "typed_quote",
  "unboxed_sum",
  "unboxed_tuple",
];

/** What no view keeps: text the parser could not read (every declaration, import and pragma stays). */
const HASKELL_DROP = new Set(["ERROR"]);

/** Equations: a function's (`add a b = ...`) and a value's (`limit = 10`). */
const EQUATIONS = new Set(["function", "bind"]);

/** What a parse tells of its module, read once a tree (see {@linkcode moduleFacts}). */
interface ModuleFacts {
  /** The names the export list names, or undefined without a list (every name is exported). */
  exported: Set<string> | undefined;
  /** Where each equation starts that follows its signature or an equation of its name. */
  repeats: Set<number>;
}

const FACTS = new WeakMap<object, ModuleFacts>();

/**
 * The module's export list and its equations that repeat a name, read in one pass over the
 * top-level declarations the first time a tree is asked (each definition asks: reading them again
 * for each would take time that grows with the square of the file).
 */
function moduleFacts(def: HaskellNode): ModuleFacts {
  const tree = def.tree ?? def;
  const known = FACTS.get(tree);
  if (known) return known;
  let root: HaskellNode | null = def;
  for (let i = 0; root && root.type !== "haskell" && i < 8; i++) root = root.parent;
  const header = root?.namedChildren.find((c) => c.type === "header");
  const exports = header?.childForFieldName("exports");
  let exported: Set<string> | undefined;
  if (exports) {
    exported = new Set();
    for (const item of exports.namedChildren) {
      const named = item.childForFieldName("variable") ?? item.childForFieldName("type") ??
        item.childForFieldName("operator");
      if (named) exported.add(plainName(named.text.replace(/^.*\./, "")));
    }
  }
  const repeats = new Set<number>();
  let last: string | undefined;
  for (const item of def.parent?.namedChildren ?? []) {
    if (item.type === "haddock" || item.type === "comment" || item.type === "pragma") continue;
    const name = item.childForFieldName("name")?.text;
    const plain = name === undefined ? undefined : plainName(name);
    if (EQUATIONS.has(item.type) && plain !== undefined && plain === last) {
      repeats.add(item.startIndex ?? -1);
    }
    last = item.type === "signature" || EQUATIONS.has(item.type) ? plain : undefined;
  }
  const facts = { exported, repeats };
  FACTS.set(tree, facts);
  return facts;
}

/** A definition's name as the export list names it: an operator without its parentheses. */
function plainName(name: string): string {
  return name.replace(/^\((.*)\)$/, "$1");
}

/**
 * Whether a definition is part of the module's interface: a top-level name its export list
 * names (every one without a list), a class's or an instance's member; an equation that follows
 * its signature or another equation of its name is listed with that one, not again.
 */
function haskellPublic(def: HaskellNode, name: string): boolean {
  if (def.parent?.type !== "declarations") return true;
  const facts = moduleFacts(def);
  if (EQUATIONS.has(def.type) && facts.repeats.has(def.startIndex ?? -1)) return false;
  return facts.exported === undefined || facts.exported.has(plainName(name));
}

/** An instance's name: its class and type (`Priced Inventory`). */
function haskellName(def: HaskellNode, type: string): string | undefined {
  if (type !== "instance") return undefined;
  const cls = def.childForFieldName("name")?.text;
  const of = def.childForFieldName("patterns")?.text;
  const name = [cls, of].filter(Boolean).join(" ").replace(/\s+/g, " ");
  return name.length > 0 && name.length <= 120 ? name : undefined;
}

/** A signature of a function type is a function's; another is a value's. */
function haskellKind(def: HaskellNode, kind: string): string {
  if (def.type === "signature") {
    return def.childForFieldName("type")?.type === "function" ? "function" : "value";
  }
  if (def.type === "bind") return "value";
  return kind;
}

/**
 * Haskell's entry of the language table, without its id and extensions.
 *
 * @example
 * ```ts
 * import { HASKELL } from "./_haskell.ts";
 * HASKELL.grammar; // "haskell"
 * ```
 */
export const HASKELL = {
  grammar: "haskell",
  pkg: "tree-sitter-haskell@0.23.1",
  wasm: "tree-sitter-haskell.wasm",
  interpreters: ["runhaskell", "runghc", "stack"],
  lineComment: "--",
  // `...` where a right-hand side was: `add a b = ...`, each guard's `| a > 0 = ...`.
  bodyMarker: "...",
  valueMarker: "...",
  // The imports stay as they are, a comment after the last one too (the grammar puts the
  // haddock of the first declaration there).
  containers: new Set([
    "haskell",
    "declarations",
    "class_declarations",
    "instance_declarations",
  ]),
  // A class's or an instance's declaration: items of their lists, not headers.
  itemFields: new Set(["declaration"]),
  functionBodies: new Set(["match.expression", "function.binds", "bind.binds"]),
  bodyTypes: new Set([...EXPRESSIONS, "local_binds"]),
  keep: (_node: HaskellNode, type: string = _node.type) => !HASKELL_DROP.has(type),
  transparent: new Set<string>(),
  attach: new Set(["comment", "haddock", "pragma"]),
  definitions: {
    signature: { kind: "function" },
    function: { kind: "function" },
    bind: { kind: "value" },
    data_type: { kind: "data" },
    newtype: { kind: "newtype" },
    type_synomym: { kind: "type" },
    type_family: { kind: "type family" },
    class: { kind: "class" },
    instance: { kind: "instance" },
    pattern_synonym: { kind: "pattern" },
  },
  symbolName: haskellName,
  values: new Set<string>(),
  isPublic: haskellPublic,
  kindOf: haskellKind,
  opaque: new Set(["string", "exports", "import", "quasiquote"]),
};
