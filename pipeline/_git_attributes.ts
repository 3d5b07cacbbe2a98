/**
 * What a project's `.gitattributes` says about its files that a bundle should heed: files marked
 * `binary` (or `-diff`: git shows no text diff of them), generated (`linguist-generated`) or
 * vendored (`linguist-vendored`) are skipped by default, as lockfiles and minified files are.
 *
 * @module
 */
import { gitConfigRead, gitDeadlineMs, gitOutput, TIMED_OUT } from "./_git.ts";
import {
  guardedGit,
  isBlocked,
  notRegularAbove,
  notRegularAttributes,
  notRegularIgnoreText,
} from "./_git_ignore_files.ts";
import { join } from "./_path.ts";

/** The attributes asked of git, in the order their reasons are taken. */
const ATTRIBUTES = ["diff", "linguist-generated", "linguist-vendored"] as const;

const NAME_IT = 'skipped by default: name it in "files" to include it';

/** Why a file an attribute marks is skipped. */
const REASONS: Record<(typeof ATTRIBUTES)[number], string> = {
  diff: `marked binary in .gitattributes ("binary" or "-diff"), ${NAME_IT}`,
  "linguist-generated": `marked generated in .gitattributes (linguist-generated), ${NAME_IT}`,
  "linguist-vendored": `marked vendored in .gitattributes (linguist-vendored), ${NAME_IT}`,
};

/**
 * The files of a git work tree that its attributes mark binary, generated or vendored, each with
 * the reason it is skipped. git answers for them all at once (`git check-attr --stdin`), so every
 * `.gitattributes` (nested ones, `.git/info/attributes`, `core.attributesFile`) counts as git
 * reads it, those above the root too (a build of a monorepo's folder): git is asked whether or
 * not the listing holds a `.gitattributes` file. When git fails or runs past its deadline, no file
 * is marked. When one of them (or `.git/info/attributes`) is no
 * regular file, git is not asked, and when the file `core.attributesFile` names is none, git is
 * stopped: `options.warnings` gets one naming them. `options.notGenerated` gets the files marked
 * `linguist-generated=false` (or `-linguist-generated`): a build does not judge them by their text.
 *
 * @example
 * ```ts
 * import { attributeSkips } from "./_git_attributes.ts";
 * const skips = await attributeSkips(Deno.cwd(), ["src/a.ts", ".gitattributes"]);
 * skips.get("src/a.ts"); // undefined: no attribute marks it
 * ```
 */
export async function attributeSkips(
  root: string,
  paths: string[],
  options: { warnings?: string[]; notGenerated?: Set<string> } = {},
): Promise<Map<string, string>> {
  const skips = new Map<string, string>();
  if (!paths.length) return skips;
  const files = paths.filter((p) => p === ".gitattributes" || p.endsWith("/.gitattributes"));
  // One that is no regular file (a FIFO) would hold git: git is not asked, or is stopped once
  // it is a second late and the file `core.attributesFile` names is such a one.
  const blocked = [...files, ".git/info/attributes"].filter((p) => !regularOrMissing(join(root, p)))
    .map((p) => `"${p}"`);
  blocked.push(...notRegularAbove(root, ".gitattributes", "attributes"));
  const deadlineMs = gitDeadlineMs();
  const stdin = paths.map((p) => p + "\0").join("");
  const answer = blocked.length ? { notRegular: blocked } : await guardedGit(
    (signal) =>
      gitOutput(["check-attr", "-z", "--stdin", ...ATTRIBUTES], root, {
        deadlineMs,
        stdin,
        signal,
      }),
    (stop) => notRegularAttributes(root, gitConfigRead(root), stop),
  );
  if (isBlocked(answer)) {
    const instead = "no file is marked binary, generated or vendored by .gitattributes";
    options.warnings?.push(notRegularIgnoreText(answer.notRegular, instead));
    return skips;
  }
  if (answer === TIMED_OUT || !("out" in answer)) return skips;
  eachAnswer(answer.out, (path, attribute, value) => {
    if (attribute === "linguist-generated" && (value === "unset" || value === "false")) {
      options.notGenerated?.add(path);
    }
    if (skips.has(path) || !marks(attribute, value)) return;
    skips.set(path, REASONS[attribute as keyof typeof REASONS]);
  });
  return skips;
}

/**
 * Each answer of `git check-attr -z` (path, attribute, value, each ended by NUL, for every path and
 * attribute) whose value is not `unspecified`: those mark nothing, and are most of a big tree's
 * answers (three a file), so none of their texts is cut out (a split of the output made a string
 * of each path, attribute and value).
 */
function eachAnswer(
  out: string,
  each: (path: string, attribute: string, value: string) => void,
): void {
  for (let at = 0; at < out.length;) {
    const s1 = out.indexOf("\0", at);
    const s2 = s1 < 0 ? -1 : out.indexOf("\0", s1 + 1);
    if (s2 < 0) return;
    const ends = out.indexOf("\0", s2 + 1);
    const end = ends < 0 ? out.length : ends;
    const unspecified = end - s2 === UNSPECIFIED.length + 1 && out.startsWith(UNSPECIFIED, s2 + 1);
    if (!unspecified) each(out.slice(at, s1), out.slice(s1 + 1, s2), out.slice(s2 + 1, end));
    at = end + 1;
  }
}

/** The value git gives an attribute no rule sets. */
const UNSPECIFIED = "unspecified";

/** Whether `path` is a regular file (links followed), or is not there at all. */
function regularOrMissing(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return true; // Missing (or a dangling link): git reads no attributes from it, and waits on none.
  }
}

/** Whether an attribute's value marks a file: `-diff` (which `binary` sets), or a set flag. */
function marks(attribute: string, value: string): boolean {
  if (attribute === "diff") return value === "unset";
  return attribute in REASONS && (value === "set" || value === "true");
}
