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
 * tree's, or after `;`, a braced group or an attribute) followed by a name; and those of
 * `cfg_if!`'s branches (`if #[cfg(unix)] { ... } else { ... }`), at most {@linkcode MAX_DEPTH}
 * deep (`depth`: how deep this tree is).
 *
 * @example
 * ```ts
 * import { macroItems } from "./_rust_macros.ts";
 * macroItems("{ #[status = 400] pub struct Bad(Error); }")[0].signature; // "pub struct Bad(Error)"
 * ```
 */
export function macroItems(tree: string, depth = 0): MacroItem[] {
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
    // `cfg_if!`'s branches (`if #[cfg(unix)] { items } else { items }`) hold items of this level.
    const branch = branchBody(tokens, i);
    const inner = branch === undefined ? "" : tree.slice(tokens[branch].start, tokens[branch].end);
    if (branch !== undefined) {
      if (depth < MAX_DEPTH) items.push(...macroItems(inner, depth + 1));
      i = branch;
      continue;
    }
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

/** How deep branches and bodies inside a macro call are read (each level reads its text again). */
const MAX_DEPTH = 4;

/**
 * Where the braced group of a `cfg_if!` branch starting at `i` is (`if #[cfg(x)] {`, `else if
 * #[cfg(y)] {`, `else {`), or undefined when none starts there.
 */
function branchBody(tokens: Token[], i: number): number | undefined {
  let j = i;
  if (tokens[j]?.text === "else") j++;
  if (tokens[j]?.text === "if") {
    if (tokens[j + 1]?.text !== "#" || tokens[j + 2]?.text !== "[") return undefined;
    j += 3;
  } else if (j === i) return undefined;
  return tokens[j]?.text === "{" ? j : undefined;
}

/** An edit of a macro call's text: from `start` to `end` (in its token tree's text), `text`. */
export interface MacroEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * What a skeleton leaves out of a macro call's token tree, as it does of the same items written
 * outside one: each function's body (`fn f() { ... }`, in an `impl`, a `trait` or a `mod` group
 * too), a `const` or `static` value over `maxLines` lines, and the branches of `cfg_if!` read as
 * items. A call whose first level declares no item and runs over `maxLines` lines (http's
 * 900-line `standard_headers! { ... }` table) is one `{ ... }` (`( ... )`, `[ ... ]`). Empty when
 * nothing is left out.
 *
 * @example
 * ```ts
 * import { macroEdits } from "./_rust_macros.ts";
 * macroEdits("{ pub fn f() {\n    1\n} }", 12); // [{ start: 14, end: 23, text: "{ ... }" }]
 * ```
 */
export function macroEdits(tree: string, maxLines: number, depth = 0): MacroEdit[] {
  const tokens = firstLevel(tree);
  const edits: MacroEdit[] = [];
  let items = 0;
  let atStart = true;
  for (let i = 0; i < tokens.length; i++) {
    const text = tokens[i].text;
    if (text === "#" && tokens[i + 1]?.text === "[") {
      i++;
      continue;
    }
    if (text === ";" || text === "{") {
      atStart = true;
      continue;
    }
    if (!atStart) continue;
    atStart = false;
    const group = itemGroup(tokens, i);
    if (group === undefined) continue;
    items++;
    const [at, kind] = group;
    if (at < 0) continue;
    i = at;
    atStart = true;
    if (kind === "value") {
      const end = valueEnd(tokens, at);
      if (rowsOf(tree, tokens[at].start, tokens[end].end) > maxLines) {
        edits.push({ start: tokens[at].start, end: tokens[end].end, text: "..." });
      }
      i = end;
    } else if (kind === "body" && /\S/.test(tree.slice(tokens[at].start + 1, tokens[at].end - 1))) {
      edits.push({ start: tokens[at].start, end: tokens[at].end, text: "{ ... }" });
    } else if (kind === "items" && depth < MAX_DEPTH) {
      const inner = tree.slice(tokens[at].start, tokens[at].end);
      for (const e of macroEdits(inner, maxLines, depth + 1)) {
        edits.push({
          start: e.start + tokens[at].start,
          end: e.end + tokens[at].start,
          text: e.text,
        });
      }
    }
  }
  if (items || depth > 0 || rowsOf(tree, 0, tree.length) <= maxLines) return edits;
  const open = tree[0];
  const close = tree.trimEnd().at(-1) ?? "";
  return [{
    start: 0,
    end: tree.trimEnd().length,
    text: open === "{" ? "{ ... }" : `${open}...${close}`,
  }];
}

/**
 * The group of tokens an item starting at `i` holds that a skeleton may leave out: a function's
 * body (`body`), an `impl`'s, a `trait`'s or a `mod`'s items or a `cfg_if!` branch's (`items`), a
 * `const`'s or `static`'s value's first token (`value`); `[-1, ""]` for another item, undefined
 * where no item starts.
 */
function itemGroup(tokens: Token[], i: number): [number, string] | undefined {
  const branch = branchBody(tokens, i);
  if (branch !== undefined) return [branch, "items"];
  const [j] = pastQualifiers(tokens, i);
  const word = tokens[j]?.text;
  if (word !== "impl" && ITEM_KINDS[word] === undefined) return undefined;
  // A signature's end: its body or its `;` (`fn f() -> impl Iterator<Item = u8> {` has an `=`).
  let k = j + 1;
  const value = word === "const" || word === "static";
  while (k < tokens.length && !(value ? ENDS : BODY_ENDS).has(tokens[k].text)) k++;
  if (value) return tokens[k]?.text === "=" && k + 1 < tokens.length ? [k + 1, "value"] : [-1, ""];
  if (tokens[k]?.text !== "{") return [-1, ""];
  if (word === "fn") return [k, "body"];
  return word === "impl" || word === "trait" || word === "mod" ? [k, "items"] : [-1, ""];
}

/** What ends a function's, an `impl`'s or a type's head. */
const BODY_ENDS = new Set(["{", ";"]);

/** The last token of a value from `from`: the one before its `;`, or the tree's last. */
function valueEnd(tokens: Token[], from: number): number {
  let i = from;
  while (i < tokens.length - 1 && tokens[i + 1].text !== ";") i++;
  return i;
}

/** How many lines the text from `start` to `end` is on. */
function rowsOf(text: string, start: number, end: number): number {
  let rows = 1;
  for (let at = text.indexOf("\n", start); at >= 0 && at < end; at = text.indexOf("\n", at + 1)) {
    rows++;
  }
  return rows;
}
