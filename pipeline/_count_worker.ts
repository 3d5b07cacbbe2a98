/**
 * Token-counting worker: receives `{ table, texts, next, counts }` (a compact
 * BPE table, see `pipeline/_bpe.ts`; `next` and `counts` are Int32Arrays over
 * shared memory). It takes the next text to count from `next` (the thread
 * that sent the job takes texts from it too), writes each count to `counts`
 * at the text's index, and answers `{ done: true }` when no text is left (or
 * `{ error }`). It never loads a tokenizer module. Started by `pipeline/count.ts`.
 *
 * @module
 */

import { bpeCounter, type BpeTable } from "./_bpe.ts";

interface Job {
  table: BpeTable;
  texts: string[];
  next: Int32Array;
  counts: Int32Array;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (event) => {
  try {
    const { table, texts, next, counts } = event.data;
    const count = bpeCounter(table);
    for (let i = Atomics.add(next, 0, 1); i < texts.length; i = Atomics.add(next, 0, 1)) {
      Atomics.store(counts, i, count(texts[i]));
    }
    scope.postMessage({ done: true });
  } catch (error) {
    scope.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
