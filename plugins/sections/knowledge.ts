/**
 * The `knowledge` section: the knowledge digest (`digest.md` in
 * `knowledge.dir`) as the static `{knowledge}` ... `{/knowledge}` block at
 * the top of the document. The file is the switch: no digest, no block
 * (delete it to turn the section off); `knowledge.digest: false` in the
 * config also turns it off.
 *
 * @module
 */

import { isAbsolute, join, relative, shownPath } from "../../pipeline/paths.ts";
import { readSettingText } from "../../pipeline/helpers.ts";
import type { Block, BuildState, SectionPlugin } from "../../pipeline/types.ts";
import { closeFences } from "./_render.ts";

/** Options of {@linkcode knowledgeSection}. */
export interface KnowledgeOptions {
  /** Digest file; unset: `digest.md` in the config's `knowledge.dir`. */
  path?: string;
}

/**
 * The block text for a digest: `{knowledge}\n{digest}\n{/knowledge}\n`,
 * then the blank line every block ends with.
 *
 * @example
 * ```ts
 * import { knowledgeBlockText } from "./knowledge.ts";
 * knowledgeBlockText("# Knowledge digest\n"); // "{knowledge}\n# Knowledge digest\n\n{/knowledge}\n\n"
 * ```
 */
export function knowledgeBlockText(digest: string): string {
  // A line of the digest that reads as the block's own marks (a hand edit) gets a backslash
  // (`\{/knowledge}`), so the block ends at its last line only.
  const marked = digest.replace(/^([ \t]*)(\{\/?knowledge\}[ \t]*)$/gm, "$1\\$2");
  // A code block the digest leaves open ends inside the block, not in the files after it.
  const closed = closeFences(marked);
  return `{knowledge}\n${closed === marked ? marked : closed + "\n"}\n{/knowledge}\n\n`;
}

/**
 * The `knowledge` section plugin.
 *
 * @example
 * ```ts
 * import { knowledgeSection } from "./knowledge.ts";
 * knowledgeSection().name; // "slop:knowledge"
 * ```
 */
export function knowledgeSection(options: KnowledgeOptions = {}): SectionPlugin {
  return {
    kind: "section",
    name: "slop:knowledge",
    async compose(state: BuildState): Promise<Block[]> {
      if (!state.config.knowledge.digest) return [];
      const path = options.path ?? join(state.config.knowledge.dir, "digest.md");
      let digest: string;
      const { root, allowOutsideRoot } = state.config;
      // A digest in the project (the default `slop/knowledge`) that a link leads out of it is
      // not read, as a project file would not be; one the config places outside it is.
      const inProject = !relative(root, path).startsWith("..") && !isAbsolute(relative(root, path));
      try {
        // A folder, FIFO or device in its place is told by the read as any other that cannot
        // be read: the build fails naming it, rather than going on without the digest unsaid.
        digest = await readSettingText(path, {
          within: inProject && !allowOutsideRoot ? root : undefined,
          textOnly: true,
        });
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return [];
        // The folder a config names is named by its key too: the fix is there.
        const key = options.path === undefined && state.config.raw.knowledge?.dir !== undefined
          ? ' ("knowledge.dir")'
          : "";
        throw new Error(
          `Cannot read the knowledge digest "${shownPath(path)}"${key}: ${
            error instanceof Error ? error.message : error
          }`,
        );
      }
      return [{
        id: "knowledge",
        section: "knowledge",
        stability: "static",
        text: knowledgeBlockText(digest.replace(/\r\n?/g, "\n")),
      }];
    },
  };
}
