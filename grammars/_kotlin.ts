/**
 * Kotlin in the language table (`languages.ts`): which nodes of
 * tree-sitter-kotlin's tree the code views keep, elide and name. The grammar
 * names few fields (a function's body has none), so `fieldOf` names them.
 *
 * @module
 */

/** A syntax node as the language table sees it (its `NodeLike`, which imports this file). */
interface KotlinNode {
  type: string;
  text: string;
  namedChildren: KotlinNode[];
  firstNamedChild: KotlinNode | null;
  parent: KotlinNode | null;
  startIndex?: number;
  childForFieldName(name: string): KotlinNode | null;
}

/** Items a Kotlin file or class body keeps: declarations, the package, imports. */
const KOTLIN_KEEP = new Set([
  "package_header",
  "import",
  "file_annotation",
  "class_declaration",
  "object_declaration",
  "companion_object",
  "function_declaration",
  "property_declaration",
  "type_alias",
  "secondary_constructor",
  "anonymous_initializer",
  "enum_entry",
]);

/**
 * Kotlin items: declarations, the package, imports, and a script's statements where one stands
 * (see {@linkcode kotlinScriptPlace}): a Gradle script's (`.gradle.kts`) `plugins { ... }`,
 * `dependencies { implementation("a:b:1") }`, `android { compileSdk = 34 }`, `tasks.register("x")
 * { ... }`, `rootProject.name = "x"`. A `.kt` file has no statement at its top level.
 */
function kotlinKeep(node: KotlinNode, type: string = node.type, container?: KotlinNode): boolean {
  const place = container && kotlinScriptPlace(container);
  // A block of code is elided whole, its local `val`s too.
  if (place === "code") return false;
  if (KOTLIN_KEEP.has(type)) return true;
  if (!place) return false;
  // A block's parameters (`configureEach { task -> ... }`) stay with it.
  if (type === "lambda_parameters") return true;
  return kotlinDeclaration(node, type);
}

/**
 * Whether a script's statement declares: a call (not `println(...)`), a setting (`version =
 * "1.0"`), a bare word (`application`, `mavenCentral()` is a call), an infix (`kotlin("jvm")
 * version "2.0"`, `id("a") apply false`), or a generic call the grammar reads as comparisons
 * (`tasks.withType<Test> { ... }`).
 */
function kotlinDeclaration(node: KotlinNode, type: string): boolean {
  if (type === "call_expression") return !KOTLIN_PRINTS.has(kotlinCallee(node)?.text ?? "");
  if (type === "assignment" || type === "identifier" || type === "infix_expression") return true;
  return type === "binary_expression" &&
    node.childForFieldName("right")?.type === "lambda_literal";
}

/** Kotlin's printing functions: output, not what a script declares. */
const KOTLIN_PRINTS = new Set(["println", "print", "error", "check", "require"]);

/**
 * Gradle's task actions and hooks: their blocks are code run later (`doLast { copy { ... } }`),
 * shown as `{ ... }`, as a function's body is.
 */
const KOTLIN_CODE_BLOCKS = new Set([
  "doLast",
  "doFirst",
  "onlyIf",
  "afterEvaluate",
  "beforeEvaluate",
  "gradle.projectsEvaluated",
  "gradle.buildFinished",
  "run",
  "apply",
  "also",
  "let",
  "forEach",
  "map",
  "filter",
]);

/**
 * Where a Kotlin item stands, by its container: `script` (a file's top level, or the block of a
 * script's call that holds declarations: `dependencies { ... }`), `code` (the block of a script's
 * call that holds code: a task action, a block whose statements are mostly not declarations),
 * or undefined (a class's body, a function's). Read once per container node.
 */
