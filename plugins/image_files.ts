/**
 * What an image file really is, from its bytes: PNG, JPEG, GIF or WebP (the types the providers
 * send), its size in pixels, or why it is none of them. Only the header and the last bytes are
 * read, at most {@linkcode HEAD_BYTES} + {@linkcode TAIL_BYTES} whatever the file's size, and
 * nothing is decoded, so a file that claims 100000x100000 pixels costs what a small one does.
 *
 * @module
 */

/** Media types of the images slop takes, by file extension. */
export const IMAGE_TYPES: Record<string, ImageType> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** A media type slop takes. */
export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** The longest side taken, in pixels: the most the providers' image inputs accept. */
export const MAX_IMAGE_SIDE = 8000;

/**
 * The most bytes of one image taken: the Anthropic API refuses an image whose base64 is over
 * 5 MB (5,242,880 characters, so 3,932,160 bytes), the strictest of the providers (OpenAI takes
 * 20 MB). A bigger file would fail the whole request, or put tens of megabytes into it.
 */
export const MAX_IMAGE_BYTES = 3_932_160;

/**
 * The most bytes of all the images of one request: the Anthropic API takes requests of up to
 * 32 MB, the images as base64 (a third more) beside the document's text.
 */
export const MAX_IMAGES_BYTES = 16 * 1024 * 1024;

/** Bytes read from the start: a JPEG's frame header must lie within them. */
export const HEAD_BYTES = 1 << 20;

/** Bytes read from the end, where a PNG's `IEND` chunk and a GIF's trailer are. */
const TAIL_BYTES = 4096;

/** An image file's real type and size. */
export interface ImageInfo {
  /** From the bytes, whatever the file's name says. */
  mediaType: ImageType;
  /** Pixels. */
  width: number;
  /** Pixels. */
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_END = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

/**
 * The type and size of an image from its first bytes (`head`), its last bytes (`tail`) and its
 * length, or the reason it is not a whole image slop takes: no signature it knows, a truncated
 * file, a zero side, a side over {@linkcode MAX_IMAGE_SIDE} or over {@linkcode MAX_IMAGE_BYTES}.
 *
 * @example
 * ```ts
 * import { sniffImage } from "./image_files.ts";
 * sniffImage(new TextEncoder().encode("hello"), new Uint8Array(), 5);
 * // "not a PNG, JPEG, GIF or WebP image"
 * ```
 */
export function sniffImage(head: Uint8Array, tail: Uint8Array, size: number): ImageInfo | string {
  if (!size) return "an empty file";
  const found = startsWith(head, PNG_SIGNATURE)
    ? png(head, tail)
    : startsWith(head, [0xff, 0xd8, 0xff])
    ? jpeg(head, size)
    : ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a"
    ? gif(head)
    : ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP"
    ? webp(head, size)
    : "not a PNG, JPEG, GIF or WebP image";
  if (typeof found === "string") return found;
  const { width, height } = found;
  if (!width || !height) return `an image of ${width}x${height} pixels`;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return `${width}x${height} pixels, over the limit of ${MAX_IMAGE_SIDE} on a side`;
  }
  if (size > MAX_IMAGE_BYTES) {
    return `${size} bytes, over the limit of ${MAX_IMAGE_BYTES} bytes an image (the providers' ` +
      "5 MB of base64)";
  }
  return found;
}

/**
 * Read an image file's type and size (see {@linkcode sniffImage}), or the reason it is not one.
 * Anything but a regular file (a FIFO, a device) is never opened, so it cannot hang.
 *
 * @example
 * ```ts
 * import { readImageInfo } from "./image_files.ts";
 * // await readImageInfo("/repo/shots/home.png"); // { mediaType: "image/png", width: 32, height: 32 }
 * ```
 */
