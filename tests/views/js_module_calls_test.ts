import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";
import { languageOf } from "../../grammars/languages.ts";

/** A test file as Vitest, Jest and Mocha read it: suites, hooks, tests, a table. */
const SPEC = [
  'import { describe, it, expect, beforeEach, vi } from "vitest";',
  'import { Router } from "../src/router";',
  "",
  'vi.mock("../src/log");',
  "",
  'describe("Router", () => {',
  "  let router;",
  "  beforeEach(() => {",
  "    router = new Router();",
  "  });",
  "",
  '  it("matches a path", () => {',
  '    expect(router.match("/a")).toBe(true);',
  "  });",
  "",
  '  describe.each([1, 2])("with %d params", (n) => {',
  '    test.skip("skips", async () => {',
  "      await router.go(n);",
  "    });",
  '    it.todo("later");',
  "  });",
  "",
  "  function helper() {",
  "    return 1;",
  "  }",
  "});",
  "",
  "describe('legacy', function () {",
  "  context('when empty', function () {",
  "    it('is empty', function (done) {",
  "      done();",
  "    });",
  "  });",
  "});",
  "",
  'test("top level", () => {',
  "  expect(1).toBe(1);",
  "});",
  "",
].join("\n");

for (const ext of ["ts", "js", "tsx"]) {
  Deno.test(`renderCode() keeps a .${ext} test file's suites, hooks and tests, their bodies elided but a suite's`, async () => {
    const view = (await renderCode(`test/router.test.${ext}`, SPEC))!;
    assert.equal(
      view.text,
      [
        'import { describe, it, expect, beforeEach, vi } from "vitest";',
        'import { Router } from "../src/router";',
        "",
        'vi.mock("../src/log");',
        "",
        'describe("Router", () => {',
        "  let router;",
        "  beforeEach(() => { ... });",
        "",
        '  it("matches a path", () => { ... });',
        "",
        '  describe.each([1, 2])("with %d params", (n) => {',
        '    test.skip("skips", async () => { ... });',
        '    it.todo("later");',
        "  });",
        "",
        "  function helper() { ... }",
        "});",
        "",
        "describe('legacy', function () {",
        "  context('when empty', function () {",
        "    it('is empty', function (done) { ... });",
        "  });",
        "});",
        "",
        'test("top level", () => { ... });',
        "",
      ].join("\n"),
    );
    assert.equal(
      outlineText(view.symbols, "//"),
      [
        'describe("Router")  // suite',
        '  it("matches a path")  // test',
        '  describe.each([1, 2])("with %d params")  // suite',
        '    test.skip("skips")  // test',
        '    it.todo("later")  // test',
        "describe('legacy')  // suite",
        "  context('when empty')  // suite",
        "    it('is empty')  // test",
        'test("top level")  // test',
        "",
      ].join("\n"),
    );
    assert.deepEqual(
      view.symbols.filter((s) => s.kind === "test").map((s) => s.qualifiedName),
      [
        "Router.matches a path",
        "Router.with %d params.skips",
        "Router.with %d params.later",
        "legacy.when empty.is empty",
        "top level",
      ],
    );
  });
}

Deno.test("renderCode() reads Deno's, node:test's and Playwright's test calls", async () => {
  const text = [
    'import { test } from "@playwright/test";',
    'Deno.test("adds", () => {',
    "  assertEquals(1 + 1, 2);",
    "});",
    "Deno.test({",
    '  name: "subtracts",',
    "  fn() {",
    "    assertEquals(1 - 1, 0);",
    "  },",
    "});",
    'test.describe("page", () => {',
    "  test.beforeEach(async ({ page }) => {",
    '    await page.goto("/");',
    "  });",
    '  test("has a title", async ({ page }) => {',
    "    await expect(page).toHaveTitle(/x/);",
    "  });",
    "});",
    "",
  ].join("\n");
  const view = (await renderCode("e2e/page.spec.ts", text))!;
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      'Deno.test("adds")  // test',
      'Deno.test({ name: "subtracts" })  // test',
      'test.describe("page")  // suite',
      '  test("has a title")  // test',
      "",
    ].join("\n"),
  );
  assert.match(view.text, /\n {2}test\.beforeEach\(async \(\{ page \}\) => \{ \.\.\. \}\);\n/);
  assert.match(view.text, /\n {2}fn\(\) \{ \.\.\. \},\n/);
});

