/**
 * PowerShell in the language table (`languages.ts`): which nodes of
 * tree-sitter-powershell's tree the code views keep, elide and name. A
 * function's script block keeps its `param(...)` block and loses its
 * statements; Pester's `Describe` and `Context` blocks hold their tests.
 *
 * @module
 */

/** A syntax node as the language table sees it (its `NodeLike`, which imports this file). */
interface PowerShellNode {
  type: string;
  text: string;
  namedChildren: PowerShellNode[];
  firstNamedChild: PowerShellNode | null;
  parent: PowerShellNode | null;
  startIndex?: number;
  endIndex?: number;
  childForFieldName(name: string): PowerShellNode | null;
}

/** A symbol the language table names at once (its `DeclaredName`). */
interface DeclaredName {
  name: string;
  signature: string;
  kind: string;
}

/**
 * A node's text as the file has it: the parser may have read `{;}` for its `{}` (see
 * {@linkcode powershellParseText}); without the file's text, the node's own.
 */
function fileText(node: PowerShellNode, text: string | undefined): string {
  return text === undefined || node.startIndex === undefined || node.endIndex === undefined
    ? node.text
    : text.slice(node.startIndex, node.endIndex);
}

/** Items of a script, a module or a class: definitions and a script's `param(...)` block. */
const POWERSHELL_KEEP = new Set([
  "function_statement",
  "class_statement",
  "enum_statement",
  "class_property_definition",
  "class_method_definition",
  "enum_member",
  "param_block",
]);

/**
 * Commands that set up a script or a module, kept as written: `using` (a namespace, a module),
 * `Import-Module`, `Set-StrictMode`, `Export-ModuleMember`, `Add-Type`, `Register-ArgumentCompleter`.
 */
const SETUP_COMMANDS = new Set([
  "using",
  "import-module",
  "set-strictmode",
  "export-modulemember",
  "add-type",
  "register-argumentcompleter",
  "new-alias",
  "set-alias",
  "update-typedata",
  "update-formatdata",
]);

/** Pester's blocks that hold tests: `Describe 'Get-Thing' { ... }`, `Context 'when x' { ... }`. */
const PESTER_SUITES = new Set(["describe", "context"]);

/** Pester's tests: `It 'returns the name' { ... }`. */
const PESTER_TESTS = new Set(["it"]);

/** Pester's set-up blocks, kept in a suite with their statements elided as a test's are. */
const PESTER_HOOKS = new Set([
  "beforeall",
  "afterall",
  "beforeeach",
  "aftereach",
  "beforediscovery",
  "inmodulescope",
]);

/** The command a pipeline is when it is one command alone (`Describe 'a' { ... }`), else null. */
function commandOf(pipeline: PowerShellNode): PowerShellNode | null {
  const chains = pipeline.namedChildren;
  if (chains.length !== 1 || chains[0].type !== "pipeline_chain") return null;
  const parts = chains[0].namedChildren;
  return parts.length === 1 && parts[0].type === "command" ? parts[0] : null;
}

/** A command's name in lower case (`describe`), or "" for a command that runs an expression. */
function commandWord(command: PowerShellNode | null): string {
  const name = command?.childForFieldName("command_name");
  return name?.type === "command_name" ? name.text.toLowerCase() : "";
}

/** Whether an item is an assignment (`$script:Limit = 10`, `$Config = @{ ... }`). */
function isAssignment(pipeline: PowerShellNode): boolean {
  return pipeline.firstNamedChild?.type === "assignment_expression";
}

/**
 * Whether a statement list holds items: a script's, a script block's (a function's, a Pester
 * suite's), or the block of an `if`, `elseif` or `else` that stands in such a list (a module's
 * `if ($IsWindows) { function ... }`). Another list is part of a statement a view keeps or leaves
 * out whole (`$x = if ($a) { 1 } else { 2 }`, `@(Get-Item a)`).
 */
function itemList(list: PowerShellNode): boolean {
  let node = list;
  for (let depth = 0; depth < 32; depth++) {
    const owner = node.parent;
    if (owner?.type === "program" || owner?.type === "script_block_body") return true;
    if (owner?.type !== "statement_block") return false;
    let statement = owner.parent;
    if (statement?.type === "elseif_clause") statement = statement.parent?.parent ?? null;
    else if (statement?.type === "else_clause") statement = statement.parent;
    if (statement?.type !== "if_statement" || statement.parent?.type !== "statement_list") {
      return false;
    }
    node = statement.parent;
  }
  return false;
}

