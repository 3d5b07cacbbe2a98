/**
 * A file name's extension as `node:path`'s `extname` gives it: a leaf module
 * (it imports nothing), so both the path helpers (`_path.ts`) and the grammar
 * table (`grammars/languages.ts`, which imports nothing else outside its
 * folder) take it from here.
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
