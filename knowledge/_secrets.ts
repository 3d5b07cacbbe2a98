/**
 * The seam that keeps secrets out of knowledge files and out of harvest
 * prompts. Every text the harvest sends to a model, and every line it
 * appends to a knowledge file, goes through a {@linkcode SecretScrubber}.
 *
 * The default runs slop's rule table (`pipeline/secret_rules.ts`, the same
 * rules as the build's scanner), its prose-only rule (any value of 8+
 * characters assigned to a password, token or API key name: a chat says
 * `password = 'correct-horse'`, code rarely does) and the config's
 * `secrets.rules`. Prompts are also redacted with every rule, secretlint
 * included, by `completer()` before they are sent.
 *
 * @module
 */

import { applyRedactions, findSecrets, type SecretMatch } from "../pipeline/secret_rules.ts";
import { userSecretRules } from "../pipeline/secrets.ts";

/** Replaces secrets in a text; returns the text and the names of the rules that matched. */
export type SecretScrubber = (text: string) => { text: string; found: string[] };

/**
 * The built-in scrubber, with extra rules (name -> regular expression
 * source, as in the config's `secrets.rules`). Matches become
 * `[REDACTED:<rule>]`, named by the rule's id (`aws-access-key-id`,
 * `github-token`: the names knowledge files have always used); the prose
 * rule's matches read `[REDACTED:secret]` and are listed as `assignment`.
 *
 * @example
 * ```ts
 * import { basicScrubber } from "./_secrets.ts";
 * basicScrubber()("key: AKIAABCDEFGHIJKLMNOP").text; // "key: [REDACTED:aws-access-key-id]"
 * ```
 */
export function basicScrubber(rules: Record<string, string> = {}): SecretScrubber {
  const user = userSecretRules(rules);
  return (input: string) => {
    const found: SecretMatch[] = findSecrets(input, {
      prose: true,
      label: (shape) => shape.prose ? "assignment" : shape.id,
    });
    // A value the prose rule finds is named by it (`[REDACTED:secret]`), also when the
    // password rule finds the same value.
    const prose = new Set(
      found.filter((m) => m.rule === "assignment").map((m) => `${m.start}:${m.end}`),
    );
    const matches = found.filter((m) =>
      m.rule !== "named-password" || !prose.has(`${m.start}:${m.end}`)
    );
    for (const rule of user) {
      rule.pattern.lastIndex = 0;
      for (const m of input.matchAll(rule.pattern)) {
        if (!m[0]) continue;
        const value = m[1] ?? m[0];
        const start = m.index! + (m[1] === undefined ? 0 : m[0].indexOf(m[1]));
        if (value) matches.push({ start, end: start + value.length, rule: rule.name });
      }
    }
    const { findings } = applyRedactions(input, matches);
    // Merged matches keep the name of the first; the text names the prose rule's matches `secret`.
    const text = applyRedactions(
      input,
      matches.map((m) => ({
        ...m,
        rule: m.rule === "assignment" ? "secret" : m.rule,
      })),
    ).text;
    return { text, found: findings.map((f) => f.rule) };
  };
}
