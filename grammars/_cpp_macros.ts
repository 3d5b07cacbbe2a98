/**
 * The text tree-sitter-cpp reads for a C++ file: a macro word that stands where the language has
 * no place for it read as spaces. Libraries wrap their declarations in words their own headers
 * define (`FMT_BEGIN_NAMESPACE` on a line of its own, `FMT_EXPORT template <…>`,
 * `class GTEST_API_ Mock {`); the parser, which sees no macro's definition, reads the word as a
 * type and what follows as errors, and a skeleton lost the classes after it (fmtlib/fmt's
 * `args.h` kept its first namespace and nothing more). Only an upper-case word goes (macros are
 * written so), and only where a keyword that starts a declaration follows it, or between `class`
 * and the class's name: a type named in capitals (`BOOL f(void)`, `struct STAT st;`) stays. The
 * text keeps its length and line breaks, so every offset, row and column stays where it was; the
 * views cut their text from the file itself, where the words are.
 *
 * @module
 */

/** An upper-case word, as macros are written (`FMT_EXPORT`, `_LIBCPP_TYPE_VIS`, `QT_BEGIN_NAMESPACE`). */
const MACRO = String.raw`_*[A-Z][A-Z0-9_]*[A-Z0-9_]`;

/** The keywords that start a declaration, after which a macro word before them has no place. */
const DECLARATION_START = String.raw`(?:template|class|struct|union|enum|namespace|typedef|` +
  String.raw`using|extern|inline|static|constexpr|consteval|virtual|explicit|friend)\b`;

/** A macro word before a keyword that starts a declaration, on one line (`FMT_EXPORT template`). */
const BEFORE_KEYWORD = new RegExp(String.raw`^([ \t]*)(${MACRO})(?=[ \t]+${DECLARATION_START})`);

/**
 * A macro word before an out-of-line constructor or destructor (`SPDLOG_INLINE
 * spdlog::logger::logger(`, `LIB_INLINE a::b::~b(`): one has no type, so the parser read the
 * word as its type and the constructor's initializer list as errors.
 */
const BEFORE_CONSTRUCTOR = new RegExp(
  String.raw`^([ \t]*)(${MACRO})(?=[ \t]+(?:\w+::)*(\w+)::~?\3[ \t]*\()`,
);

/**
 * A macro word before a function's type and name (`SPDLOG_INLINE void spdlog::logger::flush_(`,
 * `LIB_API const char *name(`): the parser read the word as the type, the type as the first part
 * of the name (`void lib.logger.flush`) and the rest as errors. A type in capitals before a
 * name alone (`BOOL f(void)`) is no such word.
 */
const BEFORE_TYPED = new RegExp(
  String.raw`^([ \t]*)(${MACRO})(?=[ \t]+(?:(?:const|unsigned|signed|long|short|volatile)[ \t]+)*` +
    String.raw`[A-Za-z_][\w:]*(?:<[^;{}()\n]{0,200}>)?(?:[ \t]*[*&]+[ \t]*|[ \t]+)` +
    String.raw`~?[A-Za-z_][\w:~]*[ \t]*\()`,
);

/**
 * A macro word between a function's type and its name (`void SPDLOG_INLINE thread_pool::post_log(`,
 * `std::future<void> SPDLOG_INLINE pool::post_flush(`): the parser read the word as the name's first
 * part (`SPDLOG_INLINE thread_pool.post_log`). A statement's word (`return X f(`) is none.
 */
const AFTER_TYPE = new RegExp(
  String.raw`^([ \t]*(?!(?:return|else|case|new|delete|throw|goto|typedef)\b)[A-Za-z_][\w:]*` +
    String.raw`(?:<[^;{}()\n]{0,200}>)?(?:[ \t]*[*&]+[ \t]*|[ \t]+))(${MACRO})` +
    String.raw`(?=[ \t]+~?[A-Za-z_][\w:~]*[ \t]*\()`,
);

/** A line that starts with a macro's call (`TEST_CASE("x") {`, `REGISTER(A);`). */
const MACRO_CALL = new RegExp(String.raw`^[ \t]*${MACRO}[ \t]*\(`);

/** A macro word alone on its line (a comment may follow it). */
const ALONE = new RegExp(String.raw`^([ \t]*)(${MACRO})[ \t]*(?:\/\/.*)?$`);