Deno.test("renderCode() reads tests a file makes with .extend, subtests (t.test) and modifiers (.concurrent, .serial)", async () => {
  const text = [
    'import { test as base, expect } from "@playwright/test";',
    'import tap from "tap";',
    "export const test = base.extend<{ account: string }>({",
    '  account: async ({}, use) => { await use("a"); },',
    "});",
    "const authed = test.extend({ user: async ({}, use) => use(1) });",
    "const helper = other.extend({});",
    'authed("signs in", async ({ user }) => {',
    "  expect(user).toBe(1);",
    "});",
    'authed.describe("settings", () => {',
    '  authed("saves", async () => {});',
    "});",
    'base("plain", async ({ page }) => {});',
    'helper("not a test", () => {});',
    'it.concurrent("runs beside", async () => {});',
    'test.serial("runs alone", (t) => {});',
    'tap.test("tap top", (t) => {',
    "  t.end();",
    "});",
    'schema.test("unique", "${path} is taken", (value) => value !== "x");',
    'pattern.test("abc");',
    "",
  ].join("\n");
  const view = (await renderCode("e2e/account.spec.ts", text))!;
  assert.equal(view.hasErrors, false);
  assert.equal(
    outlineText(view.symbols, "//").split("\n").filter((l) => / \/\/ (?:test|suite)$/.test(l))
      .join("\n"),
    [
      'authed("signs in")  // test',
      'authed.describe("settings")  // suite',
      '  authed("saves")  // test',
      'base("plain")  // test',
      'it.concurrent("runs beside")  // test',
      'test.serial("runs alone")  // test',
      'tap.test("tap top")  // test',
    ].join("\n"),
  );
});

/** A module's calls at its top level: what it does when loaded. */
const MAIN = [
  'import express from "express";',
  "const app = express();",
  "app.use(cors({",
  ...Array.from({ length: 14 }, (_, i) => `  option${i}: ${i},`),
  "}));",
  "defineGetter(req, 'query', function query() {",
  "  var parser = this.app.get('query parser fn');",
  "  return parser(this.url);",
  "});",
  'Object.defineProperty(exports, "__esModule", { value: true });',
  "(function () {",
  "  setup();",
  "})();",
  "await main();",
  "expect(add(1, 2)).toBe(3);",
  "expectType<string>(format(1));",
  "assert.strictEqual(add(1, 1), 2);",
  "assertEquals(add(0, 0), 0);",
  "expectedCalls.push(1);",
  'log.info("server", "Loading modules");',
  'logger.debug("Importing express");',
  "process.stdout.write('Cleanup started...');",
  "process.chdir(root);",
  "library.add(",
  ...Array.from({ length: 14 }, (_, i) => `  faIcon${i},`),
  ");",
  "Chart.register(",
  ...Array.from({ length: 10 }, (_, i) => `  Element${i},`),
  ");",
  'allow(User, "read", Document, (actor, document) =>',
  "  and(",
  '    can(actor, "read", document),',
  "    !actor.isGuest",
  "  )",
  ");",
  'app.get("/a", (req, res) => res.send("a"));',
  'router.get("/status/:slug",',
  ...Array.from({ length: 13 }, (_, i) => `  middleware${i},`),
  ");",
  "if (require.main === module) {",
  "  app.listen(3000);",
  "}",
  "bootstrap();",
  "",
].join("\n");

