/**
 * Statistics of a built context document: tokens per tokenizer by section
 * and by file, the stable-prefix share, the per-file views and the cache
 * breakpoints. Computed from the document and its manifest only, so it
 * works on any earlier output as well as on a fresh build.
 *
 * @module
 */

import { countTokens, type Tokenizer } from "../pipeline/tokens.ts";
import type { Manifest, Stability } from "../pipeline/types.ts";

/** Token counts per tokenizer. */
export type TokenCounts = Record<Tokenizer, number>;

/** The tokenizers stats are counted with, in display order. */
export const TOKENIZERS: Tokenizer[] = ["o200k", "cl100k"];

/** One section's totals. */
export interface SectionStats {
  /** Section name. */
  section: string;
  /** Most volatile stability among its blocks. */
  stability: Stability;
  /** Blocks in the section. */
  blocks: number;
  /** Bytes in the document. */
  bytes: number;
  /** Tokens per tokenizer. */
  tokens: TokenCounts;
}

/** One file's row. */
export interface FileStats {
  /** Path relative to the root. */
  path: string;
  /** View that rendered it. */
  view: string;
  /** `rendered`, `skipped` or `error`. */
  status: string;
  /** Source size in bytes. */
  sourceBytes: number;
  /** Bytes of its block in the document (0 when it has none). */
  bytes: number;
  /** Tokens of its block per tokenizer. */
  tokens: TokenCounts;
  /** Whether its block is in the stable prefix. */
  inPrefix: boolean;
}

/** Everything `slop stats` and `slop report` show. */
export interface ContextStats {
  /** Document path relative to the root (absent for an unwritten build). */
  output?: string;
  /** Document bytes. */
  bytes: number;
  /** Tokens of the whole document. */
  total: TokenCounts;
  /** The stable prefix: bytes, tokens and its share of the document's bytes (0..1). */
  prefix: { bytes: number; tokens: TokenCounts; share: number };
  /** Sections in document order. */
  sections: SectionStats[];
  /** Files, most o200k tokens first (then by path). */
  files: FileStats[];
  /** Cache breakpoints as byte offsets (the end of a cached span), ascending. */
  breakpoints: number[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What one file's block holds in the document. */
interface FileBlock {
  bytes: number;
  tokens: TokenCounts;
  inPrefix: boolean;
}

/** Each file of the manifest with its block's bytes and tokens, most o200k tokens first. */
function fileStats(manifest: Manifest, byPath: Map<string, FileBlock>): FileStats[] {
  return manifest.files.map((f) => {
    const b = byPath.get(f.path);
    return {
      path: f.path,
      view: f.view,
      status: f.status,
      sourceBytes: f.bytes,
      bytes: b?.bytes ?? 0,
      tokens: b?.tokens ?? { o200k: 0, cl100k: 0 },
      inPrefix: b?.inPrefix ?? false,
    };
  }).sort((a, b) =>
    b.tokens.o200k - a.tokens.o200k || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
}

/** Options of {@linkcode computeStats}. */
export interface ComputeStatsOptions {
  /**
   * Told how many of the blocks are counted so far (`done` of `total`): a long document's count
   * takes a while. A throw stops the count.
   */
  onBlock?: (done: number, total: number) => void;
}

/**
 * Compute the stats of a document from its manifest. Tokens are counted with
 * every tokenizer in {@linkcode TOKENIZERS} over each block's bytes.
 *
 * @param document The document text.
 * @param manifest Its manifest (block offsets are byte offsets into `document`).
 * @param options `onBlock`, told how many blocks are counted, before the first and after each.
 * @returns The stats.
 *
 * @example
 * ```ts
 * import { computeStats } from "./stats.ts";
 * // const stats = await computeStats(result.document, result.manifest);
 * // stats.total.o200k
 * ```
 */
export async function computeStats(
  document: string,
  manifest: Manifest,
  options: ComputeStatsOptions = {},
): Promise<ContextStats> {
  const bytes = encoder.encode(document);
  const zero = (): TokenCounts => ({ o200k: 0, cl100k: 0 });
  const total = zero();
  const prefixTokens = zero();
  const sections = new Map<string, SectionStats>();
  const byPath = new Map<string, FileBlock>();
  options.onBlock?.(0, manifest.blocks.length);
  for (const [i, block] of manifest.blocks.entries()) {
    const text = decoder.decode(bytes.subarray(block.offset, block.offset + block.length));
    const tokens = zero();
    for (const t of TOKENIZERS) tokens[t] = await countTokens(text, t);
    const inPrefix = block.offset + block.length <= manifest.prefix.bytes;
    let section = sections.get(block.section);
    if (!section) {
      section = {
        section: block.section,
        stability: block.stability,
        blocks: 0,
        bytes: 0,
        tokens: zero(),
      };
      sections.set(block.section, section);
    }
    section.blocks++;
    section.bytes += block.length;
    if (RANK[block.stability] > RANK[section.stability]) section.stability = block.stability;
    for (const t of TOKENIZERS) {
      section.tokens[t] += tokens[t];
      total[t] += tokens[t];
      if (inPrefix) prefixTokens[t] += tokens[t];
    }
    if (block.id.startsWith("files:")) {
      byPath.set(block.id.slice("files:".length), { bytes: block.length, tokens, inPrefix });
    }
    options.onBlock?.(i + 1, manifest.blocks.length);
  }
  const files = fileStats(manifest, byPath);
  return {
    ...(manifest.output ? { output: manifest.output } : {}),
    bytes: bytes.length,
    total,
    prefix: {
      bytes: manifest.prefix.bytes,
      tokens: prefixTokens,
      share: bytes.length ? manifest.prefix.bytes / bytes.length : 1,
    },
    sections: [...sections.values()],
    files,
    breakpoints: manifestBreakpoints(manifest),
  };
}

const RANK: Record<Stability, number> = { static: 0, stable: 1, volatile: 2 };

/**
 * Cache breakpoints recorded in a manifest, as ascending byte offsets. Reads
 * a `breakpoints` list of offsets, or of `{ offset }`, `{ end }` or
 * `{ id }`/`{ block }` entries (the end of that block); none gives `[]`.
 *
 * @example
 * ```ts
 * import { manifestBreakpoints } from "./stats.ts";
 * // manifestBreakpoints(manifest); // [1024, 5120]
 * ```
 */
export function manifestBreakpoints(manifest: Manifest): number[] {
  const raw = (manifest as unknown as { breakpoints?: unknown }).breakpoints;
  if (!Array.isArray(raw)) return [];
  const ends = new Map(manifest.blocks.map((b) => [b.id, b.offset + b.length]));
  const out: number[] = [];
  for (const entry of raw) {
    if (typeof entry === "number") out.push(entry);
    else if (entry && typeof entry === "object") {
      const e = entry as Record<string, unknown>;
      const id = typeof e.id === "string" ? e.id : typeof e.block === "string" ? e.block : "";
      const offset = typeof e.offset === "number"
        ? e.offset
        : typeof e.end === "number"
        ? e.end
        : ends.get(id);
      if (typeof offset === "number") out.push(offset);
    }
  }
  return [...new Set(out)].sort((a, b) => a - b);
}
