import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";

/** The names a summary lists under `kind`, as written (inline code spans unwrapped). */
function names(summary: string, kind: string): string[] {
  const line = summary.split("\n").find((l) => l.startsWith(`- ${kind}: `));
  if (!line) return [];
  return line.slice(kind.length + 4).split(", ").map((n) => n.replace(/^`+|`+$/g, ""));
}

Deno.test("a Ruby file's summary lists its modules, classes, methods and requires, nested or not", () => {
  const text = [
    "# frozen_string_literal: true",
    "require 'json'",
    'require_relative "lib/util"',
    "module Outer",
    "  module Inner::Deep",
    "    class Base < Object",
    "      class << self",
    "        def build(x) = new(x)",
    "      end",
    "      def self.create; end",
    "      def valid?",
    "      def name=(v)",
    "      def <=>(other)",
    "      def [](key)",
    "    end",
    "  end",
    "end",
    "",
  ].join("\n");
  for (const path of ["lib/outer.rb", "tasks/build.rake"]) {
    const summary = summarize(path, text);
    assert.match(summary, /^\*\*Ruby\*\*, 17 lines\n/);
    assert.deepEqual(names(summary, "modules"), ["Outer", "Inner::Deep"]);
    assert.deepEqual(names(summary, "classes"), ["Base"]);
    assert.deepEqual(names(summary, "methods"), [
      "build",
      "self.create",
      "valid?",
      "name=",
      "<=>",
      "[]",
    ]);
    assert.deepEqual(names(summary, "requires"), ["json", "lib/util"]);
  }
});

Deno.test("a PHP file's summary lists its namespace, types, functions and uses", () => {
  const text = [
    "<?php",
    "",
    "namespace App\\Models;",
    "",
    "// use Commented\\Out;",
    "use Illuminate\\Support\\Str;",
    "use function Foo\\helper;",
    "",
    "#[Attribute]",
    "final readonly class User extends Model implements HasName",
    "{",
    "    use HasFactory;",
    "    public static function create(array $a): static {}",
    "    protected function &ref() {}",
    "    function plain() {}",
    "}",
    "interface HasName {}",
    "trait Greets {}",
    "enum Suit: string {}",
    "abstract class Shape {}",
    "function helper() {}",
    "",
  ].join("\n");
  const summary = summarize("src/User.php", text);
  assert.match(summary, /^\*\*PHP\*\*, 21 lines\n/);
  assert.deepEqual(names(summary, "namespaces"), ["App\\Models"]);
  assert.deepEqual(names(summary, "types"), ["User", "HasName", "Greets", "Suit", "Shape"]);
  assert.deepEqual(names(summary, "functions"), ["create", "ref", "plain", "helper"]);
  assert.deepEqual(names(summary, "uses"), ["Illuminate\\Support\\Str", "Foo\\helper"]);
});

Deno.test("a Ruby spec's summary lists its example groups and examples", () => {
  // factory_bot's `spec/acceptance/*_spec.rb` were `**Ruby**, 145 lines` and no name: a spec
  // defines no module, class or method. Written for this test.
  const text = [
    'require "spec_helper"',
    "",
    "RSpec.describe FactoryBot::Factory do",
    '  context "when accidentally using an implicit declaration" do',
    "    it 'raises an error' do",
    "      expect { build(:post) }.to raise_error(ArgumentError)",
    "    end",
    "    it { is_expected.to be_valid }",
    "  end",
    '  shared_examples "a strategy" do',
    '    specify("builds") { expect(1).to eq 1 }',
    "  end",
    "end",
    "",
    "class UserTest < ActiveSupport::TestCase",
    '  test "saves with a name" do',
    "  end",
    "end",
    "",
  ].join("\n");
  const summary = summarize("spec/acceptance/associations_spec.rb", text);
  assert.deepEqual(names(summary, "tests"), [
    "FactoryBot::Factory",
    "when accidentally using an implicit declaration",
    "raises an error",
    "a strategy",
    "builds",
    "saves with a name",
  ]);
  assert.deepEqual(names(summary, "classes"), ["UserTest"]);
});

Deno.test("the Ruby tests pattern is linear in a line's blanks", () => {
  for (const size of [8_000, 64_000]) {
    const text = `describe${" ".repeat(size)}x\nit${"\t".repeat(size)}(\n`;
    assert.doesNotMatch(summarize("a_spec.rb", text), /tests:/);
  }
});
