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
    ].join("\n"),
  );
  assert.equal(
    outlineText(view.symbols, "#"),
    [
      "module FactoryBot  # module",
      "  mattr_accessor :use_parent_strategy  # attribute",
      "  self.use_parent_strategy = true  # setting",
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

Deno.test("a delegation with a prefix names the methods it defines with it", async () => {
  // `prefix: true` puts the target's name before each method (`author_name`), `prefix: :x` its
  // own: the methods `name` and `title` do not exist. A prefix the code computes names none.
  const text = [
    "class Post",
    "  delegate :name, :email, to: :author, prefix: true",
    '  delegate :title, to: :blog, prefix: "parent"',
    "  delegate :size, :prefix => :items_count, :to => :items",
    "  delegate :body, to: :draft, prefix: false",
    "  delegate :slug, to: :blog, prefix: PREFIX",
    "end",
    "",
  ].join("\n");
  const view = (await renderCode("app/models/post.rb", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "class Post",
    "method Post.author_name",
    "method Post.author_email",
    "method Post.parent_title",
    "method Post.items_count_size",
    "method Post.body",
  ]);
});
