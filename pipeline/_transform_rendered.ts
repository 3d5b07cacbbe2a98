/**
 * The rendered file records the transform stage makes: a file not rendered
 * (its read problem, or `autoAggregate: false`), a file a view rendered (its
 * notes: empty, the view's, bidirectional controls; its text kept lazy when
 * the cache kept it), and the summary of a file summarized by default with
 * its reason on its first line.
 *
 * @module
 */

import { dataReason, translationReason } from "./data_files.ts";
import { lazyCopy, type TextBacking, textBacking, textMarks } from "./lazy_text.ts";
import { bidiControls, bidiNote } from "./bidi_controls.ts";
import type { RenderedFile, ResolvedConfig, SourceFile, ViewOutput } from "./types.ts";

/**
 * The file a view rendered (`out`), its text kept lazy when the view cache kept it so.
 *
 * @example
 * ```ts
 * import { renderedFile } from "./_transform_rendered.ts";
 * // const made = renderedFile(base, file, output, { view: "full", cache: "miss" });
 * ```
 */
export function renderedFile(
  base: Pick<RenderedFile, "path" | "language">,
  file: SourceFile,
  out: ViewOutput,
  { view, cache }: { view: string; cache: "hit" | "miss" },
): RenderedFile {
  // A text kept where the cache has it (`keepText`) stays there: it is not read here.
  const kept = textBacking(out);
  const result: RenderedFile = {
    ...base,
    // A late read may have found the file changed (and redacted): its hash is the one rendered.
    sha256: file.sha256,
    bytes: file.size,
    language: out.language ?? base.language,
    view: out.view ?? view,
    status: "rendered",
    text: kept ? "" : out.text,
    fenced: out.fenced ?? true,
    notes: notesOf(file, out, kept),
    ...(out.fallback ? { fallback: out.fallback } : {}),
    cache,
  };
  // A copy: turning `result.text` into the lazy accessor would make it a dictionary (`lazyCopy`).
  return kept ? lazyCopy(result, kept) : result;
}

/**
 * The notes of a file's render: `empty file` first, the view's, then its text's bidirectional
 * controls (a kept text's noted where it is kept, so it is not read for them).
 */
function notesOf(file: SourceFile, out: ViewOutput, kept: TextBacking | undefined) {
  const bidi = kept ? (kept.marks ?? textMarks(kept.read())).bidi : bidiControls(out.text);
  const notes = [
    ...(file.size === 0 ? ["empty file"] : []),
    ...(out.notes ?? []),
    ...(bidi ? [bidiNote(bidi)] : []),
  ];
  return notes.length ? notes : undefined;
}

/**
 * The summary of a file summarized by default, its reason first. A translation's is its first two
 * rows (what it is, its keys or first messages): the rest of its shape is its English file's,
 * shown whole.
 *
 * @example
 * ```ts
 * import { byDefaultOutput } from "./_transform_rendered.ts";
 * // byDefaultOutput(file, summary).text.startsWith("(") === true
 * ```
 */
export function byDefaultOutput(file: SourceFile, out: ViewOutput): ViewOutput {
  if (file.translationOf === undefined) {
    return withReason(out, dataReason(file.size, file.dataLimit));
  }
  const rows = out.text.split("\n");
  const brief = rows.length > 2 ? { ...out, text: rows.slice(0, 2).join("\n") } : out;
  return withReason(brief, translationReason(file.translationOf));
}

/** A view's output with `reason` as its first line and first note (its text read). */
function withReason(out: ViewOutput, reason: string): ViewOutput {
  return {
    text: `(${reason})\n\n${out.text}`,
    ...(out.fenced !== undefined ? { fenced: out.fenced } : {}),
    ...(out.view !== undefined ? { view: out.view } : {}),
    ...(out.language !== undefined ? { language: out.language } : {}),
    ...(out.fallback !== undefined ? { fallback: out.fallback } : {}),
    notes: [reason, ...(out.notes ?? [])],
  };
}

/**
 * A file that is not rendered: its read problem, or `autoAggregate: false`; else `undefined`.
 *
 * @example
 * ```ts
 * import { unrenderedFile } from "./_transform_rendered.ts";
 * // unrenderedFile(file, config, base)?.status === "skipped"
 * ```
 */
export function unrenderedFile(
  file: SourceFile,
  config: ResolvedConfig,
  base: Pick<RenderedFile, "path" | "sha256" | "bytes" | "language" | "fenced">,
): RenderedFile | undefined {
  if (file.error) {
    return {
      ...base,
      view: file.entry.view ?? config.defaultView,
      status: file.error.status,
      reason: file.error.reason,
      // The seed renders a missing file as an error line in the document.
      text: file.error.status === "error" ? `ERROR: ${file.error.reason}: ${file.path}` : undefined,
    };
  }
  if (file.entry.autoAggregate === false) {
    return {
      ...base,
      view: file.entry.view ?? "full",
      status: "skipped",
      reason: "autoAggregate is false",
    };
  }
  return undefined;
}
