/**
 * Emit stage: place blocks (byte offsets, sha256, tokens), build the
 * manifest, and publish `{namespace}_{NNN}.md` plus its `.json` manifest
 * without ever overwriting and without a half-written file being visible.
 *
 * @module
 */

import { unwritableReason } from "./_state_write.ts";
import { copyLazy } from "./lazy_text.ts";
import { join, relative, sep, shownPath } from "./_path.ts";
import { prefixEnd } from "./order.ts";
import { countTokens, type Tokenizer } from "./tokens.ts";
import type {
  Block,
  Manifest,
  ManifestBlock,
  ManifestFile,
  PlacedBlock,
  RecordFn,
  RenderedFile,
} from "./types.ts";
import {
  fileStamp,
  removeQuietly,
  writeAtomic,
  writeAtomicPiecesSync,
  writeAtomicSync,
} from "./helpers.ts";
import { writeJsonAtomicSync } from "./_json_stream.ts";
import { documentHashes, type StreamedDocument } from "./document.ts";
import { hashText } from "./text_hash.ts";
import { textParts } from "./block_parts.ts";

export { writeAtomic };

const encoder = new TextEncoder();

/** Options of {@linkcode placeBlocks}. */
export interface PlaceOptions {
  /** Tokenizer for block counts. @default {"o200k"} */
  tokenizer?: Tokenizer;
  /** Known token counts by block sha256 (a cache), filled in place. */
  tokenCache?: Map<string, number>;
  /** Called after each block is placed, with the count done and the total. */
  onBlock?: (done: number, total: number) => void;
  /** Each block's sha256 and UTF-8 length, in order, when the caller has them. */
  encodings?: Array<{ sha256: string; length: number } | undefined>;
  /**
   * Makes a placed block of a block and its place (a speed layer's may give the one an earlier
   * build placed the same). @default {undefined} a copy of the block with its place (`copyLazy`)
   */
  place?: (block: Block, at: Placement) => PlacedBlock;
}

/** Where a block is placed: its byte offset, UTF-8 length, sha256 and token count. */
export type Placement = Pick<PlacedBlock, "offset" | "length" | "sha256" | "tokens">;

/**
 * Give each ordered block its byte offset, length, sha256 and token count.
 *
 * @example
 * ```ts
 * import { placeBlocks } from "./emit.ts";
 * const placed = await placeBlocks([{ id: "a", section: "a", stability: "stable", text: "hi\n\n" }]);
 * placed[0].length; // 4
 * ```
 */
export async function placeBlocks(
  blocks: Block[],
  options: PlaceOptions = {},
): Promise<PlacedBlock[]> {
  let offset = 0;
  const out: PlacedBlock[] = [];
  // By index: `entries()` makes a pair for each of a big tree's blocks.
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    // A block not hashed yet is hashed part by part (`block_parts.ts`): never copied whole.
    const { sha256: hash, length } = options.encodings?.[i] ?? hashText(textParts(block));
    let tokens = options.tokenCache?.get(hash);
    if (tokens === undefined) {
      tokens = await countTokens(block.text, options.tokenizer);
      options.tokenCache?.set(hash, tokens);
    }
    const at = { offset, length, sha256: hash, tokens };
    // A lazy text stays lazy (`lazy_text.ts`): spread would read it and keep it.
    out.push(options.place ? options.place(block, at) : copyLazy(block, at));
    offset += length;
    options.onBlock?.(out.length, blocks.length);
  }
  return out;
}

/** The document: the concatenation of the placed blocks. */
export function renderDocument(blocks: PlacedBlock[]): string {
  return blocks.map((b) => b.text).join("");
}

/**
 * The manifest of a build. Contains nothing time- or machine-dependent.
 *
 * @example
 * ```ts
 * import { buildManifest } from "./emit.ts";
 * const m = buildManifest([], [], { document: "", warnings: [] });
 * m.prefix.bytes; // 0
 * ```
 */
