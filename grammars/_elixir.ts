/**
 * Elixir in the language table (`languages.ts`): which nodes of
 * tree-sitter-elixir's tree the code views keep, elide and name. Elixir's
 * definitions are calls (`defmodule Shop do ... end`, `def add(a) do ... end`),
 * told apart by the name they call: a module's `do` block is a container, a
 * function's its body.
 *
 * @module
 */

/** A syntax node as the language table sees it (its `NodeLike`, which imports this file). */
interface ElixirNode {
  type: string;
  text: string;
  namedChildren: ElixirNode[];
  firstNamedChild: ElixirNode | null;
  parent: ElixirNode | null;
  startIndex?: number;
  childForFieldName(name: string): ElixirNode | null;
}

/** A symbol the language table names at once (its `DeclaredName`). */
interface DeclaredName {
  name: string;
  kind: string;
  signature: string;
}

/** Calls that define a module-like container: their `do` block holds items. */
const MODULES: Record<string, string> = {
  defmodule: "module",
  defprotocol: "protocol",
  defimpl: "impl",
  describe: "describe",
};

/** Calls that define a function-like item: their `do` block is a body, elided. */
const FUNCTIONS: Record<string, string> = {
  def: "function",
  defp: "function",
  defmacro: "macro",
  defmacrop: "macro",
  defguard: "guard",
  defguardp: "guard",
  defdelegate: "function",
  defn: "function",
  defnp: "function",
};

/** Calls kept as they are: what a module uses, imports and declares; test cases and setup. */
const DECLARING = new Set([
  "use",
  "import",
  "alias",
  "require",
  "defstruct",
  "defexception",
  "defoverridable",
  "test",
  // StreamData's property test (`use ExUnitProperties`): a test, its block its body.
  "property",
  "setup",
  "setup_all",
  // Mix's configuration (`config/config.exs`: `config :logger, level: :warning`): what the
  // file sets, kept under a top-level `if config_env() == :prod do` too.
  "config",
  "import_config",
]);

/**
 * Calls whose `do` block holds definitions only on a condition or once for each of several values
 * (`if Code.ensure_loaded?(Jason) do defimpl ... end`, `for encoder <- [...] do`): kept when one
 * of their blocks holds a definition, and then only the items such a block keeps.
 */
const CONDITIONALS = new Set(["if", "unless", "for"]);

/** A conditional's blocks: its `do` block and its `else` block, whose items are alike. */
const BLOCKS = new Set(["do_block", "else_block"]);

/** Whether a conditional's blocks hold a definition or a Mix setting, directly or in a conditional inside. */
function holdsDefinition(node: ElixirNode, depth = 0): boolean {
  if (depth > 8) return false;
  for (const block of node.namedChildren) {
    if (block.type !== "do_block" && block.type !== "else_block") continue;
    for (const item of block.namedChildren) {
      if (item.type !== "call") continue;
      const name = called(item);
      if (name in MODULES || name in FUNCTIONS || name === "config") return true;
      if (CONDITIONALS.has(name) && holdsDefinition(item, depth + 1)) return true;
    }
  }
  return false;
}

/** Private definitions: not part of the API. */
const PRIVATE = new Set(["defp", "defmacrop", "defguardp", "defnp"]);

/** The name a call calls (`def`, `use`), or "" for a call of anything else (`Mod.f()`). */
function called(node: ElixirNode): string {
  const target = node.childForFieldName("target");
  return target?.type === "identifier" ? target.text : "";
}

/**
 * Elixir items: definitions, the calls that declare (`use`, `alias`, `defstruct`, a test case)
 * and module attributes (`@moduledoc`, `@spec`, `@limit 10`); in a module's block (or a block
 * inside one that is no function's body), every call: a module's calls declare what its macros
 * build (an Ecto `schema` and its `field`s, a router's `pipeline`, `scope` and routes, `plug`s).
 * Other calls, those of a script, are statements.
 */
