/**
 * Code-view worker: receives `{ id, path, text, options }`, renders the file
 * with the code engine (`_code.ts`, which loads web-tree-sitter and the
 * grammars in this worker) and answers `{ id, view }` or `{ id, error }`.
 * It posts `{ ready: true }` once loaded. `{ urls, modules, grammars }` (sent
 * first by the pool) says where the runtime and the grammars are, so this
 * worker never loads `deps.ts`, gives the `.wasm` modules the pool's thread
 * compiled, which this worker instantiates instead of compiling its own copy,
 * and names the grammars to load before the first file comes.
 * Started by `_code_pool.ts`.
 *
 * @module
 */

import { parserFor, useGrammarSource } from "../../grammars/_tree_sitter.ts";
import type { CompiledModules, GrammarUrls } from "../../grammars/_tree_sitter.ts";
import { renderCode, type RenderCodeOptions } from "./_code.ts";

interface Job {
  id: number;
  path: string;
  text: string;
  options: RenderCodeOptions;
}

const scope = self as unknown as {
  onmessage:
    | ((
      event: MessageEvent<
        Job | { urls: GrammarUrls; modules?: CompiledModules; grammars?: string[] }
      >,
    ) => void)
    | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event) => {
  if ("urls" in event.data) {
    const { runtime, wasm } = event.data.urls;
    useGrammarSource({
      runtime: () => import(runtime),
      wasm: (grammar) => wasm[grammar],
      compiled: event.data.modules,
    });
    // Loaded while this worker waits for its first file; a failure is reported by that file.
    for (const grammar of event.data.grammars ?? []) parserFor(grammar).catch(() => {});
    return;
  }
  const { id, path, text, options } = event.data;
  try {
    scope.postMessage({ id, view: await renderCode(path, text, options) });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};

scope.postMessage({ ready: true });
