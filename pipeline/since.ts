/**
 * Git-scoped builds: `--since REF` puts the files changed since REF in
 * focus (`git diff --name-only REF` plus untracked files), relative to the
 * project root.
 *
 * @module
 */

import { gitConfigRead, gitDeadlineMs, gitOutput, NO_REASON, runGit, TIMED_OUT } from "./_git.ts";
import { mayBeInWorkTree } from "./git_folders.ts";
import {
  configuredNotRegular,
  guardedGit,
  guardedListing,
  isBlocked,
  notRegularAttributes,
  notRegularIgnoreText,
} from "./_git_ignore_files.ts";

/**
 * A `--since` that git cannot answer: not a work tree, or an unknown ref.
 *
 * @example
 * ```ts
 * import { SinceError } from "./since.ts";
 * new SinceError("Unknown git revision \"nope\" for --since").name; // "SinceError"
 * ```
 */
export class SinceError extends Error {
  /** @param message What is wrong, naming the ref. */
  constructor(message: string) {
    super(message);
    this.name = "SinceError";
  }
}

/** Why a ref may be unknown: a shallow clone, or a repository with no commit yet. */
async function sinceHint(root: string): Promise<string> {
  // A shallow clone (CI checkouts fetch one commit) lacks the history the ref names.
  const shallow = await runGit(["rev-parse", "--is-shallow-repository"], root);
  if (shallow?.trim() === "true") {
    return ': the clone is shallow, "git fetch --unshallow" (or --deepen <n>) brings its history';
  }
  // A fresh `git init` (or an orphan branch) names no commit, HEAD included.
  const head = await runGit(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], root);
  if (!head?.trim()) {
    return ": HEAD names no commit yet (a new repository or an orphan branch): commit once, " +
      "or build without --since";
  }
  // `--since main` copied into a repository whose branch is `master` (or `trunk`): name them.
  const refs = await runGit(
    ["for-each-ref", "--count=9", "--format=%(refname)", "refs/heads", "refs/remotes"],
    root,
  );
  const branches = (refs ?? "").split("\n").filter((r) => r && !r.endsWith("/HEAD"))
    .slice(0, 8).map((r) => r.replace(/^refs\/(heads|remotes)\//, ""));
  return branches.length ? ` (branches here: ${branches.join(", ")})` : "";
}

/**
 * The commit `ref` names in `root`'s repository; a `SinceError` when it names none. The ref is
 * resolved alone, then peeled to its commit: a suffix on the ref would be read as part of a
 * message search (`:/fix` looked for "fix^{commit}"), and a ref to a tree or a blob is named as
 * such, not as a damaged repository.
 */
async function commitOf(root: string, ref: string): Promise<string> {
  const object = objectOf(ref, await gitOutput(["rev-parse", "--verify", "--quiet", ref], root));
  if (!object) {
    throw new SinceError(`Unknown git revision "${ref}" for --since${await sinceHint(root)}`);
  }
  const peeled = await gitOutput(["rev-parse", "--verify", "--quiet", `${object}^{commit}`], root);
  const kind = peeled !== TIMED_OUT && "failed" in peeled
    ? /dereferences to (\w+) type/.exec(peeled.failed)?.[1]
    : undefined;
  if (kind) {
    throw new SinceError(
      `Invalid --since "${ref}": it names a ${kind}, not a commit; name a branch, a tag or a ` +
        "commit (HEAD~1)",
    );
  }
  const commit = objectOf(ref, peeled);
  if (!commit) throw new SinceError(`Unknown git revision "${ref}" for --since`);
  return commit;
}

/**
 * What git says of an object or a pack it cannot read (`loose object … is corrupt`, `inflate:
 * data stream error`, `bad object`, `unable to read …`), as opposed to a ref it refuses for a
 * reason of its own (`no upstream configured for branch 'main'`, `HEAD does not point to a
 * branch`), which is no damage.
 */
const DAMAGE =
  /corrupt|inflate|bad object|object file|(unable to|could not|cannot|failed to) (read|unpack|parse)|invalid object|pack ?file|premature end|short read/i;

/**
 * The object a `rev-parse --verify --quiet` answered, empty when it named none. `--quiet` keeps an
 * unknown ref silent: a reason on stderr is a repository git cannot read (a damaged object),
 * which "names no commit yet" would hide, or a ref git refuses with its reason (`@{u}` of a branch
 * with no upstream), which is named as such.
 */
function objectOf(ref: string, answer: Awaited<ReturnType<typeof gitOutput>>): string {
  if (answer !== TIMED_OUT && "failed" in answer && answer.failed !== NO_REASON) {
    if (!DAMAGE.test(answer.failed)) {
      throw new SinceError(`Invalid --since "${ref}": ${answer.failed}`);
    }
    throw new SinceError(
      `Cannot use --since "${ref}": git cannot read the repository (${answer.failed}): ` +
        '"git fsck" names what is damaged',
    );
  }
  return answer !== TIMED_OUT && "out" in answer ? answer.out.trim() : "";
}

/**
 * The files under `root` changed since `ref`: modified, added or renamed in
 * the work tree compared with `ref` (deleted files are left out, they cannot
 * be rendered), plus untracked files that git does not ignore. Sorted,
 * `/`-separated, relative to `root`. Throws when `root` is not in a git work
 * tree or `ref` names no commit.
 *
 * @example
 * ```ts
 * import { changedSince } from "./since.ts";
 * // await changedSince("/repo", "HEAD~1"); // ["src/a.ts", "notes.md"]
 * ```
 */
export async function changedSince(root: string, ref: string): Promise<string[]> {
  const inside = await gitOutput(["rev-parse", "--is-inside-work-tree"], root);
  if (inside === TIMED_OUT || !("out" in inside) || inside.out.trim() !== "true") {
    // A .git that git refuses (another user's, damaged, no git installed) is named as such.
    const refused = inside !== TIMED_OUT && "failed" in inside && mayBeInWorkTree(root);
    throw new SinceError(
      `Cannot use --since "${ref}": ` +
        (refused
          ? `git cannot read the repository (${inside.failed})`
          : `"${root}" is not inside a git work tree`),
    );
  }
  if (ref.startsWith("-")) throw new SinceError(`Unknown git revision "${ref}" for --since`);
  const sha = await commitOf(root, ref);
  const deadlineMs = gitDeadlineMs();
  const changed = await changedFiles(root, sha, deadlineMs);
  if (isBlocked(changed)) {
    throw new SinceError(
      `Cannot list the files changed since "${ref}": ${notRegularIgnoreText(changed.notRegular)}`,
    );
  }
  const listed = await guardedListing(
    root,
    (signal) =>
      gitOutput(["ls-files", "--others", "--exclude-standard", "-z"], root, { deadlineMs, signal }),
    { config: gitConfigRead(root) },
  );
  if (isBlocked(listed)) {
    throw new SinceError(
      `Cannot list the untracked files for --since "${ref}": ${
        notRegularIgnoreText(listed.notRegular)
      }`,
    );
  }
  const untracked = listed === TIMED_OUT ? listed : "out" in listed ? listed.out : undefined;
  if (untracked === TIMED_OUT) {
    throw new SinceError(
      `Cannot list the untracked files for --since "${ref}": git ls-files ran past its deadline ` +
        `of ${deadlineMs} ms (a .gitignore pattern git matches slowly, such as "**/**/...")`,
    );
  }
  if (changed === TIMED_OUT || !("out" in changed) || untracked === undefined) {
    const why = changed === TIMED_OUT
      ? ` (git diff ran past its deadline of ${deadlineMs} ms)`
      : "failed" in changed
      ? ` (${changed.failed})`
      : "";
    throw new SinceError(`Cannot list the files changed since "${ref}" with git${why}`);
  }
  const paths = new Set<string>();
  for (const path of [...changed.out.split("\0"), ...untracked.split("\0")]) {
    if (path) paths.add(path);
  }
  return [...paths].sort();
}

/**
 * The tracked files that differ from commit `sha` (`git diff`, which reads the attributes of a
 * file it compares with the work tree, and the file `core.excludesFile` names): git's answer, or
 * those files that are no regular file once git is a second late (a FIFO would hold it).
 */
function changedFiles(root: string, sha: string, deadlineMs: number) {
  // --no-renames: rename detection reads contents a partial clone has not fetched (a renamed
  // file is listed by its new name either way).
  const args = ["diff", "--name-only", "--no-renames", "--relative", "--diff-filter=d", "-z", sha];
  const config = gitConfigRead(root);
  return guardedGit(
    (signal) => gitOutput([...args, "--"], root, { deadlineMs, signal }),
    async (stop) => [
      ...await notRegularAttributes(root, config, stop),
      ...await configuredNotRegular(root, "core.excludesFile", config),
    ],
  );
}