function elixirKeep(node: ElixirNode, type: string = node.type): boolean {
  if (type === "unary_operator") return node.text.startsWith("@");
  // A Mix project's settings list, the block of its function (see `mixSettings`).
  if (type === "list") {
    return node.parent?.parent?.type === "call" && mixSettings(node.parent.parent);
  }
  if (type !== "call") return false;
  const name = called(node);
  if (CONDITIONALS.has(name)) return inModule(node) || holdsDefinition(node);
  return name in MODULES || name in FUNCTIONS || DECLARING.has(name) || inModule(node);
}

/**
 * Whether a node sits in a `do` block that holds items (a module's, a `schema`'s), not a body; a
 * conditional's block (`if`, `for`) is none at the file's top level, where a script's statements
 * are.
 */
function inModule(node: ElixirNode): boolean {
  const block = node.parent;
  const owner = block?.parent;
  if (!BLOCKS.has(block?.type ?? "") || owner?.type !== "call") return false;
  if (elixirFieldOf("call", "do_block", owner) !== undefined) return false;
  return !CONDITIONALS.has(called(owner)) || !topLevel(owner);
}

/** Whether a conditional sits at the file's top level, or in such a conditional's block. */
function topLevel(node: ElixirNode, depth = 0): boolean {
  const parent = node.parent;
  if (parent?.type === "source") return true;
  const owner = parent?.parent;
  if (!BLOCKS.has(parent?.type ?? "") || owner?.type !== "call" || depth > 8) return false;
  return CONDITIONALS.has(called(owner)) && topLevel(owner, depth + 1);
}

/** A function's `do` block is its body (and a test's): a module's is a container. */
function elixirFieldOf(
  parentType: string,
  childType: string,
  parent: ElixirNode,
): string | undefined {
  if (parentType !== "call" || childType !== "do_block") return undefined;
  const name = called(parent);
  if (name in FUNCTIONS && mixSettings(parent)) return undefined;
  return name in FUNCTIONS || DECLARING.has(name) ? "body" : undefined;
}

/**
 * A Mix project's functions whose list is its settings: what it builds, runs and depends on, and
 * how Hex publishes it and its docs (`package`: licenses, links, files; `docs`: main page, extras).
 */
const MIX_SETTINGS = new Set(["project", "application", "deps", "package", "docs"]);

/** Calls that make a list's value depend on a condition: logic, not a literal list. */
const MIX_LOGIC = new Set(["if", "unless", "case", "cond", "with", "for"]);

/**
 * Whether a function is a Mix project's settings (`mix.exs`: `defp deps do [{:phoenix, "~> 1.7"}]
 * end`, `def project do [app: :demo, deps: deps()] end`): named `project`, `application` or
 * `deps`, `package` or `docs` with no parameter, in a module that has `use Mix.Project`, its body one list of values
 * (calls such as `deps()` too) with no `if`, `case`, `fn` or block in it. Its body is kept as it
 * is written: the dependency list is what a reader of `mix.exs` most wants.
 */
function mixSettings(def: ElixirNode): boolean {
  const head = def.namedChildren.find((c) => c.type === "arguments")?.firstNamedChild;
  if (head?.type !== "identifier" || !MIX_SETTINGS.has(head.text)) return false;
  const module = def.parent?.type === "do_block" ? def.parent.parent : null;
  if (!module || called(module) !== "defmodule") return false;
  const project = def.parent!.namedChildren.some((c) =>
    c.type === "call" && called(c) === "use" &&
    c.namedChildren.find((a) => a.type === "arguments")?.firstNamedChild?.text === "Mix.Project"
  );
  const body = def.namedChildren.find((c) => c.type === "do_block");
  const items = body?.namedChildren.filter((c) => c.type !== "comment") ?? [];
  return project && items.length === 1 && items[0].type === "list" && plainValue(items[0]);
}

/** Whether a value holds no logic: no block, no anonymous function, no `if` or `case`. */
function plainValue(node: ElixirNode, depth = 0): boolean {
  if (depth > 32 || node.type === "do_block" || node.type === "anonymous_function") return false;
  if (node.type === "call" && MIX_LOGIC.has(node.childForFieldName("target")?.text ?? "")) {
    return false;
  }
  return node.namedChildren.every((c) => plainValue(c, depth + 1));
}