function kotlinScriptPlace(container: KotlinNode): string | undefined {
  const known = SCRIPT_PLACES.get(container);
  if (known !== undefined) return known || undefined;
  let place: string | undefined;
  // A file whose top level the parser could not read holds no script: its statements there are
  // pieces of a class it lost (a `.kt` file has no statement at its top level).
  if (container.type === "source_file") {
    place = container.namedChildren.some((c) => c.type === "ERROR") ? undefined : "script";
  } else if (container.type === "lambda_literal") {
    const up = container.parent;
    const call = up?.type === "annotated_lambda" ? up.parent : up;
    const generic = call?.type === "binary_expression" ? kotlinGenericCall(call) : undefined;
    if (
      (call?.type === "call_expression" || generic) && kotlinScriptStatement(call!)
    ) {
      const callee = generic?.replace(/<.*$/, "") ??
        kotlinCallee(call!)?.text.replace(/\s+/g, "") ?? "";
      const last = callee.slice(callee.lastIndexOf(".") + 1);
      place = KOTLIN_CODE_BLOCKS.has(callee) || KOTLIN_CODE_BLOCKS.has(last) ||
          !kotlinDeclarations(container)
        ? "code"
        : "script";
    }
  }
  SCRIPT_PLACES.set(container, place ?? "");
  return place;
}

/** {@linkcode kotlinScriptPlace}'s answers by container node ("" for none). */
const SCRIPT_PLACES = new WeakMap<KotlinNode, string>();

/**
 * Whether a block holds declarations: at most a quarter of its statements are code (a local
 * `val`, a loop, an `if`, a print), the rest declarations (see {@linkcode kotlinDeclaration}).
 */
function kotlinDeclarations(block: KotlinNode): boolean {
  let code = 0;
  let statements = 0;
  for (const item of block.namedChildren) {
    if (/comment$/.test(item.type) || item.type === "lambda_parameters") continue;
    statements++;
    if (!kotlinDeclaration(item, item.type)) code++;
  }
  return code * 4 <= statements;
}

/**
 * Whether a call is a script's statement: one of a file's top level, or of the block of a
 * script's statement that holds declarations.
 */
function kotlinScriptStatement(call: KotlinNode): boolean {
  const up = call.parent;
  if (up?.type !== "source_file" && up?.type !== "lambda_literal") return false;
  return kotlinScriptPlace(up) === "script";
}

/**
 * A generic call with a block and no parentheses (`tasks.withType<Test> { ... }`), which
 * tree-sitter-kotlin reads as two comparisons (`tasks.withType < Test > { ... }`): its callee
 * and type (`tasks.withType<Test>`), or undefined for another binary expression.
 */
function kotlinGenericCall(node: KotlinNode): string | undefined {
  const block = node.childForFieldName("right");
  const left = node.childForFieldName("left");
  if (block?.type !== "lambda_literal" || left?.type !== "binary_expression") return undefined;
  if (node.childForFieldName("operator")?.text !== ">") return undefined;
  if (left.childForFieldName("operator")?.text !== "<") return undefined;
  const callee = left.childForFieldName("left");
  const type = left.childForFieldName("right");
  if (!callee || !type || !/^(?:identifier|navigation_expression)$/.test(callee.type)) {
    return undefined;
  }
  if (!/^(?:identifier|navigation_expression)$/.test(type.type)) return undefined;
  return `${callee.text}<${type.text}>`.replace(/\s+/g, "");
}

/** A call's callee: `plugins`, `tasks.register` (of `tasks.register("x") { ... }`). */
function kotlinCallee(call: KotlinNode): KotlinNode | null {
  let head = call.firstNamedChild;
  if (head?.type === "call_expression") head = head.firstNamedChild;
  return head;
}

/**
 * Whether a call or an assignment is a script's statement that defines a symbol (`plugins`,
 * `implementation io.ktor:ktor-server`, `rootProject.name`); other nodes of a definition's type
 * always do.
 */
function kotlinDefines(node: KotlinNode, type: string): boolean {
  if (type === "binary_expression" && !kotlinGenericCall(node)) return false;
  if (type !== "call_expression" && type !== "assignment" && type !== "binary_expression") {
    return true;
  }
  const up = node.parent;
  if (up?.type !== "source_file" && up?.type !== "lambda_literal") return false;
  return kotlinScriptPlace(up) === "script";
}

