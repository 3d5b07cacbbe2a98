/**
 * The `screenshots` section: `## Screenshots` with one markdown image per
 * file, `![<file name>](<relative path>)`.
 *
 * @module
 */

import { basename, compileGlobs } from "../../pipeline/paths.ts";
import { loadGlobs } from "../../deps.ts";
import { comparePaths, isGlob, normalizeEntryPath, printablePath } from "../../pipeline/helpers.ts";
import type { SectionPlugin } from "../../pipeline/types.ts";

/** Options of {@linkcode screenshotsSection} (none yet). */
export type ScreenshotsOptions = Record<never, never>;

/**
 * The `screenshots` section plugin. Globs are matched under the root; a
 * literal path that does not exist is a warning.
 *
 * @example
 * ```ts
 * import { screenshotsSection } from "./screenshots.ts";
 * screenshotsSection().name; // "slop:screenshots"
 * ```
 */
export function screenshotsSection(_options: ScreenshotsOptions = {}): SectionPlugin {
  return {
    kind: "section",
    name: "slop:screenshots",
    async compose(state, ctx) {
      const entries = state.config.screenshots.map(normalizeEntryPath);
      if (!entries.length) return [];
      const paths = new Set<string>();
      let all: string[] | undefined;
      for (const entry of entries) {
        if (isGlob(entry)) {
          all ??= await ctx.listFiles();
          await loadGlobs(entry);
          const match = compileGlobs(entry, { dot: true });
          const found = all.filter((p) => match(p));
          if (!found.length) ctx.warn(`No screenshot matches "${entry}"`);
          found.forEach((p) => paths.add(p));
        } else {
          try {
            await Deno.stat(`${state.root}/${entry}`);
          } catch {
            ctx.warn(`Screenshot not found: "${entry}"`);
          }
          paths.add(entry);
        }
      }
      const lines = [...paths].sort(comparePaths).map((p) =>
        `![${altText(basename(p))}](${encodeLink(p)})`
      );
      return [{
        id: "screenshots",
        section: "screenshots",
        stability: "stable",
        text: `## Screenshots\n\n${lines.join("\n")}\n\n`,
      }];
    },
  };
}

/**
 * A path as a markdown link destination: the characters that would end or break it (space,
 * parentheses, angle brackets, controls) and `%` itself are percent-encoded. (`encodeURIComponent`
 * leaves `(` and `)` as they are, so a name with `)` ended the link early.)
 */
function encodeLink(path: string): string {
  return path.replace(
    LINK_BREAKERS,
    (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"),
  );
}

// deno-lint-ignore no-control-regex
const LINK_BREAKERS = /[\x00-\x20()<>%\x7f]/g;

/** A file name as an image's alt text: one line, brackets and backslashes escaped. */
function altText(name: string): string {
  return printablePath(name).replace(/[\\[\]]/g, (c) => "\\" + c);
}
