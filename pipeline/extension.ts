/**
 * A file name's extension as `node:path`'s `extname` gives it, and whether a
 * text is Objective-C by its words (a `.h` or `.m` name does not tell): a leaf
 * module (it imports nothing), so the path helpers (`_path.ts`), the transform
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
 * Whether a file's fence language depends on its words, not only its name (`.h`, `.m`: C or
 * MATLAB by name, Objective-C by {@linkcode isObjectiveC}): a render keeps the language it found
 * (`ViewOutput.language`), so a warm build that does not read the file has it.
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
  return ext === ".h" || ext === ".m";
}
