// The architecture's import rules (README "Plugins", DESIGN "Plugins"), read from the source:
// the pipeline never imports a plugin or an entry point that assembles the built-ins, and plugins
// import only the public plugin surface (types, helpers, token counts), grammars/ and deps.ts.
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), "..", ".."));

/** What plugins may import from outside plugins/: the public plugin surface. */
const PLUGIN_SURFACE = [
  "pipeline/types.ts",
  "pipeline/helpers.ts",
  "pipeline/tokens.ts",
  "deps.ts",
];
/** Entry points that hand the built-ins to the pipeline: nothing below them imports them. */
/** Modules that import nothing, so that any module may import them (paths, bytes). */
const LEAVES = ["pipeline/_path.ts", "pipeline/_bytes.ts", "pipeline/_glob.ts"];
const ENTRY_POINTS = ["mod.ts", "cli.ts"];
const ENTRY_DIRS = ["api/", "cli/"];
/** Not source of the library: tests, benchmarks, examples and state. */
const SKIPPED_DIRS = ["tests/", "bench/", "examples/", "docs/", "node_modules/", ".slop/", ".git/"];

/** One import of a file: the specifier as written, the repo path it names, and its line. */
interface Edge {
  from: string;
  specifier: string;
  target: string;
  line: number;
}

/**
 * The module specifiers a TypeScript text imports or re-exports, with their
 * lines: `import ... from`, `export ... from`, `import "x"`, `import("x")` and
 * `new URL("x", import.meta.url)` (workers). Comments, template text and regex
 * literals are skipped, and string literals are read only where a specifier
 * stands, so JSDoc examples and strings that look like imports are not imports.
 */
function importsOf(text: string): Array<{ specifier: string; line: number }> {
  const { code, strings } = codeOnly(text);
  const found: Array<{ specifier: string; index: number }> = [];
  const str = `(["'])#(\\d+)\\1`;
  const patterns = [
    new RegExp(
      `(?<![\\w$.])(?:import|export)\\s+(?:type\\s+)?[\\w\\s{},*$]*?\\bfrom\\s*${str}`,
      "g",
    ),
    new RegExp(`(?<![\\w$.])import\\s*${str}`, "g"),
    new RegExp(`(?<![\\w$.])import\\s*\\(\\s*${str}\\s*[,)]`, "g"),
    new RegExp(`\\bnew\\s+URL\\s*\\(\\s*${str}\\s*,\\s*import\\.meta\\.url\\s*\\)`, "g"),
  ];
  for (const pattern of patterns) {
    for (const m of code.matchAll(pattern)) {
      found.push({ specifier: strings[Number(m[2])], index: m.index! + m[0].lastIndexOf(m[2]) });
    }
  }
  found.sort((a, b) => a.index - b.index);
  return found.map(({ specifier, index }) => ({
    specifier,
    line: code.slice(0, index).split("\n").length,
  }));
}

/**
 * The text's code only: comments, template text and regex literals become
 * spaces (line breaks kept, so lines still count), and each string literal
 * becomes `"#<n>"`, where `strings[n]` is its content.
 */
function codeOnly(text: string): { code: string; strings: string[] } {
  let code = "";
  const strings: string[] = [];
  const blank = (from: number, to: number) => (code += text.slice(from, to).replace(/[^\n]/g, " "));
  // Inside a template literal, `${` opens code; a stack of brace depths tells where it ends.
  const templates: number[] = [];
  let depth = 0;
  let last = ""; // the last significant token of code, to tell a regex from a division
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      const stop = skipString(text, i, c);
      strings.push(text.slice(i + 1, stop - 1));
      code += `${c}#${strings.length - 1}${c}`;
      i = stop;
      last = c;
    } else if (c === "`" || (c === "}" && templates.length && templates.at(-1) === depth)) {
      if (c === "}") templates.pop();
      const stop = skipTemplate(text, i + 1);
      const opens = text.startsWith("${", stop - 2);
      code += c;
      blank(i + 1, opens ? stop - 2 : stop - 1);
      code += opens ? "${" : "`";
      if (opens) templates.push(depth);
      i = stop;
      last = "`";
    } else if (c === "/" && (REGEX_AFTER.has(last) || REGEX_AFTER_WORDS.has(last))) {
      const stop = skipRegex(text, i);
      blank(i, stop);
      i = stop;
      last = "/";
    } else {
      if (c === "{") depth++;
      else if (c === "}") depth--;
      if (!/\s/.test(c)) last = /[\w$]/.test(c) ? wordBefore(text, i + 1) : c;
      code += c;
      i++;
    }
  }
  return { code, strings };
}

function skipString(text: string, i: number, quote: string): number {
  let k = i + 1;
  while (k < text.length && text[k] !== quote && text[k] !== "\n") k += text[k] === "\\" ? 2 : 1;
  return k + 1;
}