/**
 * A script's statement's name, kind and words before its block: a call by its callee and first
 * argument when that is a plain string (`implementation("io.ktor:ktor-server")`: `implementation
 * io.ktor:ktor-server`, `tasks.register("x")`: `tasks.register x`), kind `call`; a setting by its
 * left side (`rootProject.name`), kind `setting`.
 */
function kotlinDescribe(def: KotlinNode, type: string): DeclaredName | undefined {
  if (type === "assignment") {
    const left = def.childForFieldName("left");
    if (!left) return undefined;
    const line = def.text.split("\n", 1)[0].trim();
    return { name: left.text.replace(/\s+/g, ""), kind: "setting", signature: cut(line) };
  }
  if (type === "binary_expression") {
    const name = kotlinGenericCall(def);
    return name ? { name: name.slice(0, 120), kind: "call", signature: cut(name) } : undefined;
  }
  if (type !== "call_expression") return undefined;
  const callee = kotlinCallee(def);
  if (!callee) return undefined;
  const head = def.firstNamedChild?.type === "call_expression" ? def.firstNamedChild : def;
  const args = head.namedChildren.find((c) => c.type === "value_arguments");
  const first = args?.namedChildren[0]?.firstNamedChild;
  const parts = first?.type === "string_literal" ? first.namedChildren : [];
  const title = parts.length === 1 && parts[0].type === "string_content" ? parts[0].text : "";
  const lambda = def.namedChildren.find((c) => c.type === "annotated_lambda");
  const start = def.startIndex ?? 0;
  const words = (lambda ? def.text.slice(0, (lambda.startIndex ?? start) - start) : def.text)
    .replace(/\s+/g, " ").trim();
  const name = `${callee.text.replace(/\s+/g, "")}${title ? ` ${title}` : ""}`.slice(0, 120);
  return { name, kind: "call", signature: cut(words) };
}

/** A signature cut to 240 characters. */
function cut(words: string): string {
  return words.length > 240 ? `${words.slice(0, 237)}...` : words;
}

/** A symbol a script's statement defines (the language table's `DeclaredName`). */
interface DeclaredName {
  name: string;
  signature: string;
  kind: string;
}

/** What a property holds besides its value: these are no value to elide. */
const PROPERTY_PARTS = new Set([
  "modifiers",
  "type_parameters",
  "type_constraints",
  "variable_declaration",
  "multi_variable_declaration",
  "getter",
  "setter",
  "user_type",
  "nullable_type",
  "function_type",
  "parenthesized_type",
]);

/** Nodes whose `function_body` child is their body (functions, accessors, constructors). */
const HAS_FUNCTION_BODY = new Set(["function_declaration", "getter", "setter"]);

/**
 * The field of a child tree-sitter-kotlin names none: a function's `function_body` and the
 * class body of a class are its `body`; inside a `function_body`, a block is the `body` (elided
 * as `{ ... }`) and an expression (`= size * 2`) the `value`, elided only when long; a property's
 * initializer or delegate (`by lazy { ... }`) is its `value`.
 */
function kotlinFieldOf(
  parentType: string,
  childType: string,
  parent?: KotlinNode,
): string | undefined {
  // A script's call's block (`dependencies { ... }`): a body, walked for its declarations.
  if (parentType === "annotated_lambda") {
    const call = parent?.parent;
    return childType === "lambda_literal" && call?.type === "call_expression" &&
        kotlinDefines(call, "call_expression")
      ? "body"
      : undefined;
  }
  if (childType === "function_body") return HAS_FUNCTION_BODY.has(parentType) ? "body" : undefined;
  if (parentType === "function_body") return childType === "block" ? "body" : "value";
  if (childType === "block") {
    return parentType === "secondary_constructor" || parentType === "anonymous_initializer"
      ? "body"
      : undefined;
  }
  if (childType === "class_body" || childType === "enum_class_body") return "body";
  if (parentType === "property_declaration" && !PROPERTY_PARTS.has(childType)) return "value";
  return undefined;
}