/** What an `if` at a script's level is kept for: a definition in one of its blocks. */
const DEFINITIONS = new Set(["function_statement", "class_statement", "enum_statement"]);

/**
 * Whether an `if`, `elseif` or `else` block holds a definition, a Pester block or such an `if`
 * (a module's `if ($IsWindows) { function ... }`): the `if` is kept, its other statements left out
 * (a block left empty keeps its braces).
 */
function definesInside(statement: PowerShellNode, depth: number): boolean {
  if (depth > 16) return false;
  for (const part of statement.namedChildren) {
    if (
      part.type === "elseif_clauses" || part.type === "elseif_clause" || part.type === "else_clause"
    ) {
      if (definesInside(part, depth + 1)) return true;
      continue;
    }
    if (part.type !== "statement_block") continue;
    const list = part.namedChildren.find((c) => c.type === "statement_list");
    for (const item of list?.namedChildren ?? []) {
      if (DEFINITIONS.has(item.type)) return true;
      if (item.type === "if_statement" && definesInside(item, depth + 1)) return true;
      if (item.type === "pipeline" && pesterItem(item)) return true;
    }
  }
  return false;
}

/** Whether a pipeline is a Pester suite, test or hook with its script block. */
function pesterItem(pipeline: PowerShellNode): boolean {
  const command = commandOf(pipeline);
  const word = commandWord(command);
  return (PESTER_SUITES.has(word) || PESTER_TESTS.has(word) || PESTER_HOOKS.has(word)) &&
    pesterBlock(command!) !== undefined;
}

/**
 * Whether a statement is an item a view keeps: a definition, an assignment (a script's or a
 * module's variable), a setting-up command, a Pester suite, test or hook.
 */
function powershellKeep(
  node: PowerShellNode,
  type: string = node.type,
  container?: PowerShellNode,
): boolean {
  // The statements of an `@(...)`, a `$(...)` or a block inside a kept item are its own.
  if (container?.type === "statement_list" && !itemList(container)) return true;
  // The `;` the parser reads in an empty block (see `powershellParseText`) is no statement.
  if (POWERSHELL_KEEP.has(type) || type === "empty_statement") return true;
  if (type === "if_statement") return definesInside(node, 0);
  if (type !== "pipeline") return false;
  if (isAssignment(node)) return true;
  const command = commandOf(node);
  if (!command) return false;
  const word = commandWord(command);
  if (SETUP_COMMANDS.has(word)) return true;
  if (pesterItem(node)) return true;
  // Dot-sourcing another script (`. $PSScriptRoot/Private/Helpers.ps1`) defines what it holds.
  return command.firstNamedChild?.type === "command_invokation_operator" &&
    command.firstNamedChild.text === ".";
}

/** The script block a Pester command passes last (`It 'adds' { ... }`), or undefined. */
function pesterBlock(command: PowerShellNode): PowerShellNode | undefined {
  const args = command.childForFieldName("command_elements")?.namedChildren ?? [];
  let last = args.at(-1);
  for (let i = 0; last && i < 3 && last.type !== "script_block_expression"; i++) {
    last = last.namedChildren.length === 1 ? last.firstNamedChild ?? undefined : undefined;
  }
  return last?.type === "script_block_expression" ? last : undefined;
}

/** The Pester command whose last argument is this script block, or null. */
function pesterCommand(block: PowerShellNode): PowerShellNode | null {
  let node = block.parent;
  for (let i = 0; node && i < 5 && node.type !== "command"; i++) node = node.parent;
  if (node?.type !== "command" || pesterBlock(node)?.startIndex !== block.startIndex) return null;
  const word = commandWord(node);
  if (PESTER_SUITES.has(word) || PESTER_TESTS.has(word)) return node;
  return word === "inmodulescope" && holdsTests(block) ? node : null;
}

/**
 * Whether a script block holds Pester suites or tests among its statements: an `InModuleScope
 * 'm' { It 'adds' { ... } }` is then a suite of them, else a set-up block (elided).
 */
function holdsTests(block: PowerShellNode): boolean {
  const body = block.firstNamedChild?.namedChildren.find((c) => c.type === "script_block_body");
  const list = body?.namedChildren.find((c) => c.type === "statement_list");
  return !!list?.namedChildren.some((item) => {
    if (item.type !== "pipeline") return false;
    const word = commandWord(commandOf(item));
    return (PESTER_SUITES.has(word) || PESTER_TESTS.has(word)) && pesterItem(item);
  });
}

