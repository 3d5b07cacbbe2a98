/**
 * The engine behind the `skeleton`, `outline` and `masked` views: it walks a
 * tree-sitter tree once, keeps definitions, imports and constants with their
 * exact source text (signatures, decorators, doc comments, indentation),
 * replaces function bodies with one marker, drops other statements, and
 * records every symbol with its qualified name.
 *
 * The output is the source with edits applied, so what is kept is
 * byte-for-byte what the file says, in source order, never deduplicated.
 *
 * @module
 */

import { COMMENT_RUN_LIMIT, costliestCommentRun } from "../../grammars/python_comment_runs.ts";
import {
  isHeaderFile,
  languageOf,
  LANGUAGES,
  type LanguageSpec,
  type NodeLike,
} from "../../grammars/languages.ts";
import { type ComponentPart, componentParts, isComponentFile } from "../../grammars/components.ts";
// Not `parser.ts`: a code worker loads this module without `deps.ts` (see `tree_sitter.ts`).
import { isRuntimeAbort, parserFor, runtimeAborted } from "../../grammars/tree_sitter.ts";
import {
  hollowRanges,
  hollowReader,
  type HollowRegion,
  TooManyTokens,
} from "../../grammars/hollow.ts";
import { PARSE_DEADLINE_MS, timedParse } from "./_parse_deadline.ts";
import type { SyntaxNode } from "../../grammars/parser.ts";
import type { MaskMode, ViewContext, ViewInput, ViewOutput } from "../../pipeline/types.ts";
import { ClockError, countWork, formatCount, isClockError } from "../../pipeline/helpers.ts";
import { counted } from "./_counts.ts";

/** A definition found in a file. */
export interface CodeSymbol {
  /** Short name (`get`). */
  name: string;
  /** Dotted name with its containers (`Store.get`). */
  qualifiedName: string;
  /** Kind (`function`, `method`, `class`, ...). */
  kind: string;
  /** The signature on one line, whitespace collapsed, without the body. */
  signature: string;
  /** Nesting depth (0 at top level). */
  depth: number;
  /** Public API by the language's rules. */
  public: boolean;
  /** 1-based line of the definition. */
  line: number;
}

/** What the engine returns. */
export interface CodeView {
  /** The rendered text. */
  text: string;
  /** Every symbol met, in source order. */
  symbols: CodeSymbol[];
  /** Whether the parser found syntax errors (what parsed is still rendered). */
  hasErrors: boolean;
  /**
   * Whether the parser read the whole text as one error node (no part of it as a file): its
   * items would be cut one by one around the tokens between them. @default {false}
   */
  unread?: boolean;
  /**
   * The runs of like statements the skeleton folded into one line (a seeds file's 2,968
   * `User.create!(...)`), in source order: an outline shows the same line where they stood.
   */
  folds?: FoldedRun[];
}

/** A run of statements a view folded into one line (see {@linkcode CodeView.folds}). */
export interface FoldedRun {
  /** How many of the view's symbols come before the run. */
  before: number;
  /** The nesting depth of the run's statements (0 at top level). */
  depth: number;
  /** The qualified name of the symbol that holds the run ("" at top level). */
  scope: string;
  /** The line standing for the run: `... (2,968 more User.create! statements)`. */
  marker: string;
}

/** Options of {@linkcode renderCode}. */
export interface RenderCodeOptions {
  /** Mode of a symbol by qualified name; unlisted symbols and anonymous items use `rest`. */
  mask?: Record<string, MaskMode>;
  /** Mode of everything the mask does not list. @default {"sig"} */
  rest?: "sig" | "hide";
  /** Values (constants, initializers) longer than this many lines are elided. @default {12} */
  maxValueLines?: number;
  /**
   * Parse with function bodies hollowed out where the language can (Python, JavaScript,
   * TypeScript) and no symbol is masked: the same output from a much smaller tree (see
   * `grammars/_python_hollow.ts` and `grammars/_js_hollow.ts`).
   * @default {true}
   */
  hollow?: boolean;
  /**
   * Most work units one file may cost (a unit: one step of the parser, one character it reads
   * past 16 readings of the text, or one tree node visited): past it the engine stops and throws
   * a {@linkcode WORK_BUDGET} error, so a view falls back instead of stalling the build on one
   * file. Counted, never timed: the same file stops at the same point on every machine.
   * @default {DEFAULT_MAX_WORK}
   */
  maxWork?: number;
  /**
   * Most milliseconds one file's parse may take: past it the parse stops with a `ClockError`,
   * which fails the build. A safety net far above what the work budget allows (see
   * `_parse_deadline.ts`). @default {PARSE_DEADLINE_MS}
   */
  maxParseMs?: number;
}

/**
 * The code views' default work budget per file ({@linkcode RenderCodeOptions.maxWork}): 3
 * million units. Real files stay under it: TypeScript's `lib.dom.d.ts` (1.9 MB) 0.6 million,
 * its 9 MB `typescript.js` (bodies hollowed) a few hundred, OpenGL's `glext.h` (0.85 MB) 1.6
 * million, a generated tree-sitter `parser.c` (1.5 MB) 1.5 million. One line of minified
 * JavaScript (2 units a character) reaches it at 1.5 MB, a file of one-character Python lines
 * (6.5 a character, whose skeleton is nothing) at 0.45 MB.
 */
export const DEFAULT_MAX_WORK: number = 3_000_000;

/** How an error over the work budget starts (it may cross from a worker as a message). */
const WORK_BUDGET = "work budget";

/** How an error of a parse stopped by its clock starts (see `_parse_deadline.ts`). */
const PAST_DEADLINE = "parse stopped at its deadline";

/**
 * Whether `error` is a view's error over its work budget (thrown here or crossed from a worker
 * as a message): the same text and budget always end so, unlike a parse stopped by its clock.
 *
 * @example
 * ```ts
 * import { isOverBudget } from "./_code.ts";
 * isOverBudget(new Error("parse stopped at its deadline of 20 s")); // false
 * ```
 */
export function isOverBudget(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith(`${WORK_BUDGET} of `);
}

/** Parser steps between two calls of tree-sitter's progress callback. */
const PARSE_STEPS_PER_CALL = 100;

/**
 * Tree nodes the walk has visited, and the most it may visit (see `namedChildren`); the levels of
 * the tree it is in now (see `Walker.walk`).
 */
const walk = { visited: 0, limit: Infinity, depth: 0, ends: false };

/**
 * The most levels of a syntax tree the walk follows: a text nested deeper (`((((…` thousands of
 * times) fails with {@linkcode TOO_DEEP}, at the same level on every thread and machine, before
 * JavaScript's stack overflows (at about 1,500 levels, a point that depends on the thread and on
 * how far the code is compiled). Real code stays far under it: at most 49 levels in 3,062 files
 * of ten projects and Python's standard library, but for redis's `redismodule.h` (689: tree-sitter-c
 * reads its 365 macro-wrapped declarations as one nested expression).
 */
const MAX_WALK_DEPTH = 1000;

/** The error of a text nested deeper than {@linkcode MAX_WALK_DEPTH}. */
const TOO_DEEP = `its syntax tree nests deeper than the view follows (${MAX_WALK_DEPTH} levels)`;

/**
 * Throw before parsing a Python file whose run of comment lines inside a block
 * would take tree-sitter-python's scanner quadratic time (minutes for tens of
 * thousands of lines): the view falls back to `summary` with a note instead.
 */
function refuseCommentRun(text: string): void {
  const run = costliestCommentRun(text);
  if (run && run.comments * run.chars > COMMENT_RUN_LIMIT) {
    throw new Error(
      `${run.comments} comment lines in a row inside a block from line ${run.line} ` +
        `(tree-sitter-python rescans such a run at each of its lines, in time that grows ` +
        `with the square of its length)`,
    );
  }
}

/**
 * The regions to hollow before the parse. The reader counts the tokens it reads outside function
 * bodies, each at least one parser step: past `maxWork` of them the parse cannot fit the budget,
 * so the reader stops there and the view falls back at once instead of reading the rest of the
 * file and parsing up to the budget. Its reading is counted as `hollow` work (a character a unit).
 */
function readRegions(
  spec: LanguageSpec,
  text: string,
  options: RenderCodeOptions,
  maxWork: number,
): HollowRegion[] | undefined {
  try {
    const regions = spec.hollow!(text, {
      maxValueLines: options.maxValueLines,
      maxTokens: maxWork,
    });
    countWork("hollow", text.length);
    return regions;
  } catch (error) {
    if (!(error instanceof TooManyTokens)) throw error;
    countWork("hollow", error.at);
    throw new Error(
      `${WORK_BUDGET} of ${maxWork} units (parser steps and tree nodes visited) cannot hold the ` +
        `parse: ${error.message}, each at least one parser step`,
    );
  }
}

