/**
 * Builds a compact BPE table (`pipeline/_bpe.ts`) off the main thread:
 * receives `{ tokenizer }`, answers the table (in shared memory, so the
 * counting workers share this one copy) and is then terminated, so the
 * tokenizer's rank module never stays in the build's memory. Started by
 * `pipeline/count.ts`.
 *
 * @module
 */

import { loadCl100kRanks, loadO200kRanks } from "../deps.ts";
import { buildBpeTable } from "./_bpe.ts";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<{ tokenizer: string }>) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
};

scope.onmessage = async (event) => {
  try {
    const { ranks, split } = event.data.tokenizer === "cl100k"
      ? await loadCl100kRanks()
      : await loadO200kRanks();
    const t = buildBpeTable(ranks, split);
    // In shared memory, the counting workers use this one copy instead of each receiving their own.
    scope.postMessage({
      table: {
        slots: shared(t.slots),
        offsets: shared(t.offsets),
        lengths: shared(t.lengths),
        pool: shared(t.pool),
        pattern: t.pattern,
      },
    });
  } catch (error) {
    scope.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};

function shared<T extends Int32Array | Uint8Array>(array: T): T {
  const buffer = new SharedArrayBuffer(array.byteLength);
  const out = new (array.constructor as { new (buffer: SharedArrayBuffer): T })(buffer);
  out.set(array);
  return out;
}
