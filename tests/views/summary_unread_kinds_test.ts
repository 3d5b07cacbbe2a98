import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { languageOf } from "../../pipeline/transform.ts";

// Small files of kinds a summary read as text (their first lines: a license comment) or as
// another language (a Puppet manifest as Pascal, with no name), written for these tests.
const LICENSE = "# Copyright (c) 2024 A. Author\n# Licensed under the MIT license.\n";

const CASES: Array<[string, string, string]> = [
  [
    "pkg/h5f.pyx",
    LICENSE + [
      "from .defs cimport *",
      "from cpython.buffer cimport PyObject_CheckBuffer",
      "import gc",
      'cdef extern from "hdf5.h":',
      "    ctypedef long int hid_t",
      "    ctypedef struct H5F_info_t:",
      "        int version",
      "cdef class FileID(GroupID):",
      "    cdef int n",
      "    cdef object _cache = None",
      "    cpdef close(self):",
      "        pass",
      "def open(char* name, unsigned int flags=0, PropFAID fapl=None):",
      "    pass",
      "cdef inline int _check(hid_t fid) except -1:",
      "    return 0",
    ].join("\n") + "\n",
    "**Cython**, 18 lines\n- classes: `FileID`\n- functions: `close`, `open`, `_check`\n- types: `hid_t`, `H5F_info_t`\n- externs: `hdf5.h`\n- imports: `.defs`, `cpython.buffer`, `gc`",
  ],
  [
    "schema.graphql",
    LICENSE + [
      "directive @cap(name: String) on FIELD_DEFINITION",
      '"""An actor."""',
      "interface Actor { login: String! }",
      "type User implements Actor & Node {",
      "  login: String!",
      "}",
      "extend type Query { viewer: User! }",
      "input AddStarInput { id: ID! }",
      "enum Role { ADMIN MEMBER }",
      "union Owner = User | Org",
      "scalar DateTime",
      "query Viewer { viewer { login } }",
      "fragment UserParts on User { login }",
    ].join("\n") + "\n",
    "**GraphQL**, 15 lines\n- types: `User`, `Query`\n- interfaces: `Actor`\n- inputs: `AddStarInput`\n- enums: `Role`\n- unions: `Owner`\n- scalars: `DateTime`\n- directives: `cap`\n- operations: `query Viewer`, `fragment UserParts`",
  ],
  [
    "manifests/vhost.pp",
    LICENSE + [
      "define apache::vhost (",
      "  String $docroot,",
      ") {",
      "  include apache::mod::ssl",
      "  contain ::apache::params",
      "  file { $docroot:",
      "    ensure => directory,",
      "  }",
      '  concat::fragment { "${name}-header":',
      "    target => $name,",
      "  }",
      "}",
      "class apache::mod::ssl { }",
      "node 'web01.example.com' { }",
    ].join("\n") + "\n",
    "**Puppet**, 16 lines\n- classes: `apache::mod::ssl`\n- defined types: `apache::vhost`\n- nodes: `'web01.example.com'`\n- includes: `apache::mod::ssl`, `::apache::params`\n- resources: `file`, `concat::fragment`",
  ],
  [
    "src/Cart.pp",
    "unit Cart;\ninterface\ntype\n  TCart = class(TObject)\n  end;\nprocedure Clear;\nimplementation\nend.\n",
    "**Pascal**, 8 lines\n- unit: `Cart`\n- types: `TCart`\n- routines: `Clear`",
  ],
  [
    "infra/main.bicep",
    [
      "targetScope = 'subscription'",
      "metadata name = 'Landing zone'",
      "import { tagsType } from 'br/public:avm/utl/types:0.1.0'",
      "param location string = deployment().location",
      "@secure()",
      "param adminPassword string",
      "var prefix = 'aca'",
      "type tier = 'basic' | 'premium'",
      "func name(p string) string => '${prefix}-${p}'",
      "resource rg 'Microsoft.Resources/resourceGroups@2024-03-01' = {",
      "  name: name('rg')",
      "  resource lock 'Microsoft.Authorization/locks@2020-05-01' = {",
      "    name: 'lock'",
      "  }",
      "}",
      "module spoke './spoke.bicep' = {",
      "  scope: rg",
      "}",
      "output rgName string = rg.name",
    ].join("\n") + "\n",
    "**Bicep**, 19 lines\n- params: `location`, `adminPassword`\n- vars: `prefix`\n- resources: `rg`, `lock`\n- modules: `spoke`\n- outputs: `rgName`\n- types: `tier`\n- functions: `name`\n- imports: `br/public:avm/utl/types:0.1.0`",
  ],
  [
    "src/App/App.csproj",
    [
      '<Project Sdk="Microsoft.NET.Sdk">',
      "  <PropertyGroup>",
      "    <TargetFrameworks>net8.0;netstandard2.0</TargetFrameworks>",
      "  </PropertyGroup>",
      "  <ItemGroup>",
      '    <PackageReference Include="Autofac" Version="8.0.0" />',
      '    <ProjectReference Include="..\\Core\\Core.csproj" />',
      "  </ItemGroup>",
      "</Project>",
    ].join("\n") + "\n",
    "**MSBuild project**, 9 lines\n- sdk: `Microsoft.NET.Sdk`\n- targets: `net8.0;netstandard2.0`\n- packages: `Autofac`\n- projects: `..\\Core\\Core.csproj`",
  ],
  [
    "App.sln",
    [
      "",
      "Microsoft Visual Studio Solution File, Format Version 12.00",
      'Project("{2150E333-8FDC-42A3-9474-1A3956D46DE8}") = "src", "src", "{6267E2ED}"',
      "EndProject",
      'Project("{9A19103F-16F7-4668-BE54-9A1E7A4F7556}") = "App", "src\\App\\App.csproj", "{1}"',
      "EndProject",
    ].join("\n") + "\n",
    "**Visual Studio solution**, 6 lines\n- projects: `src`, `App`",
  ],
  [
    "Strings.resx",
    '<?xml version="1.0" encoding="utf-8"?>\n<root>\n  <data name="Title" xml:space="preserve">\n    <value>Hello</value>\n  </data>\n</root>\n',
    "**.NET resources**, 6 lines\n- names: `Title`",
  ],
  [
    "pom.xml",
    [
      '<project xmlns="http://maven.apache.org/POM/4.0.0">',
      "  <modelVersion>4.0.0</modelVersion>",
      "  <artifactId>petclinic</artifactId>",
      "  <modules>",
      "    <module>core</module>",
      "  </modules>",
      "  <dependencies>",
      "    <dependency><artifactId>h2</artifactId></dependency>",
      "  </dependencies>",
      "</project>",
    ].join("\n") + "\n",
    "**Maven POM**, 10 lines\n- modules: `core`\n- artifacts: `petclinic`, `h2`",
  ],
  [
    "layout.xml",
    "<LinearLayout>\n</LinearLayout>\n",
    "**XML**, 2 lines, root `LinearLayout`",
  ],
  [
    "_includes/head.html",
    [
      "<head>",
      "  {%- seo -%}",
      "  {%- if site.google_analytics -%}",
      "    {%- include google-analytics.html -%}",
      "  {%- endif -%}",
      "  {% include_relative custom-head.html %}",
      "</head>",
    ].join("\n") + "\n",
    "**HTML template**, 7 lines\n- includes: `google-analytics.html`, `custom-head.html`",
  ],
  [
    "layouts/baseof.html",
    [
      "<!DOCTYPE html>",
      "<html>",
      '  <head>{{ partial "head.html" . }}</head>',
      '  <body>{{ block "main" . }}{{ end }}',
      '  {{- template "_internal/twitter_cards.html" . -}}</body>',
      "</html>",
      '{{ define "footer" }}<footer></footer>{{ end }}',
    ].join("\n") + "\n",
    "**HTML template**, 7 lines\n- blocks: `main`, `footer`\n- includes: `head.html`, `_internal/twitter_cards.html`",
  ],
  [
    "index.html",
    "<html><head><title>Shop</title></head>\n<body><h1>Cart {{ total }}</h1></body></html>\n",
    "**HTML**, 2 lines\n- title: `Shop`\n- headings: `Cart {{ total }}`",
  ],
  [
    "llmc/layernorm.cuh",
    '/* LayerNorm kernels. */\n#include "cuda_common.h"\n\n__global__ void layernorm_kernel(float* out, const float* inp, int N) {\n  out[0] = inp[0];\n}\n\nvoid layernorm_forward(float* out, const float* inp, int N, cudaStream_t stream) {\n  layernorm_kernel<<<N, 256, 0, stream>>>(out, inp, N);\n}\n',
    "**CUDA header**, 10 lines\n- functions: `layernorm_kernel`, `layernorm_forward`\n- includes: `cuda_common.h`",
  ],
];

