/**
 * The rule for a file that holds a key alone (`secret_rules.ts` is the public face): Rails'
 * `config/master.key` and `config/credentials/<env>.key` hold 32 hex digits and nothing else, with
 * no name around them. A build reads such a file only when its path is named (`*.key` files are
 * skipped otherwise), and then its text is all there is to judge it by.
 *
 * @module
 */

/**
 * A whole text that is 32, 64, 96 or 128 hex digits of one case (a key of 128 to 512 bits), with a
 * BOM before and a line end after maybe: a commit id (40) or a hash with its file's name is not.
 */
const KEY_ALONE = /^\uFEFF?(?:(?:[0-9a-f]{32}){1,4}|(?:[0-9A-F]{32}){1,4})(?=(?:\r?\n|\r)?$)/;

/**
 * The key of a text that holds one alone (see {@linkcode KEY_ALONE}), with letters and digits
 * both: 32 digits alone are a number.
 *
 * @example
 * ```ts
 * import { findKeyFile } from "./_secret_rules_key_file.ts";
 * findKeyFile("1c1dafbaef8b9a658b7638578d4aede6\n"); // [{ start: 0, end: 32 }]
 * findKeyFile("# key\n1c1dafbaef8b9a658b7638578d4aede6\n"); // []
 * ```
 */
export function findKeyFile(text: string): Array<{ start: number; end: number }> {
  if (text.length > 131) return [];
  const m = KEY_ALONE.exec(text);
  if (!m || !/[0-9]/.test(m[0]) || !/[a-fA-F]/.test(m[0])) return [];
  const start = m[0].startsWith("\uFEFF") ? 1 : 0;
  return [{ start, end: m[0].length }];
}
