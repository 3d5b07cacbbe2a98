import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// A skeleton is a short view of any file. The code views keep a file's statements that a DSL
// writes (Ruby's calls, a PHP plugin's hooks, C#'s top-level statements, Mix's config, a
// JavaScript module's calls), so a file that is a long list of them (a seeds file's thousands of
// `User.create!(...)`, a generated routes file) had a skeleton as long as the file, and an
// outline longer. Written for these tests.

function lines(n: number, line: (i: number) => string): string {
  return Array.from({ length: n }, (_, i) => line(i)).join("\n") + "\n";
}

const RUNS: [string, string, (i: number) => string][] = [
  ["db/seeds.rb", 'require "faker"\n', (i) => `User.create!(name: "user${i}", admin: false)`],
  ["plugin.php", "<?php\n", (i) => `add_action('init_${i}', 'setup_${i}');`],
  [
    "Program.cs",
    "var app = WebApplication.Create(args);\n",
    (i) => `app.MapGet("/p${i}", () => "r");`,
  ],
  ["config/config.exs", "import Config\n", (i) => `config :app_${i}, key: ${i}`],
  ["seed.js", 'import db from "./db.js";\n', (i) => `db.users.insert({ name: "u${i}" });`],
];

Deno.test("a long run of like statements shows its first 32 and a count, at any length", async () => {
  for (const [path, head, line] of RUNS) {
    const small = (await renderCode(path, head + lines(100, line)))!;
    const large = (await renderCode(path, head + lines(400, line)))!;
    const shown = small.text.split("\n");
    assert.equal(shown.length, large.text.split("\n").length, path);
    assert.equal(shown[0], head.trimEnd(), path);
    assert.equal(shown[32], line(31), path);
    assert.match(shown[33], /^\.\.\. \(68 more \S+ statements\)$/, path);
    assert.match(large.text, /\.\.\. \(368 more /, path);
    assert.ok(large.symbols.length <= 32, path);
  }
  const seeds = (await renderCode("db/seeds.rb", lines(100, RUNS[0][2])))!;
  assert.equal(seeds.text.split("\n")[32], "... (68 more User.create! statements)");
  assert.equal(outlineText(seeds.symbols, "#").split("\n").length, 33);
  // A list of declarations written by hand stays whole (a Phoenix component's 28 `attr`s).
  const attrs = `defmodule C do\n${lines(60, (i) => `  attr :a${i}, :map, default: nil`)}end\n`;
  assert.equal((await renderCode("c.ex", attrs))!.text, attrs);
});

Deno.test("a run of unlike statements folds past 200, what it shows counted", async () => {
  const routes = (n: number) =>
    `Rails.application.routes.draw do\n${
      lines(n, (i) => i % 2 ? `  resources :things${i}` : `  get "/p${i}", to: "p#s${i}"`)
    }end\n`;
  const short = (await renderCode("config/routes.rb", routes(200)))!;
  assert.equal(short.text, routes(200));
  const long = (await renderCode("config/routes.rb", routes(1000)))!;
  const shown = long.text.split("\n");
  assert.equal(shown.length, 1 + 100 + 1 + 1 + 1);
  assert.equal(shown[101], "  ... (900 more statements)");
  assert.equal(shown[102], "end");
});

Deno.test("imports, tests, definitions and what the mask lists never fold", async () => {
  const requires = lines(100, (i) => `require "lib${i}"`);
  assert.equal((await renderCode("a.rb", requires))!.text, requires);
  const imports = lines(100, (i) => `import { a${i} } from "./a${i}.ts";`);
  assert.equal((await renderCode("a.ts", imports))!.text, imports);
  const tests = `describe User do\n${
    lines(100, (i) => `  it "does ${i}" do\n    expect(1).to eq(1)\n  end`)
  }end\n`;
  const spec = (await renderCode("user_spec.rb", tests))!;
  assert.equal(spec.symbols.filter((s) => s.kind === "test").length, 100);
  const methods = lines(100, (i) => `def m${i}; end`);
  assert.equal((await renderCode("m.rb", methods))!.symbols.length, 100);
  // A comment on its own line heads a group of its own; a statement with a block is like none.
  const gems = lines(100, (i) => `${i % 10 ? "" : `# Group ${i}\n`}gem "g${i}"`);
  assert.equal((await renderCode("Gemfile", gems))!.text, gems);
  const tables = lines(100, (i) => `create_table "t${i}" do |t|\n  t.string "a"\nend`);
  assert.equal((await renderCode("db/schema.rb", tables))!.text, tables);
  // The calls the mask lists stay (a call is named by its callee and first argument: these 100
  // share one name).
  const seeds = lines(100, RUNS[0][2]);
  const masked = (await renderCode("db/seeds.rb", seeds, { mask: { "User.create!": "sig" } }))!;
  assert.equal(masked.text, seeds);
  assert.equal(masked.symbols.length, 100);
});

Deno.test("a Ruby statement's brace block over lines is its do block: a test's is elided", async () => {
  const text = [
    "describe Service do",
    "  let(:params) {",
    "    { name: 'foo' }",
    "  }",
    "  it { is_expected.to be_valid }",
    "  it {",
    "    expect(subject).to contain_service('httpd')",
    "  }",
    "  scope :recent, -> {",
    "    where(x: 1).order(:id)",
    "  }",
    "end",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("service_spec.rb", text))!.text,
    [
      "describe Service do",
      "  let(:params) {",
      "    ...",
      "  }",
      "  it { is_expected.to be_valid }",
      "  it {",
      "    ...",
      "  }",
      "  scope :recent, -> {",
      "    where(x: 1).order(:id)",
      "  }",
      "end",
      "",
    ].join("\n"),
  );
});

Deno.test("a mask that hides the rest leaves no count line of a hidden run", async () => {
  const text = `class A\n  def keep_me; end\nend\n${lines(100, RUNS[0][2])}`;
  const mask = { "A.keep_me": "sig" } as const;
  const hidden = (await renderCode("db/seeds.rb", text, { mask, rest: "hide" }))!;
  assert.equal(hidden.text, "class A\n  def keep_me; end\nend\n");
});

// The outline of a folded run showed its first 32 and nothing for the rest: 2,968 seeds or 900
// routes were gone from it with no line saying so, where the skeleton counted them. Written for
// this test.
Deno.test("an outline shows a folded run's count line where the run stood, at its depth", async () => {
  const seeds = `${lines(100, RUNS[0][2])}Post.create!(title: "x")\n`;
  const view = (await renderCode("db/seeds.rb", seeds))!;
  const outline = outlineText(view.symbols, "#", { folds: view.folds }).split("\n");
  assert.equal(outline.length, 35);
  assert.equal(outline[31], 'User.create!(name: "user31", admin: false)  # call');
  assert.equal(outline[32], "... (68 more User.create! statements)");
  assert.equal(outline[33], 'Post.create!(title: "x")  # call');
  const routes = `Rails.application.routes.draw do\n${
    lines(1000, (i) => i % 2 ? `  resources :things${i}` : `  get "/p${i}", to: "p#s${i}"`)
  }end\n`;
  const long = (await renderCode("config/routes.rb", routes))!;
  const drawn = outlineText(long.symbols, "#", { folds: long.folds }).split("\n");
  assert.equal(drawn[0], "Rails.application.routes.draw  # call");
  assert.equal(drawn[101], "  ... (900 more statements)");
  assert.equal(drawn.length, 103);
  // A run inside a symbol the outline leaves out goes with it.
  const hidden = `static class R\n{\n    static void MapAll(IEndpointRouteBuilder r)\n    {\n${
    lines(100, (i) => `        r.MapGet("/p${i}", () => "x");`)
  }    }\n}\n`;
  const inside = (await renderCode("Routes.cs", hidden))!;
  assert.match(inside.text, /\.\.\. \(68 more r\.MapGet statements\)/);
  assert.equal(
    outlineText(inside.symbols, "//", { folds: inside.folds }),
    "static class R  // class\n",
  );
});
