import assert from "node:assert/strict";
import { B, bm25, FORM_WEIGHT } from "../../pipeline/_rank_lexical.ts";
import {
  forEachTerm,
  forEachWord,
  forEachWordSpan,
  plainTermCount,
  splitIdentifier,
  taskProse,
  taskTerms,
  termForms,
  termShapes,
  wordTerms,
} from "../../pipeline/_rank_terms.ts";
import { prng } from "../_helpers.ts";

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

Deno.test("the task's trailer lines, links, e-mail addresses and issue numbers are left out", () => {
  const task = [
    "Fix cookie jar race (#2445)",
    "",
    "Fixes encode/httpx#12, see https://github.com/org/repo/issues/7 and GH-9.",
    "Mail <someone@example.org> about Session.get().",
    "Co-authored-by: Jane Roe <jane@example.org>",
    "Signed-off-by: John Doe <john@example.org>",
  ].join("\n");
  const prose = taskProse(task);
  // Each left-out part is a space; the lines are kept.
  assert.equal(prose.split("\n").length, 6);
  assert.deepEqual(taskTerms(prose), [
    "about",
    "cookie",
    "fix",
    "fixes",
    "get",
    "jar",
    "mail",
    "race",
    "see",
    "session",
  ]);
  // Words that only look alike stay: a dotted name, a version, a path, a hash sign in code.
  const kept = "Session.get() in src/a.py for 1.2.3 and x#y, a#1b, mailto-ish a@b";
  assert.equal(taskProse(kept), kept);
});

Deno.test("a long task of one word is kept whole, or left out whole when it is a link", () => {
  // No spaces, many `@` and `.`, a long scheme-like prefix.
  const long = `${"a.".repeat(50_000)}@${"b".repeat(50_000)}`;
  assert.equal(taskProse(long), long);
  assert.equal(taskProse(`${"x".repeat(100_000)}://y`).trim(), "");
});

Deno.test("BM25's counts of each word's terms, worked out once a word, are forEachTerm's", () => {
  const random = prng(29);
  const pieces = [
    "get",
    "Key",
    "EXPIRE",
    "_",
    "-",
    "2",
    "x",
    "é",
    "Ωmega",
    "replica",
    "keys",
    "a",
    "Replicas",
    "expired",
  ];
  const gaps = [" ", "(", ".", "\n", "--", "::", "\u2014"];
  const word = () =>
    Array.from(
      { length: 1 + Math.floor(random() * 4) },
      () => pieces[Math.floor(random() * pieces.length)],
    ).join("");
  const texts = Array.from(
    { length: 40 },
    () =>
      Array.from(
        { length: Math.floor(random() * 60) },
        () => word() + gaps[Math.floor(random() * gaps.length)],
      ).join(""),
  );
  const terms = taskTerms("expire the keys of a replica getKey x2");
  // The reference: every term visited, counted text by text; a form of a task's term
  // (`replica`: `replicas`) that is no term itself counts FORM_WEIGHT for the first term it is a form of.
  const formOf = new Map<string, string>();
  for (const t of terms) {
    for (const f of termForms(t)) if (!terms.includes(f) && !formOf.has(f)) formOf.set(f, t);
  }
  const reference = texts.map((text) => {
    const tf = new Map<string, number>();
    const length = forEachTerm(text, (t) => {
      const [term, add] = formOf.has(t) ? [formOf.get(t)!, FORM_WEIGHT] : [t, 1];
      tf.set(term, (tf.get(term) ?? 0) + add);
    });
    return { length, tf: terms.map((t) => tf.get(t) ?? 0) };
  });
  const scores = bm25(texts, terms);
  const n = texts.length;
  const avg = reference.reduce((s, r) => s + r.length, 0) / n;
  const df = terms.map((_, i) => reference.filter((r) => r.tf[i] > 0).length);
  texts.forEach((_, d) => {
    const { length, tf } = reference[d];
    const norm = 1.2 * (1 - B + B * length / avg);
    const parts = terms.flatMap((t, i) =>
      tf[i]
        ? [[t, Math.log(1 + (n - df[i] + 0.5) / (df[i] + 0.5)) * tf[i] * 2.2 / (tf[i] + norm)]]
        : []
    );
    assert.deepEqual(scores[d].terms, parts);
  });
  assert.ok(scores.some((s) => s.terms.length > 2));
  // The texts hold forms of the task's terms (`replicas`, `expired`), and counts not whole.
  assert.ok(formOf.has("replicas") && formOf.has("expired"));
  assert.ok(reference.some((r) => r.tf.some((x) => x % 1 !== 0)));
});

