import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";
import { summarize } from "../../plugins/view_modes/summary.ts";

// A PHP config file returns an array of settings (Laravel's `config/*.php`: `config('app.name')`
// reads its key `name`). A long one was `return ...;` in the code views and its summary named
// nothing but its `use`s. Written for these tests.
const CONNECTIONS = Array.from(
  { length: 14 },
  (_, i) => `        'c${i}' => ['driver' => 'd${i}'],`,
);
const TEXT = [
  "<?php",
  "",
  "use Illuminate\\Support\\Str;",
  "",
  "return [",
  "",
  "    /*",
  "    | The default connection.",
  "    */",
  "",
  "    'default' => env('DB_CONNECTION', 'sqlite'),",
  "",
  "    // Every connection.",
  "    'connections' => [",
  ...CONNECTIONS,
  "    ],",
  "",
  "    'migrations' => [",
  "        'table' => 'migrations',",
  "    ],",
  "",
  "];",
].join("\n") + "\n";

Deno.test("a PHP config's returned array keeps its keys, long values elided", async () => {
  const view = (await renderCode("config/database.php", TEXT))!;
  assert.equal(
    view.text,
    TEXT.replace(CONNECTIONS.join("\n"), "").replace(
      "'connections' => [\n\n    ]",
      "'connections' => ...",
    ),
  );
  assert.match(view.text, /^ {4}'connections' => \.\.\.,$/m);
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "key default",
    "key connections",
    "key migrations",
  ]);
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "'default' => env('DB_CONNECTION', 'sqlite')  // key",
      "'connections' => [...]  // key",
      "'migrations' => [...]  // key",
      "",
    ].join("\n"),
  );
});

Deno.test("a mask names a PHP config's keys; a hidden key takes its comments", async () => {
  const view = (await renderCode("config/database.php", TEXT, {
    mask: { "migrations": "def" },
    rest: "hide",
  }))!;
  assert.equal(
    view.text,
    "return [\n\n    'migrations' => [\n        'table' => 'migrations',\n    ],\n\n];\n",
  );
});

Deno.test("a PHP config's summary lists its returned keys", () => {
  assert.equal(
    summarize("config/database.php", TEXT),
    "**PHP**, 35 lines\n- uses: `Illuminate\\Support\\Str`\n- keys: `default`, `connections`, `migrations`",
  );
});
