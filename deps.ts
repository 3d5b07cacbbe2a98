/**
 * Every external module slop uses, imported in one place with full `npm:`
 * specifiers, so that slop also works when another project imports `mod.ts`
 * or runs `cli.ts` by path (an import map in slop's deno.json would not apply).
 *
 * @module
 */

import { type GlobOptions, needsPicomatch, usePicomatch, workingFolder } from "./pipeline/paths.ts";

/**
 * Import `specifier` when called. The specifier is a parameter on purpose: Deno loads the module
 * graph of every string-literal dynamic import, npm packages included, before the process that
 * imports it runs its first line, so every process that imports this module would pay for the
 * packages below whether it loads them or not (see bench/README.md, "The suite's time"). Each
 * loader's `typeof import("npm:...")` type names its package as a literal, so that type checks,
 * the lockfile and `deno install` still see every package.
 */
function importWhenCalled<T>(specifier: string, options?: ImportCallOptions): Promise<T> {
  needWorkingFolder(specifier);
  return import(specifier, options);
}

/** The folder this process started in (undefined when it started in none). */
const startFolder = workingFolder();

/**
 * Deno resolves an `npm:` import from the working folder, and fails with "Unable to get CWD" when
 * that folder was deleted: a long-lived `slop mcp`, build server or `slop watch` whose project was
 * deleted and cloned again at the same path could no longer load a grammar or a tokenizer it had
 * not needed yet. Enter the folder the process started in again when it is back; else say which
 * folder is gone.
 */
function needWorkingFolder(specifier: string): void {
  if (workingFolder() !== undefined) return;
  if (startFolder !== undefined) {
    try {
      Deno.chdir(startFolder);
      return;
    } catch {
      // Gone for good: said below.
    }
  }
  const folder = startFolder === undefined ? "" : `"${startFolder}" `;
  throw new Error(
    `Cannot load "${specifier}": the working folder ${folder}is gone (deleted or moved); ` +
      "start slop again in the project's folder",
  );
}

// picomatch and smol-toml are loaded on first use: picomatch is a CommonJS package (loading it
// starts Deno's CommonJS loader, ~13 ms), and a warm build whose globs slop matches itself needs
// neither. `.gitignore` files are matched by slop itself (pipeline/_gitignore.ts).

/** picomatch's matcher factory (type-only: importing it loads nothing). */
export type Picomatch = typeof import("npm:picomatch@4.0.3").default;

/** picomatch, loaded on first use (globs other than literal, `*` and `**` segments). */
export async function loadPicomatch(): Promise<Picomatch> {
  return (await importWhenCalled<typeof import("npm:picomatch@4.0.3")>("npm:picomatch@4.0.3"))
    .default;
}

/**
 * Load picomatch when these patterns (any pattern, when none are given) need
 * it, so that `compileGlobs()` of `pipeline/_glob.ts` matches them
 * synchronously; literal, `*` and `**` globs never need it.
 *
 * @example
 * ```ts
 * import { loadGlobs } from "./deps.ts";
 * import { compileGlobs } from "./pipeline/paths.ts";
 * await loadGlobs(["src/{a,b}.ts"]);
 * compileGlobs(["src/{a,b}.ts"])("src/a.ts"); // true
 * ```
 */
export async function loadGlobs(
  patterns?: string | string[],
  options?: GlobOptions,
): Promise<void> {
  if (patterns === undefined || needsPicomatch(patterns, options)) {
    usePicomatch(await loadPicomatch());
  }
}

/** smol-toml's `parse` and `stringify`, loaded on first use (a TOML file to read or write). */
export async function loadToml(): Promise<{
  parse: typeof import("npm:smol-toml@1.4.2").parse;
  stringify: typeof import("npm:smol-toml@1.4.2").stringify;
}> {
  const toml = await importWhenCalled<typeof import("npm:smol-toml@1.4.2")>("npm:smol-toml@1.4.2");
  return { parse: toml.parse, stringify: toml.stringify };
}

