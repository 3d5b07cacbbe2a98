/**
 * The `summary` view: a heuristic summary that never needs a grammar. Code
 * gives its top-level names (by per-language patterns), markdown its
 * headings, config files their top-level keys, other text its first lines.
 *
 * @module
 */

import { extname } from "../../pipeline/_path.ts";
import type { ViewModePlugin } from "../../pipeline/types.ts";

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
}

/** Defaults of {@linkcode SummaryOptions}. */
export const defaults: Required<SummaryOptions> = {
  maxNames: 40,
  headLines: 8,
  maxLineChars: 200,
};

type Patterns = Array<[kind: string, pattern: RegExp]>;

const PY: Patterns = [
  ["classes", /^class\s+([A-Za-z_]\w*)/gm],
  ["functions", /^(?:async\s+)?def\s+([A-Za-z_]\w*)/gm],
  ["constants", /^([A-Z][A-Z0-9_]*)\s*(?::[^=\n]*)?=/gm],
  ["imports", /^(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/gm],
];
const JS: Patterns = [
  ["classes", /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/gm],
  [
    "functions",
    /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/gm,
  ],
  ["interfaces", /^(?:export\s+)?(?:declare\s+)?interface\s+([A-Za-z_$][\w$]*)/gm],
  ["types", /^(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)/gm],
  ["enums", /^(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+([A-Za-z_$][\w$]*)/gm],
  ["exports", /^export\s+(?:declare\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)/gm],
  ["imports", /^import\s[^'"]*?['"]([^'"]+)['"]/gm],
];
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
  [
    "methods",
    /^\s{2,8}(?:public|protected|private|static|final|abstract|synchronized|native|default|\s)*[\w<>[\],.? ]+\s+([a-z_]\w*)\s*\([^;]*$/gm,
  ],
];
const C: Patterns = [
  ["types", /^(?:typedef\s+)?(?:struct|union|enum|class|namespace)\s+([A-Za-z_]\w*)/gm],
  [
    "functions",
    /^(?!\s|#|\/|typedef|return|if|else|for|while|switch)[A-Za-z_][\w\s*&:<>,]*?\b([A-Za-z_~][\w:~]*)\s*\([^;]*$/gm,
  ],
  ["includes", /^#\s*include\s*[<"]([^>"]+)[>"]/gm],
];

const LANGUAGES: Record<string, { label: string; patterns: Patterns }> = {
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
  ".h": { label: "C header", patterns: C },
  ".cc": { label: "C++", patterns: C },
  ".cpp": { label: "C++", patterns: C },
  ".cxx": { label: "C++", patterns: C },
  ".hpp": { label: "C++ header", patterns: C },
  ".hh": { label: "C++ header", patterns: C },
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
    version: "3",
    // The factory's options change the output: they join the cache key.
    cacheKey: () => JSON.stringify(settings),
    render(file, ctx) {
      const merged = { ...settings, ...(ctx.options as SummaryOptions) };
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
  const { maxNames, headLines, maxLineChars } = { ...defaults, ...options };
  const cut = (line: string) => cutLine(line, maxLineChars);
  const ext = extname(path).toLowerCase();
  const lines = lineCount(text);
  const lang = LANGUAGES[ext];
  if (lang) {
    const rows = lang.patterns.map(([kind, pattern]) => {
      const names = unique(
        [...text.matchAll(pattern)].map((m) => (m[1] ?? m[2] ?? "").trim()).filter(Boolean),
      );
      return names.length ? `- ${kind}: ${list(names.map(cut), maxNames)}` : "";
    }).filter(Boolean);
    return [`**${lang.label}**, ${lineWord(lines)}`, ...rows].join("\n");
  }
  if (ext === ".md" || ext === ".markdown" || ext === ".mdx") {
    const headings = [...text.matchAll(/^(#{1,6})\s+(.+?)\s*#*\s*$/gm)]
      .map((m) => `${"  ".repeat(m[1].length - 1)}- ${cut(m[2])}`);
    const shown = headings.slice(0, maxNames);
    const more = headings.length > shown.length
      ? [`- ... ${headings.length - shown.length} more headings`]
      : [];
    return [`**Markdown**, ${lineWord(lines)}`, ...shown, ...more].join("\n");
  }
  const keys = configKeys(ext, text);
  if (keys) {
    const label = ext.slice(1).toUpperCase();
    return [
      `**${label}**, ${lineWord(lines)}`,
      ...(keys.length ? [`- keys: ${list(keys.map(cut), maxNames)}`] : []),
    ]
      .join("\n");
  }
  const head = firstLines(text, headLines).map((l) => `    ${cut(l)}`).join("\n").trimEnd();
  return `**Text**, ${lineWord(lines)}${head ? `\n\n${head}` : ""}`;
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

function lineWord(n: number): string {
  return n === 1 ? "1 line" : `${n} lines`;
}

function configKeys(ext: string, text: string): string[] | undefined {
  if (ext === ".json") {
    try {
      const value = JSON.parse(text);
      return value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
    } catch {
      return [...text.matchAll(/^\s{0,4}"([^"]+)"\s*:/gm)].map((m) => m[1]);
    }
  }
  if (ext === ".toml" || ext === ".ini" || ext === ".cfg") {
    return unique([...text.matchAll(/^\s*(?:\[+([^\]]+)\]+|([A-Za-z0-9_.-]+)\s*=)/gm)]
      .map((m) => m[1] ? `[${m[1]}]` : m[2]));
  }
  if (ext === ".yaml" || ext === ".yml") {
    return unique([...text.matchAll(/^([A-Za-z0-9_."'-]+)\s*:/gm)].map((m) => m[1]));
  }
  return undefined;
}

function lineCount(text: string): number {
  if (!text) return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

function list(names: string[], max: number): string {
  const shown = names.slice(0, max).map(codeSpan).join(", ");
  return names.length > max ? `${shown}, ... ${names.length - max} more` : shown;
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
