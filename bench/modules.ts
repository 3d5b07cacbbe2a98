/**
 * Generated source modules of 2-4 KB, TypeScript and Python, for the big-tree
 * bench (`deno task bench --corpus monorepo`) and the suite's memory test
 * (`tests/scaling/`): packages of 100 modules that import each other's
 * functions, with constants, a type, a class and functions; the same bytes on
 * every machine (the seeded generator of `tests/_helpers.ts`).
 *
 * @module
 */

import { dirname, relative } from "node:path";
import { prng } from "../tests/_helpers.ts";

/** Modules per generated package (one folder). */
export const PER_PACKAGE = 100;

/** Whether generated module `i` is TypeScript (even packages) or Python (odd ones). */
function isTs(i: number): boolean {
  return Math.floor(i / PER_PACKAGE) % 2 === 0;
}

/**
 * Where generated module `i` lives: `packages/pNNNN/src/mod_NN.ts` (or `.py`).
 *
 * @example
 * ```ts
 * import { modulePath } from "./_monorepo.ts";
 * modulePath(101); // "packages/p0001/src/mod_01.py"
 * ```
 */
export function modulePath(i: number): string {
  const pkg = String(Math.floor(i / PER_PACKAGE)).padStart(4, "0");
  const mod = String(i % PER_PACKAGE).padStart(2, "0");
  return `packages/p${pkg}/src/mod_${mod}.${isTs(i) ? "ts" : "py"}`;
}

const WORDS = [
  "account",
  "batch",
  "buffer",
  "cache",
  "channel",
  "client",
  "config",
  "cursor",
  "digest",
  "event",
  "filter",
  "frame",
  "handle",
  "index",
  "item",
  "job",
  "key",
  "layer",
  "ledger",
  "limit",
  "message",
  "node",
  "offset",
  "order",
  "page",
  "parser",
  "payload",
  "queue",
  "record",
  "region",
  "request",
  "route",
  "schema",
  "session",
  "shard",
  "signal",
  "slot",
  "stream",
  "task",
  "token",
  "user",
  "value",
  "window",
  "worker",
];

const VERBS = [
  "build",
  "check",
  "collect",
  "compute",
  "decode",
  "encode",
  "fetch",
  "flush",
  "load",
  "merge",
  "parse",
  "resolve",
  "scan",
  "split",
  "store",
  "update",
];

/** The first function of module `i` (every module has it: others import it). */
function firstFunction(i: number): string {
  return isTs(i) ? `run${i}` : `run_${i}`;
}

/**
 * The text of generated module `i` of `count`: 2-4 KB (its size drawn from the seeded
 * generator), imports of up to three earlier modules of the same language, then constants,
 * a type, a class and functions until the size is reached.
 *
 * @example
 * ```ts
 * import { moduleText } from "./_monorepo.ts";
 * moduleText(0, 100).startsWith("/**"); // true
 * ```
 */