/** A Kotlin member is public API unless `private` (`internal` and `protected` count, as in C#). */
function kotlinPublic(def: KotlinNode): boolean {
  const mods = def.namedChildren.find((c) => c.type === "modifiers");
  return !mods?.namedChildren.some((c) => c.type === "visibility_modifier" && c.text === "private");
}

/** A property's name: its variable's (`val (a, b)` names `a`); an enum entry's. */
function kotlinName(def: KotlinNode, type: string): KotlinNode | null | undefined {
  if (type === "enum_entry") return def.namedChildren.find((c) => c.type === "identifier") ?? null;
  if (type !== "property_declaration") return undefined;
  let variable = def.namedChildren.find((c) =>
    c.type === "variable_declaration" || c.type === "multi_variable_declaration"
  );
  if (variable?.type === "multi_variable_declaration") {
    variable = variable.namedChildren.find((c) => c.type === "variable_declaration");
  }
  return variable?.namedChildren.find((c) => c.type === "identifier") ?? null;
}

/**
 * A class declaration's kind by its keyword (`interface`, `enum class`, `annotation class`); a
 * function in a class body is a method.
 */
function kotlinKind(def: KotlinNode, kind: string): string {
  if (def.type === "function_declaration") {
    const parent = def.parent?.type;
    return parent === "class_body" || parent === "enum_class_body" ? "method" : kind;
  }
  if (def.type !== "class_declaration") return kind;
  const mods = def.namedChildren.find((c) => c.type === "modifiers");
  const words = mods?.namedChildren.filter((c) => c.type === "class_modifier").map((c) => c.text);
  if (words?.includes("enum")) return "enum";
  if (words?.includes("annotation")) return "annotation";
  // The keyword after the modifiers (`fun interface` too): the first word that is not one.
  const head = def.text.slice(0, 400).replace(/@\w+(\([^)]*\))?/g, " ");
  return /^(?:\s|\w+\s)*?interface\b/.test(head) && !/^(?:\s|\w+\s)*?class\b/.test(head)
    ? "interface"
    : kind;
}

/**
 * Kotlin's entry of the language table, without its id and extensions.
 *
 * @example
 * ```ts
 * import { KOTLIN } from "./_kotlin.ts";
 * KOTLIN.grammar; // "kotlin"
 * ```
 */
export const KOTLIN = {
  grammar: "kotlin",
  pkg: "@tree-sitter-grammars/tree-sitter-kotlin@1.1.0",
  wasm: "tree-sitter-kotlin.wasm",
  bodyMarker: "{ ... }",
  valueMarker: "...",
  containers: new Set(["source_file", "class_body", "enum_class_body"]),
  functionBodies: new Set([
    "function_body.body",
    "secondary_constructor.body",
    "anonymous_initializer.body",
    "annotated_lambda.body",
  ]),
  // A script's generic call's block (`tasks.withType<Test> { ... }`, see `kotlinGenericCall`).
  blockBodies: new Set(["binary_expression.right"]),
  bodyTypes: new Set(["block", "lambda_literal"]),
  typeBodies: new Set(["enum_class_body"]),
  keep: kotlinKeep,
  transparent: new Set<string>(),
  attach: new Set(["line_comment", "block_comment"]),
  docBlocks: true,
  definitions: {
    class_declaration: { kind: "class" },
    object_declaration: { kind: "object" },
    companion_object: { kind: "object" },
    function_declaration: { kind: "function" },
    property_declaration: { kind: "property" },
    type_alias: { kind: "type", nameField: "type" },
    enum_entry: { kind: "constant" },
    // A script's statement (see `kotlinDefines`).
    call_expression: { kind: "call", checked: true },
    assignment: { kind: "setting", checked: true },
    binary_expression: { kind: "call", checked: true },
  },
  // A script's call's block is walked for the declarations it holds.
  expands: new Set(["call"]),
  defines: kotlinDefines,
  describe: kotlinDescribe,
  symbolName: (def: KotlinNode, type: string, text?: string) =>
    kotlinDescribe(def, type)?.name ?? movedClassName(def, type, text),
  values: new Set(["property_declaration.value", "function_body.value"]),
  expressionBodies: new Set(["function_body.value"]),
  isPublic: kotlinPublic,
  nameNode: kotlinName,
  fieldOf: kotlinFieldOf,
  kindOf: kotlinKind,
  opaque: new Set(["string_literal", "multiline_string_literal"]),
  parseText: kotlinParseText,
};

