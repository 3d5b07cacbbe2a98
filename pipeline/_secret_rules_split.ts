/**
 * Tokens wrapped over lines (`secret_rules.ts` is the public face). A token written so was cut at
 * its line's end (a wrapped key's next line was left): the rules read the text around each such
 * joint again with it removed (see `joinedMatches` in `secret_rules.ts`; a token written with
 * escapes is read so too, see `tokenEscapes` in `_secret_rules_escapes.ts`).
 *
 * @module
 */

import type { Edit } from "./_secret_rules_edits.ts";

/**
 * A line end inside a token wrapped over lines: after 3 of a token's characters (the shortest
 * prefix, `hf_`; a token cut in its first 8 was left), before a line
 * (after its indent) that is the rest of the token, 8 of its characters at least, alone or before
 * a closing mark or a blank, and not a name given a value (`DEBUG=1`, `other: 1`). From the `\n`:
 * a search for it skips to each line end.
 */
const WRAP =
  /\n(?<=[A-Za-z0-9_+/=.:$-]{3}\r?\n)[ \t]{0,64}(?=[A-Za-z0-9_+/.$-]{8,4096}={0,3}(?:$|[)\]}"'`,;&\s](?![ \t]{0,64}[=:])))/gm;

/** The rest of a wrapped token on its next line (sticky, from after the indent). */
const RUN_AFTER = /[A-Za-z0-9_+/=.$-]{0,4096}/y;
/** A character of a token's piece before a wrap's line end. */
const RUN_CHARACTER = /[A-Za-z0-9_+/=.:$-]/;

/**
 * What the rest of a wrapped token holds, and a word or a name alone does not: a digit, or a
 * lower case letter before a capital (a key's letters change case at random; `Admin Key: …` or
 * `-Secret Access Key` on the line after a key is that line's own).
 */
const TOKEN_REST = /[0-9]|[a-z][A-Z]/;

/** {@linkcode WRAP} from a line end (sticky): where a match of the rules ends. */
const WRAP_AT =
  /\r?\n[ \t]{0,64}(?=[A-Za-z0-9_+/.$-]{8,4096}={0,3}(?:$|[)\]}"'`,;&\s](?![ \t]{0,64}[=:])))/my;

/**
 * The line ends of `text` inside a token wrapped over lines, with the `\r` before and the indent
 * after each: after a match of the rules that ends at its line's end (`ends`: where the matches so
 * far end), where the next line goes on as a token (see {@linkcode TOKEN_REST}), so that a key
 * found whole at its line's end before a word on the next line stays as found; and, when `search`
 * (a text with a token's prefix), after a piece that was no match of its own (its head alone too
 * short: `AKIA0A1B2C` then `DEFGHIJKLM`) where the piece holds a prefix (`gates`: the token gate
 * and the prefix gate). From each, the lines after while each is the token's rest alone (a key in
 * base64 wrapped at 76 characters). Joints for the token rules to read the text again with them
 * removed.
 *
 * @example
 * ```ts
 * import { wrapJoints } from "./_secret_rules_split.ts";
 * wrapJoints("key sk-ant-api03-abcdefgh\n  ijk1mnop\n", [25], [], false); // [{ index: 25, length: 3, text: "" }]
 * wrapJoints("KEY=abcdefgh12345678\nDEBUG=1\n", [20], [], false); // []
 * ```
 */
export function wrapJoints(
  text: string,
  ends: number[],
  gates: RegExp[],
  search: boolean,
): Edit[] {
  const out = new Map<number, Edit>();
  let reached = -1;
  for (const end of [...new Set(ends)].sort((a, b) => a - b)) {
    if (end > reached) reached = chainFrom(text, end, out);
  }
  if (!search) return [...out.values()];
  const matched = new Set(ends);
  WRAP.lastIndex = 0;
  for (const m of text.matchAll(WRAP)) {
    const at = m.index - (text.charCodeAt(m.index - 1) === 13 ? 1 : 0);
    if (at <= reached || matched.has(at) || !holdsPrefix(text, at, gates)) continue;
    reached = chainFrom(text, at, out, true);
  }
  return [...out.values()].sort((a, b) => a.index - b.index);
}

/**
 * The joints from `at` (a line end) on into `out`: the line end when the next line goes on as
 * the token (its rest holds {@linkcode TOKEN_REST}, or `first` says the piece before needs no
 * such proof), then each next line end while the line is the token's rest alone. Where it stops.
 */
function chainFrom(text: string, at: number, out: Map<number, Edit>, first = false): number {
  for (let proven = first;; proven = false) {
    WRAP_AT.lastIndex = at;
    const m = WRAP_AT.exec(text);
    if (!m) return at;
    RUN_AFTER.lastIndex = at + m[0].length;
    const rest = RUN_AFTER.exec(text)![0];
    if (!proven && !TOKEN_REST.test(rest)) return at;
    out.set(at, { index: at, length: m[0].length, text: "" });
    at += m[0].length + rest.length;
    if (text.charCodeAt(at) !== 10 && !(text.charCodeAt(at) === 13 && text[at + 1] === "\n")) {
      return at;
    }
  }
}

/**
 * Whether the run of a token's characters that ends at `at` (4 KB at most) holds a prefix: read
 * with the next line's run after it, the line end and indent left out, so that a gate that reads
 * on past its prefix (8 of the token's characters, Airtable's 64 hex digits after `pat….`) reads
 * the token whole; a prefix counts where it starts in the run.
 */
function holdsPrefix(text: string, at: number, gates: RegExp[]): boolean {
  let from = at;
  while (from > at - 4096 && RUN_CHARACTER.test(text[from - 1] ?? "")) from--;
  let piece = text.slice(from, at);
  WRAP_AT.lastIndex = at;
  const joint = WRAP_AT.exec(text);
  if (joint) {
    RUN_AFTER.lastIndex = at + joint[0].length;
    piece += RUN_AFTER.exec(text)![0];
  }
  return gates.some((gate) => {
    gate.lastIndex = 0;
    const m = gate.exec(piece);
    return m !== null && m.index < at - from;
  });
}
