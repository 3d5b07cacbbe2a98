import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// A Ruby DSL's statements are what its file or class declares: a Rails app's routes, its
// environments' settings, its schema's tables, a model's associations and a spec's examples.
// The code views kept only the `require`s (maybe-finance/maybe: 37 of its 804 Ruby files had no
// symbol) and a model's methods without its `has_many :entries` (listed as the method
// `entries` it defines).
// Written for these tests.
const ROUTES = [
  "Rails.application.routes.draw do",
  "  use_doorkeeper",
  "  # AI chats",
  "  resources :chats do",
  "    member do",
  "      post :retry",
  "    end",
  "  end",
  '  get "changelog", to: "pages#changelog"',
  "end",
  "",
].join("\n");

Deno.test("a Rails routes file keeps its routes, nested blocks and all, each a symbol", async () => {
  const view = (await renderCode("config/routes.rb", ROUTES))!;
  assert.equal(view.text, ROUTES);
  assert.equal(
    outlineText(view.symbols, "#"),
    [
      "Rails.application.routes.draw  # call",
      "  resources :chats  # call",
      "    member  # call",
      "      post :retry  # call",
      '  get "changelog", to: "pages#changelog"  # call',
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => s.qualifiedName).slice(-1), [
    "Rails.application.routes.draw.get changelog",
  ]);
  // A mask names a route as the outline does.
  const masked = await renderCode("config/routes.rb", ROUTES, {
    mask: { "Rails.application.routes.draw.resources :chats": "hide" },
  });
  assert.equal(
    masked!.text,
    'Rails.application.routes.draw do\n  use_doorkeeper\n  get "changelog", to: "pages#changelog"\nend\n',
  );
});

Deno.test("a block of settings stays, a block of code is elided, output is left out", async () => {
  const text = [
    'require "active_support/core_ext/integer/time"',
    "",
    "Rails.application.configure do",
    "  config.eager_load = true",
    "  base_logger = ActiveSupport::Logger.new(STDOUT)",
    "  config.logger = ActiveSupport::TaggedLogging.new(base_logger)",
    "  config.filter_parameters += [:passw]",
    '  if ENV["CACHE_REDIS_URL"].present?',
    "    config.cache_store = :redis_cache_store",
    "  end",
    "end",
    "",
    "Sidekiq::Web.use(Rack::Auth::Basic) do |username, password|",
    '  expected = ENV.fetch("SIDEKIQ_WEB_PASSWORD")',
    "  secure_compare(password, expected)",
    "end",
    'ENV["BUNDLE_GEMFILE"] ||= File.expand_path("../Gemfile", __dir__)',
    'puts "configured"',
    "",
  ].join("\n");
  const view = (await renderCode("config/environments/production.rb", text))!;
  assert.equal(
    view.text,
    [
      ...text.split("\n").slice(0, 13),
      "  ...",
      "end",
      'ENV["BUNDLE_GEMFILE"] ||= File.expand_path("../Gemfile", __dir__)',
      "",
    ].join("\n"),
  );
  assert.equal(
    outlineText(view.symbols, "#"),
    [
      "Rails.application.configure  # call",
      "  config.eager_load = true  # setting",
      "  config.logger = ActiveSupport::TaggedLogging.new(base_logger)  # setting",
      "  config.filter_parameters += [:passw]  # setting",
      "  config.cache_store = :redis_cache_store  # setting",
      "Sidekiq::Web.use(Rack::Auth::Basic)  # call",
      'ENV["BUNDLE_GEMFILE"] ||= File.expand_path("../Gemfile", __dir__)  # setting',
      "",
    ].join("\n"),
  );
});

