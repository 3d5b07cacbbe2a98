/**
 * The numbered outputs of a namespace in the output folder (`{namespace}_{NNN}.md` and its
 * `.json` manifest): their names, the next free number and the `.{namespace}.last` mark that
 * keeps numbers from being used again, the claim files, the sweep of what a killed build left,
 * and the removal of the oldest (`pruneOutputs`). A part of `emit.ts`, which re-exports it.
 *
 * @module
 */

import { join } from "./_path.ts";
import { writeAtomicSync } from "./helpers.ts";
import { readSettingTextSync } from "./_setting_file.ts";

/**
 * The name of output number `n`: the number with at least 3 digits.
 *
 * @example
 * ```ts
 * import { outputName } from "./emit.ts";
 * outputName("context", 7, "md"); // "context_007.md"
 * ```
 */
export function outputName(namespace: string, n: number, ext: string): string {
  return `${namespace}_${String(n).padStart(3, "0")}.${ext}`;
}

/** The extensions of a numbered document, one a format. */
const DOCUMENT_EXTENSIONS = ["md", "xml", "doc.json"];

/** The extensions of a numbered output: the documents (any format) and the manifest. */
const OUTPUT_EXTENSIONS = [...DOCUMENT_EXTENSIONS, "json"];

/** Options of {@linkcode pruneOutputs}. */
export interface PruneOptions {
  /** How many numbered outputs stay, newest first (at least 1). @default {20} */
  keep?: number;
  /**
   * The most bytes the kept outputs may take together; older numbers past it
   * go. The newest two (one with `keep: 1`) stay whatever their size, so that
   * `slop explain` has two to compare. @default {Infinity}
   */
  keepBytes?: number;
}

/**
 * Remove the oldest numbered outputs of a namespace (every file of a number:
 * its document in any format and its manifest) so that at most `keep` of the
 * highest numbers stay, and together no more than `keepBytes`; gives the
 * names removed. Numbers are never reused: the highest number stays, and the
 * `.{namespace}.last` mark keeps the count even when every output is deleted
 * by hand. Files that cannot be removed are left (the next publication tries
 * again); other files are never touched.
 *
 * @example
 * ```ts
 * import { pruneOutputs } from "./emit.ts";
 * const dir = await Deno.makeTempDir();
 * for (const n of ["001", "002", "003"]) Deno.writeTextFileSync(`${dir}/context_${n}.md`, n);
 * pruneOutputs(dir, "context", { keep: 2 }); // ["context_001.md"]
 * ```
 */
export function pruneOutputs(dir: string, namespace: string, options: PruneOptions = {}): string[] {
  const byNumber = numberedOutputs(dir, namespace);
  const numbers = [...byNumber.keys()].sort((a, b) => b - a);
  const kept = keptCount(dir, numbers.map((n) => byNumber.get(n)!), options);
  const removed: string[] = [];
  // Manifests go first: a reader that looks for manifests (`slop stats`) never finds one alone.
  for (const n of numbers.slice(kept)) {
    const manifest = outputName(namespace, n, "json");
    const names = byNumber.get(n)!.sort((a, b) => Number(b === manifest) - Number(a === manifest));
    for (const name of names) {
      try {
        Deno.removeSync(join(dir, name));
        removed.push(name);
      } catch {
        // Removed by another build, or not removable now.
      }
    }
  }
  return removed.sort();
}

/** The files of each numbered output of a namespace in `dir`, by number. */
function numberedOutputs(dir: string, namespace: string): Map<number, string[]> {
  const pattern = new RegExp(
    `^${escape(namespace)}_(\\d+)\\.(?:${OUTPUT_EXTENSIONS.map(escape).join("|")})$`,
  );
  const byNumber = new Map<number, string[]>();
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return byNumber;
  }
  for (const entry of entries) {
    const m = pattern.exec(entry.name);
    if (!m || entry.isDirectory) continue;
    const n = Number(m[1]);
    const names = byNumber.get(n) ?? [];
    names.push(entry.name);
    byNumber.set(n, names);
  }
  return byNumber;
}

/**
 * How many of the outputs (newest first, each its file names) stay: at most
 * `keep`, and past the newest two only while their bytes together fit in
 * `keepBytes`. The kept ones are always the newest, without gaps.
 */
function keptCount(dir: string, outputs: string[][], options: PruneOptions): number {
  const keep = Math.max(1, options.keep ?? 20);
  const keepBytes = options.keepBytes ?? Infinity;
  const always = Math.min(keep, 2);
  let bytes = 0;
  for (let i = 0; i < Math.min(keep, outputs.length); i++) {
    bytes += outputs[i].reduce((sum, name) => sum + sizeOf(join(dir, name)), 0);
    if (i >= always && bytes > keepBytes) return i;
  }
  return Math.min(keep, outputs.length);
}

