/**
 * Emit stage: place the ordered blocks (byte offsets, sha256, tokens), build the manifest, and
 * publish `{namespace}_{NNN}.md` plus its `.json` manifest without ever overwriting and without
 * a half-written file being visible. Its parts: the publishing (`_emit_publish.ts`) and the
 * numbered outputs (`_emit_numbers.ts`: the next number, the mark, the pruning of old ones).
 *
 * @module
 */

import { copyLazy } from "./lazy_text.ts";
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
import { writeAtomic } from "./helpers.ts";
import { documentHashes, type StreamedDocument } from "./document.ts";
import { hashText } from "./text_hash.ts";
import { textParts } from "./block_parts.ts";

export { writeAtomic };
export {
  manifestJsonWithOutput,
  OutputFolderError,
  publish,
  type Published,
  type PublishOptions,
  type PublishTarget,
  tempDocumentPath,
  writeDocument,
  type WrittenAhead,
} from "./_emit_publish.ts";
export { outputName, type PruneOptions, pruneOutputs } from "./_emit_numbers.ts";

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
