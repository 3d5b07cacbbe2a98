/**
 * The calls of JavaScript and TypeScript test files: suites (`describe`, Mocha's `suite` and
 * `context`, Playwright's `test.describe`) and tests (`it`, `test`, `specify`, Vitest's `bench`,
 * `Deno.test`, tap's and node:test's subtests `t.test`, a test the file makes with `.extend`),
 * with their modifiers (`.only`, `.skip`, `.todo`, `.concurrent`, `.serial`, `.each(table)`). The code views
 * make each a symbol named by its title, so that a test file's skeleton and outline say what it
 * tests (see `jsTestKind`).
 *
 * @module
 */

/** A syntax node as the language table sees it (its `NodeLike`, which imports this file). */
interface JsNode {
  type: string;
  text: string;
  namedChildren: JsNode[];
  firstNamedChild: JsNode | null;
  parent?: JsNode | null;
  /** The tree it is of (web-tree-sitter's nodes have it): the file's own test names are kept by it. */
  tree?: object;
  childForFieldName(name: string): JsNode | null;
}

/** Names a suite's call starts with (Jest's and Jasmine's focused and skipped ones too). */
const SUITES = new Set(["describe", "fdescribe", "xdescribe", "suite", "context"]);

/** Names a test's call starts with. */
const TESTS = new Set(["it", "fit", "xit", "test", "xtest", "specify", "bench"]);

/** `Deno.test`'s and `Deno.bench`'s second names. */
const DENO = new Set(["test", "bench"]);

/** Node types of a title: a string, a template, a name (`describe(Store.name, ...)`). */
const TITLES = new Set(["string", "template_string", "identifier", "member_expression"]);

/** Node types of a function passed as a test's or suite's body. */
const FUNCTIONS = /^(?:arrow_function|function_expression|function|generator_function)$/;

/**
 * A line that starts a suite or a test (`describe(`, `describe.each(`, `it(`, `test.describe(`):
 * a function body holding one (a suite's callback, whose statements are shown) is not hollowed
 * out before the parse, the bodies inside it are (see `grammars/_js_hollow.ts`).
 *
 * @example
 * ```ts
 * import { TEST_LINE } from "./_js_tests.ts";
 * TEST_LINE.test('  it("adds", () => {\n'); // true
 * ```
 */
