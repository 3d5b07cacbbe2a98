/**
 * The tree-sitter runtime and one reusable parser per grammar, loaded lazily,
 * without importing `deps.ts` at load time: a code worker loads only what
 * parsing needs. Where the runtime and the grammars come from is set by
 * `parser.ts` (from `deps.ts`) or, in a code worker, by the thread that
 * started it (the same modules' resolved URLs, and the `.wasm` modules it
 * compiled, so that the threads share their machine code); until one is
 * set, the first parser loads `deps.ts` and takes them from there.
 *
 * A runtime that traps on a text (its memory past {@linkcode MAX_HEAP}, a bad access)
 * would fail or misread every later text: it is discarded and made anew (see
 * {@linkcode runtimeAborted}), so that one hostile file fails alone.
 *
 * @module
 */

import type {
  GRAMMAR_WASM,
  loadGrammarPackages,
  loadTreeSitter,
  TreeSitterParser,
  treeSitterUrl,
} from "../deps.ts";

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
  /** Called once before `wasm` and `urls` are asked (puts the grammar packages in reach). */
  ready?(): Promise<void>;
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
let parsers = new Map<string, Promise<TreeSitterParser>>();
/** The memory of this thread's runtime, once known (see {@linkcode heapBytes}). */
let heap: WebAssembly.Memory | undefined;
/** Runtimes this thread has made: the first, then one after each abort. */
let runtimesMade = 0;
/** Runtimes of this thread that aborted. */
let aborts = 0;
/**
 * What an aborted runtime left: its parsers stay referenced, as their finalizers would call into
 * its broken memory (an exception thrown there would end the process).
 */
const discarded: unknown[] = [];
/** The modules this thread compiled or was given. */
const compiled: CompiledModules = { grammars: {} };

/**
 * Set where the runtime and the grammars come from (before the first parser
 * is asked for).
 *
 * @example
 * ```ts
 * import { useGrammarSource } from "./tree_sitter.ts";
 * import { GRAMMAR_WASM, loadTreeSitter } from "../deps.ts";
 * useGrammarSource({ runtime: loadTreeSitter, wasm: (g) => GRAMMAR_WASM[g]?.() });
 * ```
 */
export function useGrammarSource(next: GrammarSource): void {
  source = next;
}

/** What {@linkcode depsSource} takes from `deps.ts`. */
export interface GrammarDeps {
  GRAMMAR_WASM: typeof GRAMMAR_WASM;
  loadGrammarPackages: typeof loadGrammarPackages;
  loadTreeSitter: typeof loadTreeSitter;
  treeSitterUrl: typeof treeSitterUrl;
}

/**
 * The source of the main thread: the runtime and the grammars that `deps.ts` names.
 *
 * @example
 * ```ts
 * import { depsSource, useGrammarSource } from "./tree_sitter.ts";
 * import * as deps from "../deps.ts";
 * useGrammarSource(depsSource(deps));
 * ```
 */
export function depsSource(deps: GrammarDeps): GrammarSource {
  const { GRAMMAR_WASM, loadGrammarPackages, loadTreeSitter, treeSitterUrl } = deps;
  return {
    ready: loadGrammarPackages,
    runtime: loadTreeSitter,
    wasm: (grammar) => GRAMMAR_WASM[grammar]?.(),
    urls: () => ({
      runtime: treeSitterUrl(),
      wasm: Object.fromEntries(Object.entries(GRAMMAR_WASM).map(([id, url]) => [id, url()])),
    }),
  };
}

async function grammarSource(): Promise<GrammarSource> {
  if (!source) {
    const deps = await import("../deps.ts");
    source ??= depsSource(deps);
  }
  await source.ready?.();
  return source;
}

/**
 * The URLs a code worker loads the runtime and the grammars from, so that it
 * does not load `deps.ts` (undefined when the source set cannot tell).
 *
 * @example
 * ```ts
 * import { grammarUrls } from "./tree_sitter.ts";
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
 * import { compiledModules, parserFor } from "./tree_sitter.ts";
 * await parserFor("python");
 * (await compiledModules()).grammars.python instanceof WebAssembly.Module; // true
 * ```
 */
