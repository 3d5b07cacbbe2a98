/**
 * Views get ready before the secret scan: each view mode with a `prepare`
 * hook is told which files it will render in this build (files read this
 * build, by the view `chooseView` picks), so the code views start their
 * parsing threads and load grammars while the build scans. Getting ready
 * never changes what a view renders.
 *
 * @module
 */

import { hasText, textLength } from "../pipeline/lazy_text.ts";
import { chooseView } from "../pipeline/transform.ts";
import { findViewMode, prepareView, type Registry } from "../pipeline/registry.ts";
import type { ResolvedConfig, SourceFile } from "../pipeline/types.ts";

/**
 * Call the `prepare` hook of each view mode that will render files of this
 * build; returns the function that tells them the transform stage is over.
 *
 * @example
 * ```ts
 * import { prepareViews } from "./_prepare_views.ts";
 * // const done = prepareViews(sources, { config, registry, isFocus: focusOf(config), warn });
 * // ... transform ...
 * // done();
 * ```
 */
export function prepareViews(
  sources: SourceFile[],
  options: {
    config: ResolvedConfig;
    registry: Registry;
    isFocus: (path: string) => boolean;
    /** Told a hook passed over (`prepareView`). */
    warn?: (message: string) => void;
  },
): () => void {
  const { config, registry, isFocus, warn } = options;
  const byView = new Map<string, Array<{ path: string; chars: number }>>();
  for (const file of sources) {
    // Files not read yet (unchanged since the last build) are mostly cache hits: not counted.
    if (file.error || !hasText(file) || file.entry.autoAggregate === false) continue;
    const view = chooseView(file, config, isFocus(file.path));
    let files = byView.get(view);
    if (!files) byView.set(view, files = []);
    files.push({ path: file.path, chars: textLength(file) });
  }
  const done: Array<() => void> = [];
  for (const [view, files] of byView) {
    const plugin = findViewMode(registry, view);
    if (!plugin?.prepare) continue;
    const release = prepareView(plugin, files, { warn });
    if (release) done.push(release);
  }
  // Called after the transform and again when the build ends (a failed build never got to the
  // first call): each view is released once.
  return () => done.splice(0).forEach((release) => release());
}
