/**
 * The two big trees of `deno task bench --corpus monorepo`, built on demand
 * into `bench/.cache/corpora` (never committed), each one git repository with
 * one commit:
 *
 * - `monorepo-xN`: N copies (60 at full size) of the local python3's standard
 *   library without tests (the `python-stdlib` corpus) under `packages/pkgNN/`;
 * - `modules-N`: N generated modules (100,000 at full size) of 2-4 KB each,
 *   TypeScript and Python packages of 100 modules, with imports of each other,
 *   constants, types, classes and functions; the same bytes on every machine
 *   (the seeded generator of `tests/_helpers.ts`).
 *
 * `scale` (0 < scale <= 1) makes both smaller: `round(60 * scale)` copies and
 * `round(100000 * scale)` modules, at least one copy and 100 modules.
 *
 * @module
 */

import { dirname, join, relative } from "node:path";
import { existsSync } from "node:fs";
import { prng } from "../tests/_helpers.ts";
import { type Corpus, pythonStdlib, runCommand, walkFiles } from "./_corpora.ts";

/** Copies of the standard library at full size. */
export const MONOREPO_COPIES = 60;
/** Generated modules at full size. */
export const MODULES = 100_000;
/** Modules per generated package (one folder). */
const PER_PACKAGE = 100;

/**
 * Build (or reuse) both trees at `scale`; a tree that cannot be built is skipped with a message.
 *
 * @example
 * ```ts
 * import { prepareMonorepoCorpora } from "./_monorepo.ts";
 * // const [monorepo, modules] = await prepareMonorepoCorpora("bench/.cache", 0.1, console.log);
 * ```
 */
export async function prepareMonorepoCorpora(
  cache: string,
  scale: number,
  log: (message: string) => void,
): Promise<Corpus[]> {
  const out: Corpus[] = [];
  const stdlib = await pythonStdlib(cache);
  if (stdlib) {
    out.push(await monorepo(cache, stdlib, Math.max(1, Math.round(MONOREPO_COPIES * scale)), log));
  } else log("skipped the monorepo: no python3 standard library");
  out.push(await modules(cache, Math.max(PER_PACKAGE, Math.round(MODULES * scale)), log));
  return out;
}

async function monorepo(
  cache: string,
  stdlib: Corpus,
  copies: number,
  log: (message: string) => void,
): Promise<Corpus> {
  const name = `monorepo-x${copies}`;
  const dir = join(cache, "corpora", name);
  if (!existsSync(`${dir}.ready`)) {
    log(`${name}: copying the standard library ${copies} times`);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    const files = await walkFiles(stdlib.dir);
    for (let copy = 0; copy < copies; copy++) {
      const pkg = join(dir, "packages", `pkg${String(copy).padStart(2, "0")}`);
      for (const path of files) {
        const to = join(pkg, relative(stdlib.dir, path));
        await Deno.mkdir(dirname(to), { recursive: true });
        await Deno.copyFile(path, to);
      }
    }
    await commitTree(dir, log);
  }
  return {
    name,
    source: `${copies} copies of the ${stdlib.source} under packages/pkgNN/`,
    dir,
    ...await treeSize(dir),
  };
}

async function modules(
  cache: string,
  count: number,
  log: (message: string) => void,
): Promise<Corpus> {
  const name = `modules-${count}`;
  const dir = join(cache, "corpora", name);
  if (!existsSync(`${dir}.ready`)) {
    log(`${name}: writing ${count} generated modules`);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    const encoder = new TextEncoder();
    for (let i = 0; i < count; i++) {
      const path = join(dir, modulePath(i));
      if (i % PER_PACKAGE === 0) await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.writeFile(path, encoder.encode(moduleText(i, count)));
    }
    await commitTree(dir, log);
  }
  return {
    name,
    source: `${count} generated modules of 2-4 KB (TypeScript and Python, bench/_monorepo.ts)`,
    dir,
    ...await treeSize(dir),
  };
}

/** One commit of everything, with a fixed author and date (the same commit on every machine). */
async function commitTree(dir: string, log: (message: string) => void): Promise<void> {
  log(`${relative(dirname(dir), dir)}: one git commit`);
  const git = (args: string[]) =>
    new Deno.Command("git", {
      args,
      cwd: dir,
      env: {
        GIT_AUTHOR_NAME: "bench",
        GIT_AUTHOR_EMAIL: "bench@example.invalid",
        GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
        GIT_COMMITTER_NAME: "bench",
        GIT_COMMITTER_EMAIL: "bench@example.invalid",
        GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
      },
      stdout: "null",
      stderr: "piped",
    }).output().then((out) => {
      if (!out.success) {
        throw new Error(
          `[bench] "git ${args[0]}" failed in "${dir}": ${new TextDecoder().decode(out.stderr)}`,
        );
      }
    });
  await runCommand("git", ["init", "-q", dir]);
  await git(["add", "-A"]);
  await git(["-c", "commit.gpgsign=false", "commit", "-q", "-m", "corpus"]);
  // The marker sits beside the tree, out of both tools' view.
  await Deno.writeTextFile(`${dir}.ready`, "");
}

async function treeSize(dir: string): Promise<{ files: number; bytes: number }> {
  const files = await walkFiles(dir);
  let bytes = 0;
  for (const f of files) bytes += (await Deno.lstat(f)).size;
  return { files: files.length, bytes };
}

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