/** An annotation on one line: `@Foo`, `@file:JvmName("A")`, `@OptIn(Unsafe::class)`, `@A(B(1))`. */
const ANNOTATION = String.raw`@(?:\w+:)?[\w.]+(?:<[^<>\n]*>)?(?:\((?:[^()\n]|\([^()\n]*\))*\))?`;

/**
 * The modifiers tree-sitter-kotlin reads as a name after an annotation: `@Foo actual class C`,
 * `@Foo(1)\nconst val X = 1`, and, where what follows makes it choose so, `@A\n@B\nprivate fun
 * f() {}` (an infix call of `private`, `fun` and `f() {}`) parse as an annotated expression, and
 * the declaration is lost without an error.
 */
const SOFT = String.raw`(?:${
  [
    "actual expect const inner operator value data companion enum annotation",
    "public private protected internal override open final abstract sealed",
    "inline tailrec external infix suspend lateinit",
  ].join(" ").replaceAll(" ", "|")
})`;

/** A line's leading blanks and annotations (none or more, blanks between them). */
const LEADING_ANNOTATIONS = new RegExp(String.raw`^[ \t]*((?:${ANNOTATION}[ \t]*)*)`);

/** A soft modifier that opens a declaration (`actual class`, `const val`). */
const SOFT_START = new RegExp(String.raw`^${SOFT}[ \t]+[a-z]`);

/**
 * The text tree-sitter-kotlin reads for a Kotlin file: annotations before a soft modifier
 * (`@Foo actual class C`, `@JvmField\nconst val X = 1`) read as spaces, so the declaration after
 * them is one (it was an annotated expression, and a skeleton lost it: okio's `actual class
 * CRC32` under `@OptIn(UnsafeNumber::class)`). And a class's primary constructor on the line
 * below its name (see {@linkcode joinConstructorLines}). The text keeps its length and line
 * breaks; the views cut their text from the file itself. Undefined when there is nothing to change.
 *
 * @example
 * ```ts
 * import { kotlinParseText } from "./_kotlin.ts";
 * kotlinParseText("@Foo\nactual class C\n"); // "    \nactual class C\n"
 * kotlinParseText("class C\n"); // undefined
 * ```
 */
export function kotlinParseText(text: string): string | undefined {
  const blanked = text.includes("@") ? blankAnnotations(text) : undefined;
  return joinConstructorLines(blanked ?? text) ?? blanked;
}

/** {@linkcode kotlinParseText}'s annotations before a soft modifier, read as spaces. */
function blankAnnotations(text: string): string | undefined {
  const blanks: Array<[number, number]> = [];
  // Where a run of lines holding annotations alone starts, or -1.
  let run = -1;
  let unclosed = 0;
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    const lead = LEADING_ANNOTATIONS.exec(line)!;
    const from = start + lead[0].length - lead[1].length;
    const rest = line.slice(lead[0].length);
    // An annotation whose arguments go on over lines (`@Deprecated(` … `)`): the run goes on after
    // its closing parenthesis when nothing but blanks follows it on its line.
    const open = lead[1] && rest.startsWith("(") && start >= unclosed;
    const close = open ? closingParen(text, start + lead[0].length) : -1;
    // No parenthesis closes before there: a line up to it is not looked at again (linear time).
    if (open && close < 0) unclosed = start + lead[0].length + PAREN_REACH;
    if (close >= 0) {
      const after = text.indexOf("\n", close);
      const tail = text.slice(close, after < 0 ? text.length : after);
      if (!tail.trim()) {
        if (run < 0) run = from;
        start = after < 0 ? text.length : after + 1;
        continue;
      }
    }
    if (lead[1] && !rest.trim()) {
      if (run < 0) run = from;
    } else {
      if ((lead[1] || run >= 0) && SOFT_START.test(rest)) {
        blanks.push([run >= 0 ? run : from, start + lead[0].length]);
      }
      run = -1;
    }
    start = end + 1;
  }
  if (!blanks.length) return undefined;
  let out = "";
  let at = 0;
  for (const [from, to] of blanks) {
    out += text.slice(at, from) +
      text.slice(from, to).replace(/[^\r\n]+/g, (s) => " ".repeat(s.length));
    at = to;
  }
  return out + text.slice(at);
}

