/**
 * `slop skill`: where slop's agent skill is, so that copying it needs no path typed by hand:
 * `cp -r "$(slop skill)" .claude/skills/`. The skill ships beside `cli.ts` (`skills/slop/`).
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printError } from "./_output.ts";

/** The skill's folder beside this module's `cli.ts`. */
const SKILL_FOLDER = new URL("../skills/slop/", import.meta.url);

/**
 * The path of the folder of slop's agent skill (`…/skills/slop`), or an error that says why there
 * is none: this slop runs from a URL, or its files lack the skill.
 *
 * @example
 * ```ts
 * import { skillFolder } from "./skill.ts";
 * await skillFolder(); // { path: "/home/me/slop/skills/slop" }
 * ```
 */
export async function skillFolder(
  folder: URL = SKILL_FOLDER,
): Promise<{ path: string } | { error: string }> {
  if (folder.protocol !== "file:") {
    return {
      error: `This slop runs from ${folder.origin}, not from files on this machine: its skill is ` +
        `${new URL("SKILL.md", folder).href} (save it as SKILL.md in a folder "slop" of your ` +
        "agent's skills folder)",
    };
  }
  const path = fileURLToPath(folder).replace(/[\\/]$/, "");
  const found = await Deno.stat(join(path, "SKILL.md")).then((s) => s.isFile, () => false);
  return found
    ? { path }
    : { error: `No agent skill at "${path}": this copy of slop lacks skills/slop/SKILL.md` };
}

/**
 * Run `slop skill`: print the skill's folder; resolves to the exit code (1 when there is none).
 *
 * @example
 * ```ts
 * import { runSkill } from "./skill.ts";
 * // await runSkill(); // prints "/home/me/slop/skills/slop"
 * ```
 */
export async function runSkill(): Promise<number> {
  const found = await skillFolder();
  if ("error" in found) {
    printError(found.error);
    return 1;
  }
  console.log(found.path);
  return 0;
}
