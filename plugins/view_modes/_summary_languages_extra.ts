/**
 * Still more `summary` patterns, for languages slop has no grammar of and whose files were shown
 * as text (their first lines, most often a license comment or a module's export list): Solidity,
 * Verilog and SystemVerilog, VHDL, Coq (a `.v` that is not Verilog), Elm, Gleam, Nix, Tcl, R's
 * documentation (`.Rd`), PowerShell data files (`.psd1`), Crystal, Racket and Scribble, Nim,
 * WebAssembly text and Gradle's Kotlin scripts (`.gradle.kts`).
 *
 * As in `_summary_languages.ts`, every pattern reads one line at most from where it starts
 * (blanks are `[ \t]`, no part matches a line break), so each pass over a file is linear.
 *
 * @module
 */

import { isCoq } from "../../pipeline/paths.ts";
import type { Patterns, SummaryLanguage } from "./_summary_languages.ts";
import { gradlePatterns } from "./_summary_languages_rare.ts";

/**
 * Solidity's contracts, interfaces and libraries, the functions, modifiers, events, errors,
 * structs and enums they declare, and the files it imports (`import {A} from "./A.sol";`,
 * `import "./B.sol";`).
 */
const SOLIDITY: Patterns = [
  ["contracts", /^[ \t]*(?:abstract[ \t]+)?contract[ \t]+([A-Za-z_$][\w$]*)/gm],
  ["interfaces", /^[ \t]*interface[ \t]+([A-Za-z_$][\w$]*)/gm],
  ["libraries", /^[ \t]*library[ \t]+([A-Za-z_$][\w$]*)/gm],
  ["functions", /^[ \t]*function[ \t]+([A-Za-z_$][\w$]*)/gm],
  ["modifiers", /^[ \t]*modifier[ \t]+([A-Za-z_$][\w$]*)/gm],
  ["events", /^[ \t]*event[ \t]+([A-Za-z_$][\w$]*)/gm],
  ["errors", /^[ \t]*error[ \t]+([A-Za-z_$][\w$]*)[ \t]*\(/gm],
  // A user-defined value type (`type PoolId is bytes32;`, Solidity 0.8.8) too.
  [
    "types",
    /^[ \t]*(?:(?:struct|enum)[ \t]+([A-Za-z_$][\w$]*)|type[ \t]+([A-Za-z_$][\w$]*)[ \t]+is\b)/gm,
  ],
  [
    "imports",
    /^[ \t]*import[ \t]+(?:[^"'\s;][^"'\n;]{0,500}?[ \t]from[ \t]+)?["']([^"'\n]{1,500})["']/gm,
  ],
];

/** A function's or task's head up to its ports or `;`: its name is the head's last word. */
const VERILOG_ROUTINE =
  /^[ \t]*(?:(?:virtual|static|automatic|protected|local|extern|pure)[ \t]+)*(?:function|task)[ \t]+([^;(\s=][^;(\n=]{0,299})[(;]/gm;

/** The functions and tasks of a Verilog text: each head's last word (`function [31:0] f;`). */
function verilogRoutines(text: string): string[] {
  return [...text.matchAll(VERILOG_ROUTINE)].map((m) => /([A-Za-z_][\w$]*)[ \t]*$/.exec(m[1])?.[1])
    .filter((name): name is string => name !== undefined);
}

/**
 * Verilog's and SystemVerilog's modules, interfaces, packages and classes, their functions and
 * tasks, the macros it defines and the files it includes.
 */
const VERILOG: Patterns = [
  [
    "modules",
    /^[ \t]*(?:macro)?module[ \t]+(?:(?:automatic|static)[ \t]+)?([A-Za-z_][\w$]*)/gm,
  ],
  ["interfaces", /^[ \t]*interface[ \t]+(?!class\b)([A-Za-z_][\w$]*)/gm],
  ["packages", /^[ \t]*package[ \t]+([A-Za-z_][\w$]*)/gm],
  ["classes", /^[ \t]*(?:virtual[ \t]+)?class[ \t]+([A-Za-z_][\w$]*)/gm],
  ["functions", verilogRoutines],
  ["macros", /^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)/gm],
  ["includes", /^[ \t]*`include[ \t]+"([^"\n]{1,500})"/gm],
];

/** VHDL's entities, architectures, packages, components, functions and procedures (any case). */
const VHDL: Patterns = [
  ["entities", /^[ \t]*entity[ \t]+([A-Za-z]\w*)[ \t]+is\b/gim],
  ["architectures", /^[ \t]*architecture[ \t]+([A-Za-z]\w*[ \t]+of[ \t]+[A-Za-z]\w*)/gim],
  ["packages", /^[ \t]*package[ \t]+(?:body[ \t]+)?([A-Za-z]\w*)[ \t]+is\b/gim],
  ["components", /^[ \t]*component[ \t]+([A-Za-z]\w*)/gim],
  ["functions", /^[ \t]*(?:(?:pure|impure)[ \t]+)?(?:function|procedure)[ \t]+([A-Za-z]\w*)/gim],
  ["uses", /^[ \t]*use[ \t]+([A-Za-z][\w.]*)/gim],
];

/** Coq's modules, definitions, theorems and required libraries. */
const COQ: Patterns = [
  ["modules", /^[ \t]*Module[ \t]+(?:Type[ \t]+)?([A-Za-z_][\w']*)/gm],
  [
    "definitions",
    /^[ \t]*(?:(?:Local|Global|Program|#\[[^\]\n]*\])[ \t]+)*(?:Definition|Fixpoint|CoFixpoint|Inductive|CoInductive|Record|Structure|Class|Instance|Let)[ \t]+([A-Za-z_][\w']*)/gm,
  ],
  [
    "theorems",
    /^[ \t]*(?:(?:Local|Global|Program)[ \t]+)*(?:Theorem|Lemma|Corollary|Proposition|Fact|Remark|Example)[ \t]+([A-Za-z_][\w']*)/gm,
  ],
  [
    "requires",
    /^[ \t]*(?:From[ \t]+[\w.]+[ \t]+)?Require[ \t]+(?:(?:Import|Export)[ \t]+)?(\w+(?:\.\w+)*(?:[ \t]+\w+(?:\.\w+)*)*)/gm,
  ],
];

/**
 * Elm's module, its types and type aliases, top-level values (a definition at the line's start:
 * `name args =`), ports and imports.
 */
const ELM: Patterns = [
  ["module", /^(?:port[ \t]+|effect[ \t]+)?module[ \t]+([A-Z][\w.]*)/gm],
  ["types", /^type[ \t]+(?:alias[ \t]+)?([A-Z]\w*)/gm],
  [
    "functions",
    /^(?!(?:module|import|port|type|infix|effect)\b)([a-z_][\w']*)(?:[ \t]+[\w'(),{}]+)*[ \t]*=(?!=)/gm,
  ],
  ["ports", /^port[ \t]+([a-z]\w*)/gm],
  ["imports", /^import[ \t]+([A-Z][\w.]*)/gm],
];

/** Gleam's types, top-level functions and constants (public or not) and imported modules. */
const GLEAM: Patterns = [
  ["types", /^(?:pub[ \t]+)?(?:opaque[ \t]+)?type[ \t]+([A-Z]\w*)/gm],
  ["functions", /^(?:pub[ \t]+)?fn[ \t]+([a-z_]\w*)/gm],
  ["constants", /^(?:pub[ \t]+)?const[ \t]+([a-z_]\w*)/gm],
  ["imports", /^import[ \t]+([a-z][\w/]*)/gm],
];

/**
 * A Nix file's names: the attribute sets of options a module declares (`options.programs.bat =`),
 * the options made with `mkOption`, `mkEnableOption` or `mkPackageOption`, and what the file's
 * top level binds (indented one level: a `let`'s bindings, the attributes of the set it returns,
 * a flake's `inputs` and `outputs`).
 */
const NIX: Patterns = [
  ["option sets", /^[ \t]*options\.([\w.'"-]{1,300}?)[ \t]*=/gm],
  [
    "options",
    /^[ \t]*([A-Za-z_"][\w.'"-]{0,300}?)[ \t]*=[ \t]*(?:lib\.)?mk(?:Option|EnableOption|PackageOption)\b/gm,
  ],
  ["bindings", /^(?: {2}|\t)(?! )([A-Za-z_][\w'-]*(?:\.[A-Za-z_][\w'-]*)*)[ \t]*=(?!=)/gm],
];

/** Tcl's namespaces, procedures and the packages it requires or provides. */
const TCL: Patterns = [
  ["namespaces", /^[ \t]*namespace[ \t]+eval[ \t]+([^\s{]+)/gm],
  ["procedures", /^[ \t]*proc[ \t]+([^\s{]+)/gm],
  ["packages", /^[ \t]*package[ \t]+(?:require|provide)[ \t]+(?:-exact[ \t]+)?([^\s;]+)/gm],
];

/** An R documentation file's topic, its title and the aliases it documents. */
const RD: Patterns = [
  ["name", /^\\name\{([^}\n]{1,300})\}/gm],
  ["title", /^\\title\{((?:[^{}\n]|\{[^{}\n]*\}){1,300})\}/gm],
  ["aliases", /^\\alias\{([^}\n]{1,300})\}/gm],
];

/** Crystal's modules, types, methods (`def self.new` too), macros and the files it requires. */
const CRYSTAL: Patterns = [
  ["modules", /^[ \t]*(?:private[ \t]+)?module[ \t]+([A-Z][\w:]*)/gm],
  [
    "types",
    /^[ \t]*(?:(?:private|abstract)[ \t]+)*(?:class|struct|enum|lib|annotation|alias)[ \t]+([A-Z][\w:]*)/gm,
  ],
  [
    "methods",
    /^[ \t]*(?:(?:private|protected|abstract)[ \t]+)*def[ \t]+((?:self\.)?[^\s(:;=]+=?)/gm,
  ],
  ["macros", /^[ \t]*macro[ \t]+([\w?!]+)/gm],
  ["requires", /^[ \t]*require[ \t]+"([^"\n]{1,500})"/gm],
];

/** A Racket name: what a definition's form names, past the parentheses of a curried head. */
const RACKET_NAME = "\\(*([^\\s()\\[\\]{}\",'`;|]+)";

/**
 * Racket's language (`#lang racket/base`), what the module defines at its top level (a definition
 * at the line's start: a nested one is indented), its structs and the tests it names.
 */
const RACKET: Patterns = [
  ["language", /^#lang[ \t]+(\S{1,200})/gm],
  [
    "definitions",
    new RegExp(
      `^\\((?:define|define-syntax|define-syntax-rule|define/contract|define-values|define-simple-macro|define-syntax-parser)[ \\t]+${RACKET_NAME}`,
      "gm",
    ),
  ],
  ["structs", new RegExp(`^\\((?:struct|define-struct)[ \\t]+${RACKET_NAME}`, "gm")],
  ["tests", /^[ \t]*\((?:test-case|test-suite)[ \t]+"([^"\n]{1,300})"/gm],
];

/** A Scribble document's titles and sections, and the bindings it documents (`@defproc`). */
const SCRIBBLE: Patterns = [
  [
    "sections",
    /^[ \t]*@(?:title|section|subsection|subsubsection)(?:\[[^\]\n]{0,300}\])?\{([^}\n]{1,300})\}/gm,
  ],
  [
    "definitions",
    new RegExp(
      `^[ \\t]*@def(?:proc|form|thing|struct|param|idform|form\\*|proc\\*)[ \\t]*[[{][ \\t]*${RACKET_NAME}`,
      "gm",
    ),
  ],
];

/** A Nim name: a word or a quoted operator (`` `$` ``, `` `[]=` ``). */
const NIM_NAME = "(`[^`\\n]{1,100}`|[A-Za-z]\\w*)";

/**
 * Nim's types (in a `type` section, indented: `Image* = ref object`), procedures of every kind
 * (`proc`, `func`, `method`, `iterator`, `converter`, `template`, `macro`), imports and, in a
 * `.nimble` file, the packages it requires.
 */
const NIM: Patterns = [
  [
    "types",
    new RegExp(
      `^(?:type[ \\t]+|[ \\t]+)${NIM_NAME}\\*?(?:\\[[^\\]\\n]*\\])?[ \\t]*(?:\\{\\.[^}\\n]*\\}[ \\t]*)?=[ \\t]*(?:ref[ \\t]+|ptr[ \\t]+)?(?:object|enum|tuple|distinct|concept)\\b`,
      "gm",
    ),
  ],
  [
    "procedures",
    new RegExp(
      `^[ \\t]*(?:proc|func|method|iterator|converter|template|macro)[ \\t]+${NIM_NAME}`,
      "gm",
    ),
  ],
  ["imports", nimImports],
  ["requires", /^[ \t]*requires[ \t]+"([^"\n]{1,300})"/gm],
];

/** A Nim `import` or `include` line's modules, or a `from` line's module (group 2). */
const NIM_IMPORT =
  /^(?:import|include)[ \t]+([^\n#]{1,500})|^from[ \t]+(\S{1,200})[ \t]+import\b/gm;
/**
 * The rest of a line (its comment), then the next line if indented: the list of modules goes on
 * after a line that ends in `,` (its comment left out).
 */
const NIM_IMPORT_MORE = /[^\n]*\n[ \t]+([^\n#]{1,500})/y;

/**
 * What a Nim file imports, one module each (`import os, strutils` is `os`, `strutils`): a list
 * that ends a line with `,` goes on on the next indented lines (`import asyncdispatch,` then
 * `  net, uri`), 64 at most; a module's `as` name and `except` list are left out, and a group in
 * brackets (`std/[os, strutils]`) stays one.
 */
function nimImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NIM_IMPORT)) {
    if (m[2] !== undefined) {
      out.push(m[2]);
      continue;
    }
    let list = m[1].trimEnd();
    NIM_IMPORT_MORE.lastIndex = m.index + m[0].length;
    for (let n = 0; n < 64 && list.endsWith(","); n++) {
      const more = NIM_IMPORT_MORE.exec(text);
      if (!more) break;
      list += " " + more[1].trim();
    }
    for (const part of outsideBrackets(list)) {
      const name = part.trim().split(/[ \t]+(?:as|except)[ \t]/)[0].trim();
      if (name) out.push(name);
    }
  }
  return out;
}

/** `list` cut at each `,` that no `[…]` holds. */
function outsideBrackets(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === "[") depth++;
    else if (c === "]" && depth > 0) depth--;
    else if (c === "," && depth === 0) parts.push(list.slice(from, i)), from = i + 1;
  }
  parts.push(list.slice(from));
  return parts;
}

/** A WebAssembly import's module and name (`(import "env" "log"`). */
const WASM_IMPORT = /\(import[ \t]+"([^"\n]{0,200})"[ \t]+"([^"\n]{0,200})"/g;

/** What a WebAssembly text module imports, as `module.name` (`env.log`). */
function wasmImports(text: string): string[] {
  return [...text.matchAll(WASM_IMPORT)].map((m) => `${m[1]}.${m[2]}`);
}

/**
 * A WebAssembly text module's named modules, functions, imports (`env.log`) and exports.
 * A module is most often written on few lines: each form is matched where it opens.
 */
const WASM_TEXT: Patterns = [
  ["modules", /\(module[ \t]+(\$[^\s()]{1,200})/g],
  ["functions", /\(func[ \t]+(\$[^\s()]{1,200})/g],
  ["imports", wasmImports],
  ["exports", /\(export[ \t]+"([^"\n]{1,200})"/g],
];

/** A PowerShell data file's keys (a module manifest's `RootModule`, `FunctionsToExport`, …). */
const POWERSHELL_DATA: Patterns = [["keys", /^[ \t]*([A-Za-z_]\w*)[ \t]*=/gm]];

const VERILOG_SOURCE: SummaryLanguage = { label: "Verilog", patterns: VERILOG, orHead: true };
const SYSTEM_VERILOG: SummaryLanguage = {
  label: "SystemVerilog",
  patterns: VERILOG,
  orHead: true,
};
const VHDL_SOURCE: SummaryLanguage = { label: "VHDL", patterns: VHDL, orHead: true };

/**
 * The summary languages this file adds, by extension (lower case). A `.v` file is Verilog's unless
 * it has Coq's words and none of Verilog's (`isCoq`), as its fence label is. A Gradle script in
 * Kotlin (`.gradle.kts`) is read by `kotlin`'s patterns, then Gradle's.
 *
 * @example
 * ```ts
 * import { extraSummaryLanguages } from "./_summary_languages_extra.ts";
 * extraSummaryLanguages([])[".sol"].label; // "Solidity"
 * ```
 */
export function extraSummaryLanguages(kotlin: Patterns): Record<string, SummaryLanguage> {
  return {
    ".gradle.kts": {
      label: "Gradle (Kotlin)",
      patterns: [...kotlin, ...gradlePatterns()],
      orHead: true,
    },
    ".sol": { label: "Solidity", patterns: SOLIDITY, orHead: true },
    ".v": {
      ...VERILOG_SOURCE,
      only: (text: string) => !isCoq(text),
      otherwise: { label: "Coq", patterns: COQ, orHead: true },
    },
    ".vh": VERILOG_SOURCE,
    ".sv": SYSTEM_VERILOG,
    ".svh": SYSTEM_VERILOG,
    ".vhd": VHDL_SOURCE,
    ".vhdl": VHDL_SOURCE,
    ".elm": { label: "Elm", patterns: ELM, orHead: true },
    ".gleam": { label: "Gleam", patterns: GLEAM, orHead: true },
    ".nix": { label: "Nix", patterns: NIX, orHead: true },
    ".tcl": { label: "Tcl", patterns: TCL, orHead: true },
    ".rd": { label: "R documentation", patterns: RD, orHead: true },
    ".psd1": { label: "PowerShell data", patterns: POWERSHELL_DATA, orHead: true },
    ".cr": { label: "Crystal", patterns: CRYSTAL, orHead: true },
    ".rkt": { label: "Racket", patterns: RACKET, orHead: true },
    ".scrbl": { label: "Scribble", patterns: SCRIBBLE, orHead: true },
    ".nim": { label: "Nim", patterns: NIM, orHead: true },
    ".nims": { label: "NimScript", patterns: NIM, orHead: true },
    ".nimble": { label: "Nimble package", patterns: NIM, orHead: true },
    ".wat": { label: "WebAssembly text", patterns: WASM_TEXT, orHead: true },
    ".wast": { label: "WebAssembly script", patterns: WASM_TEXT, orHead: true },
  };
}
