/**
 * Paths that hold a secret: a token in a file or folder name (`notes/ghp_….md`,
 * `AKIA…/a.txt`). Such a file is left out of the build before anything records its path
 * (document, manifest, caches, order memory), as the rule table finds it in one scan of all the
 * paths. Used by the resolve stage.
 *
 * @module
 */

import { redactSync } from "./_scan.ts";

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
  // One text, one path a line (a name holds no newline that git lists unquoted: a name that
  // does is one line per piece, each scanned, and the whole path dropped with its first line).
  const joined = paths.join("\n");
  const { text, findings } = redactSync(joined, rules);
  if (!findings.length) return { kept: paths, dropped: [] };
  const hit = new Set(findings.map((f) => f.line));
  const shown = text.split("\n");
  const kept: string[] = [];
  const dropped: string[] = [];
  let line = 1;
  for (const path of paths) {
    const lines = path.split("\n").length;
    let secret = false;
    for (let i = 0; i < lines; i++) secret ||= hit.has(line + i);
    if (secret) dropped.push(shown.slice(line - 1, line - 1 + lines).join("\n"));
    else kept.push(path);
    line += lines;
  }
  return { kept, dropped };
}
