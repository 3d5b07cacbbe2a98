import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";
import { languageOf } from "../../grammars/languages.ts";

const VUE = [
  "<template>",
  '  <button :class="ui.base" @click="emit(\'press\', 1)">',
  "    <slot />",
  "  </button>",
  "</template>",
  "",
  '<script setup lang="ts" generic="T extends Record<string, U>, U">',
  'import { computed } from "vue"',
  "",
  "interface ButtonProps<V> {",
  "  label?: V",
  "  size?: 'sm' | 'md'",
  "}",
  "",
  "const props = defineProps<ButtonProps<T>>()",
  "const emit = defineEmits<{ press: [n: number] }>()",
  "",
  "function onPress(n: number): void {",
  "  emit('press', n)",
  "}",
  "",
  "const ui = computed(() => ({ base: props.size === 'sm' ? 'px-1' : 'px-2' }))",
  "</script>",
  "",
  "<style scoped>",
  ".a { color: red }",
  ".b { color: blue }",
  "</style>",
  "",
].join("\n");

const SVELTE = [
  '<script context="module" lang="ts">',
  "  export const prerender = true",
  "  export function load(id: string) {",
  "    return { id }",
  "  }",
  "</script>",
  "",
  "<script>",
  "  export let name = 'world'",
  "  let count = 0",
  "  function increment() {",
  "    count += 1",
  "  }",
  "  $: doubled = count * 2",
  "</script>",
  "",
  "<h1>Hello {name}!</h1>",
  "<button on:click={increment}>",
  "  {count} {doubled}",
  "</button>",
  "",
].join("\n");

Deno.test("a Vue component's script setup is skeletonized between its tags, its template and style one line each", async () => {
  const view = (await renderCode("src/Button.vue", VUE))!;
  assert.equal(
    view.text,
    [
      "<template> ... (5 lines) </template>",
      '<script setup lang="ts" generic="T extends Record<string, U>, U">',
      'import { computed } from "vue"',
      "",
      "interface ButtonProps<V> {",
      "  label?: V",
      "  size?: 'sm' | 'md'",
      "}",
      "",
      "const props = defineProps<ButtonProps<T>>()",
      "const emit = defineEmits<{ press: [n: number] }>()",
      "",
      "function onPress(n: number): void { ... }",
      "",
      "const ui = computed(() => ({ base: props.size === 'sm' ? 'px-1' : 'px-2' }))",
      "</script>",
      "<style scoped> ... (4 lines) </style>",
      "",
    ].join("\n"),
  );
  assert.equal(view.hasErrors, false);
  // Each symbol's line is the file's line of its definition.
  const fileLines = VUE.split("\n");
  for (const s of view.symbols) assert.ok(fileLines[s.line - 1].includes(s.name), s.name);
  assert.deepEqual(view.symbols.find((s) => s.name === "onPress")?.line, 18);
  assert.match(
    outlineText(view.symbols, "//"),
    /^function onPress\(n: number\): void {2}\/\/ function$/m,
  );
});

Deno.test("a masked Vue component shows a symbol listed `def` whole, in its script", async () => {
  const view =
    (await renderCode("src/Button.vue", VUE, { mask: { onPress: "def" }, rest: "sig" }))!;
  assert.match(view.text, /\nfunction onPress\(n: number\): void \{\n {2}emit\('press', n\)\n\}\n/);
  assert.match(view.text, /^<template> \.\.\. \(5 lines\) <\/template>\n/);
});

Deno.test("a Svelte component's two scripts are read each by its own lang, markup one line", async () => {
  const view = (await renderCode("src/App.svelte", SVELTE))!;
  assert.equal(
    view.text,
    [
      '<script context="module" lang="ts">',
      "  export const prerender = true",
      "  export function load(id: string) { ... }",
      "</script>",
      "<script>",
      "  export let name = 'world'",
      "  let count = 0",
      "  function increment() { ... }",
      "  $: doubled = count * 2",
      "</script>",
      "<h1>Hello {name}!</h1>",
      "<button on:click={increment}> ... (3 lines) </button>",
      "",
    ].join("\n"),
  );
  assert.deepEqual(
    view.symbols.map((s) => [s.name, s.line]),
    [["prerender", 2], ["load", 3], ["name", 9], ["count", 10], ["increment", 11], [
      "doubled",
      14,
    ]],
  );
});

