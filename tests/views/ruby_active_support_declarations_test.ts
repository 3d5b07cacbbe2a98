import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// ActiveSupport's declaring calls: module and class attributes (`mattr_accessor`,
// `cattr_reader`, `class_attribute`) and `delegate :a, :b, to: X`, which define methods as
// `attr_accessor` does. factory_bot's `lib/factory_bot.rb` lost its three `mattr_accessor`
// settings and the six methods its `class << self` delegates. Written for these tests.
const TEXT = [
  "module FactoryBot",
  "  mattr_accessor :use_parent_strategy, instance_accessor: false",
  "  self.use_parent_strategy = true",
  "",
  "  class Registry",
  "    class_attribute :default_strategy",
  '    cattr_reader :names, "kinds"',
  "  end",
  "",
  "  class << self",
  "    # Rewinds the sequences.",
  "    delegate :factories,",
  "      :rewind_sequences,",
  "      to: Internal",
  "  end",
  "end",
  "",
].join("\n");

Deno.test("Ruby's ActiveSupport attributes and delegations are kept and listed", async () => {
  const view = (await renderCode("lib/factory_bot.rb", TEXT))!;
  assert.equal(
    view.text,
    [
      "module FactoryBot",
      "  mattr_accessor :use_parent_strategy, instance_accessor: false",
      "",
      "  class Registry",
      "    class_attribute :default_strategy",
      '    cattr_reader :names, "kinds"',
      "  end",
      "",
      "  class << self",
      "    # Rewinds the sequences.",
      "    delegate :factories,",
      "      :rewind_sequences,",
      "      to: Internal",
      "  end",
      "end",
      "",
    ].join("\n"),
  );
  assert.equal(
    outlineText(view.symbols, "#"),
    [
      "module FactoryBot  # module",
      "  mattr_accessor :use_parent_strategy  # attribute",
      "  class Registry  # class",
      "    class_attribute :default_strategy  # attribute",
      "    cattr_reader :names  # attribute",
      '    cattr_reader "kinds"  # attribute',
      "  delegate :factories  # method",
      "  delegate :rewind_sequences  # method",
      "",
    ].join("\n"),
  );
});