/**
 * A macro word before a block on its line (`SPDLOG_TRY {`, `FMT_TRY{`: a `try` when the library
 * has exceptions; `SPDLOG_NOEXCEPT {` after a signature): the parser read the word and the block
 * as a compound literal, and the statements in it as errors.
 */
const BEFORE_BLOCK = new RegExp(String.raw`^([ \t]*)(${MACRO})(?=[ \t]*\{[ \t]*(?:\/\/.*)?$)`);

/**
 * A macro word, or a macro's call, alone on an indented line with no `;` (`SPDLOG_LOGGER_CATCH(
 * source_loc())`, `SPDLOG_CATCH_STD`: a `catch` clause when the library has exceptions), right
 * after a line that closes a block, or first in a function's body (Qt's `Q_UNUSED(x)`): the
 * parser joined it with the next statement into a declaration (a symbol named `(source_loc())`).
 */
const AFTER_BLOCK = new RegExp(
  String.raw`^([ \t]+)(${MACRO}(?:[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))?)[ \t]*(?:\/\/.*)?$`,
);

/**
 * Qt's declaring macro called alone on its line, with no `;` (`Q_PROPERTY(QColor color READ color
 * NOTIFY changed)`, `Q_ENUM(Mode)`, `Q_DECLARE_METATYPE(A)`): its header defines it as nothing the
 * parser would read (moc reads it), which took it and the line after it for one declaration (a
 * method named `Q_PROPERTY`, the next member lost in it). Read as blanks, shown as written.
 */
const QT_CALL = /^([ \t]*)(Q_[A-Z0-9_]+[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))[ \t]*(?:\/\/.*)?$/;

/** A string or character literal on one line, its escapes read (`"a ( b"`, `')'`). */
const QUOTED = String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`;

/**
 * A test head's arguments: text, strings and character literals (their brackets are text: `"a (
 * b"`, `')'`) and parentheses one deep; a bracket in a string made a head no test's, and the
 * test was lost.
 */
const ARGUMENTS = String.raw`(?:${QUOTED}|[^()"'\n]|\((?:${QUOTED}|[^()"'\n])*\))*`;

/**
 * A Catch2 or doctest test case's head alone on its line (`TEST_CASE("Factorials", "[math]")`,
 * `SCENARIO("x")`, `TEMPLATE_TEST_CASE("y", "[t]", int, float)`, `TEST_CASE_METHOD(Fixture,
 * "z")`, Catch2's `SCENARIO_METHOD` and `TEMPLATE_PRODUCT_`/`LIST_` forms, doctest's
 * `TEST_CASE_FIXTURE(F, "x")`, `TEST_CASE_TEMPLATE("x", T, int)`, `..._DEFINE`, `SCENARIO_...`),
 * its block after it (or its body on the line, `TEST_CASE("x") {}`): its string arguments made it
 * no function the parser could read (a statement, then a block at the file's top level), and a
 * skeleton dropped the tests. Its
 * arguments are read as blanks, so it parses as GoogleTest's `TEST(Suite, Name) { ... }` does:
 * a function, whose body is elided (see {@linkcode catchTest} for its symbol).
 */
const CATCH_TEST = new RegExp(
  String
    .raw`^([ \t]*(?:(?:TEMPLATE_(?:PRODUCT_|LIST_)?)?(?:TEST_CASE|SCENARIO)(?:_METHOD)?|(?:TEST_CASE|SCENARIO)_(?:FIXTURE|CLASS|TEMPLATE(?:_DEFINE)?))[ \t]*\()(${ARGUMENTS})(\)[ \t]*(?:\{.*)?)(?:\/\/.*)?\r?$`,
);

/**
 * A test case's or suite's head that opens its arguments on its line and closes them on a later
 * one (`TEST_CASE(\n    "a long title",\n    "[tag]") {`, as clang-format breaks a long head).
 */