/** A tree cursor of web-tree-sitter. */
type TreeCursor = ReturnType<SyntaxNode["walk"]>;

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * A run of more than this many like statements in a container (a seeds file's thousands of
 * `User.create!(...)`, a plugin's hundreds of `add_action` calls) shows its first
 * {@linkcode FOLD_SHOWN} and a line counting the rest: a skeleton stays a short view of any file.
 * Above the lists of declarations a file writes by hand (a Phoenix component's 28 `attr`s, an
 * Ecto schema's `field`s, a model's `has_many`s), which stay whole.
 */
const FOLD_RUN = 64;

/** How many of a folded run's statements are shown. */
const FOLD_SHOWN = 32;

/**
 * A run of statements that may fold, however unlike (a generated routes file's `get` and
 * `resources` in turn), that still shows more than this many shows its first
 * {@linkcode FOLD_ANY_SHOWN}.
 */
const FOLD_ANY = 200;

/** How many of a folded run of unlike statements are shown. */
const FOLD_ANY_SHOWN = 100;

/**
 * A run of comments on lines one after another (a doc comment of `//`, `#` or `///` lines) longer
 * than this many lines, plus its first, shows its first line, a line counting the ones left out
 * and its last {@linkcode COMMENT_RUN_SHOWN}: the walk makes an object of each comment it keeps, so
 * a file of a million comment lines above one declaration held them all (1.2 GB for 3 MB). Above
 * the longest doc comments of real code (163 `///` lines in serde, 181 `#` lines in sinatra).
 */
const COMMENT_RUN_SHOWN = 200;

/** A run's comments left out (see {@linkcode COMMENT_RUN_SHOWN}): where, and how many lines. */
interface CommentGap {
  start: number;
  end: number;
  /** The row the left-out part starts on. */
  row: number;
  /** What stands for them when the run stays. */
  marker: Edit;
}

/** The kinds of symbol a run may fold: what a DSL's statement defines. */
const FOLD_KINDS = new Set(["call", "setting", "route"]);

/**
 * A statement's callee as written, and whether a setting's `=` (or `||=`, `+=`) follows it: the
 * path of names it starts with (`$app->get`, `Foo::bar`, `db.users.insert`, `create!`).
 */
const FOLD_HEAD =
  /^((?:[$@]{0,2}[\p{L}_][\p{L}\p{N}_]*[!?]?)(?:(?:\.|->|::|\?\.)[$@]?[\p{L}_][\p{L}\p{N}_]*[!?]?)*)[ \t]*((?:\|\||&&|[-+*/%|&^]|<<|>>|\?\?)?=(?![=>~]))?/u;

/** Callees that import or include: a run of them is the file's imports, shown whole. */
const FOLD_IMPORTS =
  /^(?:import|require|require_relative|require_once|include|include_once|load|use|using|from|export|alias|#include|extern|package|library|source)$/;

/**
 * Fold the runs of like `items` (an index and a key each; undefined: an item that never folds)
 * longer than {@linkcode FOLD_RUN} into `folds`, all but each run's first {@linkcode FOLD_SHOWN}.
 */
function foldRuns(items: [number, string | undefined][], folds: Map<number, Fold>): void {
  let run: number[] = [];
  let key: string | undefined;
  const close = () => {
    if (run.length > FOLD_RUN) {
      folds.set(run[FOLD_SHOWN], { key: key!, count: run.length - FOLD_SHOWN });
      for (const at of run.slice(FOLD_SHOWN + 1)) folds.set(at, { key: key!, count: 0 });
    }
    run = [];
  };
  for (const [i, own] of items) {
    if (own !== key) close();
    key = own;
    if (own !== undefined) run.push(i);
  }
  close();
}

/**
 * Fold what a run of `items` that may fold, however unlike, still shows past
 * {@linkcode FOLD_ANY} lines (the like ones folded), from the first item not folded already
 * after {@linkcode FOLD_ANY_SHOWN} shown: one line counts the rest of the run.
 */
function foldLong(items: [number, string | undefined][], folds: Map<number, Fold>): void {
  const shown = (i: number) => (folds.get(i)?.count ?? 1) > 0;
  let run: number[] = [];
  const close = () => {
    if (run.filter(shown).length > FOLD_ANY) {
      let at = 0;
      for (let seen = 0; seen < FOLD_ANY_SHOWN || folds.has(run[at]); at++) {
        if (shown(run[at])) seen++;
      }
      folds.set(run[at], { key: "", count: run.length - at });
      for (const i of run.slice(at + 1)) folds.set(i, { key: "", count: 0 });
    }
    run = [];
  };
  for (const [i, own] of items) {
    if (own === undefined) close();
    else run.push(i);
  }
  close();
}

/**
 * Whether `node` stands in the arguments of a call: a node above it, up to the root, is one. (Up
 * to the root, not to the item it is in, as the fold keys were always read: each `parent` was a
 * new object, never the item's.)
 */
function inArguments(node: SyntaxNode): boolean {
  for (let up = node.parent; up; up = up.parent) {
    if (up.type.includes("argument")) return true;
  }
  return false;
}

/** A folded run's first folded item: the run's key and how many it stands for (0: the others). */
interface Fold {
  key: string;
  count: number;
}

/** The line that stands for a folded run's items: `... (2,988 more User.create! statements)`. */
function foldMarker(fold: Fold): string {
  return `... (${formatCount(fold.count)} more ${fold.key ? `${fold.key} ` : ""}statements)`;
}

/**
 * A signature on one line without a bracket's inner blanks (`f( a)`, `Map< K, V>`, `[ 1, 2, ]`)
 * and a trailing comma before its close (a type parameter list's too, `<E, S, >`); a `<` after anything but a name is an operator (Ruby's
 * `class A < B`, a default `a < b`, a shift's `<< b`) and keeps it.
 */
function tightBrackets(sig: string, characters = false): string {
  // Each replacement only where it can match: most signatures have none of these.
  const opens = sig.includes("( ") || sig.includes("< ") || sig.includes("[ ");
  if (!opens && !sig.includes(" )") && !sig.includes(" ]") && !sig.includes(", >")) return sig;
  // A literal's text is its meaning (a test's title `"adds ( one )"`, a Kotlin test named
  // `` `returns [ ] when empty` ``, a default `/[ ]/`): only the code between literals is tightened.
  let out = "";
  let at = 0;
  for (const literal of sig.matchAll(characters ? LITERALS_CHARACTERS : LITERALS)) {
    out += tightCode(sig.slice(at, literal.index)) + literal[0];
    at = literal.index + literal[0].length;
  }
  return out + tightCode(sig.slice(at));
}

/** {@linkcode tightBrackets} on a signature's code between its literals. */
function tightCode(code: string): string {
  if (code.includes("( ") || code.includes("< ") || code.includes("[ ")) {
    code = code.replace(/([([]|(?<=[\w:.])<) /g, "$1");
  }
  if (code.includes(" )") || code.includes(" ]")) code = code.replace(/,? ([)\]])/g, "$1");
  // A type parameters' trailing comma (`class Hono<E, S, >` from a list one a line): no
  // operator comes after a comma. A list after no name (a TSX arrow's `< T, >(x: T) =>`, whose
  // comma tells it from an element) keeps it, as its blank after `<`.
  if (code.includes(", >")) {
    const text = code;
    let scanned = 0;
    let open = -1;
    code = code.replace(/, >(?![>=])/g, (match: string, at: number) => {
      for (; scanned < at; scanned++) if (text[scanned] === "<") open = scanned;
      return open >= 0 && text[open + 1] === " " ? match : ">";
    });
  }
  return code;
}

/**
 * The languages whose `'` opens a character only, a name's prime or a lifetime otherwise (Rust's
 * `&'a str`, Haskell's `x'`).
 */
const CHARACTER_QUOTES = new Set(["rust", "haskell"]);

/**
 * A signature's literals: strings in either quote or backticks, and a regex literal after `=`,
 * `(`, `,` or `:` (`/[ ]/`); in {@linkcode CHARACTER_QUOTES}, a `'` opens a character only.
 */
const LITERALS =
  /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|(?<=[=(,:] ?)\/(?![/*\s])(?:[^/\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+\//g;
const LITERALS_CHARACTERS =
  /'(?:[^'\\\n]|\\[^'\n]{1,9})'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|(?<=[=(,:] ?)\/(?![/*\s])(?:[^/\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+\//g;

/** Marks deleted text until line cleanup (a private-use code point). */
const CUT = "\uE000";

/** The text of an edit that a later elision made void (never applied). */
const DEAD = "\uE001";

/**
 * Render a file with the code engine, or return undefined when no grammar
 * covers its extension. `onParse`, when given, is told how many characters
 * the parser has read so far, now and then while it parses (a code worker
 * shares it with the pool that sent the file).
 *
 * @example
 * ```ts
 * import { renderCode } from "./_code.ts";
 * const view = await renderCode("a.py", "def f(x):\n    return x\n");
 * view?.text; // "def f(x):\n    ...\n"
 * ```
 */
export async function renderCode(
  path: string,
  text: string,
  options: RenderCodeOptions = {},
  onParse?: (chars: number) => void,
): Promise<CodeView | undefined> {
  try {
    return await renderFile(path, text, options, onParse);
  } catch (error) {
    // A trap of the runtime: it is made anew for the next file (see `tree_sitter.ts`).
    throw runtimeAborted(error);
  }
}

async function renderFile(
  path: string,
  text: string,
  options: RenderCodeOptions,
  onParse?: (chars: number) => void,
): Promise<CodeView | undefined> {
  const spec = languageOf(path, text);
  if (!spec) return undefined;
  if (isComponentFile(path)) return await renderComponent(text, options, onParse);
  const view = await renderWith(spec, text, options, onParse);
  if (!view.hasErrors || !isHeaderFile(path)) return view;
  if (spec.id === "c") {
    // A `.h` file with no C++ word may still be C++ (its classes made by macros): take the C++
    // reading when it parses cleanly, or finds more.
    const other = await renderWith(CPP, text, options);
    if (!other.hasErrors || other.symbols.length > view.symbols.length) return other;
  } else if (spec.id === "cpp") {
    // C++ by its words, but C's reading parses cleanly: a C header with a C++ look-alike.
    const other = await renderWith(C, text, options);
    if (!other.hasErrors) return other;
  }
  return view;
}

const C = LANGUAGES.find((l) => l.id === "c")!;
const CPP = LANGUAGES.find((l) => l.id === "cpp")!;

/**
 * A Vue or Svelte component rendered: each script block's code by its grammar (its own parse,
 * work budget and symbols, their lines the file's), between its tags as written; each other part
 * (template, markup, style) as a short line (see {@linkcode placeholders}). Its text is empty
 * when no script shows anything, so that the view falls back to `summary`.
 */
async function renderComponent(
  text: string,
  options: RenderCodeOptions,
  onParse?: (chars: number) => void,
): Promise<CodeView> {
  const lines: string[] = [];
  const symbols: CodeSymbol[] = [];
  const folds: FoldedRun[] = [];
  let hasErrors = false;
  let unread = false;
  let shown = false;
  for (const part of componentParts(text)) {
    if (part.kind === "other") {
      lines.push(...placeholders(text, part));
      continue;
    }
    const spec = LANGUAGES.find((l) => l.id === part.grammar)!;
    const from = part.codeStart!;
    const code = text.slice(from, part.codeEnd);
    const view = await renderWith(spec, code, options, onParse && ((n) => onParse(from + n)));
    // The code's first line is the line its opening tag ends on: the lines before that one.
    const before = countLines(text, 0, from);
    for (const f of view.folds ?? []) folds.push({ ...f, before: f.before + symbols.length });
    for (const s of view.symbols) symbols.push({ ...s, line: s.line + before });
    hasErrors ||= view.hasErrors;
    unread ||= view.unread === true;
    const body = view.text.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
    shown ||= body.trim() !== "";
    lines.push(part.open!, ...(body ? [body] : []), "</script>");
  }
  return {
    text: shown ? `${lines.join("\n")}\n` : "",
    symbols,
    hasErrors,
    ...(unread ? { unread: true } : {}),
    ...(folds.length ? { folds } : {}),
  };
}

/** The most characters of a part's first line its placeholder shows. */
const MAX_PLACEHOLDER = 80;

/**
 * The lines standing for a component's part between scripts: each block written as a tag at the
 * start of a line closed by its end tag at the start of a later one (`<template>`, `<style>`) is
 * `<template> ... (40 lines) </template>`, and each run of other lines (Svelte's markup) its first
 * line and its count; a block or run of one line is that line. What is shown is the file's text.
 */
function placeholders(text: string, part: ComponentPart): string[] {
  const lines = text.slice(part.start, part.end).split("\n");
  const out: string[] = [];
  const blockEnd = (i: number): number => {
    const tag = /^<([A-Za-z][\w:.-]*)/.exec(lines[i])?.[1];
    if (!tag) return -1;
    for (let j = i; j < lines.length; j++) if (lines[j].startsWith(`</${tag}>`)) return j;
    return -1;
  };
  let i = 0;
  while (i < lines.length) {
    if (!lines[i].trim()) {
      i++;
      continue;
    }
    let last = blockEnd(i);
    const closed = last >= 0;
    if (!closed) {
      last = i;
      while (last + 1 < lines.length && blockEnd(last + 1) < 0) last++;
      while (!lines[last].trim()) last--;
    }
    const first = lines[i].trimEnd();
    if (last === i) {
      out.push(first.length > MAX_PLACEHOLDER ? `${first.slice(0, MAX_PLACEHOLDER)} ...` : first);
    } else {
      const head = first.length > MAX_PLACEHOLDER ? first.slice(0, MAX_PLACEHOLDER) : first;
      const tail = closed ? ` ${lines[last].trim()}` : "";
      out.push(`${head} ... (${last - i + 1} lines)${tail}`);
    }
    i = last + 1;
  }
  return out;
}

async function renderWith(
  spec: LanguageSpec,
  text: string,
  options: RenderCodeOptions,
  onParse?: (chars: number) => void,
): Promise<CodeView> {
  const maxWork = options.maxWork ?? DEFAULT_MAX_WORK;
  const regions = spec.hollow && options.hollow !== false &&
      !Object.keys(options.mask ?? {}).length
    ? readRegions(spec, text, options, maxWork)
    : undefined;
  if (spec.id === "python") refuseCommentRun(text);
  const parser = await parserFor(spec.grammar);
  const { tree, steps } = parseWithin(parser, text, {
    regions,
    maxWork,
    maxMs: options.maxParseMs ?? PARSE_DEADLINE_MS,
    onParse,
    own: spec.parseText?.(text),
  });
  if (!tree) throw new Error(`Parser for "${spec.grammar}" returned no tree`);
  const root = tree.rootNode;
  // One cursor for the whole walk, moved with `reset` (a cursor per node costs a wasm allocation
  // and a finalizer registration).
  const cursor = root.walk();
  walk.visited = 0;
  walk.depth = 0;
  walk.ends = spec.id === "kotlin";
  walk.limit = maxWork - steps;
  try {
    const walker = new Walker(spec, text, options, cursor);
    walker.regions = regions;
    if (spec.id !== "python") {
      const exports = childrenOfType(cursor, root, "export_statement");
      walker.esm = exports.length > 0;
      walker.exported = listedExports(exports);
    }
    walker.container(root, []);
    return {
      // A run's marker after the edits: the cut of the same comments, if any, wins.
      text: applyEdits(text, [...walker.edits, ...[...walker.gaps.values()].map((g) => g.marker)]),
      symbols: walker.symbols,
      hasErrors: root.hasError,
      ...(root.type === "ERROR" ? { unread: true } : {}),
      ...(walker.folded.length ? { folds: walker.folded } : {}),
    };
  } catch (error) {
    // Freed (below) before the parse again: this call waits for nothing.
    if (error === HOLLOWED) return renderWith(spec, text, { ...options, hollow: false }, onParse);
    throw error === walk ? overBudget(maxWork) : tooDeep(error);
  } finally {
    countWork("code", walk.visited);
    walk.limit = Infinity;
    cursor.delete();
    tree.delete();
  }
}

type Parser = Awaited<ReturnType<typeof parserFor>>;

/**
 * The node types that are a body in a `LanguageSpec.blockBodies` field: a block, Kotlin's lambda,
 * Scala 3's indented argument after a colon (`test("adds"):`).
 */
const BLOCK_BODIES = new Set(["block", "lambda_literal", "colon_argument"]);

/** The longest decorator an outline's signature shows whole (see `Walker.decorated`). */
const MAX_DECORATOR = 80;

/** An argument list one deep, its strings read (a `)` in one closes none). */
const ARGUMENT_LIST =
  /\((?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^()"']|\((?:[^()"']|"(?:[^"\\]|\\.)*")*\))*\)/g;

/** A string or a plain argument first in an argument list, and what follows it. */
const FIRST_ARGUMENT = /^\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^,()"']*?)\s*(,|\))/;

/**
 * An attribute's argument list as a signature shows it: whole up to {@linkcode MAX_DECORATOR}
 * characters, else its first argument when short (a route's path: `('/posts/{slug}', ...)`) or
 * none (`(...)`).
 */
function shortArguments(list: string): string {
  if (list.length <= MAX_DECORATOR) return list;
  const first = FIRST_ARGUMENT.exec(list);
  return first && first[1] && first[1].length <= 60 && first[2] === ","
    ? `(${first[1]}, ...)`
    : "(...)";
}

/**
 * A long signature whose attributes come before its name (C#'s `[UnconditionalSuppressMessage(
 * "Trimming", "IL2026: ...")] public static X AddFallback<T>(...)`, PHP's `#[Route(...)]`, Java's
 * annotations): their argument lists over {@linkcode MAX_DECORATOR} characters are cut (see
 * {@linkcode shortArguments}), as a decorator's are, so that the cut at 240 characters does not
 * take the name. Unchanged when the name is not found or comes early.
 */
function shortLead(sig: string, name: string | undefined, lifetimes = false): string {
  const last = name?.slice(name.lastIndexOf(".") + 1);
  if (!last) return sig;
  const word = new RegExp(
    `(?<![\\w"'$])${last.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w"'])`,
    "g",
  );
  const at = nameAt(sig, word, lifetimes);
  if (at < 120 || at > 4096) return sig;
  let lead = sig.slice(0, at).replace(ARGUMENT_LIST, shortArguments);
  if (lead.length > 160) {
    // Its first attributes and its last, and the modifiers and type before the name, each whole:
    // parts break before an attribute (`@`, `[`, `#[`) or after one's close.
    let words = lead.trimEnd().split(/ (?=[@#[])|(?<=[)\]]) /);
    // A lead with no attributes (C's `typedef enum { A, B, ... } mode`): words.
    if (words.some((w) => w.length >= 96)) words = lead.trimEnd().split(" ");
    let [head, tail] = ["", ""];
    while (words.length && head.length + words[0].length < 56) head += `${words.shift()} `;
    while (words.length && tail.length + words[words.length - 1].length < 96) {
      tail = ` ${words.pop()}${tail}`;
    }
    lead = `${head}...${tail} `;
  }
  return lead + sig.slice(at);
}

/**
 * Where a signature's name is: the first match of `word` outside the strings and the brackets of
 * the attributes before it (`[Obsolete("use Compute2, not Compute")]`, `nameof(Compute)`), or -1.
 * In Rust a `'` starts a lifetime (`impl<'a>`), no string.
 */
function nameAt(sig: string, word: RegExp, lifetimes: boolean): number {
  let depth = 0;
  let quote = "";
  let i = 0;
  for (const match of sig.matchAll(word)) {
    // Past where a lead is cut anyway (see `shortLead`).
    if (match.index > 4096) break;
    for (; i < match.index; i++) {
      const c = sig[i];
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = "";
      } else if (c === '"' || (c === "'" && !lifetimes)) quote = c;
      else if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]" || c === "}") depth = Math.max(0, depth - 1);
    }
    if (!quote && depth === 0) return match.index;
  }
  return -1;
}

/** The grammars {@linkcode wrappedFunction} reads. */
const JS_GRAMMARS = new Set(["javascript", "typescript", "tsx"]);

/**
 * The node type whose members a mask names one by one, by grammar: a JavaScript object literal's
 * (`api.get`), a PHP returned array's (a config file's keys).
 */
const MEMBER_HOLDERS = new Map([
  ["javascript", "object"],
  ["typescript", "object"],
  ["tsx", "object"],
  ["php", "array_creation_expression"],
]);

/** Calls a function can be wrapped in and still be found (`memo(forwardRef(...))` is two). */
const MAX_WRAPS = 4;

/**
 * A JavaScript or TypeScript value's function: the value itself when it is one, else a function
 * passed to it when it is a call, or to a call passed to it, up to {@linkcode MAX_WRAPS} calls
 * deep (React's `memo(forwardRef((props, ref) => {...}))`, `debounce(function () {...}, 300)`).
 */
function wrappedFunction(value: SyntaxNode, wraps = 0): SyntaxNode | undefined {
  if (/function|arrow/.test(value.type)) return value;
  if (value.type !== "call_expression" || wraps >= MAX_WRAPS) return undefined;
  const args = value.childForFieldName("arguments");
  if (args?.type !== "arguments") return undefined;
  for (const arg of args.namedChildren) {
    const found = arg && wrappedFunction(arg, wraps + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The local names a module's `export` statements without a declaration make public: each name of
 * `export { a, b as c }` (the local `a` and `b`) and the name of `export default a`. A list with a
 * source (`export { a } from "./m"`) names another module's bindings, not this one's.
 */
function listedExports(exports: SyntaxNode[]): Set<string> {
  const names = new Set<string>();
  for (const statement of exports) {
    if (statement.childForFieldName("declaration") || statement.childForFieldName("source")) {
      continue;
    }
    const value = statement.childForFieldName("value");
    if (value?.type === "identifier") names.add(value.text);
    for (const clause of statement.namedChildren) {
      if (clause?.type !== "export_clause") continue;
      for (const specifier of clause.namedChildren) {
        const name = specifier?.childForFieldName("name");
        if (name) names.add(name.text);
      }
    }
  }
  return names;
}

/**
 * The walk's error said plainly when it is JavaScript's stack overflow (the depth bound of
 * `Walker.walk` comes first on every tree seen; this is a net for recursion elsewhere).
 */
function tooDeep(error: unknown): unknown {
  if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) return error;
  return new Error("its syntax tree nests deeper than the view can follow");
}

/** The error of a view whose parse and walk spent the work budget. */
function overBudget(maxWork: number): Error {
  return new Error(
    `${WORK_BUDGET} of ${maxWork} units (parser steps and tree nodes visited) spent before ` +
      `the view was done`,
  );
}

/**
 * Parse a text, hollowed when `regions` are given, stopping past `maxWork` units (thrown as over
 * the budget: parser steps, and characters read again past the free readings of the text) or
 * past `maxMs` milliseconds (thrown as a {@linkcode ClockError}); the tree and the work it took.
 */
function parseWithin(
  parser: Parser,
  text: string,
  { regions, maxWork, maxMs, onParse, own }: {
    regions?: HollowRegion[];
    maxWork: number;
    /** Milliseconds the parse may take (see `_parse_deadline.ts`). */
    maxMs: number;
    onParse?: (chars: number) => void;
    /** The text to parse instead of `text` (same offsets), when the language gives one. */
    own?: string;
  },
): { tree: ReturnType<Parser["parse"]>; steps: number } {
  // Parser steps so far: tree-sitter calls back every PARSE_STEPS_PER_CALL of them, and stops
  // when the callback says so. Rereading (see `_parse_deadline.ts`) of an earlier parse's input.
  let steps = 0;
  let reread = 0;
  const spent = () => steps + reread + input.rereads();
  const timed = (source: string | ((index: number) => string)) =>
    timedParse(source, { maxMs, length: text.length, left: () => maxWork - steps - reread });
  // The parser reads the hollowed text piece by piece: no hollowed copy of the file is made. It
  // skips what lies between each region's head and tail (the ranges it reads leave it out).
  let input = timed(regions ? hollowReader(own ?? text, regions) : own ?? text);
  // Parse, walk and free with no await in between, so that concurrent renders never hold
  // more than one tree in the wasm heap. The parser reads UTF-16: its offsets are 2 bytes a character.
  const progressCallback = (state: { currentOffset: number }) => {
    onParse?.(state.currentOffset / 2);
    steps += PARSE_STEPS_PER_CALL;
    return spent() > maxWork || input.late();
  };
  const parseOptions = regions
    ? { progressCallback, includedRanges: hollowRanges(text, regions) }
    : { progressCallback };
  let tree = parser.parse(input.read, null, parseOptions);
  if (regions && tree?.rootNode.hasError && spent() <= maxWork && !input.late()) {
    // A syntax error is reported, and rendered around, as the whole text has it.
    tree.delete();
    reread += input.rereads();
    input = timed(own ?? text);
    tree = parser.parse(input.read, null, { progressCallback });
  }
  input.parsed();
  const work = spent();
  countWork("code", work);
  // A parse the callback stopped is kept by the parser, which would go on with it at its next
  // call, whatever text that call gives (the next file of this language would render wrong).
  if (!tree) parser.reset();
  // A tree finished over the budget or after the deadline may end early (its input was cut
  // short): never used. The budget first: counted, it ends the parse there on every machine.
  if (work > maxWork || input.late()) tree?.delete();
  if (work > maxWork) throw overBudget(maxWork);
  if (input.late()) throw new ClockError(`${PAST_DEADLINE} of ${maxMs / 1000} s${SLOW_PARSE}`);
  return { tree, steps: work };
}

/**
 * Thrown by a walk that met a suite's callback whose body the parse hollowed out: the text is
 * parsed again whole, as that body is shown (see `Walker.expands`).
 */
const HOLLOWED = new Error("a body to show was hollowed out");

/** Why a parse can run past its deadline before its work budget stops it. */
const SLOW_PARSE = " before its work budget was spent (a machine far slower or busier than " +
  "the work needs, or a text whose parse the budget does not count)";

/** A walk's place: the scope's names, the kinds and the nodes of the definitions around it. */
type Where = [string[], string[], NodeLike[]];

class Walker {
  edits: Edit[] = [];
  symbols: CodeSymbol[] = [];
  /** The runs folded, for an outline (see {@linkcode CodeView.folds}). */
  folded: FoldedRun[] = [];
  /** Where each symbol's definition starts (an offset in the text), by symbol. */
  starts: number[] = [];
  /** The scope each item of `LanguageSpec.scopesRest` was walked in (see `item`). */
  restBase = new Map<NodeLike, Where>();
  esm = false;
  /** Names a module's export lists make public (`export { a }`, `export default a`). */
  exported = new Set<string>();
  readonly mask: Record<string, MaskMode>;
  readonly rest: "sig" | "hide";
  readonly maxValueLines: number;
  /** Qualified names that have a listed descendant (shown as containers). */
  readonly parents = new Set<string>();
  /** Whether the mask lists any name. */
  readonly masked: boolean;
  /** Inside a `def` item whose members the mask lists: items stay whole unless listed. */
  full = false;
  /** Object literal members the mask showed whole so far (their values are never elided). */
  whole = 0;
  /** The regions the parse hollowed out, if it did. */
  regions?: HollowRegion[];
  /** The comments left out of long runs, by the comment that follows them (see `namedChildren`). */
  readonly gaps = new Map<SyntaxNode, CommentGap>();
  /** Whether the last container walked ended on a kept item (what follows it goes as it did). */
  endsKept = false;
  /** Which of the language's attached types are comments (a run of them may be shortened). */
  readonly commentTypes: Set<string>;

  constructor(
    readonly spec: LanguageSpec,
    readonly text: string,
    options: RenderCodeOptions,
    readonly cursor: TreeCursor,
  ) {
    this.mask = options.mask ?? {};
    this.rest = options.rest ?? "sig";
    this.maxValueLines = options.maxValueLines ?? 12;
    this.masked = Object.keys(this.mask).length > 0;
    this.commentTypes = new Set([...spec.attach].filter((t) => t.includes("comment")));
    for (const name of Object.keys(this.mask)) {
      const parts = name.split(".");
      for (let i = 1; i < parts.length; i++) this.parents.add(parts.slice(0, i).join("."));
    }
  }

  /**
   * Process a container's items; returns how many were kept. `body`: the container is a
   * definition's body, which says it was elided when all it held was left out.
   */
  container(
    node: SyntaxNode,
    scope: string[],
    kinds: string[] = [],
    nodes: NodeLike[] = [],
    body = false,
  ): number {
    // Kept whole (hot loop): one pass over a container's items, whose state the item cases share.
    const spec = this.spec;
    const first = this.edits.length;
    // Inside a `def` item every item stays but those the mask lists otherwise.
    const full = this.full;
    let kept = 0;
    let dropped = false;
    let pending: SyntaxNode[] = [];
    let lastKeptRow = -1;
    let lastDroppedRow = -1;
    let docEnd = -1;
    let index = 0;
    // The access label (`public:`) the items since it follow, with its leading comments: it stays
    // when one of them does, or when none was left out.
    let label: { node: SyntaxNode; end: number; comments: SyntaxNode[]; used: boolean } | undefined;
    let labelDropped = false;
    const nodeType = node.type;
    const typeBody = spec.typeBodies?.has(nodeType) ?? false;
    // How many of `pending` came before a block of items (see `tail`).
    let beforeBlock = 0;
    // `tailFrom`: where the comments after a container's last item that stay start in `pending`.
    const flush = (keep: boolean, next?: SyntaxNode, tailFrom = Infinity) => {
      const attached = this.attachedTo(pending, next);
      for (const [k, p] of pending.entries()) {
        if (this.typedef(p, scope, kinds) || (keep && attached.has(p))) continue;
        if (k >= tailFrom && this.commentTypes.has(p.type)) continue;
        // In a `def` item only what leads a left-out item goes with it.
        if (full && !(attached.has(p) && !keep)) continue;
        if (isInnerDoc(p) || (typeBody && p.type.includes("comment"))) continue;
        this.cut(p);
      }
      pending = [];
      beforeBlock = 0;
    };
    const closeLabel = () => {
      if (label && !label.used && labelDropped) {
        for (const c of label.comments) this.cut(c);
        this.edits.push({ start: label.node.startIndex, end: label.end, text: CUT });
      }
      label = undefined;
      labelDropped = false;
    };
    // Whether a run of items left out here is one marker (`LanguageSpec.marksLeftOut`), and
    // whether the item before was left out.
    const marks = !full && (spec.marksLeftOut?.(node as unknown as NodeLike) ?? false);
    let inRun = false;
    // Called for each item left out, with where its separator (`;`, `,`) ends, if it has one.
    const drop = (child: SyntaxNode, separatorEnd: number) => {
      this.edits.push({
        start: this.leadStart(child),
        end: Math.max(codeEnd(this.text, child), separatorEnd),
        text: marks && !inRun ? spec.valueMarker : CUT,
      });
      inRun = true;
      dropped = true;
      labelDropped = true;
      lastDroppedRow = endRow(child);
    };
    const keepItem = (child: SyntaxNode) => {
      inRun = false;
      if (label) label.used = true;
      lastKeptRow = child.endPosition.row;
    };
    const separators: number[] = [];
    const children = namedChildren(this.cursor, node, undefined, {
      separators,
      runs: { types: this.commentTypes, text: this.text, gaps: this.gaps },
    });
    // Long runs of like statements (a seeds file's `User.create!(...)`), shown by their first.
    // Not when the rest is hidden: the run's items are left out anyway.
    const folds = full || this.rest === "hide" ? undefined : this.folds(children, node, scope);
    for (let i = 0; i < children.length; i++) {
      const [child, field, type] = children[i];
      if (isHeader(spec, field, type)) {
        // Headers (names, conditions) stay; nested blocks and clauses are containers.
        if (spec.containers.has(type) || spec.transparent.has(type)) {
          kept += this.container(child, scope, kinds, nodes);
        }
        continue;
      }
      // The file's `#!` line (a comment, or a node of its own) says what runs the file: it stays,
      // whatever becomes of what follows, but alone it keeps no view.
      if (child.startIndex === 0 && !node.parent && this.text.startsWith("#!")) {
        lastKeptRow = 0;
        continue;
      }
      // A heredoc's body goes as the statement that opens it (left, the view read on inside it).
      if (spec.trailing?.has(type) && index > 0) {
        if (lastKeptRow >= lastDroppedRow) {
          keepItem(child);
          if (!full) this.longTrailing(child);
        } else drop(child, separators[i]);
        continue;
      }
      if (spec.attach.has(type)) {
        const row = child.startPosition.row;
        if (row === lastKeptRow) continue; // trailing comment of a kept item
        if (row === lastDroppedRow) this.cut(child); // ... of a dropped one
        else pending.push(child);
        continue;
      }
      const position = index++;
      if (spec.labels?.has(type)) {
        closeLabel();
        const attached = this.attachedTo(pending, child);
        const comments = pending.filter((p) => attached.has(p));
        pending = pending.filter((p) => !attached.has(p));
        flush(false);
        label = {
          node: child,
          end: Math.max(child.endIndex, separators[i]),
          comments,
          used: false,
        };
        lastKeptRow = child.endPosition.row;
        continue;
      }
      if (spec.containers.has(type)) {
        const mark = this.edits.length;
        const inner = this.container(child, scope, kinds, nodes);
        kept += inner;
        // What follows a block of items (PowerShell's comments after a file's statements) goes
        // as the block's last item went.
        if (this.endsKept) lastKeptRow = endRow(child);
        else lastDroppedRow = endRow(child);
        beforeBlock = pending.length;
        if (inner === 0 && this.edits.length > mark && !full && !spec.docstrings) {
          // A block of items all left out goes whole (Java's `;` before an enum's members; a
          // Python block keeps its marker instead).
          this.edits.length = mark;
          flush(false);
          drop(child, separators[i]);
        }
        continue;
      }
      // A module docstring follows `rest`; a class docstring belongs to the class's signature.
      const moduleDoc = nodeType === "module" && this.rest === "hide" && !full;
      if (spec.docstrings && position === 0 && !moduleDoc && isDocstring(child, type)) {
        flush(true, child);
        kept++;
        docEnd = child.endIndex;
        keepItem(child);
        continue;
      }
      if (spec.transparent.has(type) && !full && continuesError(spec, child)) {
        // The block of a head the parser could not read (a shell template's
        // `_sf_{{ NAME }}() {`): that function's body, left out with its head.
        flush(false);
        drop(child, separators[i]);
        continue;
      }
      if (spec.transparent.has(type)) {
        const mark = this.edits.length;
        const inner = this.container(child, scope, kinds, nodes);
        // A clause (`except`, `else`) of a kept statement stays, its block a marker: the
        // `try` reads as one.
        const clause = type.endsWith("_clause") && spec.transparent.has(nodeType);
        // What the parser could not read stays as written beside kept code on its line (cut, it
        // left `@end` as `end`), but not after code cut there (Ruby's `x = ((1)` left `= ((1)`).
        const afterCut = lastDroppedRow === child.startPosition.row && lastKeptRow < lastDroppedRow;
        if (inner === 0 && type === "ERROR" && !full && !afterCut && sharesLine(this.text, child)) {
          this.edits.length = mark;
          flush(true, child);
          keepItem(child);
        } else if (inner === 0 && !clause && !full) {
          this.edits.length = mark;
          flush(false);
          drop(child, separators[i]);
        } else {
          flush(true, child);
          if (inner || full) kept++; // an empty clause alone does not keep its statement
          keepItem(child);
        }
        continue;
      }
      if (!spec.keep(child, type, node as unknown as NodeLike)) {
        if (full) {
          flush(true, child);
          kept++;
          keepItem(child);
          continue;
        }
        flush(false);
        drop(child, separators[i]);
        continue;
      }
      const fold = folds?.get(i);
      if (fold !== undefined) {
        flush(false, child);
        drop(child, separators[i]);
        if (fold.count) this.markFold(fold, scope.join("."), kinds.length);
        continue;
      }
      const [mode, listedInside] = this.modeOf(child, scope);
      if (mode === "hide") {
        flush(false, child);
        drop(child, separators[i]);
        // Still record names, for unknown-mask warnings.
        const mark = this.edits.length;
        [scope, kinds, nodes] = this.item(child, type, node, [scope, kinds, nodes]);
        this.edits.length = mark;
        continue;
      }
      flush(true, child);
      kept++;
      keepItem(child);
      const mark = this.edits.length;
      // A `def` item shows its text, less what the mask lists inside it; a `sig` item inside a
      // `def` one is a signature again.
      this.full = mode === "def" && listedInside;
      [scope, kinds, nodes] = this.item(child, type, node, [scope, kinds, nodes]);
      this.full = full;
      if (mode === "def" && !listedInside) this.edits.length = mark;
    }
    // The comments that end a container (a file's last lines: a modeline, a footer, a note)
    // stay after a kept item, as those that lead one do; after a left-out one, those right below
    // it go with it and those a blank line parts from it stay (a license footer, a modeline after
    // `if __name__ == "__main__":`). More than `maxValueLines` lines of them (a test put aside in
    // a `/* ... */`) go as a long value does.
    this.endsKept = lastKeptRow >= 0 && lastKeptRow > lastDroppedRow;
    const tail = pending.slice(beforeBlock);
    const parted = this.endsKept ? 0 : partedFrom(tail, lastDroppedRow, this.commentTypes);
    const aside = this.longTail(tail.slice(parted));
    if (aside) pending = pending.filter((p) => p !== aside);
    flush(false, undefined, aside || parted === tail.length ? Infinity : beforeBlock + parted);
    closeLabel();
    if (dropped) this.markEmpty(node, { nodeType, first, kept, docEnd, body });
    return kept;
  }

  /**
   * The comments that stay after a container's last item, when they run over `maxValueLines`
   * lines: the first of them, which a `...` now stands for (the others go); else undefined.
   */
  longTail(stays: SyntaxNode[]): SyntaxNode | undefined {
    if (!stays.length) return undefined;
    const rows = endRow(stays[stays.length - 1]) - stays[0].startPosition.row + 1;
    const aside = rows > this.maxValueLines
      ? stays.find((p) => this.commentTypes.has(p.type))
      : undefined;
    if (aside) {
      this.edits.push({
        start: aside.startIndex,
        end: aside.endIndex,
        text: this.spec.valueMarker,
      });
    }
    return aside;
  }

  /**
   * The items of a container that a run of like statements folds (see {@linkcode FOLD_RUN}), by
   * index in `children`: the first folded one with the run's key and how many it stands for, the
   * others with a count of 0. Undefined when no run is long enough.
   */
  folds(
    children: [SyntaxNode, string | null, string][],
    container: SyntaxNode,
    scope: string[],
  ): Map<number, Fold> | undefined {
    if (children.length <= FOLD_RUN) return undefined;
    // Each item's key; a comment on a line of its own ends a run (a Gemfile's `# Assets` heads
    // a group of its gems), one after an item on its line does not.
    const items: [number, string | undefined][] = [];
    let lastRow = -1;
    for (let i = 0; i < children.length; i++) {
      const [child, field, type] = children[i];
      if (this.spec.attach.has(type)) {
        if (type.includes("comment") && child.startPosition.row > lastRow) {
          items.push([i, undefined]);
        }
        continue;
      }
      lastRow = child.endPosition.row;
      const header = isHeader(this.spec, field, type);
      items.push([i, header ? undefined : this.foldKey(child, type, container, scope)]);
    }
    const folds = new Map<number, Fold>();
    foldRuns(items, folds);
    foldLong(items, folds);
    return folds.size ? folds : undefined;
  }

  /**
   * What makes a kept item like its neighbours, for {@linkcode folds}: its callee as written
   * (`User.create!`, `get`, `add_action`, `app.MapGet`), or a setting's target (`config.x =`);
   * one of its own for a statement with a block of items. Undefined for what never folds: an item left out anyway, one
   * that defines a symbol other than a call's, a setting's or a route's (a function, a test, a
   * constant), declares or imports names (`attr_reader :a`, `require "x"`), or one the mask lists.
   */
  foldKey(
    child: SyntaxNode,
    type: string,
    container: SyntaxNode,
    scope: string[],
  ): string | undefined {
    const spec = this.spec;
    if (spec.containers.has(type) || spec.transparent.has(type) || spec.labels?.has(type)) {
      return undefined;
    }
    const head = FOLD_HEAD.exec(this.text.slice(child.startIndex, child.startIndex + 160));
    if (!head || FOLD_IMPORTS.test(head[1])) return undefined;
    if (!spec.keep(child, type, container as unknown as NodeLike)) return undefined;
    const def = this.primary(child, 0);
    // A definition with no name (Elixir's `config :app, ...` is a call as `def` is), or in a
    // call's arguments (a JavaScript call's `{ name: "a" }`), is no symbol of the container.
    if (def && this.nameOf(def) !== undefined && !inArguments(def)) {
      const defType = def.type;
      const own = def as unknown as NodeLike;
      const kind = spec.describe?.(own, defType)?.kind ?? spec.definitions[defType]?.kind ?? "";
      if (!FOLD_KINDS.has(spec.kindOf?.(own, kind) ?? kind)) return undefined;
    }
    const node = child as unknown as NodeLike;
    if (spec.declares?.(node, type)?.length || spec.imports?.(node, type)?.length) return undefined;
    if (this.masked && this.listed(child, def, scope)) return undefined;
    // A statement with a block of items (a schema's `create_table "a" do |t| ... end`) is like
    // no other: a long run of unlike ones still folds.
    if (child.startPosition.row !== child.endPosition.row && this.holdsItems(child, 0)) {
      return `\0${child.startIndex}`;
    }
    // A setting is like only those of the same target (a Rails environment's settings differ).
    return head[2] ? `${head[1]} =` : head[1];
  }

  /**
   * Which of the `pending` comments and decorators go with `next`: a chain of them ending right
   * above it; the chain may cross blank lines once, to a doc comment above the definition and its
   * decorators ({@linkcode docAcross}).
   */
  attachedTo(pending: SyntaxNode[], next: SyntaxNode | undefined): Set<SyntaxNode> {
    let below = next ? this.leadStart(next) : -1;
    let row = next ? next.startPosition.row - countLines(this.text, below, next.startIndex) : -1;
    let comment = false;
    const attached = new Set<SyntaxNode>();
    for (let i = pending.length - 1; i >= 0 && next; i--) {
      const p = pending[i];
      if (row - endRow(p) > 1 && (comment || !this.docAcross(p, next, below))) break;
      attached.add(p);
      comment ||= p.type.includes("comment");
      const gap = this.gaps.get(p);
      row = gap ? gap.row : p.startPosition.row;
      below = gap ? gap.start : p.startIndex;
    }
    return attached;
  }

  /**
   * Whether the comment `p` documents the item `next` across the blank lines between them: in a
   * language with doc blocks (`LanguageSpec.docBlocks`), a `/**` comment (or, with
   * `LanguageSpec.docLines`, Rust's `///` line) with only blanks before `below` (where the item or
   * its decorators start), above an item that holds a definition (a declaration, an assignment:
   * `exports = module.exports = app`) or declares a name, and not the file's header (the first
   * item of the file, or one with a `@license`, `@file` or `@module` tag: a header over the
   * imports or the first definition documents the file) or one that names what it documents
   * (`@typedef`, `@name X#y`: JSDoc's comments of what the code does not declare). Rust's `///`
   * is the attribute of the item after it wherever it stands: the first item's too (the file's
   * own doc is `//!`). Other comments document only what is right below them.
   */
  docAcross(p: SyntaxNode, next: SyntaxNode, below: number): boolean {
    const text = this.text;
    const start = p.startIndex;
    const line = this.spec.docLines === true && text.startsWith("///", start) &&
      text[start + 3] !== "/";
    // `/**/` is empty and `/***…` a banner, not a doc comment (JSDoc ignores both).
    const block = this.spec.docBlocks === true && text.startsWith("/**", start) &&
      !/[*/]/.test(text[start + 3]);
    if (!line && !block) return false;
    if (!p.type.includes("comment") || /\S/.test(text.slice(p.endIndex, below))) return false;
    // A compound item (`#if`, `if`) is no definition, whatever it holds.
    if (this.spec.transparent.has(next.type)) return false;
    const doc = text.slice(start, p.endIndex);
    if (FILE_TAGS.test(doc) || NAMING_TAGS.test(doc) || (block && opensFile(p))) return false;
    if (this.primary(next, 0)) return true;
    // A statement's call that passes a function defines it there (express's `defineGetter(req,
    // 'query', function query() {...})`, a route's handler).
    const call = next.type === "expression_statement" ? next.firstNamedChild : null;
    if (call?.type === "call_expression" && JS_GRAMMARS.has(this.spec.grammar)) {
      return wrappedFunction(call) !== undefined;
    }
    return (this.spec.declares?.(next as unknown as NodeLike, next.type)?.length ?? 0) > 0;
  }

  /**
   * Whether a comment is a JSDoc definition of a type of its own (`@typedef {Object} Options`,
   * `@callback Filter`), which stays as a definition does (by `rest` and the mask), whatever code
   * follows it; its name is recorded as a symbol. In JS and TS only.
   */
  typedef(p: SyntaxNode, scope: string[], kinds: string[]): boolean {
    if (!JS_GRAMMARS.has(this.spec.grammar) || p.type !== "comment") return false;
    const text = this.text.slice(p.startIndex, p.endIndex);
    const found = text.startsWith("/**") ? typedefTag(text) : undefined;
    if (!found) return false;
    const qualifiedName = [...scope, found.name].join(".");
    this.symbols.push({
      name: found.name,
      qualifiedName,
      kind: found.kind,
      signature: found.signature,
      depth: kinds.length,
      public: !found.name.startsWith("_"),
      line: p.startPosition.row + 1,
    });
    this.starts.push(p.startIndex);
    const mode = this.full ? "def" : this.mask[qualifiedName] ?? this.rest;
    return mode !== "hide";
  }

  /** A definition's first line, 1-based: its blanked annotations' (Kotlin's), as its others'. */
  lineOf(node: SyntaxNode): number {
    const start = this.leadStart(node);
    return node.startPosition.row + 1 - countLines(this.text, start, node.startIndex);
  }

  /**
   * Where an item starts in the file: before the annotations its parse read as blanks (Kotlin's,
   * see {@linkcode blankedStart}), which are its own, documented and left out with it; at the
   * opener of a comment its parse starts late (`LanguageSpec.commentStart`).
   */
  leadStart(node: SyntaxNode): number {
    if (this.spec.id === "kotlin") return blankedStart(this.text, node);
    return this.spec.commentStart?.(this.text, node as unknown as NodeLike) ?? node.startIndex;
  }

  /**
   * Walk an item of a container; the scope, kinds and nodes of the items after it: its own when
   * its scope is the rest of the container (`LanguageSpec.scopesRest`: C#'s and PHP's
   * `namespace X;`). A second such item ends the first's scope: it is walked in the scope the
   * first was (PHP's `namespace A; … namespace B;`).
   */
  item(child: SyntaxNode, type: string, parent: SyntaxNode, where: Where): Where {
    const rest = this.spec.scopesRest?.has(type) && !child.childForFieldName("body");
    const [scope, kinds, nodes] = rest
      ? this.restBase.get(where[2][where[2].length - 1]) ?? where
      : where;
    const defined = this.symbols.length;
    this.walk(child, scope, kinds, nodes, type, parent);
    const symbol = rest ? this.symbols[defined] : undefined;
    if (!symbol) return where;
    const inner = child as unknown as NodeLike;
    this.restBase.set(inner, [scope, kinds, nodes]);
    return [symbol.qualifiedName.split("."), [...kinds, symbol.kind], [...nodes, inner]];
  }

  /**
   * After a container left items out: a Python block left with no statement (but its docstring)
   * gets one marker, and a definition's body left with no item says it was elided.
   */
  markEmpty(
    node: SyntaxNode,
    { nodeType, first, kept, docEnd, body }: {
      nodeType: string;
      first: number;
      kept: number;
      docEnd: number;
      body: boolean;
    },
  ): void {
    const spec = this.spec;
    if (spec.docstrings && nodeType === "block" && kept <= (docEnd >= 0 ? 1 : 0)) {
      // A Python block must not be empty: one marker stands for what was dropped.
      this.edits.length = first;
      const marker = this.spec.bodyMarker;
      if (docEnd >= 0) {
        this.edits.push({
          start: docEnd,
          end: node.endIndex,
          text: `\n${indentAt(this.text, node.startIndex)}${marker}`,
        });
      } else {
        this.edits.push({ start: node.startIndex, end: node.endIndex, text: marker });
      }
    } else if (body && !spec.docstrings && kept === 0 && !spec.bodyMarker.startsWith("{")) {
      // A body with no braces (Ruby's, between a `class` line and its `end`) is the marker.
      this.edits.length = first;
      this.edits.push({ start: node.startIndex, end: node.endIndex, text: spec.bodyMarker });
    } else if (body && !spec.docstrings && kept === 0) {
      // A body whose every item was left out says so, as an elided function body does, rather
      // than read as an empty one.
      const brace = this.text.indexOf("{", node.startIndex);
      if (brace !== -1 && brace < node.endIndex) {
        this.edits.length = first;
        // A header the body opens with (Scala's self-type, `{ this: B =>`) stays before it.
        const head = node.firstNamedChild;
        if (head && spec.headers?.has(head.type) && head.startIndex > brace) {
          const marker = this.spec.bodyMarker.slice(1);
          this.edits.push({ start: head.endIndex, end: node.endIndex, text: marker });
        } else this.edits.push({ start: brace, end: node.endIndex, text: this.spec.bodyMarker });
      }
    }
  }

  /**
   * The mode of an item, from the mask and its definition's qualified name, and whether the mask
   * lists a name inside it.
   */
  modeOf(item: SyntaxNode, scope: string[]): [MaskMode, boolean] {
    const rest = this.full ? "def" : this.rest;
    if (!this.masked) return [rest, false];
    const def = this.primary(item, 0);
    if (!def) return [this.declaredMode(item, scope) ?? rest, false];
    const holder = def.parent;
    if (
      def !== item && holder && holder.type === "array_creation_expression" &&
      this.spec.grammar === "php"
    ) {
      // A PHP file's returned array (a config's keys): shown when the mask lists a key of it.
      const listed = holder.namedChildren.some((member) => {
        const name = member && this.spec.definitions[member.type] && this.nameOf(member);
        return name && this.mask[[...scope, name].join(".")];
      });
      return listed ? [this.full ? "def" : "sig", true] : [rest, false];
    }
    const name = this.nameOf(def);
    if (!name) return [rest, false];
    const owner = receiverType(def);
    const q = [...scope, ...(owner ? [owner] : []), name].join(".");
    const inside = this.parents.has(q);
    const listed = this.mask[q];
    if (listed) return [listed, inside];
    if (inside) return [this.full ? "def" : "sig", true];
    return [rest, false];
  }

  /** Whether a node holds a container of items (a block's body), looked for 4 levels down. */
  holdsItems(node: SyntaxNode, depth: number): boolean {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (this.spec.containers.has(child.type)) return true;
      if (depth < 3 && this.holdsItems(child, depth + 1)) return true;
    }
    return false;
  }

  /** Whether the mask lists an item (its definition `def`) or a name inside it. */
  listed(item: SyntaxNode, def: SyntaxNode | undefined, scope: string[]): boolean {
    if (!def) return this.declaredMode(item, scope) !== undefined;
    const name = this.nameOf(def);
    if (!name) return false;
    const owner = receiverType(def);
    const q = [...scope, ...(owner ? [owner] : []), name].join(".");
    return Object.hasOwn(this.mask, q) || this.parents.has(q);
  }

  /**
   * The mode the mask lists for a name an item declares without a definition node (Ruby's
   * `attr_reader :a`, a re-export `export { a } from "./a"`), if it lists one.
   */
  declaredMode(item: SyntaxNode, scope: string[]): MaskMode | undefined {
    const declared = this.spec.declares?.(item as unknown as NodeLike, item.type);
    for (const { name } of declared ?? []) {
      const listed = this.mask[[...scope, name].join(".")];
      if (listed) return listed;
    }
    return undefined;
  }

  /** The definition an item declares (through decorators, `export`, `template`). */
  primary(node: SyntaxNode, depth: number, parentType?: string): SyntaxNode | undefined {
    const type = node.type;
    const def = this.spec.definitions[type];
    if (def?.checked) {
      if (this.spec.defines?.(node as unknown as NodeLike, type, parentType)) return node;
    } else if (def) return node;
    if (depth > 3) return undefined;
    // Linked: a fold key asks for the definition's parents (see `inArguments`).
    for (const child of linkedChildren(node)) {
      if (!child || this.spec.attach.has(child.type)) continue;
      const found = this.primary(child, depth + 1, type);
      if (found) return found;
    }
    return undefined;
  }

  nameOf(def: SyntaxNode, defType: string = def.type): string | undefined {
    const own = this.spec.symbolName?.(def as unknown as NodeLike, defType, this.text);
    if (own !== undefined) return own;
    const spec = this.spec.definitions[defType];
    let n = (this.spec.nameNode?.(def as unknown as NodeLike, defType) as SyntaxNode | undefined) ??
      def.childForFieldName(spec?.nameField ?? "name");
    if (!n && defType === "impl_item") n = def.childForFieldName("type");
    if (!n && defType === "variable_declarator") n = def.firstNamedChild;
    for (let i = 0; n && i < 8; i++) {
      if (/identifier$|^destructor_name$|^operator_name$|^qualified_name$/.test(n.type)) break;
      const inner: SyntaxNode | null = n.childForFieldName("declarator") ??
        n.childForFieldName("name");
      if (!inner) break;
      n = inner;
    }
    if (!n) return undefined;
    // The name as the file has it: a parse of hollowed text has spaces where a body in a name
    // (a default in a destructuring pattern) was.
    const text = this.text.slice(n.startIndex, n.endIndex).replace(/\s+/g, " ").trim();
    if (!text || text.length > 120) return undefined;
    // `A::f` (C++ out-of-line) and `impl<T> Point<T>` name like nested symbols: `A.f`, `Point`.
    const plain = defType === "impl_item" ? text.replace(/<[\s\S]*$/, "") : text;
    return plain.replaceAll("::", ".");
  }

  /**
   * Record the symbol a definition defines (when it has a name); the scope, kinds and nodes of
   * what it holds.
   */
  define(
    node: SyntaxNode,
    nodeType: string,
    { kind: defKind, scope, kinds, nodes, parentNode }: {
      kind: string;
      scope: string[];
      kinds: string[];
      nodes: NodeLike[];
      parentNode: SyntaxNode | null;
    },
  ): [string[], string[], NodeLike[]] | undefined {
    const spec = this.spec;
    // What the language tells at once (a test's title, kind and line), else read from the node.
    const own = spec.describe?.(node as unknown as NodeLike, nodeType, this.text);
    const name = wholeChars(own?.name ?? this.nameOf(node, nodeType));
    if (!name) return undefined;
    const kind = own?.kind ?? this.typedefKind(node, nodeType) ??
      this.kindOf(node, nodeType, defKind, kinds, parentNode);
    const parentKind = kinds.length ? kinds[kinds.length - 1] : "module";
    const parent = nodes.length ? nodes[nodes.length - 1] : undefined;
    const owner = receiverType(node, nodeType);
    const qualifiedName = [...scope, ...(owner ? [owner] : []), name].join(".");
    this.symbols.push({
      name,
      qualifiedName,
      kind,
      // A signature the language tells reads as one read from the text: a call broken over lines
      // (`it(\n  "adds"\n)`) as one on its line.
      signature: wholeChars(
        own ? tightBrackets(own.signature, CHARACTER_QUOTES.has(this.spec.id)) : this.decorated(
          node,
          parentNode,
          this.signatureOf(node, nodeType),
        ),
      ),
      depth: kinds.length,
      public: spec.isPublic(node as unknown as NodeLike, name, {
        parentKind,
        parent,
        esm: this.esm,
        exported: this.exported,
      }),
      line: this.lineOf(node),
    });
    this.starts.push(node.startIndex);
    return [qualifiedName.split("."), [...kinds, kind], [...nodes, node as unknown as NodeLike]];
  }

  /**
   * Record what a node walked into defines or declares; the scope, kinds and nodes of what it
   * holds (its own symbol's when it defines one).
   */
  enter(
    node: SyntaxNode,
    nodeType: string,
    where: { scope: string[]; kinds: string[]; nodes: NodeLike[]; parentNode: SyntaxNode | null },
  ): [string[], string[], NodeLike[]] {
    const { scope, kinds, nodes, parentNode } = where;
    const spec = this.spec;
    const defSpec = spec.definitions[nodeType];
    if (!defSpec) {
      if (spec.declares) this.declare(node, nodeType, where);
      return [scope, kinds, nodes];
    }
    if (!isMember(nodeType, parentNode)) return [scope, kinds, nodes];
    if (spec.defines && !spec.defines(node as unknown as NodeLike, nodeType, parentNode?.type)) {
      // A call that defines no symbol may declare some (Ruby's `attr_reader :a`).
      if (spec.declares) this.declare(node, nodeType, where);
      return [scope, kinds, nodes];
    }
    return this.define(node, nodeType, { kind: defSpec.kind, ...where }) ?? [scope, kinds, nodes];
  }

  /** Record the symbols an item declares without a definition node (`LanguageSpec.declares`). */
  declare(
    node: SyntaxNode,
    nodeType: string,
    { scope, kinds, nodes }: { scope: string[]; kinds: string[]; nodes: NodeLike[] },
  ): void {
    const exported = this.exported;
    // An import's names are symbols only when an export list names them (`export { z }`).
    const declared = this.spec.declares!(node as unknown as NodeLike, nodeType) ??
      (exported.size
        ? this.spec.imports?.(node as unknown as NodeLike, nodeType)?.filter((d) =>
          exported.has(d.name)
        )
        : undefined);
    if (!declared) return;
    const parentKind = kinds.length ? kinds[kinds.length - 1] : "module";
    const parent = nodes.length ? nodes[nodes.length - 1] : undefined;
    const scopeInfo = { parentKind, parent, esm: this.esm, exported: this.exported };
    for (const { name, signature, kind } of declared) {
      this.symbols.push({
        name,
        qualifiedName: [...scope, name].join("."),
        kind,
        signature,
        depth: kinds.length,
        public: this.spec.isPublic(node as unknown as NodeLike, name, scopeInfo),
        line: node.startPosition.row + 1,
      });
      this.starts.push(node.startIndex);
    }
  }

  /**
   * Walk a kept item: record symbols, elide function bodies, recurse into containers. `parentNode` is
   * the node whose children the walk's cursor gave this one (what `node.parent` returns, which
   * tree-sitter finds by searching down from the root: a call per level of nesting and a scan of
   * the siblings before it at each).
   */
  walk(
    node: SyntaxNode,
    scope: string[],
    kinds: string[],
    nodes: NodeLike[],
    nodeType: string = node.type,
    parentNode: SyntaxNode | null = node.parent,
  ): void {
    // A level of the tree is a level of this recursion: bounded before JavaScript's stack is.
    if (++walk.depth > MAX_WALK_DEPTH) throw new Error(TOO_DEEP);
    try {
      // An object literal's member a mask may name (`api.get`), as it names a class's.
      if (this.masked && parentNode && parentNode.type === MEMBER_HOLDERS.get(this.spec.grammar)) {
        this.member(node, [scope, kinds, nodes], nodeType, parentNode);
      } else this.walkNode(node, scope, kinds, nodes, nodeType, parentNode);
    } finally {
      walk.depth--;
    }
  }

  /**
   * An object literal's member (`get() {...}`, `list: () => {...}`) walked in the mode the mask
   * gives its name, as a container's item is: hidden with its comma, shown whole, or a signature.
   */
  member(
    node: SyntaxNode,
    [scope, kinds, nodes]: Where,
    type: string,
    parentNode: SyntaxNode,
  ): void {
    const spec = this.spec;
    const symbol = spec.definitions[type] &&
      (spec.defines?.(node as unknown as NodeLike, type, parentNode.type) ?? true);
    if (!symbol) return this.walkNode(node, scope, kinds, nodes, type, parentNode);
    const [mode, inside] = this.modeOf(node, scope);
    if (mode === "hide") {
      let end = node.endIndex;
      while (this.text[end] === " " || this.text[end] === "\t") end++;
      // The comments right above it go with it (a config key's banner), as an item's do.
      let start = node.startIndex;
      for (let p = namedSibling(node, false); p && this.spec.attach.has(p.type);) {
        if (/\S/.test(this.text.slice(p.endIndex, start))) break;
        start = p.startIndex;
        p = namedSibling(p, false);
      }
      this.edits.push({
        start,
        end: end + (this.text[end] === "," ? 1 : 0),
        text: CUT,
      });
      return;
    }
    const full = this.full;
    const mark = this.edits.length;
    this.full = mode === "def" && inside;
    this.walkNode(node, scope, kinds, nodes, type, parentNode);
    this.full = full;
    if (mode === "def") this.whole++;
    if (mode === "def" && !inside) this.edits.length = mark;
  }

  /**
   * Whether a function's body is a container: the function is passed to the call (`kinds` and
   * `nodes`: the definitions around it) of a symbol whose kind the language expands
   * (`LanguageSpec.expands`: a test suite's callback, not a hook's in it). A body the parse
   * hollowed out cannot be: then the text is parsed again whole ({@linkcode HOLLOWED}).
   */
  expands(
    [kinds, nodes]: [string[], NodeLike[]],
    parentNode: SyntaxNode | null,
    body: SyntaxNode,
  ): boolean {
    const expands = this.spec.expands;
    if (!expands?.has(kinds[kinds.length - 1])) return false;
    const held = nodes[nodes.length - 1];
    // A function the symbol's statement returns (PHP's `return function (App $app) {...};`).
    const returned = held === (parentNode as unknown as NodeLike | null);
    // PHP wraps each argument in a node of its own; Go's are an `argument_list`.
    const args = parentNode?.type === "argument" ? parentNode.parent : parentNode;
    if (!returned && args?.type !== "arguments" && args?.type !== "argument_list") return false;
    // A PHP suite or group is a statement: its closure is passed to a call of the chain
    // (`describe('a', function () {...})->skip()`).
    let call = held.type === "expression_statement" ? held.firstNamedChild : held;
    for (let i = 0; call && i < 64; i++) {
      if (call.childForFieldName("arguments")?.startIndex === args?.startIndex) break;
      call = call.childForFieldName("object");
    }
    if (!returned && !call) return false;
    const regions = this.regions;
    if (regions) {
      const at = firstAtOrAfter(regions.length, (i) => regions[i].start, body.startIndex);
      // The body's own region starts it (after blanks); a region further in is a test's body.
      const start = at < regions.length ? regions[at].start : body.endIndex;
      if (start < body.endIndex && !/\S/.test(this.text.slice(body.startIndex + 1, start))) {
        throw HOLLOWED;
      }
    }
    return true;
  }

  /** The body of {@linkcode Walker.walk}, one level deeper. */
  /**
   * Which children of `node` the walk makes into nodes: the others are never made. With
   * `descend`, most are skipped by type alone; without, an opaque type when the node has no error
   * (then none of its children has), and a leaf, found by the cursor. A child in one of `fields`
   * (the node type's body, block and value fields) or a container is always wanted.
   */
  wantedChild(
    node: SyntaxNode,
    nodeType: string,
    fields: Array<Set<string> | undefined>,
  ): (named: string | null, type: string, cursor: TreeCursor) => boolean {
    const spec = this.spec;
    const [bodyFields, blockFields, valueFields] = fields;
    let hasError: boolean | undefined;
    return (named, type, cursor) => {
      if (spec.containers.has(type)) return true;
      const field = named ?? spec.fieldOf?.(nodeType, type, node as unknown as NodeLike) ?? null;
      if (
        field !== null &&
        (bodyFields?.has(field) || blockFields?.has(field) || valueFields?.has(field))
      ) return true;
      if (spec.descend) return spec.descend.has(type);
      if (spec.opaque?.has(type) && !(hasError ??= node.hasError)) return false;
      return hasChildren(cursor);
    };
  }

  /**
   * The edits the language asks for (`LanguageSpec.tokenEdits`, `leadEdits`), outside a `def`
   * item; whether the node's children are left unwalked (an item the grammar gives as tokens, a
   * Rust macro call, its parts left out as the language reads them).
   */
  languageEdits(node: SyntaxNode, nodeType: string): boolean {
    const spec = this.spec;
    if (this.full || (!spec.tokenEdits && !spec.leadEdits)) return false;
    const like = node as unknown as NodeLike;
    const tokens = spec.tokenEdits?.(like, nodeType, this.maxValueLines);
    const edits = tokens ?? spec.leadEdits?.(like, nodeType, this.maxValueLines) ?? [];
    for (const e of edits) this.edits.push(e);
    return tokens !== undefined;
  }

  walkNode(
    node: SyntaxNode,
    scope: string[],
    kinds: string[],
    nodes: NodeLike[],
    nodeType: string,
    parentNode: SyntaxNode | null,
  ): void {
    const spec = this.spec;
    const [innerScope, innerKinds, innerNodes] = this.enter(node, nodeType, {
      scope,
      kinds,
      nodes,
      parentNode,
    });
    if (this.languageEdits(node, nodeType)) return;
    const { bodies, blocks, values } = fieldsOf(spec);
    const fieldSets = [bodies.get(nodeType), blocks.get(nodeType), values.get(nodeType)];
    const [bodyFields, blockFields, valueFields] = fieldSets;
    // A grammar that names few fields (Kotlin's) names the rest by the language's `fieldOf`.
    const fieldOf = spec.fieldOf;
    const wanted = this.wantedChild(node, nodeType, fieldSets);
    for (const [child, named, type] of namedChildren(this.cursor, node, wanted)) {
      const field = named ?? fieldOf?.(nodeType, type, node as unknown as NodeLike) ?? null;
      if (
        field && (bodyFields?.has(field) && spec.bodyTypes.has(type) ||
          BLOCK_BODIES.has(type) && blockFields?.has(field) &&
            innerNodes !== nodes)
      ) {
        // A function body holds no member: a `def` item shows it as it is. A function passed to
        // a test suite's call holds its tests.
        // The body of the symbol the node itself defines (Scala's `describe("a") { ... }`).
        const own = innerNodes !== nodes &&
          (this.expands([innerKinds, innerNodes], node, child) ||
            !!spec.walksBody?.(node as unknown as NodeLike));
        if (own || this.expands([kinds, nodes], parentNode, child)) {
          this.container(child, innerScope, innerKinds, innerNodes, true);
        } else if (!this.full) this.elideBody(child, node);
        continue;
      }
      if (spec.containers.has(type)) {
        this.container(child, innerScope, innerKinds, innerNodes, true);
        continue;
      }
      if (field && valueFields?.has(field) && !this.full) {
        if (spec.expressionBodies?.has(`${nodeType}.${field}`)) this.expressionBody(child);
        else this.value(child, type, innerScope, innerKinds, innerNodes, node);
        continue;
      }
      if (type === "decorator" && spec.docstrings && !this.full) {
        this.longArguments(child);
        continue;
      }
      if (spec.descend && !spec.descend.has(type)) continue;
      // Types hold nothing the view keeps or elides (a subtree with parse errors is walked).
      if (spec.opaque?.has(type) && !child.hasError) continue;
      if (child.childCount) this.walk(child, innerScope, innerKinds, innerNodes, type, node);
    }
  }

  /**
   * The last edit (a folded run's) as its marker line, the run noted for an outline: where it
   * stands among the symbols, in `scope` at nesting `depth`.
   */
  markFold(fold: Fold, scope: string, depth: number): void {
    const marker = foldMarker(fold);
    this.edits[this.edits.length - 1].text = marker;
    this.folded.push({ before: this.symbols.length, depth, scope, marker });
  }

  /**
   * A Python decorator's arguments that run past `maxValueLines` lines (pytest's
   * `@pytest.mark.parametrize("a, b", [...])` over a table of cases), each elided as a long value
   * is: the decorator stays, its call's other arguments as written.
   */
  longArguments(decorator: SyntaxNode): void {
    const rows = (n: SyntaxNode) => n.endPosition.row - n.startPosition.row + 1;
    if (rows(decorator) <= this.maxValueLines) return;
    const call = decorator.namedChildren.find((c) => c?.type === "call");
    const args = call?.childForFieldName("arguments");
    for (const arg of args?.namedChildren ?? []) {
      if (!arg || rows(arg) <= this.maxValueLines) continue;
      // A keyword argument keeps its name (`ids=...`).
      const value = arg.type === "keyword_argument" ? arg.childForFieldName("value") : arg;
      if (value) {
        this.edits.push({
          start: value.startIndex,
          end: value.endIndex,
          text: this.spec.valueMarker,
        });
      }
    }
  }

  /**
   * A kept heredoc's body ({@linkcode LanguageSpec.trailing}) of more than `maxValueLines` lines,
   * elided as a long value is: its lines one marker, its terminator kept (the body starts at the
   * line end of the statement that opens it).
   */
  longTrailing(body: SyntaxNode): void {
    if (body.endPosition.row - body.startPosition.row - 1 <= this.maxValueLines) return;
    const from = this.text.indexOf("\n", body.startIndex) + 1;
    const to = this.text.lastIndexOf("\n", body.endIndex - 1) + 1;
    if (from <= 0 || to <= from) return;
    const indent = /^[ \t]*/.exec(this.text.slice(from, from + 256))![0];
    this.edits.push({ start: from, end: to, text: `${indent}${this.spec.valueMarker}\n` });
  }

  /**
   * A value: elided when it stays longer than `maxValueLines` after inner elisions. A value that
   * holds definitions (an object literal's methods, a class expression) keeps them: only its long
   * parts without one are elided.
   */
  value(
    node: SyntaxNode,
    type: string,
    scope: string[],
    kinds: string[],
    nodes: NodeLike[],
    parentNode: SyntaxNode | null,
  ): void {
    const rows = node.endPosition.row - node.startPosition.row + 1;
    const mark = this.edits.length;
    const symbols = this.symbols.length;
    const whole = this.whole;
    this.walk(node, scope, kinds, nodes, type, parentNode);
    // A JavaScript statement's call keeps its callee and arguments: each long one is elided.
    const call = parentNode?.type === "expression_statement" && JS_GRAMMARS.has(this.spec.grammar);
    // A function it passes is a signature at any length, as a block body is: an expression body
    // of more than one line (`allow(User, "read", Document, (actor, doc) =>` and its rules) too.
    if (call && this.whole === whole && rows > 1 && node.text.includes("=>")) {
      this.elideExpressionBodies(node, mark);
    }
    if (rows <= this.maxValueLines || this.whole !== whole) return;
    // A value the language keeps at any length (an sbt build's project definition).
    if (parentNode && this.spec.wholeValue?.(parentNode as unknown as NodeLike)) return;
    // Python's `__all__` is the module's public API: never elided.
    if (parentNode?.childForFieldName("left")?.text === "__all__") return;
    // A JavaScript function, or one a call wraps (`forwardRef<T, Props>((props, ref) => {...})`),
    // is a signature: it stays, its block body elided by the walk and an expression body
    // (`({ label }: Props) => (<li>...</li>)`) of more than one line here.
    const fn = JS_GRAMMARS.has(this.spec.grammar) && !call ? wrappedFunction(node) : undefined;
    if (fn) return this.elideExpressionBody(fn, mark);
    if (this.symbols.length === symbols && !call) {
      if (
        rows - linesRemoved(this.text, this.edits, mark, this.edits.length) <= this.maxValueLines
      ) {
        return;
      }
      this.edits.length = mark;
      this.edits.push({ start: node.startIndex, end: node.endIndex, text: this.spec.valueMarker });
      return;
    }
    const inner = this.edits.splice(mark).sort((a, b) => a.start - b.start);
    // Lines removed by the inner edits before each one, so that any run of them is counted in
    // one step (a value nested deep is looked at once a level).
    const removed = new Array<number>(inner.length + 1);
    removed[0] = 0;
    for (let i = 0; i < inner.length; i++) {
      removed[i + 1] = removed[i] + linesRemoved(this.text, inner, i, i + 1);
    }
    const added: Edit[] = [];
    this.shorten(node, { edits: inner, removed, added }, symbols, call);
    for (const e of inner) if (e.text !== DEAD) this.edits.push(e);
    this.edits.push(...added);
  }

  /**
   * A function's expression body the language names (`LanguageSpec.expressionBodies`, Kotlin's
   * `fun test() = runTest { ... }`): the value marker when it spans more than one line, as a block
   * body is elided; never walked, so that its locals are no symbols.
   */
  expressionBody(body: SyntaxNode): void {
    if (body.endPosition.row === body.startPosition.row) return;
    this.edits.push({ start: body.startIndex, end: body.endIndex, text: this.spec.valueMarker });
  }

  /**
   * Elide the expression body of the function `fn` when it spans more than one line, with the
   * edits made inside it since `mark` (a block body is elided by the walk).
   */
  elideExpressionBody(fn: SyntaxNode, mark: number): void {
    const body = fn.childForFieldName("body");
    if (
      !body || this.spec.bodyTypes.has(body.type) ||
      body.endPosition.row <= body.startPosition.row
    ) return;
    const inner = this.edits.splice(mark);
    this.edits.push(
      ...inner.filter((e) => e.end <= body.startIndex || e.start >= body.endIndex),
      { start: body.startIndex, end: body.endIndex, text: this.spec.valueMarker },
    );
  }

  /**
   * Elide the expression bodies of more than one line of the functions a statement's call
   * passes (to it or to a call of its chain), with the edits made inside them since `mark`.
   */
  elideExpressionBodies(node: SyntaxNode, mark: number): void {
    const bodies: SyntaxNode[] = [];
    const pending = [node];
    for (let n = pending.pop(); n; n = pending.pop()) {
      if (n.type === "await_expression" || n.type === "parenthesized_expression") {
        if (n.firstNamedChild) pending.push(n.firstNamedChild);
      } else if (n.type === "member_expression") {
        const object = n.childForFieldName("object");
        if (object) pending.push(object);
      } else if (n.type === "call_expression" || n.type === "new_expression") {
        const callee = n.childForFieldName("function") ?? n.childForFieldName("constructor");
        if (callee) pending.push(callee);
        const args = n.childForFieldName("arguments");
        if (args?.type === "arguments") pending.push(...args.namedChildren);
      } else if (n.type === "arrow_function") {
        const body = n.childForFieldName("body");
        if (
          body && !this.spec.bodyTypes.has(body.type) &&
          body.endPosition.row > body.startPosition.row
        ) {
          bodies.push(body);
        }
      }
    }
    if (bodies.length === 0) return;
    const inside = (e: Edit) => bodies.some((b) => e.start < b.endIndex && e.end > b.startIndex);
    const inner = this.edits.splice(mark);
    this.edits.push(
      ...inner.filter((e) => !inside(e)),
      ...bodies.map((b) => ({ start: b.startIndex, end: b.endIndex, text: this.spec.valueMarker })),
    );
  }

  /**
   * Elide the parts of a long value that hold no definition and stay longer than
   * `maxValueLines`, the way `value` elides a whole value; `symbols` is where the value's own
   * symbols begin.
   */
  shorten(node: SyntaxNode, inner: InnerEdits, symbols: number, call = false): void {
    const { edits, removed, added } = inner;
    const starts = this.starts;
    for (const [child] of namedChildren(this.cursor, node)) {
      const start = child.startIndex;
      const end = child.endIndex;
      const rows = child.endPosition.row - child.startPosition.row + 1;
      if (rows <= this.maxValueLines) continue;
      const at = firstAtOrAfter(edits.length, (i) => edits[i].start, start);
      const to = firstAtOrAfter(edits.length, (i) => edits[i].start, end);
      if (rows - (removed[to] - removed[at]) <= this.maxValueLines) continue;
      const symbol = firstAtOrAfter(starts.length, (i) => starts[i], start, symbols);
      const holds = symbol < starts.length && starts[symbol] < end;
      // A call's arguments on more lines than `maxValueLines` however short each one is made
      // (`library.add(` and fifty icons): its inside is elided, unless it holds a definition; a
      // first argument on the call's line stays (`router.get("/a",` and many handlers).
      if (
        call && !holds && child.type === "arguments" && argumentRows(child) > this.maxValueLines
      ) {
        const first = child.namedChild(0)!;
        const keep = first.endPosition.row === child.startPosition.row;
        const from = keep ? first.endIndex : start + 1;
        for (let i = at; i < to; i++) {
          if (edits[i].start >= from) edits[i].text = DEAD;
        }
        const marker = this.spec.valueMarker;
        added.push({ start: from, end: end - 1, text: keep ? `, ${marker}` : marker });
        continue;
      }
      if (holds || (call && CALL_PARTS.has(child.type))) {
        this.shorten(child, inner, symbol, call);
        continue;
      }
      // A call's function with a block body is short already, or a suite's (its tests shown).
      if (call && this.spec.bodyTypes.has(child.childForFieldName("body")?.type ?? "")) continue;
      const [from, until] = elidedPart(child, call);
      for (let i = at; i < to; i++) {
        if (edits[i].start >= from) edits[i].text = DEAD;
      }
      added.push({ start: from, end: until, text: this.spec.valueMarker });
    }
  }

  /**
   * Where an elided body's text starts and ends with the comments at its edges that the grammar
   * puts beside it (`LanguageSpec.bodyComments`: PowerShell's function holds its body's last
   * comment, after its script block): those after it before its block's close, and those before
   * it after a header (a `param(...)` block). Comments before a body with no header stay (a
   * function's help, `<# .SYNOPSIS #>`).
   */
  commentsAround(body: SyntaxNode): [number, number] {
    let start = body.startIndex;
    let end = body.endIndex;
    if (!this.spec.bodyComments) return [start, end];
    const comment = (n: SyntaxNode | null) => !!n && this.spec.attach.has(n.type);
    // The body, then its block when the body is the block's (a function with a `param(...)`):
    // what follows in each. Never what follows a definition, which is past its close (a class's
    // last comment after its last method's `}` took that `}` with it).
    let node: SyntaxNode | null = body;
    for (
      let level = 0;
      node && level < 2 && (level === 0 || !this.spec.definitions[node.type]);
      level++, node = node.parent
    ) {
      let next = namedSibling(node, true);
      let last = end;
      for (; comment(next); next = namedSibling(next!, true)) last = next!.endIndex;
      if (next) break;
      end = last;
    }
    let previous = namedSibling(body, false);
    let first = start;
    for (; comment(previous); previous = namedSibling(previous!, false)) {
      first = previous!.startIndex;
    }
    if (previous) start = first;
    return [start, end];
  }

  /** Replace a function body (a child of `parentNode`) with the marker; Python keeps the docstring. */
  elideBody(body: SyntaxNode, parentNode: SyntaxNode): void {
    const marker = this.spec.bodyMarker;
    // A body of blanks and `;` alone holds nothing to elide: PowerShell's `{}`, which the parser
    // reads as `{;}` (see `grammars/_powershell.ts`), stays as the file has it.
    if (body.endIndex - body.startIndex < 8 && !/[^\s;]/.test(body.text)) return;
    const statements = firstStatements(this.cursor, body, 2, this.spec.attach);
    if (!this.spec.docstrings) {
      // A body ended by indentation (Scala 3's) may take the line break after it: that stays.
      let end = body.endIndex;
      while (end > body.startIndex && /\s/.test(this.text[end - 1])) end--;
      if (!statements.length) return;
      const [start, last] = this.commentsAround(body);
      this.edits.push({ start, end: last > body.endIndex ? last : end, text: marker });
      return;
    }
    const [first, ...others] = statements;
    if (!first) return;
    if (isDocstring(first)) {
      if (!others.length) return;
      const oneLine = body.startPosition.row === parentNode.startPosition.row;
      this.edits.push({
        start: first.endIndex,
        end: body.endIndex,
        text: oneLine ? `; ${marker}` : `\n${indentAt(this.text, first.startIndex)}${marker}`,
      });
      return;
    }
    if (!others.length && isTrivial(first)) return;
    this.edits.push({ start: body.startIndex, end: body.endIndex, text: marker });
  }

  kindOf(
    node: SyntaxNode,
    type: string,
    kind: string,
    kinds: string[],
    parentNode: SyntaxNode | null,
  ): string {
    const parent = kinds[kinds.length - 1];
    switch (type) {
      case "function_definition":
        if (this.spec.id === "python") {
          if (parent !== "class") return "function";
          const decorators = parentNode?.type === "decorated_definition"
            ? parentNode.namedChildren.filter((c) => c?.type === "decorator").map((c) => c!.text)
            : [];
          return decorators.some((d) => /^@(property|\w+\.(setter|getter|deleter))$/.test(d))
            ? "property"
            : "method";
        }
        return parent === "class" || parent === "struct" || parent === "trait" ||
            parent === "object" || parent === "enum"
          ? "method"
          : "function";
      case "method":
        // Ruby: a `def` outside a class or module is a function.
        return parent === "class" || parent === "module" ? "method" : "function";
      case "assignment": {
        if (this.spec.id === "ruby") return kind;
        const name = node.childForFieldName("left")?.text ?? "";
        return /^[A-Z][A-Z0-9_]*$/.test(name)
          ? "constant"
          : parent === "class"
          ? "attribute"
          : kind;
      }
      case "variable_declarator": {
        const value = node.childForFieldName("value")?.type ?? "";
        if (/^(arrow_function|function_expression|function|generator_function)$/.test(value)) {
          return "function";
        }
        return parentNode?.firstChild?.text ?? kind;
      }
      case "type_spec": {
        const t = node.childForFieldName("type")?.type ?? "";
        return t === "struct_type" ? "struct" : t === "interface_type" ? "interface" : kind;
      }
      case "declaration":
      case "field_declaration":
        if (this.spec.grammar === "c" || this.spec.grammar === "cpp") {
          return hasFunctionDeclarator(node)
            ? (parent === "class" || parent === "struct" ? "method" : "function")
            : (type === "declaration" ? "variable" : "field");
        }
        return kind;
      default:
        return this.spec.kindOf?.(node as unknown as NodeLike, kind) ?? kind;
    }
  }

  /**
   * The kind of a C or C++ typedef whose type has its body: `typedef struct p { ... } p_t` is one
   * symbol, a struct (the languages with `LanguageSpec.defines` are asked).
   */
  typedefKind(node: SyntaxNode, type: string): string | undefined {
    if (type !== "type_definition" || !this.spec.defines) return undefined;
    const held = node.childForFieldName("type");
    return held?.childForFieldName("body") ? this.spec.definitions[held.type]?.kind : undefined;
  }

  /** The text from the definition to its body, on one line. */
  signatureOf(node: SyntaxNode, type: string): string {
    let end = node.endIndex;
    let endPoint = node.endPosition;
    const body = node.childForFieldName("body");
    const unnamed = body ? undefined : this.unnamedBody(node, type);
    if (body && (this.spec.bodyTypes.has(body.type) || this.spec.containers.has(body.type))) {
      end = body.startIndex;
      endPoint = body.startPosition;
    } else if (unnamed) {
      [end, endPoint] = this.unnamedBodyStart(unnamed);
    } else {
      for (const field of ["value", "right"]) {
        const value = node.childForFieldName(field);
        const fnBody = value && wrappedFunction(value)?.childForFieldName("body");
        if (fnBody) {
          end = fnBody.startIndex;
          endPoint = fnBody.startPosition;
          break;
        }
        if (value && value.endPosition.row > value.startPosition.row) {
          end = value.startIndex;
          endPoint = value.startPosition;
          break;
        }
      }
    }
    if (type === "type_spec") {
      const brace = this.text.indexOf("{", node.startIndex);
      if (brace !== -1 && brace < end) end = brace;
    }
    const accessor = this.spec.id === "kotlin" && accessorWithBody(node, type);
    if (accessor && accessor.startIndex < end) {
      [end, endPoint] = [accessor.startIndex, accessor.startPosition];
    }
    // The members of a type it holds are symbols of their own: its body is not repeated here.
    const held = this.spec.defines && heldBody(node, this.spec);
    let sig = held && held.endIndex <= end
      ? this.plainText(node, node.startIndex, held.startPosition, held.startIndex) +
        this.spec.bodyMarker + this.plainText(node, held.endIndex, endPoint, end)
      : this.plainText(node, node.startIndex, endPoint, end);
    // Each replacement only where it can match: most signatures have none of these (a global
    // replacement that matches builds a new string even when it puts back what it found).
    if (/[^\S ]| {2}/.test(sig)) sig = sig.replace(/\s+/g, " ");
    sig = sig.trim();
    const last = sig.charCodeAt(sig.length - 1);
    if (last === 123 || last === 58) sig = sig.replace(/\s*[{:]$/, ""); // `{`, `:`
    // A Rust `where` clause's trailing comma ends no signature (a C macro's value keeps its own).
    if (sig.endsWith(";") || (sig.endsWith(",") && this.spec.id === "rust")) sig = sig.slice(0, -1);
    // `f( a)`, `Map< K, V>`: a bracket's inner blank; a `<` after anything but a name is an
    // operator (Ruby's `class A < B`, a default `a < b`, a shift's `<< b`) and keeps it.
    sig = tightBrackets(sig, CHARACTER_QUOTES.has(this.spec.id));
    if (end < node.endIndex && /=$/.test(sig)) sig += " ...";
    if (type === "type_spec" || (type === "type_alias" && this.spec.grammar === "go")) {
      sig = `type ${sig}`;
    }
    if (sig.length > 240) {
      sig = shortLead(sig, this.nameOf(node, type), this.spec.grammar === "rust");
    }
    return sig.length > 240 ? `${sig.slice(0, 237)}...` : sig;
  }

  /**
   * A signature after its definition's decorators, as Java's is after its annotations: a route
   * (`@router.get("/{id}")`, `@Get(':id')`), `@dataclass`, `@Injectable()`. Python's decorators
   * wrap the definition; TypeScript's stand before a member in its class body or before a class
   * in its `export`. A decorator over {@linkcode MAX_DECORATOR} characters is cut to its name and
   * `(...)` (Angular's `@Component({ template: ... })`). Kotlin's annotations the parser read as
   * blanks (`kotlinParseText`) are the text between the definition and what comes before it.
   */
  decorated(node: SyntaxNode, parentNode: SyntaxNode | null, signature: string): string {
    const decorators: Array<{ text: string }> = [];
    if (this.spec.id === "python") {
      if (parentNode?.type === "decorated_definition") {
        // A comment after a decorator or among its arguments is in its node (`@declared_attr
        // # type: ignore`): on the signature's one line it would comment out the rest.
        for (const c of parentNode.namedChildren) {
          if (c?.type === "decorator") {
            decorators.push({ text: this.plainText(c, c.startIndex, c.endPosition, c.endIndex) });
          }
        }
      }
    } else if (JS_GRAMMARS.has(this.spec.grammar)) {
      if (parentNode?.type === "export_statement") {
        for (const c of parentNode.namedChildren) if (c?.type === "decorator") decorators.push(c);
      } else if (parentNode?.type === "class_body") {
        for (
          let c = namedSibling(node, false);
          c?.type === "decorator";
          c = namedSibling(c, false)
        ) {
          decorators.unshift(c);
        }
      }
    } else if (this.spec.id === "kotlin") {
      decorators.push(...blankedAnnotations(this.text, node));
    } else if (this.spec.id === "cpp") {
      const words = macroWordsBefore(this.text, node);
      if (words) return `${words} ${signature}`;
    }
    if (!decorators.length) return signature;
    const words = decorators.map((d) => {
      const text = tightBrackets(
        d.text.replace(/\s+/g, " ").trim(),
        CHARACTER_QUOTES.has(this.spec.id),
      );
      return text.length <= MAX_DECORATOR ? text : `${text.slice(0, text.search(/[(\s]|$/))}(...)`;
    });
    return `${words.join(" ")} ${signature}`;
  }

  /** A definition's body when the grammar gives it no field name (by the language's `fieldOf`). */
  unnamedBody(node: SyntaxNode, type: string): SyntaxNode | undefined {
    const fieldOf = this.spec.fieldOf;
    if (!fieldOf) return undefined;
    const parent = node as unknown as NodeLike;
    // A body, or a container (Elixir's `defmodule` block, which is no body to elide).
    return node.namedChildren.find((c) =>
      c !== null &&
      (fieldOf(type, c.type, parent) === "body" || this.spec.containers.has(c.type))
    ) ?? undefined;
  }

  /**
   * Where a signature ends before a body the grammar names no field of: Kotlin's `= expr` body
   * keeps its `=` (the signature gets ` ...`); a container (Zig's `const Color = enum(u8) {...}`)
   * keeps what opens it, up to its own `{` (before its first item; a header, Zig's tag type, may
   * come first).
   */
  unnamedBodyStart(unnamed: SyntaxNode): [number, SyntaxNode["endPosition"]] {
    const brace = this.text.indexOf("{", unnamed.startIndex);
    const first = unnamed.firstNamedChild;
    const limit = first && !this.spec.headers?.has(first.type)
      ? first.startIndex
      : unnamed.endIndex;
    if (this.spec.containers.has(unnamed.type) && brace !== -1 && brace < limit) {
      return [brace, unnamed.startPosition];
    }
    const equals = this.text.startsWith("=", unnamed.startIndex) ? 1 : 0;
    const at = unnamed.startPosition;
    return [unnamed.startIndex + equals, { ...at, column: at.column + equals }];
  }

  /**
   * The text of a node from `from` to `end` (at `endPoint`): a signature never carries the file's
   * comments (only text that may start one is searched).
   */
  plainText(
    node: SyntaxNode,
    from: number,
    endPoint: SyntaxNode["endPosition"],
    end: number,
  ): string {
    const text = this.text.slice(from, end);
    // What may open a comment in any grammar here (`#` in Ruby, shell, PHP and Python, `--` in
    // Lua); the tree's comment nodes say which are.
    const comments = text.includes("#") || text.includes("//") || text.includes("/*") ||
      text.includes("--");
    return comments ? this.withoutComments(node, end, endPoint, from) : text;
  }

  /** The text of a node from `from` (its start) to `end` (at `endPoint`) without its comments. */
  withoutComments(
    node: SyntaxNode,
    end: number,
    endPoint: SyntaxNode["endPosition"],
    from: number = node.startIndex,
  ): string {
    let types = COMMENT_TYPES.get(this.spec);
    if (!types) {
      // (Haskell's `-- ^` and `-- |` are `haddock` nodes: a record's fields' comments, which a
      // signature read as one line would turn into one comment to its end)
      types = [...this.spec.attach].filter((t) => t.includes("comment") || t === "haddock");
      COMMENT_TYPES.set(this.spec, types);
    }
    let at = from;
    let out = "";
    for (const comment of node.descendantsOfType(types, node.startPosition, endPoint)) {
      if (comment.startIndex < at || comment.endIndex > end) continue;
      out += `${this.text.slice(at, comment.startIndex)} `;
      at = comment.endIndex;
    }
    return out + this.text.slice(at, end);
  }

  cut(node: SyntaxNode): void {
    this.edits.push({ start: this.leadStart(node), end: node.endIndex, text: CUT });
    // The run's comments left out above it go with it.
    const gap = this.gaps.get(node);
    if (gap) this.edits.push({ start: gap.start, end: gap.end, text: CUT });
  }
}

/** What a call's long part keeps as it is: its callee and its arguments' list (see `shorten`). */
const CALL_PARTS = new Set([
  "call_expression",
  "member_expression",
  "arguments",
  "await_expression",
  "new_expression",
]);

/** The lines an argument list's arguments start on. */
function argumentRows(args: SyntaxNode): number {
  const rows = new Set<number>();
  // One list, not `namedChild(i)` for each: that call scans the children before the `i`th.
  for (const arg of args.namedChildren) rows.add(arg!.startPosition.row);
  return rows.size;
}

/**
 * The part of a long child of a value that is elided: a property's value (it keeps its key);
 * in a call's arguments (`call`), a function's body (`() => ...`) and a template's inside
 * (`` test.each`...` ``); else the whole child.
 */
function elidedPart(child: SyntaxNode, call: boolean): [number, number] {
  if (call && child.type === "template_string") return [child.startIndex + 1, child.endIndex - 1];
  const value = child.childForFieldName("value") ??
    (call ? child.childForFieldName("body") : null) ?? child;
  return [value.startIndex, call ? value.endIndex : child.endIndex];
}

/**
 * The body of the type a definition holds in its `type` field when that body lists members (C's
 * `typedef struct p { int x; } p_t`, `struct p { int x; } origin;`), or undefined. Asked of the
 * languages whose definitions may hold one (those with `LanguageSpec.defines`: C and C++; in
 * JavaScript's none does).
 */
function heldBody(node: SyntaxNode, spec: LanguageSpec): SyntaxNode | undefined {
  const held = node.childForFieldName("type");
  if (!held || !spec.definitions[held.type]) return undefined;
  const body = held.childForFieldName("body");
  return body && spec.containers.has(body.type) ? body : undefined;
}

/**
 * Whether a child of a container is a header of it (a name, a condition), not an item: a child in
 * a field but `member` and the language's `itemFields` (Lua's `local_declaration`), unless it is
 * a comment or attribute, and the language's `headers`.
 */
function isHeader(spec: LanguageSpec, field: string | null, type: string): boolean {
  if (spec.headers?.has(type)) return true;
  if (!field || field === "member" || spec.itemFields?.has(field)) return false;
  return !spec.attach.has(type);
}

/** Tags that make a doc comment the file's own (JSDoc's, TSDoc's, Doxygen's, PHPDoc's words). */
const FILE_TAGS =
  /@(?:license|preserve|copyright|file|fileoverview|overview|module|packageDocumentation)\b/;

/**
 * Tags by which a doc comment names what it documents, standing apart from the code (JSDoc's
 * `@typedef`, `@name Manager#cache`, `@method resolveId`; PHPDoc's `@var Foo $x`).
 */
const NAMING_TAGS = new RegExp(
  "@(?:name|typedef|callback|event|external|host)\\b|" +
    "@(?:method|function|func|member|var|constant|const|namespace|class|constructor|interface)" +
    "[ \\t]+[\\w$#.~]",
);

/**
 * Where the annotations before a Kotlin definition that its parse read as blanks start (see
 * `kotlinParseText`), else where the definition does: they are the text between the definition
 * and the node before it (a comment, an item, its container's `{`), where the parse saw nothing.
 */
function blankedStart(text: string, node: SyntaxNode): number {
  // Known for the nodes the walk's cursor made (see `link`): looked for, it cost a scan of the
  // parent's children before the node.
  const from = previousEnds.get(node) ?? node.previousSibling?.endIndex ??
    node.parent?.startIndex ?? 0;
  const gap = text.slice(from, node.startIndex);
  const at = gap.search(/\S/);
  return at >= 0 && gap[at] === "@" ? from + at : node.startIndex;
}

/** Upper-case words alone before a definition on its line (`IMGUI_API`, `FMT_CONSTEXPR20`). */
const MACRO_WORDS = /^[ \t]*((?:_*[A-Z][A-Z0-9_]*[A-Z0-9_][ \t]+)+)$/;

/**
 * The macro words before a C++ definition on its first line that its parse read as blanks
 * (`SPDLOG_INLINE`, `IMGUI_API`: see `grammars/_cpp_macros.ts`), or undefined: the signature
 * starts with them, as the file does.
 */
function macroWordsBefore(text: string, node: SyntaxNode): string | undefined {
  const lineStart = text.lastIndexOf("\n", node.startIndex - 1) + 1;
  if (lineStart === node.startIndex) return undefined;
  return MACRO_WORDS.exec(text.slice(lineStart, node.startIndex))?.[1].replace(/\s+/g, " ").trim();
}

/** The annotations before a Kotlin definition that its parse read as blanks, one by one. */
function blankedAnnotations(text: string, node: SyntaxNode): Array<{ text: string }> {
  const start = blankedStart(text, node);
  if (start === node.startIndex) return [];
  return text.slice(start, node.startIndex).trim().split(/\s+(?=@)/).map((a) => ({ text: a }));
}

/**
 * A Kotlin property's first accessor with a body (`get() = r * 2`), where its signature ends; a
 * `private set` is none.
 */
function accessorWithBody(node: SyntaxNode, type: string): SyntaxNode | undefined {
  if (type !== "property_declaration") return undefined;
  return node.namedChildren.find((c) =>
    (c?.type === "getter" || c?.type === "setter") &&
    c.namedChildren.some((b) => b?.type === "function_body")
  ) ?? undefined;
}

/** JSDoc's tags that define a type apart from the code: `@typedef`, `@callback`. */
const TYPEDEF_TAG = /@(typedef|callback)\b[ \t]*/;

/**
 * The type a JSDoc comment defines with `@typedef {Type} Name` or `@callback Name`: its name, its
 * kind (the tag) and its words up to the name (a type of nested braces read whole); none when the
 * tag names nothing (Closure's `@typedef {T}` above a `var`, which that declaration names).
 */
function typedefTag(
  comment: string,
): { name: string; kind: string; signature: string } | undefined {
  const tag = TYPEDEF_TAG.exec(comment);
  if (!tag) return undefined;
  let at = tag.index + tag[0].length;
  if (comment[at] === "{") {
    let depth = 0;
    for (; at < comment.length; at++) {
      if (comment[at] === "{") depth++;
      else if (comment[at] === "}" && --depth === 0) break;
    }
    at++;
  }
  const name = /^[ \t]*([\p{L}_$][\p{L}\p{N}_$.~#]*)/u.exec(comment.slice(at, at + 200));
  if (!name) return undefined;
  const words = comment.slice(tag.index, at).replace(/\s*\n\s*\*?\s*/g, " ").trim();
  const signature = `${words.length > 200 ? `${words.slice(0, 197)}...` : words} ${name[1]}`;
  return { name: name[1], kind: tag[1], signature };
}

/** What may come before a file's header comment: a `#!` line, PHP's `<?php`. */
const FILE_OPENERS = new Set(["hash_bang_line", "php_tag", "shebang"]);

/** Whether a comment is the first item of its file (after a `#!` line or `<?php`). */
function opensFile(comment: SyntaxNode): boolean {
  if (comment.parent?.parent) return false;
  let before = namedSibling(comment, false);
  while (before && FILE_OPENERS.has(before.type)) before = namedSibling(before, false);
  return !before;
}

/** A language's comment node types, by language. */
const COMMENT_TYPES = new WeakMap<LanguageSpec, string[]>();

/**
 * A language's `type.field` pairs (`functionBodies`, `blockBodies`, `values`) as fields by node
 * type.
 */
interface FieldsByType {
  bodies: Map<string, Set<string>>;
  blocks: Map<string, Set<string>>;
  values: Map<string, Set<string>>;
}

const FIELDS = new WeakMap<LanguageSpec, FieldsByType>();

/** The walk looks these up for every child: by node type, then field (no string built per child). */
function fieldsOf(spec: LanguageSpec): FieldsByType {
  let fields = FIELDS.get(spec);
  if (!fields) {
    fields = {
      bodies: byType(spec.functionBodies),
      blocks: byType(spec.blockBodies ?? new Set()),
      values: byType(spec.values),
    };
    FIELDS.set(spec, fields);
  }
  return fields;
}

function byType(pairs: Set<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const pair of pairs) {
    const dot = pair.lastIndexOf(".");
    const type = pair.slice(0, dot);
    let fields = out.get(type);
    if (!fields) out.set(type, fields = new Set());
    fields.add(pair.slice(dot + 1));
  }
  return out;
}

/** A Go method's receiver type (`Store` for `func (s *Store[K]) Get()`). */
function receiverType(node: SyntaxNode, type: string = node.type): string | undefined {
  if (type !== "method_declaration") return undefined;
  const receiver = node.childForFieldName("receiver")?.namedChildren[0]?.childForFieldName("type");
  return receiver?.text.replace(/^\*/, "").replace(/\[[\s\S]*$/, "") || undefined;
}

/**
 * Property and method signatures count as members in interface and class bodies (a class's
 * overloads and a declaration file's methods), never in a type literal.
 */
function isMember(type: string, parentNode: SyntaxNode | null): boolean {
  if (type !== "property_signature" && type !== "method_signature") return true;
  const parent = parentNode?.type;
  return parent === "interface_body" || parent === "class_body";
}

/**
 * Whether a compound item continues, on its first line, text the parser could not read, in a
 * language that leaves such text out (its `ERROR` is not transparent): then it is that text's block.
 */
function continuesError(spec: LanguageSpec, node: SyntaxNode): boolean {
  if (spec.transparent.has("ERROR")) return false;
  const before = namedSibling(node, false);
  return before?.type === "ERROR" && before.endPosition.row === node.startPosition.row;
}

/** Up to `limit` named children that are not comments or decorators (a cursor, no full list). */
function firstStatements(
  cursor: TreeCursor,
  node: SyntaxNode,
  limit: number,
  skip: Set<string>,
): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const { types, named } = typeTable(node.tree.language);
  cursor.reset(node);
  if (!cursor.gotoFirstChild()) return out;
  do {
    const id = cursor.nodeTypeId;
    if (isNamed(named, id, node) && !skip.has(types[id] || "ERROR")) out.push(cursor.currentNode);
  } while (out.length < limit && cursor.gotoNextSibling());
  return out;
}

/**
 * Whether the cursor's node has a child (what `childCount` tells of a node), the cursor left where
 * it was.
 */
function hasChildren(cursor: TreeCursor): boolean {
  if (!cursor.gotoFirstChild()) return false;
  cursor.gotoParent();
  return true;
}

/** A language's type names by type id, and which ids are named (-1: not asked yet). */
interface TypeTable {
  types: string[];
  named: Int8Array;
}

const TYPE_TABLES = new WeakMap<object, TypeTable>();

/** The type table of a tree's language (type ids are 16-bit; an error node's is the last). */
function typeTable(language: SyntaxNode["tree"]["language"]): TypeTable {
  let table = TYPE_TABLES.get(language);
  if (!table) {
    table = { types: language.types, named: new Int8Array(0x10000).fill(-1) };
    TYPE_TABLES.set(language, table);
  }
  return table;
}

/**
 * Whether a node type is named, asked of the parser once per language and type: the cursor's
 * `nodeIsNamed` asks for each node (a named node is one whose type is: an alias's type or the
 * node's own, which is what the cursor's type id is).
 */
function isNamed(named: Int8Array, id: number, node: SyntaxNode): boolean {
  let known = named[id];
  if (known === -1) known = named[id] = node.tree.language.nodeTypeIsNamed(id) ? 1 : 0;
  return known === 1;
}

/** The children of `node` of one type (a cursor: no object made for the others). */
function childrenOfType(cursor: TreeCursor, node: SyntaxNode, type: string): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const { types } = typeTable(node.tree.language);
  cursor.reset(node);
  if (!cursor.gotoFirstChild()) return out;
  do {
    if (types[cursor.nodeTypeId] === type) out.push(cursor.currentNode);
  } while (cursor.gotoNextSibling());
  return out;
}

/** What {@linkcode namedChildren} also reports of a container's children. */
interface ChildLists {
  /** Where the `;`, `,` or `:` right after each child ends (-1: none). */
  separators: number[];
  /**
   * Runs of comments on lines one after another, of the `types` given: of a run longer than its
   * first and {@linkcode COMMENT_RUN_SHOWN} more, only those are listed, and the comments between
   * are recorded in `gaps` under the comment that follows them (no object made for them).
   */
  runs?: { types: Set<string>; text: string; gaps: Map<SyntaxNode, CommentGap> };
}

/** A comment run's comments after its first, the last {@linkcode COMMENT_RUN_SHOWN} of them kept. */
class RunTail {
  readonly ring: Array<[SyntaxNode, string | null, string]> = [];
  /** The next slot to write once the ring is full; how many comments were let go; from where. */
  head = 0;
  dropped = 0;
  gapStart = -1;

  add(entry: [SyntaxNode, string | null, string]): void {
    if (this.ring.length < COMMENT_RUN_SHOWN) {
      this.ring.push(entry);
      return;
    }
    if (this.dropped++ === 0) this.gapStart = this.ring[this.head][0].startIndex;
    this.ring[this.head] = entry;
    this.head = (this.head + 1) % COMMENT_RUN_SHOWN;
  }

  /** Hand the kept comments on in order, the gap recorded under the first of them. */
  flush(
    out: Array<[SyntaxNode, string | null, string]>,
    lists: ChildLists,
  ): void {
    const kept = [...this.ring.slice(this.head), ...this.ring.slice(0, this.head)];
    if (this.dropped) {
      const { text, gaps } = lists.runs!;
      const next = kept[0][0];
      const end = next.startIndex;
      const lines = countLines(text, this.gapStart, end);
      const indent = end - (text.lastIndexOf("\n", end - 1) + 1);
      const comment = text.slice(this.gapStart, this.gapStart + 3);
      const lead = /^[^\s\p{L}\p{N}]*/u.exec(comment)![0] || "//";
      const note = `... (${counted(lines, "more comment line")})`;
      // The line ends as the run's lines do (a CRLF file's marker is no LF line among them).
      const eol = text[end - indent - 2] === "\r" ? "\r\n" : "\n";
      const marker = `${lead.startsWith("/*") ? `/* ${note} */` : `${lead} ${note}`}${eol}${
        text.slice(end - indent, end)
      }`;
      gaps.set(next, {
        start: this.gapStart,
        end,
        row: next.startPosition.row - lines,
        // A marker no shorter than the lines it stands for leaves them as they are: the view
        // never grows past the file (a run of 202 `//` lines lost one for a longer line).
        marker: {
          start: this.gapStart,
          end,
          text: marker.length < end - this.gapStart ? marker : text.slice(this.gapStart, end),
        },
      });
    }
    for (const entry of kept) {
      out.push(entry);
      lists.separators.push(-1);
    }
    this.ring.length = 0;
    this.head = 0;
    this.dropped = 0;
    this.gapStart = -1;
  }
}

/**
 * Whether the comment at `start` begins on the line after the one the comment ending at `end`
 * ends on (a line comment may hold its newline), with only blanks between.
 */
function nextLine(text: string, end: number, start: number): boolean {
  let newlines = text[end - 1] === "\n" ? 1 : 0;
  for (let i = end; i < start; i++) {
    const c = text[i];
    if (c === "\n") newlines++;
    else if (c !== " " && c !== "\t" && c !== "\r") return false;
  }
  return newlines === 1;
}

/**
 * Named children with their field names and types, in one linear pass of the walk's cursor (the
 * list is complete before the caller recurses, so one cursor serves the whole walk); with
 * `wanted`, only the children it accepts (a node costs a call into the parser and an object).
 */
function namedChildren(
  cursor: TreeCursor,
  node: SyntaxNode,
  wanted?: (field: string | null, type: string, cursor: TreeCursor) => boolean | undefined,
  lists?: ChildLists,
): Array<[SyntaxNode, string | null, string]> {
  const out: Array<[SyntaxNode, string | null, string]> = [];
  const { types, named } = typeTable(node.tree.language);
  cursor.reset(node);
  if (!cursor.gotoFirstChild()) return out;
  const separators = lists?.separators;
  const runs = lists?.runs;
  // The comment run the cursor is in: where its last comment ends, and its comments after the
  // first (-1: in none).
  let runEnd = -1;
  const tail = runs ? new RunTail() : undefined;
  // With `separators`: where the `;`, `,` or `:` right after each child ends (-1: none), which
  // belongs to the child when the child is left out.
  let previous = -1;
  // The named child made last (undefined: one since was not), where the sibling before ends.
  let made: SyntaxNode | null | undefined = null;
  let before = walk.ends ? node.startIndex : -1;
  do {
    // Over the work budget: thrown as itself, turned into an error by `renderWith`.
    if (++walk.visited > walk.limit) throw walk;
    const end = before;
    if (end !== -1) before = cursor.endIndex;
    const id = cursor.nodeTypeId;
    if (!isNamed(named, id, node)) {
      if (previous !== -1 && SEPARATORS.has(types[id])) separators![previous] = cursor.endIndex;
      previous = -1;
      continue;
    }
    const field = cursor.currentFieldName;
    const type = types[id] || "ERROR";
    previous = -1;
    if (wanted && !wanted(field, type, cursor)) {
      made = undefined;
      continue;
    }
    const child = cursor.currentNode;
    link(child, node, made, end);
    made = child;
    if (runs) {
      const comment = runs.types.has(type);
      if (comment && runEnd !== -1 && nextLine(runs.text, runEnd, cursor.startIndex)) {
        runEnd = cursor.endIndex;
        tail!.add([child, field, type]);
        continue;
      }
      if (runEnd !== -1) tail!.flush(out, lists!);
      runEnd = comment ? cursor.endIndex : -1;
    }
    out.push([child, field, type]);
    if (separators) previous = separators.push(-1) - 1;
  } while (cursor.gotoNextSibling());
  if (made) Object.defineProperty(made, "nextNamedSibling", { value: null, configurable: true });
  if (runEnd !== -1) tail!.flush(out, lists!);
  return out;
}

/**
 * Where the sibling before a node the walk's cursor made ends (any sibling, named or not; its
 * parent's start when it is the first), when the walk tracks it (`walk.ends`, in Kotlin).
 */
const previousEnds = new WeakMap<SyntaxNode, number>();

/**
 * Give a child the walk's cursor made its `parent`, and its `previousNamedSibling` (and that one
 * its `nextNamedSibling`) when the named child before it was made too (`previous`: undefined
 * when it was not), as the node's own: tree-sitter keeps no such links, and finds a node's parent
 * by searching down from the root (through the children before the node's ancestor at each
 * level) and a sibling by that search and a scan of the parent's children up to the node. Asked
 * of each child of a wide node (a file of 16,000 items), those searches cost the square of its
 * width (see bench/README.md, "Wide nodes"). `end`: where the sibling before it ends (-1: not
 * tracked).
 */
function link(
  child: SyntaxNode,
  parent: SyntaxNode,
  previous: SyntaxNode | null | undefined,
  end: number,
): void {
  Object.defineProperty(child, "parent", { value: parent, configurable: true });
  if (previous !== undefined) {
    Object.defineProperty(child, "previousNamedSibling", { value: previous, configurable: true });
    if (previous) {
      Object.defineProperty(previous, "nextNamedSibling", { value: child, configurable: true });
    }
  }
  if (end !== -1) previousEnds.set(child, end);
}

/**
 * The named sibling after a node (`after`) or before it: its own link (see `link`), else found
 * among its parent's named children, which are linked then (the node's own search scans from the
 * root: see `link`).
 */
function namedSibling(node: SyntaxNode, after: boolean): SyntaxNode | null {
  const key = after ? "nextNamedSibling" : "previousNamedSibling";
  if (Object.hasOwn(node, key)) return node[key];
  const parent = node.parent;
  const siblings = parent ? linkedChildren(parent) : [];
  const at = siblings.findIndex((c) => c.id === node.id);
  if (at < 0) return node[key];
  return siblings[at + (after ? 1 : -1)] ?? null;
}

/** The named children of `node` (its `namedChildren`), each given its links (see `link`). */
function linkedChildren(node: SyntaxNode): SyntaxNode[] {
  const children = node.namedChildren as SyntaxNode[];
  if (children.length && Object.hasOwn(children[0], "parent")) return children;
  let previous: SyntaxNode | null = null;
  for (const child of children) {
    link(child, node, previous, -1);
    previous = child;
  }
  if (previous) {
    Object.defineProperty(previous, "nextNamedSibling", { value: null, configurable: true });
  }
  return children;
}

/** Tokens that end an item in a list (a member, a field, a variant, an access label). */
const SEPARATORS = new Set([";", ",", ":"]);

function hasFunctionDeclarator(node: SyntaxNode): boolean {
  let n: SyntaxNode | null = node.childForFieldName("declarator");
  for (let i = 0; n && i < 8; i++) {
    if (n.type === "function_declarator") return true;
    n = n.childForFieldName("declarator");
  }
  return false;
}

function isDocstring(node: SyntaxNode, type: string = node.type): boolean {
  return type === "expression_statement" && node.namedChildCount === 1 &&
    (node.firstNamedChild?.type === "string" ||
      node.firstNamedChild?.type === "concatenated_string");
}

function isTrivial(node: SyntaxNode): boolean {
  return node.type === "pass_statement" ||
    (node.type === "expression_statement" && node.endIndex - node.startIndex === 3 &&
      node.text === "...");
}

function isInnerDoc(node: SyntaxNode): boolean {
  return node.type === "line_comment" && /^\/\/!/.test(node.text) ||
    node.type === "block_comment" && /^\/\*!/.test(node.text);
}

/**
 * Where the comments after a container's last item, which was left out, start to stay: at the
 * first one a blank line parts from the item or from the comment before it; `tail.length` when
 * none is. A comment right below the item (on its row or the next) is the item's.
 */
function partedFrom(tail: SyntaxNode[], droppedRow: number, comments: Set<string>): number {
  let row = droppedRow;
  for (const [k, p] of tail.entries()) {
    if (!comments.has(p.type)) return tail.length;
    if (droppedRow >= 0 && p.startPosition.row > row + 1) return k;
    row = endRow(p);
  }
  return tail.length;
}

/**
 * Where a node's code ends: before the blanks and line ends it may hold at its end (Scala 3's
 * indented block runs on to the next line's indent), which a cut must leave, or the next line
 * joined the cut one (`  class C` after a class whose last statement was left out).
 */
function codeEnd(text: string, node: SyntaxNode): number {
  let end = node.endIndex;
  const start = node.startIndex;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return end;
}

/** The last row a node occupies (a line comment that includes its newline ends on the row before). */
function endRow(node: SyntaxNode): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

/**
 * Whether other text than blanks shares a line with the node: before it on its first line, or
 * after it on its last. Each look stops at the first character that is no blank.
 */
function sharesLine(text: string, node: SyntaxNode): boolean {
  for (let i = node.startIndex - 1; i >= 0 && text[i] !== "\n"; i--) {
    if (text[i] !== " " && text[i] !== "\t" && text[i] !== "\r") return true;
  }
  for (let i = node.endIndex; i < text.length && text[i] !== "\n"; i++) {
    if (text[i] !== " " && text[i] !== "\t" && text[i] !== "\r") return true;
  }
  return false;
}

/** The leading whitespace of the line holding `index`. */
function indentAt(text: string, index: number): string {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, index))![0];
}

/** A long value's inner edits in source order, what they remove, and the markers added. */
interface InnerEdits {
  edits: Edit[];
  /** Lines removed by `edits[0..i)`, at `i`. */
  removed: number[];
  added: Edit[];
}

/** The first index in `[from, length)` whose key is at least `key` (keys ascend), or `length`. */
function firstAtOrAfter(
  length: number,
  keyAt: (i: number) => number,
  key: number,
  from = 0,
): number {
  let lo = from;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyAt(mid) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Lines that `edits[from..to)` remove from the text. */
function linesRemoved(text: string, edits: Edit[], from: number, to: number): number {
  let removed = 0;
  for (let i = from; i < to; i++) {
    const e = edits[i];
    removed += countLines(text, e.start, e.end) - countLines(e.text, 0, e.text.length);
  }
  return removed;
}

function countLines(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", start); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Apply non-overlapping edits, then drop the lines that deletions left
 * empty, trim what they left at line ends, keep at most one blank line
 * in a row, and none right after a block opener or right before a closer
 * when a deletion left it there.
 */
function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue; // inside an earlier edit
    parts.push(text.slice(at, e.start), e.text);
    at = e.end;
  }
  parts.push(text.slice(at));
  const out: string[] = [];
  let blank = true; // no blank lines at the start
  let cutAfterBlank = false; // a deleted item followed the last blank line
  let cutAfterText = false; // a deletion was on or after the last line of text
  for (let line of parts.join("").split("\n")) {
    const cut = line.includes(CUT);
    if (cut) {
      line = closeCuts(line).trimEnd();
      if (!line.trim()) {
        if (blank) cutAfterBlank = true;
        else cutAfterText = true;
        continue;
      }
    }
    if (!line.trim()) {
      // No blank line right after a block opener when a deleted first item left it: one the
      // file has there stays (a docstring's `Example:` and the blank line before its code).
      if (blank || (cutAfterText && /[:{]$/.test(out[out.length - 1] ?? ""))) continue;
      blank = true;
      cutAfterBlank = false;
      out.push("");
      continue;
    }
    // No blank line right before a block closer when a deleted last item left it.
    if (blank && cutAfterBlank && out.at(-1) === "" && /^\s*[}\])]/.test(line)) out.pop();
    blank = false;
    cutAfterText = cut;
    out.push(line);
  }
  while (out.length && out[out.length - 1] === "") out.pop();
  return out.length ? `${out.join("\n")}\n` : "";
}

/**
 * A line with its deletions taken out: the space around a deletion becomes one space (none at the
 * line's end), and a deletion at the line's start leaves its indentation.
 */
function closeCuts(line: string): string {
  // A scan from each deletion mark, not `/[ \t]*\uE000[\uE000 \t]*/g`: that expression tried
  // every blank of a long run of blanks with no mark after it, in time growing as the run's
  // length squared (a line of a megabyte of spaces held a masked view for half an hour).
  const parts: string[] = [];
  let from = 0;
  // Characters looked at: each one at most twice (the search for a mark, the scans around it).
  let steps = 0;
  for (let mark = line.indexOf(CUT, from); mark >= 0; mark = line.indexOf(CUT, from)) {
    let start = mark;
    while (start > from && isBlank(line[start - 1])) start--;
    let end = mark + 1;
    while (end < line.length && (line[end] === CUT || isBlank(line[end]))) end++;
    steps += mark - from + (mark - start) + (end - mark);
    parts.push(line.slice(from, start), cutSpace(line.slice(start, end), start, line.length));
    from = end;
  }
  countWork("cuts", steps + line.length - from);
  if (!parts.length) return line;
  parts.push(line.slice(from));
  return parts.join("");
}

function isBlank(c: string): boolean {
  return c === " " || c === "\t";
}

/**
 * What a run of blanks and deletions at `at` in a line of `length` characters becomes. Between
 * two characters of code with no blank around it (a minified file's `a();CUTvar b`) it is ` ... `:
 * joined, the neighbours would read as adjacent in the file.
 */
function cutSpace(run: string, at: number, length: number): string {
  if (at + run.length === length) return "";
  const before = /^[ \t]*/.exec(run)![0];
  if (at === 0) return before;
  const after = isBlank(run[run.length - 1]);
  return before || after ? " " : " ... ";
}

/** How {@linkcode renderOrFallback} renders a file (see {@linkcode useSharedRenderer}). */
export type SharedRenderer = (
  path: string,
  text: string,
  options?: RenderCodeOptions,
) => Promise<CodeView | undefined>;

let sharedRenderer: SharedRenderer = renderCode;

/**
 * Set how {@linkcode renderOrFallback} renders: `_code_pool.ts` sets its shared pool when it
 * loads (this module does not import the pool, which imports it); until then, on this thread.
 *
 * @example
 * ```ts
 * import { renderCode, useSharedRenderer } from "./_code.ts";
 * useSharedRenderer(renderCode); // render on this thread
 * ```
 */
export function useSharedRenderer(render: SharedRenderer): void {
  sharedRenderer = render;
}

function renderCodeShared(
  path: string,
  text: string,
  options?: RenderCodeOptions,
): Promise<CodeView | undefined> {
  return sharedRenderer(path, text, options);
}

/** Options of {@linkcode renderOrFallback}. */
export interface FallbackOptions {
  /** The view's short name, for notes (`skeleton`). */
  view: string;
  /** Engine options. */
  code: RenderCodeOptions;
  /** Render `summary` instead when the view's text is empty (a script with no definition). */
  emptyFallback?: boolean;
  /** Turn the engine's result into the view's output. */
  finish: (code: CodeView) => ViewOutput;
}

/** Why the engine could not render a file, and whether the summary in its place may be stored. */
interface FallbackCause {
  view: string;
  problem: string;
  overBudget: boolean;
  /**
   * The same text would fail the same way again: over its work budget, no grammar, or a parse
   * that made the runtime abort (its memory past its bound). A failure of the machine (a grammar
   * package that could not load, a worker that died) is not stored: the next build renders the
   * file again.
   */
  settled: boolean;
}

/** The summary view of a file the engine could not render, with the problem in its notes. */
async function summaryFallback(
  ctx: ViewContext,
  { view, problem, overBudget, settled }: FallbackCause,
): Promise<ViewOutput> {
  const out = withCacheable(await ctx.renderAs("summary"), settled);
  if (overBudget) {
    // Said in the block too: a reader of the document sees why this file is a summary.
    const note = out.fallback
      ? `(${view} view over its work budget)`
      : `(${view} view over its work budget: summary shown)`;
    return {
      ...out,
      text: out.fenced === false ? `${note}\n\n${out.text}` : out.text,
      view: out.view ?? "summary",
      fallback: out.fallback
        ? `${view} -> ${out.fallback}`
        : `${view} -> summary: over its work budget`,
      notes: [`${problem}: fell back to summary`, ...(out.notes ?? [])],
    };
  }
  return {
    ...out,
    view: out.view ?? "summary",
    notes: [`${problem}: fell back to summary`, ...(out.notes ?? [])],
  };
}

/** `out`, marked not to be stored when its cause may not come again. */
function withCacheable(out: ViewOutput, settled: boolean): ViewOutput {
  return settled ? out : { ...out, cacheable: false };
}

/**
 * Why the engine could not render a file, and whether it was over its work budget. A render a
 * clock stopped throws a `ClockError` instead: rendered otherwise (a fallback, an error block),
 * the file would show what the machine's speed decided, so the build fails.
 */
function failure(error: unknown, view: string, path: string) {
  const message = error instanceof Error ? error.message : String(error);
  if (isClockError(error)) {
    throw new ClockError(
      `Cannot render "${path}" as ${view} in time: ${message}; the build stops, as the file ` +
        `would otherwise show what this machine's speed decided (build again on a less busy ` +
        `machine, or give the file the summary view)`,
    );
  }
  const overBudget = message.startsWith(WORK_BUDGET);
  const problem = overBudget
    ? `${view} of "${path}" stopped: ${message}`
    : `${view} cannot parse "${path}": ${message}`;
  return { problem, overBudget };
}

/**
 * Run the engine for a view, falling back to `summary` (with a manifest
 * note) when the file cannot be parsed; a file with syntax errors renders
 * what parsed, with a note.
 *
 * @example
 * ```ts
 * import { renderOrFallback } from "./_code.ts";
 * // render(file, ctx) { return renderOrFallback(file, ctx, { view: "skeleton", code: {}, finish: (c) => ({ text: c.text }) }); }
 * ```
 */
export async function renderOrFallback(
  file: ViewInput,
  ctx: ViewContext,
  options: FallbackOptions,
): Promise<ViewOutput> {
  const { view, finish } = options;
  let code: CodeView | undefined;
  let problem: string;
  let overBudget = false;
  let settled = true;
  try {
    // Parsed on whichever thread of the shared pool is free (see `_code_pool.ts`).
    code = await renderCodeShared(file.path, file.text, options.code);
    problem = `${view} has no grammar for "${file.path}"`;
  } catch (error) {
    ({ problem, overBudget } = failure(error, view, file.path));
    // A runtime that aborted on the text would again: kept, so it is not parsed each build.
    settled = overBudget || isRuntimeAbort(error);
  }
  if (code?.hasErrors && !code.symbols.length) {
    problem = `${view} cannot parse "${file.path}": syntax errors and no definition found`;
    code = undefined;
  } else if (code?.unread) {
    // Its lines would be what is left of lines the file holds (Zig's `pub fn add i32 {`).
    problem = `${view}: the grammar reads no part of "${file.path}" as a whole file`;
    code = undefined;
  }
  if (!code) return await summaryFallback(ctx, { view, problem, overBudget, settled });
  const out = finish(code);
  // A `#!` line alone is nothing to show (the walk keeps it whatever follows).
  const shown = out.text.startsWith("#!") ? out.text.replace(/^[^\n]*\n?/, "") : out.text;
  if (options.emptyFallback && !shown.trim()) {
    const summary = await ctx.renderAs("summary");
    return {
      ...summary,
      view: summary.view ?? "summary",
      notes: [
        `${view} found nothing to show in "${file.path}": fell back to summary`,
        ...(summary.notes ?? []),
      ],
    };
  }
  if (code.hasErrors) {
    out.notes = [
      `${view}: "${file.path}" has syntax errors; rendered what parsed`,
      ...(out.notes ?? []),
    ];
  }
  return out;
}

/** Half of a surrogate pair alone: what a cut to a length in UTF-16 units leaves of an emoji. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/**
 * `text` without halves of surrogate pairs left alone. Names and signatures are cut to a length in
 * UTF-16 units (a test's title to 120, a signature to 240); a cut between an emoji's halves leaves
 * one, which UTF-8 cannot encode. A file's decoded text has none, so each is a cut's.
 */
function wholeChars(text: string): string;
function wholeChars(text: string | undefined): string | undefined;
function wholeChars(text: string | undefined): string | undefined {
  return text && LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATES, "") : text;
}