/** From inside a template literal to just after its closing backtick or its next `${`. */
function skipTemplate(text: string, i: number): number {
  let k = i;
  while (k < text.length) {
    if (text[k] === "\\") k += 2;
    else if (text[k] === "`") return k + 1;
    else if (text[k] === "$" && text[k + 1] === "{") return k + 2;
    else k++;
  }
  return k;
}

const REGEX_AFTER = new Set([..."(,=:[!&|?{};~^%*+-<>", ""]);
const REGEX_AFTER_WORDS = new Set(["return", "typeof", "case", "in", "of", "void", "throw"]);

function skipRegex(text: string, i: number): number {
  let k = i + 1;
  let inClass = false;
  while (k < text.length && text[k] !== "\n") {
    const c = text[k];
    if (c === "\\") k++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) break;
    k++;
  }
  k++;
  while (k < text.length && /[a-z]/i.test(text[k])) k++;
  return k;
}

/** The identifier (or keyword) that ends just before `end`. */
function wordBefore(text: string, end: number): string {
  let k = end;
  while (k > 0 && /[\w$]/.test(text[k - 1])) k--;
  return text.slice(k, end);
}

/** Every source file of the library (repo-relative, `/`-separated), sorted. */
async function sourceFiles(): Promise<string[]> {
  const out: string[] = [];
  async function visit(dir: string) {
    for await (const e of Deno.readDir(join(ROOT, dir))) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory) {
        if (!SKIPPED_DIRS.includes(`${rel}/`)) await visit(rel);
      } else if (e.isFile && /\.(ts|tsx|mts)$/.test(e.name)) out.push(rel);
    }
  }
  await visit("");
  return out.sort();
}

/** The import edges of the given files; relative specifiers become repo paths. */
async function importGraph(files: string[]): Promise<Edge[]> {
  const edges: Edge[] = [];
  for (const from of files) {
    const text = await Deno.readTextFile(join(ROOT, from));
    for (const { specifier, line } of importsOf(text)) {
      const target = specifier.startsWith(".")
        ? relative(ROOT, join(ROOT, dirname(from), specifier)).replaceAll("\\", "/")
        : specifier;
      edges.push({ from, specifier, target, line });
    }
  }
  return edges;
}

const within = (path: string, dir: string) => path.startsWith(dir);
const isEntry = (path: string) =>
  ENTRY_POINTS.includes(path) || ENTRY_DIRS.some((d) => within(path, d));

/** Every broken rule of an import graph, as `file:line imports "specifier": why`. */
function boundaryProblems(edges: Edge[]): string[] {
  const problems: string[] = [];
  for (const e of edges) {
    const at = `${e.from}:${e.line} imports "${e.specifier}"`;
    const local = e.specifier.startsWith(".");
    if (LEAVES.includes(e.from)) {
      problems.push(`${at}: ${e.from} imports nothing (others import it)`);
    }
    if (local && LEAVES.includes(e.target)) continue;
    if (within(e.from, "pipeline/")) {
      if (local && within(e.target, "plugins/")) {
        problems.push(`${at}: the pipeline never imports a plugin (built-ins come as builtins)`);
      } else if (local && isEntry(e.target)) {
        problems.push(`${at}: the pipeline never imports an entry point (mod.ts, cli, api/)`);
      }
    }
    const plain = local ? e.target === "pipeline/types.ts" : e.specifier.startsWith("node:");
    if (e.from === "pipeline/helpers.ts" && !plain) {
      problems.push(
        `${at}: pipeline/helpers.ts stays dependency-free (node:, types.ts and ${
          LEAVES.join(", ")
        } only)`,
      );
    }
    if (within(e.from, "plugins/")) {
      const allowed = local
        ? within(e.target, "plugins/") || within(e.target, "grammars/") ||
          PLUGIN_SURFACE.includes(e.target)
        : e.specifier.startsWith("node:");
      if (!allowed) {
        problems.push(
          `${at}: plugins import only ${PLUGIN_SURFACE.join(", ")}, grammars/ and plugins/`,
        );
      }
    }
    // (Plugins have their own, stricter rule below.)
    const external = /^(npm|jsr|https?):/.test(e.specifier);
    if (external && e.from !== "deps.ts" && !within(e.from, "plugins/")) {
      problems.push(`${at}: external modules are imported only in deps.ts`);
    }
    if (within(e.from, "grammars/") && local) {
      if (within(e.target, "pipeline/") || within(e.target, "plugins/") || isEntry(e.target)) {
        problems.push(`${at}: grammars/ imports only grammars/ and deps.ts`);
      }
    }
  }
  return problems;
}

