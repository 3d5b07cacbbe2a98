import assert from "node:assert/strict";
import { sha256 } from "../../pipeline/read.ts";
import { setScanKeepChars } from "../../pipeline/secrets.ts";
import { redactHandingOff } from "../../accel/scan_handoff.ts";
import type { SourceFile } from "../../pipeline/types.ts";
import { prng } from "../_helpers.ts";

/**
 * A scan worker keeps the texts it scanned to count them next (a copy of each in its heap): at
 * most a bounded number of characters at once, whatever the tree's size; the others are handed
 * on without a worker (sent again, a batch at a time, when they are counted). What is counted is
 * the characters each worker keeps, never time.
 */
function sources(files: number): SourceFile[] {
  const random = prng(7);
  return Array.from({ length: files }, (_, i) => {
    const text = Array.from(
      { length: 1500 },
      (_, j) => `let v${j} = ${Math.floor(random() * 1e6)}; // é ${i}`,
    ).join("\n") + "\n";
    const path = `src/f${i}.ts`;
    return { path, absPath: `/p/${path}`, entry: { path }, text, sha256: sha256(text), size: 0 };
  }) as SourceFile[];
}

Deno.test("a scan worker keeps at most its bound of texts to count, whatever the tree's size", async () => {
  const bound = 200_000;
  const before = setScanKeepChars(bound);
  try {
    for (const files of [40, 120]) {
      const all = sources(files);
      const total = all.reduce((n, s) => n + s.text!.length, 0);
      let handed: Array<{ path: string; text: string; helper?: number }> = [];
      await redactHandingOff(all, {}, {
        workers: 2,
        handOff: {
          keep: () => true,
          take(given, helpers) {
            handed = given;
            helpers.forEach((h) => h.stop());
          },
        },
      });
      // Every file is handed on to be counted: kept by the worker that scanned it, or not.
      assert.equal(handed.length, files);
      const kept = new Map<number, number>();
      for (const f of handed) {
        if (f.helper !== undefined) kept.set(f.helper, (kept.get(f.helper) ?? 0) + f.text.length);
      }
      assert.ok(kept.size > 0, `${files} files (${total} characters): no worker kept a text`);
      for (const [helper, chars] of kept) {
        assert.ok(chars <= bound, `${files} files: worker ${helper} kept ${chars} characters`);
      }
    }
  } finally {
    setScanKeepChars(before);
  }
});
