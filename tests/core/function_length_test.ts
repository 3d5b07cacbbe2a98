// Functions stay short (issue 28): every function, method, arrow function and function expression
// of the library spans at most 60 lines, read with the TypeScript compiler. The exceptions are
// listed below, each with its reason and the lines it may have, so that none grows unnoticed and
// an entry that is no longer needed is removed.
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "npm:typescript@5.9.3";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), "..", ".."));

/** The longest a function may be, from its first line to its last, unless allowed below. */
const MAX_LINES = 60;
/** The library's source: these folders (recursively) and these root files. */
const DIRS = [
  "api",
  "accel",
  "ci",
  "cli",
  "grammars",
  "knowledge",
  "pipeline",
  "plugins",
  "report",
];
const ROOT_FILES = ["mod.ts", "cli.ts", "config.ts"];

/** A loop run per character, token or item: split, it would make a call per step. */
const HOT_LOOP = "hot loop";

/**
 * Functions that may be longer, keyed `file name`: the reason and the most lines they may have.
 * A table is a long literal; a hot loop stays whole where splitting it would add a call per item.
 */
const ALLOWED: Record<string, { lines: number; reason: string }> = {
  // The BPE counter's loops share its buffers and work count as closure variables.
  "pipeline/_bpe.ts bpeCounter": { lines: 224, reason: HOT_LOOP },
  "pipeline/_bpe.ts mergeLong": { lines: 82, reason: HOT_LOOP },
  // The hollow readers' lexer steps, per token and per character.
  "grammars/_js_hollow.ts punct": { lines: 126, reason: HOT_LOOP },
  // The skeleton's pass over a container's items, whose state the item cases share.
  "plugins/view_modes/_code.ts container": { lines: 240, reason: HOT_LOOP },
};

/** One function of a file: its key in {@linkcode ALLOWED}, where it starts and its lines. */
interface Found {
  key: string;
  line: number;
  lines: number;
}

async function sourceFiles(): Promise<string[]> {
  const out: string[] = [...ROOT_FILES];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(join(ROOT, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && path.endsWith(".ts")) out.push(path);
    }
  }
  for (const dir of DIRS) await walk(dir);
  return out.sort();
}

/** The name a function is known by: its own, or that of the variable, property or class member. */
function functionName(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText();
  }
  if (ts.isPropertyDeclaration(parent)) return parent.name.getText();
  return "(anonymous)";
}

/** Every function with a body longer than {@linkcode MAX_LINES} lines in one file's text. */
export function longFunctions(path: string, text: string, max = MAX_LINES): Found[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const visit = (node: ts.Node): void => {
    const isFunction = ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) || ts.isFunctionExpression(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node);
    if (isFunction && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ key: `${path} ${functionName(node)}`, line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What is wrong with the long functions found: not allowed, longer than allowed, or stale entries. */
export function lengthProblems(
  found: Found[],
  allowed: Record<string, { lines: number; reason: string }>,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { key, line, lines } of found) {
    const [file, name] = key.split(" ");
    const where = `${file}:${line} ${name} (${lines} lines)`;
    const entry = allowed[key];
    seen.add(key);
    if (!entry) problems.push(`${where}: longer than ${MAX_LINES} lines; split it`);
    else if (lines > entry.lines) {
      problems.push(`${where}: allowed ${entry.lines} lines (${entry.reason})`);
    }
  }
  for (const key of Object.keys(allowed)) {
    if (!seen.has(key)) {
      problems.push(`${key}: no longer over ${MAX_LINES} lines; remove it from the allow-list`);
    }
  }
  return problems;
}

Deno.test("every function of the library spans at most 60 lines unless the allow-list says why", async () => {
  const found: Found[] = [];
  for (const path of await sourceFiles()) {
    found.push(...longFunctions(path, await Deno.readTextFile(join(ROOT, path))));
  }
  assert.deepEqual(lengthProblems(found, ALLOWED), []);
});

Deno.test("a function that grows past its allowance or past 60 lines is named with file, line and length", () => {
  const body = (n: number) =>
    Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const text = [
    `export function short() {\n${body(58)}\n}`,
    `export const grown = () => {\n${body(60)}\n};`,
    `class C {\n  long(): void {\n${body(70)}\n  }\n}`,
  ].join("\n");
  const found = longFunctions("x/a.ts", text);
  assert.deepEqual(found, [
    { key: "x/a.ts grown", line: 61, lines: 62 },
    { key: "x/a.ts long", line: 124, lines: 72 },
  ]);
  assert.deepEqual(
    lengthProblems(found, {
      "x/a.ts long": { lines: 71, reason: "a table" },
      "x/a.ts gone": { lines: 80, reason: "a hot loop" },
    }),
    [
      "x/a.ts:61 grown (62 lines): longer than 60 lines; split it",
      "x/a.ts:124 long (72 lines): allowed 71 lines (a table)",
      "x/a.ts gone: no longer over 60 lines; remove it from the allow-list",
    ],
  );
});