Deno.test("renderCode() keeps a module's top-level calls, their function bodies, long arguments and long argument lists elided, not its logging", async () => {
  for (const path of ["src/main.ts", "src/main.js"]) {
    const view = (await renderCode(path, MAIN))!;
    assert.equal(
      view.text,
      [
        'import express from "express";',
        "const app = express();",
        "app.use(cors(...));",
        "defineGetter(req, 'query', function query() { ... });",
        'Object.defineProperty(exports, "__esModule", { value: true });',
        "await main();",
        "expectedCalls.push(1);",
        "process.chdir(root);",
        "library.add(...);",
        "Chart.register(",
        ...Array.from({ length: 10 }, (_, i) => `  Element${i},`),
        ");",
        'allow(User, "read", Document, (actor, document) =>',
        "  ...",
        ");",
        'app.get("/a", (req, res) => res.send("a"));',
        'router.get("/status/:slug", ...);',
        "bootstrap();",
        "",
      ].join("\n"),
      path,
    );
    // A call defines nothing: the outline is the module's definitions.
    assert.equal(outlineText(view.symbols, "//"), "app = express()  // const\n");
  }
});

Deno.test("outlineText() lists a namespace or named import that an export list re-exports", async () => {
  const text = [
    'import * as z from "./schemas";',
    'import { parse as read, format } from "./io";',
    'import Default from "./default";',
    "export { z, read };",
    "export default Default;",
    "",
  ].join("\n");
  for (const path of ["src/index.ts", "src/index.js"]) {
    const view = (await renderCode(path, text))!;
    assert.equal(
      outlineText(view.symbols, "//"),
      [
        'import * as z from "./schemas"  // re-export',
        'import { parse as read } from "./io"  // re-export',
        'import Default from "./default"  // re-export',
        "",
      ].join("\n"),
      path,
    );
    // The skeleton is the same text.
    assert.equal(view.text, text);
  }
});

Deno.test("renderCode() nests an anonymous default class's members under `default`", async () => {
  const text = [
    "export default class extends Base {",
    "  static id = 1;",
    "  run(x) {",
    "    return x;",
    "  }",
    "}",
    "",
  ].join("\n");
  for (const path of ["src/a.ts", "src/a.js"]) {
    const view = (await renderCode(path, text))!;
    assert.deepEqual(
      view.symbols.map((s) => `${s.depth} ${s.kind} ${s.qualifiedName}`),
      ["0 class default", "1 field default.id", "1 method default.run"],
      path,
    );
    assert.equal(
      outlineText(view.symbols, "//"),
      "export default class extends Base  // class\n  static id = 1  // field\n  run(x)  // method\n",
    );
    const masked = (await renderCode(path, text, { mask: { "default.run": "def" } }))!;
    assert.equal(masked.text, text, path);
  }
});

/** An object literal whose members are functions: its methods are symbols a mask names. */
const API = [
  "const api = {",
  "  get(id) {",
  "    return fetch(id);",
  "  },",
  "  list: async () => {",
  "    return fetch('all');",
  "  },",
  "  remove: function (id) {",
  "    return drop(id);",
  "  },",
  "};",
  "",
].join("\n");

Deno.test("renderCode() mask names an object literal's members: api.get shown whole, api.list hidden", async () => {
  const view = (await renderCode("src/api.js", API, {
    mask: { "api.get": "def", "api.list": "hide" },
  }))!;
  assert.equal(
    view.text,
    [
      "const api = {",
      "  get(id) {",
      "    return fetch(id);",
      "  },",
      "  remove: function (id) { ... },",
      "};",
      "",
    ].join("\n"),
  );
  const hidden = (await renderCode("src/api.js", API, {
    mask: { "api.remove": "sig" },
    rest: "hide",
  }))!;
  assert.equal(hidden.text, "const api = {\n  remove: function (id) { ... },\n};\n");
});

Deno.test("renderCode() keeps a doc comment a blank line above a top-level call that passes a function, not above another call", async () => {
  const text = [
    "var req = Object.create(http.IncomingMessage.prototype);",
    "",
    "/**",
    " * Parse the query string of `req.url`.",
    " * @public",
    " */",
    "",
    "defineGetter(req, 'query', function query() {",
    "  return parse(this.url);",
    "});",
    "",
    "/** Run once. */",
    "",
    "start();",
    "",
  ].join("\n");
  const view = (await renderCode("lib/request.js", text))!;
  assert.equal(
    view.text,
    [
      "var req = Object.create(http.IncomingMessage.prototype);",
      "",
      "/**",
      " * Parse the query string of `req.url`.",
      " * @public",
      " */",
      "",
      "defineGetter(req, 'query', function query() { ... });",
      "",
      "start();",
      "",
    ].join("\n"),
  );
});

