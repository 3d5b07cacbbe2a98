import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// An sbt build (`build.sbt`, `project/plugins.sbt`) is Scala expressions: settings (`key :=
// value`) and calls adding settings. No grammar read it, and its views were `summary`
// (circe/circe's `build.sbt`). Written for these tests.
const BUILD = [
  "import Dependencies._",
  "",
  'ThisBuild / scalaVersion := "3.3.1"',
  "",
  "inThisBuild(List(",
  '  organization := "io.example"',
  "))",
  "",
  'lazy val core = (project in file("core"))',
  "  .settings(",
  '    name := "core",',
  '    libraryDependencies ++= Seq("org.scalameta" %% "munit" % "1.0.0" % Test)',
  "  )",
  "",
  'addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.2")',
  'addCommandAlias("ci", ";test;scalafmtCheck")',
  'println("loaded")',
  "",
].join("\n");

Deno.test("an sbt build is read as Scala: its settings and project definitions stay", async () => {
  const view = (await renderCode("build.sbt", BUILD))!;
  assert.equal(view.text, BUILD.replace('println("loaded")\n', ""));
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      'ThisBuild / scalaVersion := "3.3.1"  // setting',
      "inThisBuild(...)  // call",
      "lazy val core = ...  // val",
      'addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.2")  // call',
      'addCommandAlias("ci", ";test;scalafmtCheck")  // call',
      "",
    ].join("\n"),
  );
  assert.equal(view.hasErrors, false);
});

// A Scala source file's expressions are no settings: a `:=` inside a method stays in its body.
Deno.test("a Scala file's operator calls inside bodies are no sbt settings", async () => {
  const text = ["object Keys {", "  def set(): Unit = {", "    key := 1", "  }", "}", ""].join(
    "\n",
  );
  const view = (await renderCode("src/Keys.scala", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind]), [["Keys", "object"], [
    "set",
    "method",
  ]]);
});

// A project's definition is what a build is made of: kept at any length, as a long value is not
// (circe's `lazy val docs = project.in(file("site")).settings(...)` read `lazy val docs = ...`).
Deno.test("an sbt build's long project definitions stay as written, other long values elided", async () => {
  const settings = Array.from({ length: 14 }, (_, i) => `    key${i} := ${i},`);
  const text = [
    "lazy val docs = project",
    '  .in(file("site"))',
    "  .settings(",
    ...settings,
    "  )",
    "",
    'lazy val core = circeModule("core")',
    "  .dependsOn(docs)",
    "  .settings(",
    ...settings,
    "  )",
    "",
    "lazy val names = Seq(",
    ...settings.map((s) => s.replace(":=", "->")),
    ")",
    "",
  ].join("\n");
  const view = (await renderCode("build.sbt", text))!;
  assert.equal(view.text, text.replace(/lazy val names = Seq\([^]*\)\n/, "lazy val names = ...\n"));
});
