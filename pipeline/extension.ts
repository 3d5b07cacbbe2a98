/**
 * A file name's extension as `node:path`'s `extname` gives it, and whether a
 * text is Objective-C or C++ by its words (a `.h` or `.m` name does not tell):
 * a leaf module (it imports nothing), so the path helpers (`_path.ts`), the transform
 * stage and the grammar table (`grammars/languages.ts`, which imports nothing
 * else outside its folder) take them from here.
 *
 * @module
 */

/**
 * `name`'s extension with its dot: from its last dot, `""` when that dot is its first character
 * (`.bashrc`), when it has none, or for `..`. `name` is one part of a path (no separator).
 *
 * @example
 * ```ts
 * import { extensionOf } from "./extension.ts";
 * extensionOf("app.test.TS"); // ".TS"
 * extensionOf(".bashrc"); // ""
 * ```
 */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 || name === ".." ? "" : name.slice(dot);
}

/** Objective-C's words at a line's start (`@interface`, `@protocol`, `@class`, `#import`). */
const OBJECTIVE_C_WORDS =
  /^[ \t]*(?:@(?:interface|implementation|protocol|class|import)\b|#[ \t]*import\b)/m;

/**
 * Whether a text is Objective-C by its words: a `.h` file is C, C++ or Objective-C, and a `.m`
 * file Objective-C or MATLAB, by what they hold.
 *
 * @example
 * ```ts
 * import { isObjectiveC } from "./extension.ts";
 * isObjectiveC("@interface Cart : NSObject\n@end\n"); // true
 * isObjectiveC("int add(int a, int b);\n"); // false
 * ```
 */
export function isObjectiveC(text: string): boolean {
  return OBJECTIVE_C_WORDS.test(text);
}

/**
 * C++'s words at a line's start, none of which a C header's code can hold: a namespace (opened,
 * aliased or used), a template, a class (its head: `class Cart {`, `class API Cart : Base`,
 * `class Cart;`) or an access specifier (`public:`). One in a block comment is text.
 */
const CPP_WORDS = new RegExp(
  "^[ \\t]*(?:" + [
    /(?:inline[ \t]+)?namespace(?:[ \t]+[A-Za-z_][\w:]*)?[ \t]*(?:\{|=|\r?$)/,
    /using[ \t]+namespace\b/,
    /template[ \t]*</,
    /class[ \t]+[A-Za-z_]\w*(?:[ \t]+[A-Za-z_]\w*)?[ \t]*(?:[:{;]|\r?$)/,
    /(?:public|private|protected)[ \t]*:(?!:)/,
  ].map((word) => word.source).join("|") + ")",
  "gm",
);

/**
 * Whether a text is C++ by its words (a `.h` file is C, C++ or Objective-C by what it holds):
 * a namespace, a template, a class's head or an access specifier at a line's start, or a name
 * qualified with `::` (`std::string`) in code, not in a comment, a string or a C23 attribute
 * (`[[gnu::unused]]`). Linear in the text: each line is looked at from its start once, and the
 * block comments are found once, in one pass, when a word or a `::` is seen.
 *
 * @example
 * ```ts
 * import { isCpp } from "./extension.ts";
 * isCpp("namespace shop {\nint total();\n}\n"); // true
 * isCpp('#ifdef __cplusplus\nextern "C" {\n#endif\n'); // false
 * isCpp("/*\n  Calls A::b\n*" + "/\nint f(void);\n"); // false
 * ```
 */
export function isCpp(text: string): boolean {
  const comments = new BlockComments(text);
  for (const m of text.matchAll(CPP_WORDS)) {
    if (comments.endOf(m.index + m[0].length - 1) < 0) return true;
  }
  comments.rewind();
  return hasQualifiedName(text, comments);
}

/** Whether a line's code names something with `::` (`std::string`, `Cart::add`, `a<T>::b`). */
function hasQualifiedName(text: string, comments: BlockComments): boolean {
  for (let at = text.indexOf("::"); at >= 0;) {
    const inside = comments.endOf(at);
    if (inside >= 0) {
      at = text.indexOf("::", inside);
      continue;
    }
    // A line that starts inside a block comment: its code starts where the comment ends.
    const lineStart = text.lastIndexOf("\n", at) + 1;
    const start = Math.max(lineStart, comments.endBefore(at, lineStart));
    const before = text.slice(start, at);
    if (QUALIFIER_END.test(before) && /[\w~]/.test(text[at + 2] ?? "") && !NOT_CODE.test(before)) {
      return true;
    }
    // The first "::" of a line decides it: looking back from each would be quadratic in it.
    const end = text.indexOf("\n", at);
    if (end < 0) return false;
    at = text.indexOf("::", end);
  }
  return false;
}

/**
 * The block comments (from `/*` to the next star and slash) of a C or C++ text, found in one
 * pass on first use: a `/*` inside a string, a character literal or a `//` comment starts none.
 * Asked about positions in increasing order (each question moves a cursor forward), so all the
 * questions of one pass cost linear time.
 */
class BlockComments {
  #text: string;
  #ranges: number[] | undefined;
  #cursor = 0;
  constructor(text: string) {
    this.#text = text;
  }

  /** The end of the block comment that holds `at` (after its closing slash), or -1 if none. */
  endOf(at: number): number {
    const ranges = this.#advance(at);
    const i = this.#cursor;
    return i < ranges.length && ranges[i] <= at ? ranges[i + 1] : -1;
  }

  /** The end of a block comment that ends in `[from, at]`, or -1. */
  endBefore(at: number, from: number): number {
    const ranges = this.#advance(at);
    const i = this.#cursor - 2;
    return i >= 0 && ranges[i + 1] > from && ranges[i + 1] <= at ? ranges[i + 1] : -1;
  }

  /** Back to the text's start, for questions in increasing order again. */
  rewind(): void {
    this.#cursor = 0;
  }

  /** The ranges, with the cursor on the first that ends after `at`. */
  #advance(at: number): number[] {
    const ranges = this.#ranges ??= blockComments(this.#text);
    while (this.#cursor < ranges.length && ranges[this.#cursor + 1] <= at) this.#cursor += 2;
    return ranges;
  }
}

/** What the scan for comments stops at: a comment's or a literal's start. */
const COMMENT_OR_LITERAL = /\/[*/]|["']/g;
/** The rest of a string or character literal (to its line's end when it is not closed). */
const LITERAL_REST: Record<string, RegExp> = {
  '"': /(?:[^"\\\n]|\\[^])*"?/y,
  "'": /(?:[^'\\\n]|\\[^])*'?/y,
};

/** The block comments of a text as start, end pairs (an unclosed one ends with the text). */
function blockComments(text: string): number[] {
  const ranges: number[] = [];
  COMMENT_OR_LITERAL.lastIndex = 0;
  for (let m; (m = COMMENT_OR_LITERAL.exec(text));) {
    const at = m.index;
    let next: number;
    if (m[0] === "/*") {
      const close = text.indexOf("*/", at + 2);
      next = close < 0 ? text.length : close + 2;
      ranges.push(at, next);
    } else if (m[0] === "//") {
      const end = text.indexOf("\n", at);
      next = end < 0 ? text.length : end;
    } else {
      const rest = LITERAL_REST[m[0]];
      rest.lastIndex = at + 1;
      rest.test(text);
      next = rest.lastIndex;
    }
    COMMENT_OR_LITERAL.lastIndex = next;
  }
  return ranges;
}

/** What a qualifier ends with before its `::`: a name, or a template's arguments. */
const QUALIFIER_END = /[\w>]$/;

/** A line's start that makes what follows a comment, a string or a C23 attribute. */
const NOT_CODE = /^[ \t]*\*|\/\/|\/\*|["'`]|\[\[/;

/**
 * Whether a file's fence language depends on its words, not only its name (`.h`, `.m`: C or
 * MATLAB by name, Objective-C by {@linkcode isObjectiveC}, a `.h` file C++ by
 * {@linkcode isCpp}; `.v`: Verilog by name, Coq by {@linkcode isCoq}): a render keeps the language it found (`ViewOutput.language`), so a warm
 * build that does not read the file has it.
 *
 * @example
 * ```ts
 * import { wordsTellLanguage } from "./extension.ts";
 * wordsTellLanguage("include/Cart.h"); // true
 * wordsTellLanguage("src/app.ts"); // false
 * ```
 */
export function wordsTellLanguage(path: string): boolean {
  const ext = extensionOf(path.slice(path.lastIndexOf("/") + 1)).toLowerCase();
  return ext === ".h" || ext === ".m" || ext === ".v";
}

/** Coq's words at a line's start: a definition, a theorem, `Require` or `Proof.`. */
const COQ_WORDS =
  /^[ \t]*(?:(?:From[ \t]+\S+[ \t]+)?Require\b|Definition\b|Fixpoint\b|Inductive\b|Theorem\b|Lemma\b|Proof\.)/m;

/** Verilog's words at a line's start: a module's end or a compiler directive. */
const VERILOG_WORDS =
  /^[ \t]*(?:endmodule\b|`(?:timescale|define|include|ifdef|ifndef|default_nettype)\b)/m;

/**
 * Whether a `.v` text is Coq's rather than Verilog's (the extension names both): Coq's words and
 * none of Verilog's.
 *
 * @example
 * ```ts
 * import { isCoq } from "./extension.ts";
 * isCoq("Require Import Arith.\nLemma plus_0 : forall n, n + 0 = n.\n"); // true
 * isCoq("module top(input clk);\nendmodule\n"); // false
 * ```
 */
export function isCoq(text: string): boolean {
  return COQ_WORDS.test(text) && !VERILOG_WORDS.test(text);
}

/**
 * The extension a build file named by convention rather than by an extension is read as:
 * `.mk` for a Makefile (`Makefile`, `makefile`, `GNUmakefile`), `.dockerfile` for a Dockerfile
 * (`Dockerfile`, `Dockerfile.dev`, `DebugDockerfile`, `Containerfile`); `""` for any other name
 * (`dockerfile.go`, `Makefile.am`).
 * `path` may hold folders.
 *
 * @example
 * ```ts
 * import { conventionalExtension } from "./extension.ts";
 * conventionalExtension("ui/Dockerfile.dev"); // ".dockerfile"
 * conventionalExtension("GNUmakefile"); // ".mk"
 * conventionalExtension("src/main.go"); // ""
 * ```
 */
export function conventionalExtension(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  if (name === "makefile" || name === "gnumakefile") return ".mk";
  if (name.endsWith("dockerfile") || name === "containerfile") return ".dockerfile";
  // `Dockerfile.dev`, but not a program or document about Dockerfiles (`dockerfile.go`).
  const dot = name.indexOf(".");
  const head = name.slice(0, dot);
  const tail = name.slice(dot + 1);
  return dot > 0 && (head === "dockerfile" || head === "containerfile") && !NOT_DOCKERFILE.has(tail)
    ? ".dockerfile"
    : "";
}

/** What follows `Dockerfile.` in a name that is another kind of file. */
const NOT_DOCKERFILE = new Set(
  ["md", "txt", "go", "py", "ts", "js", "rs", "rb", "java", "json", "yaml", "yml", "toml", "sh"],
);
