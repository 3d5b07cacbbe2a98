/**
 * Large data files shown by their shape: a JSON, YAML, CSV, TSV, XML, JSON Lines or test snapshot
 * file, text that is records (test vectors, a log, a word list, a GraphQL schema) or an SVG image
 * over {@linkcode DATA_LIMIT} that the config does not name gets the `summary` view (its
 * keys, counts and first records) where it would be shown `full`, with the reason on its first
 * line and in the manifest's notes. Configuration a build or CI reads (`package.json`, a
 * `tsconfig`, a workflow under `.github/`, a compose file) is shown whole at any size.
 *
 * @module
 */

import type { SourceFile } from "./types.ts";
import { isCodeFile, isNumberTables } from "./number_tables.ts";

/**
 * The size (bytes) over which a data file the config does not name is summarized: a fixture,
 * a recording, a dataset or a snapshot file that large is records an agent reads by their shape
 * (see bench/README.md, "Data files summarized by default").
 */
export const DATA_LIMIT = 32 * 1024;

/**
 * The size (bytes) over which a file an editor writes, or an SVG image, is summarized: an Xcode
 * project (`.pbxproj`), Interface Builder's storyboards, Unity's serialized scenes and assets,
 * Godot's scenes and resources. Each is an object graph a tool saves (ids, coordinates, tile
 * data, path numbers); an agent edits the code that drives it and reads its summary (targets,
 * nodes, object kinds). Under this size such a file costs about what its summary does.
 */
const EDITOR_LIMIT = 8 * 1024;

/** Endings of files an editor writes ({@linkcode EDITOR_LIMIT}), lowercase. */
const EDITOR_ENDINGS = [
  // Xcode and Interface Builder.
  ".pbxproj",
  ".storyboard",
  ".xib",
  // Unity's serialized YAML: scenes, prefabs, assets, materials, animations and the like.
  ...[".unity", ".prefab", ".asset", ".mat", ".anim", ".controller", ".overridecontroller"],
  ...[".mask", ".physicmaterial", ".physicsmaterial2d", ".lighting", ".playable", ".mixer"],
  ...[".spriteatlas", ".terrainlayer", ".rendertexture", ".guiskin", ".flare", ".brush"],
  // Godot's text scenes and resources.
  ".tscn",
  ".tres",
  ".escn",
  // Images: an SVG's text is path numbers.
  ".svg",
];

/**
 * The size over which a data file the config does not name is summarized:
 * {@linkcode EDITOR_LIMIT} for a file an editor writes or an SVG, else {@linkcode DATA_LIMIT}.
 *
 * @example
 * ```ts
 * import { dataLimitOf } from "./data_files.ts";
 * dataLimitOf("ios/Runner.xcodeproj/project.pbxproj"); // 8192
 * dataLimitOf("fixtures/shop.json"); // 32768
 * ```
 */
export function dataLimitOf(path: string): number {
  const lower = path.toLowerCase();
  return EDITOR_ENDINGS.some((ending) => lower.endsWith(ending)) ? EDITOR_LIMIT : DATA_LIMIT;
}

/** Endings of data files, lowercase. */
const DATA_ENDINGS = [
  ".json",
  ".jsonl",
  ".ndjson",
  ".geojson",
  ".yaml",
  ".yml",
  ".csv",
  ".tsv",
  ".xml",
  ".snap",
  // XML that is data by its ending: CMSIS's device descriptions (crazyflie-firmware's
  // `STM32F405.svd`, 2.1 MB of registers), GPS tracks and map layers.
  ".svd",
  ".gpx",
  ".kml",
];

/**
 * Endings of text that is records, not prose or code, lowercase: test vectors (NIST's `.rsp`
 * and `.req`), logs, `.dat` and `.vec` files, GraphQL schemas (a generated one runs to megabytes:
 * its types are what an agent reads) and SVG images (8 to 64 KB, {@linkcode EDITOR_LIMIT}; larger
 * ones are skipped as image data, `pipeline/_default_skips.ts`).
 */
const TEXT_DATA_ENDINGS = [
  ".rsp",
  ".req",
  ".log",
  ".dat",
  ".vec",
  ".graphql",
  ".gql",
  ".graphqls",
  ".svg",
];

/**
 * Endings of plain text that is data unless its name or folder says it is documentation
 * ({@linkcode isDocumentation}): a word list, a book used as a test asset, a recorded output.
 */
const PLAIN_TEXT_ENDINGS = [".txt", ".text"];

