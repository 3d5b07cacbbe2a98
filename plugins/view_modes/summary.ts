/**
 * The `summary` view: a heuristic summary that never needs a grammar. Code
 * gives its top-level names (by per-language patterns), markdown its
 * headings, config files their top-level keys, other text its first lines.
 *
 * @module
 */

import { dataSummary, type DataSummaryOptions, jsonShapeRows } from "./_data_summary.ts";
import { conventionalExtension, extname } from "../../pipeline/paths.ts";
import { languageFor } from "../../grammars/languages.ts";
import type { ViewModePlugin } from "../../pipeline/types.ts";
import { markdownHeadings } from "./_markdown_headings.ts";
import { type NotebookCells, notebookCells } from "./_notebook.ts";
import { rareSummaryLanguages } from "./_summary_languages_rare.ts";
import { extraSummaryLanguages } from "./_summary_languages_extra.ts";
import { documentHeadings } from "./_document_headings.ts";
import { formatSummaryLanguages, gettextRows, svgRows, vectorRows } from "./_summary_formats.ts";
import { godotRows, pbxprojRows } from "./_summary_editors.ts";
import {
  moreSummaryLanguages,
  namesFound,
  type Patterns,
  readThrough,
  type SummaryLanguage,
} from "./_summary_languages.ts";
import { blankTemplates } from "./_summary_js.ts";
import { blanksComments, codeText } from "./_summary_blanks.ts";
import { counted } from "./_counts.ts";
import { type NumberTable, numberTables } from "./_number_tables.ts";
import { formatCount, isCodeFile, isNumberTables } from "../../pipeline/helpers.ts";

/** Options of {@linkcode summaryViewMode}. */
export interface SummaryOptions {
  /** Most names listed per kind. @default {40} */
  maxNames?: number;
  /** Lines shown for plain text. @default {8} */
  headLines?: number;
  /**
   * Longest line, heading or name shown, in characters; a longer one is cut with a note of how
   * much was left out (a one-line data file stays a summary). @default {200}
   */
  maxLineChars?: number;
  /**
   * Most work units the summary of one file may cost (a unit: one character read by one pass of
   * its patterns); past it the file is listed without content, with the reason in the manifest's
   * `fallback`. @default {SUMMARY_MAX_WORK}
   */
  maxWork?: number;
}

/**
 * The summary's default work budget per file: 256 million units, so a file of up to 40 MB of
 * code (six passes) is summarized; past that, it is listed.
 */
const SUMMARY_MAX_WORK: number = 256 * 1024 * 1024;

/** Defaults of {@linkcode SummaryOptions} (`maxWork`: {@linkcode SUMMARY_MAX_WORK}, kept out of the cache key). */
export const defaults: Required<Omit<SummaryOptions, "maxWork">> = {
  maxNames: 40,
  headLines: 8,
  maxLineChars: 200,
};

