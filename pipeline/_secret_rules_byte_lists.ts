/**
 * The rule for a key written as a list of its bytes under a key's name (`secret_rules.ts` is the
 * public face): zigbee2mqtt's `network_key: [1, 2, …]` (a flow list or a YAML block of `- N`
 * items), a Python or C constant `NETWORK_KEY = [0x5E, 0x3F, …]`, `{0x.., …}`. The token rules
 * read a value of letters and digits; a list of numbers is none, so a key's 16 bytes written
 * apart passed them all.
 *
 * @module
 */

import { nameBefore, type TextHints } from "./_secret_rules_common.ts";
import { namesOf } from "./_secret_rules_names.ts";
import { PUBLIC_KEY_NAME } from "./_secret_rules_short.ts";

type Span = { start: number; end: number };

/** A name whose last word is `key` (`network_key`, `NETWORK_KEY`, `aesKey`, `"key"`). */
const KEY_NAME = /(?:(?<![A-Za-z])(?:key|KEY|Key)|(?<=[a-z0-9])Key)["']?\]?[ \t]{0,16}$/;
/** After the operator: blanks and a list's opening (`[`, `{`, `(`), or a YAML block's first `- `. */
const LIST_OPEN = /[ \t]{0,16}(?:(?<flow>[[{(])|(?=\r?\n[ \t]{0,64}-[ \t]))/y;
/** A byte: `0x` and one or two hex digits, or a decimal number of up to three digits. */
const BYTE = /^(?:0[xX][0-9A-Fa-f]{1,2}|[0-9]{1,3})$/;
/** A flow list's items up to its close (64 at most: a key's bytes, not a table). */
const FLOW_ITEMS =
  /[ \t]{0,16}(?<items>(?:[ \t\r\n]{0,64}[0-9A-Fa-fxX]{1,4}[ \t]{0,16},){15,63}[ \t\r\n]{0,64}[0-9A-Fa-fxX]{1,4}),?[ \t\r\n]{0,64}[\]})]/dy;
/** A YAML block's items, `- N` each on a line, 16 to 64 of them. */
const BLOCK_ITEMS =
  /(?:\r?\n[ \t]{0,64}-[ \t]{1,16}[0-9A-Fa-fxX]{1,4}[ \t]{0,16}(?=[\r\n]|$)){16,64}/y;

/**
 * The byte lists under a key's name (see the module's notes): 16 to 64 bytes, at least half of
 * them different (a random key's 16 bytes hold about 15 values; a table of flags or a run of
 * zeros is no key), not in runs (zigbee2mqtt's documented default `[1, 3, 5, …, 0, 2, 4, …]`,
 * a test's `[1, 2, 3, …]` or `[11, 22, 33, …]`). A public key's name is passed by.
 *
 * @example
 * ```ts
 * import { findByteListKeys } from "./_secret_rules_byte_lists.ts";
 * const key = "network_key: [1, 3, 5, 7, 9, 2, 4, 6, 8, 10, 12, 14, 16, 11, 13, 15]";
 * findByteListKeys(key); // [{ start: 14, end: 68 }]
 * findByteListKeys("ext_pan_id: [221, 221, 221, 221, 221, 221, 221, 221]"); // []
 * ```
 */
export function findByteListKeys(text: string, hints?: TextHints): Span[] {
  const out: Span[] = [];
  for (const at of namesOf(text, hints).operators) {
    LIST_OPEN.lastIndex = at + 1;
    const open = LIST_OPEN.exec(text);
    if (!open) continue;
    const name = nameBefore(text, at);
    if (!KEY_NAME.test(name) || PUBLIC_KEY_NAME.test(name)) continue;
    const items = open.groups!.flow ? FLOW_ITEMS : BLOCK_ITEMS;
    items.lastIndex = LIST_OPEN.lastIndex;
    const m = items.exec(text);
    if (!m) continue;
    const flow = open.groups!.flow !== undefined;
    const body = flow ? m.groups!.items : m[0];
    const bytes = body.split(/[,\s-]+/).filter((b) => b !== "");
    if (!bytes.every((b) => BYTE.test(b) && Number(b) <= 255)) continue;
    const values = bytes.map(Number);
    if (new Set(values).size * 2 < values.length || ordered(values)) continue;
    // from the first byte to the last (a block's `- ` before its first byte stays)
    const first = body.search(/[0-9]/);
    const start = (flow ? m.indices!.groups!.items[0] : LIST_OPEN.lastIndex) + first;
    out.push({ start, end: start + body.slice(first).trimEnd().length });
  }
  return out;
}

/**
 * Whether bytes go in runs: one step in four or more the same as the step before it (a random
 * key's steps repeat about one in 256).
 */
function ordered(values: number[]): boolean {
  let same = 0;
  for (let i = 2; i < values.length; i++) {
    if (values[i] - values[i - 1] === values[i - 1] - values[i - 2]) same++;
  }
  return same * 4 >= values.length;
}
