import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";
import { summarize } from "../../plugins/view_modes/summary.ts";

// A routes file is what it declares when it is loaded: chains of static calls (Laravel's
// `Route::get(...)`, a group's closure of routes, `Artisan::command(...)`) and the files it
// requires. The code views kept its `use` lines alone. Written for these tests.
const TEXT = [
  "<?php",
  "",
  "use Illuminate\\Support\\Facades\\Route;",
  "",
  "Route::get('/', function () {",
  "    return view('welcome');",
  "})->name('home');",
  "",
  "Route::middleware('auth') // signed in",
  "    ->group(function () {",
  "    Route::get('/profile', [ProfileController::class, 'edit'])",
  "        ->name('profile.edit');",
  "    Route::resource('photos', PhotoController::class);",
  "});",
  "",
  "Artisan::command('inspire', function () {",
  "    $this->comment(Inspiring::quote());",
  "})->purpose('Display an inspiring quote');",
  "",
  "the_title();",
  "",
  "require __DIR__.'/auth.php';",
  "",
].join("\n");

Deno.test("a PHP routes file keeps its static calls, a group's routes and its requires", async () => {
  const view = (await renderCode("routes/web.php", TEXT))!;
  assert.equal(
    view.text,
    [
      "<?php",
      "",
      "use Illuminate\\Support\\Facades\\Route;",
      "",
      "Route::get('/', function () { ... })->name('home');",
      "",
      "Route::middleware('auth') // signed in",
      "    ->group(function () {",
      "    Route::get('/profile', [ProfileController::class, 'edit'])",
      "        ->name('profile.edit');",
      "    Route::resource('photos', PhotoController::class);",
      "});",
      "",
      "Artisan::command('inspire', function () { ... })->purpose('Display an inspiring quote');",
      "",
      "require __DIR__.'/auth.php';",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "route get /",
    "group Route::middleware('auth')->group(...)",
    "route Route::middleware('auth')->group(...).get /profile",
    "route Route::middleware('auth')->group(...).resource photos",
  ]);
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "Route::get('/', function () { ... })->name('home')  // route",
      "Route::middleware('auth')->group(...)  // group",
      "  Route::get('/profile', [ProfileController::class, 'edit'])->name('profile.edit')  // route",
      "  Route::resource('photos', PhotoController::class)  // route",
      "",
    ].join("\n"),
  );
});

Deno.test("a PHP routes file's summary lists its routes", () => {
  assert.equal(
    summarize("routes/web.php", TEXT),
    "**PHP**, 22 lines\n- uses: `Illuminate\\Support\\Facades\\Route`\n- routes: `get /`, `get /profile`, `resource photos`",
  );
});