export function buildManifest(
  files: RenderedFile[],
  blocks: PlacedBlock[],
  options: ManifestOptions,
): Manifest {
  const { document, warnings, fromRecord } = options;
  const prefixBytes = prefixLength(blocks);
  const prefixBlocks = blocks.slice(0, prefixEnd(blocks));
  const parts = typeof document === "string"
    ? [encoder.encode(document)]
    : document instanceof Uint8Array
    ? [document]
    : document;
  // One pass over the document (part by part) gives both hashes.
  const { prefix: prefixHash, total: totalHash } = options.hashes ??
    documentHashes(parts, prefixBytes);
  const seen = (Array.isArray(parts) ? parts.map((p) => p.length) : parts.lengths)
    .reduce((n, length) => n + length, 0);
  return {
    version: 1,
    // A rendered file's entry through the build's `fromRecord` when it has one (a resident's memo
    // gives a kept render, the same record from build to build, the same entry).
    files: files.map((f) =>
      fromRecord ? fromRecord(f, "manifest entry", () => fileEntry(f)) : manifestFile(f)
    ),
    // A placed block's entry through `fromRecord` too (a layer may give a block placed the same
    // again: its entry is then the same).
    blocks: blocks.map((b) =>
      fromRecord
        ? fromRecord(b, "manifest entry", () => Object.freeze(manifestBlock(b)))
        : manifestBlock(b)
    ),
    prefix: {
      bytes: prefixBytes,
      sha256: prefixHash,
      tokens: prefixBlocks.reduce((n, b) => n + b.tokens, 0),
    },
    total: {
      bytes: seen,
      sha256: totalHash,
      tokens: blocks.reduce((n, b) => n + b.tokens, 0),
    },
    warnings,
  };
}

/** Options of {@linkcode buildManifest}. */
export interface ManifestOptions {
  /** The document the blocks make (its bytes are hashed, and counted). */
  document: string | Uint8Array | Uint8Array[] | StreamedDocument;
  /** The build's warnings. */
  warnings: string[];
  /**
   * The sha256 of the document's stable prefix and of the whole, when they were taken already
   * (`documentHasher`, or resumed by a speed layer, `accel/resumed_hashes.ts`). @default {undefined}
   * hashed from `document`
   */
  hashes?: { prefix: string; total: string };
  /**
   * The build's maker of values from records (`BuildRun.fromRecord`): each file's and placed
   * block's entry is made through it (frozen: an entry given again must stay as made).
   * @default {undefined} made now
   */
  fromRecord?: RecordFn;
}

/**
 * The UTF-8 length of the stable prefix of placed blocks, in bytes.
 *
 * @example
 * ```ts
 * import { placeBlocks, prefixLength } from "./emit.ts";
 * prefixLength(await placeBlocks([{ id: "a", section: "a", stability: "stable", text: "hi" }])); // 2
 * ```
 */
export function prefixLength(blocks: PlacedBlock[]): number {
  return blocks.slice(0, prefixEnd(blocks)).reduce((n, b) => n + b.length, 0);
}

/** A rendered file's manifest entry: its fields in the manifest's order, optional ones when set. */
function manifestFile(f: RenderedFile): ManifestFile {
  return {
    path: f.path,
    view: f.view,
    status: f.status,
    ...(f.reason ? { reason: f.reason } : {}),
    sha256: f.sha256,
    bytes: f.bytes,
    ...(f.cache ? { cache: f.cache } : {}),
    ...(f.notes ? { notes: f.notes } : {}),
    ...(f.fallback ? { fallback: f.fallback } : {}),
  };
}

/** A file's entry made once for a memo: frozen, as later builds are given it again. */
function fileEntry(f: RenderedFile): ManifestFile {
  return Object.freeze(manifestFile(f));
}

/** A placed block's manifest entry: where it is, its hash and tokens, and its notes if any. */
function manifestBlock(b: PlacedBlock): ManifestBlock {
  return {
    id: b.id,
    section: b.section,
    stability: b.stability,
    offset: b.offset,
    length: b.length,
    sha256: b.sha256,
    tokens: b.tokens,
    ...(b.notes?.length ? { notes: b.notes } : {}),
  };
}

/** Where {@linkcode publish} puts a build's outputs, and what their manifest says. */
export interface PublishTarget {
  /** The output folder (made when missing). */
  dir: string;
  /** The outputs' name before their number: `{namespace}_{NNN}.md`. */
  namespace: string;
  /** The manifest, given the document's path relative to `root` (`/` separators). */
  manifestFor(outputPath: string): Manifest;
  /** The folder the manifest's `output` path is relative to (the project's root). */
  root: string;
}

