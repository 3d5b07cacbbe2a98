/**
 * Lua in the language table (`languages.ts`): which nodes of
 * tree-sitter-lua's tree the code views keep, elide and name.
 *
 * @module
 */

/** A syntax node as the language table sees it (its `NodeLike`, which imports this file). */
interface LuaNode {
  type: string;
  text: string;
  namedChildren: LuaNode[];
  firstNamedChild: LuaNode | null;
  parent: LuaNode | null;
  childForFieldName(name: string): LuaNode | null;
}

/**
 * Lua items: functions, assignments (`local M = {}`, `M.VERSION = "1"`, `local json =
 * require("json")`) and the chunk's `return` (the module's export); calls and loops are statements.
 */
const LUA_KEEP = new Set([
  "function_declaration",
  "variable_declaration",
  "assignment_statement",
  "return_statement",
]);

/**
 * busted's suites (and plenary.nvim's, which Neovim plugins test with): `describe("a", function()
 * ... end)`; each holds tests and suites.
 */
const LUA_SUITES = new Set(["describe", "context", "insulate", "expose"]);

/** busted's tests: `it("adds", function() ... end)`, `pending("later")`. */
const LUA_TESTS = new Set(["it", "pending", "spec", "test"]);

/** busted's hooks: kept in a suite as written, their bodies elided as a test's are. */
const LUA_HOOKS = new Set([
  "before_each",
  "after_each",
  "setup",
  "teardown",
  "lazy_setup",
  "lazy_teardown",
  "strict_setup",
  "strict_teardown",
  "finally",
]);

/** Whether a node is a busted hook's call with a function (`before_each(function() ... end)`). */
function luaHook(node: LuaNode, type: string): boolean {
  if (type !== "function_call") return false;
  const args = node.childForFieldName("arguments")?.namedChildren ?? [];
  return LUA_HOOKS.has(calledWord(node.childForFieldName("name"))) && args.length === 1 &&
    args[0].type === "function_definition";
}

/**
 * The word a call names: `it` of `it(...)`, and of `a.it(...)` (plenary.nvim's async tests are
 * `require("plenary.async").tests`' `a.describe`, `a.it`, `a.before_each`); "" for another callee.
 */
function calledWord(callee: LuaNode | null): string {
  if (callee?.type === "identifier") return callee.text;
  if (callee?.type !== "dot_index_expression") return "";
  const table = callee.childForFieldName("table");
  return table?.type === "identifier" ? callee.childForFieldName("field")?.text ?? "" : "";
}

/** A symbol a test call defines (the language table's `DeclaredName`). */
interface DeclaredName {
  name: string;
  signature: string;
  kind: string;
}

/**
 * A busted test or suite call as a symbol titled by its string (`it("adds", function() ... end)`:
 * `adds`, kind `test`; `describe("cache", function() ... end)`: `cache`, kind `suite`, its
 * function walked for the tests it holds), or undefined for another node.
 */
function luaTest(call: LuaNode, type: string = call.type): DeclaredName | undefined {
  if (type !== "function_call") return undefined;
  const callee = call.childForFieldName("name");
  const word = calledWord(callee);
  const kind = LUA_SUITES.has(word) ? "suite" : LUA_TESTS.has(word) ? "test" : undefined;
  const args = call.childForFieldName("arguments")?.namedChildren ?? [];
  const title = args[0]?.type === "string" ? args[0].childForFieldName("content")?.text : "";
  if (!kind || !title || title.includes("\n") || title.length > 300) return undefined;
  // A suite holds its tests in a function; a test has one unless it is `pending`.
  const body = args[args.length - 1]?.type === "function_definition";
  if (!body && word !== "pending") return undefined;
  const signature = `${callee!.text}(${args[0].text})`;
  return {
    name: title,
    kind,
    signature: signature.length > 240 ? `${signature.slice(0, 237)}...` : signature,
  };
}

/** Whether a Lua definition is `local` (its own keyword, or the `local` declaration around it). */
function isLocal(def: LuaNode): boolean {
  if (def.type === "function_declaration") return /^local\b/.test(def.text);
  return def.parent?.type === "variable_declaration";
}

