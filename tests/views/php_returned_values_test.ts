import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// A PHP file whose substance is what it returns: a Laravel migration (`return new class extends
// Migration {...};`, every migration since Laravel 9), a Symfony config closure, a config array.
// The code views kept its `<?php` and `use` lines alone. Written for these tests.
const MIGRATION = [
  "<?php",
  "",
  "use Illuminate\\Database\\Migrations\\Migration;",
  "",
  "return new class extends Migration",
  "{",
  "    /**",
  "     * Run the migrations.",
  "     */",
  "    public function up(): void",
  "    {",
  "        Schema::create('users', function (Blueprint $table) {",
  "            $table->id();",
  "        });",
  "    }",
  "",
  "    private const TABLE = 'users';",
  "",
  "    public function down(): void",
  "    {",
  "        Schema::dropIfExists('users');",
  "    }",
  "};",
].join("\n") + "\n";

Deno.test("a PHP file's returned anonymous class is kept with its members", async () => {
  const view = (await renderCode("database/migrations/create_users.php", MIGRATION))!;
  assert.equal(
    view.text,
    [
      "<?php",
      "",
      "use Illuminate\\Database\\Migrations\\Migration;",
      "",
      "return new class extends Migration",
      "{",
      "    /**",
      "     * Run the migrations.",
      "     */",
      "    public function up(): void",
      "    { ... }",
      "",
      "    private const TABLE = 'users';",
      "",
      "    public function down(): void",
      "    { ... }",
      "};",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "class class@anonymous",
    "method class@anonymous.up",
    "constant class@anonymous.TABLE",
    "method class@anonymous.down",
  ]);
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "return new class extends Migration  // class",
      "  public function up(): void  // method",
      "  public function down(): void  // method",
      "",
    ].join("\n"),
  );
});

Deno.test("a PHP file's returned closure keeps its signature, its body elided", async () => {
  const text = [
    "<?php",
    "",
    "use Symfony\\Component\\DependencyInjection\\Loader\\Configurator\\ContainerConfigurator;",
    "",
    "return static function (ContainerConfigurator $container): void {",
    "    $container->services()->set('a', A::class);",
    "};",
    "",
  ].join("\n");
  const view = (await renderCode("config/services.php", text))!;
  assert.match(
    view.text,
    /^return static function \(ContainerConfigurator \$container\): void \{ \.\.\. \};$/m,
  );
});

Deno.test("a PHP file's returned array stays when short, its keys when long", async () => {
  const short = "<?php\n\nreturn [\n    'name' => env('APP_NAME', 'Laravel'),\n];\n";
  assert.equal((await renderCode("config/app.php", short))!.text, short);
  const rows = Array.from({ length: 20 }, (_, i) => `    'key${i}' => ${i},`);
  const long = `<?php\n\nreturn [\n${rows.join("\n")}\n];\n`;
  assert.equal((await renderCode("config/app.php", long))!.text, long);
  const list = `<?php\n\nreturn [\n${
    rows.map((r) => r.replace(/'key\d+' => /, "")).join("\n")
  }\n];\n`;
  assert.equal((await renderCode("config/list.php", list))!.text, "<?php\n\nreturn ...;\n");
});

Deno.test("a return inside a PHP function or block is no item of the file", async () => {
  const text =
    "<?php\n\nif (PHP_VERSION_ID < 80000) {\n    return;\n}\n\nfunction f() { return 1; }\n";
  const view = (await renderCode("a.php", text))!;
  assert.equal(view.text, "<?php\n\nfunction f() { ... }\n");
});

Deno.test("a mask names a returned anonymous class's members by class@anonymous", async () => {
  const view = (await renderCode("database/migrations/create_users.php", MIGRATION, {
    mask: { "class@anonymous.down": "def" },
    rest: "hide",
  }))!;
  assert.equal(
    view.text,
    [
      "return new class extends Migration",
      "{",
      "    public function down(): void",
      "    {",
      "        Schema::dropIfExists('users');",
      "    }",
      "};",
      "",
    ].join("\n"),
  );
});
