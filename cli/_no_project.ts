/**
 * A build with no config and no paths bundles every file under the folder it runs in. In the
 * file system's root or the home folder that is a crawl of the whole disk or of everything the
 * user owns, which runs for minutes before it fails or writes a document nobody wanted: slop
 * says so instead, as `slop mcp` does when it starts there.
 *
 * @module
 */

import { parse } from "node:path";

/** Thrown for a build that has no project to bundle; the CLI exits 2 (bad input). */
export class NoProjectError extends Error {}

/**
 * Throw when `root` is the file system's root or the home folder.
 *
 * @example
 * ```ts
 * import { checkProjectRoot } from "./_no_project.ts";
 * checkProjectRoot("/tmp/project"); // nothing: a project folder
 * ```
 */
export function checkProjectRoot(root: string): void {
  const which = broadFolder(root);
  if (!which) return;
  throw new NoProjectError(
    `No project here: "${root}" is ${which}, and without a config slop would bundle every file ` +
      "under it; run slop in a project's folder, or name what to bundle (slop build src/)",
  );
}

/**
 * What `root` (a real path) is when it is a folder no project lives in: "the file system's root"
 * or "your home folder"; undefined for any other folder. `slop mcp` asks it too.
 *
 * @example
 * ```ts
 * import { broadFolder } from "./_no_project.ts";
 * broadFolder("/"); // "the file system's root"
 * ```
 */
export function broadFolder(root: string): string | undefined {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (root === parse(root).root) return "the file system's root";
  if (home !== undefined && root === realPathOrSelf(home)) return "your home folder";
  return undefined;
}

function realPathOrSelf(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}