export async function compiledModules(): Promise<CompiledModules> {
  await Promise.allSettled([runtime, ...parsers.values()]);
  return { runtime: compiled.runtime, grammars: { ...compiled.grammars } };
}

/**
 * The resolved URLs and the `.wasm` modules of the runtime and of these grammars, compiled here
 * and now (from `file:` URLs) if not compiled yet, without loading the runtime: a code worker
 * started now is given them at once and loads its runtime and grammars while this thread works
 * on (a compile is a few milliseconds: V8 compiles a function when it is first called).
 * Undefined until the source is set, or when it is not local.
 *
 * @example
 * ```ts
 * import "./parser.ts";
 * import { modulesNow } from "./tree_sitter.ts";
 * modulesNow(["python"])?.modules.grammars.python instanceof WebAssembly.Module; // true
 * ```
 */
export function modulesNow(
  grammars: Iterable<string>,
): { urls: GrammarUrls; modules: CompiledModules } | undefined {
  const urls = source?.urls?.();
  if (!urls) return undefined;
  const wanted = [...grammars];
  const local = (url: string | undefined) => url?.startsWith("file:") ?? false;
  if (!local(urls.runtime) || !wanted.every((g) => local(urls.wasm[g]))) return undefined;
  compiled.runtime ??= source?.compiled?.runtime ??
    new WebAssembly.Module(Deno.readFileSync(new URL("web-tree-sitter.wasm", urls.runtime)));
  for (const grammar of wanted) {
    compiled.grammars[grammar] ??= source?.compiled?.grammars[grammar] ??
      new WebAssembly.Module(Deno.readFileSync(new URL(urls.wasm[grammar])));
  }
  return { urls, modules: { runtime: compiled.runtime, grammars: { ...compiled.grammars } } };
}

/**
 * Most runtimes one thread makes: the first and a fresh one after each of two aborts. Past it,
 * {@linkcode parserFor} fails: a thread whose runtimes keep aborting renders no more code views.
 */
export const MAX_RUNTIMES = 3;

/**
 * The most bytes a runtime's memory may grow to: 1 GiB (the runtime's own bound is 2 GiB). Real
 * parses need far less, as the work budget of `_code.ts` ends them first (a 10 MB generated
 * `parser.c` stopped by it: 166 MiB; TypeScript's `lib.dom.d.ts`: under 40 MiB). A parse that
 * needs more makes the runtime abort (see {@linkcode runtimeAborted}): a long run the parser
 * reads several ways at once (`a < ` 10,000 times in C# or Java) grows it past 1 GiB (16,000
 * times: past 2 GiB) at the end of the text, between two of the parser's progress calls, so it
 * cannot be stopped before; this bounds what such a runtime holds, and what the main thread
 * keeps of it.
 */
export const MAX_HEAP: number = 1024 * 1024 * 1024;

/** How {@linkcode runtimeAborted}'s error starts (it may cross from a worker as a message). */
const RUNTIME_ABORTED = "tree-sitter's runtime aborted";

/**
 * Whether `error` is the error {@linkcode runtimeAborted} made (here or in a code worker, whose
 * message crosses as text).
 *
 * @example
 * ```ts
 * import { isRuntimeAbort } from "./tree_sitter.ts";
 * isRuntimeAbort(new Error("tree-sitter's runtime aborted (\"Aborted()\")")); // true
 * ```
 */
export function isRuntimeAbort(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith(RUNTIME_ABORTED);
}

