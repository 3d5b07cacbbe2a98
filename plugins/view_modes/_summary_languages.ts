/**
 * The `summary` view's patterns for languages and file kinds without a
 * grammar in slop's summary table of `summary.ts`: C#, Scala, R, Perl, MATLAB,
 * Emacs Lisp, Vim script, Pascal, GDScript, SQL, Julia, Swift, Kotlin, Lua,
 * Elixir, Dart, Haskell, Zig, Terraform, Vue and Svelte components,
 * stylesheets, Helm templates, HTML pages, PowerShell, Objective-C and shell
 * scripts. Each names what a line opens (a type, a function, a module, a
 * block), the way the Ruby and PHP patterns do; PowerShell's and the shell's
 * read the text with its block comments and here-documents blanked.
 *
 * Every pattern reads one line at most from where it starts: the leading
 * blanks are `[ \t]*`, never `\s*` (which would run on over blank lines from
 * every one), and no part of a pattern can match a line break, so each pass
 * over a file is linear.
 *
 * @module
 */

import { componentParts } from "../../grammars/components.ts";
import { isObjectiveC } from "../../grammars/languages.ts";

/** Names by kind: a pattern whose first (or second) group is the name, or a function finding them. */
export type Patterns = Array<[kind: string, pattern: RegExp | ((text: string) => string[])]>;

/**
 * The names one pattern finds in `text`: a function's answer, or each match's first group that
 * matched.
 *
 * @example
 * ```ts
 * import { namesFound } from "./_summary_languages.ts";
 * namesFound(/^def (\w+)/gm, "def f():\n    pass\n"); // ["f"]
 * ```
 */
export function namesFound(pattern: Patterns[number][1], text: string): string[] {
  return typeof pattern === "function"
    ? pattern(text)
    : [...text.matchAll(pattern)].map((m) => m.slice(1).find((g) => g !== undefined) ?? "");
}

/** A language's label and patterns. */
export interface SummaryLanguage {
  label: string;
  patterns: Patterns;
  /** A text of the extension is read in this language only when this holds (`.m`: MATLAB too). */
  only?: (text: string) => boolean;
  /** The language a text `only` refuses is read in (`.h`: C), else none (text). */
  otherwise?: SummaryLanguage;
  /** A text in which no pattern finds a name is shown by its first lines (a script of commands). */
  orHead?: boolean;
}

/**
 * A Swift package manifest's (`Package.swift`) dependencies, one a line as SwiftPM's manifests
 * write them (`.package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0")`): the
 * package by its URL's last part (`swift-nio`) or its path or registry id; a line commented out
 * is none.
 */
function swiftPackages(text: string): string[] {
  return [...text.matchAll(SWIFT_PACKAGE)].map((m) =>
    m[1].replace(/\/+$/, "").replace(/\.git$/, "").split("/").pop() || m[1]
  );
}