/**
 * The value a chunk's `return` returns, which the grammar gives no field name: elided past
 * `maxValueLines` as an assignment's is (lazy.nvim's 2,797-line table of plugin names), its
 * functions kept with their bodies elided.
 */
function luaFieldOf(parentType: string, childType: string, parent: LuaNode): string | undefined {
  if (parentType !== "expression_list" || childType === "comment") return undefined;
  return parent.parent?.type === "return_statement" ? "value" : undefined;
}

/** Whether a chunk ends with `return NAME` (comments after it aside): the module's table. */
function returns(chunk: LuaNode | null | undefined, name: string): boolean {
  // The chunk's list, not `lastNamedChild` and `previousNamedSibling`: asked for each local, each
  // of those scanned the chunk's children (the walk's chunk keeps its list: see `_code.ts`).
  const items = chunk?.namedChildren ?? [];
  let at = items.length - 1;
  while (at >= 0 && items[at].type === "comment") at--;
  const last = items[at];
  return last?.type === "return_statement" && last.text.replace(/\s+/g, " ") === `return ${name}`;
}

/**
 * Lua names are public unless `local` or written with a leading `_`; a `local` the chunk
 * returns (`local M = {}` ... `return M`) is the module itself, and public.
 */
function luaPublic(def: LuaNode, name: string): boolean {
  const last = name.slice(Math.max(name.lastIndexOf("."), name.lastIndexOf(":")) + 1);
  if (last.startsWith("_")) return false;
  if (!isLocal(def)) return true;
  return def.type === "assignment_statement" && returns(def.parent?.parent, name);
}

/** An assignment's name: its first target's (`a, b = 1, 2` names `a`). */
function luaName(def: LuaNode, type: string): LuaNode | null | undefined {
  if (type !== "assignment_statement") return undefined;
  const targets = def.namedChildren.find((c) => c.type === "variable_list");
  return targets?.childForFieldName("name") ?? null;
}

/** An assignment of a function (`M.total = function(self) ... end`) is a function. */
function luaKind(def: LuaNode, kind: string): string {
  if (def.type !== "assignment_statement") return kind;
  const values = def.namedChildren.find((c) => c.type === "expression_list");
  return values?.firstNamedChild?.type === "function_definition" ? "function" : kind;
}

/**
 * Lua's entry of the language table, without its id and extensions.
 *
 * @example
 * ```ts
 * import { LUA } from "./_lua.ts";
 * LUA.grammar; // "lua"
 * ```
 */
export const LUA = {
  grammar: "lua",
  pkg: "@tree-sitter-grammars/tree-sitter-lua@0.4.1",
  wasm: "tree-sitter-lua.wasm",
  interpreters: ["lua", "luajit"],
  lineComment: "--",
  // `...` where the statements were: the body's indentation stays, and `end` closes it.
  bodyMarker: "...",
  valueMarker: "...",
  containers: new Set(["chunk"]),
  itemFields: new Set(["local_declaration"]),
  functionBodies: new Set(["function_declaration.body", "function_definition.body"]),
  bodyTypes: new Set(["block"]),
  // A test file's suites, tests and hooks (see `luaTest`) too.
  keep: (node: LuaNode, type: string = node.type) =>
    LUA_KEEP.has(type) || luaTest(node, type) !== undefined || luaHook(node, type),
  transparent: new Set<string>(),
  attach: new Set(["comment"]),
  definitions: {
    function_declaration: { kind: "function" },
    assignment_statement: { kind: "variable" },
    function_call: { kind: "test", checked: true },
  },
  // A suite's function holds its tests.
  expands: new Set(["suite"]),
  defines: (node: LuaNode, type: string) => type !== "function_call" || !!luaTest(node, type),
  describe: luaTest,
  symbolName: (def: LuaNode, type: string) => luaTest(def, type)?.name,
  values: new Set(["expression_list.value"]),
  fieldOf: luaFieldOf,
  isPublic: luaPublic,
  nameNode: luaName,
  kindOf: luaKind,
  opaque: new Set(["string"]),
};
