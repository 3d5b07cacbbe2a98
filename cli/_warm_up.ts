/**
 * `slop watch`'s warm-up after its first build: load what a rebuild after an
 * edit will need but a build served from the cache did not load — the secret
 * scanner (an edited file is scanned) and the grammars of the project's files
 * shown in a grammar view (an edited file is parsed again) — so that the first
 * rebuild does not pay for it. Each is loaded by a throwaway call through the
 * same path a rebuild takes; failures are ignored (the rebuild will report them).
 *
 * @module
 */

import { extname } from "node:path";
import { redactText } from "../pipeline/secrets.ts";
import { renderCodeShared } from "../plugins/view_modes/code_views.ts";
import type { RenderedFile } from "../pipeline/types.ts";

/** Views that parse with tree-sitter. */
const GRAMMAR_VIEWS = new Set(["skeleton", "outline", "masked"]);

/**
 * Load the secret scanner and the grammars `files` use.
 *
 * @example
 * ```ts
 * import { warmUp } from "./_warm_up.ts";
 * await warmUp([]);
 * ```
 */
export async function warmUp(files: RenderedFile[]): Promise<void> {
  // "AKIA" is one of the scanner's hints: the text goes through secretlint, finding nothing.
  await redactText("AKIA warm-up\n", "warm-up.txt").catch(() => {});
  const extensions = new Set(
    files.filter((f) => GRAMMAR_VIEWS.has(f.view)).map((f) => extname(f.path).toLowerCase()),
  );
  for (const ext of [...extensions].sort()) {
    if (ext) await renderCodeShared(`warm-up${ext}`, "").catch(() => {});
  }
}