/**
 * Take an error met while parsing or walking a tree: a WebAssembly trap (tree-sitter's
 * `Aborted()` when its heap cannot grow, an `unreachable`, a bad access) leaves the runtime's
 * memory in an unknown state, so every later parse on it could fail or return a wrong tree.
 * Such a runtime is discarded: its parsers are forgotten, and the next {@linkcode parserFor}
 * makes a fresh runtime with its own memory (at most {@linkcode MAX_RUNTIMES} per thread). The
 * trap comes back as an error starting {@linkcode RUNTIME_ABORTED}; any other error as it was.
 * A code worker stops after a trap (its memory is freed with it); on the main thread the
 * discarded memory stays reserved, as a loaded module is never unloaded.
 *
 * @example
 * ```ts
 * import { runtimeAborted } from "./tree_sitter.ts";
 * const error = new Error("other");
 * runtimeAborted(error) === error; // true: not a trap
 * ```
 */
export function runtimeAborted(error: unknown): unknown {
  if (!(error instanceof WebAssembly.RuntimeError)) return error;
  aborts++;
  if (runtime) discarded.push(runtime, ...parsers.values());
  runtime = undefined;
  heap = undefined;
  parsers = new Map();
  return new Error(`${RUNTIME_ABORTED} ("${error.message}"), and was made anew`);
}

/**
 * How many times a runtime aborted on this thread (see {@linkcode runtimeAborted}).
 *
 * @example
 * ```ts
 * import { abortsHere } from "./tree_sitter.ts";
 * abortsHere(); // 0
 * ```
 */
export function abortsHere(): number {
  return aborts;
}

/**
 * Bytes of this thread's runtime memory now (0 before it is known): it only grows, by what a
 * parse needs beyond what earlier ones left free.
 *
 * @example
 * ```ts
 * import { heapBytes, parserFor } from "./tree_sitter.ts";
 * await parserFor("python");
 * heapBytes() > 0; // true
 * ```
 */
export function heapBytes(): number {
  return heap?.buffer.byteLength ?? 0;
}

/**
 * The web-tree-sitter module: the one `from` loads at first, a fresh instance of its code after an
 * abort (its own memory and state). A fresh one is imported from its text under a `data:` URL, as
 * the module map keeps one instance per URL.
 */
async function runtimeModule(from: GrammarSource): Promise<TreeSitter> {
  if (++runtimesMade > MAX_RUNTIMES) {
    throw new Error(`tree-sitter's runtime is not made again: it aborted ${aborts} times here`);
  }
  const url = from.urls?.().runtime;
  if (runtimesMade === 1 || !url) return await from.runtime();
  // Its number at the end makes each URL, and so each instance, its own.
  const text = `${new TextDecoder().decode(await readWasm(new URL(url)))}\n// ${runtimesMade}\n`;
  return await import(`data:text/javascript,${encodeURIComponent(text)}`);
}

function treeSitter(from: GrammarSource): Promise<TreeSitter> {
  runtime ??= runtimeModule(from).then(async (mod) => {
    const url = from.urls?.().runtime;
    const wasm = from.compiled?.runtime ?? compiled.runtime ??
      (url
        ? await WebAssembly.compile(await readWasm(new URL("web-tree-sitter.wasm", url)))
        : undefined);
    if (!wasm) {
      await mod.Parser.init();
      return mod;
    }
    let views: MemoryViews | undefined;
    // The runtime's module object is this one: web-tree-sitter keeps its state on it.
    const binding: RuntimeBinding = {
      wasmMemory: new WebAssembly.Memory({ initial: 512, maximum: MAX_HEAP / 65536 }),
      // An abort is reported by the error it throws (see `runtimeAborted`), not printed too.
      printErr: (text) => text.startsWith("Aborted(") || console.error(text),
      // Instantiated from the module, not from its bytes: a code worker is given this module.
      instantiateWasm(imports, done) {
        const env = imports.env as Record<string, unknown> | undefined;
        if (
          LITTLE_ENDIAN && env?.memory instanceof WebAssembly.Memory &&
          env.memory.buffer instanceof ArrayBuffer &&
          typeof env.tree_sitter_parse_callback === "function"
        ) {
          views = new MemoryViews(env.memory);
          env.tree_sitter_parse_callback = inputReader(
            binding,
            views,
            env.tree_sitter_parse_callback as InputCallback,
          );
        }
        const instance = new WebAssembly.Instance(wasm, imports);
        done(instance, wasm);
        return instance.exports;
      },
    };
    heap = binding.wasmMemory;
    // deno-lint-ignore no-explicit-any
    await withoutProcess(() => mod.Parser.init(binding as any));
    if (views) fastWords(binding, views);
    compiled.runtime = wasm;
    return mod;
  });
  return runtime;
}