Deno.test("a Svelte reactive declaration defines its name; other reactive statements and labels are code", async () => {
  const source = [
    "<script>",
    "  let items = []",
    "  $: total = items.length",
    "  $: visible = items.filter((i) => {",
    "    return i.shown",
    "  })",
    "  $: console.log(total)",
    "  $: {",
    "    document.title = `${total}`",
    "  }",
    "  function f() {",
    "    $: inner = 1",
    "  }",
    "</script>",
    "",
  ].join("\n");
  const view = (await renderCode("src/List.svelte", source))!;
  assert.equal(
    view.text,
    [
      "<script>",
      "  let items = []",
      "  $: total = items.length",
      "  $: visible = items.filter((i) => { ... })",
      "  function f() { ... }",
      "</script>",
      "",
    ].join("\n"),
  );
  assert.deepEqual(
    view.symbols.map((s) => [s.name, s.kind, s.line, s.signature]),
    [
      ["items", "let", 2, "items = []"],
      ["total", "let", 3, "$: total = items.length"],
      ["visible", "let", 4, "$: visible = items.filter((i) => {"],
      ["f", "function", 11, "function f()"],
    ],
  );
});

Deno.test("a <script> inside markup, a Svelte expression or a Vue block is no script block, wherever it starts", async () => {
  const svelte = [
    "<svelte:head>",
    '<script src="/analytics.js"></script>',
    "</svelte:head>",
    "<pre>",
    "<script>",
    "  fake()",
    "</script>",
    "</pre>",
    "{@html `",
    "<script>",
    "  alsoFake()",
    "</script>`}",
    "<Button on:click={() => a > b} />",
    "<ul><li>one<li>two</ul>",
    "<p>left open",
    "<!-- <script> -->",
    '<script context="module">',
    "  export const real = 1",
    "</script>",
    "",
  ].join("\n");
  const view = (await renderCode("src/Page.svelte", svelte))!;
  assert.deepEqual(view.symbols.map((s) => [s.name, s.line]), [["real", 18]]);
  assert.match(
    view.text,
    /^<svelte:head> \.\.\. \(3 lines\) <\/svelte:head>\n<pre> \.\.\. \(5 lines\) <\/pre>\n/,
  );
  const vue = [
    "<docs>",
    "Write a { and a script:",
    "<script>",
    "  example()",
    "</script>",
    "</docs>",
    "",
    "<script setup>",
    "const shown = 1",
    "</script>",
    "",
  ].join("\n");
  assert.deepEqual(
    (await renderCode("src/Doc.vue", vue))!.symbols.map((s) => [s.name, s.line]),
    [["shown", 9]],
  );
});

Deno.test("a component with no script is no code to the views, and one whose script shows nothing renders empty", async () => {
  assert.equal(languageOf("Logo.vue", "<template>\n  <svg />\n</template>\n"), undefined);
  assert.equal(languageOf("Logo.svelte", "<svg />\n"), undefined);
  assert.equal(languageOf("A.vue", "<script>\nlet a = 1\n</script>\n")?.id, "javascript");
  assert.equal(languageOf("A.vue", '<script lang="tsx">\nlet a = 1\n</script>\n')?.id, "tsx");
  // A script inside an HTML comment is not one.
  assert.equal(languageOf("A.vue", "<!--\n<script>\nlet a\n</script>\n-->\n<p/>\n"), undefined);
  const view =
    (await renderCode("A.svelte", "<script>\n  console.log(1)\n</script>\n<p>hi</p>\n"))!;
  assert.equal(view.text, "");
});