/** Options of {@linkcode publish}. */
export interface PublishOptions {
  /** Document file extension (`md`, `xml`, `doc.json`). @default {"md"} */
  ext?: string;
  /**
   * The JSON of the manifest `manifestFor` gives, as `JSON.stringify(manifest, null, 2)` gave it
   * before the output's path was known: the path is put into it (`manifestJsonWithOutput`)
   * rather than the manifest serialized again; or that JSON's pieces in order (the first holds
   * the version's line), written one after another, never joined. @default {undefined} the
   * manifest is serialized
   */
  manifestJson?: string | string[];
  /**
   * The document as written ahead to a hidden temp file of the output folder (a speed layer's,
   * `accel/patch_write.ts`): linked as it is while it is exactly that file, else `document` is
   * written. @default {undefined} `document` is written
   */
  ahead?: WrittenAhead;
}

/** A document written ahead to a hidden temp file in the output folder (`accel/patch_write.ts`). */
export interface WrittenAhead {
  /** The temp file. */
  path: string;
  /** Its inode, size, modification and change time when written (`fileStamp()`). */
  stamp: string;
  /** The output folder, when it was made for it (removed with it, while empty). */
  madeDir?: string;
}

/**
 * A new hidden temp file's path in the output folder, where a document is written before
 * {@linkcode publish} links it under its number.
 *
 * @example
 * ```ts
 * import { tempDocumentPath } from "./emit.ts";
 * tempDocumentPath({ dir: "out", namespace: "context" }).startsWith("out/.context."); // true
 * ```
 */
