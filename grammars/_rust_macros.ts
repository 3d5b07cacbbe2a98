/**
 * The Rust items a macro call declares (`define_rejection! { pub struct X(Error); }`,
 * `cfg_rt! { pub mod runtime; }`, `thread_local! { static A: Cell<u8> = ...; }`): tree-sitter-rust
 * gives a macro's arguments as a token tree, so the items written at its first level are read from
 * its text, a token at a time. A macro whose text is no Rust item (`vec![1, 2]`, `json!({...})`)
 * declares none.
 *
 * @module
 */

/** An item a macro call declares: its name, kind, signature and whether it is `pub`. */
export interface MacroItem {
  name: string;
  kind: string;
  signature: string;
  public: boolean;
}

/** One token at a token tree's first level: a word, a punctuation mark or a bracketed group. */
interface Token {
  /** The word, the mark, or the group's opening bracket. */
  text: string;
  start: number;
  end: number;
}

/** The keywords that start an item, as the outline's kinds (`type_item` is `type`...). */
const ITEM_KINDS: Record<string, string> = {
  struct: "struct",
  enum: "enum",
  union: "union",
  trait: "trait",
  fn: "fn",
  type: "type",
  mod: "mod",
  const: "const",
  static: "static",
};

/** Words that may come before an item's keyword (`pub(crate) const unsafe fn`). */
const QUALIFIERS = new Set(["pub", "unsafe", "async", "const", "extern", "default", "auto"]);

/** Words that are no item's name (`static ref X`, `static mut X`). */
const NOT_NAMES = new Set(["ref", "mut"]);

/** The end of a string or character literal, or of a comment, that starts at `i`; else -1. */
function skipLiteral(text: string, i: number): number {
  const c = text[i];
  if (c === "/" && text[i + 1] === "/") {
    const end = text.indexOf("\n", i);
    return end < 0 ? text.length : end;
  }
  if (c === "/" && text[i + 1] === "*") {
    // Block comments nest in Rust.
    let depth = 0;
    for (let j = i; j < text.length - 1; j++) {
      if (text[j] === "/" && text[j + 1] === "*") depth++, j++;
      else if (text[j] === "*" && text[j + 1] === "/") {
        j++;
        if (--depth === 0) return j + 1;
      }
    }
    return text.length;
  }
  const raw = (c === "r" || c === "b") && (i === 0 || !/\w/.test(text[i - 1]))
    ? /^b?r(#*)"/.exec(text.slice(i, i + 260))
    : null;
  if (raw) {
    const close = text.indexOf(`"${raw[1]}`, i + raw[0].length);
    return close < 0 ? text.length : close + 1 + raw[1].length;
  }
  if (c === '"') {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === "\\") j++;
      else if (text[j] === '"') return j + 1;
    }
    return text.length;
  }
  if (c === "'") {
    // A character (`'a'`, `'\n'`, `'\u{41}'`), never a lifetime (`'a`, `'static`).
    const char = /^'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'/.exec(
      text.slice(i, i + 12),
    );
    return char ? i + char[0].length : -1;
  }
  return -1;
}

/** A word (a name, a keyword) where the scan stands. */
const WORD = /[\p{L}_][\p{L}\p{N}_]*/uy;