/**
 * chardet's encoding detector, loaded on first use: only a file that is neither UTF-8 nor UTF-16
 * behind a byte order mark needs it (pipeline/_text_decode.ts).
 */
export async function loadChardet(): Promise<typeof import("npm:chardet@2.1.0").default> {
  return (await importWhenCalled<typeof import("npm:chardet@2.1.0")>("npm:chardet@2.1.0")).default;
}

/** The o200k tokenizer, loaded on first use (a warm build never loads it). */
export function loadO200k(): Promise<typeof import("npm:gpt-tokenizer@3.4.0/encoding/o200k_base")> {
  return importWhenCalled<typeof import("npm:gpt-tokenizer@3.4.0/encoding/o200k_base")>(
    "npm:gpt-tokenizer@3.4.0/encoding/o200k_base",
  );
}

/** secretlint's core and recommended preset, loaded on first use (only when a file needs a scan). */
export async function loadSecretlint(): Promise<{
  lintSource: typeof import("npm:@secretlint/core@13.0.7").lintSource;
  preset: typeof import("npm:@secretlint/secretlint-rule-preset-recommend@13.0.7").creator;
}> {
  const [core, preset] = await Promise.all([
    importWhenCalled<typeof import("npm:@secretlint/core@13.0.7")>("npm:@secretlint/core@13.0.7"),
    importWhenCalled<typeof import("npm:@secretlint/secretlint-rule-preset-recommend@13.0.7")>(
      "npm:@secretlint/secretlint-rule-preset-recommend@13.0.7",
    ),
  ]);
  return { lintSource: core.lintSource, preset: preset.creator };
}

/**
 * @scure/bip39's mnemonic check and its English wordlist, loaded on first use: only a text with
 * 12 to 24 words alone (a line of a page, a string literal) that might be a wallet's recovery
 * words needs them (pipeline/_bip39.ts).
 */
export async function loadBip39(): Promise<{
  validateMnemonic: typeof import("npm:@scure/bip39@2.4.0").validateMnemonic;
  wordlist: string[];
}> {
  const [bip39, english] = await Promise.all([
    importWhenCalled<typeof import("npm:@scure/bip39@2.4.0")>("npm:@scure/bip39@2.4.0"),
    importWhenCalled<typeof import("npm:@scure/bip39@2.4.0/wordlists/english.js")>(
      "npm:@scure/bip39@2.4.0/wordlists/english.js",
    ),
  ]);
  return { validateMnemonic: bip39.validateMnemonic, wordlist: english.wordlist };
}

/** The cl100k tokenizer, loaded on first use. */
export function loadCl100k(): Promise<
  typeof import("npm:gpt-tokenizer@3.4.0/encoding/cl100k_base")
> {
  return importWhenCalled<typeof import("npm:gpt-tokenizer@3.4.0/encoding/cl100k_base")>(
    "npm:gpt-tokenizer@3.4.0/encoding/cl100k_base",
  );
}

// Tree-sitter: the runtime is imported on first use, and so are the grammar packages: each
// package's package.json, imported, puts the package in the module graph, so that
// `import.meta.resolve` below yields a `file:` URL of its `.wasm` in Deno's npm cache from any
// importer, with no import map. Imported statically, each package cost every process that loads
// this module an npm resolution of its own (about 2.5 ms of CPU each; see bench/README.md, "The
// CLI's start").

/** The grammar packages' package.json files (see {@linkcode loadGrammarPackages}). */
const GRAMMAR_PACKAGES = [
  "npm:tree-sitter-python@0.25.0/package.json",
  "npm:tree-sitter-c@0.24.1/package.json",
  "npm:tree-sitter-cpp@0.23.4/package.json",
  "npm:tree-sitter-javascript@0.25.0/package.json",
  "npm:tree-sitter-typescript@0.23.2/package.json",
  "npm:tree-sitter-go@0.25.0/package.json",
  "npm:tree-sitter-rust@0.24.0/package.json",
  "npm:tree-sitter-java@0.23.5/package.json",
  "npm:tree-sitter-ruby@0.23.1/package.json",
  "npm:tree-sitter-php@0.24.2/package.json",
  "npm:tree-sitter-c-sharp@0.23.5/package.json",
  "npm:tree-sitter-bash@0.25.1/package.json",
  "npm:tree-sitter-scala@0.24.0/package.json",
  "npm:@tree-sitter-grammars/tree-sitter-kotlin@1.1.0/package.json",
  "npm:@tree-sitter-grammars/tree-sitter-lua@0.4.1/package.json",
  "npm:@tree-sitter-grammars/tree-sitter-zig@1.1.2/package.json",
  "npm:tree-sitter-elixir@0.3.5/package.json",
  "npm:tree-sitter-powershell@0.26.4/package.json",
  "npm:tree-sitter-haskell@0.23.1/package.json",
];