Deno.test("Cython, GraphQL, Puppet, Bicep, CUDA, MSBuild, solution, resource, Maven and page template summaries list their names", () => {
  for (const [path, text, want] of CASES) assert.equal(summarize(path, text), want, path);
});

Deno.test("a CUDA file has a skeleton and a fence of its own", async () => {
  const [, text] = CASES.find(([path]) => path.endsWith(".cuh"))!;
  const out = (await renderCode("kernels.cu", text))!;
  assert.match(
    out.text,
    /^__global__ void layernorm_kernel\(float\* out, const float\* inp, int N\) \{ \.\.\. \}$/m,
  );
  assert.match(out.text, /^void layernorm_forward\([^\n]*\) \{ \.\.\. \}$/m);
  assert.equal(languageOf("kernels.cu"), "cuda");
  assert.equal(languageOf("h5f.pyx"), "cython");
});

Deno.test("a .pp Pascal unit written in lower case is Pascal, not Puppet", () => {
  // FreePascal's units are `.pp` files, their keywords often in lower case: `function max(…)`
  // opens a line as a Puppet function's does.
  const unit = [
    "unit mathx;",
    "interface",
    "function max(a, b: integer): integer;",
    "procedure swap(var a, b: integer);",
    "implementation",
    "function max(a, b: integer): integer;",
    "begin",
    "  if a > b then max := a else max := b;",
    "end;",
    "end.",
  ].join("\n") + "\n";
  const include = "function clamp(x: integer): integer;\nbegin\n  clamp := x;\nend;\n";
  for (const text of [unit, include]) {
    const summary = summarize("src/mathx.pp", text);
    assert.match(summary, /^\*\*Pascal\*\*/);
    assert.equal(summary, summarize("src/mathx.pas", text));
  }
});

