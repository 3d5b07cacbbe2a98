/**
 * Paths that hold a secret: a token in a file or folder name (`notes/ghp_….md`,
 * `AKIA…/a.txt`). Such a file is left out of the build before anything records its path
 * (document, manifest, caches, order memory), as the rule table finds it in one scan of all the
 * paths. Used by the resolve stage.
 *
 * @module
 */

import { redactSync } from "./_scan.ts";
import { countLineEnds } from "./secret_rules.ts";

/**
 * Split `paths` into those without a secret and those with one; each of the latter as it may be
 * shown (its secret redacted).
 *
 * @example
 * ```ts
 * import { splitSecretPaths } from "./_secret_paths.ts";
 * const { kept, dropped } = splitSecretPaths(["a.ts", `k/AKIA${"Q".repeat(16)}.txt`]);
 * // kept: ["a.ts"], dropped: ["k/[REDACTED:aws].txt"]
 * ```
 */
export function splitSecretPaths(
  paths: string[],
  rules: Record<string, string> = {},
): { kept: string[]; dropped: string[] } {
  // One text, one path a line. A finding names its line as `countLineEnds` counts them (a name
  // may hold `\n`, `\r` or another line end): each path spans that many lines of the joined text, and is dropped
  // whole when any of them holds a finding.
  const joined = paths.join("\n");
  const { text, findings } = redactSync(joined, rules);
  if (!findings.length) return { kept: paths, dropped: [] };
  const hit = new Set(findings.map((f) => f.line));
  // The redacted text's lines, split as the findings count them: a dropped path is shown from
  // these (the joined text is what found its secret).
  const shown = text.split(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/);
  const kept: string[] = [];
  const dropped: string[] = [];
  let line = 1;
  let at = 0;
  for (const path of paths) {
    const lines = 1 + countLineEnds(joined, at, at + path.length);
    let secret = false;
    for (let i = 0; i < lines; i++) secret ||= hit.has(line + i);
    if (secret) dropped.push(shown.slice(line - 1, line - 1 + lines).join("\n"));
    else kept.push(path);
    line += lines;
    at += path.length + 1;
  }
  return { kept, dropped };
}
