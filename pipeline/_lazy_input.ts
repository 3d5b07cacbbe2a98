/**
 * The transform stage's view of a source the read stage left unread (one
 * with a `load`, see `SourceFile.load`): a {@linkcode ViewInput} whose `text`
 * is read only when a view needs it. Reading `text` before
 * {@linkcode LazyInput.load} gives `""` and marks the input touched (a view's
 * `cacheKey` hook looked at it: the caller loads and asks again).
 *
 * @module
 */

import type { SourceFile, ViewInput } from "./types.ts";

/** A view input whose text is read on demand. */
export interface LazyInput {
  /** The input: `text` and `sha256` follow the file as it is loaded. */
  input: ViewInput;
  /** Whether `text` was read before the file was loaded. */
  touched(): boolean;
  /** Read the file (once); throws when it cannot be read any more. */
  load(): Promise<void>;
}

/**
 * A lazy input for a source not read yet, or `undefined` when the source was read.
 *
 * @param normalize How the text is given to views (line endings).
 *
 * @example
 * ```ts
 * import { lazyInput } from "./_lazy_input.ts";
 * // const lazy = lazyInput(file, normalizeNewlines);
 * ```
 */
export function lazyInput(
  file: SourceFile,
  normalize: (text: string) => string,
): LazyInput | undefined {
  const read = file.load;
  if (!read) return undefined;
  let touched = false;
  let text: string | undefined;
  let loading: Promise<void> | undefined;
  const input = {
    path: file.path,
    absPath: file.absPath,
    get text(): string {
      if (text !== undefined) return text;
      if (file.text === undefined) {
        touched = true;
        return "";
      }
      return (text = normalize(file.text));
    },
    get sha256(): string {
      return file.sha256;
    },
  } as ViewInput;
  const load = async () => {
    // Called on its file: a speed layer's `load` may be one function for all files (`this`).
    await read.call(file);
    if (file.error || file.text === undefined) {
      throw new Error(`"${file.path}" cannot be read any more: ${file.error?.reason ?? "no text"}`);
    }
  };
  return {
    input,
    touched: () => touched,
    load: () => (loading ??= load()),
  };
}
