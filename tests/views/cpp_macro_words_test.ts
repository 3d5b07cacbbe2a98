import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { blankMacroWords } from "../../grammars/_cpp_macros.ts";

// A library's own macro words where C++ has no place for them (fmtlib/fmt's shape): the parser
// read `LIB_BEGIN_NAMESPACE` as a type, `namespace` as a function's name, and each class after
// `LIB_EXPORT` or with `LIB_API` before its name as errors, so a skeleton dropped them.
const LIBRARY = [
  "#include <vector>",
  "",
  "LIB_BEGIN_NAMESPACE",
  "namespace detail {",
  "int helper(int x) { return x; }",
  "}  // namespace detail",
  "",
  "LIB_EXPORT template <typename T> class Store {",
  " public:",
  "  void push(const T& v) {",
  "    if LIB_CONSTEXPR20 (sizeof(T) > 8) {",
  "      data_.push_back(v);",
  "    } else {",
  "      data_.push_back(v);",
  "    }",
  "  }",
  "  void clear() { data_.clear(); }",
  "",
  " private:",
  "  std::vector<T> data_;",
  "};",
  "",
  "class LIB_API format_error : public std::runtime_error {",
  " public:",
  "  using std::runtime_error::runtime_error;",
  "};",
  "",
  "class LIB_API [[nodiscard]] FilePath {",
  " public:",
  "  const char* c_str() const { return path_; }",
  "};",
  "",
  "LIB_END_NAMESPACE",
  "",
].join("\n");

Deno.test("a C++ skeleton keeps the classes around a library's macro words", async () => {
  for (const path of ["lib.hpp", "lib.h", "lib.cc"]) {
    const out = (await renderCode(path, LIBRARY))!.text;
    for (
      const kept of [
        "namespace detail {",
        "int helper(int x) { ... }",
        "LIB_EXPORT template <typename T> class Store {",
        "  void push(const T& v) { ... }",
        "  void clear() { ... }",
        "class LIB_API format_error : public std::runtime_error {",
        "class LIB_API [[nodiscard]] FilePath {",
        "  const char* c_str() const { ... }",
        "LIB_END_NAMESPACE",
      ]
    ) assert.ok(out.split("\n").includes(kept), `${path}: ${JSON.stringify(kept)} in\n${out}`);
    // Every line is the file's, or the file's with a body elided.
    const source = new Set(LIBRARY.split("\n"));
    for (const line of out.split("\n")) {
      const shown = line.replace(/ \{ \.\.\. \}$/, "");
      assert.ok(
        source.has(line) || [...source].some((s) => s.startsWith(`${shown} {`)),
        `${path}: ${JSON.stringify(line)} is no line of the file`,
      );
    }
  }
});

Deno.test("macro words are blanked only where no name can stand, in the text's own length", () => {
  const text = [
    "#define LIB_API extern",
    "BOOL",
    "WINAPI",
    "DllMain(HANDLE h) { return TRUE; }",
    "struct STAT st;",
    "enum { A,",
    "  LAST",
    "};",
    "LIB_EXPORT class C {};",
    "class LIB_API D : public B {};",
    "class LIB_API [[nodiscard]] E {",
    "LIB_BEGIN",
    "",
    "namespace n {}",
    "",
  ].join("\n");
  const parsed = blankMacroWords(text)!;
  assert.equal(parsed.length, text.length);
  assert.deepEqual(parsed.split("\n").map((l) => l.length), text.split("\n").map((l) => l.length));
  const lines = parsed.split("\n");
  assert.deepEqual(lines.slice(0, 8), text.split("\n").slice(0, 8));
  assert.equal(lines[8], "           class C {};");
  assert.equal(lines[9], "class         D : public B {};");
  assert.equal(lines[10], "class         [[nodiscard]] E {");
  assert.equal(lines[11], "         ");
  assert.equal(blankMacroWords("int f(void);\nstruct S { int a; };\n"), undefined);
});