/**
 * The grammar packages named as literals (see {@linkcode importWhenCalled}): `deno install` then
 * puts them in the installed command's own `node_modules`, so that it loads a grammar with no
 * Deno cache (an MCP client may start `slop mcp` without the `DENO_DIR` it was installed with).
 */
export type GrammarPackageFiles = [
  typeof import("npm:tree-sitter-python@0.25.0/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-c@0.24.1/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-cpp@0.23.4/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-javascript@0.25.0/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-typescript@0.23.2/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-go@0.25.0/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-rust@0.24.0/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-java@0.23.5/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-ruby@0.23.1/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-php@0.24.2/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-c-sharp@0.23.5/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-bash@0.25.1/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-scala@0.24.0/package.json", { with: { type: "json" }}),
  typeof import("npm:@tree-sitter-grammars/tree-sitter-kotlin@1.1.0/package.json", {
    with: { type: "json" },
  }),
  typeof import("npm:@tree-sitter-grammars/tree-sitter-lua@0.4.1/package.json", {
    with: { type: "json" },
  }),
  typeof import("npm:@tree-sitter-grammars/tree-sitter-zig@1.1.2/package.json", {
    with: { type: "json" },
  }),
  typeof import("npm:tree-sitter-elixir@0.3.5/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-powershell@0.26.4/package.json", { with: { type: "json" }}),
  typeof import("npm:tree-sitter-haskell@0.23.1/package.json", { with: { type: "json" }}),
];

let grammarPackages: Promise<void> | undefined;

/**
 * Put every grammar package in the module graph (once a process), so that
 * {@linkcode GRAMMAR_WASM} yields `file:` URLs from any importer; call it
 * before the first grammar is asked for.
 *
 * @example
 * ```ts
 * import { GRAMMAR_WASM, loadGrammarPackages } from "./deps.ts";
 * await loadGrammarPackages();
 * GRAMMAR_WASM.python().startsWith("file:"); // true
 * ```
 */
export function loadGrammarPackages(): Promise<void> {
  grammarPackages ??= Promise.all(
    GRAMMAR_PACKAGES.map((specifier) => importWhenCalled(specifier, { with: { type: "json" } })),
  ).then(() => {});
  return grammarPackages;
}

/** Types of the web-tree-sitter runtime (type-only: importing them loads nothing). */
export type {
  Node as TreeSitterNode,
  Parser as TreeSitterParser,
  Tree as TreeSitterTree,
} from "npm:web-tree-sitter@0.27.1";

/** The web-tree-sitter runtime, loaded on first use (builds without code views never load it). */
export function loadTreeSitter(): Promise<typeof import("npm:web-tree-sitter@0.27.1")> {
  needWorkingFolder("npm:web-tree-sitter@0.27.1");
  return import("npm:web-tree-sitter@0.27.1");
}

/** The resolved URL of the web-tree-sitter module (code workers import it from there). */
export function treeSitterUrl(): string {
  return import.meta.resolve("npm:web-tree-sitter@0.27.1");
}