/** A single-quoted and a double-quoted string, whole. */
const SINGLE_QUOTED = /^'(?:[^']|'')*'$/;
const DOUBLE_QUOTED = /^"(?:[^"`]|`.|"")*"$/;

/**
 * A title argument's text as the file has it. A line read one column to the left (see
 * {@linkcode indentBlank}) has a blank in the file where the node starts: its text is one further
 * on, and a string holding the rewritten block (`'says "Mock X {}"'`) ends where it did.
 */
function writtenTitle(arg: PowerShellNode, text: string | undefined): string {
  const start = arg.startIndex ?? 0;
  const end = arg.endIndex ?? 0;
  if (text === undefined) return arg.text;
  const shift = /[ \t]/.test(text[start]) ? 1 : 0;
  if (arg.type === "generic_token") {
    return /^[\w.-]+/.exec(text.slice(start + shift, start + shift + 300))?.[0] ?? "";
  }
  const written = text.slice(start + shift, end + shift);
  if (!shift || SINGLE_QUOTED.test(written) || DOUBLE_QUOTED.test(written)) return written;
  return text.slice(start + shift, end);
}

/**
 * A Pester title's text: a quoted string's inside (`'adds'`: `adds`), or a bare word; read in the
 * file's `text`, as the parser's has an empty block in a title rewritten (`"a {}"` as `"a ''"`).
 */
function titleOf(command: PowerShellNode, text?: string): string | undefined {
  const args = command.childForFieldName("command_elements")?.namedChildren ?? [];
  for (const arg of args) {
    if (arg.type === "command_argument_sep") continue;
    if (arg.type === "command_parameter") {
      // `-Name 'adds'` names it; another switch (`-Tag Unit`, `-Skip`) comes before it.
      if (!/^-name$/i.test(arg.text)) return undefined;
      continue;
    }
    // A bare word's last character may have gone to an empty block after it (see
    // `powershellParseText`): the word as the file writes it.
    const written = writtenTitle(arg, text);
    if (SINGLE_QUOTED.test(written)) return written.slice(1, -1).replaceAll("''", "'");
    if (DOUBLE_QUOTED.test(written)) return written.slice(1, -1);
    return /^[\w.-]+$/.test(written) ? written : undefined;
  }
  return undefined;
}

/** A command's array and hash table arguments written over lines (`-TestCases @(...)`). */
function tablesOf(command: PowerShellNode): PowerShellNode[] {
  const args = command.childForFieldName("command_elements")?.namedChildren ?? [];
  return args.flatMap((arg) => {
    const inner = arg.firstNamedChild?.firstNamedChild;
    return arg.type === "array_literal_expression" && inner && LITERAL_VALUES.has(inner.type) &&
        inner.text.includes("\n")
      ? [inner]
      : [];
  });
}

/**
 * A Pester suite or test as a symbol: the script block `Describe`, `Context` or `It` passes,
 * named by the title (`Describe 'Get-Thing' { ... }`: `Get-Thing`, kind `suite`, its block walked
 * for the tests it holds), its signature the command up to the block; undefined for any other.
 */