Deno.test("a line of many class heads with attributes is read in linear time", () => {
  // Each head's attribute never closes: a search for its end that ran to the line's end from each
  // `class` would take minutes on this megabyte.
  const line = ("class LIB_API [[" + "a".repeat(100) + " ").repeat(9000);
  assert.equal(blankMacroWords(line + "\n"), undefined);
});

// spdlog's `-inl.h` files define each member out of line after its `SPDLOG_INLINE` word: the
// parser read the word as the type, a function's type as the first part of its name
// (`void lib.logger.flush`), a constructor's initializer list as errors, and the skeleton cut a
// constructor's `{}` (`overflow_policy)` and no body).
Deno.test("a macro word before an out-of-line member's type or name is read as blanks", async () => {
  const text = [
    "LIB_INLINE lib::logger::logger(std::string name,",
    "                               sink_ptr sink)",
    "    : name_(std::move(name)), sink_(sink) {}",
    "",
    "LIB_INLINE lib::logger::~logger() {",
    "  flush();",
    "}",
    "",
    "LIB_INLINE void lib::logger::flush() { sink_->flush(); }",
    "",
  ].join("\n");
  const lines = blankMacroWords(text)!.split("\n");
  assert.equal(lines[0], "           lib::logger::logger(std::string name,");
  assert.equal(lines[4], "           lib::logger::~logger() {");
  assert.equal(lines[8], "           void lib::logger::flush() { sink_->flush(); }");
  // A type in capitals before a name alone is a type.
  assert.equal(blankMacroWords("BOOL f(void);\nHANDLE *open_it(int x);\n"), undefined);
  const view = (await renderCode("logger-inl.h", text))!;
  assert.equal(view.hasErrors, false);
  assert.deepEqual(view.symbols.map((s) => s.qualifiedName), [
    "lib.logger.logger",
    "lib.logger.~logger",
    "lib.logger.flush",
  ]);
  // The outline's signature starts as the file's line does.
  assert.equal(view.symbols[2].signature, "LIB_INLINE void lib::logger::flush()");
  assert.equal(
    view.text,
    [
      "LIB_INLINE lib::logger::logger(std::string name,",
      "                               sink_ptr sink)",
      "    : name_(std::move(name)), sink_(sink) {}",
      "",
      "LIB_INLINE lib::logger::~logger() { ... }",
      "",
      "LIB_INLINE void lib::logger::flush() { ... }",
      "",
    ].join("\n"),
  );
});

// Macros standing for `try` and `catch` in a function body (spdlog's `SPDLOG_TRY {` and
// `SPDLOG_LOGGER_CATCH(loc)` with no `;`), a `noexcept` word before a body and a macro's call
// after a block in a class (Qt's `Q_DISABLE_COPY(A)`): the parser read the block as a compound
// literal and joined the line after it with the next statement (a field named `(A)`), and lost
// the functions after it; a macro word between a type and a name was read as part of the name.
const BLOCKS = [
  "class Sink {",
  "  void flush() {}",
  "  Q_DISABLE_COPY(Sink)",
  "  int level;",
  "};",
  "",
  "void logger::flush_()",
  "    LIB_NOEXCEPT {",
  "  LIB_TRY {",
  "    for (auto &sink : sinks_) {",
  "      sink->flush();",
  "    }",
  "  }",
  "  LIB_LOGGER_CATCH(source_loc())",
  "  count = 0;",
  "}",
  "",
  "size_t LIB_INLINE thread_pool::queue_size() { return q_.size(); }",
  "",
].join("\n");

Deno.test("a C++ body's macro blocks and a macro after a block parse without errors", async () => {
  const view = (await renderCode("logger.cpp", BLOCKS))!;
  assert.equal(view.hasErrors, false);
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "class Sink",
    "method Sink.flush",
    "field Sink.level",
    "function logger.flush_",
    "function thread_pool.queue_size",
  ]);
  assert.equal(
    view.text,
    [
      "class Sink {",
      "  void flush() {}",
      "  Q_DISABLE_COPY(Sink)",
      "  int level;",
      "};",
      "",
      "void logger::flush_()",
      "    LIB_NOEXCEPT { ... }",
      "",
      "size_t LIB_INLINE thread_pool::queue_size() { ... }",
      "",
    ].join("\n"),
  );
});

