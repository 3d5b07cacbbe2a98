/**
 * YAML's complex keys read as plain ones (`secret_rules.ts` is the public face): a key written
 * after `? ` with its value on the next line after `: ` (`? db_password` then `: …`) is the same
 * mapping as `db_password: …`, which is how the rules read it (see `_secret_rules_edits.ts`).
 *
 * @module
 */

import type { Edit } from "./_secret_rules_edits.ts";

/** YAML files, by name. */
const YAML_FILE = /\.ya?ml$/i;

/**
 * A complex key on a line of its own (group `i` its indent, `k` the key) and the next line's `:`
 * at the same indent, before a blank.
 */
const COMPLEX_KEY =
  /^(?<i>[ \t]{0,64})\?[ \t]{1,16}(?<k>[^\s#][^\r\n]{0,255})\r?\n\k<i>:(?=[ \t])/dgm;

/**
 * The edits that turn each YAML complex key of `text` into a plain one: its `? ` removed, and the
 * line end and indent between the key and its `:`. None when the file (`path`) is not YAML.
 *
 * @example
 * ```ts
 * import { complexKeyEdits } from "./_secret_rules_complex_keys.ts";
 * complexKeyEdits("? password\n: x\n", "a.yml");
 * // [{ index: 0, length: 2, text: "" }, { index: 10, length: 1, text: "" }]
 * ```
 */
export function complexKeyEdits(text: string, path?: string): Edit[] {
  if (!path || !YAML_FILE.test(path) || !text.includes("?")) return [];
  const out: Edit[] = [];
  COMPLEX_KEY.lastIndex = 0;
  for (const m of text.matchAll(COMPLEX_KEY)) {
    const [keyStart, keyEnd] = m.indices!.groups!.k!;
    const mark = m.index! + m.groups!.i.length; // the `?`
    out.push({ index: mark, length: keyStart - mark, text: "" });
    // (the key's own trailing blanks stay: `db_password :` is a key too)
    out.push({ index: keyEnd, length: m.index! + m[0].length - 1 - keyEnd, text: "" });
  }
  return out;
}