function pesterTest(
  def: PowerShellNode,
  type: string,
  text?: string,
): DeclaredName | undefined {
  if (type !== "script_block_expression") return undefined;
  const command = pesterCommand(def);
  if (!command) return undefined;
  const title = titleOf(command, text);
  if (!title || title.includes("\n") || title.length > 300) return undefined;
  const word = commandWord(command);
  const start = command.startIndex ?? 0;
  let written = fileText(command, text).slice(0, (def.startIndex ?? 0) - start);
  // A table over lines (`-TestCases @(` then a case a line) is `@(...)` on the signature's line.
  for (const table of tablesOf(command).reverse()) {
    const at = (table.startIndex ?? 0) - start;
    written = `${written.slice(0, at)}${table.text.slice(0, 2)}...${table.text.at(-1)}${
      written.slice(at + table.text.length)
    }`;
  }
  const head = written.replace(/\s+/g, " ").replace(/\s*\{\s*$/, "").trim();
  const signature = head.length > 240 ? `${head.slice(0, 237)}...` : head;
  return { name: title, kind: PESTER_TESTS.has(word) ? "test" : "suite", signature };
}

/**
 * A class's or an enum's symbol: its name, its kind and its line up to its `{` (`class Circle :
 * Shape`); the grammar names no part of it, and its members are symbols of their own.
 */
function powershellType(
  def: PowerShellNode,
  type: string,
  text?: string,
): DeclaredName | undefined {
  if (type !== "class_statement" && type !== "enum_statement") return undefined;
  const name = def.namedChildren.find((c) => c.type === "simple_name")?.text;
  const own = fileText(def, text);
  const brace = own.indexOf("{");
  if (!name || brace === -1) return undefined;
  const signature = own.slice(0, brace).replace(/\s+/g, " ").trim();
  return {
    name,
    kind: type === "class_statement" ? "class" : "enum",
    signature: signature.length > 240 ? `${signature.slice(0, 237)}...` : signature,
  };
}

/**
 * A function whose parameters are its script block's `param(...)` block: its symbol's signature
 * is its line up to its `{` and that block's parameters (`function Get-Thing param([string]
 * $Name)`), not the whole function (the grammar gives it no body but the script block).
 */
function powershellFunction(
  def: PowerShellNode,
  type: string,
  text?: string,
): DeclaredName | undefined {
  if (type !== "function_statement") return undefined;
  const block = def.namedChildren.find((c) => c.type === "script_block");
  const params = block?.namedChildren.find((c) => c.type === "param_block");
  const name = def.namedChildren.find((c) => c.type === "function_name")?.text;
  const own = fileText(def, text);
  const brace = own.indexOf("{");
  if (!params || !name || brace === -1) return undefined;
  const list = params.namedChildren.find((c) => c.type === "parameter_list");
  const signature = `${own.slice(0, brace)} param(${list ? fileText(list, text) : ""})`.replace(
    /\s+/g,
    " ",
  )
    .replace(/\( /g, "(").replace(/,? \)/g, ")").trim();
  return {
    name,
    kind: powershellKind(def, "function"),
    signature: signature.length > 240 ? `${signature.slice(0, 237)}...` : signature,
  };
}

/** A definition's symbol when the language tells it at once: a Pester block's, a type's. */
function powershellDescribe(
  def: PowerShellNode,
  type: string,
  text?: string,
): DeclaredName | undefined {
  return pesterTest(def, type, text) ?? powershellType(def, type, text) ??
    powershellFunction(def, type, text);
}

/**
 * The name of a definition the grammar gives no field: a function's `function_name`, a class's,
 * a method's or an enum's first `simple_name`, a property's `$variable`.
 */
function powershellName(def: PowerShellNode, type: string): PowerShellNode | null | undefined {
  const wanted = type === "function_statement"
    ? "function_name"
    : type === "class_property_definition"
    ? "variable"
    : "simple_name";
  return def.namedChildren.find((c) => c.type === wanted) ?? null;
}

/** The literals {@linkcode powershellFieldOf} names values: `@(...)`, `@{...}`. */
const LITERAL_VALUES = new Set(["array_expression", "hash_literal_expression"]);

/**
 * The field of a child tree-sitter-powershell names none: a script block is the body of the
 * function, the method or the `{ ... }` expression that holds it (its comments go with its
 * statements), but for a function's or a method's with a `param(...)` block, which stays: then
 * the block's `script_block_body` is the body.
 */
function powershellFieldOf(
  parentType: string,
  childType: string,
  parent: PowerShellNode,
): string | undefined {
  // An array or a hash table written in place (a Pester test's `-TestCases @(...)` table): a
  // value, `...` past `maxValueLines` lines as an assignment's is.
  if (parentType === "unary_expression" && LITERAL_VALUES.has(childType)) return "value";
  if (childType !== "script_block") return undefined;
  if (parentType === "script_block_expression") return "body";
  if (parentType !== "function_statement" && parentType !== "class_method_definition") {
    return undefined;
  }
  const block = parent.namedChildren.find((c) => c.type === "script_block");
  return block?.namedChildren.some((c) => c.type === "param_block") ? undefined : "body";
}

/** `filter` and `workflow` are functions of their own kinds; a method named as its class is a constructor. */
function powershellKind(def: PowerShellNode, kind: string): string {
  if (def.type === "function_statement") {
    const word = /^\s*(filter|workflow|configuration)\b/i.exec(def.text)?.[1]?.toLowerCase();
    return word ?? kind;
  }
  if (def.type === "class_method_definition") {
    const name = def.namedChildren.find((c) => c.type === "simple_name")?.text;
    // The class's name is its first named child (its members' list is not read for each).
    const cls = def.parent?.firstNamedChild?.text;
    return name !== undefined && name === cls ? "constructor" : kind;
  }
  return kind;
}

/**
 * The variable a script's or a suite's assignment sets (`$script:Limit = 10`: `$Limit`, kind
 * `variable`, its line the signature); undefined for any other node, for an environment variable
 * or a property (`$env:PATH = ...`, `$a.b = 2`) and for an assignment inside a statement
 * (`@($a = 1)`).
 */
function powershellDeclares(node: PowerShellNode, type: string): DeclaredName[] | undefined {
  if (type !== "pipeline") return undefined;
  const assignment = node.firstNamedChild;
  if (assignment?.type !== "assignment_expression") return undefined;
  const list = node.parent;
  if (list?.type !== "statement_list" || !itemList(list)) return undefined;
  const left = assignment.firstNamedChild?.text ?? "";
  const variable = /^(?:\[[^\]\n]*\]\s*)*\$(?:(?:global|script|local|private):)?([\w?]+)$/i
    .exec(left);
  if (!variable) return undefined;
  // A value over lines is `...`, as another language's long value is in its signature, and so is
  // one with an empty script block (the parser read `{;}` for its `{}`: the node's text has it).
  const text = node.text;
  const line = text.includes("\n") || /(?<![@$])\{[;\s]*\}/.test(text)
    ? `${left} = ...`
    : text.trim().replace(/\s+/g, " ");
  return [{
    name: `$${variable[1]}`,
    kind: "variable",
    signature: line.length > 240 ? `${line.slice(0, 237)}...` : line,
  }];
}

