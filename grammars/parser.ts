/**
 * Tree-sitter runtime and grammars, loaded lazily: the runtime and each
 * grammar's `.wasm` load once per process on first use, and one parser per
 * grammar is reused for every file.
 *
 * @module
 */

import {
  GRAMMAR_WASM,
  loadGrammarPackages,
  loadTreeSitter,
  type TreeSitterNode,
  type TreeSitterTree,
  treeSitterUrl,
} from "../deps.ts";
import { depsSource, parserFor, useGrammarSource } from "./tree_sitter.ts";

export type { GrammarUrls, TreeSitter } from "./tree_sitter.ts";
/** A syntax node. */
export type SyntaxNode = TreeSitterNode;
/** A syntax tree (call `delete()` when done). */
export type SyntaxTree = TreeSitterTree;

useGrammarSource(depsSource({ GRAMMAR_WASM, loadGrammarPackages, loadTreeSitter, treeSitterUrl }));

/**
 * The reusable parser of a grammar (`python`, `c`, `cpp`, `javascript`,
 * `typescript`, `tsx`, `go`, `rust`, `java`), loaded on first use.
 *
 * @example
 * ```ts
 * import { parserFor } from "./parser.ts";
 * const parser = await parserFor("python");
 * const tree = parser.parse("def f(): pass\n")!;
 * tree.rootNode.type; // "module"
 * tree.delete();
 * ```
 */
export { parserFor };

/**
 * Parse text with a grammar; the caller deletes the tree.
 *
 * @example
 * ```ts
 * import { parse } from "./parser.ts";
 * const tree = await parse("go", "package m\n");
 * tree.rootNode.type; // "source_file"
 * tree.delete();
 * ```
 */
export async function parse(grammar: string, text: string): Promise<SyntaxTree> {
  const parser = await parserFor(grammar);
  const tree = parser.parse(text);
  if (!tree) throw new Error(`Parser for "${grammar}" returned no tree`);
  return tree;
}
