/**
 * Token-counting worker: receives `{ table, texts }` (a compact BPE table,
 * see `pipeline/_bpe.ts`), answers `{ counts }` (or `{ error }`). It never
 * loads a tokenizer module. Started by `pipeline/count.ts`.
 *
 * @module
 */

import { bpeCounter, type BpeTable } from "./_bpe.ts";

interface Job {
  table: BpeTable;
  texts: string[];
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (event) => {
  try {
    const count = bpeCounter(event.data.table);
    scope.postMessage({ counts: event.data.texts.map(count) });
  } catch (error) {
    scope.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
