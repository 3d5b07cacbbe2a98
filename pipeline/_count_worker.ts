/**
 * Token-counting worker: receives `{ tokenizer, texts }`, answers
 * `{ counts }` (or `{ error }`). Loaded by `pipeline/count.ts`.
 *
 * @module
 */

import { tokenCounter, type Tokenizer } from "./tokens.ts";

interface Job {
  tokenizer: Tokenizer;
  texts: string[];
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event) => {
  try {
    const count = await tokenCounter(event.data.tokenizer);
    scope.postMessage({ counts: event.data.texts.map(count) });
  } catch (error) {
    scope.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