// Catch2's and doctest's test cases (`TEST_CASE("Factorials", "[math]") { ... }`) take strings,
// so the parser read no function: a statement, then a block at the file's top level, and the
// skeleton dropped them (cpp-best-practices/cmake_template's `tests.cpp` kept its `#include`s
// alone), or kept a head with no body. They read as GoogleTest's `TEST(A, B) { ... }` does.
Deno.test("Catch2's test cases are functions named by their titles, bodies elided", async () => {
  const text = [
    "#include <catch2/catch_test_macros.hpp>",
    "",
    'TEST_CASE("Factorials are computed", "[factorial]")',
    "{",
    "  REQUIRE(factorial(0) == 1);",
    "}",
    "",
    'TEMPLATE_TEST_CASE("vectors grow", "[vector]", int, std::string) {',
    '  SECTION("push") { v.push_back({}); }',
    "}",
    "",
    'TEST_CASE_METHOD(DbFixture, "inserts rows") {',
    "  CHECK(db.size() == 1);",
    "}",
    "",
    'INFO("not a test")',
    "int helper(int a);",
    "",
  ].join("\n");
  const view = (await renderCode("test/tests.cpp", text))!;
  assert.equal(
    view.text,
    [
      "#include <catch2/catch_test_macros.hpp>",
      "",
      'TEST_CASE("Factorials are computed", "[factorial]")',
      "{ ... }",
      "",
      'TEMPLATE_TEST_CASE("vectors grow", "[vector]", int, std::string) { ... }',
      "",
      'TEST_CASE_METHOD(DbFixture, "inserts rows") { ... }',
      "",
      "int helper(int a);",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind, s.signature]), [
    [
      "Factorials are computed",
      "test",
      'TEST_CASE("Factorials are computed", "[factorial]")',
    ],
    ["vectors grow", "test", 'TEMPLATE_TEST_CASE("vectors grow", "[vector]", int, std::string)'],
    ["inserts rows", "test", 'TEST_CASE_METHOD(DbFixture, "inserts rows")'],
    ["helper", "function", "int helper(int a)"],
  ]);
});

// doctest's forms of a test case (`TEST_CASE_FIXTURE`, `TEST_CASE_TEMPLATE`, its `_DEFINE`) and
// Catch2's `SCENARIO_METHOD`, `TEMPLATE_LIST_TEST_CASE_METHOD`: the pattern named Catch2's first
// forms only, and these were dropped as the others had been (nlohmann/json's doctest suite:
// `TEST_CASE_TEMPLATE_DEFINE("value_in_range_of trait", T, ...)`). Written for this test.
Deno.test("doctest's fixture and template test cases and Catch2's method forms are tests", async () => {
  const text = [
    'TEST_CASE_FIXTURE(Db, "inserts rows") {',
    "  CHECK(size() == 1);",
    "}",
    "",
    'TEST_CASE_TEMPLATE("widens", T, char, short) {',
    "  CHECK(sizeof(T) < 4);",
    "}",
    "",
    'TEST_CASE_TEMPLATE_DEFINE("in range", T, in_range_id)',
    "{",
    "  CHECK(true);",
    "}",
    "",
    'SCENARIO_METHOD(Shop, "buys one") {',
    "  GIVEN(1);",
    "}",
    "",
    'TEMPLATE_LIST_TEST_CASE_METHOD(Fx, "lists", "[l]", Types) {',
    "  CHECK(true);",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("tests/unit.cpp", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind]), [
    ["inserts rows", "test"],
    ["widens", "test"],
    ["in range", "test"],
    ["buys one", "test"],
    ["lists", "test"],
  ]);
  assert.match(
    view.text,
    /^TEST_CASE_TEMPLATE_DEFINE\("in range", T, in_range_id\)\n\{ \.\.\. \}$/m,
  );
});