Deno.test("a schema's tables and a model's associations are kept and listed", async () => {
  const schema = [
    "ActiveRecord::Schema[7.2].define(version: 2025_07_24_115507) do",
    '  enable_extension "pgcrypto"',
    "",
    '  create_table "accounts", id: :uuid, force: :cascade do |t|',
    '    t.string "name"',
    "  end",
    "end",
    "",
  ].join("\n");
  const tables = (await renderCode("db/schema.rb", schema))!;
  assert.equal(tables.text, schema);
  assert.deepEqual(tables.symbols.map((s) => s.name), [
    "ActiveRecord::Schema[7.2].define",
    "enable_extension pgcrypto",
    "create_table accounts",
    "t.string name",
  ]);
  const model = [
    "class Account < ApplicationRecord",
    "  belongs_to :family",
    '  scope :visible, -> { where(status: "active") }',
    '  self.table_name = "accounts"',
    "",
    "  define_method(:total) do |x|",
    "    y = x * 2",
    "    y + 1",
    "  end",
    "end",
    "",
  ].join("\n");
  const view = (await renderCode("app/models/account.rb", model))!;
  assert.equal(
    view.text,
    [...model.split("\n").slice(0, 6), "    ...", "  end", "end", ""].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "class Account",
    "association Account.family",
    "scope Account.visible",
    "setting Account.self.table_name",
    "method Account.total",
  ]);
  // What a call defines is named so, as `attr_reader :a` names `a`: a mask hides it by that name.
  const masked = await renderCode("app/models/account.rb", model, {
    mask: { "Account.family": "hide", "Account.visible": "hide" },
  });
  assert.equal(
    masked!.text.split("\n").slice(0, 3).join("\n"),
    [model.split("\n")[0], model.split("\n")[3], ""].join("\n"),
  );
});

