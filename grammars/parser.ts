/**
 * Tree-sitter runtime and grammars, loaded lazily: the runtime and each
 * grammar's `.wasm` load once per process on first use, and one parser per
 * grammar is reused for every file.
 *
 * @module
 */

import {
  GRAMMAR_WASM,
  loadTreeSitter,
  type TreeSitterNode,
  type TreeSitterParser,
  type TreeSitterTree,
} from "../deps.ts";

/** The web-tree-sitter module. */
export type TreeSitter = Awaited<ReturnType<typeof loadTreeSitter>>;
/** A syntax node. */
export type SyntaxNode = TreeSitterNode;
/** A syntax tree (call `delete()` when done). */
export type SyntaxTree = TreeSitterTree;

let runtime: Promise<TreeSitter> | undefined;
const parsers = new Map<string, Promise<TreeSitterParser>>();

function treeSitter(): Promise<TreeSitter> {
  runtime ??= loadTreeSitter().then(async (mod) => {
    await mod.Parser.init();
    return mod;
  });
  return runtime;
}

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
export function parserFor(grammar: string): Promise<TreeSitterParser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    const wasm = GRAMMAR_WASM[grammar];
    if (!wasm) return Promise.reject(new Error(`Unknown grammar "${grammar}"`));
    parser = treeSitter().then(async ({ Language, Parser }) => {
      const url = new URL(wasm());
      const language = await Language.load(
        url.protocol === "file:" ? await Deno.readFile(url) : new Uint8Array(
          await (await fetch(url)).arrayBuffer(),
        ),
      );
      const p = new Parser();
      p.setLanguage(language);
      return p;
    });
    // A failed load is not cached: the next file retries and reports its own error.
    parser.catch(() => parsers.delete(grammar));
    parsers.set(grammar, parser);
  }
  return parser;
}

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
