import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// A Gradle script in Kotlin (`build.gradle.kts`, `settings.gradle.kts`) is statements of a DSL:
// `plugins { ... }`, `dependencies { ... }`. The code views kept its `val`s and imports alone,
// and fell back to `summary` (ktorio/ktor-samples: 26 of its 53 `.kts` files had no symbol).
// Written for these tests.
const BUILD = [
  "plugins {",
  '    kotlin("jvm") version "2.3.20"',
  "    application",
  "}",
  "",
  'version = "1.0"',
  "",
  "android {",
  "    compileSdk = 34",
  "    defaultConfig { minSdk = 21 }",
  "}",
  "",
  "dependencies {",
  '    implementation("io.ktor:ktor-server-netty")',
  "}",
  "",
  'tasks.register("hello") {',
  '    group = "demo"',
  "    doLast {",
  '        println("hello")',
  "    }",
  "}",
  'println("configured")',
  "",
].join("\n");

Deno.test("a Gradle Kotlin script keeps its blocks of declarations, task actions elided", async () => {
  const view = (await renderCode("app/build.gradle.kts", BUILD))!;
  assert.equal(
    view.text,
    BUILD.replace('{\n        println("hello")\n    }', "{ ... }").replace(
      'println("configured")\n',
      "",
    ),
  );
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "plugins  // call",
      'version = "1.0"  // setting',
      "android  // call",
      "  compileSdk = 34  // setting",
      "  defaultConfig  // call",
      "    minSdk = 21  // setting",
      "dependencies  // call",
      '  implementation("io.ktor:ktor-server-netty")  // call',
      'tasks.register("hello")  // call',
      '  group = "demo"  // setting',
      "  doLast  // call",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => s.qualifiedName).slice(7, 9), [
    "dependencies.implementation io.ktor:ktor-server-netty",
    "tasks.register hello",
  ]);
});

Deno.test("a script's block of code is elided; a class file's statements are no script", async () => {
  const script = [
    'rootProject.name = "shop"',
    'include(":app", ":core")',
    "gradle.projectsEvaluated {",
    "    val names = allprojects.map { it.name }",
    "    for (n in names) check(n.isNotEmpty())",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("settings.gradle.kts", script))!;
  assert.equal(
    view.text,
    'rootProject.name = "shop"\ninclude(":app", ":core")\ngradle.projectsEvaluated { ... }\n',
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["rootProject.name", "setting"],
    ["include :app", "call"],
    ["gradle.projectsEvaluated", "call"],
  ]);
  // A `.kt` file the parser could not read whole: what it read at the top level as statements
  // are pieces of its class (ktor-samples' `AnythingTest.kt`), no script's.
  const broken = [
    "class A {",
    "    fun f() = run {",
    "        for ((m, r) in listOf(",
    '            B.Get to suspend { c.get("/") },',
    "        )) {}",
    "    }",
    "",
  ].join("\n");
  const kt = (await renderCode("A.kt", broken))!;
  assert.equal(kt.symbols.some((s) => s.kind === "call"), false);
});

// A generic call with a block and no parentheses (`tasks.withType<Test> { ... }`) is read by the
// grammar as comparisons (`tasks.withType < Test > { ... }`): it stayed whole, with no symbol,
// and its block's settings none either.
Deno.test("a generic call's block is a call's: named with its type, its block walked or elided", async () => {
  const text = [
    "tasks.withType<Test> {",
    "    useJUnitPlatform()",
    '    maxHeapSize = "1g"',
    "}",
    "",
    "tasks.withType<org.gradle.api.tasks.compile.JavaCompile> {",
    "    val release = 17",
    "    if (release > 11) options.release.set(release)",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("build.gradle.kts", text))!;
  assert.equal(
    view.text,
    [
      "tasks.withType<Test> {",
      "    useJUnitPlatform()",
      '    maxHeapSize = "1g"',
      "}",
      "",
      "tasks.withType<org.gradle.api.tasks.compile.JavaCompile> { ... }",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["tasks.withType<Test>", "call"],
    ["tasks.withType<Test>.useJUnitPlatform", "call"],
    ["tasks.withType<Test>.maxHeapSize", "setting"],
    ["tasks.withType<org.gradle.api.tasks.compile.JavaCompile>", "call"],
  ]);
});
