/**
 * The tree-sitter runtime and one reusable parser per grammar, loaded lazily,
 * without importing `deps.ts` at load time: a code worker loads only what
 * parsing needs. Where the runtime and the grammars come from is set by
 * `parser.ts` (from `deps.ts`) or, in a code worker, by the thread that
 * started it (the same modules' resolved URLs, and the `.wasm` modules it
 * compiled, so that the threads share their machine code); until one is
 * set, the first parser loads `parser.ts`.
 *
 * @module
 */

import type { loadTreeSitter, TreeSitterParser } from "../deps.ts";

/** The web-tree-sitter module. */
export type TreeSitter = Awaited<ReturnType<typeof loadTreeSitter>>;

/** Where the runtime and the grammars come from. */
export interface GrammarSource {
  /** Load the web-tree-sitter module. */
  runtime(): Promise<TreeSitter>;
  /** The URL of a grammar's `.wasm` (undefined for an unknown grammar). */
  wasm(grammar: string): string | undefined;
  /** The resolved URLs of the runtime and every grammar, for a code worker. */
  urls?(): GrammarUrls;
  /** `.wasm` modules compiled by another thread (used instead of compiling them again). */
  compiled?: CompiledModules;
}

/**
 * Compiled `.wasm` modules of the runtime and of grammars. A `WebAssembly.Module` posted to a
 * worker is not copied: both threads run the same machine code (each has its own memory).
 */
export interface CompiledModules {
  /** The runtime's `web-tree-sitter.wasm`. */
  runtime?: WebAssembly.Module;
  /** Grammars, by grammar id. */
  grammars: Record<string, WebAssembly.Module>;
}

/** The resolved URLs of the runtime and of every grammar's `.wasm` (what a code worker loads). */
export interface GrammarUrls {
  /** The web-tree-sitter module. */
  runtime: string;
  /** Each grammar's `.wasm`, by grammar id. */
  wasm: Record<string, string>;
}

let source: GrammarSource | undefined;
let runtime: Promise<TreeSitter> | undefined;
const parsers = new Map<string, Promise<TreeSitterParser>>();
/** The modules this thread compiled or was given. */
const compiled: CompiledModules = { grammars: {} };

/**
 * Set where the runtime and the grammars come from (before the first parser
 * is asked for).
 *
 * @example
 * ```ts
 * import { useGrammarSource } from "./_tree_sitter.ts";
 * import { GRAMMAR_WASM, loadTreeSitter } from "../deps.ts";
 * useGrammarSource({ runtime: loadTreeSitter, wasm: (g) => GRAMMAR_WASM[g]?.() });
 * ```
 */
export function useGrammarSource(next: GrammarSource): void {
  source = next;
}

async function grammarSource(): Promise<GrammarSource> {
  if (!source) await import("./parser.ts");
  return source!;
}

/**
 * The URLs a code worker loads the runtime and the grammars from, so that it
 * does not load `deps.ts` (undefined when the source set cannot tell).
 *
 * @example
 * ```ts
 * import { grammarUrls } from "./_tree_sitter.ts";
 * (await grammarUrls())?.wasm.python; // "file:///.../tree-sitter-python.wasm"
 * ```
 */
export async function grammarUrls(): Promise<GrammarUrls | undefined> {
  return (await grammarSource()).urls?.();
}

/**
 * The `.wasm` modules this thread has compiled (or was given) once the grammars it is loading
 * have loaded: what a code worker it starts instantiates without compiling.
 *
 * @example
 * ```ts
 * import { compiledModules, parserFor } from "./_tree_sitter.ts";
 * await parserFor("python");
 * (await compiledModules()).grammars.python instanceof WebAssembly.Module; // true
 * ```
 */
export async function compiledModules(): Promise<CompiledModules> {
  await Promise.allSettled([runtime, ...parsers.values()]);
  return { runtime: compiled.runtime, grammars: { ...compiled.grammars } };
}

function treeSitter(from: GrammarSource): Promise<TreeSitter> {
  runtime ??= from.runtime().then(async (mod) => {
    const url = from.urls?.().runtime;
    const wasm = from.compiled?.runtime ??
      (url
        ? await WebAssembly.compile(await readWasm(new URL("web-tree-sitter.wasm", url)))
        : undefined);
    if (!wasm) {
      await mod.Parser.init();
      return mod;
    }
    // Instantiated from the module, not from its bytes: a code worker is given this module.
    const instantiateWasm = (
      imports: WebAssembly.Imports,
      done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
    ) => {
      const instance = new WebAssembly.Instance(wasm, imports);
      done(instance, wasm);
      return instance.exports;
    };
    // deno-lint-ignore no-explicit-any
    await mod.Parser.init({ instantiateWasm } as any);
    compiled.runtime = wasm;
    return mod;
  });
  return runtime;
}

async function readWasm(url: URL): Promise<Uint8Array<ArrayBuffer>> {
  return url.protocol === "file:"
    ? await Deno.readFile(url)
    : new Uint8Array(await (await fetch(url)).arrayBuffer());
}

/**
 * The reusable parser of a grammar, loaded on first use (see `parser.ts`).
 *
 * @example
 * ```ts
 * import { parserFor } from "./_tree_sitter.ts";
 * const parser = await parserFor("python");
 * parser.parse("x = 1\n")?.delete();
 * ```
 */
export function parserFor(grammar: string): Promise<TreeSitterParser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = grammarSource().then(async (from) => {
      const wasm = from.wasm(grammar);
      if (!wasm) throw new Error(`Unknown grammar "${grammar}"`);
      const { Language, Parser } = await treeSitter(from);
      const module = from.compiled?.grammars[grammar] ??
        await WebAssembly.compile(await readWasm(new URL(wasm)));
      const language = Language.loadSync(module);
      compiled.grammars[grammar] = module;
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
