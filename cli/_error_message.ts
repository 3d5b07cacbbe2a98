/**
 * The text a command prints for an error it stops on.
 *
 * @module
 */

import { UnknownNameError } from "../pipeline/config.ts";

/**
 * The error's message; a persona or preset the config does not define also names the flag that
 * asked for it (`--persona`, `--preset`), since the config file it names is not at fault.
 *
 * @example
 * ```ts
 * import { commandErrorText } from "./_error_message.ts";
 * commandErrorText(new Error("boom")); // "boom"
 * ```
 */
export function commandErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof UnknownNameError ? `${message} (--${error.kind})` : message;
}
