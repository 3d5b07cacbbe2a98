/**
 * Terms for ranking: text is cut into words (runs of letters, digits and
 * underscores), each word is split into identifier parts (camelCase,
 * PascalCase, snake_case, kebab-case, digits) and lowercased. A word of
 * several parts also yields its parts joined (`getAdapter` and `get_adapter`
 * both yield `getadapter`), so a compound name matches across spellings.
 *
 * One pass over the text, each character looked at a bounded number of times.
 *
 * @module
 */

import { countWork } from "./helpers.ts";

/**
 * Common words of task prose and of code that say nothing about which file a
 * task needs. Kept small on purpose: a word in a file's path or code is
 * usually a signal.
 */
const STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "but",
  "by",
  "can",
  "do",
  "does",
  "for",
  "from",
  "has",
  "have",
  "if",
  "in",
  "into",
  "is",
  "it",
  "its",
  "no",
  "not",
  "of",
  "on",
  "or",
  "so",
  "than",
  "that",
  "the",
  "their",
  "then",
  "there",
  "these",
  "this",
  "to",
  "was",
  "we",
  "were",
  "when",
  "which",
  "will",
  "with",
  "would",
  "you",
]);

/** A word longer than this is data (a hash, a blob), not a name: it yields no term. */
const MAX_WORD = 64;

/**
 * Split one identifier into lowercase parts: `get_HTTPServer2Url` gives
 * `get`, `http`, `server`, `2`, `url`. Underscores, dashes and dots separate;
 * a lower-to-upper step, the last capital of a capital run before a lower
 * letter, and a letter-digit step start a new part.
 *
 * @example
 * ```ts
 * import { splitIdentifier } from "./_rank_terms.ts";
 * splitIdentifier("parseHTTPResponse_v2"); // ["parse", "http", "response", "v", "2"]
 * ```
 */
