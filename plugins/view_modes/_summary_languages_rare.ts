/**
 * More `summary` patterns, for languages slop has no grammar of and whose files were shown as
 * text (their first lines, most often a license comment): OCaml, F#, Erlang, Clojure, Fortran,
 * COBOL, assembly, Protocol Buffers, Groovy (Gradle build scripts too), LaTeX, BibTeX, Makefiles
 * and Dockerfiles; and templates (EEx and
 * HEEx, ERB, Jinja, Django, Twig, Nunjucks, Handlebars, Liquid), read as HTML pages with their
 * own blocks, the templates they extend or include, and the components they use.
 *
 * As in `_summary_languages.ts`, every pattern reads one line at most from where it starts
 * (blanks are `[ \t]`, no part matches a line break), so each pass over a file is linear.
 *
 * @module
 */

import type { Patterns, SummaryLanguage } from "./_summary_languages.ts";

/**
 * OCaml's modules, types, top-level values (`let` at the line's start: a nested `let` is
 * indented), signatures' `val`s, exceptions and opened modules.
 */
const OCAML: Patterns = [
  ["modules", /^[ \t]*module[ \t]+(?:type[ \t]+|rec[ \t]+)?([A-Z][\w']*)/gm],
  [
    "types",
    /^[ \t]*type[ \t]+(?:nonrec[ \t]+)?(?:(?:'\w+|\([^)\n]*\))[ \t]+)?([a-z][\w']*|_[\w']+)/gm,
  ],
  ["values", /^(?:let|and)[ \t]+(?:rec[ \t]+)?([a-z][\w']*|_[\w']+|\([^)\n]+\))/gm],
  ["signatures", /^[ \t]*(?:val|external)[ \t]+([a-z][\w']*|_[\w']+|\([^)\n]+\))/gm],
  ["exceptions", /^[ \t]*exception[ \t]+([A-Z][\w']*)/gm],
  ["opens", /^[ \t]*open!?[ \t]+([A-Z][\w.']*)/gm],
];

/** A name in double backticks (``` ``returns 404 for a missing route`` ```), most often a test's. */
const FSHARP_QUOTED = "``[^`\\n]{1,300}``";
const FSHARP_ACCESS = "(?:(?:private|public|internal|inline|rec|mutable)[ \\t]+)*";
/** A `let` line: its indentation, its name. */
const FSHARP_LET = new RegExp(
  `^[ \\t]*let[ \\t]+${FSHARP_ACCESS}([A-Za-z_][\\w']*|\\([^)\\n]+\\)|${FSHARP_QUOTED})`,
);

/** A line that opens a module of its own lines below it: `module Helpers =`. */
const FSHARP_MODULE_BLOCK = /^[ \t]*module\b[^=\n]*=[ \t]*$/;

/**
 * The names of F#'s `let`s of a module: at the file's top level or right in a `module X =` block,
 * not in the body of a function, a test or a type (a line's block is the last line above it that
 * is less indented). One pass over the lines, with the blocks open at the line.
 */
function fsharpLets(text: string): string[] {
  const names: string[] = [];
  const blocks: Array<{ indent: number; module: boolean }> = [];
  for (const line of text.split("\n")) {
    const indent = /^[ \t]*/.exec(line)![0].length;
    if (indent === line.length || line.startsWith("//", indent) || line.startsWith("(*", indent)) {
      continue;
    }
    while (blocks.length && blocks[blocks.length - 1].indent >= indent) blocks.pop();
    const inModule = !blocks.length || blocks[blocks.length - 1].module;
    const name = inModule ? FSHARP_LET.exec(line)?.[1] : undefined;
    if (name) names.push(name);
    blocks.push({ indent, module: FSHARP_MODULE_BLOCK.test(line) });
  }
  return names;
}

/** F#'s namespaces and modules, types, `let`s of a module and members. */
const FSHARP: Patterns = [
  [
    "modules",
    /^[ \t]*(?:namespace|module)[ \t]+(?:rec[ \t]+)?(?:(?:private|public|internal)[ \t]+)?([A-Za-z_][\w.]*)/gm,
  ],
  [
    "types",
    /^[ \t]*(?:\[<[^\n>]*>\][ \t]*)?(?:type|and)[ \t]+(?:\[<[^\n>]*>\][ \t]*)?(?:(?:private|public|internal)[ \t]+)?([A-Z][\w']*)/gm,
  ],
  ["functions", fsharpLets],
  [
    "members",
    new RegExp(
      `^[ \\t]*(?:static[ \\t]+)?(?:member|override|default|abstract(?:[ \\t]+member)?)[ \\t]+${FSHARP_ACCESS}(?:[A-Za-z_]\\w*\\.)?([A-Za-z_][\\w']*|${FSHARP_QUOTED})`,
      "gm",
    ),
  ],
  ["opens", /^[ \t]*open[ \t]+(?:type[ \t]+)?([A-Za-z_][\w.]*)/gm],
];

/** A GLSL shader's words: `#version`, a `uniform`, `void main(` (F#'s `.fs` is a fragment shader's too). */
const GLSL_WORDS = /^[ \t]*(?:#version\b|precision[ \t]|uniform[ \t]|void[ \t]+main[ \t]*\()/m;

const GLSL_PRECISION = "(?:(?:lowp|mediump|highp)[ \\t]+)?";
const GLSL_LAYOUT = "(?:layout[ \\t]*\\([^)\\n]*\\)[ \\t]*)?";
/** A GLSL shader's uniforms, inputs, outputs and functions. */
const GLSL: Patterns = [
  [
    "uniforms",
    new RegExp(`^[ \\t]*${GLSL_LAYOUT}uniform[ \\t]+${GLSL_PRECISION}\\w+[ \\t]+(\\w+)`, "gm"),
  ],
  [
    "inputs",
    new RegExp(
      `^[ \\t]*${GLSL_LAYOUT}(?:(?:flat|smooth|noperspective)[ \\t]+)?(?:in|varying|attribute)[ \\t]+${GLSL_PRECISION}\\w+[ \\t]+(\\w+)`,
      "gm",
    ),
  ],
  [
    "outputs",
    new RegExp(`^[ \\t]*${GLSL_LAYOUT}out[ \\t]+${GLSL_PRECISION}\\w+[ \\t]+(\\w+)`, "gm"),
  ],
  [
    "functions",
    new RegExp(
      `^[ \\t]*${GLSL_PRECISION}(?!(?:if|for|while|switch|return|else)\\b)\\w+[ \\t]+(?!(?:if|for|while|switch)\\b)(\\w+)[ \\t]*\\([^;\\n]*\\)[ \\t]*(?:\\{[ \\t]*)?$`,
      "gm",
    ),
  ],
];

/** Erlang's module, functions (a clause at the line's start), records, types and includes. */
const ERLANG: Patterns = [
  ["module", /^-module\([ \t]*([\w@.]+)/gm],
  ["functions", /^([a-z][\w@]*|'[^'\n]+')\(/gm],
  ["records", /^-record\([ \t]*([\w@]+|'[^'\n]+')/gm],
  ["types", /^-(?:type|opaque)[ \t]+([a-z][\w@]*)\(/gm],
  ["includes", /^-include(?:_lib)?\([ \t]*"([^"\n]+)"/gm],
];

/** A Clojure name after a definition's form and its metadata (`^:private`, `^{:doc "…"}` on one line). */
const CLOJURE_NAME = '(?:\\^(?::[\\w-]+|\\{[^}\\n]*\\}|[\\w.]+)[ \\t]+)*([^\\s()\\[\\]{}"^]+)';
/** Clojure's namespace, functions and macros, vars, protocols, records and types. */
const CLOJURE: Patterns = [
  ["namespace", new RegExp(`^[ \\t]*\\(ns[ \\t]+${CLOJURE_NAME}`, "gm")],
  [
    "functions",
    new RegExp(`^[ \\t]*\\((?:defn-?|defmacro|defmulti|defmethod)[ \\t]+${CLOJURE_NAME}`, "gm"),
  ],
  ["vars", new RegExp(`^[ \\t]*\\((?:def|defonce)[ \\t]+${CLOJURE_NAME}`, "gm")],
  ["tests", new RegExp(`^[ \\t]*\\(deftest[ \\t]+${CLOJURE_NAME}`, "gm")],
  [
    "types",
    new RegExp(
      `^[ \\t]*\\((?:defprotocol|defrecord|deftype|definterface)[ \\t]+${CLOJURE_NAME}`,
      "gm",
    ),
  ],
];

/** A Fortran procedure's prefixes: attributes and a function's type (`pure real(dp) function`). */
const FORTRAN_PREFIX =
  "(?:(?:pure|impure|elemental|recursive|module|integer|real|logical|complex|character|double[ \\t]+precision|type[ \\t]*\\([^)\\n]*\\)|class[ \\t]*\\([^)\\n]*\\))(?:[ \\t]*\\([^)\\n]*\\)|[ \\t]*\\*[ \\t]*\\d+)?[ \\t]+)*";
/** Fortran's programs, modules, procedures, derived types and used modules (any case). */
const FORTRAN: Patterns = [
  ["programs", /^[ \t]*program[ \t]+([a-z_]\w*)/gim],
  // A submodule's parent may touch it (`submodule(nf_network) nf_network_submodule`); a separate
  // module procedure is no module (`module function f(x)`, `module pure integer function g`).
  [
    "modules",
    /^[ \t]*(?:sub)?module[ \t]*(?:\([^)\n]*\)[ \t]*)?(?<=[ \t)])(?!(?:procedure|function|subroutine|pure|impure|elemental|recursive|integer|real|logical|complex|character|double|type|class)\b)([a-z_]\w*)/gim,
  ],
  [
    "procedures",
    new RegExp(`^[ \\t]*${FORTRAN_PREFIX}(?:subroutine|function)[ \\t]+([a-z_]\\w*)`, "gim"),
  ],
  // A type's attributes end in `::` (`type, extends(base) :: circle`); `type is (…)` is a case.
  // Blanks around an optional part are read by one `[ \t]*` each, never two (linear in them).
  ["types", /^[ \t]*type(?:[ \t]*(?:,[^:\n]*::|::))?[ \t]*(?!is\b)([a-z_]\w*)[ \t]*(?:\(|!|$)/gim],
  [
    "uses",
    /^[ \t]*use(?:[ \t]*,[ \t]*(?:non_)?intrinsic)?(?:[ \t]*::)?[ \t]*([a-z_]\w*)/gim,
  ],
];

/**
 * COBOL's programs, the procedure's sections and paragraphs (a name alone on its line in area A;
 * the fixed names of the other divisions are left out) and copybooks.
 */
const COBOL: Patterns = [
  ["programs", /PROGRAM-ID\.?[ \t]+([\w-]+)/gi],
  [
    "sections",
    /^[^*\n]{0,7}?[ \t]*(?!(?:CONFIGURATION|INPUT-OUTPUT|FILE|WORKING-STORAGE|LOCAL-STORAGE|LINKAGE|SCREEN|REPORT)[ \t])([A-Z0-9][\w-]*)[ \t]+SECTION\./gim,
  ],
  [
    "paragraphs",
    /^(?:[ \d]{6}[ \t]|[ \t]{0,7})[ \t]{0,3}(?!(?:GOBACK|EXIT|CONTINUE|END-\w+|ELSE|FILE-CONTROL|I-O-CONTROL|SPECIAL-NAMES|SOURCE-COMPUTER|OBJECT-COMPUTER)\.)([A-Z0-9][\w-]*)\.[ \t]*$/gim,
  ],
  ["copybooks", /^[^*\n][^\n]*?\bCOPY[ \t]+["']?([\w-]+)/gim],
];

/** An assembly file's global symbols, labels at the line's start, macros, sections, includes. */
const ASSEMBLY: Patterns = [
  ["globals", /^[ \t]*\.?(?:globl|global)[ \t]+([\w.$]+)/gim],
  ["labels", /^([A-Za-z_$][\w.$@]*):/gm],
  ["procedures", /^[ \t]*([A-Za-z_$@?][\w$@?]*)[ \t]+PROC\b/gim],
  ["macros", /^[ \t]*(?:\.macro|%macro)[ \t]+([\w.$]+)/gim],
  [
    "sections",
    /^[ \t]*(?:\.?section[ \t]+([\w.$]+)|(\.(?:text|data|bss|rodata))\b)/gim,
  ],
  ["includes", /^[ \t]*(?:\.include|%include|#[ \t]*include)[ \t]+[<"']([^>"'\n]+)[>"']/gim],
];

/** A Protocol Buffers file's package, messages, enums, services, methods and imports. */
const PROTOBUF: Patterns = [
  ["package", /^[ \t]*package[ \t]+([\w.]+)/gm],
  ["messages", /^[ \t]*message[ \t]+(\w+)/gm],
  ["enums", /^[ \t]*enum[ \t]+(\w+)/gm],
  ["services", /^[ \t]*service[ \t]+(\w+)/gm],
  ["methods", /^[ \t]*rpc[ \t]+(\w+)/gm],
  ["imports", /^[ \t]*import[ \t]+(?:(?:public|weak)[ \t]+)?"([^"\n]+)"/gm],
];

/**
 * Cython's classes (`cdef class`, `cdef extern` blocks name their header), its `def`, `cdef` and
 * `cpdef` functions at any depth (a `cdef` of variables is no function: a name must take `(`),
 * its structs and type names, and what it imports and `cimport`s.
 */
const CYTHON: Patterns = [
  [
    "classes",
    /^[ \t]*(?:cdef[ \t]+(?:(?:public|api|readonly|final)[ \t]+)*)?class[ \t]+([A-Za-z_]\w*)/gm,
  ],
  [
    "functions",
    /^[ \t]*(?:async[ \t]+)?c?p?def\b(?![ \t]+(?:(?:public|api|readonly|final|packed)[ \t]+)*(?:class|extern|struct|union|enum)\b)[^(\n#=]*?(?<!\w)([A-Za-z_]\w*)[ \t]*\(/gm,
  ],
  [
    "types",
    /^[ \t]*(?:(?:ctypedef|cdef)[ \t]+(?:packed[ \t]+)?(?:struct|union|enum|fused)[ \t]+([A-Za-z_]\w*)|ctypedef[ \t]+[^\n#(]*?(?<!\w)([A-Za-z_]\w*)[ \t]*$)/gm,
  ],
  ["externs", /^[ \t]*cdef[ \t]+extern[ \t]+from[ \t]+["']([^"'\n]+)["']/gm],
  [
    "imports",
    /^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+c?import|c?import[ \t]+([\w.]+))/gm,
  ],
];

/**
 * A GraphQL schema's or document's types (objects, interfaces, inputs, enums, unions, scalars,
 * each also as an `extend`), its directives and its operations and fragments.
 */
const GRAPHQL: Patterns = [
  ["types", /^[ \t]*(?:extend[ \t]+)?type[ \t]+([_A-Za-z]\w*)/gm],
  ["interfaces", /^[ \t]*(?:extend[ \t]+)?interface[ \t]+([_A-Za-z]\w*)/gm],
  ["inputs", /^[ \t]*(?:extend[ \t]+)?input[ \t]+([_A-Za-z]\w*)/gm],
  ["enums", /^[ \t]*(?:extend[ \t]+)?enum[ \t]+([_A-Za-z]\w*)/gm],
  ["unions", /^[ \t]*(?:extend[ \t]+)?union[ \t]+([_A-Za-z]\w*)/gm],
  ["scalars", /^[ \t]*(?:extend[ \t]+)?scalar[ \t]+([_A-Za-z]\w*)/gm],
  ["directives", /^[ \t]*directive[ \t]+@([_A-Za-z]\w*)/gm],
  [
    "operations",
    /^[ \t]*((?:query|mutation|subscription)[ \t]+[_A-Za-z]\w*|fragment[ \t]+[_A-Za-z]\w*)/gm,
  ],
];

/**
 * A Bicep file's parameters, variables, resources (their symbolic names; nested ones are
 * indented), modules, outputs, user-defined types and functions, and what it imports.
 */
const BICEP: Patterns = [
  ["params", /^param[ \t]+([A-Za-z_]\w*)/gm],
  ["vars", /^var[ \t]+([A-Za-z_]\w*)/gm],
  ["resources", /^[ \t]*resource[ \t]+([A-Za-z_]\w*)/gm],
  ["modules", /^module[ \t]+([A-Za-z_]\w*)/gm],
  ["outputs", /^output[ \t]+([A-Za-z_]\w*)/gm],
  ["types", /^type[ \t]+([A-Za-z_]\w*)/gm],
  ["functions", /^func[ \t]+([A-Za-z_]\w*)/gm],
  // What is imported starts with no blank, so the blanks before it are read one way.
  ["imports", /^import[ \t]+[^\s][^\n]*?[ \t]from[ \t]+'([^'\n]+)'/gm],
];

/**
 * An MSBuild project's (`.csproj`, `.props`) SDK, target frameworks, the packages and projects it
 * references and the files it imports.
 */
const MSBUILD: Patterns = [
  ["sdk", /<Project[ \t]+Sdk="([^"\n]+)"/g],
  ["targets", /<TargetFrameworks?>([^<\n]+)</g],
  ["packages", /<PackageReference[ \t]+(?:Include|Update)="([^"\n]+)"/g],
  ["projects", /<ProjectReference[ \t]+Include="([^"\n]+)"/g],
  ["imports", /<Import[ \t]+Project="([^"\n]+)"/g],
];

/** A Maven POM's modules and the artifacts it names (its own, its parent's, dependencies, plugins). */
const MAVEN_POM: Patterns = [
  ["modules", /<module>([^<\n]+)<\/module>/g],
  ["artifacts", /<artifactId>([^<\n]+)<\/artifactId>/g],
];

/** Whether an `.xml` file is a Maven POM. */
const MAVEN_WORDS = /<modelVersion>|xmlns="http:\/\/maven\.apache\.org\/POM/;

/** A Visual Studio solution's projects (and solution folders), by name. */
const SOLUTION: Patterns = [
  ["projects", /^Project\("[^"\n]*"\)[ \t]*=[ \t]*"([^"\n]+)"/gm],
];

/** A .NET resource file's names (`<data name="Title">`). */
const RESX: Patterns = [["names", /<data[ \t]+name="([^"\n]+)"/g]];

/**
 * Groovy's types and methods, and a Gradle script's plugins, tasks and top-level blocks
 * (`dependencies {`, `android {`).
 */
const GROOVY: Patterns = [
  [
    "types",
    /^[ \t]*(?:(?:public|private|protected|abstract|final|static)[ \t]+)*(?:class|interface|trait|enum)[ \t]+([A-Za-z_]\w*)/gm,
  ],
  [
    "methods",
    /^[ \t]*(?:(?:public|private|protected|static|final|abstract|synchronized)[ \t]+)*def[ \t]+([A-Za-z_]\w*)[ \t]*\(/gm,
  ],
  ...gradlePatterns(),
];

/**
 * A Gradle script's plugins, tasks and top-level blocks (`dependencies {`, `android {`), in Groovy
 * or in Kotlin (`id("com.android.library")`, `tasks.register<Copy>("dist")`), and the builds a
 * settings script includes (`include(":okio")`, `includeBuild("build-support")`).
 *
 * @example
 * ```ts
 * import { gradlePatterns } from "./_summary_languages_rare.ts";
 * gradlePatterns().map(([kind]) => kind); // ["plugins", "tasks", "blocks", "includes"]
 * ```
 */
export function gradlePatterns(): Patterns {
  return [
    // `[ \t]*(?:\([ \t]*)?`: blanks with no `(` between them split one way only (linear in them).
    ["plugins", /^[ \t]*(?:id|apply[ \t]+plugin:)[ \t]*(?:\([ \t]*)?["']([^"'\n]+)["']/gm],
    [
      "tasks",
      /^[ \t]*(?:task[ \t]+([A-Za-z_]\w*)|tasks\.(?:register|create)(?:<[^>\n]*>)?\([ \t]*["']([\w-]+)["'])/gm,
    ],
    ["blocks", /^([A-Za-z_]\w*)[ \t]*\{/gm],
    ["includes", /^[ \t]*include(?:Build)?[ \t]*(?:\([ \t]*)?["']([^"'\n]+)["']/gm],
  ];
}

/** A template's own words in a page: Liquid's and Jinja's tags, Go templates' `define` and `partial`. */
const TEMPLATE_WORDS =
  /\{%-?[ \t]*(?:include|include_relative|extends|block|render|layout)\b|\{\{-?[ \t]*(?:define|block|partial|partialCached|template)[ \t]+"/;

/**
 * A template's own words, after the page's (`html`): the blocks it defines (`{% block content %}`),
 * what it extends or includes (`{% extends "base.html" %}`, `<%= render "form" %>`,
 * `{{> header}}`) and, in HEEx, the components it uses (`<.button>`, `<Layouts.app>`). Tags are
 * matched unanchored: what a pattern reads past a tag's start is bounded.
 */
function templatePatterns(html: Patterns): Patterns {
  return [
    ...html,
    [
      "blocks",
      /(?:\{%-?[ \t]*block[ \t]+([\w.]{1,200})|\{\{-?[ \t]*(?:define|block)[ \t]+"([^"\n]{1,200})")/g,
    ],
    // Quoted names (`{% extends "base.html" %}`), Handlebars' partials, Jekyll's unquoted
    // `{% include head.html %}`, and Go templates' (Hugo's) partials and templates.
    [
      "includes",
      /(?:\{%-?[ \t]*(?:extends|include|import|from|render|embed|layout)[ \t]+["']([^"'\n]{1,500})["']|\{\{>[ \t]*([\w./-]{1,500})|\{%-?[ \t]*include(?:_relative)?[ \t]+([\w./-]{1,500})|\{\{-?[ \t]*(?:partial|partialCached|template)[ \t]+"([^"\n]{1,500})")/g,
    ],
    ["renders", /<%=?-?[ \t]*render[ \t(]+(?:partial:[ \t]*)?["':]([\w./]{1,500})/g],
    [
      "components",
      /<(\.[a-z_][\w.]{0,200}|[A-Z][\w]{0,200}(?:\.[A-Za-z_][\w]{0,200}){1,8})[\s>/]/g,
    ],
  ];
}

/** An optional `[...]` argument of a LaTeX command, read within its line. */
const TEX_OPTION = "(?:\\[[^\\]\\n]{0,500}\\][ \\t]*)?";
/**
 * LaTeX's sectioning titles (one level of braces inside: `\section{The \emph{X} case}`), the files
 * it inputs, what a class or package provides, the classes and packages it loads, the commands,
 * environments and options it defines. Each at a line's start: a `%` comment is no name.
 */
const LATEX: Patterns = [
  [
    "sections",
    new RegExp(
      `^[ \\t]*\\\\(?:part|chapter|section|subsection|subsubsection)\\*?[ \\t]*${TEX_OPTION}\\{((?:[^{}\\n]|\\{[^{}\\n]*\\}){1,300})\\}`,
      "gm",
    ),
  ],
  ["inputs", /^[ \t]*\\(?:input|include|subfile)[ \t]*\{([^}\n]{1,500})\}/gm],
  ["provides", /^[ \t]*\\Provides(?:Package|Class|File)[ \t]*\{([^}\n]{1,200})\}/gm],
  [
    "classes",
    new RegExp(
      `^[ \\t]*\\\\(?:documentclass|LoadClass(?:WithOptions)?)[ \\t]*${TEX_OPTION}\\{([^}\\n]{1,200})\\}`,
      "gm",
    ),
  ],
  [
    "packages",
    new RegExp(
      `^[ \\t]*\\\\(?:usepackage|RequirePackage(?:WithOptions)?)[ \\t]*${TEX_OPTION}\\{([^}\\n]{1,500})\\}`,
      "gm",
    ),
  ],
  [
    "commands",
    /^[ \t]*\\(?:(?:re)?newcommand|providecommand|DeclareRobustCommand|(?:New|Renew|Provide|Declare)DocumentCommand|[gex]?def)\*?[ \t]*(?:\{[ \t]*)?(\\[A-Za-z@]{1,200})/gm,
  ],
  [
    "environments",
    /^[ \t]*\\(?:(?:re)?newenvironment|(?:New|Renew|Provide|Declare)DocumentEnvironment)\*?[ \t]*\{([A-Za-z@*]{1,200})\}/gm,
  ],
  ["options", /^[ \t]*\\DeclareOption[ \t]*\{([^}\n]{1,200})\}/gm],
];

/** A LaTeX class's words (`.cls` is an Apex or a Visual Basic class's extension too). */
const LATEX_CLASS_WORDS = /^[ \t]*\\(?:ProvidesClass|LoadClass|NeedsTeXFormat|documentclass)\b/m;

/** A BibTeX database's entries by key; `@string`, `@preamble` and `@comment` are none. */
/**
 * A PostScript program's or EPS drawing's document comments (its title, creator, bounding box,
 * pages and fonts: the DSC header) and the procedures it defines (`/box { ... } def` at a line's
 * start); the drawing's data after them is none.
 */
const POSTSCRIPT: Patterns = [
  ["title", /^%%Title:[ \t]*(\S[^\n]*)/gm],
  ["creator", /^%%Creator:[ \t]*(\S[^\n]*)/gm],
  ["bounding box", /^%%BoundingBox:[ \t]*(\S[^\n]*)/gm],
  ["pages", /^%%Pages:[ \t]*(\S[^\n]*)/gm],
  ["fonts", /^%%DocumentFonts:[ \t]*(\S[^\n]*)/gm],
  ["procedures", /^\/([^\s/{}()<>[\]%]{1,100})[ \t]*\{/gm],
];

/**
 * A Pug (formerly Jade) template's layout (`extends`), the files it includes, its blocks (with
 * `append` and `prepend`), the mixins it defines and those it calls (`+card(...)`).
 */
const PUG: Patterns = [
  ["extends", /^extends[ \t]+(\S+)/gm],
  ["includes", /^[ \t]*include(?::[\w-]+)?[ \t]+(\S+)/gm],
  [
    "blocks",
    /^[ \t]*(?:block[ \t]+(?:(?:append|prepend)[ \t]+)?|append[ \t]+|prepend[ \t]+)([\w-]+)/gm,
  ],
  ["mixins", /^[ \t]*mixin[ \t]+([\w-]+)/gm],
  ["mixin calls", /^[ \t]*\+([\w-]+)/gm],
];

const BIBTEX: Patterns = [
  [
    "entries",
    /^[ \t]*@(?!(?:string|preamble|comment)[ \t]*[{(])[A-Za-z]{1,50}[ \t]*[{(][ \t]*([^,\s{}()]{1,300})/gim,
  ],
];

/**
 * A Makefile's targets (the first of a rule's line: `.PHONY` and the other special targets are
 * none), the variables it sets (`:=`, `?=`, `+=`, `::=`, `!=`) and the files it includes. A
 * recipe line starts with a tab and is none of them, nor is a line that continues the one before
 * it (after a `\`: a shell command's `-e 's/a:b/'`).
 */
const MAKEFILE: Patterns = [
  [
    "targets",
    /^(?<!\\\r?\n)(?!\.[A-Z])([\w%$./][^:=#\s'"]*(?:[ \t]+[^:=#\s'"]+)*)[ \t]*(?::(?![:=])|::(?!=))/gm,
  ],
  [
    "variables",
    /^(?<!\\\r?\n)(?:(?:export|override)[ \t]+)*([A-Za-z_][\w.-]*)[ \t]*(?:::?|[?+!])?=/gm,
  ],
  ["includes", /^-?s?include[ \t]+([^\n#]{1,500})/gm],
];

/** A Dockerfile's base images and named stages, build arguments, ports and start command. */
const DOCKERFILE: Patterns = [
  ["images", /^[ \t]*FROM[ \t]+(?:--\S+[ \t]+)*(\S+)/gim],
  ["stages", /^[ \t]*FROM[ \t]+(?:--\S+[ \t]+)*\S+[ \t]+AS[ \t]+(\S+)/gim],
  ["args", /^[ \t]*ARG[ \t]+([A-Za-z_]\w*)/gim],
  ["ports", /^[ \t]*EXPOSE[ \t]+([^\n#]+)/gim],
  ["commands", /^[ \t]*((?:ENTRYPOINT|CMD)[ \t]+[^\n]+)/gim],
];

/**
 * A Blade template's own words, after PHP's: the sections it defines or yields, what it extends or
 * includes (`@extends('layouts.app')`), and the components it uses (`<x-input-label>`,
 * `<livewire:counter />`). Matched unanchored; what a pattern reads past a word's start is bounded.
 */
const BLADE: Patterns = [
  ["sections", /@(?:section|yield|push|stack|hasSection)\([ \t]*['"]([^'"\n]{1,200})['"]/g],
  [
    "includes",
    /@(?:extends|include(?:If|When|Unless|First)?|component|livewire|each)\([ \t]*['"]([^'"\n]{1,500})['"]/g,
  ],
  ["components", /<(x-[\w.:-]{1,200}|livewire:[\w.-]{1,200})[\s>/]/g],
];

const GLSL_SHADER: SummaryLanguage = { label: "GLSL shader", patterns: GLSL, orHead: true };
const FORTRAN_SOURCE: SummaryLanguage = { label: "Fortran", patterns: FORTRAN, orHead: true };
const ASSEMBLY_SOURCE: SummaryLanguage = { label: "Assembly", patterns: ASSEMBLY, orHead: true };

/** The languages of {@linkcode rareSummaryLanguages} read by this file's patterns alone. */
const BY_PATTERNS_ONLY: Record<string, SummaryLanguage> = {
  ".ml": { label: "OCaml", patterns: OCAML, orHead: true },
  ".mli": { label: "OCaml interface", patterns: OCAML, orHead: true },
  ".fs": {
    label: "F#",
    patterns: FSHARP,
    orHead: true,
    only: (text: string) => !GLSL_WORDS.test(text),
    otherwise: GLSL_SHADER,
  },
  ".fsi": { label: "F# signature", patterns: FSHARP, orHead: true },
  ".fsx": { label: "F# script", patterns: FSHARP, orHead: true },
  ".erl": { label: "Erlang", patterns: ERLANG, orHead: true },
  ".hrl": { label: "Erlang header", patterns: ERLANG, orHead: true },
  ".clj": { label: "Clojure", patterns: CLOJURE, orHead: true },
  ".cljs": { label: "ClojureScript", patterns: CLOJURE, orHead: true },
  ".cljc": { label: "Clojure", patterns: CLOJURE, orHead: true },
  ".f90": FORTRAN_SOURCE,
  ".f95": FORTRAN_SOURCE,
  ".f03": FORTRAN_SOURCE,
  ".f08": FORTRAN_SOURCE,
  ".f": FORTRAN_SOURCE,
  ".for": FORTRAN_SOURCE,
  ".cbl": { label: "COBOL", patterns: COBOL, orHead: true },
  ".cob": { label: "COBOL", patterns: COBOL, orHead: true },
  ".cobol": { label: "COBOL", patterns: COBOL, orHead: true },
  ".cpy": { label: "COBOL copybook", patterns: COBOL, orHead: true },
  ".asm": ASSEMBLY_SOURCE,
  ".s": ASSEMBLY_SOURCE,
  ".nasm": ASSEMBLY_SOURCE,
  ".glsl": GLSL_SHADER,
  ".vert": GLSL_SHADER,
  ".frag": GLSL_SHADER,
  ".proto": { label: "Protocol Buffers", patterns: PROTOBUF, orHead: true },
  ".pyx": { label: "Cython", patterns: CYTHON, orHead: true },
  ".pxd": { label: "Cython declarations", patterns: CYTHON, orHead: true },
  ".pxi": { label: "Cython include", patterns: CYTHON, orHead: true },
  ".csproj": { label: "MSBuild project", patterns: MSBUILD, orHead: true },
  ".fsproj": { label: "MSBuild project", patterns: MSBUILD, orHead: true },
  ".vbproj": { label: "MSBuild project", patterns: MSBUILD, orHead: true },
  ".props": { label: "MSBuild props", patterns: MSBUILD, orHead: true },
  ".targets": { label: "MSBuild targets", patterns: MSBUILD, orHead: true },
  ".sln": { label: "Visual Studio solution", patterns: SOLUTION, orHead: true },
  ".resx": { label: ".NET resources", patterns: RESX, orHead: true },
  ".xml": {
    label: "Maven POM",
    patterns: MAVEN_POM,
    only: (text: string) => MAVEN_WORDS.test(text),
  },
  ".bicep": { label: "Bicep", patterns: BICEP, orHead: true },
  ".bicepparam": { label: "Bicep parameters", patterns: BICEP, orHead: true },
  ".graphql": { label: "GraphQL", patterns: GRAPHQL, orHead: true },
  ".graphqls": { label: "GraphQL", patterns: GRAPHQL, orHead: true },
  ".gql": { label: "GraphQL", patterns: GRAPHQL, orHead: true },
  ".tex": { label: "LaTeX", patterns: LATEX, orHead: true },
  ".ltx": { label: "LaTeX", patterns: LATEX, orHead: true },
  ".sty": { label: "LaTeX package", patterns: LATEX, orHead: true },
  ".cls": {
    label: "LaTeX class",
    patterns: LATEX,
    orHead: true,
    only: (text: string) => LATEX_CLASS_WORDS.test(text),
  },
  ".bib": { label: "BibTeX", patterns: BIBTEX, orHead: true },
  ".ps": { label: "PostScript", patterns: POSTSCRIPT, orHead: true },
  ".eps": { label: "Encapsulated PostScript", patterns: POSTSCRIPT, orHead: true },
  ".epsf": { label: "Encapsulated PostScript", patterns: POSTSCRIPT, orHead: true },
  ".pug": { label: "Pug template", patterns: PUG, orHead: true },
  ".jade": { label: "Pug template", patterns: PUG, orHead: true },
  // Named so by `conventionalExtension` too: `Makefile`, `Dockerfile.dev`.
  ".mk": { label: "Makefile", patterns: MAKEFILE, orHead: true },
  ".dockerfile": { label: "Dockerfile", patterns: DOCKERFILE, orHead: true },
  ".groovy": { label: "Groovy", patterns: GROOVY, orHead: true },
  ".gradle": { label: "Gradle", patterns: GROOVY, orHead: true },
};

/**
 * The summary languages this file adds, by extension (lower case); `html` are the HTML page's
 * patterns, which a template is read by first, `c` C's, which CUDA is read by, and `php` PHP's,
 * which a Blade template (`.blade.php`) is read by first. A file in which no pattern finds a name (a
 * template of a config file, a script of statements) is shown by its first lines, as before.
 *
 * @example
 * ```ts
 * import { rareSummaryLanguages } from "./_summary_languages_rare.ts";
 * rareSummaryLanguages([], [])[".ml"].label; // "OCaml"
 * ```
 */
export function rareSummaryLanguages(
  html: Patterns,
  c: Patterns,
  php: Patterns = [],
): Record<string, SummaryLanguage> {
  const template = templatePatterns(html);
  return {
    ...BY_PATTERNS_ONLY,
    ".blade.php": { label: "Blade template", patterns: [...php, ...BLADE] },
    ".cu": { label: "CUDA", patterns: c },
    ".cuh": { label: "CUDA header", patterns: c },
    ".eex": { label: "EEx template", patterns: template, orHead: true },
    ".heex": { label: "HEEx template", patterns: template, orHead: true },
    ".leex": { label: "LiveView template", patterns: template, orHead: true },
    ".erb": { label: "ERB template", patterns: template, orHead: true },
    ".j2": { label: "Jinja template", patterns: template, orHead: true },
    ".jinja": { label: "Jinja template", patterns: template, orHead: true },
    ".jinja2": { label: "Jinja template", patterns: template, orHead: true },
    ".njk": { label: "Nunjucks template", patterns: template, orHead: true },
    ".twig": { label: "Twig template", patterns: template, orHead: true },
    ".hbs": { label: "Handlebars template", patterns: template, orHead: true },
    ".handlebars": { label: "Handlebars template", patterns: template, orHead: true },
    ".mustache": { label: "Mustache template", patterns: template, orHead: true },
    ".liquid": { label: "Liquid template", patterns: template, orHead: true },
    // A page with a template's own words (Jekyll's Liquid, Hugo's Go templates) is read as one.
    ".html": {
      label: "HTML template",
      patterns: template,
      only: (text: string) => TEMPLATE_WORDS.test(text),
      otherwise: { label: "HTML", patterns: html },
    },
    ".htm": {
      label: "HTML template",
      patterns: template,
      only: (text: string) => TEMPLATE_WORDS.test(text),
      otherwise: { label: "HTML", patterns: html },
    },
  };
}
