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

/** hspec's suites: `describe "add" $ do ...`, `context "when empty" $ do ...`. */
const HSPEC_SUITES = new Set([
  "describe",
  "context",
  "xdescribe",
  "xcontext",
  "fdescribe",
  "fcontext",
]);

/** hspec's tests: `it "adds" $ ...`, `specify`, QuickCheck's `prop`. */
const HSPEC_TESTS = new Set([
  "it",
  "specify",
  "prop",
  "xit",
  "xspecify",
  "fit",
  "fspecify",
  "xprop",
]);

/** A symbol the language table names at once (its `DeclaredName`). */
interface DeclaredName {
  name: string;
  signature: string;
  kind: string;
}

/**
 * An hspec suite or test: `describe "add" $ do ...` (kind `suite`), `it "adds" $ ...` (kind
 * `test`), named by its title; undefined for another node.
 */
function hspecCall(node: HaskellNode | null | undefined): DeclaredName | undefined {
  if (node?.type !== "infix" || node.childForFieldName("operator")?.text !== "$") return undefined;
  const called = node.childForFieldName("left_operand");
  if (called?.type !== "apply") return undefined;
  const word = called.childForFieldName("function");
  const title = called.childForFieldName("argument");
  if (word?.type !== "variable" || title?.type !== "literal") return undefined;
  const kind = HSPEC_SUITES.has(word.text)
    ? "suite"
    : HSPEC_TESTS.has(word.text)
    ? "test"
    : undefined;
  const quoted = title.text;
  if (!kind || !/^"[^"\n]*"$/.test(quoted) || quoted.length > 300) return undefined;
  return { name: quoted.slice(1, -1), kind, signature: `${word.text} ${quoted}` };
}

/** The first statement of a `do` block that is no comment, or undefined. */
function firstStatement(block: HaskellNode | null | undefined): HaskellNode | undefined {
  if (block?.type !== "do") return undefined;
  return block.namedChildren.find((c) => c.type !== "comment" && c.type !== "haddock");
}

/**
 * An hspec spec: the equation of a top-level value whose right-hand side is a `do` block of
 * suites and tests (`spec = do describe "add" $ ...`), as a symbol of kind `suite` named by the
 * value; undefined for another equation.
 */
function hspecSpec(match: HaskellNode): DeclaredName | undefined {
  const first = firstStatement(match.childForFieldName("expression"));
  if (first?.type !== "exp" || !hspecCall(first.firstNamedChild)) return undefined;
  const bind = match.parent;
  const name = bind?.type === "bind" ? bind.childForFieldName("name")?.text : undefined;
  return name === undefined ? undefined : { name, kind: "suite", signature: `${name} = do` };
}

/**
 * A class's or an instance's symbol with its line up to its members, without the `where` that
 * opens them (`instance Priced Inventory`), as another language's class line ends before its `{`.
 */
function haskellClass(def: HaskellNode, type: string): DeclaredName | undefined {
  if (type !== "class" && type !== "instance") return undefined;
  const name = type === "instance" ? haskellName(def, type) : def.childForFieldName("name")?.text;
  const members = def.childForFieldName("declarations");
  if (!name || !members || members.startIndex === undefined || def.startIndex === undefined) {
    return undefined;
  }
  const head = def.text.slice(0, members.startIndex - def.startIndex).replace(/\s+/g, " ")
    .replace(/\s*\bwhere\s*$/, "").trim();
  return { name, kind: type, signature: head.length > 240 ? `${head.slice(0, 237)}...` : head };
}

/** The symbol an hspec spec, suite or test defines (see {@linkcode hspecSpec}), or a class's. */
function haskellDescribe(def: HaskellNode, type: string): DeclaredName | undefined {
  if (type === "match") return hspecSpec(def);
  if (type === "infix") return hspecCall(def);
  return haskellClass(def, type);
}

/**
 * Whether a node defines a symbol: a spec's equation, an hspec call; a value whose equation is a
 * spec is that spec's symbol alone.
 */
function haskellDefines(def: HaskellNode, type: string): boolean {
  if (type === "match" || type === "infix") return haskellDescribe(def, type) !== undefined;
  if (type !== "bind") return true;
  const match = def.childForFieldName("match");
  return !match || hspecSpec(match) === undefined;
}

