/**
 * Tokens written in pieces under no hint of their own: split over string literals by any
 * language's join (`"dop_v" + "1_…"`, Lua's `..`, OCaml's `^`, Elixir's `<>`, Zig's and
 * Haskell's `++`, Julia's `*`, SQL's `||`, Fortran's `//`, ABAP's `&&`, Jinja's, Twig's and D's
 * `~`, Smalltalk's `,` after `:=` or `^`, a list's `,` that `paste0`,
 * `strings.Join`, `"".join` or an Erlang binary (`<<"…", "…">>`) joins, a shell's `"…""…"`) or wrapped over lines (a log's, a folded YAML scalar's, a
 * heredoc's), cut anywhere: inside the prefix too, where no prefix is left whole for a hint to
 * find (`secret_rules.ts` is the public face). Each joint's pieces are read as one by a test the
 * rules give; a joint is kept where a token crosses it.
 *
 * @module
 */

import type { Edit } from "./_secret_rules_edits.ts";

/**
 * Between two string literals: a closing quote, blanks, one language's join or a list's `,` (or
 * none, or a `\` before a line end; Fortran's `//` and its `&` continuation, VB's `& _`), maybe a line end and indent and a join there, and an opening
 * quote; or the next statement's literal appended to a name (`x += "…"`, PHP's `.=`, Tcl's
 * `append x "…"`); or a literal put in a template's text (`` `sk_live_${"…"}…` ``), from its `${` and to
 * its `}`; a token's character before and after (a look each way: a search that stops at every
 * quote, not at every character).
 */