/**
 * The size (bytes) over which plain text that reads as prose or code ({@linkcode plainTextLimit})
 * is summarized: a reference or a generator's list of declarations is read whole, a book is not.
 */
const PROSE_LIMIT = 256 * 1024;

/**
 * A word as prose writes it: letters (of any script), with an apostrophe or hyphen inside, quotes
 * or brackets before and punctuation after (`"Call`, `me,`, `l'homme;`).
 */
const PROSE_WORD = /^["'(\[«¿¡“‘]*\p{L}[\p{L}\p{M}'’-]*[.,;:!?"')\]»”’]*$/u;

/**
 * A sentence's end: a letter, then `.`, `!` or `?` (a closing quote or bracket) and a space or
 * the line's end; CJK's full stops, Khmer's `។` and `៕`, Burmese's `။`; in Thai and Lao, which
 * end a sentence or phrase with a space alone, a space between two of their letters.
 */
const SENTENCE_END =
  /\p{L}[.!?]["')”’]?(?=\s|$)|[。！？។៕။]|[\p{sc=Thai}\p{sc=Lao}]\p{M}* +(?=[\p{sc=Thai}\p{sc=Lao}])/gu;

/**
 * A character of a script written without spaces between words: Chinese, Japanese kana, Thai,
 * Lao, Khmer, Burmese.
 */
const SPACELESS =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;
/** Each such letter with the marks after it (a Thai vowel sign, a Burmese medial): a word. */
const SPACELESS_EACH = new RegExp(`(?=\\p{L})${SPACELESS.source}\\p{M}*`, "gu");

/**
 * A log line's start: a date (`2024-01-01`, `2024/01/01`) or a time of day with seconds
 * (`12:00:01`, syslog's `Jan  1 12:00:01`), in a bracket or not.
 */
const STAMP =
  /^\[?(?:\d{4}[-/]\d\d[-/]\d\d|\d\d:\d\d:\d\d|\p{Lu}\p{Ll}\p{Ll} [ \d]\d \d\d:\d\d:\d\d)/u;

/**
 * A name called or declared (`H5Aclose(`), its bracket right after it: a title or a name with a
 * note (`Toy Story (1995)`, a record of a list) is no call. It starts after no word character, so
 * a search reads each word once.
 */
const CALLED = /(?:^|[^\p{L}\p{N}_$])[\p{L}_$][\p{L}\p{N}_$]*\(/u;

/**
 * The version of the rules of {@linkcode plainTextLimit} and {@linkcode codeTableLimit}
 * ({@linkcode limitByText}): a warm build remembers each text's
 * verdict by its content hash and this number (`accel/stat_index.ts`), so a change of the rules
 * that can change a verdict raises it.
 *
 * @example
 * ```ts
 * import { PLAIN_TEXT_RULES_VERSION } from "./data_files.ts";
 * `plain-text-limit/${PLAIN_TEXT_RULES_VERSION}`; // the memo's salt
 * ```
 */
export const PLAIN_TEXT_RULES_VERSION = 4;

/**
 * The size over which plain text (`.txt`, `.text`) that is no documentation by name is
 * summarized, by what it holds: prose or code is read whole up to {@linkcode PROSE_LIMIT}, records
 * (a word list, a log, a table, hashes, a dump) over {@linkcode DATA_LIMIT}. Prose: at least one
 * sentence end in twelve non-blank lines, two of three words (whitespace-separated; a Chinese or
 * Japanese character is one) words of letters, and a quarter of the lines of four or more words mostly such words. Code: half the
 * lines or more calls, declarations or ends of statements and blocks (a generator's list of C
 * signatures). A log's lines are words too, but have no sentence ends, or start with a date or time; a word list has one word a
 * line. See bench/README.md, "Plain text by what it holds".
 *
 * @example
 * ```ts
 * import { DATA_LIMIT, plainTextLimit } from "./data_files.ts";
 * plainTextLimit("Call me Ishmael. Some years ago, never mind how long.\n"); // 262144 (256 KB)
 * plainTextLimit("Aaron\nAbby\nAbdul\n") === DATA_LIMIT; // true
 * ```
 */
export function plainTextLimit(text: string): number {
  let lines = 0, tokens = 0, words = 0, proseLines = 0, codeLines = 0, stamped = 0;
  const fields = FIELD_MARKS.map(() => new Map<number, number>());
  // Lines of a spaceless script by their count of cells between spaces (a table's columns).
  const columns = new Map<number, number>();
  for (const line of text.split("\n")) {
    // A script written without spaces (Chinese, Japanese, Thai, ...) is read a letter a word.
    const spaced = SPACELESS.test(line) ? line.replace(SPACELESS_EACH, " $& ") : line;
    const parts = spaced.trim().split(/\s+/);
    if (parts[0] === "") continue;
    lines++;
    if (STAMP.test(spaced.trimStart())) stamped++;
    const lineWords = parts.filter((part) => PROSE_WORD.test(part)).length;
    tokens += parts.length;
    words += lineWords;
    if (parts.length >= 4 && lineWords >= 0.7 * parts.length) proseLines++;
    if (parts.length >= 2 && isCodeLine(line)) codeLines++;
    countFieldMarks(line, fields);
    const cells = spacedCells(line);
    if (cells > 0) columns.set(cells, (columns.get(cells) ?? 0) + 1);
  }
  if (lines === 0) return DATA_LIMIT;
  const ends = text.match(SENTENCE_END)?.length ?? 0;
  // A log's messages may be sentences: a quarter of its lines or more start with a date or time.
  // A table's last field may be a sentence: the same count of one field mark (a tab, a comma, a
  // semicolon, a pipe) on three lines of four or more makes records.
  const table = [...fields, columns].some((counts) =>
    [...counts.values()].some((n) => n >= (3 / 4) * lines)
  );
  const prose = ends >= lines / 12 && words >= (2 / 3) * tokens && proseLines >= lines / 4 &&
    stamped < lines / 4 && !table;
  return prose || codeLines >= lines / 2 ? PROSE_LIMIT : DATA_LIMIT;
}

/** A letter of a script that ends a phrase with a space: Thai, Lao. */
const PHRASE_SPACED = /[\p{sc=Thai}\p{sc=Lao}]/u;

/** The longest cell (UTF-16 units) of a table in a spaceless script: a name, a number, a unit. */
const CELL_MAX = 16;

/** A cell that is a number: digits of any script, with separators (`1,568.7`, `๒๕๖๗`, `12%`). */
const NUMBER_CELL = /^[+-]?\p{Nd}[\p{Nd}.,:%]*$/u;

/**
 * The cells of a line of Thai or Lao (whose space ends a phrase, {@linkcode SENTENCE_END}) when
 * it reads as a table's row: three or more cells between spaces, each of {@linkcode CELL_MAX}
 * units at most, one a number or four or more of them; 0 for any other line. Their prose puts a
 * space between phrases, which are longer (`เราเขียนประโยคภาษาไทยบางประโยคที่นี่`).
 */
function spacedCells(line: string): number {
  if (!PHRASE_SPACED.test(line)) return 0;
  const cells = line.trim().split(/\s+/);
  if (cells.length < 3 || cells.some((cell) => cell.length > CELL_MAX)) return 0;
  return cells.length >= 4 || cells.some((cell) => NUMBER_CELL.test(cell)) ? cells.length : 0;
}

/** What separates a record's fields: a tab, a comma, a semicolon, a pipe. */
const FIELD_MARKS = ["\t", ",", ";", "|"];
const QUOTE = 34;

/** Words a record's first field has at most (a key, a number, a date, a name). */
const KEY_WORDS = 3;

/**
 * Count the field marks of a line into `fields` (one map a mark, from a line's count of it to
 * the lines with that count): those outside double quotes (a CSV's quoted sentence has commas)
 * and not at its end (a line of verse ends with a comma), when the text before the first is a
 * record's key, of {@linkcode KEY_WORDS} words or fewer (prose's clause before its first comma
 * is longer, mostly). A line with none counts for none.
 */
function countFieldMarks(line: string, fields: Map<number, number>[]): void {
  let tabs = 0, commas = 0, semicolons = 0, pipes = 0;
  // Words before each mark's first, counted as the line is read.
  let tabKey = 0, commaKey = 0, semicolonKey = 0, pipeKey = 0;
  let quoted = false, words = 0, inWord = false, last = line.length;
  while (last > 0 && line.charCodeAt(last - 1) <= 32) last--;
  for (let i = 0; i < last - 1; i++) {
    const code = line.charCodeAt(i);
    if (code <= 32) inWord = false;
    else if (!inWord) {
      inWord = true;
      words++;
    }
    if (code === QUOTE) quoted = !quoted;
    else if (quoted) continue;
    else if (code === 9 && tabs++ === 0) tabKey = words;
    else if (code === 44 && commas++ === 0) commaKey = words;
    else if (code === 59 && semicolons++ === 0) semicolonKey = words;
    else if (code === 124 && pipes++ === 0) pipeKey = words;
  }
  const add = (mark: number, n: number, key: number) => {
    if (n > 0 && key <= KEY_WORDS) fields[mark].set(n, (fields[mark].get(n) ?? 0) + 1);
  };
  add(0, tabs, tabKey);
  add(1, commas, commaKey);
  add(2, semicolons, semicolonKey);
  add(3, pipes, pipeKey);
}

/**
 * Whether a line is code or a declaration: it ends with `;`, `{` or `}`, or with `)` and calls or
 * declares a name (a signature, `herr_t H5Aclose(hid_t attr_id)`).
 */
function isCodeLine(line: string): boolean {
  const end = line.trimEnd();
  const last = end[end.length - 1];
  return last === ";" || last === "{" || last === "}" || last === ")" && CALLED.test(end);
}

/**
 * Whether a file of `size` bytes is summarized or not by what it holds: plain text
 * ({@linkcode plainTextLimit}) over {@linkcode DATA_LIMIT} and at most {@linkcode PROSE_LIMIT}
 * (larger plain text is summarized whatever it holds, and is not read to decide it), not under a
 * folder of tests or their data ({@linkcode TEST_DATA}); code (`isCodeFile` of `number_tables.ts`) over
 * {@linkcode DATA_LIMIT}, whether it is number tables (`isNumberTables` of `number_tables.ts`).
 *
 * @example
 * ```ts
 * import { judgedByText } from "./data_files.ts";
 * judgedByText("tools/ansicode.txt", 41_000); // true
 * judgedByText("assets/moby10b.txt", 1_200_000); // false: summarized
 * judgedByText("data/site.json", 41_000); // false
 * judgedByText("test/testdata/lorem.txt", 41_000); // false: summarized
 * judgedByText("src/lib/ffunicode.c", 1_900_000); // true
 * ```
 */
export function judgedByText(path: string, size: number): boolean {
  if (size <= DATA_LIMIT) return false;
  if (isCodeFile(path)) return true;
  const lower = path.toLowerCase();
  return size <= PROSE_LIMIT && PLAIN_TEXT_ENDINGS.some((ending) => lower.endsWith(ending)) &&
    !TEST_DATA.test(lower);
}

/**
 * The data limit a file's text decides ({@linkcode judgedByText}): plain text's
 * ({@linkcode plainTextLimit}), or code's ({@linkcode codeTableLimit}: `undefined` when it is
 * code, shown whole at any size).
 *
 * @example
 * ```ts
 * import { DATA_LIMIT, limitByText } from "./data_files.ts";
 * limitByText("src/primes.inc", "2,\n3,\n5,\n7,\n") === DATA_LIMIT; // true
 * limitByText("src/a.c", "int main(void) {\n  return 0;\n}\n"); // undefined
 * ```
 */
export function limitByText(path: string, text: string): number | undefined {
  return isCodeFile(path) ? codeTableLimit(text) : plainTextLimit(text);
}

/**
 * The data limit of code by what it holds: {@linkcode DATA_LIMIT} when it is number tables
 * (`isNumberTables`: FatFs's `ffunicode.c`, 1.9 MB of code page tables; a table of primes; a
 * shader's SPIR-V words), else `undefined`: code is shown whole at any size.
 */
function codeTableLimit(text: string): number | undefined {
  return isNumberTables(text) ? DATA_LIMIT : undefined;
}

/**
 * The limit plain text over {@linkcode PROSE_LIMIT} is summarized over, read or not: any such
 * text is summarized whatever it holds, so its reason names that limit (records would be over
 * {@linkcode DATA_LIMIT} too, prose is over only this one). `undefined` for any other file, and
 * for plain text under a folder of tests, which keeps the data limit whatever it holds.
 *
 * @example
 * ```ts
 * import { largeTextLimit } from "./data_files.ts";
 * largeTextLimit("assets/moby10b.txt", 1_200_000); // 262144
 * largeTextLimit("tools/ansicode.txt", 41_000); // undefined: its text decides
 * ```
 */
export function largeTextLimit(path: string, size: number): number | undefined {
  const lower = path.toLowerCase();
  return size > PROSE_LIMIT && PLAIN_TEXT_ENDINGS.some((ending) => lower.endsWith(ending)) &&
      !TEST_DATA.test(lower)
    ? PROSE_LIMIT
    : undefined;
}

/**
 * Folders of tests and their inputs: plain text under one is a test's data (a book a benchmark
 * sends, lorem ipsum a scanner reads), summarized over {@linkcode DATA_LIMIT} whatever it holds.
 */
const TEST_DATA =
  /(?:^|\/)(?:tests?|testdata|test[-_]data|__tests__|testing|fixtures?|__fixtures__)\//;

/**
 * Plain text an agent reads as documentation, by name (lowercase, without its ending): a
 * README, a change log, a license or notice, a guide, a design or a spec (an RFC), and the
 * llms.txt convention's `llms.txt` and `llms-full.txt`, written for agents to read whole.
 */
const DOCUMENT_NAMES =
  /^(?:readme|changelog|changes|history|news|license|licence|copying|notice|authors|contributors|contributing|security|install|todo|thanks|credits|releases?|release[-_]notes|upgrad(?:e|ing)|migration|cmakelists|requirements|llms|faq|hacking|architecture|design|manual|guide|tutorial|usage|spec|specification|rfc\d*)(?:[-_.].*)?$/;

/** Folders of documentation: plain text under one is prose (a Vim help file, a man page). */
const DOCUMENT_FOLDERS = /(?:^|\/)(?:docs?|documentation|man|manual|help|licenses?|notices?)\//;

/** Whether plain text is documentation, by its name or a folder it is under. */
function isDocumentation(lower: string): boolean {
  const name = lower.slice(lower.lastIndexOf("/") + 1);
  return DOCUMENT_NAMES.test(name.slice(0, name.lastIndexOf(".")) || name) ||
    DOCUMENT_FOLDERS.test(lower);
}

/** Configuration files by name (lowercase): shown whole at any size. */
const CONFIG_NAMES = new Set([
  "package.json",
  "composer.json",
  "deno.json",
  "deno.jsonc",
  "jsconfig.json",
  "pom.xml",
  "pubspec.yaml",
  "chart.yaml",
  ".gitlab-ci.yml",
  ".travis.yml",
  "bitbucket-pipelines.yml",
  "action.yml",
  "action.yaml",
]);

/**
 * Whether a path is a data file the size rule applies to: text that is records (an ending of
 * {@linkcode TEXT_DATA_ENDINGS}, or plain text that is no documentation), or a data ending and not
 * configuration a build or CI reads (a name of {@linkcode CONFIG_NAMES}, a `tsconfig*.json`, a compose file, a
 * file under `.github/`, `.gitlab/`, `.circleci/` or `.buildkite/`, an `azure-pipelines` file).
 *
 * @example
 * ```ts
 * import { isDataFile } from "./data_files.ts";
 * isDataFile("fixtures/site.json"); // true
 * isDataFile("package.json"); // false
 * isDataFile(".github/workflows/ci.yml"); // false
 * isDataFile("test/vectors/SigVer.rsp"); // true
 * isDataFile("docs/CHANGELOG.txt"); // false
 * ```
 */
export function isDataFile(path: string): boolean {
  const lower = path.toLowerCase();
  if (EDITOR_ENDINGS.some((ending) => lower.endsWith(ending))) return true;
  if (TEXT_DATA_ENDINGS.some((ending) => lower.endsWith(ending))) return true;
  if (PLAIN_TEXT_ENDINGS.some((ending) => lower.endsWith(ending))) return !isDocumentation(lower);
  if (!DATA_ENDINGS.some((ending) => lower.endsWith(ending))) return false;
  const name = lower.slice(lower.lastIndexOf("/") + 1);
  if (CONFIG_NAMES.has(name) || /^tsconfig.*\.json$/.test(name)) return false;
  if (/^(?:docker-)?compose(?:[.-].*)?\.ya?ml$/.test(name) || name.startsWith("azure-pipelines")) {
    return false;
  }
  return !/(?:^|\/)\.(?:github|gitlab|circleci|buildkite)\//.test(lower);
}

/**
 * Whether a data file is summarized by default: over its limit, with no view of its own.
 *
 * @example
 * ```ts
 * import { summarizedByDefault } from "./data_files.ts";
 * // summarizedByDefault(file); // true for a 500 KB fixture the config does not name
 * ```
 */
export function summarizedByDefault(
  file: Pick<SourceFile, "dataLimit" | "size" | "entry">,
): boolean {
  return file.dataLimit !== undefined && file.size > file.dataLimit && !file.entry.view;
}

/**
 * The size (bytes) over which a translation beside the one of its set shown whole is summarized
 * ({@linkcode translationSets}); a smaller one costs about what its summary would.
 */
export const TRANSLATION_LIMIT = 4 * 1024;

/**
 * The size (bytes) over which the translation of a set that is shown whole (its English file,
 * its gettext template, else its first catalog), or a gettext template or catalog in no set (a
 * WordPress plugin ships its `languages/*.pot` alone), is summarized: it holds the source text of
 * each message (read whole as prose is up to this size: about 60k tokens); a larger one (a large
 * plugin's template of 300 to 500 KB, an app's 400 KB `en.json`) is its summary: how many messages
 * or strings, the first ones.
 */
export const SHOWN_TRANSLATION_LIMIT = 256 * 1024;

/**
 * Whether a path is a gettext template or catalog (`.pot`, `.po`).
 *
 * @example
 * ```ts
 * import { isGettextFile } from "./data_files.ts";
 * isGettextFile("languages/my-plugin.pot"); // true
 * isGettextFile("locales/de.json"); // false
 * ```
 */
export function isGettextFile(path: string): boolean {
  return /\.pot?$/i.test(path);
}

/** Folders translations are kept in (lowercase): `locales/de.json`, `i18n/fr.yml`. */
const LOCALE_FOLDER = /(?:^|\/)(?:locales?|i18n|l10n|lang|languages|translations?|messages)\//;

/** Endings of translation files (lowercase). */
const TRANSLATION_ENDINGS = /\.(?:json|ya?ml|po|arb|ftl|properties|toml|xlf|xliff)$/;

/**
 * A language tag as translation files are named: `de`, `pt-BR`, `zh_Hans`, `sr-Latn-RS` (a
 * language of two or three letters, then region or script parts).
 */
const LANGUAGE_TAG = /^[a-z]{2,3}(?:[-_](?:[a-z]{2,4}|\d{3}))*$/i;

/** Translations in a set (of one folder, one ending) before all but one are summarized. */
const TRANSLATION_SET = 3;

/**
 * The translation files of `paths` that are summarized by default, each with the one of its set
 * shown whole. A set is the files under a locale folder (or gettext `.po` files) whose paths
 * differ only in one language tag, the file's name (`locales/de.json`) or a folder
 * (`locale/de/LC_MESSAGES/django.po`, `public/locales/de/common.json`), with at least
 * {@linkcode TRANSLATION_SET} of them, one of them English (`en`, then `en-US`, then any `en-*`):
 * it is shown whole. A set of gettext catalogs needs none: its template (`po/app.pot`, the
 * source language's messages) is shown whole, else the first catalog by path.
 * Deterministic for the same paths.
 *
 * @example
 * ```ts
 * import { translationSets } from "./data_files.ts";
 * const sets = translationSets(["locales/de.json", "locales/en.json", "locales/fr.json"]);
 * sets.get("locales/de.json"); // "locales/en.json"
 * sets.has("locales/en.json"); // false
 * ```
 */
export function translationSets(paths: Iterable<string>): Map<string, string> {
  // Each path may fall in several sets, one for each part of it that may be its language tag
  // (`public/locales/en/app.json`: its name `app`, or its folder `en`): it is in the first that
  // is a set.
  const sets = new Map<string, Array<{ path: string; tag: string }>>();
  const keys = new Map<string, string[]>();
  const templates = new Map<string, string[]>();
  for (const path of paths) {
    if (path.toLowerCase().endsWith(".pot")) {
      const folder = path.slice(0, path.lastIndexOf("/") + 1);
      templates.set(folder, [...templates.get(folder) ?? [], path]);
    }
    if (!isTranslationFile(path)) continue;
    const found = tagParts(path);
    keys.set(path, found.map((f) => f.key));
    for (const { tag, key } of found) {
      const members = sets.get(key) ?? [];
      members.push({ path, tag: tag.toLowerCase().replace(/_/g, "-") });
      sets.set(key, members);
    }
  }
  const shownOf = new Map<string, string>();
  for (const [key, members] of sets) {
    if (members.length < TRANSLATION_SET) continue;
    members.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    const english = members.find((m) => m.tag === "en") ??
      members.find((m) => m.tag === "en-us") ??
      members.find((m) => m.tag.startsWith("en-"));
    // Names of two or three letters that are no language (`api`, `app`, `web`) make no set
    // with an English one; gettext catalogs are translations whatever their names: their
    // template (`.pot`, the source language's messages) is shown whole, else the first by path
    // (each catalog holds every message's source text).
    const gettext = members[0].path.toLowerCase().endsWith(".po");
    const shown = english?.path ??
      (gettext ? templateOf(key, templates) ?? members[0].path : undefined);
    if (shown) shownOf.set(key, shown);
  }
  const shownWhole = new Set(shownOf.values());
  const out = new Map<string, string>();
  for (const [path, found] of keys) {
    if (shownWhole.has(path)) continue;
    const key = found.find((k) => shownOf.has(k));
    if (key !== undefined) out.set(path, shownOf.get(key)!);
  }
  return out;
}

/**
 * The gettext template (`.pot`) of a set of catalogs (by its key, `po/\0.po`,
 * `locale/\0/LC_MESSAGES/django.po`), among `templates` by folder: one in the folder of the
 * language tag (`po/`, `locale/`), the one named as the catalogs (`django.pot`) first.
 */
function templateOf(key: string, templates: Map<string, string[]>): string | undefined {
  const tagAt = key.indexOf("\0");
  const found = templates.get(key.slice(0, key.lastIndexOf("/", tagAt) + 1));
  if (!found) return undefined;
  const name = key.slice(key.lastIndexOf("/") + 1).replace(/\.po$/i, ".pot");
  return found.find((path) => path.endsWith(`/${name}`) || path === name) ??
    [...found].sort()[0];
}

/**
 * Whether a path may be a translation: a translation ending under a locale folder, or a gettext
 * `.po` file anywhere (a glob that spells its ending names it, as a data file's does).
 *
 * @example
 * ```ts
 * import { isTranslationFile } from "./data_files.ts";
 * isTranslationFile("config/locales/de.yml"); // true
 * isTranslationFile("po/de.po"); // true
 * isTranslationFile("src/de.json"); // false
 * ```
 */
export function isTranslationFile(path: string): boolean {
  const lower = path.toLowerCase();
  if (!TRANSLATION_ENDINGS.test(lower)) return false;
  return LOCALE_FOLDER.test(lower) || lower.endsWith(".po");
}

/**
 * The parts of a translation's path that may be its language tag, each with the path with that
 * part left out (the key of its set), most likely first: its name without the ending
 * (`de.json`), a part of its name between dots (`devise.de.yml`), the end of its name after a
 * `_` or `-` (`app_de.arb`, `messages_de.properties`), then each folder from the deepest
 * (`de/LC_MESSAGES/django.po`).
 */
function tagParts(path: string): Array<{ tag: string; key: string }> {
  const parts = path.split("/");
  const name = parts[parts.length - 1];
  const folder = parts.slice(0, -1).join("/");
  const at = (renamed: string) => (folder ? `${folder}/${renamed}` : renamed);
  const found: Array<{ tag: string; key: string }> = [];
  const pieces = name.split(".");
  const stem = pieces[0];
  if (stem && LANGUAGE_TAG.test(stem)) {
    found.push({ tag: stem, key: at(`\0.${pieces.slice(1).join(".")}`) });
  }
  for (let i = 1; i < pieces.length - 1; i++) {
    if (!LANGUAGE_TAG.test(pieces[i])) continue;
    const renamed = [...pieces.slice(0, i), "\0", ...pieces.slice(i + 1)].join(".");
    found.push({ tag: pieces[i], key: at(renamed) });
  }
  for (let i = 1; i < stem.length - 1; i++) {
    if (stem[i] !== "_" && stem[i] !== "-") continue;
    const tag = stem.slice(i + 1);
    if (!LANGUAGE_TAG.test(tag)) continue;
    found.push({ tag, key: at(`${stem.slice(0, i + 1)}\0${name.slice(stem.length)}`) });
  }
  for (let i = parts.length - 2; i >= 0; i--) {
    if (!LANGUAGE_TAG.test(parts[i])) continue;
    const tag = parts[i];
    found.push({ tag, key: [...parts.slice(0, i), "\0", ...parts.slice(i + 1)].join("/") });
  }
  return found;
}

/**
 * A version of a database's exported schema: `<N>.json` in a folder named as a class with its
 * package (`com.example.AppDatabase`) under a `schemas/` or `schema/` folder (Android Room writes
 * `schemas/<database class>/<version>.json` at each version). Other numbered files under
 * `schemas/` are not versions of one schema (an API's `schemas/200.json` and `404.json`).
 */
const SCHEMA_VERSION =
  /(?:^|\/)schemas?\/(?:[^/]+\/)*[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\/(\d+)\.json$/i;

/**
 * The exported schema versions of `paths` that an older version is: each with its folder's latest
 * (the highest number), which is shown. A folder of two or more versions (`1.json` to `14.json`)
 * is a database's history: its code and its migrations match the latest; each older one is the
 * same tables again (Android's nowinandroid keeps 14, 3,100 tokens each).
 *
 * @example
 * ```ts
 * import { olderSchemas } from "./data_files.ts";
 * const at = "db/schemas/com.example.App";
 * const older = olderSchemas([`${at}/1.json`, `${at}/2.json`, `${at}/10.json`]);
 * older.get(`${at}/2.json`); // "db/schemas/com.example.App/10.json"
 * older.has(`${at}/10.json`); // false
 * ```
 */
export function olderSchemas(paths: Iterable<string>): Map<string, string> {
  const folders = new Map<string, Array<{ path: string; version: number }>>();
  for (const path of paths) {
    const found = SCHEMA_VERSION.exec(path);
    if (!found) continue;
    const folder = path.slice(0, path.lastIndexOf("/"));
    const versions = folders.get(folder) ?? [];
    versions.push({ path, version: Number(found[1]) });
    folders.set(folder, versions);
  }
  const out = new Map<string, string>();
  for (const versions of folders.values()) {
    if (versions.length < 2) continue;
    const latest = versions.reduce((a, b) => b.version > a.version ? b : a);
    for (const { path } of versions) if (path !== latest.path) out.set(path, latest.path);
  }
  return out;
}

/**
 * Why an older version of an exported schema is skipped: a skipped file's reason.
 *
 * @example
 * ```ts
 * import { olderSchemaReason } from "./data_files.ts";
 * olderSchemaReason("db/schemas/com.example.App/10.json").startsWith("an older version of a schema"); // true
 * ```
 */
export function olderSchemaReason(latest: string): string {
  return `an older version of a schema (the latest, ${JSON.stringify(latest)}, is shown), ` +
    'skipped by default: name it in "files" to include it';
}

/** How a translation's reason starts. */
const TRANSLATION_START = "a translation like ";

/**
 * Why a translation is summarized: the first line of its summary and a note in the manifest.
 *
 * @example
 * ```ts
 * import { translationReason } from "./data_files.ts";
 * translationReason("locales/en.json").startsWith('a translation like "locales/en.json"'); // true
 * ```
 */
export function translationReason(shown: string): string {
  // The one shown whole is whole up to a limit ({@linkcode SHOWN_TRANSLATION_LIMIT}).
  const whole = `shown whole up to ${SHOWN_TRANSLATION_LIMIT / 1024} KB`;
  return `${TRANSLATION_START}${JSON.stringify(shown)} (${whole}): summarized by default: ` +
    'name it in "files" to show it whole';
}

/** How a data file's reason starts (the build summary counts the files by it). */
const REASON_START = "a data file of ";

/**
 * Why a data file over its limit ({@linkcode DATA_LIMIT}, or {@linkcode PROSE_LIMIT} for plain text
 * that reads as prose or code) is summarized: the first line of its summary and a note in the
 * manifest.
 *
 * @example
 * ```ts
 * import { dataReason } from "./data_files.ts";
 * dataReason(572_431).startsWith("a data file of 559 KB, over 32 KB"); // true
 * ```
 */
export function dataReason(size: number, limit: number = DATA_LIMIT): string {
  return `${REASON_START}${Math.round(size / 1024)} KB, over ${limit / 1024} KB: ` +
    'summarized by default: name it in "files" to show it whole';
}

/**
 * Whether a rendered file's notes say it was summarized as a large data file.
 *
 * @example
 * ```ts
 * import { dataReason, isDataSummarized } from "./data_files.ts";
 * isDataSummarized({ notes: [dataReason(100_000)] }); // true
 * ```
 */
export function isDataSummarized(file: { notes?: string[] }): boolean {
  return file.notes?.some((n) => n.startsWith(REASON_START)) ?? false;
}

/**
 * Whether a rendered file's notes say it was summarized as a translation.
 *
 * @example
 * ```ts
 * import { isTranslationSummarized, translationReason } from "./data_files.ts";
 * isTranslationSummarized({ notes: [translationReason("locales/en.json")] }); // true
 * ```
 */
export function isTranslationSummarized(file: { notes?: string[] }): boolean {
  return file.notes?.some((n) => n.startsWith(TRANSLATION_START)) ?? false;
}
