/**
 * The seam that keeps secrets out of knowledge files and out of harvest
 * prompts. Every text the harvest sends to a model, and every line it
 * appends to a knowledge file, goes through a {@linkcode SecretScrubber}.
 *
 * The default is a small built-in rule set (obvious key shapes plus the
 * config's `secrets.rules`). It is a stop-gap: the project's secret scanner
 * (issue 8) should replace {@linkcode basicScrubber} here, and nothing else
 * in the harvest needs to change.
 *
 * @module
 */

/** Replaces secrets in a text; returns the text and the names of the rules that matched. */
export type SecretScrubber = (text: string) => { text: string; found: string[] };

const BUILTIN_RULES: Array<[string, RegExp]> = [
  ["private-key", /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g],
  ["aws-access-key-id", /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ["github-token", /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g],
  ["api-key", /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g],
  ["slack-token", /\bxox[abprs]-[A-Za-z0-9-]{10,}/g],
  ["google-api-key", /\bAIza[0-9A-Za-z_-]{35}\b/g],
  [
    "assignment",
    /\b([A-Za-z0-9_]*?(?:api[_-]?key|secret|token|password|passwd)[A-Za-z0-9_]*["']?\s*[:=]\s*["']?)((?=[^\s"'`]*[A-Za-z])[^\s"'`]{8,})/gi,
  ],
];

/**
 * The built-in scrubber, with extra rules (name -> regular expression
 * source, as in the config's `secrets.rules`). Matches become
 * `[REDACTED:<rule>]`.
 *
 * @example
 * ```ts
 * import { basicScrubber } from "./_secrets.ts";
 * basicScrubber()("key: AKIAABCDEFGHIJKLMNOP").text; // "key: [REDACTED:aws-access-key-id]"
 * ```
 */
export function basicScrubber(rules: Record<string, string> = {}): SecretScrubber {
  const all: Array<[string, RegExp]> = [
    ...BUILTIN_RULES,
    ...Object.entries(rules).map(([name, source]): [string, RegExp] => [
      name,
      new RegExp(source, "g"),
    ]),
  ];
  return (input: string) => {
    const found: string[] = [];
    let text = input;
    for (const [name, pattern] of all) {
      text = text.replace(pattern, (...match: string[]) => {
        found.push(name);
        return name === "assignment" ? `${match[1]}[REDACTED:secret]` : `[REDACTED:${name}]`;
      });
    }
    return { text, found };
  };
}
