/**
 * Bats' test blocks (`@test "adds one" { ... }`) in the text tree-sitter-bash reads: the header
 * is not shell, and the parser read every test as errors (bats-core's `.bats` files were
 * `summary`). The header becomes a function's of the same length (`@test "adds one" {` reads
 * `_______________(){`), so the views elide its body as a function's, and name the test by its
 * title, read from the file itself.
 *
 * @module
 */

/**
 * A test's header: `@test`, its title (quoted or not: Bats reads all up to the last ` {`), `{`
 * (what follows on its line is the body's).
 */
const TEST_HEADER = /^([ \t]*)(@test[ \t]+(.*\S)[ \t]+\{)/;

/** The same on any line of a text. */
const TEST_HEADERS = new RegExp(TEST_HEADER.source, "gm");

/**
 * The text to parse with each test's header as a function's, or undefined when the text holds
 * none. Its length and line breaks are the text's.
 *
 * @example
 * ```ts
 * import { batsParseText } from "./_bats.ts";
 * batsParseText('@test "adds one" {\n  run add 1\n}\n'); // '_______________(){\n  run add 1\n}\n'
 * batsParseText("f() { :; }\n"); // undefined
 * ```
 */
export function batsParseText(text: string): string | undefined {
  if (!text.includes("@test")) return undefined;
  const out = text.replace(
    TEST_HEADERS,
    (_all, lead: string, header: string) => lead + "_".repeat(header.length - 3) + "(){",
  );
  return out === text ? undefined : out;
}

/** The part of a syntax node {@linkcode batsTest} reads (the language table's `NodeLike`). */
interface BatsNode {
  type: string;
  text: string;
  startIndex?: number;
}

/**
 * A Bats test's symbol: a function's definition that {@linkcode batsParseText} wrote (its name
 * all `_` right before `(){`, a test's header in the file's `text`), named by its title without
 * its quotes, kind `test`, its signature the header (`@test "adds one"`); undefined for another
 * definition.
 *
 * @example
 * ```ts
 * import { batsTest } from "./_bats.ts";
 * const def = { type: "function_definition", text: "_______________(){\n}", startIndex: 0 };
 * batsTest(def, "function_definition", '@test "adds one" {\n}\n')?.name; // "adds one"
 * ```
 */
export function batsTest(
  def: BatsNode,
  type: string,
  text?: string,
): { name: string; kind: string; signature: string } | undefined {
  const start = def.startIndex;
  if (type !== "function_definition" || text === undefined || start === undefined) return undefined;
  if (!/^_+\(\)\{/.test(def.text)) return undefined;
  const line = text.lastIndexOf("\n", start - 1) + 1;
  const end = text.indexOf("\n", start);
  const header = TEST_HEADER.exec(text.slice(line, end < 0 ? text.length : end));
  if (!header) return undefined;
  const title = header[3];
  const quoted = /^(["'])([\s\S]*)\1$/.exec(title);
  return {
    name: (quoted ? quoted[2] : title).slice(0, 120),
    kind: "test",
    signature: header[2].replace(/[ \t]*\{$/, "").slice(0, 240),
  };
}
