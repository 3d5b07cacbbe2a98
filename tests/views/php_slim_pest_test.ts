import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// A Slim app's routes are calls on a variable (`$app->get(...)`), often in the closure its routes
// file returns; a Pest test file is calls of `it`, `test` and `describe`. The code views kept
// their `use` lines and `return function (App $app) { ... };` alone. Written for these tests.
Deno.test("a Slim routes file's returned closure keeps its routes and groups", async () => {
  const text = [
    "<?php",
    "use Slim\\App;",
    "",
    "return function (App $app) {",
    "    $app->get('/', function (Request $request, Response $response) {",
    "        return $response;",
    "    });",
    "    $app->group('/users', function (Group $group) {",
    "        $group->get('/{id}', ViewUserAction::class);",
    "    });",
    "    $client->get($url);",
    "};",
    "",
    "$app->post('/login', LoginAction::class)->setName('login');",
    "$app->run();",
    "",
  ].join("\n");
  const view = (await renderCode("app/routes.php", text))!;
  assert.equal(
    view.text,
    [
      "<?php",
      "use Slim\\App;",
      "",
      "return function (App $app) {",
      "    $app->get('/', function (Request $request, Response $response) { ... });",
      "    $app->group('/users', function (Group $group) {",
      "        $group->get('/{id}', ViewUserAction::class);",
      "    });",
      "};",
      "",
      "$app->post('/login', LoginAction::class)->setName('login');",
      "",
    ].join("\n"),
  );
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "return function (App $app)  // closure",
      "  $app->get('/', function (Request $request, Response $response) { ... })  // route",
      "  $app->group('/users',...)  // group",
      "    $group->get('/{id}', ViewUserAction::class)  // route",
      "$app->post('/login', LoginAction::class)->setName('login')  // route",
      "",
    ].join("\n"),
  );
});

Deno.test("a Pest file's tests and suites are symbols, their closures' bodies elided", async () => {
  const text = [
    "<?php",
    "",
    "uses(Tests\\TestCase::class);",
    "",
    "beforeEach(function () {",
    "    $this->user = User::factory()->create();",
    "});",
    "",
    "it('adds', function () {",
    "    expect(1 + 1)->toBe(2);",
    "})->with([1, 2]);",
    "",
    "describe('sum', function () {",
    "    test('of none is zero', fn () => expect(sum())->toBe(0));",
    "})->skip();",
    "",
    "helper();",
    "",
  ].join("\n");
  const view = (await renderCode("tests/Feature/SumTest.php", text))!;
  assert.equal(
    view.text,
    [
      "<?php",
      "",
      "uses(Tests\\TestCase::class);",
      "",
      "beforeEach(function () { ... });",
      "",
      "it('adds', function () { ... })->with([1, 2]);",
      "",
      "describe('sum', function () {",
      "    test('of none is zero', fn () => expect(sum())->toBe(0));",
      "})->skip();",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "test adds",
    "suite sum",
    "test sum.of none is zero",
  ]);
});

Deno.test("a class under PHP's alternative if and a WordPress plugin's hooks are kept", async () => {
  // classic-editor.php: its 970-line class under `if (...) :` was dropped whole.
  const text = [
    "<?php",
    "if ( ! class_exists( 'Classic_Editor' ) ) :",
    "class Classic_Editor {",
    "\tpublic static function init_actions() {",
    "\t\treturn 1;",
    "\t}",
    "}",
    "",
    "add_action( 'plugins_loaded', array( 'Classic_Editor', 'init_actions' ) );",
    "the_title();",
    "endif;",
    "",
  ].join("\n");
  const view = (await renderCode("classic-editor.php", text))!;
  assert.equal(
    view.text,
    [
      "<?php",
      "if ( ! class_exists( 'Classic_Editor' ) ) :",
      "class Classic_Editor {",
      "\tpublic static function init_actions() { ... }",
      "}",
      "",
      "add_action( 'plugins_loaded', array( 'Classic_Editor', 'init_actions' ) );",
      "endif;",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => s.qualifiedName), [
    "Classic_Editor",
    "Classic_Editor.init_actions",
  ]);
});

// A Pest call broken over lines (`it(\n    'adds',\n    function () {...}\n);`, as a formatter
// breaks a long one) had the line breaks' blanks and its trailing comma in its outline signature:
// `it( 'adds', function () { ... } )`. Written for this test.
Deno.test("a Pest test or suite over lines has a signature on one line, as one on its line", async () => {
  const text = [
    "<?php",
    "it(",
    "    'adds',",
    "    function () {",
    "        expect(1)->toBe(1);",
    "    },",
    ");",
    "describe(",
    "    'sum',",
    "    function () {",
    "        test(",
    "            'two',",
    "            fn () => expect(2)->toBe(2)",
    "        );",
    "    }",
    ");",
    "",
  ].join("\n");
  const view = (await renderCode("tests/SumTest.php", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["adds", "test", "it('adds', function () { ... })"],
    ["sum", "suite", "describe('sum',...)"],
    ["sum.two", "test", "test('two', fn () => ...)"],
  ]);
});