// doctest's `TEST_SUITE("math") { ... }` holds test cases: its string made the block no item, and
// every test in it was dropped (a file of suites kept its `#include`s). Read as a namespace of the
// same length, each suite is a symbol of kind `suite` holding its tests. Written for this test.
Deno.test("doctest's suites hold their test cases", async () => {
  const text = [
    '#include "doctest.h"',
    "",
    'TEST_SUITE("math") {',
    'TEST_CASE("adds") {',
    "    CHECK(1 + 1 == 2);",
    "}",
    "",
    'TEST_SUITE("nested" * doctest::skip())',
    "{",
    'TEST_CASE_FIXTURE(Fx, "subtracts") {',
    "    CHECK(1 - 1 == 0);",
    "}",
    "}",
    "}",
    "",
    'TEST_SUITE_BEGIN("flat");',
    "int helper(int a) { return a; }",
    "",
  ].join("\n");
  const view = (await renderCode("tests/math.cpp", text))!;
  assert.equal(
    view.text,
    [
      '#include "doctest.h"',
      "",
      'TEST_SUITE("math") {',
      'TEST_CASE("adds") { ... }',
      "",
      'TEST_SUITE("nested" * doctest::skip())',
      "{",
      'TEST_CASE_FIXTURE(Fx, "subtracts") { ... }',
      "}",
      "}",
      "",
      'TEST_SUITE_BEGIN("flat");',
      "int helper(int a) { ... }",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["math", "suite"],
    ["math.adds", "test"],
    ["math.nested", "suite"],
    ["math.nested.subtracts", "test"],
    ["helper", "function"],
  ]);
});

// A test case's head broken over lines (`TEST_CASE(\n "title",\n "[tag]") {`, as clang-format
// breaks a long one: 88 heads in Catch2's own tests) was dropped with its test, as a head on one
// line had been (hunt24 left it). Written for this test.
Deno.test("a test case's or suite's head over several lines is a test named by its title", async () => {
  const text = [
    '#include "catch.hpp"',
    "",
    "TEST_CASE(",
    '    "a title over lines",',
    '    "[tag]") {',
    "    REQUIRE(1 == 1);",
    "}",
    "",
    'TEMPLATE_TEST_CASE("typed", "[t]",',
    "                   int, float) {",
    "    CHECK(true);",
    "}",
    "",
    'TEST_CASE( "a long name "',
    '           "in two strings" ) {',
    "    CHECK(true);",
    "}",
    "",
    "TEST_CASE_METHOD(Fixture,",
    '                 "fixture (x) test")',
    "{",
    "    CHECK(f());",
    "}",
    "",
    "TEST_SUITE(",
    '    "suite") {',
    'TEST_CASE("inner") {}',
    "}",
    "",
    "int after(int a) { return a; }",
    "",
    // A head in a macro's definition is the macro's text (Catch2's own `Traits.tests.cpp`).
    "#define ADD_CASE(op) \\",
    '    TEST_CASE("is_" #op,      \\',
    '              "[traits]") { \\',
    "        CHECK(op);           \\",
    "}",
    "#define ONE_CASE(op) \\",
    '    TEST_CASE("one") {     \\',
    "}",
    "",
    "int last(int a) { return a; }",
    "",
  ].join("\n");
  const view = (await renderCode("tests/lines.cpp", text))!;
  assert.equal(
    view.text,
    [
      '#include "catch.hpp"',
      "",
      "TEST_CASE(",
      '    "a title over lines",',
      '    "[tag]") { ... }',
      "",
      'TEMPLATE_TEST_CASE("typed", "[t]",',
      "                   int, float) { ... }",
      "",
      'TEST_CASE( "a long name "',
      '           "in two strings" ) { ... }',
      "",
      "TEST_CASE_METHOD(Fixture,",
      '                 "fixture (x) test")',
      "{ ... }",
      "",
      "TEST_SUITE(",
      '    "suite") {',
      'TEST_CASE("inner") {}',
      "}",
      "",
      "int after(int a) { ... }",
      "",
      "#define ADD_CASE(op) \\",
      '    TEST_CASE("is_" #op,      \\',
      '              "[traits]") { \\',
      "        CHECK(op);           \\",
      "}",
      "#define ONE_CASE(op) \\",
      '    TEST_CASE("one") {     \\',
      "}",
      "",
      "int last(int a) { ... }",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["a title over lines", "test", 'TEST_CASE("a title over lines", "[tag]")'],
    ["typed", "test", 'TEMPLATE_TEST_CASE("typed", "[t]", int, float)'],
    ["a long name in two strings", "test", 'TEST_CASE("a long name " "in two strings")'],
    ["fixture (x) test", "test", 'TEST_CASE_METHOD(Fixture, "fixture (x) test")'],
    ["suite", "suite", 'TEST_SUITE("suite")'],
    ["suite.inner", "test", 'TEST_CASE("inner")'],
    ["after", "function", "int after(int a)"],
    ["ADD_CASE", "macro", "#define ADD_CASE(op) \\"],
    ["ONE_CASE", "macro", "#define ONE_CASE(op) \\"],
    ["last", "function", "int last(int a)"],
  ]);
});

