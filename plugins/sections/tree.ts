/**
 * The `tree` section: `## Directory Tree` with the bundled files as an
 * indented tree. Off by default (`tree: true` in the config turns it on).
 * It is volatile, so it sits after the files: adding or deleting a file
 * changes only the tail, never the stable prefix.
 *
 * @module
 */

import type { Block, BuildState, RenderedFile, SectionPlugin } from "../../pipeline/types.ts";
import { headingPath } from "./_render.ts";
import { fenceFor } from "../markdown_fences.ts";

/** Options of {@linkcode treeSection}. */
export interface TreeOptions {
  /** Compose the section whatever the config says; unset follows the config's `tree`. */
  enabled?: boolean;
  /** Also list files that were skipped (binary, too large, `autoAggregate: false`). @default {true} */
  includeSkipped?: boolean;
}

/**
 * The indented tree of a sorted list of `/`-separated paths: folders end
 * with `/`, two spaces per level.
 *
 * @example
 * ```ts
 * import { renderTree } from "./tree.ts";
 * renderTree(["src/a.ts", "README.md"]); // "README.md\nsrc/\n  a.ts\n"
 * ```
 */
export function renderTree(paths: string[]): string {
  interface Node {
    dirs: Map<string, Node>;
    files: string[];
  }
  const root: Node = { dirs: new Map(), files: [] };
  for (const path of paths) {
    const parts = path.split("/");
    let node = root;
    for (const dir of parts.slice(0, -1)) {
      let next = node.dirs.get(dir);
      if (!next) node.dirs.set(dir, next = { dirs: new Map(), files: [] });
      node = next;
    }
    node.files.push(parts[parts.length - 1]);
  }
  const lines: string[] = [];
  const walk = (node: Node, depth: number) => {
    const pad = "  ".repeat(depth);
    const entries = [
      ...[...node.dirs.keys()].map((name) => ({ name, dir: true })),
      ...node.files.map((name) => ({ name, dir: false })),
    ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.dir) {
        lines.push(`${pad}${headingPath(entry.name)}/`);
        walk(node.dirs.get(entry.name)!, depth + 1);
      } else {
        lines.push(`${pad}${headingPath(entry.name)}`);
      }
    }
  };
  walk(root, 0);
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/**
 * The `tree` section plugin. It composes nothing unless the config sets
 * `tree: true` (or the plugin is created with `enabled: true`).
 *
 * @example
 * ```ts
 * import { treeSection } from "./tree.ts";
 * treeSection().name; // "slop:tree"
 * ```
 */
export function treeSection(options: TreeOptions = {}): SectionPlugin {
  const includeSkipped = options.includeSkipped ?? true;
  return {
    kind: "section",
    name: "slop:tree",
    compose(state: BuildState): Block[] {
      if ((options.enabled ?? state.config.raw.tree) !== true) return [];
      const listed = state.files.filter((f: RenderedFile) =>
        f.status === "rendered" || (includeSkipped && f.status === "skipped")
      );
      if (!listed.length) return [];
      const tree = renderTree(listed.map((f) => f.path));
      const fence = fenceFor(tree);
      return [{
        id: "tree",
        section: "tree",
        stability: "volatile",
        text: `## Directory Tree\n\n${fence}\n${tree}${fence}\n\n`,
      }];
    },
  };
}