const SWIFT_PACKAGE =
  /^[ \t]*\.package\([ \t]*(?:name:[ \t]*"[^"\n]*",[ \t]*)?(?:url|path|id):[ \t]*"([^"\n]{1,300})"/gm;

/**
 * A Swift package manifest's products and targets (`.library(name: "Vapor", ...)`, `.target(`
 * then `name: "Vapor",` on the next line): their names.
 */
const SWIFT_TARGET =
  /^[ \t]*(?:targets:[ \t]*\[[ \t]*)?\.(?:target|testTarget|executableTarget|macro|plugin|binaryTarget|systemLibrary)\([ \t]*(?:\n[ \t]*)?name:[ \t]*"([^"\n]{1,200})"/gm;
const SWIFT_PRODUCT =
  /^[ \t]*(?:products:[ \t]*\[[ \t]*)?\.(?:library|executable)\([ \t]*(?:\n[ \t]*)?name:[ \t]*"([^"\n]{1,200})"/gm;

const SWIFT_MODIFIERS =
  "(?:(?:public|private|fileprivate|internal|open|final|static|class|override|mutating|nonmutating|convenience|required|dynamic|nonisolated|indirect|@\\w+(?:\\([^)\\n]*\\))?)[ \\t]+)*";
const SWIFT: Patterns = [
  [
    "types",
    new RegExp(
      `^[ \\t]*${SWIFT_MODIFIERS}(?:class|struct|enum|protocol|actor|extension)[ \\t]+(?!func\\b|var\\b|let\\b)([A-Za-z_][\\w.]*)`,
      "gm",
    ),
  ],
  ["functions", new RegExp(`^[ \\t]*${SWIFT_MODIFIERS}func[ \\t]+([^\\s(<]+)`, "gm")],
  [
    "imports",
    /^[ \t]*(?:@\w+[ \t]+)?import[ \t]+(?:(?:class|struct|enum|protocol|func|var|let|typealias)[ \t]+)?([\w.]+)/gm,
  ],
  // A package manifest's (`Package.swift`): what it ships, builds and depends on.
  ["products", SWIFT_PRODUCT],
  ["targets", SWIFT_TARGET],
  ["dependencies", swiftPackages],
];

const CSHARP_MODIFIERS =
  "(?:(?:public|private|protected|internal|static|sealed|abstract|partial|readonly|unsafe|new|file|ref)[ \\t]+)*";
/** C#'s declarations; a method is a name after a run of words (its modifiers and type), as Java's. */
const CSHARP: Patterns = [
  ["namespaces", /^[ \t]*namespace[ \t]+([A-Za-z_][\w.]*)/gm],
  [
    "types",
    new RegExp(
      `^[ \\t]*${CSHARP_MODIFIERS}(?:class|struct|interface|enum|record(?:[ \\t]+(?:class|struct))?)[ \\t]+([A-Za-z_]\\w*)`,
      "gm",
    ),
  ],
  [
    "methods",
    // Words and blanks split one way only (no word holds a blank): linear in a line's length.
    /^[ \t]{2,16}(?:[\w<>[\],.?]+[ \t]+)+(?!(?:if|for|foreach|while|switch|catch|using|lock|return|await|throw|new|else|yield|fixed)\b)([A-Za-z_]\w*)[ \t]*(?:<[\w<>, \t]*>)?[ \t]*\([^;\n]*$/gm,
  ],
  ["usings", /^[ \t]*(?:global[ \t]+)?using[ \t]+(?:static[ \t]+)?([A-Za-z_][\w.]*)[ \t]*;/gm],
  ["routes", csharpRoutes],
];

/**
 * ASP.NET's minimal API routes (`app.MapGet("/todos/{id}", ...)`, `var g = app.MapGroup("/todos")`):
 * the verb, lower case, and the pattern (`get /todos/{id}`, `group /todos`).
 */
const CSHARP_ROUTE =
  /\.Map(Get|Post|Put|Patch|Delete|Group|Methods|Fallback)[ \t]*\([ \t]*@?"([^"\n]{1,200})"/g;

function csharpRoutes(text: string): string[] {
  return [...text.matchAll(CSHARP_ROUTE)].map((m) => `${m[1].toLowerCase()} ${m[2]}`);
}

const SCALA_MODIFIERS =
  "(?:(?:private|protected)(?:\\[[\\w.]*\\])?[ \\t]+|(?:final|sealed|abstract|implicit|lazy|override|case|open|inline|transparent|infix)[ \\t]+)*";
/** Scala's declarations; a `def`'s name may be an operator (`+`) or in backticks. */
const SCALA: Patterns = [
  // `package object os` is a package's object, not a package named `object`.
  ["package", /^package[ \t]+(?!object[ \t])([\w.]+)/gm],
  [
    "types",
    new RegExp(
      `^[ \\t]*${SCALA_MODIFIERS}(?:class|trait|object|enum|package[ \\t]+object)[ \\t]+([A-Za-z_]\\w*)`,
      "gm",
    ),
  ],
  [
    "functions",
    new RegExp(
      `^[ \\t]*${SCALA_MODIFIERS}def[ \\t]+([A-Za-z_]\\w*|\`[^\`\\n]+\`|[!#%&*+\\-/:<=>?@\\\\^|~]+)`,
      "gm",
    ),
  ],
  ["imports", /^[ \t]*import[ \t]+(\w+(?:\.\w+)*(?:\.\{[^}\n]*\}|\._|\.\*)?)/gm],
  ["tests", scalaTests],
];

/**
 * A line that opens a Scala test or suite: munit's, ScalaTest's and utest's calls
 * (`test("adds") {`), Discipline's law checks (`checkAll("Codec[A]", ...)`), and ScalaTest's
 * specs, which write them as operators: FlatSpec's `"A Stack" should "pop" in {` (or `it must
 * "throw" taggedAs Slow in {`, `ignore {` or `ignore should "x" in {` for a skipped one),
 * WordSpec's and FreeSpec's suites (`"A Stack" when {`, `"empty" should {`, `"a path" - {`) and
 * tests (`"pops" in {`).
 */
const SCALA_TEST_LINE =
  /^[ \t]*(?:(?:test|property|it|ignore|scenario|describe|checkAll)\([ \t]*"([^"\n]{1,300})"|(?:"([^"\n]{1,300})"|(it|they|ignore))(?:[ \t]+(should|must|can)[ \t]+"([^"\n]{1,300})")?(?:[ \t]+taggedAs[ \t]*(?:\([^(){}\n]*\)|[\w.]+)(?:[ \t]*,[ \t]*[\w.]+)*)?[ \t]+(in|ignore|should|must|can|when|which|that|-)[ \t]*\{)/gm;

/**
 * The titles of a Scala file's tests and suites, in the file's order, named as the code views
 * name them (FlatSpec's `"A Stack" should "pop" in {` is `A Stack should pop`).
 */
function scalaTests(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(SCALA_TEST_LINE)) {
    const [, call, subject, pronoun, verb, title, word] = m;
    if (call !== undefined) names.push(call);
    // FlatSpec's test: a subject, a verb, a title, then `in` (or `ignore`).
    else if (verb) {
      if (word === "in" || word === "ignore") names.push(`${subject ?? pronoun} ${verb} ${title}`);
    } // WordSpec's and FreeSpec's suite or test, titled by its one string.
    else if (subject !== undefined) names.push(subject);
  }
  return names;
}

const R_FUNCTION = /^[ \t]*([A-Za-z.][\w.]*|`[^`\n]+`)[ \t]*(<<?-|=)[ \t]*function[ \t]*\(/gm;

/** A call whose named arguments are a value's members: `list(add = function(x) ...)`, R6's. */
const R_MEMBER_CALL = /(?:^|[^\w.])(?:list|R6Class|setRefClass|structure|modifyList|env)[ \t]*$/;

/**
 * R's functions: `name <- function(` and `name = function(`, but not a named argument of a call
 * (`tryCatch(f(), error = function(e) ...)`, `lapply(x, FUN = function(v) ...)`: dplyr's
 * `filter.R` listed `error` and `warning`), unless the call lists a value's members (`list(`,
 * R6's `public = list(`). One pass over the text, which tracks the calls open at each match
 * (strings and comments skipped).
 */
function rFunctions(text: string): string[] {
  const names: string[] = [];
  const open: boolean[] = []; // for each `(` or `[` open: whether its call lists members
  let at = 0;
  for (const m of text.matchAll(R_FUNCTION)) {
    for (; at < m.index!; at++) {
      const c = text[at];
      if (c === "#") at = lineEnd(text, at) - 1;
      else if (c === '"' || c === "'" || c === "`") at = quoteEnd(text, at, c) - 1;
      else if (c === "(" || c === "[") {
        open.push(c === "(" && R_MEMBER_CALL.test(lineBefore(text, at)));
      } else if (c === ")" || c === "]") open.pop();
    }
    if (m[2] !== "=" || !open.length || open[open.length - 1]) names.push(m[1]);
  }
  return names;
}

/** Where the line holding `at` ends (its line break, or the text's end). */
function lineEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end < 0 ? text.length : end;
}

/** Where a quoted string opened at `at` ends (after its closing quote; a backslash escapes). */
function quoteEnd(text: string, at: number, quote: string): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i + 1;
  }
  return text.length;
}

/** The text of the line before `at`, at most 80 characters of it. */
function lineBefore(text: string, at: number): string {
  const start = Math.max(text.lastIndexOf("\n", at - 1) + 1, at - 80);
  return text.slice(start, at);
}

/**
 * R's functions (`name <- function(`), classes (S4, reference, R6), the packages it loads and the
 * tests a testthat file names (`test_that("pull() extracts a column", {`).
 */
const R: Patterns = [
  ["functions", rFunctions],
  [
    "classes",
    /^[ \t]*(?:[A-Za-z.][\w.]*[ \t]*(?:<<?-|=)[ \t]*)?(?:setClass|setRefClass|R6Class)\([ \t]*["']([\w.]+)["']/gm,
  ],
  [
    "libraries",
    /^[ \t]*(?:library|require|requireNamespace)\([ \t]*["']?([A-Za-z][\w.]*)/gm,
  ],
  ["tests", /^[ \t]*test_that\([ \t]*(?:"([^"\n]{1,300})"|'([^'\n]{1,300})')/gm],
];

/** Perl's packages, subs and the modules it uses (`use strict;`, a pragma, is left out). */
const PERL: Patterns = [
  ["packages", /^[ \t]*package[ \t]+([A-Za-z_][\w:]*)/gm],
  ["subs", /^[ \t]*sub[ \t]+([A-Za-z_][\w:]*)/gm],
  ["uses", /^[ \t]*(?:use|require)[ \t]+([A-Z][\w]*(?:::\w+)*)/gm],
];

/**
 * A Perl test script's (`.t`) names: Perl's, its `subtest`s (Test::More) and the blocks of a
 * data-driven suite after `__DATA__` (Test::Nginx's and Test::Base's `=== TEST 1: name`).
 */
const PERL_TEST: Patterns = [
  ...PERL,
  ["subtests", /^[ \t]*subtest[ \t]+(?:"([^"\n]{1,300})"|'([^'\n]{1,300})')/gm],
  ["tests", /^===[ \t]+([^\r\n]{1,300}?)[ \t]*\r?$/gm],
];
/** A `.t` file is Perl's test when it reads as Perl (a `#!` naming perl, `use`, `my`, `sub`). */
const PERL_TEST_WORDS =
  /^(?:#!.*\bperl|[ \t]*(?:use[ \t]+(?:strict|warnings|v?5|lib|Test::|[A-Z]\w*(?:::\w+)*)\b|my[ \t]+[$@%(]|sub[ \t]+\w))/m;

/**
 * Prolog's words in a `.pl` file, which is Perl's extension too: a directive (`:- module(`,
 * `:- use_module(`) or a rule (`head :-`, a grammar rule's `-->`) at a line's start, in a text
 * with none of Perl's (`use strict`, `sub name`, `my $x`, a `#!` line naming perl).
 */
const PROLOG_WORDS =
  /^(?::-[ \t]*(?:module|use_module|ensure_loaded|dynamic|discontiguous|initialization)\b|[a-z]\w*(?:\([^\n]*\))?[ \t]*(?::-|-->))/m;
const PERL_WORDS =
  /^[ \t]*(?:use[ \t]+(?:strict|warnings|v?5)\b|package[ \t]+\w|sub[ \t]+\w|my[ \t]+[$@%(])|^#!.*\bperl/m;

/** Whether a `.pl` text is Prolog (see {@linkcode PROLOG_WORDS}). */
function isProlog(text: string): boolean {
  return PROLOG_WORDS.test(text) && !PERL_WORDS.test(text);
}

/**
 * A text with its `/* ... *\/` comments blanked, line breaks kept, in one scan (an unclosed one
 * runs to the text's end).
 */
function withoutBlockComments(text: string): string {
  const parts: string[] = [];
  let at = 0;
  for (let open = text.indexOf("/*"); open >= 0; open = text.indexOf("/*", at)) {
    const close = text.indexOf("*/", open + 2);
    const end = close < 0 ? text.length : close + 2;
    parts.push(text.slice(at, open), text.slice(open, end).replace(/[^\n]/g, " "));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * Prolog's predicates: the names of the clauses at a line's start (`member(X, [X|_]).`,
 * `main :- ...`, a grammar rule's `greeting --> ...`), outside block comments (a licence's lines).
 */
function prologPredicates(text: string): string[] {
  const code = withoutBlockComments(text);
  return [...code.matchAll(/^([a-z]\w*)(?=\(|[ \t]*(?::-|-->|\.))/gm)].map((m) => m[1]);
}

/** Prolog's module, predicates and the modules it uses (`:- use_module(library(lists))`). */
const PROLOG: Patterns = [
  ["module", /^:-[ \t]*module\([ \t]*([a-z]\w*)/gm],
  ["predicates", prologPredicates],
  ["uses", /^:-[ \t]*use_module\([ \t]*(?:library\([ \t]*)?([a-z][\w/]*)/gm],
];

/** A MATLAB file's words: a line that opens a function or a class. */
const MATLAB_WORDS = /^[ \t]*(?:function|classdef)\b/m;

/** MATLAB's functions (`function [a, b] = name(`) and classes (`classdef (Sealed) Name`). */
const MATLAB: Patterns = [
  ["classes", /^[ \t]*classdef[ \t]*(?:\([^)\n]*\)[ \t]*)?([A-Za-z_]\w*)/gm],
  [
    "functions",
    /^[ \t]*function[ \t]+(?:(?:\[[^\]\n]*\]|[A-Za-z_]\w*)[ \t]*=[ \t]*)?([A-Za-z_][\w.]*)/gm,
  ],
];

/** Emacs Lisp's definitions by their forms, and the features it requires and provides. */
const EMACS_LISP: Patterns = [
  [
    "functions",
    /^[ \t]*\((?:cl-)?(?:defun|defmacro|defsubst|defgeneric|defmethod|define-minor-mode|define-derived-mode|define-globalized-minor-mode|transient-define-prefix|transient-define-suffix|transient-define-argument)\*?[ \t]+([^\s()]+)/gm,
  ],
  [
    "variables",
    /^[ \t]*\((?:defvar|defvar-local|defcustom|defconst|defface|defgroup)[ \t]+([^\s()]+)/gm,
  ],
  ["requires", /^[ \t]*\(require[ \t]+'([^\s()]+)/gm],
  ["provides", /^[ \t]*\(provide[ \t]+'([^\s()]+)/gm],
];

/** Vim script's functions (legacy and Vim9), user commands and autocommand groups. */
const VIM_SCRIPT: Patterns = [
  ["functions", /^[ \t]*(?:function|func|fun|fu|def)!?[ \t]+([\w:#<>.]+)/gm],
  ["commands", /^[ \t]*com(?:mand)?!?[ \t]+(?:-[^\s]+[ \t]+)*([A-Z]\w*)/gm],
  ["augroups", /^[ \t]*aug(?:roup)?!?[ \t]+(?!END\b)([^\s|]+)/gim],
];

/** Pascal's and Delphi's units, types (`TCart = class(`) and routines, in any case. */
const PASCAL: Patterns = [
  ["unit", /^[ \t]*(?:unit|program|library|package)[ \t]+([A-Za-z_][\w.]*)/gim],
  [
    "types",
    /^[ \t]*([A-Za-z_]\w*)(?:<[^>\n]*>)?[ \t]*=[ \t]*(?:packed[ \t]+)?(?:class|record|interface|object|dispinterface)\b(?![ \t]*(?:of\b|;))/gim,
  ],
  [
    "routines",
    /^[ \t]*(?:class[ \t]+)?(?:procedure|function|constructor|destructor|operator)[ \t]+([A-Za-z_][\w.]*)/gim,
  ],
];

/**
 * Whether a `.pp` file is a Puppet manifest (its classes, defined types, nodes and resources
 * open lines in lower case with `::` paths; a module's type alias names a capitalised `::` path:
 * `type Postgresql::Pg_hba_rule = Struct[…]`), not Pascal, which names its units and routines.
 */
const PUPPET_WORDS =
  /^[ \t]*(?:(?:class|define|node|function|plan)[ \t]+['"]?[a-z][\w:.-]*|(?:include|contain)[ \t]+(?:::)?[a-z]\w*|[a-z][\w:]*[ \t]*\{[ \t]*['"$]|type[ \t]+[A-Z]\w*(?:::[A-Z]\w*)+[ \t]*=)/m;

/**
 * Pascal's own words at a line's start, none of which a Puppet manifest holds (it has braces, not
 * `begin` and `end;`): a unit's, program's or library's header, `interface` or `implementation`,
 * a procedure, or a block's `begin` or `end;` alone. FreePascal's units are `.pp` files, often in
 * lower case, where `function max(…)` opens a line as a Puppet function's does.
 */
const PASCAL_WORDS =
  /^[ \t]*(?:(?:unit|program|library)[ \t]+[\w.]+[ \t]*;|(?:interface|implementation|begin)[ \t]*$|procedure[ \t]+\w|end[;.][ \t]*$)/im;

/**
 * A Puppet manifest's classes, defined types, nodes, functions and plans, the classes it includes
 * and the kinds of resource it declares (`package { 'nginx':` is a `package`).
 */
const PUPPET: Patterns = [
  ["classes", /^[ \t]*class[ \t]+((?:::)?[a-z][\w:]*)/gm],
  ["defined types", /^[ \t]*define[ \t]+((?:::)?[a-z][\w:]*)/gm],
  ["nodes", /^[ \t]*node[ \t]+(['"][^'"\n]+['"]|[\w.-]+)/gm],
  ["functions", /^[ \t]*(?:function|plan)[ \t]+((?:::)?[a-z][\w:]*)/gm],
  // a type alias of a module's (`type Postgresql::Pg_hba_rule = Struct[{…}]`)
  ["types", /^[ \t]*type[ \t]+([A-Z]\w*(?:::[A-Z]\w*)+)[ \t]*=/gm],
  [
    "includes",
    /^[ \t]*(?:include|contain|require)[ \t]+(?:['"])?((?:::)?[a-z][\w:]*)/gm,
  ],
  ["resources", /^[ \t]*(@{0,2}(?:::)?[a-z][\w:]*)[ \t]*\{[ \t]*['"$\[]/gm],
];

/** GDScript's class name, base, inner classes, signals and functions. */
const GDSCRIPT: Patterns = [
  ["class_name", /^class_name[ \t]+([A-Za-z_]\w*)/gm],
  ["extends", /^extends[ \t]+([^\s#]+)/gm],
  ["classes", /^[ \t]*class[ \t]+([A-Za-z_]\w*)/gm],
  ["signals", /^[ \t]*signal[ \t]+([A-Za-z_]\w*)/gm],
  ["functions", /^[ \t]*(?:static[ \t]+)?func[ \t]+([A-Za-z_]\w*)/gm],
];

/** SQL's tables and views, and its functions, procedures and triggers, in any case. */
const SQL_NAME =
  '((?:[\\w$]+|"[^"\\n]+"|`[^`\\n]+`|\\[[^\\]\\n]+\\])(?:\\.(?:[\\w$]+|"[^"\\n]+"|`[^`\\n]+`|\\[[^\\]\\n]+\\]))*)';
const SQL: Patterns = [
  [
    "tables",
    new RegExp(
      `^[ \\t]*create[ \\t]+(?:or[ \\t]+replace[ \\t]+)?(?:(?:global[ \\t]+|local[ \\t]+)?temp(?:orary)?[ \\t]+|unlogged[ \\t]+|materialized[ \\t]+)?(?:table|view)[ \\t]+(?:if[ \\t]+not[ \\t]+exists[ \\t]+)?${SQL_NAME}`,
      "gim",
    ),
  ],
  [
    "routines",
    new RegExp(
      `^[ \\t]*create[ \\t]+(?:or[ \\t]+replace[ \\t]+)?(?:definer[ \\t]*=[ \\t]*[^\\s]+[ \\t]+)?(?:function|procedure|trigger)[ \\t]+(?:if[ \\t]+not[ \\t]+exists[ \\t]+)?${SQL_NAME}`,
      "gim",
    ),
  ],
];

/** A Julia function or macro written with its keyword (`function f(x)`, `macro m(ex)`). */
const JULIA_FUNCTION = /^[ \t]*(?:@\w+[ \t]+)*(?:function|macro)[ \t]+([A-Za-z_][\w.!]*)/gm;

/**
 * A Julia method written as an assignment at the line's start (`nrow(df::DataFrame) = size(df, 1)`,
 * `Base.show(io::IO, x::T) where {T} = …`): after its last `)` no parenthesis comes before the
 * `=`, so each line is read once.
 */
const JULIA_SHORT_FUNCTION =
  /^(?:@\w+[ \t]+)*([A-Za-z_][\w.!]*)(?:\{[^}\n]*\})?\([^=\n]*\)[ \t]*(?:(?:where|::)[^=()\n]*)?=(?!=)/gm;

/** Julia's functions in the order they are written, in either form. */
function juliaFunctions(text: string): string[] {
  const found = [...text.matchAll(JULIA_FUNCTION), ...text.matchAll(JULIA_SHORT_FUNCTION)];
  return found.sort((a, b) => a.index - b.index).map((m) => m[1]);
}

/** Julia's modules, types, functions (both forms), what it uses and imports, and its test sets. */
const JULIA: Patterns = [
  ["modules", /^[ \t]*(?:bare)?module[ \t]+([A-Za-z_]\w*)/gm],
  [
    "types",
    /^[ \t]*(?:(?:mutable|abstract|primitive)[ \t]+)?(?:struct|type)[ \t]+([A-Za-z_]\w*)/gm,
  ],
  ["functions", juliaFunctions],
  ["imports", /^[ \t]*(?:using|import)[ \t]+([A-Za-z_][\w.]*)/gm],
  // A test file's named test sets (`@testset "joins" begin`, `@testset verbose = true "joins"`).
  [
    "tests",
    /^[ \t]*@testset[ \t]+(?:[\w.]+[ \t]*=[ \t]*[\w.]+[ \t]+)*"([^"\n]{1,300})"/gm,
  ],
];

const KOTLIN_MODIFIERS =
  "(?:(?:public|private|protected|internal|open|abstract|sealed|final|data|inner|value|annotation|enum|override|suspend|inline|operator|infix|tailrec|external|actual|expect|companion|fun(?=[ \\t]+interface)|@[\\w.:]+(?:\\([^)\\n]*\\))?)[ \\t]+)*";
const KOTLIN: Patterns = [
  ["package", /^package[ \t]+([\w.]+)/gm],
  [
    "types",
    new RegExp(
      `^[ \\t]*${KOTLIN_MODIFIERS}(?:class|interface|object|typealias)[ \\t]+([A-Za-z_]\\w*)`,
      "gm",
    ),
  ],
  [
    "functions",
    new RegExp(
      `^[ \\t]*${KOTLIN_MODIFIERS}fun[ \\t]+(?:<[^>\\n]*>[ \\t]*)?((?:[\\w.]+\\.)?(?:[A-Za-z_]\\w*|\`[^\`\\n]{1,300}\`))[ \\t]*\\(`,
      "gm",
    ),
  ],
  // A file's own properties (at the line's start: a class's are indented), `val String.size` too.
  [
    "properties",
    new RegExp(
      `^${KOTLIN_MODIFIERS}(?:(?:const|lateinit)[ \\t]+)?(?:val|var)[ \\t]+(?:<[^>\\n]*>[ \\t]*)?((?:[\\w.]+\\.)?[A-Za-z_]\\w*)`,
      "gm",
    ),
  ],
  ["imports", /^import[ \t]+([\w.*]+)/gm],
];

const LUA: Patterns = [
  // LuaLS's annotations: what a plugin's types file (`---@class LazyPlugin: Base`) declares.
  ["types", /^---[ \t]?@(?:class|alias|enum)[ \t]+(?:\([\w \t]{0,20}\)[ \t]*)?([\w.]+)/gm],
  ["functions", /^[ \t]*(?:local[ \t]+)?function[ \t]+([\w.:]+)/gm],
  ["function values", /^[ \t]*(?:local[ \t]+)?([\w.]+)[ \t]*=[ \t]*function\b/gm],
  // `[ \t]*(?:\([ \t]*)?`: blanks with no `(` between them split one way only (linear in them).
  ["requires", /\brequire[ \t]*(?:\([ \t]*)?["']([^"'\n]+)["']/gm],
  // busted's (and plenary.nvim's) suites and tests: `describe("cache", function()`, `it("adds"`.
  [
    "tests",
    /^[ \t]*(?:\w+\.)?(?:describe|context|insulate|expose|it|pending|spec|test)[ \t]*\([ \t]*(?:"([^"\n]{1,300})"|'([^'\n]{1,300})')/gm,
  ],
];

const ELIXIR: Patterns = [
  ["modules", /^[ \t]*def(?:module|protocol)[ \t]+([A-Z][\w.]*)/gm],
  ["implementations", /^[ \t]*defimpl[ \t]+([A-Z][\w.]*)/gm],
  ["functions", /^[ \t]*def(?:macro|guard|delegate)?[ \t]+([a-z_]\w*[?!]?)/gm],
  ["private functions", /^[ \t]*def(?:p|macrop|guardp)[ \t]+([a-z_]\w*[?!]?)/gm],
  ["uses", /^[ \t]*(?:use|import|alias|require)[ \t]+([A-Z][\w.]*)/gm],
  // An ExUnit file's tests (StreamData's properties too) and the groups they are described in.
  ["tests", /^[ \t]*(?:test|describe|property)[ \t]+"([^"\n]{1,300})"/gm],
];

/**
 * Dart's types, functions (a parameter list opens with no string, number or `(`, and the `)`
 * before the body closes it, its parentheses nested once at most: a call such as `test('reads',
 * () {`, `expect(() => f(), throws)` or `expect(xs.map((e) {` is none, nor a constructor's
 * `super(…) {` or `this(…)` at the end of its initializer list, nor `if(…) {`), top-level variables,
 * imports and a test file's tests.
 */
const DART: Patterns = [
  [
    "types",
    /^[ \t]*(?:(?:abstract|sealed|base|final|interface|mixin)[ \t]+)*(?:class|mixin|enum|extension(?:[ \t]+type)?|typedef)[ \t]+([A-Za-z_$][\w$]*)/gm,
  ],
  [
    "functions",
    /^[ \t]*(?:(?:static|external|factory|@override)[ \t]+)*(?:[\w$]+(?:<[^>\n]*>)?\??[ \t]+)?(?:get[ \t]+|set[ \t]+)?(?!(?:super|this|if|for|while|switch|catch|return|assert|await|yield)\()([a-z_$][\w$]*)(?:<[^>\n]*>)?\((?![ \t]*['"(\d!-])(?:[^();\n]|\([^()\n]*\))*\)[ \t]*(?:async\*?[ \t]*|sync\*[ \t]*)?(?:\{|=>)/gm,
  ],
  // A library's own variables and constants (at the line's start: a class's fields are indented).
  [
    "variables",
    /^(?:(?:external|late|const|final|var)[ \t]+)+(?:[\w$.]+(?:<[^>\n]*>)?\??[ \t]+)?([A-Za-z_$][\w$]*)[ \t]*[=;]/gm,
  ],
  ["imports", /^(?:import|export|part)[ \t]+['"]([^'"\n]+)['"]/gm],
  // A test file's tests and groups (`test('reads a value', () {`).
  [
    "tests",
    /^[ \t]*(?:test|testWidgets|group)\([ \t]*(?:'([^'\n]{1,300})'|"([^"\n]{1,300})")/gm,
  ],
];

/**
 * A Haskell top-level function or value: a name (or an operator in parentheses) at the line's
 * start with its type signature (`f ::`), or its equation with no signature (`f x = …`,
 * `f x | x > 0 = …`, `(!!!) xs i =`, or `f x` with its first guard on the next line). Keywords
 * that open a line are no names.
 */
const HASKELL_DEFINITION =
  /^(?!(?:import|module|data|type|class|instance|newtype|deriving|where|infix[lr]?|foreign|default|pattern|let|in|if|then|else|case|of|do)\b)([a-z_][\w']*|\([^\s\w()]+\))(?:[ \t]*::|(?:[ \t][^\n=|]*)?(?:=(?!=)|\|(?!\|)|\n[ \t]+\|(?!\|)))/gm;

/**
 * An infix definition's operator after its left operand (`a <> b = …`, ``a `plus` b = …``): the
 * function it defines is the operator, not the operand.
 */
const HASKELL_INFIX = /^[a-z_][\w']*[ \t]+([!#$%&*+./<=>?@\\^|~:-]+|`[\w']+`)[ \t]/;

/**
 * The names {@link HASKELL_DEFINITION} finds (the summary reads the text with its comments taken
 * out); an infix definition by its operator (`(<>)`, `plus`).
 */
function haskellFunctions(text: string): string[] {
  return [...text.matchAll(HASKELL_DEFINITION)].map((m) => {
    // Read on the line, past what the pattern took: it may end in the operator (`a |-- b = …`
    // is taken as far as `a |`, a guard's bar).
    const infix = HASKELL_INFIX.exec(text.slice(m.index, m.index + m[0].length + 64));
    const op = infix?.[1];
    if (!op || op === "=" || op === "|" || op === "::") return m[1];
    return op.startsWith("`") ? op.slice(1, -1) : `(${op})`;
  });
}

const HASKELL: Patterns = [
  ["module", /^module[ \t]+([\w.]+)/gm],
  [
    "types",
    // A context starts with no blank, so the blanks before it are read one way (linear in them).
    /^(?:data|newtype|type(?:[ \t]+family)?|class)[ \t]+(?:[^\s=][^=\n]*=>[ \t]*)?([A-Z][\w']*)/gm,
  ],
  [
    "instances",
    /^instance[ \t]+(?:[^\s=][^=\n]*=>[ \t]*)?([^\s=](?:[^\n=]*?[^\s=])?)[ \t]+where\b/gm,
  ],
  ["functions", haskellFunctions],
  ["imports", /^import[ \t]+(?:qualified[ \t]+)?([\w.]+)/gm],
];

const ZIG: Patterns = [
  [
    "types",
    /^[ \t]*(?:pub[ \t]+)?const[ \t]+([A-Za-z_]\w*)[ \t]*=[ \t]*(?:extern[ \t]+|packed[ \t]+)?(?:struct|enum|union|opaque|error)\b/gm,
  ],
  [
    "functions",
    /^[ \t]*(?:pub[ \t]+)?(?:export[ \t]+|extern[ \t]+(?:"[^"\n]*"[ \t]+)?|inline[ \t]+)?fn[ \t]+([A-Za-z_]\w*)/gm,
  ],
  ["tests", /^[ \t]*test[ \t]+"([^"\n]*)"/gm],
  ["imports", /@import\("([^"\n]+)"\)/gm],
];

/** Terraform's `resource "aws_vpc" "this"` as `aws_vpc.this` (and `data.` for a data source). */
function terraformBlocks(kind: "resource" | "data"): (text: string) => string[] {
  const pattern = new RegExp(`^${kind}[ \\t]+"([^"\\n]+)"[ \\t]+"([^"\\n]+)"`, "gm");
  const prefix = kind === "data" ? "data." : "";
  return (text) => [...text.matchAll(pattern)].map((m) => `${prefix}${m[1]}.${m[2]}`);
}

const TERRAFORM: Patterns = [
  ["resources", terraformBlocks("resource")],
  ["data sources", terraformBlocks("data")],
  ["modules", /^module[ \t]+"([^"\n]+)"/gm],
  ["variables", /^variable[ \t]+"([^"\n]+)"/gm],
  ["outputs", /^output[ \t]+"([^"\n]+)"/gm],
  ["providers", /^provider[ \t]+"([^"\n]+)"/gm],
  ["blocks", /^(terraform|locals|moved|import|check)[ \t]*\{/gm],
];

const TFVARS: Patterns = [["settings", /^([A-Za-z_][\w-]*)[ \t]*=/gm]];

/**
 * HCL's blocks by their type and labels joined with `.` (Terragrunt's `include "root"` as
 * `include.root`, Packer's `source "amazon-ebs" "ubuntu"` as `source.amazon-ebs.ubuntu`, Nomad's
 * `job "web"`): those at the margin, or those indented with a label at least (`group "web"`,
 * `provisioner "shell"`; an indented block with none is a setting's, `config {`).
 */
function hclBlocks(indented: boolean): (text: string) => string[] {
  const pattern = indented
    ? /^[ \t]+([A-Za-z_][\w-]*)((?:[ \t]+"[^"\n]*")+)[ \t]*\{/gm
    : /^([A-Za-z_][\w-]*)((?:[ \t]+"[^"\n]*"|[ \t]+[A-Za-z_][\w-]*)*)[ \t]*\{/gm;
  return (text) =>
    [...text.matchAll(pattern)].map((m) =>
      [m[1], ...[...m[2].matchAll(/"([^"\n]*)"|([A-Za-z_][\w-]*)/g)].map((l) => l[1] ?? l[2])]
        .join(".")
    );
}

/** HCL outside Terraform's `.tf`: Terragrunt's, Packer's and Nomad's files, any `.hcl`. */
const HCL: Patterns = [
  ["blocks", hclBlocks(false)],
  ["inner blocks", hclBlocks(true)],
  ["settings", /^([A-Za-z_][\w-]*)[ \t]*=/gm],
];

const STYLES: Patterns = [
  ["imports", /^[ \t]*@(?:import|use|forward)[ \t]+(?:url\()?['"]([^'"\n]+)['"]/gm],
  ["variables", /^[ \t]*[$@]([A-Za-z_][\w-]*)[ \t]*:/gm],
  ["custom properties", /^[ \t]*(--[\w-]+)[ \t]*:/gm],
  ["mixins", /^[ \t]*[@=]mixin[ \t]+([\w-]+)/gm],
  ["functions", /^[ \t]*@function[ \t]+([\w-]+)/gm],
  ["media queries", /^@media[ \t]+([^{\n]*[^{\s])/gm],
  // A rule at the top level: a line at column 0 opening a block (not an at-rule or a comment).
  // Sass's `#{$name}` interpolation is part of a selector, not its block.
  // Read greedily to the `{` (a name's blanks are trimmed): a lazy read followed by `[ \t]*\{`
  // went over a run of blanks again from each of its characters.
  ["selectors", /^([^\s@$/*{}](?:[^{\n#]|#\{[^}\n]*\}|#(?!\{))*)\{/gm],
];

const HELM_TEMPLATE: Patterns = [
  ["defines", /\{\{-?[ \t]*define[ \t]+"([^"\n]+)"/gm],
  ["includes", /\b(?:include|template)[ \t]+"([^"\n]+)"/gm],
];

/** An HTML page's headings (`<h1>` to `<h3>`) as their text, each on one line. */
function htmlHeadings(text: string): string[] {
  return [...text.matchAll(/<h([1-3])\b[^>\n]{0,500}>([^\n]{0,500}?)<\/h\1>/gi)]
    .map((m) => m[2].replace(/<[^>]*>/g, "").replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

// Tags are matched unanchored: what a pattern reads past a tag's start is bounded (500
// characters), so a long line of unclosed tags costs a bounded amount per tag.
const HTML: Patterns = [
  ["title", /<title\b[^>\n]{0,500}>([^<\n]{1,500})<\/title>/gi],
  ["headings", htmlHeadings],
  ["scripts", /<script\b[^>\n]{0,500}?\bsrc=["']([^"'\n]{1,500})["']/gi],
  ["stylesheets", /<link\b[^>\n]{0,500}?\bhref=["']([^"'\n]{1,500}\.css)["']/gi],
];

/**
 * A component's top-level blocks, as they open (`script setup lang="ts"`, `style scoped`): a
 * script is one that {@linkcode componentParts} finds (none inside markup), its whole opening tag
 * (`generic="T extends A<B>"` holds a `>`).
 */
function componentBlocks(text: string): string[] {
  const scripts = new Map(componentParts(text).map((p) => [p.start, p.open?.slice(1, -1)]));
  return [...text.matchAll(/^<(template|script|style)\b([^>\n]*)>/gm)]
    .filter((m) => m[1] !== "script" || scripts.get(m.index))
    .map((m) => (m[1] === "script" ? scripts.get(m.index)! : `${m[1]}${m[2]}`))
    .map((words) => words.replace(/\s+/g, " ").trimEnd());
}

/**
 * The code of a component's script blocks ({@linkcode componentParts}), each without the
 * indentation of its first line below the opening tag (code on the tag's line stays as written).
 */
function componentScripts(text: string): string {
  let out = "";
  for (const part of componentParts(text)) {
    if (part.kind !== "script") continue;
    const block = text.slice(part.codeStart, part.codeEnd);
    const indent = /\n(?:[ \t]*\n)*([ \t]*)/.exec(block)?.[1] ?? "";
    const code = block.replace(/^[ \t]*\n/, "").split("\n")
      .map((l) => indent && l.startsWith(indent) ? l.slice(indent.length) : l).join("\n");
    out += code.endsWith("\n") ? code : `${code}\n`;
  }
  return out;
}

/**
 * Patterns that read `view(text)` as they would read a file's text: a component's scripts, code
 * with its comments or here-documents blanked. Every pattern asks for the view of the same text:
 * the last text's view is kept for the next pattern, so each file's is made once.
 *
 * @example
 * ```ts
 * import { readThrough } from "./_summary_languages.ts";
 * const patterns = readThrough([["words", /\w+/g]], (text) => text.toUpperCase());
 * patterns[0][0]; // "words"
 * ```
 */
export function readThrough(patterns: Patterns, view: (text: string) => string): Patterns {
  const last: { text?: string; view: string } = { view: "" };
  const viewOf = (text: string) => {
    if (last.text !== text) {
      last.view = view(text);
      last.text = text;
    }
    return last.view;
  };
  return patterns.map(([kind, pattern]) => [
    kind,
    (text: string) => namesFound(pattern, viewOf(text)),
  ]);
}

/**
 * The names of a script's own parameters: the `param(…)` block that starts a line at its first
 * column (a function's block is indented, or on the function's line). Each `$name` directly in
 * the block (not in an attribute's or a default's parentheses, not a default after the block's own
 * `=`); strings and `#`
 * comments are skipped. The text after the block's start is read once, up to where it closes.
 */
function powershellParameters(text: string): string[] {
  const start = /^param[ \t]*\(/im.exec(text);
  if (!start) return [];
  const names: string[] = [];
  let depth = 1;
  let afterEquals = false;
  for (let i = start.index + start[0].length; i < text.length && depth > 0; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === "#") {
      const end = text.indexOf("\n", i);
      if (end < 0) break;
      i = end;
    } else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (depth === 1 && c === "=") afterEquals = true;
    else if (depth === 1 && c === ",") afterEquals = false;
    else if (c === "$" && depth === 1 && !afterEquals) {
      const name = /^[A-Za-z_]\w*/.exec(text.slice(i + 1, i + 257))?.[0];
      if (name) names.push(name);
    }
  }
  return names;
}

/**
 * PowerShell's text with its `<# … #>` comments (help text: `… this function instead`) blanked,
 * their line breaks kept; one that never closes runs to the end. Read once from each comment's
 * start to its end.
 */
function powershellCode(text: string): string {
  let code = "";
  let at = 0;
  for (let open = text.indexOf("<#"); open >= 0; open = text.indexOf("<#", at)) {
    const close = text.indexOf("#>", open + 2);
    const end = close < 0 ? text.length : close + 2;
    code += text.slice(at, open) + text.slice(open, end).replace(/[^\n]+/g, "");
    at = end;
  }
  return code + text.slice(at);
}

const POWERSHELL: Patterns = readThrough([
  ["parameters", powershellParameters],
  ["types", /^[ \t]*(?:class|enum)[ \t]+([A-Za-z_]\w*)/gim],
  [
    "functions",
    /^[ \t]*(?:function|filter|workflow)[ \t]+(?:(?:global|script|local|private):)?([A-Za-z_][\w-]*)/gim,
  ],
  [
    "imports",
    /^[ \t]*(?:Import-Module|using[ \t]+module|\.)[ \t]+(?:-Name[ \t]+)?["']?([^\s"';]+)/gim,
  ],
  // Pester's blocks and tests (`Describe "Get-Planet" {`, `Context 'x'`, `It "lists planets"`).
  [
    "tests",
    /^[ \t]*(?:Describe|Context|It)[ \t]+(?:-Name[ \t]+)?(?:"([^"\n]{1,300})"|'([^'\n]{1,300})')/gim,
  ],
], powershellCode);

/** A class's name, and its category's in parentheses: `SHPCart`, `SHPCart (Totals)`, `SHPCart ()`. */
const OBJC_CLASS = "([A-Za-z_]\\w*(?:[ \\t]*\\([ \\t]*\\w*[ \\t]*\\))?)";

/**
 * An Objective-C method's selector with its kind, `-addItem:quantity:` or `+shared`, from a line
 * that declares or defines it: `- (void)addItem:(id)item quantity:(NSInteger)n {`. A return
 * type may hold one level of parentheses (a block's type).
 */
function objcMethods(text: string): string[] {
  const line = /^[ \t]*([-+])[ \t]*\((?:[^()\n]|\([^()\n]*\))*\)[ \t]*([A-Za-z_][^;{\n]*)/gm;
  return [...text.matchAll(line)].map((m) => {
    const selector = m[2] + selectorLines(text, m.index + m[0].length);
    const parts = [
      ...selector.matchAll(
        /([A-Za-z_]\w*)[ \t]*:[ \t]*(?:\((?:[^()\n]|\([^()\n]*\))*\))?[ \t]*\w*/g,
      ),
    ];
    return m[1] + (parts.length ? parts.map((p) => `${p[1]}:`).join("") : /^\w+/.exec(m[2])![0]);
  });
}

/**
 * The lines a selector goes on over, its parts aligned on their colons (`   parameters:(id)p`),
 * from `at`, the end of its first line: at most 2,000 characters are read.
 */
function selectorLines(text: string, at: number): string {
  if (text[at] !== "\n") return "";
  const window = text.slice(at, at + 2000);
  return /^(?:\n[ \t]+[A-Za-z_]\w*[ \t]*:[^;{\n]*)*/.exec(window)![0];
}

const OBJC: Patterns = [
  ["protocols", /^[ \t]*@protocol[ \t]+([A-Za-z_]\w*)\b(?![ \t]*[;,])/gm],
  ["interfaces", new RegExp(`^[ \\t]*@interface[ \\t]+${OBJC_CLASS}`, "gm")],
  ["implementations", new RegExp(`^[ \\t]*@implementation[ \\t]+${OBJC_CLASS}`, "gm")],
  ["methods", objcMethods],
  [
    "imports",
    /^[ \t]*(?:#[ \t]*(?:import|include)[ \t]*[<"]([^>"\n]+)[>"]|@import[ \t]+([\w.]+))/gm,
  ],
];

/** A here-document's start, `<<EOF`, `<<-'END'`, `<< "X"`: group 1 `-`, group 3 its word. */
const HEREDOC = /<<(-?)[ \t]*(["']?)([A-Za-z_][\w.-]*)\2/g;

/**
 * A shell script's text with its here-documents' bodies blanked (their line breaks kept): a
 * body is data (a Python server's `self.end_headers()`, a generated script's functions), not the
 * script's code. A body ends at a line of its word alone (after tabs, for `<<-`); one that never
 * ends runs to the end. Each body is read once, and the search goes on after it.
 */
function shellCode(text: string): string {
  let code = "";
  let at = 0;
  HEREDOC.lastIndex = 0;
  for (let m = HEREDOC.exec(text); m; m = HEREDOC.exec(text)) {
    // A shift in arithmetic, `$((1 << n))`, starts no here-document.
    const before = text.slice(Math.max(at, m.index - 200), m.index);
    if (before.slice(before.lastIndexOf("\n") + 1).includes("((")) continue;
    const bodyStart = text.indexOf("\n", HEREDOC.lastIndex);
    if (bodyStart < 0) break;
    const word = m[3].replace(/[.-]/g, "\\$&");
    const end = new RegExp(`^${m[1] ? "\\t*" : ""}${word}$`, "gm");
    end.lastIndex = bodyStart + 1;
    const found = end.exec(text);
    const bodyEnd = found ? found.index : text.length;
    code += text.slice(at, bodyStart + 1) +
      text.slice(bodyStart + 1, bodyEnd).replace(/[^\n]+/g, "");
    at = bodyEnd;
    HEREDOC.lastIndex = found ? bodyEnd + found[0].length : text.length;
  }
  code += text.slice(at);
  return code;
}

// A function's name holds no `.` here: `sys.stdout.close()` on a line of its own is a call of
// another language's code, and bash's names with dots are rare.
const SHELL: Patterns = readThrough([
  [
    "functions",
    /^[ \t]*(?:function[ \t]+([A-Za-z_][\w:-]*)|([A-Za-z_][\w:-]*)[ \t]*\([ \t]*\))/gm,
  ],
  ["sources", /^[ \t]*(?:source|\.)[ \t]+["']?([^\s"';|&]+)/gm],
], shellCode);

/** A Bats file's: the shell's names, its tests' titles (`@test "adds one" {`) and `load`s. */
const BATS: Patterns = [
  ...SHELL,
  [
    "tests",
    /^[ \t]*@test[ \t]+(?:"((?:[^"\\\n]|\\.){1,300})"|'([^'\n]{1,300})'|([^\s{][^\n{]{0,299}?))[ \t]+\{/gm,
  ],
  ["loads", /^[ \t]*(?:load|bats_load_library)[ \t]+["']?([^\s"';|&]+)/gm],
];

/** The languages of {@linkcode moreSummaryLanguages} read by this file's patterns alone. */
const BY_PATTERNS_ONLY: Record<string, SummaryLanguage> = {
  ".swift": { label: "Swift", patterns: SWIFT },
  ".cs": { label: "C#", patterns: CSHARP },
  ".r": { label: "R", patterns: R },
  // A `.t` file is a Perl test script when it reads as Perl, else text.
  ".t": {
    label: "Perl test",
    patterns: PERL_TEST,
    only: (text: string) => PERL_TEST_WORDS.test(text),
  },
  // A `.pl` file is Prolog or Perl, by its words.
  ".pl": {
    label: "Prolog",
    patterns: PROLOG,
    only: isProlog,
    otherwise: { label: "Perl", patterns: PERL },
  },
  ".pm": { label: "Perl module", patterns: PERL },
  ".el": { label: "Emacs Lisp", patterns: EMACS_LISP },
  ".vim": { label: "Vim script", patterns: VIM_SCRIPT },
  ".pas": { label: "Pascal", patterns: PASCAL },
  // A `.pp` file is a Puppet manifest or Pascal, by its words.
  ".pp": {
    label: "Puppet",
    patterns: PUPPET,
    only: (text: string) => PUPPET_WORDS.test(text) && !PASCAL_WORDS.test(text),
    otherwise: { label: "Pascal", patterns: PASCAL },
  },
  ".dpr": { label: "Delphi program", patterns: PASCAL },
  ".lpr": { label: "Pascal program", patterns: PASCAL },
  ".gd": { label: "GDScript", patterns: GDSCRIPT },
  ".sql": { label: "SQL", patterns: SQL },
  ".jl": { label: "Julia", patterns: JULIA },
  ".scala": { label: "Scala", patterns: SCALA },
  // A script of statements alone (a build script) is shown by its first lines.
  ".sc": { label: "Scala script", patterns: SCALA, orHead: true },
  // An sbt build (`build.sbt`) is Scala expressions, most of them settings.
  ".sbt": { label: "sbt build", patterns: SCALA, orHead: true },
  ".kt": { label: "Kotlin", patterns: KOTLIN },
  ".kts": { label: "Kotlin script", patterns: KOTLIN, orHead: true },
  ".lua": { label: "Lua", patterns: LUA },
  ".ex": { label: "Elixir", patterns: ELIXIR },
  ".exs": { label: "Elixir script", patterns: ELIXIR, orHead: true },
  ".dart": { label: "Dart", patterns: DART },
  ".hs": { label: "Haskell", patterns: HASKELL },
  ".zig": { label: "Zig", patterns: ZIG },
  ".tf": { label: "Terraform", patterns: TERRAFORM },
  ".tfvars": { label: "Terraform variables", patterns: TFVARS },
  // (`summaryExt` names Terragrunt's, Packer's and Nomad's files by their tools)
  ".hcl": { label: "HCL", patterns: HCL },
  ".terragrunt.hcl": { label: "Terragrunt", patterns: HCL },
  ".pkr.hcl": { label: "Packer template", patterns: HCL },
  ".nomad.hcl": { label: "Nomad job", patterns: HCL },
  ".nomad": { label: "Nomad job", patterns: HCL },
};

/**
 * The summary languages this file adds, by extension; `js` are the JavaScript patterns, which a
 * Vue or Svelte component's script is read by, and `c` the C patterns, which a `.h` file without
 * Objective-C's words is read by.
 *
 * @example
 * ```ts
 * import { moreSummaryLanguages } from "./_summary_languages.ts";
 * moreSummaryLanguages([], [])[".swift"].label; // "Swift"
 * ```
 */
export function moreSummaryLanguages(js: Patterns, c: Patterns): Record<string, SummaryLanguage> {
  const component = [["blocks", componentBlocks], ...readThrough(js, componentScripts)] as Patterns;
  const cHeader = { label: "C header", patterns: c };
  // A `.m` file that is not Objective-C is MATLAB's when it opens a function or a class (else
  // Mathematica's, Mercury's, a script: text).
  const matlab = {
    label: "MATLAB",
    patterns: MATLAB,
    only: (text: string) => MATLAB_WORDS.test(text),
  };
  return {
    ".h": { label: "Objective-C header", patterns: OBJC, only: isObjectiveC, otherwise: cHeader },
    ...BY_PATTERNS_ONLY,
    ".vue": { label: "Vue component", patterns: component },
    ".svelte": { label: "Svelte component", patterns: component },
    ".css": { label: "CSS", patterns: STYLES },
    ".scss": { label: "SCSS", patterns: STYLES },
    ".sass": { label: "Sass", patterns: STYLES },
    ".less": { label: "Less", patterns: STYLES },
    ".tpl": { label: "Template", patterns: HELM_TEMPLATE },
    ".html": { label: "HTML", patterns: HTML },
    ".htm": { label: "HTML", patterns: HTML },
    ".ps1": { label: "PowerShell", patterns: POWERSHELL, orHead: true },
    ".psm1": { label: "PowerShell module", patterns: POWERSHELL, orHead: true },
    ".m": { label: "Objective-C", patterns: OBJC, only: isObjectiveC, otherwise: matlab },
    ".mm": { label: "Objective-C++", patterns: OBJC },
    ".sh": { label: "Shell", patterns: SHELL, orHead: true },
    ".bash": { label: "Shell", patterns: SHELL, orHead: true },
    ".bats": { label: "Bats", patterns: BATS, orHead: true },
    ".zsh": { label: "Shell", patterns: SHELL, orHead: true },
    ".ksh": { label: "Shell", patterns: SHELL, orHead: true },
  };
}