/**
 * What a definition names: a module's alias (`Shop.Inventory`), a function's name from its head
 * (`add(a, b)`, `add(a) when a > 0`, `secret`); other calls name nothing.
 */
function elixirName(def: ElixirNode, type: string): ElixirNode | null | undefined {
  if (type !== "call") return undefined;
  const name = called(def);
  if (!(name in MODULES) && !(name in FUNCTIONS)) return null;
  const args = def.namedChildren.find((c) => c.type === "arguments");
  let head = args?.firstNamedChild ?? null;
  if (name in MODULES) return head?.type === "alias" ? head : null;
  if (head?.type === "binary_operator") head = head.childForFieldName("left");
  if (head?.type === "call") head = head.childForFieldName("target");
  return head?.type === "identifier" ? head : null;
}

/** ExUnit's calls that define a test or a group of them, by the kind of symbol each is. */
const EXUNIT: Record<string, string> = { test: "test", property: "test", describe: "suite" };

/**
 * An ExUnit test (`test "adds" do ... end`, StreamData's `property "sums"`, kind `test`) or group
 * (`describe "add/2" do ... end`, kind `suite`) as a symbol: named by its title's text, its
 * signature the call up to its block (`test "adds", %{conn: conn}`); undefined for another call.
 */
function exunitTest(def: ElixirNode, type: string, text?: string): DeclaredName | undefined {
  if (type !== "call") return undefined;
  const word = called(def);
  const kind = EXUNIT[word];
  if (!kind) return undefined;
  const title = def.namedChildren.find((c) => c.type === "arguments")?.firstNamedChild;
  if (title?.type !== "string") return undefined;
  const quoted = title.text;
  if (quoted.includes("\n") || quoted.length > 300 || !/^"[^]*"$/.test(quoted)) return undefined;
  // The call's text up to its block, as the file has it.
  const block = def.namedChildren.find((c) => c.type === "do_block");
  const start = def.startIndex ?? 0;
  const own = text !== undefined && def.startIndex !== undefined
    ? text.slice(start, start + def.text.length)
    : def.text;
  const head = block?.startIndex !== undefined ? own.slice(0, block.startIndex - start) : own;
  const signature = head.replace(/\s+/g, " ").trim();
  return {
    name: quoted.slice(1, -1),
    kind,
    signature: signature.length > 240 ? `${signature.slice(0, 237)}...` : signature,
  };
}

function elixirKind(def: ElixirNode, kind: string): string {
  if (def.type !== "call") return kind;
  const name = called(def);
  return MODULES[name] ?? FUNCTIONS[name] ?? kind;
}

/**
 * Elixir's entry of the language table, without its id and extensions.
 *
 * @example
 * ```ts
 * import { ELIXIR } from "./_elixir.ts";
 * ELIXIR.grammar; // "elixir"
 * ```
 */
export const ELIXIR = {
  grammar: "elixir",
  pkg: "tree-sitter-elixir@0.3.5",
  wasm: "tree-sitter-elixir.wasm",
  interpreters: ["elixir"],
  lineComment: "#",
  // The whole `do ... end` block: `def add(a) do ... end` stays on one line.
  bodyMarker: "do ... end",
  valueMarker: "...",
  containers: new Set(["source", "do_block", "else_block"]),
  functionBodies: new Set(["call.body"]),
  bodyTypes: new Set(["do_block"]),
  keep: elixirKeep,
  transparent: new Set<string>(),
  attach: new Set(["comment"]),
  definitions: { call: { kind: "function" } },
  values: new Set<string>(),
  isPublic: (def: ElixirNode) => !PRIVATE.has(called(def)),
  nameNode: elixirName,
  // ExUnit's tests and `describe` groups, named by their titles.
  describe: exunitTest,
  symbolName: (def: ElixirNode, type: string) => exunitTest(def, type)?.name,
  fieldOf: elixirFieldOf,
  kindOf: elixirKind,
  opaque: new Set(["string", "sigil", "charlist"]),
};
