/**
 * The path and glob helpers other folders use (plugins, `knowledge/`, `deps.ts`,
 * `mod.ts`): `node:path`'s results without loading `node:path` (`_path.ts`), and
 * picomatch's matching without loading picomatch for the common patterns
 * (`_glob.ts`). Like those two it loads nothing else, so a plugin that imports it
 * stays light. `pipeline/` itself imports the two private modules directly.
 *
 * @example
 * ```ts
 * import { compileGlobs, extname, join } from "./paths.ts";
 * join("docs", "a.md"); // "docs/a.md"
 * extname("src/mod.ts"); // ".ts"
 * compileGlobs(["docs/*.md"])("docs/a.md"); // true
 * ```
 *
 * @module
 */

export {
  basename,
  dirname,
  extname,
  isAbsolute,
  join,
  relative,
  resolve,
  sep,
  shownPath,
  toFileUrl,
  workingFolder,
} from "./_path.ts";
export { compileGlobs, type GlobOptions, needsPicomatch, usePicomatch } from "./_glob.ts";
export { conventionalExtension, isCoq } from "./extension.ts";
export { globPrefix, startsIndex } from "./path_starts.ts";
