import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { kotlinParseText } from "../../grammars/_kotlin.ts";

// tree-sitter-kotlin reads a soft modifier after an annotation (`@Foo actual class C`,
// `@JvmField\nconst val X = 1`) as a name in an annotated expression: the declaration was lost with
// no parse error (okio's `actual class CRC32` under `@OptIn(UnsafeNumber::class)`, an
// `annotation class` under a `@Deprecated(` of several lines). Written for these tests.
const CASES: Array<[text: string, symbols: string[]]> = [
  [
    [
      "@OptIn(UnsafeNumber::class)",
      "actual class CRC32 {",
      "  actual fun update(content: ByteArray) {",
      "    crc = crc32(crc, content)",
      "  }",
      "}",
    ].join("\n"),
    ["class CRC32", "method CRC32.update"],
  ],
  ['@Suppress("X") expect fun platformName(): String', ["function platformName"]],
  [
    "object Limits {\n  @JvmField\n  const val MAX = 8\n  @Foo(1) operator fun get(i: Int) = i\n}",
    ["object Limits", "property Limits.MAX", "method Limits.get"],
  ],
  ["@JvmInline\nvalue class Id(val raw: Long)", ["class Id"]],
  ["@Serializable data class Point(val x: Int)", ["class Point"]],
  ["@Foo(1)\nenum class Color {\n  RED, GREEN\n}", [
    "enum Color",
    "constant Color.RED",
    "constant Color.GREEN",
  ]],
  [
    [
      "@Deprecated(",
      '  message = "Obsolete (remove it)",',
      "  level = HIDDEN,",
      ")",
      "@Retention(SOURCE)",
      "@Target(CLASS, FUNCTION)",
      "annotation class ExperimentalFileSystem",
    ].join("\n"),
    ["annotation ExperimentalFileSystem"],
  ],
];

Deno.test("a Kotlin declaration whose soft modifier follows an annotation is kept", async () => {
  for (const [text, want] of CASES) {
    const view = (await renderCode("src/a.kt", text + "\n"))!;
    assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), want, text);
    assert.equal(view.hasErrors, false, text);
    // The annotations are shown as written: only the parser read them as blanks.
    for (const line of text.split("\n").filter((l) => l.trimStart().startsWith("@"))) {
      assert.ok(view.text.includes(line), `${line} in ${view.text}`);
    }
  }
});

Deno.test("a Kotlin declaration whose visibility or other modifier follows annotations is kept, its signature annotated", async () => {
  // tree-sitter-kotlin chose `private fun GreetingPreview() {}` as an infix call of `private`,
  // `fun` and a call when an annotated declaration followed (a Compose file's previews).
  const text = [
    "fun Greeting() {}",
    "",
    "@Preview(showBackground = true)",
    "@Composable",
    "private fun GreetingPreview() {",
    '    Greeting("x")',
    "}",
    "",
    "@Target(CLASS)",
    "@Retention(SOURCE)",
    "open class Base",
    "",
    "@Serializable",
    "data class User(val id: Int)",
    "",
    "class A {",
    "    @Inject",
    '    @Named("x")',
    "    override fun run() = 1",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("src/a.kt", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.signature]), [
    ["Greeting", "fun Greeting()"],
    [
      "GreetingPreview",
      "@Preview(showBackground = true) @Composable private fun GreetingPreview()",
    ],
    ["Base", "@Target(CLASS) @Retention(SOURCE) open class Base"],
    ["User", "@Serializable data class User(val id: Int)"],
    ["A", "class A"],
    ["A.run", '@Inject @Named("x") override fun run() = ...'],
  ]);
  // A symbol's line is its first annotation's, as when the parse reads the annotations.
  assert.deepEqual(view.symbols.map((s) => s.line), [1, 3, 9, 13, 16, 17]);
  assert.equal(view.hasErrors, false);
  assert.match(
    view.text,
    /\n@Preview\(showBackground = true\)\n@Composable\nprivate fun GreetingPreview\(\) \{ \.\.\. \}\n/,
  );
});

Deno.test("the text a Kotlin file is parsed from is found in linear time", () => {
  // A megabyte of annotations alone, of annotations opening arguments never closed, of blanks
  // after an annotation: each line is looked at once (a pattern over runs of lines read every
  // run again from each of its lines).
  const long = 1 << 20;
  const declaration = "actual class C\n";
  for (const text of ["@a\n".repeat(long / 3), "@a" + " ".repeat(long)]) {
    const parsed = kotlinParseText(text + declaration)!;
    assert.equal(parsed, text.replace(/[^\n]+/g, (s) => " ".repeat(s.length)) + declaration);
  }
  // Arguments that never close: the annotation is not blanked, and no line is read twice.
  assert.equal(kotlinParseText("@a(\n".repeat(long / 4) + declaration), undefined);
  assert.equal(kotlinParseText("class C\n"), undefined);
});

Deno.test("a Kotlin declaration's blanked annotations are its own: its doc goes with them, and they go with it when it is left out", async () => {
  // okio's HashingSink: a KDoc over `@JvmStatic` and `actual fun` was taken for no doc of it.
  const text = [
    "class Sink {",
    "  /** Hashes with MD5. */",
    "  @JvmStatic",
    "  actual fun md5(sink: Sink) = HashingSink(sink)",
    "",
    "  /** The hash. */",
    '  @get:JvmName("hash")',
    "  actual val hash: ByteString",
    "    get() {",
    "      return digest()",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("src/Sink.kt", text))!;
  assert.equal(
    view.text,
    [
      "class Sink {",
      "  /** Hashes with MD5. */",
      "  @JvmStatic",
      "  actual fun md5(sink: Sink) = HashingSink(sink)",
      "",
      "  /** The hash. */",
      '  @get:JvmName("hash")',
      "  actual val hash: ByteString",
      "    get() { ... }",
      "}",
      "",
    ].join("\n"),
  );
  // A property's signature ends before its accessors.
  assert.deepEqual(view.symbols.map((s) => s.signature), [
    "class Sink",
    "@JvmStatic actual fun md5(sink: Sink) = ...",
    '@get:JvmName("hash") actual val hash: ByteString',
  ]);
  const masked =
    (await renderCode("src/Sink.kt", text, { mask: { "Sink.md5": "sig" }, rest: "hide" }))!;
  assert.equal(
    masked.text,
    [
      "class Sink {",
      "  /** Hashes with MD5. */",
      "  @JvmStatic",
      "  actual fun md5(sink: Sink) = HashingSink(sink)",
      "}",
      "",
    ].join("\n"),
  );
});
