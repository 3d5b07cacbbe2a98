import assert from "node:assert/strict";
import { forEachTerm, splitIdentifier, taskTerms } from "../../pipeline/_rank_terms.ts";

Deno.test("identifiers split on camelCase, PascalCase, snake_case, kebab-case and digits", () => {
  assert.deepEqual(splitIdentifier("getAdapter"), ["get", "adapter"]);
  assert.deepEqual(splitIdentifier("HTTPAdapter"), ["http", "adapter"]);
  assert.deepEqual(splitIdentifier("parseHTTPResponse"), ["parse", "http", "response"]);
  assert.deepEqual(splitIdentifier("get_redirect_target"), ["get", "redirect", "target"]);
  assert.deepEqual(splitIdentifier("max-redirects"), ["max", "redirects"]);
  assert.deepEqual(splitIdentifier("utf8Decode2x"), ["utf", "8", "decode", "2", "x"]);
  assert.deepEqual(splitIdentifier("__init__"), ["init"]);
  assert.deepEqual(splitIdentifier("SCREAMING_CASE"), ["screaming", "case"]);
  assert.deepEqual(splitIdentifier("x"), ["x"]);
});

Deno.test("a compound word also yields its parts joined, so spellings match each other", () => {
  const a: string[] = [];
  const b: string[] = [];
  forEachTerm("getAdapter()", (t) => a.push(t));
  forEachTerm("def get_adapter(self):", (t) => b.push(t));
  assert.deepEqual(a, ["get", "adapter", "getadapter"]);
  assert.deepEqual(b, ["def", "get", "adapter", "getadapter", "self"]);
});

Deno.test("one-letter parts, over-long words and stop words yield no term", () => {
  const terms: string[] = [];
  forEachTerm(`a b ${"f".repeat(100)} xY the`, (t) => terms.push(t));
  assert.deepEqual(terms, ["the"]);
  assert.deepEqual(taskTerms("Fix the bug in the Session and the session"), [
    "bug",
    "fix",
    "session",
  ]);
});

Deno.test("letters beyond ASCII are word characters", () => {
  const terms: string[] = [];
  forEachTerm("café naïve", (t) => terms.push(t));
  assert.deepEqual(terms, ["café", "naïve"]);
});
