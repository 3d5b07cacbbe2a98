/**
 * Small file and hash helpers shared by the built-in plugins (plugins import
 * only plugin types and `grammars/`, so they do not use the pipeline's own).
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { createHash } from "node:crypto";

/**
 * The sha256 of a text or bytes, as 64 hex digits.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./_files.ts";
 * sha256Hex("").slice(0, 8); // "e3b0c442"
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Write a file through a hidden temp file and a rename, so a reader never
 * sees half of it; the temp file is removed when the write fails.
 *
 * @example
 * ```ts
 * import { writeAtomic } from "./_files.ts";
 * // await writeAtomic(".slop/checkpoints/ab12.json", "{}\n");
 * ```
 */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
}
