/**
 * What every provider's `payload` hook shares: its options, the split of
 * the ordered blocks into cached segments (at breakpoints) and the volatile
 * tail, and the screenshots as images.
 *
 * @module
 */

import { extname, join } from "../../pipeline/paths.ts";
import type { Breakpoint, ModelInfo, PayloadOptions, PlacedBlock } from "../../pipeline/types.ts";
import { modelTokens } from "../../pipeline/tokens.ts";
import { chooseBreakpoints } from "../ordering/breakpoints.ts";
import { IMAGE_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES_BYTES, readImageInfo } from "../image_files.ts";

/** Options of every provider's `payload(blocks, options)` hook (`types.ts`). */
export type { PayloadOptions };

/** The placeholder a payload carries where the question goes. */
const PROMPT_PLACEHOLDER = "{{prompt}}";

/** One cached span of the prefix. */
export interface Segment {
  /** Exact text of the span's blocks. */
  text: string;
  /** TTL when the span ends at a breakpoint; absent for an uncached remainder. */
  ttl?: string;
}

/** The ordered blocks split for a request body. */
export interface PayloadParts {
  /** The stable prefix in spans, each ending at a breakpoint (the last may be uncached). */
  segments: Segment[];
  /** The whole stable prefix. */
  prefix: string;
  /** Everything after the prefix (the volatile blocks). */
  tail: string;
  /**
   * The tail in spans, each ending at a breakpoint (the history checkpoint),
   * the last uncached; joined they are `tail`.
   */
  tailSegments: Segment[];
  /** Screenshots that could be read, in document order. */
  images: Image[];
  /** The question. */
  prompt: string;
}

/** A screenshot read for an image block. */
export interface Image {
  /** Path relative to the root. */
  path: string;
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
  mediaType: string;
  /** Base64 bytes. */
  data: string;
}

/**
 * Split the ordered blocks: the stable prefix (every block before the first
 * volatile one) in segments that end at the breakpoints, the tail, and the
 * screenshots' images.
 *
 * @example
 * ```ts
 * import { payloadParts } from "./_payload.ts";
 * // const parts = await payloadParts(blocks, model, { ttl: "5m" });
 * ```
 */
export async function payloadParts(
  blocks: PlacedBlock[],
  model: ModelInfo,
  options: PayloadOptions,
): Promise<PayloadParts> {
  let end = blocks.findIndex((b) => b.stability === "volatile");
  if (end < 0) end = blocks.length;
  const breakpoints = options.breakpoints ?? await defaultBreakpoints(blocks, model, options);
  const byEnd = new Map(breakpoints.map((bp) => [bp.id, bp]));
  const segments: Segment[] = [];
  let text = "";
  for (const block of blocks.slice(0, end)) {
    text += block.text;
    const bp = byEnd.get(block.id);
    if (bp) {
      segments.push({ text, ttl: bp.ttl });
      text = "";
    }
  }
  if (text) segments.push({ text });
  const tailSegments: Segment[] = [];
  text = "";
  for (const block of blocks.slice(end)) {
    text += block.text;
    const bp = byEnd.get(block.id);
    if (bp) {
      tailSegments.push({ text, ttl: bp.ttl });
      text = "";
    }
  }
  if (text) tailSegments.push({ text });
  return {
    segments,
    prefix: segments.map((s) => s.text).join(""),
    tail: tailSegments.map((s) => s.text).join(""),
    tailSegments,
    images: options.root ? await readImages(blocks, options.root) : [],
    prompt: options.prompt ?? PROMPT_PLACEHOLDER,
  };
}

async function defaultBreakpoints(
  blocks: PlacedBlock[],
  model: ModelInfo,
  options: PayloadOptions,
): Promise<Breakpoint[]> {
  const tokens: number[] = [];
  for (const b of blocks) tokens.push(await modelTokens(b.text, model, b.tokens));
  const ttl = options.ttl ?? model.ttls[0];
  return chooseBreakpoints(blocks, {
    tokens,
    minTokens: model.minCacheTokens,
    ttl,
    staticTtl: model.ttls.includes("1h") ? "1h" : ttl,
    max: model.breakpoints ? 4 : 1,
  });
}

async function readImages(blocks: PlacedBlock[], root: string): Promise<Image[]> {
  const images: Image[] = [];
  let total = 0;
  for (const block of blocks) {
    if (block.section !== "screenshots") continue;
    for (const m of block.text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) {
      const path = decodeURIComponent(m[1]);
      if (!IMAGE_TYPES[extname(path).toLowerCase()]) continue;
      try {
        // The type its bytes say (a JPEG named .png is sent as a JPEG); the section left out
        // what is no whole image, and one that changed since is left out here.
        const info = await readImageInfo(join(root, path));
        if (typeof info === "string") continue;
        const bytes = await Deno.readFile(join(root, path));
        // Grown past the limit since it was looked at: left out as the section would have.
        if (bytes.length > MAX_IMAGE_BYTES || total + bytes.length > MAX_IMAGES_BYTES) continue;
        total += bytes.length;
        images.push({ path, mediaType: info.mediaType, data: bytes.toBase64() });
      } catch {
        // A missing screenshot stays a link (the build already warned).
      }
    }
  }
  return images;
}