const LITERAL_JOINT =
  /["'`](?<=[A-Za-z0-9_+/=.:$~-]["'`])(?:[ \t]{0,16}(?:(?:\+{1,2}|\.{1,2}|\^|<>|\*|&&?(?:[ \t]{1,16}_(?=\r?\n))?|\|\||,|~|\/\/(?:[ \t]{0,16}&)?|\\(?=\r?\n))[ \t]{0,16})?(?:\r?\n[ \t]{0,64}(?:(?:\+{1,2}|\.{1,2}|\^|<>|\*|&&?|\|\||,|~|\/\/)[ \t]{0,16})?)?["'`](?=[A-Za-z0-9_+/=.:$~-])|;?[ \t]{0,16}\r?\n[ \t]{0,64}(?:append[ \t]{1,16}[A-Za-z_][\w:]{0,64}[ \t]{1,16}|\$?[A-Za-z_][\w.]{0,64}[ \t]{0,16}(?:\+|\.)=[ \t]{0,16})["'`](?=[A-Za-z0-9_+/=.:$~-])|[ \t]{0,16}\}(?=[A-Za-z0-9_+/=.:$~-]))|\$\{[ \t]{0,16}["'`](?=[A-Za-z0-9_+/=.:$~-])/g;

/**
 * A line end and the next line's indent between two of a token's characters, before a line that
 * goes on as the token's rest alone: 8 of its characters at least, then the line's end, a closing
 * mark or a blank, and no `=` or `:` of a name given a value (`DEBUG=1`, `other: 1`); code's next
 * line seldom is (`foo(`, `x = 1`).
 */
const LINE_JOINT =
  /(?<=[A-Za-z0-9_+/=.:$~-])\r?\n[ \t]{0,64}(?=[A-Za-z0-9_+/=.:$~-]{8,4096}(?:$|[)\]}"'`,;&\s](?![ \t]{0,64}[=:])))/g;

/** The characters of a token's piece (`A-Z`, `a-z`, `0-9`, `_+/=.:$~-`), by code. */
const PIECE = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=.:$~-") {
  PIECE[c.charCodeAt(0)] = 1;
}

/** Whether the character at `at` of `text` is a token's (none outside the text). */
function isPiece(text: string, at: number): boolean {
  return PIECE[text.charCodeAt(at)] === 1;
}

/** The fewest characters of a token read whole: shorter pieces hold no token worth the test. */
const SHORTEST = 16;

/**
 * What a token's pieces read as one hold and a word or a name seldom does: a letter and a digit,
 * or a capital after a small letter and a small letter after a capital (Hugging Face's
 * organisations' tokens are letters alone).
 */
function tokenLike(piece: string, from = 0, to = piece.length): boolean {
  let letter = false, digit = false, up = false, down = false;
  for (let i = from, last = 0; i < to; i++) {
    const c = piece.charCodeAt(i);
    const kind = c >= 48 && c <= 57 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 97 && c <= 122 ? 3 : 0;
    if (kind === 1) digit = true;
    else if (kind) letter = true;
    if (kind === 2 && last === 3) up = true; // a small letter, then a capital
    if (kind === 3 && last === 2) down = true; // a capital, then a small letter
    if ((letter && digit) || (up && down)) return true;
    last = kind;
  }
  return false;
}

/** The most characters a piece is read over (its runs and the joints' runs between). */
const LONGEST = 4096;

/**
 * The joints of `text` inside a token written in pieces: each joint of two literals or line end
 * whose runs of a token's characters on both sides, read as one (with the joints right after the
 * run after, chained: `"ht" + "tps://hooks…" + "…"`), are 16 characters or more like a token
 * ({@linkcode tokenLike}), and where `crosses` (the rules' test of the piece, with the places where its joints
 * were) finds a token across a joint. `lines`: whether line ends are joints too (a caller's text
 * with no token's hint has none read: a search of every text's line ends cost 6% of a scan).
 *
 * @example
 * ```ts
 * import { pieceJoints } from "./_secret_rules_pieces.ts";
 * const crosses = (piece: string, cuts: number[]) => piece.startsWith("sk_live_") && cuts[0] === 5;
 * pieceJoints('k = "sk_li" .. "ve_0123456789abcdef"', crosses); // [{ index: 10, length: 6, text: "" }]
 * ```
 */
export function pieceJoints(
  text: string,
  crosses: (piece: string, cuts: number[]) => boolean,
  lines = true,
): Edit[] {
  const joints = candidates(text, lines);
  const out: Edit[] = [];
  for (let i = 0; i < joints.length;) {
    // a chain: joints each right after the run after the one before
    const chain = [joints[i]];
    let after = runAfter(text, joints[i].index + joints[i].length);
    let gaps = joints[i].length;
    while (++i < joints.length && joints[i].index === after && after - chain[0].index < LONGEST) {
      chain.push(joints[i]);
      gaps += joints[i].length;
      after = runAfter(text, joints[i].index + joints[i].length);
    }
    const from = runBefore(text, chain[0].index);
    // (what no piece of it can pass, the whole chain does not: most line ends of code and prose)
    if (after - from - gaps < SHORTEST || !tokenLike(text, from, after)) continue;
    out.push(...crossed(text, chain, from, after, crosses));
  }
  return out;
}

/**
 * The joints of `chain` (its pieces from `from` to `to`) a token crosses: the chain whole, or
 * without its first or last piece or both (a line's word before a wrapped token, `note.txt` of a
 * heredoc's `cat`, or after it, `EOF`, whose letters would end it or spoil a prefix's look-behind).
 */
function crossed(
  text: string,
  chain: Edit[],
  from: number,
  to: number,
  crosses: (piece: string, cuts: number[]) => boolean,
): Edit[] {
  const n = chain.length;
  for (const [first, last] of [[0, n - 1], [1, n - 1], [0, n - 2], [1, n - 2]]) {
    if (last < first) continue;
    const start = first === 0 ? from : chain[0].index + chain[0].length;
    const end = last === n - 1 ? to : chain[n - 1].index;
    let piece = "";
    let at = start;
    const cuts: number[] = [];
    for (const joint of chain.slice(first, last + 1)) {
      piece += text.slice(at, joint.index);
      cuts.push(piece.length);
      at = joint.index + joint.length;
    }
    piece += text.slice(at, end);
    if (piece.length < SHORTEST || !tokenLike(piece)) continue;
    const joints = chain.slice(first, last + 1);
    if (
      joints.some((j) => listed(text, j)) && !JOIN_CALL.test(around(text, joints)) &&
      !smalltalkJoin(text, joints)
    ) continue;
    if (crosses(piece, cuts)) return joints;
  }
  return [];
}

/**
 * A call that joins a list's literals with nothing between: `"".join(`, `.join("")`, R's
 * `paste0(` or `sep = ""`, Go's `strings.Join(…, "")`, `String.join("", …)`, `concat(`,
 * PHP's `implode("", …)`, Kotlin's `joinToString("")`, an Erlang binary's `<<"` and
 * `iolist_to_binary(`, `list_to_binary(`, `lists:concat(`. A list joined with a separator, or no list
 * joined at all (`{"a": "…", "b": "…"}`), is no token's pieces.
 */
const JOIN_CALL =
  /(?:""|'')[ \t]{0,16}\.[ \t]{0,16}join[ \t]{0,16}\(|\.join[ \t]{0,16}\([ \t]{0,16}(?:""|'')[ \t]{0,16}\)|\bpaste0[ \t]{0,16}\(|\bsep[ \t]{0,16}=[ \t]{0,16}(?:""|'')|\bJoin\([^()]{0,4096},[ \t]{0,16}""[ \t]{0,16}\)|\bjoin\([ \t]{0,16}(?:""|'')[ \t]{0,16},|[Cc]oncat[ \t]{0,16}\(|\bimplode[ \t]{0,16}\([ \t]{0,16}(?:""|'')|joinToString[ \t]{0,16}\([ \t]{0,16}""[ \t]{0,16}\)|<<[ \t]{0,16}"|\b(?:iolist_to_binary|list_to_binary|lists:concat)[ \t]{0,16}\(/;

/**
 * Whether the literals joined by `,` are Smalltalk's concatenation: single-quoted, the first right
 * after an assignment's `:=` or a return's `^` (`key := 'ghp_…' , '…'.`); a list's literals follow
 * a `(`, a `[`, a `{` or a name.
 */
function smalltalkJoin(text: string, joints: Edit[]): boolean {
  const open = runBefore(text, joints[0].index) - 1;
  return text[open] === "'" &&
    /(?::=|\^)[ \t]{0,16}$/.test(text.slice(Math.max(0, open - 20), open));
}

/** Whether a joint of two literals is a list's `,`. */
function listed(text: string, joint: Edit): boolean {
  return text.slice(joint.index, joint.index + joint.length).includes(",");
}

/** The text around `joints`: 256 characters before the first and after the last. */
function around(text: string, joints: Edit[]): string {
  const last = joints[joints.length - 1];
  return text.slice(Math.max(0, joints[0].index - 256), last.index + last.length + 256);
}

/**
 * Every joint of two literals and (when `lines`) every line end with a token's character right
 * before it and one after its indent, in order, apart.
 */
function candidates(text: string, lines: boolean): Edit[] {
  const found: Edit[] = [];
  LITERAL_JOINT.lastIndex = 0;
  for (let m = LITERAL_JOINT.exec(text); m; m = LITERAL_JOINT.exec(text)) {
    found.push({ index: m.index, length: m[0].length, text: "" });
  }
  if (!lines) return found;
  LINE_JOINT.lastIndex = 0;
  for (const m of text.matchAll(LINE_JOINT)) {
    found.push({ index: m.index, length: m[0].length, text: "" });
  }
  found.sort((a, b) => a.index - b.index);
  // (a literal's joint holds its line end: the line's own joint inside it is dropped)
  return found.filter((j, k) => k === 0 || j.index >= found[k - 1].index + found[k - 1].length);
}

/** Where the run of a token's characters that ends at `at` starts (256 back at most). */
function runBefore(text: string, at: number): number {
  let from = at;
  while (from > at - 256 && isPiece(text, from - 1)) from--;
  return from;
}

/** Where the run of a token's characters from `at` ends (4 KB on at most). */
function runAfter(text: string, at: number): number {
  let to = at;
  while (to < at + LONGEST && isPiece(text, to)) to++;
  return to;
}
