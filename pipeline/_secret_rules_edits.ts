/**
 * A text read with some of its spans replaced, and the way back from a place in what was read to
 * the place in the text. The rules read a text again this way where a format hid a secret: an
 * escape read as the one character it stands for (`%2F` as `/`, `&quot;` as `"`), a `\` line
 * continuation or the `" + "` between two literals read as nothing. A match found in what was
 * read is redacted in the text over what it covers there, each escape whole.
 *
 * @module
 */

import { firstIndex } from "./_first_index.ts";

/**
 * One span of a text read as something else: `length` characters from `index` read as `text`
 * (one character: an escape decoded; or none: a joint removed).
 */
export interface Edit {
  index: number;
  length: number;
  text: string;
}

/**
 * A piece of a text with edits made: what the rules read, and the way back. `at[k]` is where
 * edit `k`'s text starts in `text`, `size[k]` how long it is there (0 or 1), and `shift[k]` how many
 * more characters the source has than `text` before edit `k` (`shift[k + 1]` after it).
 */
export interface EditedText {
  /** What the rules read. */
  text: string;
  /** Where the piece starts in the source. */
  from: number;
  at: number[];
  size: number[];
  shift: number[];
}

/**
 * The source from `from` to `to` with `edits` made (in order, apart, each inside the piece).
 *
 * @example
 * ```ts
 * import { editText } from "./_secret_rules_edits.ts";
 * editText("a%2Fb", [{ index: 1, length: 3, text: "/" }]).text; // "a/b"
 * ```
 */
export function editText(
  source: string,
  edits: Edit[],
  from = 0,
  to: number = source.length,
): EditedText {
  const parts: string[] = [];
  const out: EditedText = { text: "", from, at: [], size: [], shift: [0] };
  let read = 0; // characters of `text` so far
  let done = from; // where the source is copied up to
  for (const e of edits) {
    parts.push(source.slice(done, e.index), e.text);
    read += e.index - done;
    out.at.push(read);
    out.size.push(e.text.length);
    out.shift.push(out.shift[out.shift.length - 1] + e.length - e.text.length);
    read += e.text.length;
    done = e.index + e.length;
  }
  parts.push(source.slice(done, to));
  out.text = parts.join("");
  return out;
}

/**
 * Where the read character at `p` starts in the source: at its escape's first character when it
 * is a decoded one, after a removed span that stands just before it.
 *
 * @example
 * ```ts
 * import { editText, sourceStart } from "./_secret_rules_edits.ts";
 * sourceStart(editText("a%2Fb", [{ index: 1, length: 3, text: "/" }]), 1); // 1
 * sourceStart(editText("a%2Fb", [{ index: 1, length: 3, text: "/" }]), 2); // 4
 * ```
 */
export function sourceStart(view: EditedText, p: number): number {
  // the edits wholly before `p`: their text ends at `p` or before (a removal at `p` too)
  return view.from + p + view.shift[countBefore(view, p, 0)];
}

/**
 * Where the read characters before `p` end in the source: after the whole escape of a decoded
 * last character, before a removed span that stands at `p`.
 *
 * @example
 * ```ts
 * import { editText, sourceEnd } from "./_secret_rules_edits.ts";
 * sourceEnd(editText("a%2Fb", [{ index: 1, length: 3, text: "/" }]), 2); // 4
 * sourceEnd(editText("a\\\nb", [{ index: 1, length: 2, text: "" }]), 1); // 1
 * ```
 */
export function sourceEnd(view: EditedText, p: number): number {
  // the edits wholly before `p` that do not start at `p` (a removal there is after the match)
  return view.from + p + view.shift[countBefore(view, p, 1)];
}

/**
 * Whether an edit stands inside the read span from `start` to `end` (after its first character:
 * a match that merely starts at a decoded one was there to find without it).
 *
 * @example
 * ```ts
 * import { crossesEdit, editText } from "./_secret_rules_edits.ts";
 * const view = editText("a%2Fb", [{ index: 1, length: 3, text: "/" }]);
 * crossesEdit(view, 0, 3); // true
 * crossesEdit(view, 2, 3); // false
 * ```
 */
export function crossesEdit(view: EditedText, start: number, end: number): boolean {
  const k = countBefore(view, start + 1, 1); // the first edit after `start`
  return k < view.at.length && view.at[k] < end;
}

/**
 * Whether the read character at `start` comes right after a decoded escape (an edit of one
 * character): a token there was not to find without it, its escape's last hex digit glued to
 * its first letter (`%3DAKIA…`, `%2Fghp_…`: no word's boundary before it).
 *
 * @example
 * ```ts
 * import { afterDecoded, editText } from "./_secret_rules_edits.ts";
 * const view = editText("a%3Db", [{ index: 1, length: 3, text: "=" }]);
 * afterDecoded(view, 2); // true
 * afterDecoded(view, 1); // false
 * ```
 */
export function afterDecoded(view: EditedText, start: number): boolean {
  const k = countBefore(view, start, 1) - 1; // the last edit that ends at `start` or before
  return k >= 0 && view.size[k] === 1 && view.at[k] + 1 === start;
}

/**
 * How many edits (in order) end at `p` or before, an edit of no text counted as one of `least`
 * characters: a binary search, so that a piece of many edits maps each match in a few steps.
 */
function countBefore(view: EditedText, p: number, least: number): number {
  return firstIndex(view.at.length, (i) => view.at[i] + Math.max(view.size[i], least) <= p);
}