export async function readImageInfo(path: string): Promise<ImageInfo | string> {
  const stat = await Deno.stat(path);
  if (!stat.isFile) return "not a regular file";
  using file = await Deno.open(path, { read: true });
  const head = await readAt(file, 0, Math.min(stat.size, HEAD_BYTES));
  const tailStart = Math.max(0, stat.size - TAIL_BYTES);
  const tail = await readAt(file, tailStart, stat.size - tailStart);
  return sniffImage(head, tail, stat.size);
}

/** Up to `length` bytes from `offset` (fewer when the file shrank meanwhile). */
async function readAt(file: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  await file.seek(offset, Deno.SeekMode.Start);
  let got = 0;
  while (got < length) {
    const n = await file.read(bytes.subarray(got));
    if (n === null) break;
    got += n;
  }
  return bytes.subarray(0, got);
}

function png(head: Uint8Array, tail: Uint8Array): ImageInfo | string {
  if (head.length < 24 || ascii(head, 12, 16) !== "IHDR") return "a truncated PNG (no IHDR header)";
  // Some writers pad the file after IEND (zeros, spaces): the chunk may sit anywhere in the tail.
  if (indexOf(tail, PNG_END) < 0) return "a truncated PNG (no IEND chunk at its end)";
  return { mediaType: "image/png", width: u32be(head, 16), height: u32be(head, 20) };
}

/** A JPEG's size from its frame header (SOF0-SOF15 but DHT, JPG and DAC), found by its segments. */
function jpeg(head: Uint8Array, size: number): ImageInfo | string {
  let at = 2;
  while (at + 4 <= head.length) {
    if (head[at] !== 0xff) return "a damaged JPEG (no marker where a segment starts)";
    const marker = head[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, start of scan: no frame header
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame && at + 9 <= head.length) {
      return { mediaType: "image/jpeg", width: u16be(head, at + 7), height: u16be(head, at + 5) };
    }
    at += 2 + u16be(head, at + 2);
  }
  return head.length < size
    ? `a JPEG with no frame header in its first ${HEAD_BYTES} bytes`
    : "a truncated JPEG (no frame header)";
}

/** A GIF is checked by its header only: real ones lack the trailer, and viewers draw them. */
function gif(head: Uint8Array): ImageInfo | string {
  if (head.length < 10) return "a truncated GIF (no screen size)";
  return { mediaType: "image/gif", width: u16le(head, 6), height: u16le(head, 8) };
}

/** A WebP's size from its first chunk: `VP8 ` (lossy), `VP8L` (lossless) or `VP8X` (extended). */
function webp(head: Uint8Array, size: number): ImageInfo | string {
  const chunk = ascii(head, 12, 16);
  if (head.length < (chunk === "VP8L" ? 25 : 30)) return "a truncated WebP (no image header)";
  const declared = u32le(head, 4) + 8;
  if (declared > size) {
    return `a truncated WebP (its header says ${declared} bytes, the file has ${size})`;
  }
  const mediaType = "image/webp";
  if (chunk === "VP8 " && startsWith(head.subarray(23), [0x9d, 0x01, 0x2a])) {
    return { mediaType, width: u16le(head, 26) & 0x3fff, height: u16le(head, 28) & 0x3fff };
  }
  if (chunk === "VP8L" && head[20] === 0x2f) {
    const bits = u32le(head, 21);
    return { mediaType, width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { mediaType, width: u24le(head, 24) + 1, height: u24le(head, 27) + 1 };
  }
  return `a damaged WebP (an unknown first chunk "${chunk.replace(/[^\x20-\x7e]/g, "?")}")`;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

function indexOf(bytes: Uint8Array, part: number[]): number {
  for (let at = bytes.indexOf(part[0]); at >= 0; at = bytes.indexOf(part[0], at + 1)) {
    if (at + part.length > bytes.length) return -1;
    if (part.every((b, i) => bytes[at + i] === b)) return at;
  }
  return -1;
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32le = (b: Uint8Array, at: number) => (u24le(b, at) + b[at + 3] * 0x1000000);
const u32be = (
  b: Uint8Array,
  at: number,
) => (b[at] * 0x1000000 + ((b[at + 1] << 16) | u16be(b, at + 2)));