/** `file:` URLs of the official grammars' `.wasm` files, by grammar id. */
export const GRAMMAR_WASM: Record<string, () => string> = {
  python: () => import.meta.resolve("npm:tree-sitter-python@0.25.0/tree-sitter-python.wasm"),
  c: () => import.meta.resolve("npm:tree-sitter-c@0.24.1/tree-sitter-c.wasm"),
  cpp: () => import.meta.resolve("npm:tree-sitter-cpp@0.23.4/tree-sitter-cpp.wasm"),
  javascript: () =>
    import.meta.resolve("npm:tree-sitter-javascript@0.25.0/tree-sitter-javascript.wasm"),
  typescript: () =>
    import.meta.resolve("npm:tree-sitter-typescript@0.23.2/tree-sitter-typescript.wasm"),
  tsx: () => import.meta.resolve("npm:tree-sitter-typescript@0.23.2/tree-sitter-tsx.wasm"),
  go: () => import.meta.resolve("npm:tree-sitter-go@0.25.0/tree-sitter-go.wasm"),
  rust: () => import.meta.resolve("npm:tree-sitter-rust@0.24.0/tree-sitter-rust.wasm"),
  java: () => import.meta.resolve("npm:tree-sitter-java@0.23.5/tree-sitter-java.wasm"),
  ruby: () => import.meta.resolve("npm:tree-sitter-ruby@0.23.1/tree-sitter-ruby.wasm"),
  // The grammar of PHP files as they are: HTML around `<?php ... ?>` (`php_only` reads no HTML).
  php: () => import.meta.resolve("npm:tree-sitter-php@0.24.2/tree-sitter-php.wasm"),
  c_sharp: () => import.meta.resolve("npm:tree-sitter-c-sharp@0.23.5/tree-sitter-c_sharp.wasm"),
  bash: () => import.meta.resolve("npm:tree-sitter-bash@0.25.1/tree-sitter-bash.wasm"),
  scala: () => import.meta.resolve("npm:tree-sitter-scala@0.24.0/tree-sitter-scala.wasm"),
  kotlin: () =>
    import.meta.resolve(
      "npm:@tree-sitter-grammars/tree-sitter-kotlin@1.1.0/tree-sitter-kotlin.wasm",
    ),
  lua: () =>
    import.meta.resolve("npm:@tree-sitter-grammars/tree-sitter-lua@0.4.1/tree-sitter-lua.wasm"),
  zig: () =>
    import.meta.resolve("npm:@tree-sitter-grammars/tree-sitter-zig@1.1.2/tree-sitter-zig.wasm"),
  elixir: () => import.meta.resolve("npm:tree-sitter-elixir@0.3.5/tree-sitter-elixir.wasm"),
  powershell: () =>
    import.meta.resolve("npm:tree-sitter-powershell@0.26.4/tree-sitter-powershell.wasm"),
  haskell: () => import.meta.resolve("npm:tree-sitter-haskell@0.23.1/tree-sitter-haskell.wasm"),
};
/** gpt-tokenizer's o200k ranks and split pattern, for slop's compact counter (`pipeline/_bpe.ts`). */
export async function loadO200kRanks(): Promise<{ ranks: (string | number[])[]; split: RegExp }> {
  const [ranks, params] = await Promise.all([
    importWhenCalled<typeof import("npm:gpt-tokenizer@3.4.0/bpeRanks/o200k_base")>(
      "npm:gpt-tokenizer@3.4.0/bpeRanks/o200k_base",
    ),
    importWhenCalled<typeof import("npm:gpt-tokenizer@3.4.0/encodingParams/constants")>(
      "npm:gpt-tokenizer@3.4.0/encodingParams/constants",
    ),
  ]);
  return { ranks: ranks.default, split: params.O200K_TOKEN_SPLIT_REGEX };
}

/** gpt-tokenizer's cl100k ranks and split pattern. */
export async function loadCl100kRanks(): Promise<{ ranks: (string | number[])[]; split: RegExp }> {
  const [ranks, params] = await Promise.all([
    importWhenCalled<typeof import("npm:gpt-tokenizer@3.4.0/bpeRanks/cl100k_base")>(
      "npm:gpt-tokenizer@3.4.0/bpeRanks/cl100k_base",
    ),
    importWhenCalled<typeof import("npm:gpt-tokenizer@3.4.0/encodingParams/constants")>(
      "npm:gpt-tokenizer@3.4.0/encodingParams/constants",
    ),
  ]);
  return { ranks: ranks.default, split: params.CL100K_TOKEN_SPLIT_REGEX };
}