/**
 * Start something with no global `process` during its synchronous part. web-tree-sitter's start
 * asks `typeof process` to choose how to read files, and in Deno that first look at `process`
 * loads Deno's Node layer (node:process and what it imports: ~30 ms of the thread, and its memory in
 * each code worker); told it is not in Node, the runtime also skips importing `module`, `fs`,
 * `path` and `url`. It reads no file when it is handed its module, as here. The global is put
 * back before anything else runs.
 */
function withoutProcess<T>(start: () => Promise<T>): Promise<T> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "process");
  if (!descriptor?.configurable) return start();
  Object.defineProperty(globalThis, "process", {
    value: undefined,
    configurable: true,
    writable: true,
  });
  try {
    return start();
  } finally {
    Object.defineProperty(globalThis, "process", descriptor);
  }
}

/**
 * The web-tree-sitter runtime's module object: what `Parser.init` is given becomes it, so the
 * runtime's current input and its word accessors are read and set here.
 */
interface RuntimeBinding {
  /** The runtime's memory (made here to bound it: see {@linkcode MAX_HEAP}). */
  wasmMemory: WebAssembly.Memory;
  /** What the runtime prints to stderr. */
  printErr: (text: string) => void;
  instantiateWasm(
    imports: WebAssembly.Imports,
    done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ): WebAssembly.Exports;
  /** The text of the parse under way, from a character index (set by `Parser.parse`). */
  currentParseCallback?:
    | ((index: number, position: { row: number; column: number }) => unknown)
    | null;
  getValue?: (address: number, type?: string) => number;
  setValue?: (address: number, value: number, type?: string) => void;
}

/** The runtime's import that copies the next piece of the text into its input buffer. */
type InputCallback = (
  address: number,
  index: number,
  row: number,
  column: number,
  lengthAddress: number,
) => void;

/** The runtime's input buffer holds 10 KiB of UTF-16: this many characters and a terminator. */
const INPUT_CHARS = 5119;

/** Typed arrays use this machine's byte order; the runtime's memory is little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Views of the runtime's memory, made again after it grows (growing detaches the old buffer,
 * which leaves its views empty). Kept here, not read from the runtime's module object, whose
 * hundreds of properties make each lookup slow.
 */