/** A file's size; 0 for one gone. */
function sizeOf(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0; // removed meanwhile: it takes no room
  }
}

/** Temp and claim files older than this were left by a killed build. */
const STALE_MS = 60 * 60 * 1000;

/**
 * Remove hidden temp and claim files that a killed build left behind.
 *
 * @example
 * ```ts
 * import { sweepStale } from "./_emit_numbers.ts";
 * sweepStale(await Deno.makeTempDir(), "context");
 * ```
 */
export function sweepStale(dir: string, namespace: string): void {
  const prefix = `.${namespace}`;
  const now = Date.now();
  for (const entry of Deno.readDirSync(dir)) {
    const name = entry.name;
    if (!name.startsWith(prefix) || !(name.endsWith(".tmp") || name.endsWith(".claim"))) continue;
    try {
      const info = Deno.lstatSync(join(dir, name));
      if (now - (info.mtime?.getTime() ?? now) > STALE_MS) Deno.removeSync(join(dir, name));
    } catch {
      // Gone already (another build swept it).
    }
  }
}

/**
 * Create an empty file; false when it exists already.
 *
 * @example
 * ```ts
 * import { createNew } from "./_emit_numbers.ts";
 * const path = `${await Deno.makeTempDir()}/.claim`;
 * [createNew(path), createNew(path)]; // [true, false]
 * ```
 */
export function createNew(path: string): boolean {
  try {
    Deno.openSync(path, { createNew: true, write: true }).close();
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}

/**
 * True when any output of number `n` exists (any format, or its manifest).
 *
 * @example
 * ```ts
 * import { numberTaken } from "./_emit_numbers.ts";
 * numberTaken(await Deno.makeTempDir(), "context", 1); // false
 * ```
 */
export function numberTaken(dir: string, namespace: string, n: number): boolean {
  return OUTPUT_EXTENSIONS.some((ext) => {
    try {
      Deno.lstatSync(join(dir, outputName(namespace, n, ext)));
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The largest output number slop counts from. A number past 2^53 no longer grows by one (a
 * `.context.last` mark of `99999999999999999999`, edited or damaged, made the next build's claim
 * loop run forever at full speed); such a mark or file name is passed over.
 */
const LARGEST_NUMBER = 999_999_999_999;

/**
 * The number after the highest one used: by an output in `dir`, or by its mark.
 *
 * @example
 * ```ts
 * import { nextNumber } from "./_emit_numbers.ts";
 * nextNumber(await Deno.makeTempDir(), "context"); // 1
 * ```
 */
export function nextNumber(dir: string, namespace: string): number {
  // Any document extension (md, xml, doc.json) claims its number.
  const pattern = new RegExp(
    `^${escape(namespace)}_(\\d+)\\.(?:${DOCUMENT_EXTENSIONS.map(escape).join("|")})$`,
  );
  let max = readMark(dir, namespace);
  for (const entry of Deno.readDirSync(dir)) {
    const m = pattern.exec(entry.name);
    const n = m ? Number(m[1]) : 0;
    if (n <= LARGEST_NUMBER) max = Math.max(max, n);
  }
  return max + 1;
}

/** The file that holds the highest number published (`.{namespace}.last`). */
function markPath(dir: string, namespace: string): string {
  return join(dir, `.${namespace}.last`);
}

/** The number the mark holds; 0 when it holds none (missing, damaged, too large). */
function readMark(dir: string, namespace: string): number {
  try {
    const n = Number(readSettingTextSync(markPath(dir, namespace), 4096).trim());
    return Number.isInteger(n) && n > 0 && n <= LARGEST_NUMBER ? n : 0;
  } catch {
    return 0;
  }
}

/**
 * Raise the mark to `n`, so that numbers are not used again after deletions.
 *
 * @example
 * ```ts
 * import { writeMark } from "./_emit_numbers.ts";
 * writeMark(await Deno.makeTempDir(), "context", 3); // .context.last holds 3
 * ```
 */
export function writeMark(dir: string, namespace: string, n: number): void {
  // Two builds may write it at once, the lower number last: the higher one is read back and
  // written again (a few times at most; the highest output itself also holds the count).
  for (let tries = 0; tries < 3 && readMark(dir, namespace) < n; tries++) {
    try {
      writeAtomicSync(markPath(dir, namespace), `${n}\n`);
    } catch {
      // Only keeps numbers from being reused after deletions.
      return;
    }
  }
}

/** `text` matched as it is in a regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
