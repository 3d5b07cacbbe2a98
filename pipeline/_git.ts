/**
 * Thin wrappers over the `git` command. Every function returns `undefined`
 * when git is missing or the folder is not a work tree.
 *
 * @module
 */

/** Run git in `cwd`; stdout as text, or undefined on any failure. */
export async function runGit(args: string[], cwd: string): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("git", {
      args,
      cwd,
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
    }).output();
    if (!out.success) return undefined;
    return new TextDecoder().decode(out.stdout);
  } catch {
    return undefined;
  }
}

/**
 * Files git sees under `root`: tracked plus untracked-but-not-ignored
 * (`git ls-files -co --exclude-standard`), relative to `root`, or undefined
 * outside a work tree.
 */
export async function gitFiles(root: string): Promise<string[] | undefined> {
  // One process: `ls-files` fails outside a work tree (no repository, inside `.git`, a bare
  // repository) just as `rev-parse --is-inside-work-tree` says "false" there.
  const out = await runGit(["ls-files", "-co", "--exclude-standard", "-z"], root);
  if (out === undefined) return undefined;
  const seen = new Set<string>();
  for (const path of out.split("\0")) if (path) seen.add(path);
  return [...seen];
}
