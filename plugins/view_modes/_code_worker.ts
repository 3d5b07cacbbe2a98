/**
 * Code-view worker: receives `{ id, path, text, options }`, renders the file
 * with the code engine (`_code.ts`, which loads web-tree-sitter and the
 * grammars in this worker) and answers `{ id, view }` or `{ id, error }`.
 * It posts `{ ready: true }` once loaded.
 * Started by `_code_pool.ts`.
 *
 * @module
 */

import { renderCode, type RenderCodeOptions } from "./_code.ts";

interface Job {
  id: number;
  path: string;
  text: string;
  options: RenderCodeOptions;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event) => {
  const { id, path, text, options } = event.data;
  try {
    scope.postMessage({ id, view: await renderCode(path, text, options) });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};

scope.postMessage({ ready: true });
