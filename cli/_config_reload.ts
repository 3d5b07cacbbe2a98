/**
 * What `slop watch` needs to reload a changed config: the files the config
 * is made of (the config file and the project modules it imports, found by
 * their relative import specifiers) and a version of their contents, passed
 * to `loadConfig` as a cache-busting query so that the config module is
 * evaluated again.
 *
 * @module
 */

import { dirname, resolve, sep } from "node:path";
import { sha256 } from "../pipeline/read.ts";

/** Relative specifiers of static imports/exports and of dynamic imports of a string literal. */
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)(["'])(\.{1,2}\/[^"'\n]+)\1|\bnew\s+URL\s*\(\s*(["'])(\.{1,2}\/[^"'\n]+)\3\s*,\s*import\.meta\.url/gm;

/** The files a config is made of, and their version. */
export interface ConfigSources {
  /** Absolute paths: the config file, then the project modules it imports (sorted). */
  files: string[];
  /** sha256 over every file's path and contents (a missing file counts as empty). */
  version: string;
}

/**
 * The config file and the modules under `root` it imports, directly or
 * through each other (relative specifiers only: `npm:`, `jsr:` and URLs are
 * not the project's), with a version of their contents.
 *
 * @example
 * ```ts
 * import { configSources } from "./_config_reload.ts";
 * // const { files, version } = await configSources("/p/slop.config.ts", "/p");
 * ```
 */
export async function configSources(configPath: string, root: string): Promise<ConfigSources> {
  const seen = new Set<string>();
  const contents: string[] = [];
  const queue = [resolve(configPath)];
  const inside = (path: string) => path.startsWith(resolve(root) + sep);
  while (queue.length) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    let text = "";
    try {
      text = await Deno.readTextFile(path);
    } catch {
      // A module that is gone still names a source: its return is a change.
    }
    contents.push(`${path}\0${text}`);
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolve(dirname(path), match[2] ?? match[4]);
      if (inside(target) && !target.split(sep).includes("node_modules")) queue.push(target);
    }
  }
  const [config, ...modules] = [...seen];
  return {
    files: [config, ...modules.sort()],
    version: sha256(contents.sort().join("\0")).slice(0, 16),
  };
}