class MemoryViews {
  #words: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #units: Uint16Array<ArrayBufferLike> = new Uint16Array(0);
  constructor(readonly memory: WebAssembly.Memory) {}
  get words(): Int32Array<ArrayBufferLike> {
    if (!this.#words.length) this.#words = new Int32Array(this.memory.buffer);
    return this.#words;
  }
  get units(): Uint16Array<ArrayBufferLike> {
    if (!this.#units.length) this.#units = new Uint16Array(this.memory.buffer);
    return this.#units;
  }
}

/**
 * The parser's input, copied as the runtime's own import does (the same characters, the same
 * length, the same terminator) but without a JavaScript loop over every character when the piece
 * is ASCII: the encoder writes its bytes and the typed array widens them to UTF-16 natively. The
 * parser asks for about 1.7 times the text, in pieces of 5119 characters (20 M characters for
 * the Python stdlib: 100-140 ms of copying in one thread, 25-55 ms this way).
 */
function inputReader(
  binding: RuntimeBinding,
  views: MemoryViews,
  original: InputCallback,
): InputCallback {
  const encoder = new TextEncoder();
  // UTF-8 takes at most 3 bytes per UTF-16 unit: a piece is always encoded whole.
  const bytes = new Uint8Array(INPUT_CHARS * 3);
  return (address, index, row, column, lengthAddress) => {
    const read = binding.currentParseCallback;
    if (!read || address & 1 || lengthAddress & 3) {
      return original(address, index, row, column, lengthAddress);
    }
    const text = read(index, { row, column });
    if (typeof text !== "string") {
      views.words[lengthAddress >> 2] = 0;
      return;
    }
    views.words[lengthAddress >> 2] = text.length;
    const n = Math.min(text.length, INPUT_CHARS);
    const piece = n < text.length ? text.slice(0, n) : text;
    const units = views.units;
    const at = address >> 1;
    // One UTF-8 byte per UTF-16 unit only when every character is ASCII.
    if (encoder.encodeInto(piece, bytes).written === n) units.set(bytes.subarray(0, n), at);
    else for (let i = 0; i < n; i++) units[at + i] = piece.charCodeAt(i);
    units[at + n] = 0;
  };
}

/**
 * The runtime's `getValue` and `setValue`, which its node and cursor accessors call several times
 * each (node fields in and out of a transfer buffer), read and write a 32-bit word straight from
 * the memory view instead of choosing by type name first.
 */
function fastWords(binding: RuntimeBinding, views: MemoryViews): void {
  const get = binding.getValue;
  const set = binding.setValue;
  if (!get || !set) return;
  binding.getValue = (address, type) =>
    type === "i32" ? views.words[address >> 2] : get(address, type);
  binding.setValue = (address, value, type) => {
    if (type === "i32") views.words[address >> 2] = value;
    else set(address, value, type);
  };
}

/** The bytes at a `file:` or remote URL. */
async function readWasm(url: URL): Promise<Uint8Array<ArrayBuffer>> {
  return url.protocol === "file:"
    ? await Deno.readFile(url)
    : new Uint8Array(await (await fetch(url)).arrayBuffer());
}

/** What {@linkcode warmUp} parses: a few statements most grammars read without error. */
const WARM_UP_TEXT = "x = f(1, 'a')\nfor (y in z) { g(y.w) }\n";
/** How many times {@linkcode warmUp} parses it. */
const WARM_UP_RUNS = 12;
/** This thread has warmed up (the parse loop is the runtime's: one grammar warms it for all). */
let warmed = false;

/**
 * Parse a short text a few times with a grammar's parser, so that V8 starts compiling the
 * runtime's parse loop with its optimising compiler, in the background, before the first real
 * file. The parse loop runs a whole parse in the tier it had when the parse began: without this,
 * each thread's first files (a worker's first is the largest of the build) are parsed by the
 * baseline code, about 1.5 times slower. Machine code is shared by the threads that instantiate
 * the same module. About 15 ms of this thread.
 *
 * @example
 * ```ts
 * import { parserFor, warmUp } from "./tree_sitter.ts";
 * warmUp(await parserFor("python"));
 * ```
 */
export function warmUp(parser: TreeSitterParser): void {
  if (warmed) return;
  warmed = true;
  for (let i = 0; i < WARM_UP_RUNS; i++) parser.parse(WARM_UP_TEXT)?.delete();
}

/**
 * The reusable parser of a grammar, loaded on first use (see `parser.ts`).
 *
 * @example
 * ```ts
 * import { parserFor } from "./tree_sitter.ts";
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
      const module = from.compiled?.grammars[grammar] ?? compiled.grammars[grammar] ??
        await WebAssembly.compile(await readWasm(new URL(wasm)));
      const language = Language.loadSync(module);
      compiled.grammars[grammar] = module;
      const p = new Parser();
      p.setLanguage(language);
      return p;
    });
    // A failed load is not cached: the next file retries and reports its own error.
    const loaded = parsers;
    parser.catch(() => loaded.delete(grammar));
    loaded.set(grammar, parser);
  }
  return parser;
}