const PY: Patterns = [
  ["classes", /^class\s+([A-Za-z_]\w*)/gm],
  ["functions", /^(?:async\s+)?def\s+([A-Za-z_]\w*)/gm],
  ["constants", /^([A-Z][A-Z0-9_]*)\s*(?::[^=\n]*)?=/gm],
  ["imports", /^(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/gm],
];
// Read with its template literals' text blanked: a template's lines are no declarations.
const JS: Patterns = readThrough([
  ["classes", /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/gm],
  [
    "functions",
    // `(?:\s*\*)?\s*`: blanks with no `*` between them split one way only (linear in them).
    /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function(?:\s*\*)?\s*([A-Za-z_$][\w$]*)/gm,
  ],
  ["interfaces", /^(?:export\s+)?(?:declare\s+)?interface\s+([A-Za-z_$][\w$]*)/gm],
  ["types", /^(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)/gm],
  ["enums", /^(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+([A-Za-z_$][\w$]*)/gm],
  ["exports", /^export\s+(?:declare\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)/gm],
  ["imports", importSources],
], blankTemplates);
const GO: Patterns = [
  ["types", /^type\s+([A-Za-z_]\w*)/gm],
  ["functions", /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/gm],
];
const RUST: Patterns = [
  ["types", /^(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|union|type)\s+([A-Za-z_]\w*)/gm],
  ["traits", /^(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?trait\s+([A-Za-z_]\w*)/gm],
  ["impls", /^(?:unsafe\s+)?impl(?:<[^>]*>)?\s+([^{\n]+?)\s*\{/gm],
  [
    "functions",
    /^(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)/gm,
  ],
  ["modules", /^(?:pub\s+)?mod\s+([A-Za-z_]\w*)/gm],
];
const JAVA: Patterns = [
  [
    "types",
    /^(?:public\s+|protected\s+|private\s+|abstract\s+|final\s+|static\s+|sealed\s+)*(?:class|interface|enum|record|@interface)\s+([A-Za-z_]\w*)/gm,
  ],
  ["methods", javaMethods],
];

/** The expression that has always listed Java's methods. */
const JAVA_METHOD =
  /^\s{2,8}(?:public|protected|private|static|final|abstract|synchronized|native|default|\s)*[\w<>[\],.? ]+\s+(?!(?:if|for|while|switch|catch|synchronized|try|return)\b)([a-z_]\w*)\s*\([^;\n]*$/gm;

/** One whose words and blanks can be split one way only: linear in a line's blanks. */
const JAVA_METHOD_LINEAR =
  /^[ \t]{2,8}(?:[\w<>[\],.?]+[ \t]+)+(?!(?:if|for|while|switch|catch|synchronized|try|return)\b)([a-z_]\w*)\s*\([^;\n]*$/gm;

/**
 * Java's method names. {@linkcode JAVA_METHOD} can match a blank in three places and a word in
 * two, so a long run of blanks made it try each split of the run (4,000 spaces after `public`
 * held the summary for over ten minutes: bench/fuzz_inputs.ts), and a long line of words each
 * split of the line. A text with a run of 64 or more blanks or a line over 1,000 characters (in
 * google/gson the longest run is 33, the longest line 145) is read with
 * {@linkcode JAVA_METHOD_LINEAR}, which does not list a call on a line of its own
 * (`assertThat(`) as the old one did; other texts as before. Both end at the line's end (`[^;\n]*$`):
 * `[^;]*$` ran on over line ends to the next `;`, so a method with an empty body swallowed the
 * ones after it; a keyword (`if (`, `synchronized (`) is no name.
 */
function javaMethods(text: string): string[] {
  const odd = /\s{64}/.test(text) || longestLine(text) > 1000;
  return [...text.matchAll(odd ? JAVA_METHOD_LINEAR : JAVA_METHOD)].map((m) => m[1]);
}

function longestLine(text: string): number {
  let longest = 0;
  for (let at = 0; at <= text.length;) {
    const end = text.indexOf("\n", at);
    const stop = end < 0 ? text.length : end;
    longest = Math.max(longest, stop - at);
    at = stop + 1;
  }
  return longest;
}
const C: Patterns = [
  // A scoped enum (`enum class Mode`) is named by its name, not `class`, and so is one with an
  // attribute (`enum class [[nodiscard]] errc`).
  [
    "types",
    /^(?:typedef\s+)?(?:struct|union|enum(?:[ \t]+(?:class|struct))?|class|namespace)(?:\s*\[\[[^\]\n]*\]\])?\s+(?!(?:class|struct)\b)([A-Za-z_]\w*)/gm,
  ],
  ["functions", cFunctions],
  ["includes", /^#\s*include\s*[<"]([^>"]+)[>"]/gm],
];

// Ruby and PHP have no grammar yet: their names, nested or not, by what opens each line. The
// leading blanks are `[ \t]*`, never `\s*`, which would run on over blank lines from every one.
const RUBY: Patterns = [
  ["modules", /^[ \t]*module[ \t]+([A-Z]\w*(?:::[A-Z]\w*)*)/gm],
  ["classes", /^[ \t]*class[ \t]+([A-Z]\w*(?:::[A-Z]\w*)*)/gm],
  ["methods", /^[ \t]*def[ \t]+([^\s(;]+)/gm],
  ["requires", /^[ \t]*require(?:_relative)?[ \t(]+['"]([^'"\n]+)['"]/gm],
  // A spec's example groups and examples (RSpec's `describe Foo do`, `it "adds" do`; Minitest's
  // and Rails' `test "saves" do`): a spec file defines no module, class or method of its own.
  // Blanks then `(`, or blanks alone: one way to read them (linear in a line's blanks).
  [
    "tests",
    /^[ \t]*(?:RSpec\.)?(?:describe|context|it|specify|example|test|feature|scenario|shared_examples(?:_for)?|shared_context)(?:[ \t]+|[ \t]*\([ \t]*)(?:"([^"\n]{1,300})"|'([^'\n]{1,300})'|([A-Z]\w*(?:::[A-Z]\w*)*))/gm,
  ],
  ["routes", rubyRoutes],
  // A Rails app's settings (`config.eager_load = true`, `Rails.application.config.x += [...]`).
  [
    "settings",
    /^[ \t]*((?:(?:Rails\.application|[A-Z]\w*(?:::[A-Z]\w*)*)\.)?config(?:\.\w+)+)[ \t]*(?:\|\||\+|-)?=(?![=~>])/gm,
  ],
];

/**
 * Ruby's files known by their names (a `Gemfile`, `Rakefile`, `Berksfile`, `Podfile`,
 * `Vagrantfile`): Ruby's names, the gems, cookbooks, pods and formulae they depend on, and a
 * Rakefile's tasks; a file with none of these (a `Vagrantfile`'s settings block) by its first lines.
 */
const RUBY_NAMED_FILE: Patterns = [
  ...RUBY,
  ["dependencies", /^[ \t]*(?:gem|pod|cookbook|brew|cask)[ \t(]+['"]([^'"\n]{1,200})['"]/gm],
  [
    "tasks",
    /^[ \t]*(?:task|multitask)[ \t(]+(?::(\w+)|(\w+):|["']([\w:-]{1,100})["'])/gm,
  ],
];

/**
 * A Rails or Sinatra routes' verb and first argument at a line's start (`resources :chats`,
 * `get "changelog", to: "pages#changelog"`, `get '/' do`, `root "pages#home"`): `resources chats`.
 */
const RUBY_ROUTE =
  /^[ \t]*(get|post|put|patch|delete|match|root|resources|resource|namespace)(?:[ \t]+|[ \t]*\([ \t]*)(?::(\w+)|"([^"\n]{1,200})"|'([^'\n]{1,200})')/gm;

function rubyRoutes(text: string): string[] {
  return [...text.matchAll(RUBY_ROUTE)].map((m) => `${m[1]} ${m[2] ?? m[3] ?? m[4]}`);
}
const PHP: Patterns = [
  ["namespaces", /^[ \t]*namespace[ \t]+([A-Za-z_\\][\w\\]*)/gm],
  [
    "types",
    /^[ \t]*(?:(?:abstract|final|readonly)[ \t]+)*(?:class|interface|trait|enum)[ \t]+([A-Za-z_]\w*)/gm,
  ],
  [
    "functions",
    /^[ \t]*(?:(?:public|protected|private|static|abstract|final)[ \t]+)*function[ \t]+(?:&[ \t]*)?([A-Za-z_]\w*)/gm,
  ],
  ["uses", /^use[ \t]+(?:function[ \t]+|const[ \t]+)?([A-Za-z_\\][\w\\]*)/gm],
  ["keys", phpReturnedKeys],
  ["routes", phpRoutes],
  // Pest's tests and suites (`it('adds', function () {`, `test("x")`, `describe('sum', ...)`).
  [
    "tests",
    /^[ \t]*(?:it|test|arch|describe)\([ \t]*(?:'([^'\n]{1,300})'|"([^"\n]{1,300})")/gm,
  ],
];

/**
 * A routes file's routes, by the method and the first argument of a static call's chain
 * (`Route::get('/profile', ...)`, `Route::middleware('auth')->post('/x', ...)`): `get /profile`.
 */
const PHP_ROUTE =
  /^[ \t]*[A-Z]\w*::(?:\w+\([^)\n]*\)->)*(get|post|put|patch|delete|options|any|view|redirect|resource|apiResource|route)\([ \t]*(?:'([^'\n]{1,200})'|"([^"\n]{1,200})")/gm;

function phpRoutes(text: string): string[] {
  return [...text.matchAll(PHP_ROUTE)].map((m) => `${m[1]} ${m[2] ?? m[3]}`);
}

/**
 * The keys of the array a PHP file returns at its top level (`return [` at a line's start, a
 * Laravel or Symfony config file's settings: `'name' => env('APP_NAME')`), at the first key's
 * indentation, up to the line that closes the array (the next one that starts with no blank).
 */
function phpReturnedKeys(text: string): string[] {
  const start = /^return[ \t]*(?:\[|array[ \t]*\()[ \t]*\r?$/m.exec(text);
  if (!start) return [];
  const rest = text.slice(start.index + start[0].length + 1);
  const close = /^\S/m.exec(rest);
  const body = close ? rest.slice(0, close.index) : rest;
  const KEY = "(?:'([^'\\n]{1,200})'|\"([^\"\\n]{1,200})\")[ \\t]*=>";
  const first = new RegExp(`^([ \\t]+)${KEY}`, "m").exec(body);
  if (!first) return [];
  const keys = new RegExp(`^${first[1]}${KEY}`, "gm");
  return [...body.matchAll(keys)].map((m) => m[1] ?? m[2]);
}

const MORE = moreSummaryLanguages(JS, C);

const LANGUAGES: Record<string, SummaryLanguage> = {
  ".py": { label: "Python", patterns: PY },
  ".pyi": { label: "Python stub", patterns: PY },
  ".js": { label: "JavaScript", patterns: JS },
  ".mjs": { label: "JavaScript", patterns: JS },
  ".cjs": { label: "JavaScript", patterns: JS },
  ".jsx": { label: "JavaScript (JSX)", patterns: JS },
  ".ts": { label: "TypeScript", patterns: JS },
  ".mts": { label: "TypeScript", patterns: JS },
  ".cts": { label: "TypeScript", patterns: JS },
  ".tsx": { label: "TypeScript (TSX)", patterns: JS },
  ".go": { label: "Go", patterns: GO },
  ".rs": { label: "Rust", patterns: RUST },
  ".java": { label: "Java", patterns: JAVA },
  ".c": { label: "C", patterns: C },
  ".cc": { label: "C++", patterns: C },
  ".cpp": { label: "C++", patterns: C },
  ".ino": { label: "Arduino sketch", patterns: C },
  ".cxx": { label: "C++", patterns: C },
  ".hpp": { label: "C++ header", patterns: C },
  ".hh": { label: "C++ header", patterns: C },
  ".c++": { label: "C++", patterns: C },
  ".hxx": { label: "C++ header", patterns: C },
  ".h++": { label: "C++ header", patterns: C },
  ".ipp": { label: "C++ header", patterns: C },
  ".tpp": { label: "C++ header", patterns: C },
  ".rb": { label: "Ruby", patterns: RUBY },
  ".rake": { label: "Ruby", patterns: RUBY },
  ".gemspec": { label: "Ruby", patterns: RUBY },
  ".ru": { label: "Ruby", patterns: RUBY },
  // (Ruby's files known by name: `summaryExt`)
  ".rubyfile": { label: "Ruby", patterns: RUBY_NAMED_FILE, orHead: true },
  ".php": { label: "PHP", patterns: PHP },
  ".phtml": { label: "PHP", patterns: PHP },
  // C#, Scala, Swift, Kotlin, Lua, Elixir, Dart, Haskell, Zig, Terraform, components, stylesheets,
  // PowerShell, Objective-C (and `.h` files, C or Objective-C by their words), shell scripts.
  ...MORE,
  // OCaml, F#, Erlang, Clojure, Fortran, COBOL, assembly, Protocol Buffers, Groovy and Gradle;
  // templates (EEx, ERB, Jinja, ...) read as HTML with their own blocks, partials and components.
  ...rareSummaryLanguages(MORE[".html"].patterns, C, PHP),
  // Solidity, Verilog, SystemVerilog, VHDL, Coq, Elm, Gleam, Nix, Tcl, R's documentation and
  // Gradle's Kotlin scripts.
  ...extraSummaryLanguages(MORE[".kt"].patterns),
  // Certora specifications, systemd units, Go module files and web servers' configurations.
  ...formatSummaryLanguages(),
};

/**
 * The `summary` view mode.
 *
 * @example
 * ```ts
 * import { summaryViewMode } from "./summary.ts";
 * const plugin = summaryViewMode({ maxNames: 10 });
 * plugin.name; // "slop:summary"
 * ```
 */
export function summaryViewMode(options: SummaryOptions = {}): ViewModePlugin {
  const settings = { ...defaults, ...options };
  return {
    kind: "view-mode",
    name: "slop:summary",
    version: "41",
    // The factory's options change the output: they join the cache key.
    cacheKey: () => JSON.stringify(settings),
    render(file, ctx) {
      const merged = { ...settings, ...(ctx.options as SummaryOptions) };
      const maxWork = merged.maxWork ?? SUMMARY_MAX_WORK;
      const work = summaryWork(file.path, file.text);
      if (work > maxWork) {
        return {
          text: `(summary over its work budget: listed only, ${lineWord(lineCount(file.text))})`,
          fenced: false,
          view: "listed",
          fallback: "summary -> listed: over its work budget",
          notes: [
            `summary of "${file.path}" needs ${work} work units, over its budget of ${maxWork}: listed only`,
          ],
        };
      }
      return { text: summarize(file.path, file.text, merged), fenced: false };
    },
  };
}

/**
 * Summarize a file's text by its extension.
 *
 * @example
 * ```ts
 * import { summarize } from "./summary.ts";
 * summarize("a.py", "def f():\n    pass\n");
 * // "**Python**, 2 lines\n- functions: `f`"
 * ```
 */
export function summarize(path: string, text: string, options: SummaryOptions = {}): string {
  return tablesSummary(path, text, options) ?? summarizeText(path, text, options);
}

/** A summary of any text but number tables, by its extension ({@linkcode summarize}). */
function summarizeText(path: string, text: string, options: SummaryOptions): string {
  const { maxNames, headLines, maxLineChars } = { ...defaults, ...options };
  const cut = (line: string) => cutLine(line, maxLineChars);
  const ext = summaryExt(path, text);
  const lines = lineCount(text);
  const lang = readAs(LANGUAGES[ext], text);
  const head = () => firstLines(text, headLines).map((l) => `    ${cut(l)}`).join("\n").trimEnd();
  if (lang) {
    // Block comments and strings over lines are read as blanks: a line in one is no declaration.
    const rows = nameRows(lang.patterns, codeText(ext, text), cut, maxNames);
    // A script of commands alone (no function) is shown by its first lines, as text is.
    const lead = rows.length || !lang.orHead ? "" : head();
    return [`**${lang.label}**, ${lineWord(lines)}`, ...rows].join("\n") +
      (lead ? `\n\n${lead}` : "");
  }
  const markdown = MARKDOWN_KINDS[ext];
  if (markdown) {
    const rows = headingRows(markdownHeadings(text), cut, maxNames);
    return [`**${markdown}**, ${lineWord(lines)}`, ...rows].join("\n");
  }
  // AsciiDoc, Org, reStructuredText and man pages, by their section titles as Markdown is.
  const doc = documentHeadings(ext, text);
  if (doc) {
    const rows = headingRows(doc.headings, cut, maxNames);
    return [`**${doc.label}**, ${lineWord(lines)}`, ...rows].join("\n");
  }
  const book = ext === ".ipynb" ? notebookCells(text) : undefined;
  if (book) return notebookSummary(book, lines, cut, maxNames);
  if (ext === ".yaml" || ext === ".yml" || text.startsWith("%YAML")) {
    const unity = /^%TAG !u! tag:unity3d\.com/m.test(text.slice(0, 200));
    const label = unity ? "Unity YAML" : "YAML";
    return [`**${label}**, ${lineWord(lines)}`, ...yamlRows(text, cut, maxNames)].join("\n");
  }
  const data = {
    cut,
    list: (names: string[], max = maxNames) => list(names, Math.min(max, maxNames)),
    code: codeSpan,
    records: 3,
  };
  const table = dataSummary(xmlKind(ext, text), text, data);
  if (table) return (ext === ".svg" ? svgSummary(table, text, data) : table).join("\n");
  const records = recordRows(ext, text, data);
  if (records) return records.join("\n");
  const keys = configKeys(ext, text);
  if (keys) {
    const label = ext === ".properties"
      ? "Properties"
      : ext === ".editorconfig"
      ? "EditorConfig"
      : ext.slice(1).toUpperCase();
    return [
      `**${label}**, ${lineWord(lines)}`,
      ...(keys.length ? [`- keys: ${list(keys.map(cut), maxNames)}`] : []),
      ...(ext === ".json" ? jsonShape(text, data) : []),
    ]
      .join("\n");
  }
  const lead = head();
  return `**Text**, ${lineWord(lines)}${lead ? `\n\n${lead}` : ""}`;
}

/** A gettext catalog's, NIST test vectors', an Xcode project's or a Godot file's rows; `undefined` for another ending. */
function recordRows(ext: string, text: string, data: DataSummaryOptions): string[] | undefined {
  if (ext === ".po" || ext === ".pot") return gettextRows(ext, text, data);
  if (ext === ".rsp" || ext === ".req") return vectorRows(text, data);
  if (ext === ".pbxproj") return pbxprojRows(text, data);
  if (ext === ".tscn" || ext === ".escn" || ext === ".tres") return godotRows(text, data);
  return undefined;
}

/** Markdown and the kinds written in it (R Markdown, Quarto), by extension: their labels. */
const MARKDOWN_KINDS: Record<string, string> = {
  ".md": "Markdown",
  ".markdown": "Markdown",
  ".mdx": "Markdown",
  ".rmd": "R Markdown",
  ".qmd": "Quarto",
};

/**
 * The work units {@linkcode summarize} spends on a text: one a character for each pass over it
 * (counting lines, then each of the language's patterns), known before it starts.
 */
function summaryWork(path: string, text: string): number {
  const ext = summaryExt(path, text);
  // A notebook is parsed once, then its code read by Python's patterns.
  const lang = LANGUAGES[ext];
  // A language read only when a pattern finds its words (`only`) reads the text once more.
  const patterns = ext === ".ipynb" ? PY.length + 1 : lang ? readWork(lang) : 1;
  return text.length * (1 + patterns + (blanksComments(ext) ? 1 : 0));
}

/** The passes a language reads a text in at most: its patterns, or those it may hand over to. */
function readWork(lang: SummaryLanguage): number {
  const own = lang.patterns.length + (lang.only ? 1 : 0);
  return lang.otherwise ? Math.max(own, readWork(lang.otherwise) + 1) : own;
}

/** The language a text of an extension is read in: `lang`, or what it says when `only` refuses. */
function readAs(lang: SummaryLanguage | undefined, text: string): SummaryLanguage | undefined {
  while (lang?.only && !lang.only(text)) lang = lang.otherwise;
  return lang;
}

/** Interpreters of `#!` lines, by name without version digits, as the extension they read. */
const SHEBANGS: Record<string, string> = {
  python: ".py",
  ruby: ".rb",
  node: ".js",
  nodejs: ".js",
  deno: ".ts",
  php: ".php",
  sh: ".sh",
  bash: ".sh",
  dash: ".sh",
  ash: ".sh",
  zsh: ".sh",
  ksh: ".sh",
  pwsh: ".ps1",
  perl: ".pl",
  Rscript: ".r",
  julia: ".jl",
};

/**
 * The extension a file is summarized by: a build file's by its name (`Makefile` reads as `.mk`),
 * a Blade template's two (`.blade.php`), a Gradle script's in Kotlin (`.gradle.kts`), HCL's by
 * its tool (`terragrunt.hcl`, `*.pkr.hcl`, `*.nomad.hcl`),
 * its own, or for a file without one (`bin/tool`), the language its `#!` line names
 * (`#!/usr/bin/env python3` reads as `.py`).
 */
function summaryExt(path: string, text: string): string {
  // A Makefile or Dockerfile by its name (`GNUmakefile`, `Dockerfile.dev`).
  const named = conventionalExtension(path);
  if (named) return named;
  // Ruby's files known by their names, as the code views know them (`Gemfile`, `Rakefile`).
  if (!extname(path) && languageFor(path)?.grammar === "ruby") return ".rubyfile";
  const lower = path.toLowerCase();
  if (lower.endsWith(".blade.php")) return ".blade.php";
  if (lower.endsWith(".gradle.kts")) return ".gradle.kts";
  if (lower === ".editorconfig" || lower.endsWith("/.editorconfig")) return ".editorconfig";
  // Web servers' configurations by their names: Apache's `.htaccess`, a `Caddyfile`.
  const base = lower.slice(lower.lastIndexOf("/") + 1);
  if (base === ".htaccess") return ".htaccess";
  if (base === "caddyfile" || base.startsWith("caddyfile.")) return ".caddyfile";
  // HCL by its tools' names: Terragrunt's `terragrunt.hcl`, Packer's `*.pkr.hcl`, Nomad's
  // `*.nomad.hcl` (any other `.hcl` reads as HCL by its extension).
  if (base === "terragrunt.hcl") return ".terragrunt.hcl";
  if (base.endsWith(".pkr.hcl")) return ".pkr.hcl";
  if (base.endsWith(".nomad.hcl")) return ".nomad.hcl";
  const ext = extname(path).toLowerCase();
  // GraphQL's short ending reads as its long one.
  if (ext === ".gql") return ".graphql";
  if (ext || !text.startsWith("#!")) return ext;
  const end = text.indexOf("\n");
  const words = text.slice(2, end < 0 ? Math.min(text.length, 256) : Math.min(end, 256))
    .trim().split(/[ \t]+/);
  // `/usr/bin/env [-S] [NAME=value...] python3 -u`: the first word after env that is a command.
  let i = 0;
  if (words[0]?.endsWith("/env") || words[0] === "env") {
    i = 1;
    while (i < words.length && (words[i].startsWith("-") || words[i].includes("="))) i++;
  }
  const name = (words[i] ?? "").split("/").pop()!.replace(/[\d.]+$/, "");
  return SHEBANGS[name] ?? "";
}

/** One `- kind: names` row per kind of name the patterns find in the text. */
function nameRows(
  patterns: Patterns,
  text: string,
  cut: (line: string) => string,
  maxNames: number,
): string[] {
  return patterns.map(([kind, pattern]) => {
    const names = unique(namesFound(pattern, text).map((name) => name.trim()).filter(Boolean));
    return names.length ? `- ${kind}: ${list(names.map(cut), maxNames)}` : "";
  }).filter(Boolean);
}

/**
 * A heading's id or attributes after its title, which no reader of the page sees: Pandoc's,
 * kramdown's and Docusaurus's `{#install .unnumbered}`, `{-}`, an MDX comment in braces (react.dev's
 * ids).
 */
const HEADING_ID = /[ \t]+\{(?:[#.][^{}\s][^{}]*|-|\/\*[^{}]*\*\/)\}$/;

/** Markdown headings as a nested list, at most `maxNames` of them, without their ids. */
function headingRows(
  headings: Array<[number, string]>,
  cut: (line: string) => string,
  maxNames: number,
): string[] {
  // Indented from the shallowest level: a page whose title is in its front matter (or a README
  // that starts at `##`) lists its top headings at the margin, not under a missing first level.
  const top = headings.reduce((least, [level]) => Math.min(least, level), 6);
  const rows = headings.map(([level, title]) =>
    `${"  ".repeat(level - top)}- ${inlineTitle(cut(title.replace(HEADING_ID, "") || title))}`
  );
  const shown = rows.slice(0, maxNames);
  if (rows.length > shown.length) {
    shown.push(`- ... ${formatCount(rows.length - shown.length)} more headings`);
  }
  return shown;
}

/**
 * A notebook: its cells by kind, the headings of its markdown cells (each cell read on its own,
 * so a fence left open in one cell does not hide the next one's headings) and, for Python, the
 * names its code cells define and import.
 */
function notebookSummary(
  book: NotebookCells,
  lines: number,
  cut: (line: string) => string,
  maxNames: number,
): string {
  const cells = book.markdown.length + book.code.length + book.other;
  const kinds = [
    `${formatCount(book.code.length)} code`,
    `${formatCount(book.markdown.length)} markdown`,
  ];
  if (book.other) kinds.push(`${formatCount(book.other)} other`);
  const lang = book.language ? ` (${inlineTitle(cut(book.language))})` : "";
  const head = `**Jupyter notebook**${lang}, ${lineWord(lines)}, ${counted(cells, "cell")} (${
    kinds.join(", ")
  })`;
  const headings = headingRows(book.markdown.flatMap(markdownHeadings), cut, maxNames);
  const code = book.language === "python"
    ? nameRows(PY, book.code.map((c) => c.endsWith("\n") ? c : `${c}\n`).join(""), cut, maxNames)
    : [];
  return [head, ...headings, ...code].join("\n");
}

/** The first `n` lines of `text`, without splitting the rest of it. */
function firstLines(text: string, n: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (out.length < n && start <= text.length) {
    const end = text.indexOf("\n", start);
    out.push(text.slice(start, end < 0 ? text.length : end));
    if (end < 0) break;
    start = end + 1;
  }
  return out;
}

/** A line cut at `max` characters (never inside a surrogate pair), noting what was left out. */
function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  const end = /[\uD800-\uDBFF]/.test(line[max - 1] ?? "") ? max - 1 : max;
  return `${line.slice(0, end)}… (${line.length - end} more characters)`;
}

/**
 * The summary of code that is number tables (left out by default over 32 KB): its language and lines, its tables
 * ({@linkcode tableRows}), then the names its language's patterns find; `undefined` for any
 * other text.
 */
function tablesSummary(
  path: string,
  text: string,
  options: SummaryOptions,
): string | undefined {
  if (!isCodeFile(path) || !isNumberTables(text)) return undefined;
  const { maxNames, maxLineChars } = { ...defaults, ...options };
  const cut = (line: string) => cutLine(line, maxLineChars);
  const ext = summaryExt(path, text);
  const lang = readAs(LANGUAGES[ext], text);
  const label = lang?.label ?? (ext ? `${ext.slice(1).toUpperCase()} code` : "Code");
  const rows = lang ? nameRows(lang.patterns, text, cut, maxNames) : [];
  const head = `**${label}**, ${lineWord(lineCount(text))}`;
  return [head, ...tableRows(numberTables(text), cut, maxNames), ...rows].join("\n");
}

/**
 * The rows of a file's number tables: how many and their elements, then each table's name,
 * element type, elements and rows (at most `maxNames`).
 */
function tableRows(
  tables: NumberTable[],
  cut: (line: string) => string,
  maxNames: number,
): string[] {
  const elements = tables.reduce((sum, t) => sum + t.elements, 0);
  const rows = tables.reduce((sum, t) => sum + t.rows, 0);
  const out = [
    `- ${counted(tables.length, "number table")}: ${counted(elements, "element")} in ${
      counted(rows, "row")
    }`,
  ];
  for (const table of tables.slice(0, maxNames)) {
    const name = table.name ? codeSpan(cut(table.name)) : "(unnamed)";
    const type = table.type ? ` of ${codeSpan(cut(table.type))}` : "";
    out.push(
      `  - ${name}${type}: ${counted(table.elements, "element")} in ${counted(table.rows, "row")}`,
    );
  }
  if (tables.length > maxNames) out.push(`  - ... ${formatCount(tables.length - maxNames)} more`);
  return out;
}

function lineWord(n: number): string {
  return counted(n, "line");
}

/** The shape rows of a JSON file's value (none when it does not parse). */
function jsonShape(text: string, options: DataSummaryOptions): string[] {
  try {
    return jsonShapeRows(JSON.parse(text), options);
  } catch {
    return [];
  }
}

/**
 * Endings whose files are JSON when they open with `{`: JSON with comments, and a `.conf` file
 * that is JSON (Certora's, a VS Code extension's): their keys, as a `.json` file's.
 */
const JSON_KINDS = new Set([".jsonc", ".json5", ".conf"]);

/** Endings of INI-like files (`[section]`, `key = value`): their sections and keys. */
const INI_KINDS = new Set([".toml", ".ini", ".cfg", ".properties", ".editorconfig"]);

/**
 * Endings of XML documents that are not named `.xml` (an SVG, a property list, a .NET project or
 * config file, a resource file): summarized as XML when their text opens with `<`.
 */
const XML_KINDS = new Set([
  ".svg",
  ".plist",
  ".config",
  ".csproj",
  ".vbproj",
  ".fsproj",
  ".vcxproj",
  ".filters",
  ".props",
  ".targets",
  ".nuspec",
  ".resx",
  ".xaml",
  ".xsd",
  ".xsl",
  ".xslt",
  ".wsdl",
  ".storyboard",
  ".xib",
  ".xlf",
  ".xliff",
  ".svd",
  ".gpx",
  ".kml",
]);

/** The data kind a text of `ext` is summarized as: `.xml` for an XML document of another name. */
function xmlKind(ext: string, text: string): string {
  return XML_KINDS.has(ext) && /^\s*</.test(text) ? ".xml" : ext;
}

/** An SVG's XML rows labelled as an image, with its size and the texts it shows. */
function svgSummary(rows: string[], text: string, options: DataSummaryOptions): string[] {
  return [
    rows[0].replace(/^\*\*XML\*\*/, "**SVG image**"),
    ...svgRows(text, options),
    ...rows.slice(1),
  ];
}

function configKeys(ext: string, text: string): string[] | undefined {
  if (ext === ".json" || JSON_KINDS.has(ext) && /^\s*\{/.test(text)) {
    try {
      const value = JSON.parse(text);
      return value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
    } catch {
      return [...text.matchAll(/^\s{0,4}"([^"]+)"\s*:/gm)].map((m) => m[1]);
    }
  }
  if (
    INI_KINDS.has(ext) || ext === ".conf" && /^[ \t]*(?:\[[^\]\n]+\]|[\w.-]+[ \t]*=)/m.test(text)
  ) {
    return unique(iniKeys(text));
  }
  return undefined;
}

/**
 * A YAML file's rows: its top-level keys, the names of a top-level list's items (an Ansible
 * playbook's or task file's `- name: Install packages`) and the objects a Unity scene or prefab
 * names (`m_Name: Main Camera`). A file that is one list had no row at all.
 */
function yamlRows(text: string, cut: (line: string) => string, maxNames: number): string[] {
  const rows: Array<[string, string[]]> = [
    ["keys", [...text.matchAll(/^([A-Za-z0-9_."'-]+)[ \t]*:/gm)].map((m) => m[1])],
    ["items", [...text.matchAll(/^-[ \t]+name[ \t]*:[ \t]*(\S[^\n]*)/gm)].map((m) => m[1])],
    ["names", [...text.matchAll(/^[ \t]+m_Name[ \t]*:[ \t]*(\S[^\n]*)/gm)].map((m) => m[1])],
  ];
  return rows.flatMap(([kind, found]) => {
    const names = unique(found.map((n) => n.trim()));
    return names.length ? [`- ${kind}: ${list(names.map(cut), maxNames)}`] : [];
  });
}

function lineCount(text: string): number {
  if (!text) return 0;
  let n = 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

/**
 * A heading's title as the text of a list item: a first character that would start a block of
 * its own there (a code fence ```` ``` ```` that swallows what follows, a quote, a nested list,
 * a heading, an HTML block) is escaped with a backslash, as is the `.` or `)` after a leading number.
 * One or two backticks or tildes open no fence: a code span's (`` `useMemo()` ``) stays as written,
 * where a backslash would leave it unclosed.
 */
function inlineTitle(title: string): string {
  // `#` opens a heading only when a blank or the line's end follows its run (`#tag` stays).
  if (/^(?:```|~~~|[<>+*=_|[\\-])|^#{1,6}(?:[ \t]|$)/.test(title)) return `\\${title}`;
  return title.replace(/^(\d{1,9})([.)])/, "$1\\$2");
}

function list(names: string[], max: number): string {
  const shown = names.slice(0, max).map(codeSpan).join(", ");
  return names.length > max ? `${shown}, ... ${formatCount(names.length - max)} more` : shown;
}

/**
 * A name as inline code that stays on its line and in its span whatever it holds: a JSON key
 * may hold a newline and `## Files` after it (which would start a heading of its own) or
 * backticks (which would end the span). Line breaks and other controls are written as escapes;
 * the span's backtick run is longer than any run inside, with a space inside each end when the
 * name starts or ends with a backtick (CommonMark's rule).
 */
function codeSpan(name: string): string {
  const flat = name.replace(
    BREAKS,
    (c) => BREAK_ESCAPES[c] ?? `\\u{${c.charCodeAt(0).toString(16)}}`,
  );
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

// deno-lint-ignore no-control-regex
const BREAKS = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;
const BREAK_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * What `/^import\s[^'"]*?['"]([^'"]+)['"]/gm` finds (the source of each import), read forward once.
 * The expression read on from every line starting with `import` to the next quote, again for each
 * such line (a file of them and no quote took minutes); the quote it stops at is always the
 * first one after the line's start, which this finds once for all the lines before it.
 */
function importSources(text: string): string[] {
  const out: string[] = [];
  let resume = 0;
  // The next quote of either kind at or after a position, kept while the lines move past it.
  let single = -2;
  let double = -2;
  const quoteFrom = (from: number) => {
    if (single !== -1 && single < from) single = text.indexOf("'", from);
    if (double !== -1 && double < from) double = text.indexOf('"', from);
    return single < 0 ? double : double < 0 ? single : Math.min(single, double);
  };
  for (const m of text.matchAll(/^import\s/gm)) {
    if (m.index < resume) continue;
    const open = quoteFrom(m.index + m[0].length);
    if (open < 0) break; // no quote after: no later line has one either
    const close = quoteFrom(open + 1);
    if (close < 0) break;
    if (close === open + 1) continue; // an empty source
    out.push(text.slice(open + 1, close));
    resume = close + 1;
  }
  return out;
}

/**
 * The C and C++ function pattern: a name and `(` at the end of a line's declaration (`[^;\n]*$`:
 * `[^;]*$` ran on over line ends to the next `;`, and a function with an empty body swallowed the
 * ones after it).
 */
const C_FUNCTION =
  /^(?!\s|#|\/|typedef|return|if|else|for|while|switch)[A-Za-z_][\w\s*&:<>,]*?\b([A-Za-z_~][\w:~]*)\s*\([^;\n]*$/gmy;

/** Words that open a statement, never a function's name. */
const C_STATEMENTS = new Set(["if", "for", "while", "switch", "return", "sizeof", "do", "case"]);

/** What a C function's start can hold before its `(`: `[\w\s*&:<>,~]`. */
const C_PREFIX = /[^\w\s*&:<>,~]/g;

/** Characters between a line's start and the `(` of a function declared from it, at most. */
const C_PREFIX_MAX = 4096;

/**
 * What {@linkcode C_FUNCTION} finds (each function's name), tried only at the line starts it can
 * match at: those whose first character that a declaration's start cannot hold is a `(`, at most
 * {@linkcode C_PREFIX_MAX} characters on. Tried at every line start, the expression read on over
 * every following line that its start can hold, a file of one-letter lines took time quadratic
 * in its lines (bench/README.md).
 */
function cFunctions(text: string): string[] {
  const out: string[] = [];
  let resume = 0;
  let stop = -1;
  for (
    const m of text.matchAll(/^(?!\s|#|\/|typedef|return|if|else|for|while|switch)[A-Za-z_]/gm)
  ) {
    const start = m.index;
    if (start < resume) continue;
    if (stop <= start) {
      C_PREFIX.lastIndex = start + 1;
      stop = C_PREFIX.exec(text)?.index ?? text.length;
    }
    if (text.charCodeAt(stop) !== 40 || stop - start > C_PREFIX_MAX) continue;
    C_FUNCTION.lastIndex = start;
    const found = C_FUNCTION.exec(text);
    if (!found) continue;
    resume = start + found[0].length;
    // A statement after a label at a line's start (`skip:` then `\tif (w != NULL) {`) is none.
    if (!C_STATEMENTS.has(found[1])) out.push(found[1]);
  }
  return out;
}

/**
 * The tables and keys of a TOML or INI text (`[server]`, `port`): what
 * `/^\s*(?:\[+([^\]]+)\]+|([A-Za-z0-9_.-]+)\s*=)/gm` finds, read forward once. The expression
 * took each shorter run of `[` in turn when no `]` followed (a line of brackets: half a minute for
 * 256 KB) and skipped the same blank lines again from each of them.
 */
function iniKeys(text: string): string[] {
  const out: string[] = [];
  const isSpace = (i: number) => /\s/.test(text[i] ?? "x");
  const isName = (i: number) => /[A-Za-z0-9_.-]/.test(text[i] ?? "");
  let resume = 0;
  let word = -1; // the first character at or after a line start that is not white space
  let close = -2; // the next `]`
  for (let start = 0; start < text.length; start = text.indexOf("\n", start) + 1 || text.length) {
    if (start < resume) continue;
    if (word < start) { for (word = start; word < text.length && isSpace(word);) word++; }
    if (word >= text.length) break;
    if (text[word] === "[") {
      let k = word;
      while (text[k] === "[") k++;
      if (close !== -1 && close < k) close = text.indexOf("]", k);
      if (close < 0) continue;
      // At least one character between: the last `[` itself when a `]` follows the run at once.
      const from = close > k ? k : k - word >= 2 ? k - 1 : -1;
      if (from < 0) continue;
      let end = close;
      while (text[end] === "]") end++;
      out.push(`[${text.slice(from, close)}]`);
      resume = end;
    } else if (isName(word)) {
      let k = word;
      while (isName(k)) k++;
      let eq = k;
      while (eq < text.length && isSpace(eq)) eq++;
      if (text[eq] !== "=") continue;
      out.push(text.slice(word, k));
      resume = eq + 1;
    }
  }
  return out;
}
