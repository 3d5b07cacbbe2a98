// A ts block of docs/plugins.md, copied by tests/docs/_snippets.ts: do not edit.
// plugins/section_first.ts
import type { OrderingPlugin } from "../../../../mod.ts";

/** Options of {@linkcode sectionFirstOrdering}. */
export interface SectionFirstOptions {
  /** The section to move. */
  section: string;
}

/** Moves the blocks of `options.section` right before the files section. */
export function sectionFirstOrdering(options: SectionFirstOptions): OrderingPlugin {
  return {
    kind: "ordering",
    name: "section-first",
    order(blocks) {
      const moved = blocks.filter((b) => b.section === options.section);
      const rest = blocks.filter((b) => b.section !== options.section);
      const at = rest.findIndex((b) => b.section === "files");
      return at < 0 ? blocks : [...rest.slice(0, at), ...moved, ...rest.slice(at)];
    },
  };
}
