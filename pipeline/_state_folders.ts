/**
 * A state dir (`--state-dir`, `SLOP_DIR`) or cache folder (`cache.dir`) inside the project that
 * holds the project's own files: slop leaves these folders out of every build, and the state
 * dir's first write puts a `.gitignore` of `*` in it, so the files would go missing from the
 * document, quietly, and from `git status` too. As for `output.dir` (`_output_dir.ts`), that is
 * an error naming where the folder came from and the files, raised before anything is written.
 *
 * @module
 */

import { ConfigError, configName } from "./config.ts";
import { namedPaths } from "./_output_dir.ts";
import { gitConfigRead, gitOutput } from "./_git.ts";
import { mayBeInWorkTree } from "./git_folders.ts";
import { guardedListing } from "./_git_ignore_files.ts";
import { excludedByDefault } from "./_default_skips.ts";
import { walk } from "./_walk.ts";
import { CACHE_FOLDER_NAMES } from "./_cache_folder.ts";
import { isAbsolute, isWithin, relative, sep } from "./_path.ts";
import type { ResolvedConfig } from "./types.ts";

/** What slop writes at the top of a state dir, and of a cache folder. */
const STATE_OWN = new Set([".gitignore", "out", "cache", "order", "budget", "checkpoints"]);
const CACHE_OWN = new Set(CACHE_FOLDER_NAMES);

/**
 * The error for a state dir or cache folder inside the project that holds files of the project
 * (files git lists there, or a walk outside git finds, that slop did not write), or undefined.
 * Only folders that exist, inside the root and not under a folder every build leaves out
 * (`.slop`), are listed: the default places cost nothing.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./config.ts";
 * import { stateFoldersError } from "./_state_folders.ts";
 * const error = await stateFoldersError(await loadConfig({ cwd: Deno.cwd() }));
 * if (error) throw error;
 * ```
 */
export async function stateFoldersError(config: ResolvedConfig): Promise<Error | undefined> {
  const state = await projectFiles(config, config.stateDir, STATE_OWN);
  if (state.length) {
    const message = `The state dir "${folder(config, config.stateDir)}" (--state-dir or ` +
      `SLOP_DIR) holds files of the project (${
        namedPaths(state)
      }): slop leaves its state dir out ` +
      "of the build and hides it from git, so they would be missing from the document; name a " +
      'folder of its own (the default is ".slop")';
    const error = new ConfigError("", [message]);
    error.message = message;
    return error;
  }
  if (config.raw.cache?.dir === undefined || isWithin(config.cache.dir, config.stateDir)) return;
  const cache = await projectFiles(config, config.cache.dir, CACHE_OWN);
  if (!cache.length) return;
  return new ConfigError(configName(config), [
    `cache.dir "${folder(config, config.cache.dir)}" holds files of the project ` +
    `(${namedPaths(cache)}): slop leaves its cache folder out of the build, so they would be ` +
    "missing from the document; name a folder of its own, or leave cache.dir out (the state " +
    "dir's cache/ folder)",
  ]);
}

/** The project's files in `dir` (root-relative), but for what slop writes there. */
async function projectFiles(config: ResolvedConfig, dir: string, own: Set<string>) {
  const rel = folder(config, dir);
  if (!rel || rel.startsWith("..") || isAbsolute(rel) || excludedByDefault(rel)) return [];
  try {
    if (!Deno.statSync(dir).isDirectory) return [];
  } catch {
    return []; // Not made yet: nothing of the project's is in it.
  }
  const outputs = folder(config, config.output.dir);
  return (await listed(config.root, rel)).filter((path) => {
    const first = path.slice(rel.length + 1).split("/")[0];
    return !own.has(first) && !/^[0-9a-f]{2}$/.test(first) && !first.endsWith(".tmp") &&
      path !== outputs && !path.startsWith(outputs + "/");
  });
}

/** The files git lists in the root-relative folder `rel` (tracked, or untracked and not ignored). */
async function listed(root: string, rel: string): Promise<string[]> {
  if (mayBeInWorkTree(root)) {
    // `:(literal)`: a folder named `state[1]` is no pattern.
    const args = ["ls-files", "-co", "--exclude-standard", "-z", "--", `:(literal)${rel}`];
    // A `.gitignore` that is no regular file would hold git: then the walk below lists them.
    const answer = await guardedListing(root, (signal) => gitOutput(args, root, { signal }), {
      config: gitConfigRead(root),
    });
    if (typeof answer === "object" && "out" in answer) {
      return answer.out.split("\0").filter((p) => p.startsWith(rel + "/"));
    }
  }
  // The whole walk: a .gitignore above the folder may leave it out, as a build's listing does.
  return (await walk(root)).filter((p) => p.startsWith(rel + "/"));
}

function folder(config: ResolvedConfig, dir: string): string {
  return relative(config.root, dir).split(sep).join("/");
}
