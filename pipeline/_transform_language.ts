/**
 * A file's fence language (`languageOf`): from its extension or its
 * conventional name, or, for the extensions several languages share (`.h`,
 * `.m`, `.v`), from the words of its text; the table of extensions whose
 * label differs from the extension itself.
 *
 * @module
 */

import { extname } from "./_path.ts";
import {
  conventionalExtension,
  isCoq,
  isCpp,
  isObjectiveC,
  wordsTellLanguage,
} from "./extension.ts";

/**
 * Fence language for a path, from its extension; given the file's text, a `.h` or `.m` file
 * with Objective-C's words is `objective-c`, a `.h` file with C++'s `cpp` (the name alone says
 * C, or nothing).
 *
 * @example
 * ```ts
 * import { languageOf } from "./transform.ts";
 * languageOf("src/Cart.h"); // "c"
 * languageOf("src/Cart.h", "@interface Cart : NSObject\n@end\n"); // "objective-c"
 * languageOf("src/cart.h", "namespace shop {\nclass Cart;\n}\n"); // "cpp"
 * languageOf("theories/Nat.v", "Require Import Arith.\n"); // "coq"
 * ```
 */
export function languageOf(path: string, text?: string): string {
  // A Makefile or Dockerfile is told by its name (`Dockerfile.dev`), not by what follows a dot.
  const ext = (conventionalExtension(path) || extname(path)).slice(1).toLowerCase();
  if (text !== undefined && wordsTellLanguage(path)) {
    if (ext === "v") return isCoq(text) ? "coq" : "verilog";
    if (isObjectiveC(text)) return "objective-c";
    if (ext === "h" && isCpp(text)) return "cpp";
  }
  // A Blade template is fenced `blade` (GitHub's Linguist and Shiki know it), not as PHP.
  if (ext === "php" && path.toLowerCase().endsWith(".blade.php")) return "blade";
  // Own keys only: a file ending `.constructor` is fenced `constructor`, not Object's source.
  return Object.hasOwn(LANGUAGES, ext) ? LANGUAGES[ext] : ext;
}

const LANGUAGES: Record<string, string> = {
  py: "python",
  pyi: "python",
  ts: "ts",
  mts: "ts",
  cts: "ts",
  tsx: "tsx",
  js: "js",
  mjs: "js",
  cjs: "js",
  jsx: "jsx",
  rs: "rust",
  go: "go",
  java: "java",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  hxx: "cpp",
  cu: "cuda",
  cuh: "cuda",
  pyx: "cython",
  pxd: "cython",
  pxi: "cython",
  gql: "graphql",
  md: "markdown",
  yml: "yaml",
  sh: "bash",
  toml: "toml",
  json: "json",
  sty: "tex",
  bib: "bibtex",
  mk: "makefile",
  dockerfile: "dockerfile",
  // `ps` is PowerShell to Shiki; `postscript` is PostScript to Linguist and Pygments.
  ps: "postscript",
  eps: "postscript",
  epsf: "postscript",
  sol: "solidity",
  // `v` is the V language's fence label: a `.v` file is Verilog's, or Coq's by its words.
  v: "verilog",
  vh: "verilog",
  sv: "systemverilog",
  svh: "systemverilog",
  vhd: "vhdl",
  cr: "crystal",
  rkt: "racket",
};
