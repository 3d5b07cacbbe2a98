/**
 * Solidity in the language table (`languages.ts`): which nodes of
 * tree-sitter-solidity's tree the code views keep, elide and name. Contracts,
 * interfaces and libraries hold their members; NatSpec (`///` and `/**`)
 * documents the item after it.
 *
 * @module
 */

/** A syntax node as the language table sees it (its `NodeLike`, which imports this file). */
interface SolidityNode {
  type: string;
  text: string;
  namedChildren: SolidityNode[];
  firstNamedChild: SolidityNode | null;
  parent: SolidityNode | null;
  childForFieldName(name: string): SolidityNode | null;
}

/**
 * Foundry's test functions: `test...` and `testFuzz_...` (a `testFail...` too) and invariants
 * (`invariant_...`), each a public function of a contract that inherits `Test`.
 */
const FOUNDRY_TEST = /^(?:test|invariant)(?:[A-Z0-9_]|$)/;

/**
 * Whether a declaration is visible outside its contract: all but a `private` one. An `internal`
 * function or variable is the API of a library (OpenZeppelin's `Math.max`) and of a contract
 * written to be inherited (`ERC20._mint`), as Java's `protected` is.
 */
function solidityPublic(def: SolidityNode): boolean {
  const visibility = def.childForFieldName("visibility") ??
    def.namedChildren.find((c) => c.type === "visibility");
  return visibility?.text !== "private";
}

/** `receive() external payable {}` and `fallback() external {}`: named by their word. */
function solidityName(def: SolidityNode, type: string): string | undefined {
  if (type === "fallback_receive_definition") {
    return /^\s*(receive|fallback)\b/.exec(def.text)?.[1] ?? "fallback";
  }
  if (type === "constructor_definition") return "constructor";
  return undefined;
}

/** A symbol the language table names at once (its `DeclaredName`). */
interface DeclaredName {
  name: string;
  signature: string;
  kind: string;
}

/**
 * A Foundry test function (`function test_add() public { ... }`) as a symbol of kind `test`, its
 * signature the text up to its body; any other definition is read as its node type says.
 */
function solidityTest(def: SolidityNode, type: string): DeclaredName | undefined {
  if (type !== "function_definition") return undefined;
  const name = def.childForFieldName("name")?.text ?? "";
  if (!FOUNDRY_TEST.test(name)) return undefined;
  const body = def.childForFieldName("body");
  const head = body ? def.text.slice(0, def.text.length - body.text.length) : def.text;
  return { name, kind: "test", signature: head.replace(/\s+/g, " ").trim().replace(/;$/, "") };
}

/**
 * Solidity's entry of the language table, without its id and extensions.
 *
 * @example
 * ```ts
 * import { SOLIDITY } from "./_solidity.ts";
 * SOLIDITY.grammar; // "solidity"
 * ```
 */
export const SOLIDITY = {
  grammar: "solidity",
  pkg: "tree-sitter-solidity@1.2.13",
  wasm: "tree-sitter-solidity.wasm",
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: new Set(["source_file", "contract_body", "struct_body", "enum_body"]),
  functionBodies: new Set([
    "function_definition.body",
    "modifier_definition.body",
    "constructor_definition.body",
    "fallback_receive_definition.body",
  ]),
  bodyTypes: new Set(["function_body"]),
  typeBodies: new Set(["struct_body", "enum_body"]),
  keep: (_node: SolidityNode, type: string = _node.type) => type !== "ERROR",
  transparent: new Set<string>(),
  attach: new Set(["comment"]),
  docBlocks: true,
  docLines: true,
  definitions: {
    contract_declaration: { kind: "contract" },
    interface_declaration: { kind: "interface" },
    library_declaration: { kind: "library" },
    struct_declaration: { kind: "struct" },
    struct_member: { kind: "field" },
    enum_declaration: { kind: "enum" },
    event_definition: { kind: "event" },
    error_declaration: { kind: "error" },
    modifier_definition: { kind: "modifier" },
    function_definition: { kind: "function" },
    constructor_definition: { kind: "constructor" },
    fallback_receive_definition: { kind: "function" },
    state_variable_declaration: { kind: "variable" },
    constant_variable_declaration: { kind: "constant" },
    user_defined_type_definition: { kind: "type" },
  },
  symbolName: solidityName,
  values: new Set(["state_variable_declaration.value", "constant_variable_declaration.value"]),
  isPublic: solidityPublic,
  describe: solidityTest,
  opaque: new Set(["string", "type_name", "import_directive", "pragma_directive"]),
};
