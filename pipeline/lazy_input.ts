/**
 * The transform stage's view of a deferred source (one the read stage did
 * not read, see `pipeline/stat_index.ts`): a {@linkcode ViewInput} whose
 * `text` is read only when a view needs it. Reading `text` before
 * {@linkcode LazyInput.load} gives `""` and marks the input touched (a view's
 * `cacheKey` hook looked at it: the caller loads and asks again). A file
 * that changed since the build looked at it is scanned for secrets when it
 * is loaded, like every text that enters a build.
 *
 * @module
 */

import { isDeferred, loadDeferred } from "./stat_index.ts";
import { redactSources } from "./secrets.ts";
import type { ResolvedConfig, SecretFinding, SourceFile, ViewInput } from "./types.ts";

/** A view input whose text is read on demand. */
export interface LazyInput {
  /** The input: `text` and `sha256` follow the file as it is loaded. */
  input: ViewInput;
  /** Whether `text` was read before the file was loaded. */
  touched(): boolean;
  /** Read the file (once); throws when it cannot be read any more. */
  load(): Promise<void>;
}

/** Findings of files that changed between the read stage and their late load. */
const late = new WeakMap<SourceFile, SecretFinding[]>();

/**
 * A lazy input for a deferred source, or `undefined` when the source was read.
 *
 * @param normalize How the text is given to views (line endings).
 *
 * @example
 * ```ts
 * import { lazyInput } from "./lazy_input.ts";
 * // const lazy = lazyInput(file, config, normalizeNewlines);
 * ```
 */
export function lazyInput(
  file: SourceFile,
  config: ResolvedConfig,
  normalize: (text: string) => string,
): LazyInput | undefined {
  if (!isDeferred(file)) return undefined;
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
    if (await loadDeferred(file) && file.text !== undefined) {
      const findings = await redactSources([file], config.secrets.rules);
      if (findings.length) late.set(file, findings);
    }
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

/**
 * Secret findings of sources that changed between the read stage and their
 * late load, in path order.
 *
 * @example
 * ```ts
 * import { lateFindings } from "./lazy_input.ts";
 * // secrets.push(...lateFindings(sources));
 * ```
 */
export function lateFindings(sources: SourceFile[]): SecretFinding[] {
  return sources.flatMap((file) => late.get(file) ?? []);
}