/** Everything is public but a class's `hidden` member and a `$private:` variable. */
function powershellPublic(def: PowerShellNode): boolean {
  if (def.type === "pipeline") return !/^\s*(?:\[[^\]\n]*\]\s*)*\$private:/i.test(def.text);
  if (def.type === "class_property_definition" || def.type === "class_method_definition") {
    return !def.namedChildren.some((c) => c.type === "class_attribute" && /^hidden$/i.test(c.text));
  }
  return true;
}

/** A script block of blanks alone: `{}`, `{ }`, `{` and `}` on lines of their own. */
const EMPTY_BLOCK = /\{[ \t\r\n]*\}/g;

/**
 * The text the parser reads: each empty script block holds a `;`. tree-sitter-powershell reads
 * `{}` as an error everywhere but a function's body (`$OnBlock = {},` in a `param(...)` block,
 * `New-Module -Name M { }`), and what follows with it: Pester's `Fold-Block` lost its name. The
 * `;` takes the place of a blank inside the braces (`{ }`: `{;}`), else of the blank after them
 * (`{} |`: `{;}|`) or before them (`= {}`: `={;}`), so that the text keeps its length and line
 * breaks; `@{}` is a hash table and stays.
 */
function powershellParseText(text: string): string | undefined {
  if (!text.includes("{")) return undefined;
  const chars = [...text.matchAll(EMPTY_BLOCK)];
  if (!chars.length) return undefined;
  let read = "";
  let from = 0;
  for (const match of chars) {
    const at = match.index;
    const block = match[0];
    const end = at + block.length;
    const before = text[at - 1];
    if (before === "@" || before === "$") continue;
    const inner = block.search(/[ \t]/);
    if (inner !== -1) {
      read += text.slice(from, at + inner) + ";";
      from = at + inner + 1;
    } else if (text[end] === " " || text[end] === "\t") {
      read += text.slice(from, at + block.length - 1) + ";}";
      from = end + 1;
    } else if ((before === " " || before === "\t") && bareArgumentBlock(text, at - 1)) {
      // After a bare word (`Mock Get-Date {}`, `Context Bare {}`, `-Tag Unit {}` at a line's
      // end), `{;` would join the word (`Get-Date{`) and the `}` close the block around it: the
      // word's last character gives the block its room (`Context Bar {;}`; a title is read from
      // the file's text, the word whole). A word of one character (`Context A {}`) takes it from
      // the line's indent instead, the line read one column to the left; at a line's start, an
      // empty string is the argument after it.
      const long = /[\w-]{2}$/.test(text.slice(Math.max(0, at - 3), at - 1));
      const indent = long ? -1 : indentBlank(text, at, from);
      if (long) read += text.slice(from, at - 2) + " {;}";
      else if (indent >= 0) read += text.slice(from, indent) + text.slice(indent + 1, at) + "{;}";
      else read += text.slice(from, at) + "''";
      from = end;
    } else if (before === " " || before === "\t") {
      read += text.slice(from, at - 1) + "{;";
      from = at + 1;
    }
  }
  return from === 0 ? undefined : read + text.slice(from);
}