const HEAD_OPENS =
  /^[ \t]*(?:(?:TEMPLATE_(?:PRODUCT_|LIST_)?)?(?:TEST_CASE|SCENARIO)(?:_METHOD)?|(?:TEST_CASE|SCENARIO)_(?:FIXTURE|CLASS|TEMPLATE(?:_DEFINE)?)|TEST_SUITE)[ \t]*\(/;

/** A line that goes on on the next (a macro's definition): `\` at its end. */
const CONTINUED = /\\[ \t\r]*$/;

/**
 * How many lines a test case's head may run over (see {@linkcode HEAD_OPENS}): a template test's
 * list of types may be one a line (CLI11's has 14 lines).
 */
const HEAD_LINES = 64;

/** A raw string's opening (`R"(`, `u8R"delim(`): its delimiter is the first group. */
const RAW_OPEN = /(?<![\w"])(?:u8|[uUL])?R"([^()\\\s"]{0,16})\(/g;

/**
 * A line with each raw string on it (`R"(a "b" (c))"`, `u8R"x(...)x"`) read as a plain string of
 * the same length whose text starts and ends where the raw one's does, its quotes and backslashes
 * as `_` (the title is read from the line as written at the same offsets): a head's patterns read
 * plain strings only, and a raw title's `"` or `)` made the test no test.
 */
function plainRaw(line: string): string {
  if (!line.includes('R"')) return line;
  let out = "";
  let from = 0;
  for (const open of line.matchAll(RAW_OPEN)) {
    if (open.index < from) continue;
    const start = open.index + open[0].length;
    const end = line.indexOf(`)${open[1]}"`, start);
    if (end < 0) break;
    const inner = line.slice(start, end).replace(/["\\]/g, "_");
    out += line.slice(from, open.index) + " ".repeat(open[0].length - 1) + '"' + inner + '"' +
      " ".repeat(open[1].length + 1);
    from = end + open[1].length + 2;
  }
  return out + line.slice(from);
}

/**
 * How deep in parentheses the end of `text` is, those in strings and character literals aside
 * (`"a (x"` opens none).
 */
function depthAtEnd(raw: string): number {
  const text = plainRaw(raw);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c && text[i] !== "\n"; i++) {
        if (text[i] === "\\") i++;
      }
    } else if (c === "(") depth++;
    else if (c === ")") depth--;
  }
  return depth;
}

/**
 * The lines from `lines[at]` on that a test case's head runs over (see {@linkcode HEAD_OPENS}),
 * joined with their line ends; undefined when the head closes on its own line, or not within
 * {@linkcode HEAD_LINES}.
 */
function headOver(lines: string[], at: number): string | undefined {
  if (!HEAD_OPENS.test(lines[at])) return undefined;
  // A string ends at its line's end at the latest: the head's depth is its lines' depths added.
  let depth = depthAtEnd(lines[at]);
  if (depth <= 0) return undefined;
  let head = lines[at];
  for (let i = at + 1; i < lines.length && i - at < HEAD_LINES; i++) {
    if (CONTINUED.test(lines[i - 1])) return undefined;
    head += "\n" + lines[i];
    depth += depthAtEnd(lines[i]);
    if (depth <= 0) return head;
  }
  return undefined;
}

/**
 * doctest's suite alone on its line (`TEST_SUITE("math") {`), test cases in its block: read as a
 * namespace of the same length (`namespace          {`), so its tests are kept as a namespace's
 * functions are (the suite's string made the block no item, and its tests were dropped).
 */
const DOCTEST_SUITE = new RegExp(
  String.raw`^([ \t]*)TEST_SUITE([ \t]*\(${ARGUMENTS}\))([ \t]*\{?[ \t]*)(?:\/\/.*)?\r?$`,
);

/**
 * The title a Catch2 test case's head holds: its first string (after a fixture's name, in a
 * `_METHOD` or `_FIXTURE` head only: `TEST_CASE(TITLE, "[tag]")` is titled by no tag).
 */
const CATCH_TITLE =
  /^(?:[A-Z_]*(?:_METHOD|_FIXTURE)[ \t]*\([ \t]*[A-Za-z_][\w:]*[ \t]*,|[A-Z_]+[ \t]*\()[ \t]*"((?:[^"\\\n]|\\.)*)"((?:[ \t]*"(?:[^"\\\n]|\\.)*")*)/d;

/** A title a macro holds (`TEST_CASE(TITLE, "[tag]")`): the macro's name. */
const MACRO_TITLE =
  /^(?:[A-Z_]*(?:_METHOD|_FIXTURE)[ \t]*\([ \t]*[A-Za-z_][\w:]*[ \t]*,|[A-Z_]+[ \t]*\()[ \t]*([A-Za-z_]\w*)[ \t]*[,)]/;

/**
 * A title as `line` writes it, from {@linkcode CATCH_TITLE}'s match on its plain reading: its
 * first string's text, then that of the strings next to it (`"a long " "title"`) run together.
 */
function titleOf(line: string, titled: RegExpExecArray): string {
  const [first, rest] = [titled.indices?.[1] ?? [0, 0], titled.indices?.[2] ?? [0, 0]];
  let title = line.slice(first[0], first[1]);
  for (const m of titled[2].matchAll(/"((?:[^"\\\n]|\\.)*)"/dg)) {
    const [start, end] = m.indices?.[1] ?? [0, 0];
    title += line.slice(rest[0] + start, rest[0] + end);
  }
  return title;
}

/**
 * The symbol of a Catch2 or doctest test case (read as a function by {@linkcode blankMacroWords}):
 * kind `test`, named by its title (`TEST_CASE("Factorials", "[math]")`: `Factorials`), its
 * signature the head as written; undefined for another function.
 *
 * @example
 * ```ts
 * import { catchTest } from "./_cpp_macros.ts";
 * const text = 'TEST_CASE("adds") {}';
 * catchTest({ startIndex: 0, text: "TEST_CASE(      ) {}" }, "function_definition", text)?.name; // "adds"
 * ```
 */
export function catchTest(
  def: { startIndex?: number; text: string },
  type: string,
  text?: string,
): { name: string; kind: string; signature: string } | undefined {
  const suite = type === "namespace_definition";
  if ((type !== "function_definition" && !suite) || text === undefined) return undefined;
  const start = def.startIndex ?? -1;
  const code = text.charCodeAt(start);
  if (start < 0 || code < UPPER_A || code > UPPER_Z) return undefined;
  const end = text.indexOf("\n", start);
  let line = text.slice(start, end < 0 ? text.length : end);
  // A head over several lines is read as one line, its breaks and indents one blank each.
  const over = HEAD_OPENS.test(line) && depthAtEnd(line) > 0
    ? headOver(text.slice(start, start + 16384).split("\n", HEAD_LINES), 0)
    : undefined;
  if (over !== undefined) line = over.replace(/[ \t]*\r?\n[ \t]*/g, " ");
  // Read with raw strings as plain ones; names and signature taken from the line as written.
  const plain = plainRaw(line);
  const head = suite ? DOCTEST_SUITE.exec(plain) : CATCH_TEST.exec(plain);
  const titled = head && CATCH_TITLE.exec(plain);
  // A title of adjacent strings is their text run together (`"a long " "title"`).
  const title = titled ? titleOf(line, titled) : head && MACRO_TITLE.exec(plain)?.[1];
  if (!head || !title) return undefined;
  const signature = suite
    ? `TEST_SUITE${line.slice(head[1].length + 10, head[1].length + 10 + head[2].length)}`.trim()
    : (line.slice(0, head[1].length + head[2].length) + ")").trim();
  return {
    name: title,
    kind: suite ? "suite" : "test",
    signature: signature.length > 240 ? `${signature.slice(0, 237)}...` : signature,
  };
}

/**
 * A Qt declaring call as the parser reads it: `Q_PROPERTY(QColor color READ color)` as a field
 * of the same length (`int Q_PROPERTY        ;`), so the property is a member whose text is the
 * call (see {@linkcode qtProperty}); any other (`Q_ENUM(Mode)`) as blanks.
 */
function qtCall(call: string): string {
  if (!QT_PROPERTY.test(call)) return " ".repeat(call.length);
  return "int Q_PROPERTY".padEnd(call.length - 1) + ";";
}

/**
 * Whether a node's text is a Qt property as the parser reads it (see {@linkcode qtCall}): public
 * API wherever it stands, as moc makes it (Qt's own classes declare them before `public:`).
 *
 * @example
 * ```ts
 * import { readsAsQtProperty } from "./_cpp_macros.ts";
 * readsAsQtProperty("int Q_PROPERTY      ;"); // true
 * ```
 */
export function readsAsQtProperty(text: string): boolean {
  return text.startsWith("int Q_PROPERTY ") && /^int Q_PROPERTY +;$/.test(text);
}

/** A Qt property's declaration: its type, then its name before the first of moc's words. */
const QT_PROPERTY =
  /^Q_PROPERTY[ \t]*\([ \t]*[^()\n]*?[\w>*&][ \t]*[*&]?[ \t]*([A-Za-z_]\w*)[ \t]+(?:READ|MEMBER|WRITE|BINDABLE)\b/;

/**
 * The symbol of a Qt property (`Q_PROPERTY(QColor color READ color NOTIFY changed)`, read as a
 * field by {@linkcode blankMacroWords}): kind `property`, named by its name (`color`), its
 * signature the call as written; undefined for another declaration.
 *
 * @example
 * ```ts
 * import { qtProperty } from "./_cpp_macros.ts";
 * const text = "Q_PROPERTY(int size READ size)";
 * const def = { startIndex: 0, text: "int Q_PROPERTY                ;" };
 * qtProperty(def, "field_declaration", text)?.name; // "size"
 * ```
 */
export function qtProperty(
  def: { startIndex?: number; text: string },
  type: string,
  text?: string,
): { name: string; kind: string; signature: string } | undefined {
  if (type !== "field_declaration" && type !== "declaration") return undefined;
  const start = def.startIndex ?? -1;
  if (text === undefined || start < 0 || !text.startsWith("Q_PROPERTY", start)) return undefined;
  // The parser's text has the file's length: the node's span is the call's in the file.
  const call = text.slice(start, start + def.text.length);
  const name = QT_PROPERTY.exec(call)?.[1];
  return name ? { name, kind: "property", signature: call.trim() } : undefined;
}

/**
 * A line that starts a statement or closes a block (or none): a line before it that is a macro's
 * call alone ends there; one before `{`, `<<` or `.` goes on (`EXPECT_TRUE(x)` then `<< "why"`,
 * Catch2's `SECTION("a")` then its block).
 */
const ENDS_BEFORE = /^$|^[ \t]*(?:[A-Za-z_#}]|\/[/*])/;

/** A line that closes a block (a comment may follow it). */
const CLOSES_BLOCK = /\}[ \t]*(?:\/\/.*)?$/;

/** A line that opens a block (a comment may follow it). */
const OPENS_BLOCK = /\{[ \t]*(?:\/\/.*)?$/;

/** A line of a type's or namespace's head, whose block holds declarations. */
const TYPE_HEAD = /\b(?:class|struct|union|enum|namespace)\b/;

/**
 * A line that starts a declaration, a directive or an access label (Qt's `signals:` too): a macro
 * word alone before it has no place (Qt's `Q_OBJECT` above `public:`).
 */
const STARTS_DECLARATION = new RegExp(
  String.raw`^[ \t]*(?:#|${DECLARATION_START}|(?:public|protected|private|signals|Q_SIGNALS)\b)`,
);

/**
 * Qt's access labels, which its headers define as C++'s (`signals:` and `Q_SIGNALS:` as
 * `public:`, `public slots:` as `public:`): read as those, the words the parser does not know
 * made every class of a Qt app an error (flameshot: 135 of its 225 C++ files).
 */
const QT_LABEL =
  /^([ \t]*)(?:(signals|Q_SIGNALS)|(?:public|protected|private)([ \t]+)(slots|Q_SLOTS))(?=[ \t]*:(?!:))/;

/**
 * A line that may hold a macro word inside it: an upper-case word after `class`, `struct`,
 * `union` or `if` (a preprocessor line is none).
 */
const HAS_INNER = /^(?![ \t]*#).*\b(?:class|struct|union|if)[ \t]+_*[A-Z]/;

/** Whether a text may hold any macro word out of place: most files hold none, and are not split. */
const MAY_HOLD =
  /^[ \t]*_*[A-Z]|^[ \t]*signals[ \t]*:|\bslots[ \t]*:|\b(?:class|struct|union|if)[ \t]+_*[A-Z]|[\w>*&][ \t]+_*[A-Z][A-Z0-9_]*[A-Z0-9_][ \t]+~?[A-Za-z_][\w:~]*[ \t]*\(/m;

const UNDERSCORE = 95;
const UPPER_A = 65;
const UPPER_Z = 90;

/** A macro word between `if` and its condition (`if FMT_CONSTEXPR20 (x)`: an `if constexpr`). */
const IN_IF = new RegExp(String.raw`\b(if[ \t]+)(${MACRO})(?=[ \t]*\()`, "g");

/**
 * A macro word between `class` (or `struct`, `union`) and the name (`class FMT_API format_error :`),
 * attributes perhaps between them (`class GTEST_API_ [[nodiscard]] FilePath {`). An attribute is
 * read up to 128 characters, so a line of many `class` words is still read in linear time.
 */
const IN_CLASS_HEAD = new RegExp(
  String.raw`\b((?:class|struct|union)[ \t]+)(${MACRO})(?=[ \t]+` +
    String.raw`(?:\[\[[^\]\n]{0,128}\]\][ \t]*){0,2}` +
    String.raw`[A-Za-z_]\w*[ \t]*(?:final\b|:(?!:)|\{|$))`,
  "g",
);

/**
 * A line of Qt's access label as C++'s, of the same length (`signals:` reads `public :`,
 * `private slots:` reads `private       :`), or undefined for another line.
 */
function qtLabel(line: string): string | undefined {
  const label = QT_LABEL.exec(line);
  if (!label) return undefined;
  const [all, lead, signals, blanks, slots] = label;
  const rest = line.slice(all.length);
  if (signals) return lead + "public" + " ".repeat(signals.length - 6) + rest;
  return line.slice(0, all.length - blanks.length - slots.length) +
    " ".repeat(blanks.length + slots.length) + rest;
}

/**
 * Whether a line is a macro's call alone that stands for a statement: after a block's close, or
 * first in a function's body (Qt's `Q_UNUSED(x)`), and before a statement. A macro's call first
 * in a class's body declares its members (`DECLARE_GETTER(a)`) and stays.
 */
function callAlone(line: string, [above2, above]: string[], after: string | undefined): boolean {
  const opens = OPENS_BLOCK.test(above) && !TYPE_HEAD.test(above) && !TYPE_HEAD.test(above2);
  return (CLOSES_BLOCK.test(above) || opens) && AFTER_BLOCK.test(line) &&
    ENDS_BEFORE.test(after ?? "");
}

/**
 * The first line from `lines[at]` (`line`, not blank) on that is not a Qt declaring call
 * (`Q_PROPERTY(...)`), 64 of them at most, skipping blank lines; undefined past the end.
 */
function pastQtCalls(lines: string[], at: number, line: string | undefined): string | undefined {
  for (let seen = 0; line !== undefined && QT_CALL.test(line) && seen < 64; seen++) {
    at++;
    while (at < lines.length && !lines[at].trim()) at++;
    line = at < lines.length ? lines[at] : undefined;
  }
  return line;
}

/**
 * The text to parse with those words as spaces, or `undefined` when there is none (the file
 * itself is read). A preprocessor line is left as it is (`#define X_API extern` defines `X_API`).
 *
 * @example
 * ```ts
 * import { blankMacroWords } from "./_cpp_macros.ts";
 * blankMacroWords("FMT_EXPORT template <typename T> class C {};\n");
 * // "           template <typename T> class C {};\n"
 * ```
 */
export function blankMacroWords(text: string): string | undefined {
  if (!MAY_HOLD.test(text)) return undefined;
  const lines = text.split("\n");
  // The next line that is not blank, walked once for all lines (both only move forward).
  let filled = 0;
  const next = (i: number) => {
    if (filled <= i) filled = i + 1;
    while (filled < lines.length && !lines[filled].trim()) filled++;
    return filled < lines.length ? lines[filled] : undefined;
  };
  // The last two lines before this one that are not blank.
  let previous = "";
  let before = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const above = previous;
    const above2 = before;
    if (line.trim()) [before, previous] = [previous, line];
    const first = line.trimStart().charCodeAt(0);
    const word = first === UNDERSCORE || (first >= UPPER_A && first <= UPPER_Z);
    const inner = HAS_INNER.test(line);
    const typed = !word && AFTER_TYPE.test(line);
    const label = qtLabel(line);
    if (!word && !inner && !typed && label === undefined) continue;
    let out = label ??
      (typed ? line.replace(AFTER_TYPE, blankName) : line);
    // A head in a macro's definition (a line after one that goes on, `\` at its end) is the
    // macro's text: left as it is.
    const code = word && !(i > 0 && CONTINUED.test(lines[i - 1]));
    const head = code && line.includes('"') ? testHead(line, () => next(i)) : undefined;
    if (head !== undefined) {
      lines[i] = head;
      continue;
    }
    // A head over several lines is read as one, its line ends kept where they were.
    const over = code ? blankHeadOver(lines, i, next) : undefined;
    if (over) {
      i += over.count - 1;
      [before, previous] = [previous, over.last];
      continue;
    }
    if (word && label === undefined) {
      const following = next(i);
      out = blankWordLine(line, {
        above: [above2, above],
        following,
        qtAfter: () => pastQtCalls(lines, filled, following),
      });
    }
    lines[i] = inner ? blankInnerWords(out) : out;
  }
  const out = lines.join("\n");
  return out === text ? undefined : out;
}

/**
 * A Catch2/doctest head over several lines from `lines[i]` on, read as one line and written back
 * in place with its line ends where they were; the lines it took and the last one's text as
 * written, or undefined when no head starts there.
 */
function blankHeadOver(
  lines: string[],
  i: number,
  next: (i: number) => string | undefined,
): { count: number; last: string } | undefined {
  const over = headOver(lines, i);
  if (over === undefined) return undefined;
  const count = over.split("\n").length;
  const heads = testHead(over.replaceAll("\n", " "), () => next(i + count - 1));
  if (heads === undefined) return undefined;
  let at = 0;
  for (const [k, part] of over.split("\n").entries()) {
    lines[i + k] = heads.slice(at, at + part.length);
    at += part.length + 1;
  }
  return { count, last: over.slice(over.lastIndexOf("\n") + 1) };
}

/** What {@linkcode blankWordLine} reads around its line. */
interface AroundLine {
  /** The two lines before it that are not blank, the nearer last. */
  above: string[];
  /** The next line that is not blank. */
  following: string | undefined;
  /** The first line after it that is not a Qt declaring call (asked only when needed). */
  qtAfter: () => string | undefined;
}

/** A line that starts with a macro-like word, with the words that are the code's macros blanked. */
function blankWordLine(line: string, around: AroundLine): string {
  let out = line.replace(BEFORE_KEYWORD, blankName);
  if (QT_CALL.test(line)) {
    out = line.replace(QT_CALL, (_all, lead: string, call: string) => lead + qtCall(call));
  } else if (callAlone(line, around.above, around.following)) {
    out = out.replace(AFTER_BLOCK, blankName);
  }
  for (const before of [BEFORE_CONSTRUCTOR, BEFORE_TYPED, BEFORE_BLOCK]) {
    if (out !== line) break;
    out = line.replace(before, blankName);
  }
  const alone = out === line ? ALONE.exec(line) : null;
  if (alone) {
    // Qt's declaring calls after it are blanks too (`Q_OBJECT`, `Q_CLASSINFO(...)`, `public:`).
    const after = around.qtAfter();
    // Before a macro's call too (doctest's `..._WALL_END` then `TEST_CASE("x") {` or
    // `TYPE_TO_STRING_AS("S", short);`): the parser read the word as the call's type, a
    // function named `TEST_CASE`, a variable.
    if (after === undefined || STARTS_DECLARATION.test(after) || MACRO_CALL.test(after)) {
      out = alone[1] + spaces(alone[2]) + line.slice(alone[1].length + alone[2].length);
    }
  }
  return out;
}

/**
 * A doctest `TEST_SUITE("x") {` line as a namespace of the same length, or a Catch2/doctest
 * `TEST_CASE("x") {` head with its macro word blanked; undefined when `line` is neither or no
 * `{` follows (on it or on `nextLine()`, the next line that is not blank).
 */
function testHead(line: string, nextLine: () => string | undefined): string | undefined {
  if (CONTINUED.test(line)) return undefined;
  const suite = DOCTEST_SUITE.exec(line);
  if (suite && (suite[3].includes("{") || nextLine()?.trimStart().startsWith("{"))) {
    return suite[1] + "namespace " + spaces(suite[2]) + suite[3] +
      line.slice(suite[1].length + 10 + suite[2].length + suite[3].length);
  }
  const test = CATCH_TEST.exec(plainRaw(line));
  if (test && (test[3].includes("{") || nextLine()?.trimStart().startsWith("{"))) {
    return test[1] + spaces(test[2]) + line.slice(test[1].length + test[2].length);
  }
  return undefined;
}

/** As many blanks as `word` has characters: a macro word blanked keeps every offset. */
function spaces(word: string): string {
  return " ".repeat(word.length);
}

/** A `replace` callback: the match's first group kept, its second (a macro word) blanked. */
function blankName(_all: string, lead: string, name: string): string {
  return lead + spaces(name);
}

/** A macro word inside a line blanked: after `class`/`struct` (`class FMT_API C`) and in an `if`. */
function blankInnerWords(line: string): string {
  return line
    .replace(IN_CLASS_HEAD, blankName)
    .replace(IN_IF, blankName);
}
