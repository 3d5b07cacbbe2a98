/**
 * Cache packs: the entries one build used, back to back in one file, so the
 * next build of the same project reads one file instead of one per entry.
 * A pack only speeds reads up: every record carries its payload's sha256 and
 * is checked on use, a bad record falls back to the entry file, and packs are
 * written like entries (temp file + rename).
 *
 * Layout: `slop-pack/1\n`, then per record `<name> <sha256> <length>\n` and the payload.
 *
 * @module
 */

import { sha256 } from "./read.ts";

const MAGIC = "slop-pack/1\n";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A record of a pack: the payload's sha256 and the payload. */
export interface PackRecord {
  sha256: string;
  payload: Uint8Array;
}

/**
 * Read a pack; a missing or damaged file gives the records before the damage.
 *
 * @example
 * ```ts
 * import { readPack } from "./_cache_pack.ts";
 * readPack("/no/such/pack").size; // 0
 * ```
 */
export function readPack(path: string): Map<string, PackRecord> {
  const out = new Map<string, PackRecord>();
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch {
    return out;
  }
  if (decoder.decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) return out;
  let at = MAGIC.length;
  while (at < bytes.length) {
    const newline = bytes.indexOf(10, at);
    if (newline < 0 || newline - at > 300) break;
    const [name, hash, length] = decoder.decode(bytes.subarray(at, newline)).split(" ");
    const size = Number(length);
    if (!name || !hash || !Number.isInteger(size) || newline + 1 + size > bytes.length) break;
    out.set(name, { sha256: hash, payload: bytes.subarray(newline + 1, newline + 1 + size) });
    at = newline + 1 + size;
  }
  return out;
}

/**
 * The bytes of a pack holding `records` (sorted by name).
 *
 * @example
 * ```ts
 * import { encodePack } from "./_cache_pack.ts";
 * encodePack(new Map()).length; // 12
 * ```
 */
export function encodePack(records: Map<string, Uint8Array>): Uint8Array {
  const parts: Uint8Array[] = [encoder.encode(MAGIC)];
  for (const name of [...records.keys()].sort()) {
    const payload = records.get(name)!;
    parts.push(encoder.encode(`${name} ${sha256(payload)} ${payload.length}\n`), payload);
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