/** How far an annotation's arguments are looked for their closing parenthesis. */
const PAREN_REACH = 10_000;

/**
 * The offset after the parenthesis that closes the one at `open`, or -1 if none does within
 * {@linkcode PAREN_REACH} characters; a `)` inside a double-quoted string does not close it.
 */
function closingParen(text: string, open: number): number {
  let depth = 0;
  const stop = Math.min(text.length, open + PAREN_REACH);
  for (let i = open; i < stop; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < stop && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * A class's name where the parse read its head's line moved (see {@linkcode joinConstructorLines}):
 * the parse's text of it, as the file's at its place is another; else undefined (read there).
 */
function movedClassName(def: KotlinNode, type: string, text?: string): string | undefined {
  if (type !== "class_declaration" || text === undefined) return undefined;
  const name = def.childForFieldName("name");
  const at = name?.startIndex;
  if (!name || at === undefined) return undefined;
  return text.slice(at, at + name.text.length) === name.text ? undefined : name.text;
}

/** A class's head with nothing after its name and type parameters (`  public class Builder<T>`). */
const CLASS_HEAD =
  /^[ \t]{2}[^"/{}()=:]*\bclass[ \t]+[\p{L}_][\p{L}\p{N}_]*(?:[ \t]*<[^"/{}()=]*>)?[ \t]*$/u;

/** A primary constructor's line (`  internal constructor(`, `  @Inject constructor(`). */
const CONSTRUCTOR_LINE =
  /^[ \t]{2}[ \t]*(?:(?:public|private|protected|internal)[ \t]+)?(?:@[\w.]+(?:\([^()\n]*\))?[ \t]+)*constructor[ \t]*\(/;

/** Lines longer than this are not read as a class's head (a head is short; linear time). */
const HEAD_REACH = 300;

/**
 * A nested class whose primary constructor is on the line below its name (square's style:
 * `  public class Builder` then `  internal constructor(val name: String) : ... {`):
 * tree-sitter-kotlin ends the class at the line break inside a class body and reads a secondary
 * constructor and an error (kotlinpoet's `PropertySpec.kt` lost its members and its skeleton
 * had a line cut inside a string). The break goes in a block comment: the head's line is read
 * two columns to the left with the comment's opening at its end, and the constructor's line
 * starts with its closing, in its indent.
 * Undefined when no class is written so.
 */
function joinConstructorLines(text: string): string | undefined {
  if (!text.includes("constructor")) return undefined;
  const lines = text.split("\n");
  let changed = false;
  for (let i = 0; i + 1 < lines.length; i++) {
    const [head, next] = [lines[i], lines[i + 1]];
    if (head.length > HEAD_REACH || next.length > HEAD_REACH || !head.includes("class")) continue;
    if (!CLASS_HEAD.test(head) || !CONSTRUCTOR_LINE.test(next)) continue;
    lines[i] = `${head.slice(2)}/*`;
    lines[i + 1] = `*/${next.slice(2)}`;
    changed = true;
    i++;
  }
  return changed ? lines.join("\n") : undefined;
}