Deno.test("a spec keeps its example groups and examples, their bodies and hooks elided", async () => {
  const text = [
    "RSpec.describe Account do",
    "  let(:account) { create(:account) }",
    "",
    "  before do",
    "    sign_in account.user",
    "  end",
    "",
    '  it "has a name" do',
    '    expect(account.name).to eq("x")',
    "  end",
    "end",
    "",
  ].join("\n");
  const view = (await renderCode("spec/models/account_spec.rb", text))!;
  assert.equal(
    view.text,
    [
      "RSpec.describe Account do",
      "  let(:account) { create(:account) }",
      "",
      "  before do",
      "    ...",
      "  end",
      "",
      '  it "has a name" do',
      "    ...",
      "  end",
      "end",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.name}`), [
    "suite Account",
    "call let :account",
    "call before",
    "test has a name",
  ]);
});

Deno.test("a Rake or Capistrano task's block is code, elided; its namespace and desc stay", async () => {
  const text = [
    'set :application, "my_app"',
    "namespace :deploy do",
    '  desc "Restart application"',
    "  task :restart do",
    "    on roles(:app) do",
    '      execute :touch, release_path.join("tmp/restart.txt")',
    "    end",
    "  end",
    "  after :publishing, :restart",
    "end",
    'multitask build: ["a", "b"] do',
    '  sh "make all"',
    "end",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("config/deploy.rb", text))!.text,
    [
      'set :application, "my_app"',
      "namespace :deploy do",
      '  desc "Restart application"',
      "  task :restart do",
      "    ...",
      "  end",
      "  after :publishing, :restart",
      "end",
      'multitask build: ["a", "b"] do',
      "  ...",
      "end",
      "",
    ].join("\n"),
  );
});

// A heredoc's body follows the statement that opens it as a node of its own, which the code views
// left out: `QUERY = <<~SQL` stood with no body and no terminator, and the view read on as if
// inside the string (hunt22's kept calls, a seeds file's `Post.create!(body: <<~EOS)`, too).
Deno.test("a heredoc's body goes as the statement that opens it, a long one elided to its terminator", async () => {
  const lines = (n: number, line: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => line(i)).join("\n") + "\n";
  const text = "QUERY = <<~SQL\n" + lines(20, (i) => `  select ${i}`) + "SQL\n" +
    "class Seeds\n  GREETING = <<-TEXT\n    hello\n  TEXT\n  def run = 1\nend\n" +
    "Post.create!(body: <<~EOS, title: <<~T)\n  a post\nEOS\n  a title\nT\n" +
    "puts <<~OUT\n  left out\nOUT\nDONE = true\n";
  const view = (await renderCode("db/seeds.rb", text))!;
  assert.equal(
    view.text,
    "QUERY = <<~SQL\n  ...\nSQL\n" +
      "class Seeds\n  GREETING = <<-TEXT\n    hello\n  TEXT\n  def run = 1\nend\n" +
      "Post.create!(body: <<~EOS, title: <<~T)\n  a post\nEOS\n  a title\nT\n" +
      "DONE = true\n",
  );
});

// Rails' `enum` declares an attribute (`status`) and a scope and predicate a value (`active`,
// `active?`): it was a `call` named `enum` (or `enum :role`), so no symbol named the attribute.
Deno.test("a Rails enum declares its attributes, kind enum, in both of Rails' forms", async () => {
  const text = [
    "class Account < ApplicationRecord",
    "  enum status: { active: 0, archived: 1 }, kind: [:a, :b], _prefix: true",
    "  enum :role, { member: 0, admin: 1 }, prefix: true",
    '  enum "plan", %w[free paid].index_by(&:itself)',
    "  enum :kind, {",
    '    standard: "standard", # counted in budgets',
    '    transfer: "transfer" # not counted',
    "  }",
    "end",
    "",
  ].join("\n");
  const view = (await renderCode("app/models/account.rb", text))!;
  assert.equal(view.text, text);
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["Account", "class", "class Account < ApplicationRecord"],
    ["Account.status", "enum", "enum status: { active: 0, archived: 1 }"],
    ["Account.kind", "enum", "enum kind: [:a, :b]"],
    ["Account.role", "enum", "enum :role, { member: 0, admin: 1 }, prefix: true"],
    ["Account.plan", "enum", 'enum "plan", %w[free paid].index_by(&:itself)'],
    [
      "Account.kind",
      "enum",
      'enum :kind, { standard: "standard", transfer: "transfer" }',
    ],
  ]);
});

// shoulda's tests (`should "inspect" do ... end`, rubygems.org's test suite is written so) were
// calls: their blocks were walked, each assertion a symbol (`assert_match " x", @model.inspect`,
// kind `call`) and kept in a skeleton. Written for this test.
Deno.test("shoulda's should blocks are tests, bodies elided; a matcher's one-liner is a test", async () => {
  const text = [
    "class UserTest < ActiveSupport::TestCase",
    '  context "with no attributes" do',
    "    setup do",
    "      @user = User.new",
    "    end",
    "",
    '    should "inspect" do',
    '      assert_match " not initialized", @user.inspect',
    "    end",
    "",
    '    should_eventually "sort"',
    "  end",
    "",
    "  should validate_presence_of(:name)",
    '  should_not allow_value("x").for(:email)',
    "  should set_flash.now[:alert]",
    "end",
    "",
  ].join("\n");
  const view = (await renderCode("test/models/user_test.rb", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "class UserTest",
    "suite UserTest.with no attributes",
    "call UserTest.with no attributes.setup",
    "test UserTest.with no attributes.inspect",
    "test UserTest.with no attributes.sort",
    "test UserTest.should",
    "test UserTest.should_not",
    "test UserTest.should",
  ]);
  assert.equal(view.text.includes("assert_match"), false, view.text);
  assert.match(view.text, /^ {4}should "inspect" do\n {6}\.\.\.\n {4}end$/m);
});

// `should` is a word other DSLs use too: a state machine's `should :approve do ... end`, a
// validator's `validator.should "run" do ... end`. shoulda's is called with no receiver and a
// title or a matcher, never a symbol; these stay calls, their blocks walked. Written for this test.
Deno.test("a should call with a receiver or a symbol is no shoulda test", async () => {
  const text = [
    "class Order",
    "  state_machine do",
    "    should :approve do",
    "      transition to: :approved",
    "    end",
    "  end",
    "",
    '  validator.should "run", on: :create do |r|',
    "    r.check",
    "  end",
    "end",
    "",
  ].join("\n");
  const view = (await renderCode("app/models/order.rb", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "class Order",
    "call Order.state_machine",
    "call Order.state_machine.should :approve",
    "call Order.state_machine.should :approve.transition",
    "call Order.validator.should run",
    "call Order.validator.should run.r.check",
  ]);
});