/** Whether a spec's or a suite's right-hand side holds suites and tests, walked for them. */
function haskellWalksBody(def: HaskellNode): boolean {
  if (def.type === "match") return hspecSpec(def) !== undefined;
  return def.type === "infix" && hspecCall(def)?.kind === "suite" &&
    def.childForFieldName("right_operand")?.type === "do";
}

/**
 * The field of a child tree-sitter-haskell names none: the call a `do` block's statement makes (an
 * hspec suite or test, `it "adds" $ ...`), walked as a value is, for the tests it defines.
 */
function haskellFieldOf(parentType: string, childType: string): string | undefined {
  return parentType === "exp" && childType === "infix" ? "call" : undefined;
}

/**
 * What a view keeps of a container: every declaration, import and pragma; in a spec's or a
 * suite's `do` block its suites and tests alone.
 */
function haskellKeep(
  node: HaskellNode,
  type: string = node.type,
  container?: HaskellNode,
): boolean {
  if (container?.type === "do") {
    return type === "exp" && hspecCall(node.firstNamedChild) !== undefined;
  }
  return !HASKELL_DROP.has(type);
}

/**
 * An instance's name: its class and type (`Priced Inventory`); an operator's equation, which
 * the grammar gives no name, its operator's (`a <+> b = ...`: `(<+>)`, ``x `plus` y``: `plus`).
 */
function haskellName(def: HaskellNode, type: string): string | undefined {
  if (type === "match") return hspecSpec(def)?.name;
  if (type === "infix") return hspecCall(def)?.name;
  if (type === "function") return haskellOperator(def);
  if (type !== "instance") return undefined;
  const cls = def.childForFieldName("name")?.text;
  const of = def.childForFieldName("patterns")?.text;
  const name = [cls, of].filter(Boolean).join(" ").replace(/\s+/g, " ");
  return name.length > 0 && name.length <= 120 ? name : undefined;
}

/** The operator an equation defines (`a <+> b = ...`), as a name: `(<+>)`, or `plus` for `` `plus` ``. */
function haskellOperator(def: HaskellNode): string | undefined {
  if (def.childForFieldName("name")) return undefined;
  const head = def.firstNamedChild;
  if (head?.type !== "infix") return undefined;
  const op = head.childForFieldName("operator");
  if (op?.type === "operator" || op?.type === "constructor_operator") return `(${op.text})`;
  return op?.type === "infix_id" ? op.firstNamedChild?.text : undefined;
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
 * Where a block comment that opens the file starts: tree-sitter-haskell's scanner, looking for a
 * pragma below it, starts the comment after its `{-` and the blanks that follow (`{-\n
 * Copyright ...\n-}\n\n{-# LANGUAGE ... #-}`), so a view that left it out kept the `{-`, an
 * opener never closed. Undefined for a comment that starts with its opener, and another node.
 */
function haskellCommentStart(text: string, node: HaskellNode): number | undefined {
  const start = node.startIndex ?? 0;
  if (node.type !== "comment" && node.type !== "haddock") return undefined;
  if (text.startsWith("{-", start) || text.startsWith("--", start)) return undefined;
  let at = start;
  while (at > 0 && /\s/.test(text[at - 1])) at--;
  return at >= 2 && text.startsWith("{-", at - 2) ? at - 2 : undefined;
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
  // A class's or an instance's declaration, a `do` block's statement: items of their lists.
  itemFields: new Set(["declaration", "statement"]),
  // An hspec call's right operand (`it "adds" $ ...`) is its body.
  functionBodies: new Set([
    "match.expression",
    "function.binds",
    "bind.binds",
    "infix.right_operand",
  ]),
  bodyTypes: new Set([...EXPRESSIONS, "local_binds"]),
  keep: haskellKeep,
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
    match: { kind: "suite", checked: true },
    infix: { kind: "test", checked: true },
  },
  defines: haskellDefines,
  describe: haskellDescribe,
  walksBody: haskellWalksBody,
  // A kept item is walked into its equations and an hspec spec's calls, never into its types or
  // an operator's definition (`Key x <> Key y = ...`: no call, its operand stays).
  descend: new Set(["function", "bind", "match", "exp"]),
  fieldOf: haskellFieldOf,
  symbolName: haskellName,
  values: new Set(["exp.call"]),
  isPublic: haskellPublic,
  kindOf: haskellKind,
  opaque: new Set(["string", "exports", "import", "quasiquote"]),
  commentStart: haskellCommentStart,
};
