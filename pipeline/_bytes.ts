/**
 * Byte helpers of the pipeline's internals.
 *
 * @module
 */

/**
 * The parts joined into one new array.
 *
 * @example
 * ```ts
 * import { concatBytes } from "./_bytes.ts";
 * concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])]); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The bytes of base64 text, read as `node:buffer`'s `Buffer.from(text, "base64")` reads it:
 * up to the first `=`, characters outside base64 (and base64url's `-` `_`) skipped, a lone
 * last character dropped.
 *
 * @example
 * ```ts
 * import { decodeBase64 } from "./_bytes.ts";
 * decodeBase64("aGk="); // Uint8Array [104, 105]
 * ```
 */
export function decodeBase64(text: string): Uint8Array {
  const padding = text.indexOf("=");
  let digits = (padding === -1 ? text : text.slice(0, padding))
    .replace(/[^A-Za-z0-9+/_-]/g, "")
    .replaceAll("-", "+")
    .replaceAll("_", "/");
  if (digits.length % 4 === 1) digits = digits.slice(0, -1);
  return Uint8Array.fromBase64(digits, { lastChunkHandling: "loose" });
}

/**
 * A file's bytes, read into one array of the size its `fstat` gives (grown if
 * the file grew meanwhile): `Deno.readFileSync` reads a large file into
 * buffers it grows as it goes, about twice the time for a file of megabytes
 * (a cache pack is the size of the project).
 *
 * @example
 * ```ts
 * import { readWhole } from "./_bytes.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "abc");
 * readWhole(path).length; // 3
 * ```
 */
export function readWhole(path: string): Uint8Array {
  using file = Deno.openSync(path);
  let out = new Uint8Array(file.statSync().size);
  let at = 0;
  const probe = new Uint8Array(1 << 16);
  while (true) {
    if (at < out.length) {
      const n = file.readSync(out.subarray(at));
      if (n === null || n === 0) break;
      at += n;
      continue;
    }
    // Full: at the end, unless the file grew since it was looked at.
    const n = file.readSync(probe);
    if (n === null || n === 0) break;
    const more = new Uint8Array(out.length + n + (1 << 16));
    more.set(out);
    more.set(probe.subarray(0, n), at);
    out = more;
    at += n;
  }
  return at === out.length ? out : out.subarray(0, at);
}

/**
 * Fill `into` with the bytes of `file` from `offset` on (a seek, then reads
 * until it is full); `false` when the file ends first.
 *
 * @example
 * ```ts
 * import { readAt } from "./_bytes.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "abcdef");
 * using file = Deno.openSync(path);
 * const into = new Uint8Array(3);
 * readAt(file, 2, into); // true: into holds "cde"
 * ```
 */
export function readAt(file: Deno.FsFile, offset: number, into: Uint8Array): boolean {
  file.seekSync(offset, Deno.SeekMode.Start);
  for (let at = 0; at < into.length;) {
    const n = file.readSync(into.subarray(at));
    if (!n) return false;
    at += n;
  }
  return true;
}
