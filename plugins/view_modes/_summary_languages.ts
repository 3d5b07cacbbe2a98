/**
 * The `summary` view's patterns for languages and file kinds without a
 * grammar in slop's summary table of `summary.ts`: Swift, Kotlin, Lua,
 * Elixir, Dart, Haskell, Zig, Terraform, Vue and Svelte components,
 * stylesheets, Helm templates and HTML pages. Each names what a line opens (a type, a
 * function, a module, a block), the way the Ruby and PHP patterns do.
 *
 * Every pattern reads one line at most from where it starts: the leading
 * blanks are `[ \t]*`, never `\s*` (which would run on over blank lines from
 * every one), and no part of a pattern can match a line break, so each pass
 * over a file is linear.
 *
 * @module
 */

/** Names by kind: a pattern whose first (or second) group is the name, or a function finding them. */
export type Patterns = Array<[kind: string, pattern: RegExp | ((text: string) => string[])]>;

/** A language's label and patterns. */
export interface SummaryLanguage {
  label: string;
  patterns: Patterns;
}

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
];

const KOTLIN_MODIFIERS =
  "(?:(?:public|private|protected|internal|open|abstract|sealed|final|data|inner|value|annotation|enum|override|suspend|inline|operator|infix|tailrec|external|actual|expect|companion|fun(?=[ \\t]+interface))[ \\t]+)*";
const KOTLIN: Patterns = [
  ["package", /^package[ \t]+([\w.]+)/gm],
  [
    "types",
    new RegExp(`^[ \\t]*${KOTLIN_MODIFIERS}(?:class|interface|object)[ \\t]+([A-Za-z_]\\w*)`, "gm"),
  ],
  [
    "functions",
    new RegExp(
      `^[ \\t]*${KOTLIN_MODIFIERS}fun[ \\t]+(?:<[^>\\n]*>[ \\t]*)?((?:[\\w.]+\\.)?[A-Za-z_]\\w*)[ \\t]*\\(`,
      "gm",
    ),
  ],
  ["imports", /^import[ \t]+([\w.*]+)/gm],
];

