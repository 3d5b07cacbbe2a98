/**
 * Builds a compact BPE table (`pipeline/_bpe.ts`) off the main thread:
 * receives `{ tokenizer }`, answers the table (its buffers transferred) and
 * is then terminated, so the tokenizer's rank module never stays in the
 * build's memory. Started by `pipeline/count.ts`.
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
    const buffers = [t.slots.buffer, t.offsets.buffer, t.lengths.buffer, t.pool.buffer];
    scope.postMessage({ table: t }, buffers as ArrayBuffer[]);
  } catch (error) {
    scope.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