export function moduleText(i: number, count: number): string {
  const rand = prng(i + 1);
  const pickOf = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const ts = isTs(i);
  const target = 2048 + Math.floor(rand() * 1700);
  const noun = () => pickOf(WORDS);
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  const parts: string[] = [];
  const main = noun();
  // Imports: earlier modules of the same language (same package or another one).
  const imports: number[] = [];
  for (let k = 0; k < 1 + Math.floor(rand() * 3) && i > 0; k++) {
    let j = Math.floor(rand() * i);
    if (isTs(j) !== ts) j = Math.max(0, j - PER_PACKAGE);
    if (isTs(j) === ts && j !== i && !imports.includes(j) && j < count) imports.push(j);
  }
  if (ts) {
    parts.push(`/** The ${main} ${noun()} helpers of package ${Math.floor(i / PER_PACKAGE)}. */\n`);
    for (const j of imports) {
      parts.push(`import { ${firstFunction(j)} } from "${importPath(i, j)}";\n`);
    }
    parts.push(
      `\nexport const MAX_${main.toUpperCase()}_${i} = ${Math.floor(rand() * 10000)};\n\n`,
    );
    parts.push(
      `export interface ${
        cap(main)
      }${i} {\n  id: number;\n  ${noun()}: string;\n  ${noun()}Count: number;\n}\n\n`,
    );
    parts.push(`export function ${firstFunction(i)}(input: number): number {\n`);
    parts.push(
      `  let total = input + MAX_${main.toUpperCase()}_${i};\n${
        imports.map((j) => `  total += ${firstFunction(j)}(total % ${2 + j % 7});\n`).join("")
      }  return total;\n}\n\n`,
    );
    parts.push(
      `export class ${cap(main)}Store${i} {\n  #items: ${cap(main)}${i}[] = [];\n\n  add(item: ${
        cap(main)
      }${i}): void {\n    this.#items.push(item);\n  }\n\n  get size(): number {\n    return this.#items.length;\n  }\n}\n`,
    );
  } else {
    parts.push(
      `"""The ${main} ${noun()} helpers of package ${Math.floor(i / PER_PACKAGE)}."""\n\n`,
    );
    for (const j of imports) {
      parts.push(`from ${pyModule(j)} import ${firstFunction(j)}\n`);
    }
    parts.push(`\nMAX_${main.toUpperCase()}_${i} = ${Math.floor(rand() * 10000)}\n\n\n`);
    parts.push(`def ${firstFunction(i)}(value: int) -> int:\n`);
    parts.push(
      `    total = value + MAX_${main.toUpperCase()}_${i}\n${
        imports.map((j) => `    total += ${firstFunction(j)}(total % ${2 + j % 7})\n`).join("")
      }    return total\n\n\n`,
    );
    parts.push(
      `class ${
        cap(main)
      }Store${i}:\n    """Holds ${main} records."""\n\n    def __init__(self) -> None:\n        self._items: list[dict] = []\n\n    def add(self, item: dict) -> None:\n        self._items.append(item)\n\n    def __len__(self) -> int:\n        return len(self._items)\n`,
    );
  }
  let size = parts.reduce((n, p) => n + p.length, 0);
  for (let k = 0;; k++) {
    const fn = ts ? tsFunction(i, k, noun, pickOf) : pyFunction(i, k, noun, pickOf);
    if (size + fn.length > target && size >= 2048) break;
    parts.push(fn);
    size += fn.length;
  }
  return parts.join("");
}

function tsFunction(
  i: number,
  k: number,
  noun: () => string,
  pickOf: (list: string[]) => string,
): string {
  const verb = pickOf(VERBS);
  const a = noun();
  const b = noun();
  return `
/** ${verb[0].toUpperCase() + verb.slice(1)} the ${a} of a ${b}. */
export function ${verb}${a[0].toUpperCase() + a.slice(1)}${i}_${k}(${a}: string, ${b}Limit = ${
    10 + k
  }): string[] {
  const out: string[] = [];
  for (let n = 0; n < ${b}Limit; n++) {
    if (${a}.length > n) out.push(${a}.slice(n, n + ${2 + (k % 5)}));
  }
  return out;
}
`;
}

function pyFunction(
  i: number,
  k: number,
  noun: () => string,
  pickOf: (list: string[]) => string,
): string {
  const verb = pickOf(VERBS);
  const a = noun();
  const b = noun();
  return `

def ${verb}_${a}_${i}_${k}(${a}: str, ${b}_limit: int = ${10 + k}) -> list[str]:
    """${verb[0].toUpperCase() + verb.slice(1)} the ${a} of a ${b}."""
    out = []
    for n in range(${b}_limit):
        if len(${a}) > n:
            out.append(${a}[n : n + ${2 + (k % 5)}])
    return out
`;
}

/** The relative import of module `j` from module `i` (TypeScript). */
function importPath(i: number, j: number): string {
  const from = dirname(modulePath(i));
  const rel = relative(from, modulePath(j));
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** The dotted name of module `j` (Python: `packages.p0001.src.mod_01`). */
function pyModule(j: number): string {
  return modulePath(j).replace(/\.py$/, "").replaceAll("/", ".");
}
