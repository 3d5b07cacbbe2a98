/**
 * The config's names that slop writes into file names: a persona's and a preset's name make the
 * lock's name (`slop.<persona>.<preset>.lock`), a file committed with the project. A name that
 * holds a secret would put it there (and in every message that names the file), so it is a config
 * error.
 *
 * @module
 */

import { redactSync } from "./_scan.ts";
import type { SlopConfig } from "./types.ts";

/**
 * A problem for each persona or preset whose name holds a secret (by slop's rules and the
 * config's own `secrets.rules`), naming its key path with the secret redacted.
 *
 * @example
 * ```ts
 * import { secretNameProblems } from "./_config_names.ts";
 * secretNameProblems({ files: [], personas: { worker: {} } }); // []
 * ```
 */
export function secretNameProblems(raw: SlopConfig): string[] {
  const problems: string[] = [];
  const rules = raw.secrets?.rules ?? {};
  for (const key of ["personas", "presets"] as const) {
    for (const name of Object.keys(raw[key] ?? {})) {
      const shown = redactSync(name, rules).text;
      if (shown === name) continue;
      const kind = key === "personas" ? "persona" : "preset";
      problems.push(
        `"${key}.${shown}": a ${kind}'s name holds a secret (it names the lock file); rename it`,
      );
    }
  }
  return problems;
}