// A head over lines in a file with CRLF line ends was no test (its last line's `\r` ended no
// head), and a head whose title is a macro (`TEST_CASE(TITLE, "[tag]")`) was named by its tag
// (review20). Written for this test.
Deno.test("Catch2 heads in a CRLF file and a head titled by a macro are tests", async () => {
  const text = [
    "#define MK(x) \\",
    "  TEST_CASE( \\",
    '  "in macro") {}',
    "TEST_CASE(",
    '    "over lines",',
    '    "[tag]") {',
    "  REQUIRE(1);",
    "}",
    'TEST_CASE("one line") {',
    "}",
    'TEST_CASE( TITLE, "[tag]" ) {',
    "}",
    "",
  ].join("\r\n");
  const view = (await renderCode("a_test.cpp", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind, s.signature]), [
    ["MK", "macro", "#define MK(x) \\"],
    ["over lines", "test", 'TEST_CASE("over lines", "[tag]")'],
    ["one line", "test", 'TEST_CASE("one line")'],
    ["TITLE", "test", 'TEST_CASE(TITLE, "[tag]")'],
  ]);
});

Deno.test("a Catch2 or doctest test titled by a raw string is a test named by its text", async () => {
  const text = [
    'TEST_CASE(R"(raw "title" (x))", "[raw]") {',
    "  REQUIRE(1);",
    "}",
    'TEST_CASE(R"delim(a )" b)delim") {',
    "  REQUIRE(1);",
    "}",
    "TEST_CASE_METHOD(Fixture,",
    '    u8R"(over "lines")" " and more") {',
    "}",
    'TEST_CASE("plain \\"quoted\\"") {}',
    "",
  ].join("\n");
  const view = (await renderCode("a_test.cpp", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind, s.signature]), [
    ['raw "title" (x)', "test", 'TEST_CASE(R"(raw "title" (x))", "[raw]")'],
    ['a )" b', "test", 'TEST_CASE(R"delim(a )" b)delim")'],
    ['over "lines" and more', "test", 'TEST_CASE_METHOD(Fixture, u8R"(over "lines")" " and more")'],
    ['plain \\"quoted\\"', "test", 'TEST_CASE("plain \\"quoted\\"")'],
  ]);
  assert.equal(view.text.split("{ ... }").length - 1, 2, view.text);
  assert.equal(view.text.includes("REQUIRE"), false, view.text);
});

