/**
 * Recall of a skeleton against Python's own `ast`: every function and class
 * `ast` finds outside function bodies must appear with its full signature,
 * in source order. Two criteria: `exact` (the signature's lines byte-exact,
 * indentation included, so a method stays under its class) and `loose`
 * (each line compared without surrounding whitespace).
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** A definition `ast` found. */
export interface PyDef {
  /** Qualified name (`Class.method`). */
  name: string;
  /** 1-based line of the `def`/`class` keyword. */
  line: number;
  /** Signature text as in the source. */
  sig: string;
}

/** Recall of one tool over some files. */
export interface Recall {
  /** Definitions `ast` found. */
  total: number;
  /** Found with the exact signature text, in order. */
  exact: number;
  /** Found with each signature line matching after trimming (and dropping a final `:`), in order. */
  loose: number;
  /** Some misses (qualified names with their file), for inspection. */
  missed: string[];
}

const HELPER = join(dirname(fileURLToPath(import.meta.url)), "_py_defs.py");

/**
 * Run `bench/_py_defs.py` over files; files `ast` cannot parse are absent.
 * Returns undefined when python3 is not available.
 *
 * @example
 * ```ts
 * import { pythonDefs } from "./_recall.ts";
 * // const defs = await pythonDefs(["/usr/lib/python3.11/abc.py"]);
 * ```
 */
export async function pythonDefs(files: string[]): Promise<Record<string, PyDef[]> | undefined> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("python3", {
      args: [HELPER, ...files],
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch {
    return undefined;
  }
  if (!out.success) {
    throw new Error(`[bench] python3 failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/**
 * Count the definitions whose signatures appear in `text`, in order.
 *
 * @example
 * ```ts
 * import { recallOf } from "./_recall.ts";
 * recallOf("def f(x):\n    ...\n", [{ name: "f", line: 1, sig: "def f(x):" }]).exact; // 1
 * ```
 */
export function recallOf(text: string, defs: PyDef[], label = ""): Recall {
  const result: Recall = { total: defs.length, exact: 0, loose: 0, missed: [] };
  let at = 0;
  for (const def of defs) {
    const i = findLines(text, def.sig, at);
    if (i !== -1) {
      result.exact++;
      at = i + 1;
    } else if (result.missed.length < 50) result.missed.push(`${label}${def.name}`);
  }
  const looseText = text.split("\n").map((l) => l.trim().replace(/:$/, "")).join("\n");
  at = 0;
  for (const def of defs) {
    const sig = def.sig.split("\n").map((l) => l.trim().replace(/:$/, "")).join("\n");
    const i = findLines(looseText, sig, at);
    if (i !== -1) {
      result.loose++;
      at = i + 1;
    }
  }
  return result;
}

/** Index of `needle` in `text` at a line start at or after `from`, or -1. */
function findLines(text: string, needle: string, from: number): number {
  let i = text.indexOf(needle, from);
  while (i !== -1) {
    if (i === 0 || text[i - 1] === "\n") return i;
    i = text.indexOf(needle, i + 1);
  }
  return -1;
}

/**
 * Sum recalls.
 *
 * @example
 * ```ts
 * import { addRecall } from "./_recall.ts";
 * addRecall([{ total: 1, exact: 1, loose: 1, missed: [] }]).total; // 1
 * ```
 */
export function addRecall(parts: Recall[]): Recall {
  return parts.reduce((a, b) => ({
    total: a.total + b.total,
    exact: a.exact + b.exact,
    loose: a.loose + b.loose,
    missed: [...a.missed, ...b.missed].slice(0, 50),
  }), { total: 0, exact: 0, loose: 0, missed: [] });
}
