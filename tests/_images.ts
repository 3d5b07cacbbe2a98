// Image files for tests, made here: a real 1x1 PNG, and headers of PNG, JPEG, GIF and WebP files
// of any claimed size (what slop reads of an image: its header and its last bytes).
import { deflateSync } from "node:zlib";

/** CRC-32 (ISO 3309), as a PNG chunk's checksum. */
function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function be32(n: number): number[] {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

function chunk(type: string, data: Uint8Array): number[] {
  const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
  return [...be32(data.length), ...body, ...be32(crc32(body))];
}

/**
 * A PNG of `width` x `height` RGB pixels, all black. With `claim`, the header says that size
 * while the pixels are those of a 1x1 image (a file that lies about its size).
 */
export function png(width: number, height: number, claim?: [number, number]): Uint8Array {
  const [w, h] = claim ?? [width, height];
  const ihdr = new Uint8Array([...be32(w), ...be32(h), 8, 2, 0, 0, 0]);
  const rows = new Uint8Array((1 + 3 * width) * height);
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk("IHDR", ihdr),
    ...chunk("IDAT", deflateSync(rows)),
    ...chunk("IEND", new Uint8Array()),
  ]);
}

/** The headers of a baseline JPEG (SOI, a JFIF APP0, a comment, SOF0), then EOI. */
export function jpeg(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const comment = [0xff, 0xfe, 0, 6, 0x73, 0x6c, 0x6f, 0x70];
  const sof0 = [
    0xff,
    0xc0,
    0,
    11,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    1,
    1,
    0x11,
    0,
  ];
  return new Uint8Array([0xff, 0xd8, ...app0, ...comment, ...sof0, 0xff, 0xd9]);
}

/** A GIF89a header of the given screen size and its trailer. */
export function gif(width: number, height: number): Uint8Array {
  const ascii = [...new TextEncoder().encode("GIF89a")];
  return new Uint8Array([
    ...ascii,
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    0,
    0,
    0,
    0x3b,
  ]);
}

/** A lossless WebP (RIFF, `VP8L`) header of the given size; `declared` overrides the RIFF size. */
export function webp(width: number, height: number, declared?: number): Uint8Array {
  const bits = (width - 1) | ((height - 1) << 14);
  const vp8l = [0x2f, bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, bits >>> 24, 0, 0, 0];
  const body = [...new TextEncoder().encode("WEBPVP8L"), vp8l.length, 0, 0, 0, ...vp8l];
  const size = declared ?? body.length;
  return new Uint8Array([
    ...new TextEncoder().encode("RIFF"),
    size & 255,
    (size >> 8) & 255,
    (size >> 16) & 255,
    size >>> 24,
    ...body,
  ]);
}