const LUA: Patterns = [
  ["functions", /^[ \t]*(?:local[ \t]+)?function[ \t]+([\w.:]+)/gm],
  ["function values", /^[ \t]*(?:local[ \t]+)?([\w.]+)[ \t]*=[ \t]*function\b/gm],
  ["requires", /\brequire[ \t]*\(?[ \t]*["']([^"'\n]+)["']/gm],
];

const ELIXIR: Patterns = [
  ["modules", /^[ \t]*def(?:module|protocol)[ \t]+([A-Z][\w.]*)/gm],
  ["implementations", /^[ \t]*defimpl[ \t]+([A-Z][\w.]*)/gm],
  ["functions", /^[ \t]*def(?:macro|guard|delegate)?[ \t]+([a-z_]\w*[?!]?)/gm],
  ["private functions", /^[ \t]*def(?:p|macrop|guardp)[ \t]+([a-z_]\w*[?!]?)/gm],
  ["uses", /^[ \t]*(?:use|import|alias|require)[ \t]+([A-Z][\w.]*)/gm],
];

const DART: Patterns = [
  [
    "types",
    /^[ \t]*(?:(?:abstract|sealed|base|final|interface|mixin)[ \t]+)*(?:class|mixin|enum|extension(?:[ \t]+type)?|typedef)[ \t]+([A-Za-z_$][\w$]*)/gm,
  ],
  [
    "functions",
    /^[ \t]*(?:(?:static|external|factory|@override)[ \t]+)*(?:[\w$]+(?:<[^>\n]*>)?\??[ \t]+)?(?:get[ \t]+|set[ \t]+)?([a-z_$][\w$]*)(?:<[^>\n]*>)?\([^;\n]*\)[ \t]*(?:async\*?[ \t]*|sync\*[ \t]*)?(?:\{|=>)/gm,
  ],
  ["imports", /^(?:import|export|part)[ \t]+['"]([^'"\n]+)['"]/gm],
];

const HASKELL: Patterns = [
  ["module", /^module[ \t]+([\w.]+)/gm],
  [
    "types",
    /^(?:data|newtype|type(?:[ \t]+family)?|class)[ \t]+(?:[^=\n]*=>[ \t]*)?([A-Z][\w']*)/gm,
  ],
  ["instances", /^instance[ \t]+(?:[^=\n]*=>[ \t]*)?([^\n=]*?)[ \t]+where\b/gm],
  ["functions", /^([a-z_][\w']*)[ \t]*::/gm],
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

const STYLES: Patterns = [
  ["imports", /^[ \t]*@(?:import|use|forward)[ \t]+(?:url\()?['"]([^'"\n]+)['"]/gm],
  ["variables", /^[ \t]*[$@]([A-Za-z_][\w-]*)[ \t]*:/gm],
  ["custom properties", /^[ \t]*(--[\w-]+)[ \t]*:/gm],
  ["mixins", /^[ \t]*[@=]mixin[ \t]+([\w-]+)/gm],
  ["functions", /^[ \t]*@function[ \t]+([\w-]+)/gm],
  ["media queries", /^@media[ \t]+([^{\n]*[^{\s])/gm],
  // A rule at the top level: a line at column 0 opening a block (not an at-rule or a comment).
  // Sass's `#{$name}` interpolation is part of a selector, not its block.
  ["selectors", /^([^\s@$/*{}](?:[^{\n#]|#\{[^}\n]*\}|#(?!\{))*?)[ \t]*\{/gm],
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

/** A component's top-level blocks, as they open (`script setup lang="ts"`, `style scoped`). */
function componentBlocks(text: string): string[] {
  return [...text.matchAll(/^<(template|script|style)\b([^>\n]*)>/gm)]
    .map((m) => `${m[1]}${m[2].replace(/\s+/g, " ").trimEnd()}`);
}

/** The text of a component's `<script>` blocks, each without the indentation of its first line. */
function componentScripts(text: string): string {
  // Every pattern of a component asks: the last component's scripts are kept for the next one.
  if (lastScripts.text === text) return lastScripts.scripts;
  let out = "";
  // Each block's end is searched once from its start, and the next block starts after it; a block
  // that never closes ends the search (no later one can close either), so the text is read once.
  const opening = /^<script\b[^>\n]*>[ \t]*\n/gm;
  for (let m = opening.exec(text); m; m = opening.exec(text)) {
    const start = opening.lastIndex;
    const end = text.indexOf("\n</script>", start - 1);
    if (end < 0) break;
    const block = text.slice(start, end + 1);
    const indent = /^(?:[ \t]*\n)*([ \t]*)/.exec(block)![1];
    out += indent
      ? block.split("\n").map((l) => l.startsWith(indent) ? l.slice(indent.length) : l).join("\n")
      : block;
    opening.lastIndex = end + 1;
  }
  lastScripts.text = text;
  lastScripts.scripts = out;
  return out;
}

const lastScripts = { text: "", scripts: "" };

/** Patterns that read a component's scripts, as the script would be read as a file. */
function inScripts(patterns: Patterns): Patterns {
  return patterns.map(([kind, pattern]) => [
    kind,
    (text: string) => {
      const script = componentScripts(text);
      return typeof pattern === "function"
        ? pattern(script)
        : [...script.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? "");
    },
  ]);
}

/**
 * The summary languages this file adds, by extension; `js` are the JavaScript patterns, which a
 * Vue or Svelte component's script is read by.
 *
 * @example
 * ```ts
 * import { moreSummaryLanguages } from "./_summary_languages.ts";
 * moreSummaryLanguages([])[".swift"].label; // "Swift"
 * ```
 */
export function moreSummaryLanguages(js: Patterns): Record<string, SummaryLanguage> {
  const component = [["blocks", componentBlocks], ...inScripts(js)] as Patterns;
  return {
    ".swift": { label: "Swift", patterns: SWIFT },
    ".kt": { label: "Kotlin", patterns: KOTLIN },
    ".kts": { label: "Kotlin script", patterns: KOTLIN },
    ".lua": { label: "Lua", patterns: LUA },
    ".ex": { label: "Elixir", patterns: ELIXIR },
    ".exs": { label: "Elixir script", patterns: ELIXIR },
    ".dart": { label: "Dart", patterns: DART },
    ".hs": { label: "Haskell", patterns: HASKELL },
    ".zig": { label: "Zig", patterns: ZIG },
    ".tf": { label: "Terraform", patterns: TERRAFORM },
    ".tfvars": { label: "Terraform variables", patterns: TFVARS },
    ".vue": { label: "Vue component", patterns: component },
    ".svelte": { label: "Svelte component", patterns: component },
    ".css": { label: "CSS", patterns: STYLES },
    ".scss": { label: "SCSS", patterns: STYLES },
    ".sass": { label: "Sass", patterns: STYLES },
    ".less": { label: "Less", patterns: STYLES },
    ".tpl": { label: "Template", patterns: HELM_TEMPLATE },
    ".html": { label: "HTML", patterns: HTML },
    ".htm": { label: "HTML", patterns: HTML },
  };
}