Deno.test("a Puppet module's type alias file is Puppet and lists its type, not Pascal", () => {
  // puppetlabs-postgresql's `types/*.pp`: one alias each, no class or resource
  const alias = "# @summary the supported password_encryption\n" +
    "type Postgresql::Pg_password_encryption = Enum['md5', 'scram-sha-256']\n";
  assert.equal(
    summarize("types/pg_password_encryption.pp", alias),
    "**Puppet**, 2 lines\n- types: `Postgresql::Pg_password_encryption`",
  );
  const struct =
    "type Postgresql::Pg_hba_rule = Struct[{\n  database => String,\n  user => String,\n}]\n";
  assert.match(
    summarize("types/pg_hba_rule.pp", struct),
    /^\*\*Puppet\*\*, 4 lines\n- types: `Postgresql::Pg_hba_rule`$/,
  );
  // Pascal's `type` names no `::` path
  const pascal =
    "unit shapes;\ninterface\ntype TShape = record\n  w: integer;\nend;\nimplementation\nend.\n";
  assert.match(summarize("src/shapes.pp", pascal), /^\*\*Pascal\*\*/);
});

Deno.test("a Perl test script (.t) lists its modules and its tests; a .t of other text stays text", () => {
  // lua-resty-http's Test::Nginx suites: the blocks after `__DATA__` are its tests
  const nginx = [
    "use Test::Nginx::Socket 'no_plan';",
    "use Cwd qw(cwd);",
    "",
    "run_tests();",
    "",
    "__DATA__",
    "",
    "=== TEST 1: Proxy GET request and response",
    "--- config",
    "    location = /a { echo a; }",
    "--- request",
    "GET /a",
    "",
    "=== TEST 2: Proxy POST request",
    "--- request",
    "POST /a",
  ].join("\n") + "\n";
  assert.equal(
    summarize("t/11-proxy.t", nginx),
    "**Perl test**, 16 lines\n- uses: `Test::Nginx::Socket`, `Cwd`\n" +
      "- tests: `TEST 1: Proxy GET request and response`, `TEST 2: Proxy POST request`",
  );
  const more =
    "#!perl\nuse strict;\nuse Test::More;\n\nsubtest 'parses a url' => sub {\n  ok(1);\n};\n\ndone_testing;\n";
  assert.equal(
    summarize("t/url.t", more),
    "**Perl test**, 9 lines\n- uses: `Test::More`\n- subtests: `parses a url`",
  );
  assert.match(summarize("notes/a.t", "one line of notes\nanother\n"), /^\*\*Text\*\*/);
});

