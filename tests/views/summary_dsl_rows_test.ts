import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";

// What a DSL file declares, in `summary`: a Rails app's routes and settings, Pest's and Scala's
// tests, ASP.NET's minimal API routes. Its rows listed classes and methods only, so a routes
// file, an environment's settings, a Pest test file or a `Program.cs` summed up to its line
// count. Written for these tests.
Deno.test("summary lists Ruby's routes and settings", () => {
  const routes = [
    "Rails.application.routes.draw do",
    "  resources :chats do",
    "    post :retry",
    "  end",
    '  get "changelog", to: "pages#changelog"',
    '  root "pages#dashboard"',
    "end",
    "",
  ].join("\n");
  assert.match(
    summarize("config/routes.rb", routes),
    /^- routes: `resources chats`, `post retry`, `get changelog`, `root pages#dashboard`$/m,
  );
  const env = [
    "Rails.application.configure do",
    "  config.eager_load = true",
    "  config.active_record.dump_schema_after_migration = false",
    "  config.filter_parameters += [:passw]",
    "  x = config.y == 1",
    "end",
    "",
  ].join("\n");
  assert.match(
    summarize("config/environments/production.rb", env),
    /^- settings: `config.eager_load`, `config.active_record.dump_schema_after_migration`, `config.filter_parameters`$/m,
  );
});

Deno.test("summary lists Pest's and Scala's tests and C#'s minimal API routes", () => {
  const pest = [
    "<?php",
    "describe('sum', function () {",
    "    it('adds', function () {",
    "        expect(sum(1, 2))->toBe(3);",
    "    });",
    "});",
    'test("subtracts", fn () => expect(1)->toBe(1));',
    "",
  ].join("\n");
  assert.match(summarize("tests/SumTest.php", pest), /^- tests: `sum`, `adds`, `subtracts`$/m);
  const scala = [
    "class SumSuite extends munit.FunSuite {",
    '  test("adds") {',
    "    assertEquals(1 + 1, 2)",
    "  }",
    '  checkAll("Codec[Foo]", CodecTests[Foo].codec)',
    "}",
    "",
  ].join("\n");
  assert.match(summarize("SumSuite.scala", scala), /^- tests: `adds`, `Codec\[Foo\]`$/m);
  const program = [
    "var app = builder.Build();",
    'app.MapGet("/", () => "Hello");',
    'var todos = app.MapGroup("/todos");',
    'todos.MapPost("/{id}", (int id) => id);',
    "app.Run();",
    "",
  ].join("\n");
  assert.match(
    summarize("Program.cs", program),
    /^- routes: `get \/`, `group \/todos`, `post \/\{id\}`$/m,
  );
});

Deno.test("summary lists a Bats file's tests and loads", () => {
  const text = [
    "#!/usr/bin/env bats",
    "load test_helper",
    "setup() {",
    "  :",
    "}",
    '@test "adds one" {',
    "  run add 1",
    "}",
    "@test passing {",
    "  :",
    "}",
    "",
  ].join("\n");
  const summary = summarize("test/add.bats", text);
  assert.match(summary, /^\*\*Bats\*\*/);
  assert.match(summary, /^- tests: `adds one`, `passing`$/m);
  assert.match(summary, /^- loads: `test_helper`$/m);
});

// ScalaTest's FlatSpec, WordSpec and FreeSpec write tests as operators (`"A Stack" should "pop"
// in {`), which the `tests` row (calls only) left out: a spec's summary listed no test. An
// ignored one written in its subject's place (`ignore should "skip" in {`), a test in the code
// views, was in no row either.
Deno.test("summary lists ScalaTest's spec tests and suites by the code views' names", () => {
  const text = [
    "class StackSpec extends AnyFlatSpec {",
    '  "A Stack" should "pop values" in {',
    "    stack.pop() shouldBe 2",
    "  }",
    '  it must "throw" taggedAs Slow in { a[Error] should be thrownBy s.pop() }',
    '  "A Set" can "grow" ignore {',
    "  }",
    '  "not a test" should "be listed"',
    '  ignore should "skip" in {',
    "  }",
    "}",
    "class SetSpec extends AnyWordSpec {",
    '  "A Set" when {',
    '    "empty" should {',
    '      "have size 0" in {',
    "      }",
    "    }",
    "  }",
    '  "a path" - {',
    "  }",
    "}",
    "",
  ].join("\n");
  assert.match(
    summarize("src/test/scala/StackSpec.scala", text),
    /^- tests: `A Stack should pop values`, `it must throw`, `A Set can grow`, `ignore should skip`, `A Set`, `empty`, `have size 0`, `a path`$/m,
  );
});

// Pester's tests are commands with a title and a block (`Describe "Get-Planet" {`, `It "lists
// planets" {`): a `*.Tests.ps1` file's summary listed its imports alone.
Deno.test("summary lists Pester's blocks and tests", () => {
  const text = [
    "BeforeAll {",
    "    . $PSScriptRoot/Get-Planet.ps1",
    "}",
    "Describe 'Get-Planet' {",
    "    It 'lists all 8 planets' {",
    "        (Get-Planet).Count | Should -Be 8",
    "    }",
    '    context "Filtering by Name" {',
    "        # It 'a comment is no test' {",
    "        It -Name \"returns '<Expected>'\" -TestCases @(@{ Filter = 'Earth' }) {",
    "        }",
    "    }",
    "}",
    "",
  ].join("\n");
  assert.match(
    summarize("Get-Planet.Tests.ps1", text),
    /^- tests: `Get-Planet`, `lists all 8 planets`, `Filtering by Name`, `returns '<Expected>'`$/m,
  );
});