Deno.test("renderCode() shows a long suite's items when none is a test it knows (custom test functions)", async () => {
  const text = [
    'describe("garden", () => {',
    ...["beforeAll", "beforeEach", "afterEach", "afterAll"].flatMap((hook) => [
      `  ${hook}(() => {`,
      "    gardener.work();",
      "  });",
    ]),
    '  myTask("weeds", () => {',
    "    gardener.weed();",
    "  });",
    ...Array.from({ length: 10 }, (_, i) => `  myTask.todo("step ${i}");`),
    "});",
    "",
  ].join("\n");
  const view = (await renderCode("test/garden.test.ts", text))!;
  assert.equal(
    view.text,
    [
      'describe("garden", () => {',
      "  beforeAll(() => { ... });",
      "  beforeEach(() => { ... });",
      "  afterEach(() => { ... });",
      "  afterAll(() => { ... });",
      '  myTask("weeds", () => { ... });',
      ...Array.from({ length: 10 }, (_, i) => `  myTask.todo("step ${i}");`),
      "});",
      "",
    ].join("\n"),
  );
});

Deno.test("outlineText() shows a long .each table as (...)", async () => {
  const text = [
    "test.each([",
    "  [1, 1, 2],",
    "  [1, 2, 3],",
    "])('add(%i, %i) -> %i', (a, b, expected) => {",
    "  expect(a + b).toBe(expected);",
    "});",
    "test.each`",
    "  a    | b    | expected",
    "  ${1} | ${1} | ${2}",
    "`('returns $expected', ({ a, b, expected }) => {",
    "  expect(a + b).toBe(expected);",
    "});",
    "",
  ].join("\n");
  const view = (await renderCode("test/add.test.ts", text))!;
  assert.equal(
    outlineText(view.symbols, "//"),
    "test.each(...)('add(%i, %i) -> %i')  // test\ntest.each`...`('returns $expected')  // test\n",
  );
});

Deno.test("renderCode() parses a file again whole when a suite's callback was hollowed (no line starts a test)", async () => {
  const text = [
    'setup(); describe("store", () => {',
    '  check("keeps an item", () => {',
    "    const store = new Store();",
    '    store.put("a", 1);',
    '    expect(store.get("a")).toBe(1);',
    "  });",
    "});",
    "",
  ].join("\n");
  const hollowed = (await renderCode("test/store.test.ts", text))!;
  const whole = (await renderCode("test/store.test.ts", text, { hollow: false }))!;
  assert.equal(hollowed.text, whole.text);
  assert.equal(
    whole.text,
    'setup(); describe("store", () => {\n  check("keeps an item", () => { ... });\n});\n',
  );
});

Deno.test("a test file's tests' bodies are hollowed out before the parse, its suites' callbacks are not", async () => {
  const text = [
    'describe("store", () => {',
    '  it("keeps an item", () => {',
    "    const store = new Store({ capacity: 10, evict: 'lru' });",
    '    store.put("a", 1);',
    "  });",
    '  describe("when full", () => {',
    '    it("evicts the oldest", async () => {',
    "      const store = new Store({ capacity: 1, evict: 'lru' });",
    '      store.put("a", 1);',
    "    });",
    "  });",
    "});",
    "function helper(items: number[]) {",
    "  return items.map((item) => item * 2).filter((item) => item > 10);",
    "}",
    "",
  ].join("\n");
  for (const path of ["test/store.test.ts", "test/store.test.tsx"]) {
    const regions = languageOf(path, text)!.hollow!(text)!;
    assert.deepEqual(regions.map((r) => text.slice(r.start, r.end).split("\n")[0].trim()), [
      "const store = new Store({ capacity: 10, evict: 'lru' });",
      "const store = new Store({ capacity: 1, evict: 'lru' });",
      "return items.map((item) => item * 2).filter((item) => item > 10);",
    ]);
    const view = (await renderCode(path, text))!;
    assert.equal(view.text, (await renderCode(path, text, { hollow: false }))!.text);
    assert.match(view.text, /\n {4}it\("evicts the oldest", async \(\) => \{ \.\.\. \}\);\n/);
  }
});