export function tempDocumentPath(
  { dir, namespace }: Pick<PublishTarget, "dir" | "namespace">,
): string {
  return join(dir, `.${namespace}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
}

/** Write `document` to a new hidden temp file in `dir`. */
async function writeTemp(
  document: string | Uint8Array | Uint8Array[] | StreamedDocument,
  to: Pick<PublishTarget, "dir" | "namespace">,
): Promise<string> {
  const tmp = tempDocumentPath(to);
  try {
    await writeDocument(tmp, document);
  } catch (error) {
    removeQuietly(tmp);
    throw error;
  }
  return tmp;
}

/**
 * A manifest's JSON (`JSON.stringify(manifest, null, 2)` of a manifest
 * without `output`) with `"output"` after `"version"`, as `JSON.stringify`
 * gives the manifest that has it, and a final newline: a build serializes its
 * manifest before it knows its output number (a build prepared ahead only
 * writes when asked). `undefined` when `json` is not laid out so.
 *
 * @example
 * ```ts
 * import { manifestJsonWithOutput } from "./emit.ts";
 * manifestJsonWithOutput('{\n  "version": 1,\n  "files": []\n}', "out/c.md");
 * // '{\n  "version": 1,\n  "output": "out/c.md",\n  "files": []\n}\n'
 * ```
 */
export function manifestJsonWithOutput(json: string, output: string): string | undefined {
  const head = '{\n  "version": ';
  const at = json.indexOf("\n", head.length) + 1;
  if (!json.startsWith(head) || at === 0 || json[at - 2] !== ",") return undefined;
  return `${json.slice(0, at)}  "output": ${JSON.stringify(output)},\n${json.slice(at)}\n`;
}

/** `pieces` with `head` in place of the first, and the final newline after the last. */
function* withHead(pieces: string[], head: string): Generator<string> {
  yield head;
  for (let i = 1; i < pieces.length; i++) yield pieces[i];
  yield "\n";
}

/** Where a build was published. */
export interface Published {
  /** The output number. */
  number: number;
  /** Absolute path of the document. */
  document: string;
  /** Absolute path of the manifest. */
  manifest: string;
}

/** Format an output number: at least 3 digits. */
export function outputName(namespace: string, n: number, ext: string): string {
  return `${namespace}_${String(n).padStart(3, "0")}.${ext}`;
}

/** What the command line can do about an output folder that takes no writes. */
const WRITE_HINT =
  ": print the document with --stdout, or pass --state-dir to a folder you can write";

/**
 * An output folder that could not be made or takes no writes (read-only, full, another user's).
 * Its message says what to do on the command line; `problem` is the message without that, for a
 * caller that says what to do where it is (an MCP server's reply).
 */
export class OutputFolderError extends Error {
  /** The message without what to do: `Cannot write to the output folder "…": reason`. */
  readonly problem: string;
  /** @param problem What went wrong, naming the folder. */
  constructor(problem: string) {
    super(problem + WRITE_HINT);
    this.name = "OutputFolderError";
    this.problem = problem;
  }
}

/**
 * The error of a write into `dir` that the file system refused, naming the folder, without
 * Deno's error code and call; undefined for any other error.
 */
function unwritableOutput(dir: string, doing: string, error: unknown): Error | undefined {
  if (error instanceof OutputFolderError || !unwritableReason(error)) return undefined;
  const reason = (error as Error).message.replace(/ \(os error \d+\).*$/s, "").replace(
    /: \w+ '.*'$/s,
    "",
  );
  return new OutputFolderError(
    `Cannot ${doing} the output folder "${shownPath(dir)}": ${reason}`,
  );
}

/** Create the output folder; an error names it, without Deno's error code and call. */
function makeOutputFolder(dir: string): void {
  try {
    Deno.mkdirSync(dir, { recursive: true });
  } catch (error) {
    const unwritable = unwritableOutput(dir, "create", error);
    if (unwritable) throw unwritable;
    // Deno's message ends with the error code and the call: the message names the folder.
    const reason = error instanceof Error
      ? error.message.replace(/ \(os error \d+\)(: mkdir '.*')?$/, "").replace(/: mkdir '.*'$/, "")
      : error;
    throw new Error(
      `Cannot create the output folder "${shownPath(dir)}": ${reason}`,
    );
  }
}

/**
 * Publish the document and manifest under the next free number. The number
 * is claimed by creating a hidden `.{namespace}_{NNN}.claim` file exclusively
 * (shared by every format), checked free of outputs once held, and the
 * document is published with `link()` (which fails when the name exists), so
 * two builds at once never share a number, whatever their formats, and nothing
 * is ever overwritten. The document appears whole (linked from a complete temp
 * file); its manifest is written after it, atomically, so a reader that looks
 * for manifests (as `slop stats` does) only sees complete outputs. A high-water
 * mark keeps numbers from being reused after deletions.
 *
 * @example
 * ```ts
 * import { publish } from "./emit.ts";
 * const dir = await Deno.makeTempDir();
 * const manifestFor = (output: string) => ({ output }) as never;
 * const { document } = await publish("# doc\n", { dir, namespace: "context", manifestFor, root: dir });
 * ```
 */
export async function publish(
  document: string | Uint8Array | Uint8Array[] | StreamedDocument,
  target: PublishTarget,
  options: PublishOptions = {},
): Promise<Published> {
  makeOutputFolder(target.dir);
  try {
    return await publishInto(document, target, options);
  } catch (error) {
    // A folder that exists but takes no writes (read-only, full): named as one that cannot be made.
    throw unwritableOutput(target.dir, "write to", error) ?? error;
  }
}

/** {@linkcode publish}, into an output folder that exists. */
async function publishInto(
  document: string | Uint8Array | Uint8Array[] | StreamedDocument,
  { dir, namespace, manifestFor, root }: PublishTarget,
  options: PublishOptions,
): Promise<Published> {
  const ext = options.ext ?? "md";
  // The file operations up to the link are synchronous: each is much shorter than the task turn
  // an awaited one waits for (bench/README.md, "Numbers behind code choices").
  const ahead = options.ahead;
  const written = ahead && fileStamp(ahead.path) === ahead.stamp;
  if (ahead && !written) removeQuietly(ahead.path);
  const tmp = written ? ahead.path : await writeTemp(document, { dir, namespace });
  sweepStale(dir, namespace);
  let n = nextNumber(dir, namespace);
  let docPath: string;
  let claim: string;
  try {
    for (;; n++) {
      // The claim is shared by every format, so an .md and an .xml build never share a number.
      claim = join(dir, `.${outputName(namespace, n, "claim")}`);
      if (!createNew(claim)) continue;
      if (numberTaken(dir, namespace, n)) {
        removeQuietly(claim);
        continue;
      }
      docPath = join(dir, outputName(namespace, n, ext));
      try {
        Deno.linkSync(tmp, docPath);
        break;
      } catch (error) {
        removeQuietly(claim);
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
    }
  } finally {
    removeQuietly(tmp);
  }
  const manifestPath = join(dir, outputName(namespace, n, "json"));
  try {
    const outputPath = relative(root, docPath).split(sep).join("/");
    const manifest = manifestFor(outputPath);
    writeMark(dir, namespace, n);
    const json = options.manifestJson;
    const head = typeof json === "string" ? json : json?.[0];
    const text = head === undefined ? undefined : manifestJsonWithOutput(head, outputPath);
    // Else written in pieces: a big tree's manifest is never one string (about 500 bytes a file).
    if (text === undefined) writeJsonAtomicSync(manifestPath, manifest);
    else if (typeof json === "string") writeAtomicSync(manifestPath, text);
    else writeAtomicPiecesSync(manifestPath, withHead(json!, text.slice(0, -1)));
  } catch (error) {
    // A full or read-only disk: a document without its manifest would be an output no one made.
    removeQuietly(docPath);
    throw error;
  } finally {
    removeQuietly(claim);
  }
  return { number: n, document: docPath, manifest: manifestPath };
}

/** The extensions of a numbered output: the documents (any format) and the manifest. */
const OUTPUT_EXTENSIONS = ["md", "xml", "doc.json", "json"];

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

function sizeOf(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0; // removed meanwhile: it takes no room
  }
}

/**
 * Write a document given whole or as parts: the parts are never joined; they
 * gather in a 1 MB buffer, written synchronously when full (one system call
 * each, not one per block).
 *
 * @example
 * ```ts
 * import { writeDocument } from "./emit.ts";
 * await writeDocument(await Deno.makeTempFile(), ["# a\n", "b\n"].map((t) => new TextEncoder().encode(t)));
 * ```
 */
export async function writeDocument(
  path: string,
  document: string | Uint8Array | Uint8Array[] | StreamedDocument,
): Promise<void> {
  if (typeof document === "string") document = encoder.encode(document);
  if (document instanceof Uint8Array) return await Deno.writeFile(path, document);
  using file = Deno.openSync(path, { write: true, create: true, truncate: true });
  const buffer = new Uint8Array(1 << 20);
  let used = 0;
  const write = (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
  };
  // A streamed document's pieces are views of one buffer: each is copied or written before the next.
  for (const part of Array.isArray(document) ? document : document.pieces()) {
    if (used + part.length > buffer.length) {
      write(buffer.subarray(0, used));
      used = 0;
    }
    if (part.length > buffer.length) write(part);
    else {
      buffer.set(part, used);
      used += part.length;
    }
  }
  write(buffer.subarray(0, used));
}

/** Temp and claim files older than this were left by a killed build. */
const STALE_MS = 60 * 60 * 1000;

/** Remove a file; gone already is fine. */
/** Remove hidden temp and claim files that a killed build left behind. */
function sweepStale(dir: string, namespace: string): void {
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

/** Create an empty file; false when it exists already. */
function createNew(path: string): boolean {
  try {
    Deno.openSync(path, { createNew: true, write: true }).close();
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}

/** True when any output of number `n` exists (any format, or its manifest). */
function numberTaken(dir: string, namespace: string, n: number): boolean {
  return ["md", "xml", "doc.json", "json"].some((ext) => {
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

function nextNumber(dir: string, namespace: string): number {
  // Any document extension (md, xml, doc.json) claims its number.
  const pattern = new RegExp(`^${escape(namespace)}_(\\d+)\\.(?:md|xml|doc\\.json)$`);
  let max = readMark(dir, namespace);
  for (const entry of Deno.readDirSync(dir)) {
    const m = pattern.exec(entry.name);
    const n = m ? Number(m[1]) : 0;
    if (n <= LARGEST_NUMBER) max = Math.max(max, n);
  }
  return max + 1;
}

function markPath(dir: string, namespace: string): string {
  return join(dir, `.${namespace}.last`);
}

function readMark(dir: string, namespace: string): number {
  try {
    const n = Number(Deno.readTextFileSync(markPath(dir, namespace)).trim());
    return Number.isInteger(n) && n > 0 && n <= LARGEST_NUMBER ? n : 0;
  } catch {
    return 0;
  }
}

function writeMark(dir: string, namespace: string, n: number): void {
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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