/**
 * Where the blank that starts the line holding `at` is, when the line is indented and the text
 * from `from` on has not been rewritten there yet; else -1. Read back at most 200 characters.
 */
function indentBlank(text: string, at: number, from: number): number {
  let lineStart = at;
  while (lineStart > 0 && at - lineStart < 200 && text[lineStart - 1] !== "\n") lineStart--;
  if (lineStart < from || (lineStart > 0 && text[lineStart - 1] !== "\n")) return -1;
  return text[lineStart] === " " || text[lineStart] === "\t" ? lineStart : -1;
}

/** Words after which a script block is a statement's, not a command's argument. */
const BLOCK_KEYWORDS =
  /^(?:else|elseif|try|catch|finally|trap|do|begin|process|end|clean|dynamicparam|switch|foreach|for|while|until|parallel|sequence|inlinescript)$/i;

/**
 * Whether the empty block whose blank before it is at `blank` is a command's argument after a bare
 * word (`Mock Get-Date {}`): not a parameter's value (`-Skip {}`), a statement's block (`else {}`),
 * nor a definition's body on a line that declares one (`function Get-X {}`, `class A {}`).
 */
function bareArgumentBlock(text: string, blank: number): boolean {
  // The line's text before the blank, at most 200 characters of it (a long line of many empty
  // blocks is not read again from its start for each).
  let lineStart = blank;
  while (lineStart > 0 && blank - lineStart < 200 && text[lineStart - 1] !== "\n") lineStart--;
  const before = text.slice(lineStart, blank);
  const word = /[\w-]+$/.exec(before)?.[0];
  // A parameter's block (`It 'waits' -Skip {}`, `-MockWith {}`) is its value: read as `-Skip{;}`.
  if (!word || word.startsWith("-") || BLOCK_KEYWORDS.test(word)) return false;
  return !/^[ \t]*(?:function|filter|workflow|configuration|class|enum)\b/i.test(before);
}

/**
 * PowerShell's entry of the language table, without its id and extensions.
 *
 * @example
 * ```ts
 * import { POWERSHELL } from "./_powershell.ts";
 * POWERSHELL.grammar; // "powershell"
 * ```
 */
export const POWERSHELL = {
  grammar: "powershell",
  pkg: "tree-sitter-powershell@0.26.4",
  wasm: "tree-sitter-powershell.wasm",
  interpreters: ["pwsh", "powershell"],
  lineComment: "#",
  // `...` where the statements were: the braces stay, and a `param(...)` block before them.
  bodyMarker: "...",
  valueMarker: "...",
  // A suite's script block holds its statements in a `script_block_body`'s `statement_list`.
  containers: new Set(["program", "statement_list", "script_block_body"]),
  functionBodies: new Set([
    "function_statement.body",
    "class_method_definition.body",
    "script_block_expression.body",
    "script_block.script_block_body",
  ]),
  bodyTypes: new Set(["script_block", "script_block_body"]),
  bodyComments: true,
  parseText: powershellParseText,
  keep: powershellKeep,
  transparent: new Set<string>(),
  attach: new Set(["comment"]),
  definitions: {
    function_statement: { kind: "function" },
    class_statement: { kind: "class" },
    enum_statement: { kind: "enum" },
    class_property_definition: { kind: "property" },
    class_method_definition: { kind: "method" },
    enum_member: { kind: "member" },
    script_block_expression: { kind: "test", checked: true },
  },
  // A suite's block holds its tests; a test's statements are elided as a function's are.
  walksBody: (def: PowerShellNode) => pesterTest(def, def.type)?.kind === "suite",
  defines: (def: PowerShellNode, type: string) =>
    type !== "script_block_expression" || pesterTest(def, type) !== undefined,
  describe: powershellDescribe,
  declares: powershellDeclares,
  symbolName: (def: PowerShellNode, type: string, text?: string) =>
    pesterTest(def, type, text)?.name,
  values: new Set(["assignment_expression.value", "unary_expression.value"]),
  isPublic: powershellPublic,
  nameNode: powershellName,
  fieldOf: powershellFieldOf,
  kindOf: powershellKind,
  opaque: new Set(["string_literal", "type_literal", "attribute_list"]),
};