export const TEST_LINE =
  /^[ \t]*(?:await\s+)?(?:describe|fdescribe|xdescribe|suite|context|it|fit|xit|test|xtest|specify|bench|Deno\.test)\b[\w$.]*\s*\(/m;

/** The names of a callee, root first (`describe.each([...])` is `describe`, `each`). */
function calleeNames(callee: JsNode | null): string[] {
  const names: string[] = [];
  for (let n = callee, i = 0; n && i < 8; i++) {
    if (n.type === "identifier") {
      names.unshift(n.text);
      return names;
    }
    if (n.type === "member_expression") {
      names.unshift(n.childForFieldName("property")?.text ?? "");
      n = n.childForFieldName("object");
    } else if (n.type === "call_expression") {
      n = n.childForFieldName("function");
    } else {
      return [];
    }
  }
  return [];
}

/** The longest line an outline shows for a test (as for any signature). */
const MAX_LINE = 240;

/** The longest table of `.each(table)` an outline line shows as written. */
const MAX_TABLE = 40;

/**
 * A callee as the outline shows it: `.each(table)`'s table as written when it is short and on
 * one line, else `(...)` (a template's `` `...` ``).
 */
function calleeWords(callee: JsNode): string {
  const table = callee.type === "call_expression" ? callee.childForFieldName("arguments") : null;
  const fn = callee.childForFieldName("function");
  if (!table || !fn || (table.text.length <= MAX_TABLE && !table.text.includes("\n"))) {
    return callee.text.replace(/\s+/g, " ");
  }
  return `${fn.text.replace(/\s+/g, " ")}${table.type === "arguments" ? "(...)" : "`...`"}`;
}

/** The value of an object's `name: "..."` pair (`Deno.test({ name: "adds", fn() {} })`). */
function namePair(object: JsNode): JsNode | undefined {
  for (const pair of object.namedChildren) {
    if (pair.type !== "pair" || pair.childForFieldName("key")?.text !== "name") continue;
    const value = pair.childForFieldName("value");
    return value && TITLES.has(value.type) ? value : undefined;
  }
  return undefined;
}

/**
 * Whether `name.test(...)` is a subtest: called on a name (`t`, `tap`), with a title and a function
 * or a title, options and a function (tap's and node:test's forms). Yup's
 * `schema.test("name", "message", fn)` passes a string between.
 */
function isSubtest(callee: JsNode, args: JsNode): boolean {
  const [, ...rest] = args.namedChildren;
  const options = rest.length === 2 ? rest[0].type === "object" : rest.length === 1;
  return callee.childForFieldName("object")?.type === "identifier" && options &&
    FUNCTIONS.test(rest[rest.length - 1]?.type ?? "");
}

/** Whether a call's arguments hold a function (a test's or suite's body). */
function passesFunction(args: JsNode): boolean {
  return args.namedChildren.some((a) => FUNCTIONS.test(a.type));
}

/** The test functions each file's tree makes, by the tree (see {@linkcode fileTests}). */
const made = new WeakMap<object, Set<string>>();

/**
 * The names a file binds to test functions at its top level: a test's name imported under
 * another (`import { test as base } from "@playwright/test"`) and a constant made by extending
 * one (`const test = base.extend({...})`, `export const it = test.extend<Fixtures>({...})`, in
 * order, so one extended from another counts). Read once per tree.
 */
function fileTests(node: JsNode): Set<string> {
  const known = node.tree && made.get(node.tree);
  if (known) return known;
  let root = node;
  for (let up = node.parent; up; up = up.parent) root = up;
  const names = new Set<string>();
  for (let statement of root.namedChildren) {
    if (statement.type === "export_statement") {
      statement = statement.childForFieldName("declaration") ?? statement;
    }
    if (statement.type === "import_statement") importedTests(statement, names);
    if (statement.type !== "lexical_declaration" && statement.type !== "variable_declaration") {
      continue;
    }
    for (const declarator of statement.namedChildren) {
      const name = declarator.childForFieldName("name");
      const value = declarator.childForFieldName("value");
      if (name?.type !== "identifier" || value?.type !== "call_expression") continue;
      const [base, ...rest] = calleeNames(value.childForFieldName("function"));
      const tested = TESTS.has(base) || names.has(base);
      if (tested && rest.length === 1 && rest[0] === "extend") names.add(name.text);
    }
  }
  if (node.tree) made.set(node.tree, names);
  return names;
}

/** The local names of tests an import renames (`{ test as base }`), added to `names`. */
function importedTests(statement: JsNode, names: Set<string>): void {
  const clause = statement.namedChildren.find((c) => c.type === "import_clause");
  const named = clause?.namedChildren.find((c) => c.type === "named_imports");
  for (const specifier of named?.namedChildren ?? []) {
    const imported = specifier.childForFieldName("name")?.text;
    const alias = specifier.childForFieldName("alias")?.text;
    if (imported && alias && TESTS.has(imported)) names.add(alias);
  }
}

/** A suite or test call as the code views show it (see {@linkcode jsTestCall}). */
export interface TestCall {
  /** `suite` (its callback's body holds tests) or `test`. */
  kind: "suite" | "test";
  /** Its title as written, without a string's quotes or a template's backticks. */
  name: string;
  /** Its callee and title, its body left out: `describe.each([1, 2])("with %d")`. */
  signature: string;
}

/**
 * What a call is in a test file: a suite (`describe("Router", () => {...})`), a test
 * (`it("matches", ...)`, `test.skip("x", ...)`, `it.todo("later")`, `Deno.test({ name, fn })`), or
 * undefined for any other call (a hook, `beforeEach(() => {...})`, has no title). A suite or test
 * is titled by its first argument (a string, a template, a name) and has a function argument or a
 * modifier (`.todo`).
 *
 * @example
 * ```ts
 * import { jsTestCall } from "./_js_tests.ts";
 * import { parserFor } from "./tree_sitter.ts";
 * const tree = (await parserFor("javascript")).parse('it("adds", () => {});\n')!;
 * const node = tree.rootNode.firstNamedChild!.firstNamedChild!;
 * const call = node as unknown as Parameters<typeof jsTestCall>[0];
 * jsTestCall(call); // { kind: "test", name: "adds", signature: 'it("adds")' }
 * ```
 */
export function jsTestCall(call: JsNode): TestCall | undefined {
  // The view asks of the same node whether it defines a symbol, then what: read once.
  if (call === last.call) return last.found;
  last.call = call;
  return last.found = readTestCall(call);
}

/** The node {@linkcode jsTestCall} read last, and what it found. */
const last: { call?: JsNode; found?: TestCall } = {};

/** What {@linkcode jsTestCall} finds. */
function readTestCall(call: JsNode): TestCall | undefined {
  const callee = call.childForFieldName("function");
  const names = calleeNames(callee);
  const [root] = names;
  const args = call.childForFieldName("arguments");
  const first = args?.type === "arguments" ? args.firstNamedChild : undefined;
  if (!root || !first || !TITLES.has(first.type) && first.type !== "object") return undefined;
  let kind: "suite" | "test" | undefined;
  if (SUITES.has(root)) kind = "suite";
  else if (TESTS.has(root)) kind = names.includes("describe") ? "suite" : "test";
  else if (root === "Deno" && DENO.has(names[1])) kind = "test";
  else if (names.length === 2 && names[1] === "test" && isSubtest(callee!, args!)) {
    // A subtest (tap's and node:test's `t.test("x", (t) => {...})`, `tap.test(...)`).
    kind = "test";
  } else if (passesFunction(args!) && fileTests(call).has(root)) {
    // A test function the file makes (Playwright's and Vitest's `const test = base.extend(...)`).
    kind = names.includes("describe") ? "suite" : "test";
  }
  if (!kind || !callee) return undefined;
  const title = TITLES.has(first.type)
    ? first
    : root === "Deno" && first.type === "object"
    ? namePair(first)
    : undefined;
  if (!title || !(names.length > 1 || passesFunction(args!))) {
    return undefined;
  }
  const words = title.text.replace(/\s+/g, " ");
  const quoted = title.type === "string" || title.type === "template_string";
  const head = calleeWords(callee);
  const signature = title === first ? `${head}(${words})` : `${head}({ name: ${words} })`;
  return {
    kind,
    name: quoted ? words.slice(1, -1) : words,
    signature: signature.length > MAX_LINE ? `${signature.slice(0, MAX_LINE - 3)}...` : signature,
  };
}