// doctest's examples end their includes with a macro word alone on its line, then a test case:
// the parser read the word as the test's type, a function named `TEST_CASE` (doctest's
// `subcases.cpp`). Written for this test.
Deno.test("a macro word alone on the line before a test case's head is no part of the test", async () => {
  const text = [
    "HEADERS_BEGIN",
    "#include <vector>",
    "HEADERS_END",
    "",
    'TYPE_TO_STRING_AS("SHORT!!!", short);',
    "HEADERS_END",
    'TEST_CASE("lots of nested subcases") {',
    '    SUBCASE("") {}',
    "}",
    "LIB_SUITE_MARK",
    'TEST_SUITE("math") {',
    '    TEST_CASE("adds") {}',
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("subcases.cpp", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["lots of nested subcases", "test", 'TEST_CASE("lots of nested subcases")'],
    ["math", "suite", 'TEST_SUITE("math")'],
    ["math.adds", "test", 'TEST_CASE("adds")'],
  ]);
  assert.match(view.text, /^HEADERS_END$/m);
  assert.match(view.text, /^TYPE_TO_STRING_AS\("SHORT!!!", short\);$/m);
});

// A call at a file's or a namespace's level can only be a macro's (Google Benchmark's
// `BENCHMARK(BM_Sort);`, the kernel's `EXPORT_SYMBOL(f);`, googletest's
// `INSTANTIATE_TEST_SUITE_P(...)`): it declares or registers something, and a skeleton left it
// out with no marker. Written for this test.
Deno.test("a C or C++ skeleton keeps a macro's call at a file's or a namespace's level", async () => {
  const text = [
    "#include <benchmark/benchmark.h>",
    "static void BM_Sort(benchmark::State& state) {",
    "  REGISTER_LOCAL(x);",
    "}",
    "BENCHMARK(BM_Sort);",
    "#ifdef LINUX",
    "EXPORT_SYMBOL(BM_Sort);",
    "#endif",
    "namespace app {",
    "INSTANTIATE_TEST_SUITE_P(Sizes, SortTest,",
    "                         testing::Values(1, 2));",
    "}",
    "",
  ].join("\n");
  for (const path of ["bench.cpp", "bench.c"]) {
    const out =
      (await renderCode(path, path.endsWith(".c") ? text.replace(/benchmark::/, "") : text))!
        .text;
    for (const line of ["BENCHMARK(BM_Sort);", "EXPORT_SYMBOL(BM_Sort);"]) {
      assert.ok(out.split("\n").includes(line), `${path}: ${line} in:\n${out}`);
    }
    assert.equal(out.includes("REGISTER_LOCAL"), false, out);
  }
  const cpp = (await renderCode("bench.cpp", text))!.text;
  assert.match(
    cpp,
    /^INSTANTIATE_TEST_SUITE_P\(Sizes, SortTest,\n {25}testing::Values\(1, 2\)\);$/m,
  );
});

// Google Benchmark registers with arguments by a chain on the macro's call
// (`BENCHMARK(BM_Sort)->Arg(8)->Range(8, 64);`), TensorFlow's ops by methods on it
// (`REGISTER_OP("Foo").Input("x: float");`): the call of a name that starts the chain is a
// macro's as well; a chain that starts at no call (`obj.run();`, `p->go();`) is none.
Deno.test("a C or C++ skeleton keeps a macro's call chained at a file's level", async () => {
  const text = [
    "static void BM_Sort(int n) {",
    "  run(n)->go();",
    "}",
    "BENCHMARK(BM_Sort)->Arg(8)->Arg(64);",
    "BENCHMARK(BM_Sort)->Range(8, 8 << 10)->Unit(kMillisecond);",
    'REGISTER_OP("Foo").Input("x: float").Output("y: float");',
    "",
  ].join("\n");
  const out = (await renderCode("bench.cc", text))!.text;
  for (const line of text.split("\n").slice(3, 6)) {
    assert.ok(out.split("\n").includes(line), `${line} in:\n${out}`);
  }
  assert.equal(out.includes("go()"), false, out);
});