export function splitIdentifier(word: string): string[] {
  const parts: string[] = [];
  let start = -1;
  const flush = (end: number) => {
    if (start >= 0 && end > start) parts.push(word.slice(start, end).toLowerCase());
    start = -1;
  };
  for (let i = 0; i < word.length; i++) {
    const c = classOf(word.charCodeAt(i));
    if (c === SEP) {
      flush(i);
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    const prev = classOf(word.charCodeAt(i - 1));
    const next = i + 1 < word.length ? classOf(word.charCodeAt(i + 1)) : SEP;
    const boundary = (prev === LOWER && c === UPPER) ||
      (prev === UPPER && c === UPPER && next === LOWER) ||
      (prev === DIGIT) !== (c === DIGIT);
    if (boundary) {
      flush(i);
      start = i;
    }
  }
  flush(word.length);
  return parts;
}

/**
 * Call `visit` with every term of `text`, in text order: each word's parts
 * (see {@linkcode splitIdentifier}), then, when the word has two parts or more,
 * the parts joined. Parts of one character and words longer than
 * {@linkcode MAX_WORD} are skipped; `stopWords` are skipped. Returns the
 * number of terms visited; the work is counted as `"rank"` (see `tallyWork`).
 *
 * @example
 * ```ts
 * import { forEachTerm } from "./_rank_terms.ts";
 * const terms: string[] = [];
 * forEachTerm("def getAdapter(url):", (t) => terms.push(t));
 * terms; // ["def", "get", "adapter", "getadapter", "url"]
 * ```
 */
export function forEachTerm(
  text: string,
  visit: (term: string, word: string) => void,
  stopWords: ReadonlySet<string> = EMPTY,
): number {
  let terms = 0;
  forEachWord(text, (word) => {
    for (const term of wordTerms(word, stopWords)) {
      visit(term, word);
      terms++;
    }
  });
  countWork("rank", text.length + terms);
  return terms;
}

/**
 * Call `visit` with every word of `text` that may give terms, in text order: a run of word
 * characters, separators (`_`, `-`) trimmed at its edges, of 2 to {@linkcode MAX_WORD}
 * characters. Its terms are {@linkcode wordTerms}'s ({@linkcode forEachTerm} is the two).
 *
 * @example
 * ```ts
 * import { forEachWord } from "./_rank_terms.ts";
 * const words: string[] = [];
 * forEachWord("--get_url(a, fooBar)", (w) => words.push(w));
 * words; // ["get_url", "fooBar"]
 * ```
 */
export function forEachWord(text: string, visit: (word: string) => void): void {
  forEachWordSpan(text, (start, end) => visit(text.slice(start, end)));
}

/**
 * Call `visit` with where each word of `text` that may give terms starts and ends, as
 * {@linkcode forEachWord} finds them, without making the words.
 *
 * @example
 * ```ts
 * import { forEachWordSpan } from "./_rank_terms.ts";
 * const spans: number[][] = [];
 * forEachWordSpan("--get_url(a, fooBar)", (start, end) => spans.push([start, end]));
 * spans; // [[2, 9], [13, 19]]
 * ```
 */
export function forEachWordSpan(text: string, visit: (start: number, end: number) => void): void {
  let i = 0;
  const n = text.length;
  while (i < n) {
    // Skip to the next word character.
    while (i < n && classAt(text, i) === OTHER) i++;
    const start = i;
    while (i < n && classAt(text, i) !== OTHER) i++;
    if (i === start) break;
    // Trim separators at the edges so `--flag` and `a-` read as words.
    let s = start;
    let e = i;
    while (s < e && classAt(text, s) === SEP) s++;
    while (e > s && classAt(text, e - 1) === SEP) e--;
    if (e - s < 2 || e - s > MAX_WORD) continue;
    visit(s, e);
  }
}

/**
 * The lengths and first two characters of a set of lowercase terms (those of ASCII alone), to
 * tell cheaply a word that cannot give any of them ({@linkcode plainTermCount}).
 */
export interface TermShapes {
  /** 1 at each length a term has. */
  lengths: Uint8Array;
  /** 1 at `first * 128 + second` for each term's first two characters. */
  starts: Uint8Array;
}

/**
 * The shapes of `terms` for {@linkcode plainTermCount}.
 *
 * @example
 * ```ts
 * import { plainTermCount, termShapes } from "./_rank_terms.ts";
 * const shapes = termShapes(["adapter"]);
 * plainTermCount("get_url", 0, 7, shapes); // 3: get, url, geturl
 * plainTermCount("getAdapter", 0, 10, shapes); // -1: it may give "adapter"
 * ```
 */
export function termShapes(terms: Iterable<string>): TermShapes {
  const shapes = { lengths: new Uint8Array(MAX_WORD + 1), starts: new Uint8Array(128 * 128) };
  for (const term of terms) {
    if (term.length < 2 || term.length > MAX_WORD || [...term].some((c) => c > "\x7f")) continue;
    shapes.lengths[term.length] = 1;
    shapes.starts[term.charCodeAt(0) * 128 + term.charCodeAt(1)] = 1;
  }
  return shapes;
}

/**
 * How many terms the word `text.slice(start, end)` gives ({@linkcode wordTerms}'s, no stop words
 * left out), worked out as {@linkcode splitIdentifier} splits it, without making the word or its
 * parts; -1 when one of its terms (a part or the parts joined) has a length and first two
 * characters of one of `shapes`' terms, or it has a character beyond ASCII (whose lowercase may
 * be longer): then its terms are to be listed.
 *
 * @example
 * ```ts
 * import { plainTermCount, termShapes } from "./_rank_terms.ts";
 * plainTermCount("a parseHTTPResponse_v2", 2, 22, termShapes(["url"])); // 5
 * ```
 */
export function plainTermCount(
  text: string,
  start: number,
  end: number,
  shapes: TermShapes,
): number {
  const { lengths, starts } = shapes;
  const may = (at: number, length: number, second: number) =>
    lengths[length] === 1 && starts[lower(text.charCodeAt(at)) * 128 + lower(second)] === 1;
  let parts = 0, kept = 0, joined = 0, first = -1, second = -1, part = -1;
  for (let i = start; i <= end; i++) {
    const code = i < end ? text.charCodeAt(i) : 95;
    if (code >= 128) return -1;
    const c = ASCII_CLASS[code];
    let boundary = c === SEP;
    if (!boundary && part >= 0) {
      const prev = ASCII_CLASS[text.charCodeAt(i - 1)];
      const next = i + 1 < end ? ASCII_CLASS[text.charCodeAt(i + 1)] ?? OTHER : SEP;
      boundary = (prev === LOWER && c === UPPER) ||
        (prev === UPPER && c === UPPER && next === LOWER) ||
        (prev === DIGIT) !== (c === DIGIT);
    }
    if (boundary && part >= 0 && i > part) {
      parts++;
      if (i - part >= 2) {
        kept++;
        if (may(part, i - part, text.charCodeAt(part + 1))) return -1;
      }
      part = -1;
    }
    if (c === SEP) continue;
    if (part < 0) part = i;
    joined++;
    if (first < 0) first = i;
    else if (second < 0) second = i;
  }
  if (parts < 2 || kept === 0) return kept;
  return may(first, joined, text.charCodeAt(second)) ? -1 : kept + 1;
}

/** The lowercase of an ASCII character code. */
function lower(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/**
 * The terms of one word, in order: its parts of two characters or more, then the parts joined
 * when it has two parts or more and one was kept; `stopWords` left out.
 *
 * @example
 * ```ts
 * import { wordTerms } from "./_rank_terms.ts";
 * wordTerms("getAdapter"); // ["get", "adapter", "getadapter"]
 * ```
 */
export function wordTerms(word: string, stopWords: ReadonlySet<string> = EMPTY): string[] {
  const parts = splitIdentifier(word);
  const terms: string[] = [];
  for (const part of parts) {
    if (part.length >= 2 && !stopWords.has(part)) terms.push(part);
  }
  if (parts.length > 1 && terms.length > 0) {
    const joined = parts.join("");
    if (!stopWords.has(joined)) terms.push(joined);
  }
  return terms;
}

/**
 * The other forms of a lowercase term that read as the same English word, for a text that
 * spells it otherwise than the task: the singular of a plural (`tests`: `test`; `classes`:
 * `class`; `entries`: `entry`) or the plural of a singular (`adapter`: `adapters`; `fix`:
 * `fixes`; `entry`: `entries`), and the verb's other forms (`parse`: `parsed`, `parsing`;
 * `converted`: `convert`, `converte`, `converts`). A suffix rule, not a dictionary: a form that
 * is no word (`converte`) matches nothing. Only terms of three letters a-z or more have forms;
 * a word ending in `ss`, `us` or `is` has its plural only, and no form is shorter than three
 * letters.
 *
 * @example
 * ```ts
 * import { termForms } from "./_rank_terms.ts";
 * termForms("tests"); // ["test", "tested", "testing"]
 * termForms("class"); // ["classes"]
 * termForms("url2"); // []
 * ```
 */
export function termForms(term: string): string[] {
  if (!/^[a-z]{3,}$/.test(term)) return [];
  const singular = singularOf(term);
  const forms = [singular ?? pluralOf(term)];
  // A singular ending in `s` (`class`, `status`, `analysis`) gets no verb forms.
  const stem = singular ?? (term.endsWith("s") ? undefined : term);
  if (stem !== undefined) forms.push(...verbForms(stem));
  return [...new Set(forms)].filter((f) => f !== term && f.length >= 3);
}

/** A word's ending after which the plural adds `es` (`fixes`, `classes`, `branches`). */
const SIBILANT = /(s|x|z|ch|sh)$/;

/** The singular of a plural term (`entries`, `fixes`, `tests`), or undefined when it is none. */
function singularOf(term: string): string | undefined {
  if (term.endsWith("ies") && term.length > 4) return term.slice(0, -3) + "y";
  if (term.endsWith("es") && SIBILANT.test(term.slice(0, -2))) return term.slice(0, -2);
  if (term.endsWith("s") && !/(ss|us|is)$/.test(term)) return term.slice(0, -1);
  return undefined;
}

/** The plural of a singular term (`fixes`, `entries`, `adapters`). */
function pluralOf(term: string): string {
  if (SIBILANT.test(term)) return term + "es";
  if (/[^aeiou]y$/.test(term)) return term.slice(0, -1) + "ies";
  return term + "s";
}

/**
 * A verb's other forms: of an `-ed` or `-ing` word, the rest with nothing, `e` or `s` after it
 * (none when the rest is shorter than three letters); of another, its `-ed` and `-ing` forms
 * (a final `e` dropped first).
 */
function verbForms(word: string): string[] {
  const suffix = word.endsWith("ed") ? 2 : word.endsWith("ing") ? 3 : 0;
  if (suffix) {
    const root = word.slice(0, -suffix);
    return root.length >= 3 ? [root, root + "e", root + "s"] : [];
  }
  const root = word.endsWith("e") ? word.slice(0, -1) : word;
  return [root + "ed", root + "ing"];
}

/**
 * Whether a lowercase word is one of the stop words the task's terms leave out (`the`, `of`, ...).
 *
 * @example
 * ```ts
 * import { isStopWord } from "./_rank_terms.ts";
 * isStopWord("the"); // true
 * isStopWord("pool"); // false
 * ```
 */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * The distinct terms of a task, sorted (code-unit order), stop words left out.
 *
 * @example
 * ```ts
 * import { taskTerms } from "./_rank_terms.ts";
 * taskTerms("Fix the getAdapter bug in the adapter"); // ["adapter", "bug", "fix", "get", "getadapter"]
 * ```
 */
export function taskTerms(task: string): string[] {
  const seen = new Set<string>();
  forEachTerm(task, (t) => seen.add(t), STOP_WORDS);
  return [...seen].sort(byCodeUnit);
}

/**
 * The task's text without what names no file: git trailer lines (`Co-authored-by: ...`,
 * `Signed-off-by: ...`), links (`https://...`), e-mail addresses and issue numbers (`#123`,
 * `owner/repo#123`). Their words (`github`, `com`, a co-author's name) otherwise match files by
 * chance: commit messages and issue texts are full of them (measured on the relevance bench, see
 * bench/README.md, "Task relevance"). Each such part is replaced by a space; the rest is kept as
 * written. One pass over the lines and their whitespace-separated words.
 *
 * @example
 * ```ts
 * import { taskProse } from "./_rank_terms.ts";
 * taskProse("Fix cookies (#12)\n\nSee https://example.com/x\nCo-authored-by: A <a@b.org>");
 * // "Fix cookies  \n\nSee  \n"
 * ```
 */
export function taskProse(task: string): string {
  return task.split("\n").map((line) =>
    TRAILER.test(line) ? "" : line.replace(/\S+/g, (word) => (isNoise(word) ? " " : word))
  ).join("\n");
}

/** A git trailer naming a person: `Co-authored-by:`, `Signed-off-by:`, `Reviewed-by:` ... */
const TRAILER = /^\s*[A-Za-z][\w-]{0,40}-by:/;

/** Whether a whitespace-separated word is a link, an e-mail address or an issue number. */
function isNoise(word: string): boolean {
  // Brackets and punctuation around it: `(#123)`, `<a@b.org>`, `#12,`.
  const bare = word.replace(/^[([<"'`]+/, "").replace(/[)\]>"'`.,;:!?]+$/, "");
  return /^[A-Za-z][\w+.-]*:\/\//.test(bare) || /^[^@]+@[^@]+\.[A-Za-z]{2,}$/.test(bare) ||
    /^([\w.-]+\/[\w.-]+)?#\d+$/.test(bare) || /^GH-\d+$/.test(bare);
}

/** Compare strings by UTF-16 code units (the same order on every machine and locale). */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const EMPTY: ReadonlySet<string> = new Set();
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SEP = 4;
/** Other letters (no case): they join a part like a lower-case letter. */
const LETTER = 1;

/** The class of each ASCII character, looked up rather than worked out. */
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, code) => classOf(code));

/** The class of the character at `i` of `text`. */
function classAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? ASCII_CLASS[code] : classOf(code);
}

function classOf(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 95 || code === 45) return SEP;
  // Letters beyond ASCII (accents, other scripts) are word characters without case.
  if (code >= 0xc0 && code !== 0xd7 && code !== 0xf7 && !(code >= 0x2000 && code <= 0x2bff)) {
    return code >= 0xd800 && code <= 0xdfff ? OTHER : LETTER;
  }
  return OTHER;
}
