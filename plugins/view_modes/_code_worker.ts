/**
 * Code-view worker: receives `{ id, path, text, options }`, renders the file
 * with the code engine (`_code.ts`, which loads web-tree-sitter and the
 * grammars in this worker) and answers `{ id, view }` or `{ id, error }` (with `clock: true`
 * when a clock stopped the render: `ClockError`).
 * It posts `{ ready: true }` once loaded. `{ urls, modules, grammars }` (sent
 * first by the pool) says where the runtime and the grammars are, so this
 * worker never loads `deps.ts`, gives the `.wasm` modules the pool's thread
 * compiled, which this worker instantiates instead of compiling its own copy,
 * and names the grammars to load before the first file comes, and may give
 * a shared counter (`progress`): this worker keeps in it how many characters
 * of the files it was sent it has parsed. `{ close: true }` asks it to stop
 * once its files are answered (its tree-sitter memory is freed with it). A file whose parse
 * made the runtime abort is answered with `aborted: true`, and the worker stops: the pool
 * gives its other files to another thread.
 * Started by `_code_pool.ts`.
 *
 * @module
 */

import { isRuntimeAbort, parserFor, useGrammarSource, warmUp } from "../../grammars/tree_sitter.ts";
import type { CompiledModules, GrammarUrls } from "../../grammars/tree_sitter.ts";
import { renderCode, type RenderCodeOptions } from "./_code.ts";
import { isClockError } from "../../pipeline/helpers.ts";

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
        | Job
        | {
          urls: GrammarUrls;
          modules?: CompiledModules;
          grammars?: string[];
          progress?: Int32Array;
        }
        | { close: true }
      >,
    ) => void)
    | null;
  postMessage(message: unknown): void;
  close(): void;
};

/** Characters parsed so far, shared with the pool (see `_code_pool.ts`). */
let progress: Int32Array | undefined;
/** Characters of the files answered so far. */
let parsed = 0;
/** Files being rendered now. */
let running = 0;
/** The pool asked this worker to stop once its files are answered. */
let closing = false;

scope.onmessage = async (event) => {
  if ("urls" in event.data) {
    const { runtime, wasm } = event.data.urls;
    useGrammarSource({
      runtime: () => import(runtime),
      wasm: (grammar) => wasm[grammar],
      compiled: event.data.modules,
    });
    // Loaded while this worker waits for its first file; a failure is reported by that file.
    for (const grammar of event.data.grammars ?? []) parserFor(grammar).then(warmUp, () => {});
    progress = event.data.progress;
    return;
  }
  if ("close" in event.data) {
    closing = true;
    if (!running) scope.close();
    return;
  }
  const { id, path, text, options } = event.data;
  const counter = progress;
  const onParse = counter && ((chars: number) => Atomics.store(counter, 0, parsed + chars));
  running++;
  let answer: { id: number; view?: unknown; error?: string; clock?: boolean; aborted?: boolean };
  try {
    answer = { id, view: await renderCode(path, text, options, onParse) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
    // A clock's stop crosses as such: it fails the build, unlike the file's own errors.
    if (isClockError(error)) answer.clock = true;
    // Its runtime aborted: the pool stops this worker, which frees the runtime's memory.
    if (isRuntimeAbort(error)) answer.aborted = closing = true;
  }
  running--;
  // Counted before the answer goes: the pool reads the counter as whole when the answer comes.
  parsed += text.length;
  if (counter) Atomics.store(counter, 0, parsed);
  scope.postMessage(answer);
  if (closing && !running) scope.close();
};

scope.postMessage({ ready: true });