Deno.test("Ruby's files known by name are summarized as Ruby: gems, cookbooks, tasks", () => {
  const gemfile =
    "source 'https://rubygems.org'\n\ngem 'rails', '~> 7.1'\ngroup :test do\n  gem \"rspec\"\nend\n";
  assert.equal(
    summarize("Gemfile", gemfile),
    "**Ruby**, 6 lines\n- dependencies: `rails`, `rspec`",
  );
  const rakefile =
    "require 'rake/testtask'\n\ndesc 'Run the tests'\ntask :test do\nend\ntask default: [:test]\n";
  assert.equal(
    summarize("Rakefile", rakefile),
    "**Ruby**, 6 lines\n- requires: `rake/testtask`\n- tasks: `test`, `default`",
  );
  assert.equal(
    summarize(
      "cookbooks/pg/Berksfile",
      "source 'https://supermarket.chef.io'\n\nmetadata\ncookbook 'test', path: 'test/cookbooks/test'\n",
    ),
    "**Ruby**, 4 lines\n- dependencies: `test`",
  );
  const vagrant = 'Vagrant.configure("2") do |config|\n  config.vm.box = "ubuntu/jammy64"\nend\n';
  assert.equal(summarize("Vagrantfile", vagrant), "**Ruby**, 3 lines\n- settings: `config.vm.box`");
  // nothing named: its first lines, not an empty summary
  const fastfile = 'lane :beta do\n  build_app(scheme: "App")\nend\n';
  assert.match(
    summarize("fastlane/Fastfile", fastfile),
    /^\*\*Ruby\*\*, 3 lines\n\n {4}lane :beta do/,
  );
});

Deno.test("PostScript and Pug summaries list their names; Blade and PostScript have fences of their own", () => {
  const eps = [
    "%!PS-Adobe-3.0 EPSF-3.0",
    "%%Title: figure.eps",
    "%%Creator: matplotlib version 3.8",
    "%%BoundingBox: 0 0 460 345",
    "%%Pages: 1",
    "%%EndComments",
    "/box { newpath 0 0 moveto } bind def",
    "0 0 box",
    "ffd8ffe000104a46494600010100000100010000",
  ].join("\n") + "\n";
  assert.equal(
    summarize("figures/fig.eps", eps),
    "**Encapsulated PostScript**, 9 lines\n- title: `figure.eps`\n- creator: `matplotlib version 3.8`\n" +
      "- bounding box: `0 0 460 345`\n- pages: `1`\n- procedures: `box`",
  );
  assert.equal(
    summarize("a.ps", "%!PS\n/inch { 72 mul } def\n"),
    "**PostScript**, 2 lines\n- procedures: `inch`",
  );
  const pug = [
    "extends layout",
    "",
    "block content",
    "  include ./nav.pug",
    "  mixin card(title)",
    "    .card= title",
    "  +card('a')",
    "  block append scripts",
    "    script(src='x.js')",
  ].join("\n") + "\n";
  assert.equal(
    summarize("views/index.pug", pug),
    "**Pug template**, 9 lines\n- extends: `layout`\n- includes: `./nav.pug`\n" +
      "- blocks: `content`, `scripts`\n- mixins: `card`\n- mixin calls: `card`",
  );
  assert.equal(languageOf("resources/views/welcome.blade.php"), "blade");
  assert.equal(languageOf("app/Http/Kernel.php"), "php");
  assert.equal(languageOf("figures/fig.eps"), "postscript");
  assert.equal(languageOf("build.ps1"), "ps1");
});
