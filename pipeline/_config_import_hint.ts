/**
 * What to do when a config cannot load because the copy of slop it imports
 * is not where the import says: `slop init` writes the import as a path from
 * the project to the slop that ran it, and that path does not hold on a
 * teammate's machine or after slop moved.
 *
 * @module
 */

import { dirname, relative, sep } from "./_path.ts";

/**
 * Deno's words for an import of slop by a package name (`slop/config`, `@slop/slop/config`,
 * `jsr:@slop/slop@0.1.0/config`, `npm:slop`), which no import map holds; not `slopify`.
 */
const SLOP_BY_NAME =
  /Import "((?:jsr:|npm:)?(?:@slop\/)?slop(?:@[\w.^~-]*)?(?:\/[\w.]*)?)" not a dependency/;

/** The modules of slop a config imports (its package's exports). */
const ENTRY_POINTS = new Set(["config.ts", "mod.ts"]);

/**
 * A hint for Deno's message `detail` of a config at `configPath` that could not
 * load: when the missing module is one of slop's entry points, the import to
 * write instead (this slop's, relative to the config), else undefined.
 *
 * @example
 * ```ts
 * import { slopImportHint } from "./_config_import_hint.ts";
 * slopImportHint('Module not found "file:///old/slop/config.ts".', "/p/slop.config.ts");
 * // 'the config imports slop from "/old/slop/config.ts", which is not there: point the import at this slop ("../.../config.ts"), or drop it and defineConfig (which only adds types): `export default { ... }`'
 * ```
 */
export function slopImportHint(detail: string, configPath: string): string | undefined {
  const bare = detail.match(SLOP_BY_NAME)?.[1];
  if (bare) return byName(bare, thisSlop("config.ts", configPath));
  const missing = detail.match(/Module not found "(file:\/\/[^"]+)"/)?.[1];
  if (!missing) return undefined;
  const name = missing.slice(missing.lastIndexOf("/") + 1);
  if (!ENTRY_POINTS.has(name)) return undefined;
  const path = thisSlop(name, configPath);
  // `deno install -g -c deno.json` runs slop with a copy of its deno.json in the install folder,
  // where Deno resolves slop's own package name (`jsr:@slop/slop/config`): no slop there.
  if (isInstallCopy(new URL(".", missing))) {
    return byName("jsr:@slop/slop/…", path);
  }
  return `the config imports slop from "${fromFileUrl(missing)}", which is not there: ` +
    `point the import at this slop (${path}), or drop it and defineConfig (which only adds ` +
    `types): \`export default { ... }\``;
}

/** What is wrong with an import of slop by a package name, and the import to write. */
function byName(specifier: string, path: string): string {
  return `the config imports slop by a package name ("${specifier}"), which is not published: ` +
    `import slop's files by path or URL, this slop's as ${path}`;
}

/** This slop's `name` (an entry point) as a config at `configPath` imports it, quoted. */
function thisSlop(name: string, configPath: string): string {
  const here = new URL(`../${name}`, import.meta.url);
  let path = here.protocol === "file:"
    ? relative(dirname(configPath), fromFileUrl(here)).split(sep).join("/")
    : here.href;
  if (!/^(\.|[a-z]+:)/.test(path)) path = `./${path}`;
  return `"${path}"`;
}

/** Whether `folder` holds a copy of slop's deno.json without slop's modules beside it. */
function isInstallCopy(folder: URL): boolean {
  if (folder.protocol !== "file:") return false;
  try {
    const json = JSON.parse(Deno.readTextFileSync(new URL("deno.json", folder)));
    return json?.name === "@slop/slop" && !exists(new URL("mod.ts", folder));
  } catch {
    return false;
  }
}

function exists(url: URL): boolean {
  try {
    Deno.statSync(url);
    return true;
  } catch {
    return false;
  }
}

/** The path of a file: URL (`node:url` stays out of a build's start). */
function fromFileUrl(url: string | URL): string {
  const path = decodeURIComponent(new URL(url).pathname);
  return /^\/[A-Za-z]:/.test(path) ? path.slice(1).replaceAll("/", "\\") : path;
}
