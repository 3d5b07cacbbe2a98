/**
 * Globs that would take too long to match (see `globStarProblem` in `_glob.ts`): a config error
 * naming the key, or a flag error naming the flag, before any path is matched.
 *
 * @module
 */

import { globStarProblem } from "./_glob.ts";
import { pathText, quote, type Rule } from "./schema.ts";

/**
 * A path or glob (as `pathText()`), whose segments picomatch matches hold at most three `*`.
 *
 * @example
 * ```ts
 * import { globText } from "./_glob_rule.ts";
 * globText()("{a,b}*x*y*z*", "include[0]").length; // 1
 * ```
 */
export function globText(): Rule {
  const path = pathText();
  const rule: Rule = (v, p) => {
    const problems = path(v, p);
    if (problems.length) return problems;
    const problem = globStarProblem(v as string);
    return problem ? [`"${p}" ${quote(v as string)} ${problem}`] : [];
  };
  // A union (a `files` entry: a path or an object) reports its problems for a string.
  (rule as { stringRule?: boolean }).stringRule = true;
  return rule;
}

/**
 * The message of the first glob flag (`--include`, `--ignore`, `--focus`) that would take too long
 * to match or holds a NUL byte, or undefined.
 *
 * @example
 * ```ts
 * import { globFlagProblem } from "./_glob_rule.ts";
 * globFlagProblem({ include: ["src/**"] }); // undefined
 * ```
 */
export function globFlagProblem(
  flags: { include?: string[]; ignore?: string[]; focus?: string[] },
): string | undefined {
  for (const [flag, patterns] of Object.entries(flags)) {
    for (const pattern of patterns ?? []) {
      // As `globText()` refuses one in a config's glob: no file name holds a NUL byte.
      const problem = pattern.includes("\0")
        ? "holds a NUL byte, which no file name can"
        : globStarProblem(pattern);
      if (problem) return `Option --${flag} ${quote(pattern)} ${problem}`;
    }
  }
  return undefined;
}
