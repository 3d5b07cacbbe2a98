/**
 * The `screenshots` section: `## Screenshots` with one markdown image per
 * file, `![<file name>](<relative path>)`.
 *
 * @module
 */

import { basename, compileGlobs, extname } from "../../pipeline/paths.ts";
import { loadGlobs } from "../../deps.ts";
import { comparePaths, isGlob, normalizeEntryPath, printablePath } from "../../pipeline/helpers.ts";
import type { BuildState, SectionContext, SectionPlugin } from "../../pipeline/types.ts";
import { IMAGE_TYPES, MAX_IMAGES_BYTES, readImageInfo } from "../image_files.ts";

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
      const missing = new Set<string>();
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
            missing.add(entry);
          }
          paths.add(entry);
        }
      }
      const kept = await keepImages([...paths].sort(comparePaths), missing, state, ctx);
      const lines = kept.map((p) => `![${altText(basename(p))}](${encodeLink(p)})`);
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
 * The screenshots to list: a file named like a PNG, JPEG, GIF or WebP is read (its first and last
 * bytes only) and kept when it is a whole image of one of those types, of at most
 * 8000 pixels a side (`MAX_IMAGE_SIDE`) and 3.75 MB (`MAX_IMAGE_BYTES`), whatever the type its
 * name says (a provider sends it as its real type), while all of them stay within 16 MB
 * (`MAX_IMAGES_BYTES`); otherwise it is left out with a warning naming it and why. A missing file
 * stays a link (the caller warned), and other names (`.svg`) are listed unread, as before.
 */
async function keepImages(
  paths: string[],
  missing: Set<string>,
  state: BuildState,
  ctx: SectionContext,
): Promise<string[]> {
  const kept: string[] = [];
  let total = 0;
  for (const path of paths) {
    if (!missing.has(path) && IMAGE_TYPES[extname(path).toLowerCase()]) {
      const info = await readImageInfo(`${state.root}/${path}`).catch((error) =>
        // Deno's message ends with the call and the absolute path (`: open '/home/...'`).
        `cannot read it (${
          String(error instanceof Error ? error.message : error).replace(/: \w+ '.*'$/s, "")
        })`
      );
      const over = typeof info === "string"
        ? info
        : await overTotal(`${state.root}/${path}`, total);
      if (typeof over === "string") {
        ctx.warn(`Screenshot "${printablePath(path)}" left out: ${over}`);
        continue;
      }
      total += over;
    }
    kept.push(path);
  }
  return kept;
}

/**
 * An image's size in bytes, or why it is left out: the images before it (in path order) and it
 * would be more than the providers take in one request ({@linkcode MAX_IMAGES_BYTES}).
 */
async function overTotal(path: string, before: number): Promise<number | string> {
  // Gone since it was read: the payload leaves it out in its turn.
  const size = (await Deno.stat(path).catch(() => undefined))?.size ?? 0;
  if (before + size <= MAX_IMAGES_BYTES) return size;
  return `the screenshots before it hold ${before} bytes, and its ${size} would take them over ` +
    `the limit of ${MAX_IMAGES_BYTES} bytes a request`;
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