Deno.test("boundaries: the pipeline imports no plugin, plugins import only the public surface", async () => {
  const files = await sourceFiles();
  const edges = await importGraph(files);
  const problems = boundaryProblems(edges);
  assert.deepEqual(problems, [], `broken import rules:\n${problems.join("\n")}`);
  // The graph is real: the files the rules speak of are read, with their imports.
  assert.ok(files.includes("pipeline/build.ts") && files.includes("plugins/defaults.ts"));
  const has = (from: string, target: string) =>
    edges.some((e) => e.from === from && e.target === target);
  assert.ok(has("mod.ts", "plugins/defaults.ts"), "mod.ts hands the built-ins over");
  assert.ok(has("api/build_context.ts", "plugins/defaults.ts"));
  assert.ok(has("plugins/ordering/pinned.ts", "pipeline/helpers.ts"));
  assert.ok(has("pipeline/count.ts", "pipeline/_count_worker.ts"), "worker URLs are edges");
  assert.ok(
    edges.some((e) => e.from === "plugins/view_modes/code_pool.ts" && e.line > 1),
    "imports are found with their lines",
  );
});

Deno.test("boundaries: a broken rule names the file, the line and the import", () => {
  const edge = (from: string, specifier: string, line = 3): Edge => ({
    from,
    specifier,
    target: specifier.startsWith(".")
      ? relative(ROOT, join(ROOT, dirname(from), specifier)).replaceAll("\\", "/")
      : specifier,
    line,
  });
  const problems = boundaryProblems([
    edge("pipeline/api.ts", "../plugins/defaults.ts", 10),
    edge("pipeline/x.ts", "../cli/build.ts"),
    edge("pipeline/x.ts", "./resolve.ts"),
    edge("plugins/ordering/pinned.ts", "../../pipeline/resolve.ts", 11),
    edge("plugins/sections/a.ts", "../../pipeline/types.ts"),
    edge("plugins/sections/a.ts", "../../pipeline/helpers.ts"),
    edge("plugins/sections/a.ts", "../../grammars/languages.ts"),
    edge("plugins/sections/a.ts", "../../deps.ts"),
    edge("plugins/sections/a.ts", "../_render.ts"),
    edge("plugins/sections/a.ts", "node:path"),
    edge("plugins/sections/a.ts", "../../cli.ts", 5),
    edge("plugins/sections/a.ts", "npm:picomatch@4.0.3", 6),
    edge("pipeline/helpers.ts", "./read.ts", 7),
    edge("grammars/parser.ts", "../pipeline/types.ts", 8),
    edge("grammars/parser.ts", "npm:web-tree-sitter@0.27.1", 9),
    edge("deps.ts", "npm:web-tree-sitter@0.27.1", 9),
  ]);
  assert.deepEqual(problems.map((p) => p.split(": ")[0]), [
    `pipeline/api.ts:10 imports "../plugins/defaults.ts"`,
    `pipeline/x.ts:3 imports "../cli/build.ts"`,
    `plugins/ordering/pinned.ts:11 imports "../../pipeline/resolve.ts"`,
    `plugins/sections/a.ts:5 imports "../../cli.ts"`,
    `plugins/sections/a.ts:6 imports "npm:picomatch@4.0.3"`,
    `pipeline/helpers.ts:7 imports "./read.ts"`,
    `grammars/parser.ts:8 imports "../pipeline/types.ts"`,
    `grammars/parser.ts:9 imports "npm:web-tree-sitter@0.27.1"`,
  ]);
  assert.match(problems[0], /the pipeline never imports a plugin/);
});

Deno.test("boundaries: imports are read from code, not from comments, strings or regexes", () => {
  const text = [
    `/**`,
    ` * @example`,
    ` * import { build } from "../plugins/defaults.ts";`,
    ` */`,
    `import {`,
    `  a,`,
    `  type B,`,
    `} from "./a.ts";`,
    `import type { C } from './c.ts';`,
    `export { d } from "./d.ts"; // import { e } from "./e.ts";`,
    `export * from "./f.ts";`,
    `import "./g.ts";`,
    `const re = /import x from "h"/g; const s = 'import y from "./i.ts"';`,
    'const t = `import z from "./j.ts" ${await import("./k.ts")}`;',
    `const w = new Worker(new URL("./l.ts", import.meta.url));`,
    `const half = 1 / 2; /* import q from "./m.ts" */ const r = 4 / 2;`,
  ].join("\n");
  assert.deepEqual(importsOf(text), [
    { specifier: "./a.ts", line: 8 },
    { specifier: "./c.ts", line: 9 },
    { specifier: "./d.ts", line: 10 },
    { specifier: "./f.ts", line: 11 },
    { specifier: "./g.ts", line: 12 },
    { specifier: "./k.ts", line: 14 },
    { specifier: "./l.ts", line: 15 },
  ]);
});
