/**
 * The source a budget step renders from. A build with a budget lets the
 * sources' texts go after the transform, as a build without one does (they
 * were the size of the project, held until the end for the few files a step
 * renders again): a step that needs a file's text reads the file again, checks
 * it is what the build read (its sha256) and redacts its secrets as the
 * secrets stage did, for that render only. A step whose view is in the cache
 * reads nothing.
 *
 * @module
 */

import { readTarget } from "./read.ts";
import { redactSources } from "./secrets.ts";
import type { FileProblem, ResolvedConfig, SourceFile } from "./types.ts";

/** Sources found changed (or gone) when a step read them again, and why. */
const changed = new WeakMap<SourceFile, FileProblem>();

/**
 * `source` as it is when it still has its text; else a copy whose text is
 * read again when a view needs it (see `SourceFile.load`). A file changed
 * since the build read it cannot be read any more: its step is not taken.
 *
 * @example
 * ```ts
 * import { stepSource } from "./_budget_source.ts";
 * // const [out] = await transformFiles([stepSource(source, config)], config, registry, options);
 * ```
 */
export function stepSource(source: SourceFile, config: ResolvedConfig): SourceFile {
  if (source.text !== undefined || source.error || !source.sha256) return source;
  // Found changed by an earlier step: the next ones fail at once (one warning a file).
  const problem = changed.get(source);
  if (problem) return { ...source, load: undefined, error: problem };
  const copy: SourceFile = { ...source };
  copy.load = async () => {
    copy.load = undefined;
    const fresh = await readTarget(source, config);
    Object.assign(copy, { text: fresh.text, sha256: fresh.sha256, error: fresh.error });
    // The secrets stage redacted the text it read, and a text redacted has the hash of what is
    // left: this one is redacted the same way before the two are compared (no cache: the cache's
    // list of clean files is the whole build's).
    if (!fresh.error) await redactSources([copy], config.secrets.rules);
    if (copy.error || copy.sha256 !== source.sha256) {
      copy.error ??= { status: "error", reason: "changed since the build read it" };
      copy.text = undefined;
      changed.set(source, copy.error);
      return true;
    }
    return false;
  };
  return copy;
}
