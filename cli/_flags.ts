/**
 * Checks of flag values shared by several commands; each returns the error
 * message (naming the flag and the value) or undefined.
 *
 * @module
 */

/** The document formats of `--format`. */
export const FORMATS = ["markdown", "xml", "json"];

/** The strategies of `--strategy`. */
export const STRATEGIES = ["auto", "summarize", "full"];

/**
 * The error for a `--format` value, if it is not a document format.
 *
 * @example
 * ```ts
 * import { formatFlagError } from "./_flags.ts";
 * formatFlagError("yaml"); // 'Invalid --format "yaml": expected markdown, xml or json'
 * ```
 */
export function formatFlagError(format: string | undefined): string | undefined {
  if (format === undefined || FORMATS.includes(format)) return undefined;
  return `Invalid --format "${format}": expected markdown, xml or json`;
}

/**
 * The error for a `--strategy` value, if it is not a strategy.
 *
 * @example
 * ```ts
 * import { strategyFlagError } from "./_flags.ts";
 * strategyFlagError("auto"); // undefined
 * ```
 */
export function strategyFlagError(strategy: string | undefined): string | undefined {
  if (strategy === undefined || STRATEGIES.includes(strategy)) return undefined;
  return `Invalid --strategy "${strategy}": expected auto, summarize or full`;
}