Deno.test("a word counted without being made gives the terms wordTerms lists, and never hides a task's term", () => {
  // Words of ASCII cases, digits, separators, punctuation and characters beyond ASCII (an accent,
  // a capital whose lowercase is longer, one outside the first plane, a sharp s), the task's terms
  // taken from the same texts.
  const chars = [..."aAbBzZ09_-xXyYgGeEtT .,é€İ\u{1F600}ß"];
  const next = prng(7);
  let plain = 0;
  for (let k = 0; k < 20000; k++) {
    const n = 1 + Math.floor(next() * 30);
    const text = Array.from({ length: n }, () => chars[Math.floor(next() * chars.length)]).join("");
    const terms = new Set<string>();
    for (const t of wordTerms(text.slice(Math.floor(next() * n)))) if (next() < 0.5) terms.add(t);
    const shapes = termShapes(terms);
    const words: string[] = [];
    forEachWordSpan(text, (start, end) => {
      const word = text.slice(start, end);
      words.push(word);
      const count = plainTermCount(text, start, end, shapes);
      if (count < 0) return;
      plain++;
      const listed = wordTerms(word);
      assert.equal(count, listed.length, JSON.stringify(word));
      assert.ok(!listed.some((t) => terms.has(t)), `${JSON.stringify(word)} hides a term`);
    });
    const made: string[] = [];
    forEachWord(text, (word) => made.push(word));
    assert.deepEqual(words, made);
  }
  assert.ok(plain > 5000, `${plain} words counted without being made`);
});

Deno.test("bm25 with a corpus: texts past it are scored against it and change no other score", () => {
  const corpus = ["update the adapter", "a session", "the adapter sends", "update ktlint"];
  const terms = taskTerms("update the adapter");
  const alone = bm25(corpus, terms);
  const query = "update adapter";
  const withQuery = bm25([...corpus, query], terms, { corpus: corpus.length });
  // The corpus's own scores are as if the query were not there (idf and mean length unchanged).
  assert.deepEqual(withQuery.slice(0, corpus.length), alone);
  // The query is scored with the corpus's idf and mean length: by hand, 4 documents.
  const avg = corpus.reduce((n, t) => n + forEachTerm(t, () => {}), 0) / 4;
  const norm = 1.2 * (1 - B + B * 2 / avg);
  const part = (df: number) => Math.log(1 + (4 - df + 0.5) / (df + 0.5)) * 2.2 / (1 + norm);
  assert.deepEqual(withQuery[4].terms, [["adapter", part(2)], ["update", part(2)]]);
  // Counted in the corpus, the query would change the idf: the option is what keeps it out.
  assert.notDeepEqual(bm25([...corpus, query], terms)[4], withQuery[4]);
});

Deno.test("a term's other forms: its plural or singular and the verb's -ed and -ing forms", () => {
  assert.deepEqual(termForms("tests"), ["test", "tested", "testing"]);
  assert.deepEqual(termForms("test"), ["tests", "tested", "testing"]);
  assert.deepEqual(termForms("fixes"), ["fix", "fixed", "fixing"]);
  assert.deepEqual(termForms("entries"), ["entry", "entryed", "entrying"]);
  assert.deepEqual(termForms("entry"), ["entries", "entryed", "entrying"]);
  assert.deepEqual(termForms("parse"), ["parses", "parsed", "parsing"]);
  assert.deepEqual(termForms("converted"), ["converteds", "convert", "converte", "converts"]);
  // A singular ending in s: its plural only.
  assert.deepEqual(termForms("class"), ["classes"]);
  assert.deepEqual(termForms("status"), ["statuses"]);
  assert.deepEqual(termForms("analysis"), ["analysises"]);
  // Not three letters a-z: no forms; no form shorter than three letters.
  for (const t of ["io", "url2", "getadapter_", "café", ""]) assert.deepEqual(termForms(t), []);
  assert.deepEqual(termForms("used"), ["useds"]);
});

Deno.test("bm25: a word in another form of a term counts FORM_WEIGHT of an occurrence of it", () => {
  // The same length, so only the counts differ: two forms score as one occurrence of the term
  // (FORM_WEIGHT is a half), one form as a half.
  const texts = ["tests tests pad pad", "test test pad pad", "test pad pad pad", "pad pad pad pad"];
  const [term, twoForms, oneForm, none] = bm25(texts, ["tests"]);
  assert.equal(FORM_WEIGHT, 0.5);
  const n = 4, df = 3, avg = 4, norm = 1.2;
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const score = (tf: number) => idf * tf * 2.2 / (tf + norm * (1 - B + B * 4 / avg));
  assert.equal(term.score, score(2));
  assert.equal(twoForms.score, score(1));
  assert.equal(oneForm.score, score(0.5));
  assert.equal(none.score, 0);
  assert.deepEqual(twoForms.terms.map(([t]) => t), ["tests"]);
  // A form that is a task's term itself counts as that term only.
  const [both] = bm25(["test tests"], ["test", "tests"]);
  assert.deepEqual(both.terms.map(([t]) => t), ["test", "tests"]);
  assert.equal(both.terms[0][1], both.terms[1][1]);
});