/** The tokens at the first level of a token tree's text (from its opening bracket). */
function firstLevel(tree: string): Token[] {
  const tokens: Token[] = [];
  const opens = "([{";
  const closes = ")]}";
  let depth = 0;
  let group = -1;
  for (let i = 0; i < tree.length;) {
    const skipped = skipLiteral(tree, i);
    if (skipped >= 0) {
      if (depth === 1 && tree[i] !== "/") tokens.push({ text: '"', start: i, end: skipped });
      i = skipped;
      continue;
    }
    const c = tree[i];
    if (opens.includes(c)) {
      if (++depth === 2) group = i;
      i++;
      continue;
    }
    if (closes.includes(c)) {
      if (--depth === 1) tokens.push({ text: tree[group], start: group, end: i + 1 });
      if (depth === 0) break;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(tree);
    const end = word ? i + word[0].length : i + 1;
    if (depth === 1) tokens.push({ text: word ? word[0] : c, start: i, end });
    i = end;
  }
  return tokens;
}

/**
 * The items written at the first level of a macro call's token tree (its text from the opening
 * bracket): each a keyword (`struct`, `enum`, `fn`, `mod`, `const`...) at an item's start (the
 * tree's, or after `;`, a braced group or an attribute) followed by a name.
 *
 * @example
 * ```ts
 * import { macroItems } from "./_rust_macros.ts";
 * macroItems("{ #[status = 400] pub struct Bad(Error); }")[0].signature; // "pub struct Bad(Error)"
 * ```
 */
export function macroItems(tree: string): MacroItem[] {
  const tokens = firstLevel(tree);
  const items: MacroItem[] = [];
  let atStart = true;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    // An attribute (`#[status = 400]`, `#![allow(x)]`) comes before an item, at its start.
    if (token.text === "#" && tokens[i + 1]?.text === "[") {
      i++;
      continue;
    }
    if (token.text === "#" && tokens[i + 1]?.text === "!" && tokens[i + 2]?.text === "[") {
      i += 2;
      atStart = true;
      continue;
    }
    if (token.text === ";" || token.text === "{") {
      atStart = true;
      continue;
    }
    if (!atStart) continue;
    atStart = false;
    // Qualifiers, `pub(crate)`, `extern "C"`, then the keyword and the name.
    const first = i;
    const [j, isPublic] = pastQualifiers(tokens, i);
    const kind = ITEM_KINDS[tokens[j]?.text];
    if (kind === undefined) continue;
    let n = j + 1;
    while (kind === "static" && NOT_NAMES.has(tokens[n]?.text)) n++;
    const name = tokens[n]?.text;
    if (name === undefined || !/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) continue;
    // What follows an item's name in Rust (`fn f(`, `static X:`): else the words are another
    // language's (`html! { <div class={x} static other /> }`).
    if (!FOLLOWS[kind].includes(tokens[n + 1]?.text ?? "")) continue;
    // The signature runs to the item's body, its `;` or its value, whichever comes first.
    let end = n + 1;
    while (end < tokens.length && !ENDS.has(tokens[end].text)) end++;
    let signature = tree.slice(tokens[first].start, tokens[end - 1].end);
    if (tokens[end]?.text === "=" && kind !== "type") signature += " = ...";
    else if (tokens[end]?.text === "=") {
      signature = tree.slice(tokens[first].start, endOf(tokens, end));
    }
    items.push({
      name,
      kind,
      signature: signature.replace(/\s+/g, " "),
      public: isPublic,
    });
    i = end - 1;
  }
  return items;
}

/** Where an item's keyword is, past the qualifiers from `i` on, and whether `pub` is one of them. */
function pastQualifiers(tokens: Token[], i: number): [number, boolean] {
  let j = i;
  let isPublic = false;
  while (j < tokens.length) {
    const word = tokens[j].text;
    if (word === "pub") isPublic = true;
    // `const X: u8 = 1` is a constant, `const unsafe fn f()` a function.
    const next = tokens[j + 1]?.text;
    if (word === "const" && next !== "fn" && !QUALIFIERS.has(next)) break;
    if (!QUALIFIERS.has(word)) break;
    j++;
    if (word === "pub" && tokens[j]?.text === "(") j++;
    if (word === "extern" && tokens[j]?.text === '"') j++;
  }
  return [j, isPublic];
}

/** What may follow an item's name, by kind ("": the token tree's end). */
const FOLLOWS: Record<string, string[]> = {
  struct: ["{", "(", "<", ";", ":", "where", ""],
  union: ["{", "<", "where", ""],
  enum: ["{", "<", ":", "where", ""],
  trait: ["{", "<", ":", "where", ";", ""],
  fn: ["(", "<"],
  type: ["=", "<", ";", ":", "where", ""],
  mod: [";", "{", ""],
  const: [":", "="],
  static: [":", "="],
};

/** What ends an item's signature: its body, its `;`, its value. */
const ENDS = new Set(["{", ";", "="]);

/** The end of the tokens up to the `;` at or after `from` (a type alias's whole line). */
function endOf(tokens: Token[], from: number): number {
  let i = from;
  while (i < tokens.length - 1 && tokens[i + 1].text !== ";") i++;
  return tokens[i].end;
}
