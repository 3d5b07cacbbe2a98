/**
 * The MCP server's working folder is the project root, entered once when it starts. A server
 * lives as long as the agent's session, and the folder may be deleted and made again under it
 * meanwhile (`rm -rf app && git clone … app`, a branch switch in a tool that recreates the
 * checkout): the process would stay in the deleted folder, where a config's relative paths and
 * the first load of a package fail with "No such file or directory". Before each call the server
 * enters its folder again when the folder at that path is not the one it is in, and says so in
 * one line when the root is gone. The tools themselves read the config and the paths from the
 * root they are given, whatever the working folder is.
 *
 * @module
 */

/**
 * Throw a one-line error when nothing is at `root`; enter `home` (the folder the server keeps,
 * the root for `slop mcp`) when the working folder is no longer the folder at that path.
 *
 * @example
 * ```ts
 * import { enterRoot } from "./_mcp_root.ts";
 * enterRoot(Deno.cwd()); // nothing to do
 * ```
 */
export function enterRoot(root: string, home: string = root): void {
  try {
    Deno.statSync(root);
  } catch {
    throw new Error(
      `The project folder "${root}" is gone (deleted or moved): start slop mcp again in the ` +
        "project's folder, or with --root <dir>",
    );
  }
  let there: Deno.FileInfo | undefined;
  try {
    there = Deno.statSync(home);
  } catch {
    return; // The folder it kept is gone, the root is not: the tools read from the root.
  }
  let here: Deno.FileInfo | undefined;
  try {
    here = Deno.statSync(".");
  } catch {
    here = undefined;
  }
  if (here?.dev !== there.dev || here?.ino !== there.ino) Deno.chdir(home);
}