// The MCP server (`slop mcp`): the official SDK and zod (its peer, for the tools' input schemas),
// loaded only by that command.

/** Types of the MCP SDK's server side (type-only: importing them loads nothing). */
export type { McpServer } from "npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js";
export type { CallToolResult } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";

/** The context the SDK hands a tool callback: the request's `_meta`, `sendNotification`, ... */
export type ToolExtra =
  import("npm:@modelcontextprotocol/sdk@1.32.2/shared/protocol.js").RequestHandlerExtra<
    import("npm:@modelcontextprotocol/sdk@1.32.2/types.js").ServerRequest,
    import("npm:@modelcontextprotocol/sdk@1.32.2/types.js").ServerNotification
  >;

/** The MCP SDK's server, its stdio and Streamable HTTP transports, and zod, loaded on first use. */
export async function loadMcpServer(): Promise<{
  McpServer: typeof import("npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js").McpServer;
  ResourceTemplate:
    typeof import("npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js").ResourceTemplate;
  StdioServerTransport:
    typeof import("npm:@modelcontextprotocol/sdk@1.32.2/server/stdio.js").StdioServerTransport;
  HttpServerTransport:
    typeof import("npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js").WebStandardStreamableHTTPServerTransport;
  isInitializeRequest:
    typeof import("npm:@modelcontextprotocol/sdk@1.32.2/types.js").isInitializeRequest;
  ReadResourceRequestSchema:
    typeof import("npm:@modelcontextprotocol/sdk@1.32.2/types.js").ReadResourceRequestSchema;
  z: typeof import("npm:zod@4.6.7");
}> {
  const [mcp, stdio, http, types, z] = await Promise.all([
    importWhenCalled<typeof import("npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js")>(
      "npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js",
    ),
    importWhenCalled<typeof import("npm:@modelcontextprotocol/sdk@1.32.2/server/stdio.js")>(
      "npm:@modelcontextprotocol/sdk@1.32.2/server/stdio.js",
    ),
    importWhenCalled<
      typeof import("npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js")
    >("npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js"),
    importWhenCalled<typeof import("npm:@modelcontextprotocol/sdk@1.32.2/types.js")>(
      "npm:@modelcontextprotocol/sdk@1.32.2/types.js",
    ),
    importWhenCalled<typeof import("npm:zod@4.6.7")>("npm:zod@4.6.7"),
  ]);
  return {
    McpServer: mcp.McpServer,
    ResourceTemplate: mcp.ResourceTemplate,
    StdioServerTransport: stdio.StdioServerTransport,
    HttpServerTransport: http.WebStandardStreamableHTTPServerTransport,
    isInitializeRequest: types.isInitializeRequest,
    ReadResourceRequestSchema: types.ReadResourceRequestSchema,
    z,
  };
}

/** The MCP SDK's client and its transports: stdio, Streamable HTTP, in memory (what slop's tests drive the server with). */
export async function loadMcpClient(): Promise<{
  Client: typeof import("npm:@modelcontextprotocol/sdk@1.32.2/client/index.js").Client;
  StdioClientTransport:
    typeof import("npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js").StdioClientTransport;
  HttpClientTransport:
    typeof import("npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js").StreamableHTTPClientTransport;
  InMemoryTransport:
    typeof import("npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js").InMemoryTransport;
}> {
  const [client, stdio, http, memory] = await Promise.all([
    importWhenCalled<typeof import("npm:@modelcontextprotocol/sdk@1.32.2/client/index.js")>(
      "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js",
    ),
    importWhenCalled<typeof import("npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js")>(
      "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js",
    ),
    importWhenCalled<
      typeof import("npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js")
    >("npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js"),
    importWhenCalled<typeof import("npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js")>(
      "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js",
    ),
  ]);
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    HttpClientTransport: http.StreamableHTTPClientTransport,
    InMemoryTransport: memory.InMemoryTransport,
  };
}
