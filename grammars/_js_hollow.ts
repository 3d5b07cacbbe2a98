/**
 * Function bodies of JavaScript and TypeScript source hollowed out before
 * parsing, for views that never show them (`skeleton` and `outline`):
 * tree-sitter builds a node for every token of a body only for the view to
 * replace the body with `{ ... }`, and bodies are most of a file (a bundle
 * wrapped in one function is nearly all body). A hollowed body keeps its `{`
 * and `}` where they were; what lies between becomes `0;` and a block comment
 * of spaces and the same line breaks, which the parser reads as one statement
 * and one comment. Every offset, row and column outside the hollowed text is
 * unchanged, so the view's edits, signatures and symbols are the same.
 *
 * A body is the `{` after `=>`, or after the `)` (and return type) of a
 * parameter list: one that follows `function`, or a member name in a class
 * body or object literal. Control blocks (`if (...) {`), class bodies, object
 * literals, namespaces and types are read but never hollowed, and only the
 * outermost bodies are. A text this reader is not sure of is not hollowed: a
 * string, template, comment or regular expression left open, a bracket left
 * open or closed twice, an escape outside a string, and JSX in JavaScript read
 * without it.
 *
 * JSX is read where JavaScript and TSX allow it (a `<` where an expression
 * starts): elements, fragments, attributes (strings have no escapes), text
 * children (where quotes and slashes start nothing) and expressions in braces,
 * read as any other. In TSX, `<T,>`, `<T extends U>` and `<T = U>` there open
 * the type parameters of a generic arrow function. A closing tag of another
 * name, a `>` or `}` in text, an attribute value without quotes or braces and
 * an expression-starting `<T>(` in TSX are not read.
 *
 * @module
 */

import {
  fits,
  type HollowOptions,
  type HollowRegion,
  hollowText,
  MIN_HOLLOW,
  TooManyTokens,
  unlessUnsure,
  Unsure,
} from "./_hollow.ts";

/** What an open bracket is, for the tokens inside it and after its close. */
type Kind =
  | "paren" // ( ... )
  | "bracket" // [ ... ]
  | "template" // ${ ... } of a template literal
  | "block" // a statement block, a namespace, a switch, or a `{` not known to be more
  | "object" // an object literal (or an object type in a position an expression could take)
  | "class" // a class body
  | "type" // an object type in a return type
  | "body" // a function body
  | "jsx" // a JSX element or fragment open (its opening tag, then its children)
  | "jsxattr" // { ... } in a JSX opening tag
  | "jsxchild"; // { ... } among a JSX element's children

interface Frame {
  kind: Kind;
  /** Index of the open bracket. */
  at: number;
  /** A `(`: the parameter list of a function or method. */
  params?: boolean;
  /** A `(`: the head of a control statement (`if`, `for`, `while`, ...). */
  control?: boolean;
  /** A JSX element: its name ("" for a fragment). */
  name?: string;
  /** A JSX element: whether its opening tag is still being read (its attributes). */
  tag?: boolean;
}

const CONTROL = new Set(["if", "for", "while", "switch", "catch", "with"]);

/** Keywords after which a `/` starts a regular expression (and a `{` an expression). */
const EXPRESSION_KEYWORDS = new Set([
  "return",
  "typeof",
  "case",
  "delete",
  "void",
  "throw",
  "new",
  "in",
  "of",
  "instanceof",
  "yield",
  "await",
  "else",
  "do",
  "extends",
  "keyof",
  "infer",
  "is",
  "asserts",
  "readonly",
  "unique",
  "as",
  "satisfies",
  "default",
]);

/** Keywords after which a `{` starts a block. */
const BLOCK_KEYWORDS = new Set(["else", "do", "try", "finally", "static"]);

/** Keywords after which a `{` starts an object literal or pattern (or an object type). */
const OBJECT_KEYWORDS = new Set(
  [...EXPRESSION_KEYWORDS, "let", "const", "var"].filter((k) => !BLOCK_KEYWORDS.has(k)),
);

/** Keywords that a type goes on after (a name after one of them ends the type, not they). */
const TYPE_OPERATORS = new Set([
  "keyof",
  "typeof",
  "infer",
  "is",
  "asserts",
  "readonly",
  "unique",
  "extends",
  "new",
  "in",
  "as",
  "satisfies",
]);

/** Every keyword the reader asks about, by first character and length (names are not sliced). */
const KEYWORDS = new Map<number, string[]>();
for (
  const word of [
    ...CONTROL,
    ...EXPRESSION_KEYWORDS,
    ...OBJECT_KEYWORDS,
    ...BLOCK_KEYWORDS,
    ...TYPE_OPERATORS,
    "function",
    "class",
  ]
) {
  const key = word.charCodeAt(0) * 16 + word.length;
  const words = KEYWORDS.get(key) ?? [];
  if (!words.includes(word)) words.push(word);
  KEYWORDS.set(key, words);
}

/** The keyword `text` holds from `from` to `to`, or "" for any other name. */
function keywordAt(text: string, from: number, to: number): string {
  const length = to - from;
  if (length < 2 || length > 10) return "";
  const words = KEYWORDS.get(text.charCodeAt(from) * 16 + length);
  if (words) {
    for (const word of words) if (text.startsWith(word, from)) return word;
  }
  return "";
}

/** Token kinds. */
const NAME = 1, NUMBER = 2, STRING = 3, PUNCT = 4, REGEX = 5, START = 0;

/** Whether each ASCII character may stand in a name (letters, digits, `_`, `$`). */
const ASCII_NAME = new Uint8Array(128).map((_, c) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36
    ? 1
    : 0
);

function isNameChar(c: number): boolean {
  return c < 128 ? ASCII_NAME[c] === 1 : !isSpace(c) && !isLineBreak(c);
}

function isLineBreak(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x1680 || c === 0x202f || c === 0x205f ||
    c === 0x3000;
}

/** Reads the text token by token, keeping the bracket stack and the hollowed regions. */
class Reader {
  at = 0;
  stack: Frame[] = [];
  /**
   * The last two significant tokens: kind and text (the punctuation, or the keyword a name is;
   * "" for other names, strings, numbers and regular expressions).
   */
  kind = START;
  token = "";
  kind2 = START;
  token2 = "";
  /** The frame closed by the last `)` or `}` read. */
  closed: Frame | undefined;
  /** A `function` keyword read: the next `(` at this stack depth opens its parameters. */
  fnDepth = -1;
  /** A `class` keyword read: the next `{` at this stack depth opens its body. */
  classDepth = -1;
  /** In a return type (after a parameter list's `)` and `:`) at this stack depth. */
  returnDepth = -1;
  /** A `case` read in a block at this depth: its `:` opens no object. */
  caseDepth = -1;
  /** `?` of conditional expressions read since that `case`. */
  caseTernaries = 0;
  /** Whether the last `:` ends a `case`, a `default` or a label. */
  colonStatement = false;
  /** Whether the last name read starts a statement (a `:` after it ends a label). */
  labelStart = false;
  /** The stack depth of the outermost function body open, or -1. */
  hollowDepth = -1;
  /** Whether a token was read inside the outermost function body open. */
  filled = false;
  /** Bodies to hollow: [index after `{`, index of `}`). */
  bodies: Array<[number, number]> = [];
  /**
   * Names, numbers, strings and regular expressions read outside function bodies: each is at
   * least one token of the parser's (punctuation is not counted: `>>` is two here, one there).
   */
  outside = 0;

  constructor(
    readonly text: string,
    readonly typescript: boolean,
    readonly jsx: boolean,
    readonly maxTokens: number,
  ) {}

  /** Note a significant token. */
  push(kind: number, token: string): void {
    this.kind2 = this.kind;
    this.token2 = this.token;
    this.kind = kind;
    this.token = token;
    if (this.hollowDepth >= 0) this.filled = true;
    else if (kind !== PUNCT && ++this.outside > this.maxTokens) {
      throw new TooManyTokens(this.maxTokens, this.at);
    }
  }

  /** Whether the previous token is a name used as a keyword (not after `.`). */
  keyword(set: Set<string>): boolean {
    return this.kind === NAME && set.has(this.token) && !this.afterDot();
  }

  afterDot(): boolean {
    return this.kind2 === PUNCT && (this.token2 === "." || this.token2 === "?.");
  }

  /** Whether a `/` here starts a regular expression (else it divides). */
  regexAllowed(): boolean {
    switch (this.kind) {
      case START:
        return true;
      case NUMBER:
      case STRING:
      case REGEX:
        return false;
      case NAME:
        return this.keyword(EXPRESSION_KEYWORDS);
      default: {
        const t = this.token;
        if (t === "]" || t === "++" || t === "--") return false;
        if (t === "!" && this.typescript && this.operandBefore()) return false; // `x!`
        if (t === ")") return this.closed?.control === true;
        if (t === "}") {
          const k = this.closed?.kind;
          return k !== "object" && k !== "type";
        }
        return true;
      }
    }
  }

  /** Whether the token before the last ends an operand (so a `!` after it asserts non-null). */
  operandBefore(): boolean {
    switch (this.kind2) {
      case NAME:
        return this.token2 === "" || !EXPRESSION_KEYWORDS.has(this.token2);
      case NUMBER:
      case STRING:
        return true;
      case PUNCT:
        return this.token2 === ")" || this.token2 === "]";
      default:
        return false;
    }
  }

  top(): Frame | undefined {
    return this.stack[this.stack.length - 1];
  }

  open(frame: Frame): void {
    this.stack.push(frame);
  }

  /** Read the whole text. */
  read(): void {
    const text = this.text;
    const n = text.length;
    if (text.startsWith("#!")) this.lineComment();
    while (this.at < n) {
      const c = text.charCodeAt(this.at);
      if (c === 32 || c === 10) {
        this.at++;
        continue;
      }
      if (isSpace(c) || isLineBreak(c)) {
        this.at++;
        continue;
      }
      if (c === 47) { // /
        if (this.comment()) continue;
        if (this.regexAllowed()) {
          this.regex();
          continue;
        }
        this.at++;
        if (text.charCodeAt(this.at) === 61) this.at++; // /=
        this.push(PUNCT, "/");
        continue;
      }
      if (c === 39 || c === 34) { // ' "
        this.string(c);
        this.push(STRING, "");
        continue;
      }
      if (c === 96) { // `
        this.at++;
        this.template();
        continue;
      }
      if (isNameChar(c) && !(c >= 48 && c <= 57)) {
        this.name();
        continue;
      }
      if ((c >= 48 && c <= 57) || (c === 46 && isDigit(text.charCodeAt(this.at + 1)))) {
        while (
          this.at < n && (isNameChar(text.charCodeAt(this.at)) || text.charCodeAt(this.at) === 46)
        ) {
          this.at++;
        }
        this.push(NUMBER, "");
        continue;
      }
      if (c === 35) { // # private name
        this.at++;
        while (this.at < n && isNameChar(text.charCodeAt(this.at))) this.at++;
        this.push(NAME, "#");
        continue;
      }
      if (c === 92) throw new Unsure(); // an escape in a name
      this.punct(c);
    }
    if (this.stack.length) throw new Unsure();
  }

  /** A comment at `at` (a `/` there), passed over; false when the `/` starts none. */
  comment(): boolean {
    const next = this.text.charCodeAt(this.at + 1);
    if (next === 47) {
      this.lineComment();
      return true;
    }
    if (next !== 42) return false;
    const end = this.text.indexOf("*/", this.at + 2);
    if (end === -1) throw new Unsure();
    this.at = end + 2;
    return true;
  }

  /** A line comment from `at`, passed over up to its line break. */
  lineComment(): void {
    const text = this.text;
    while (this.at < text.length && !isLineBreak(text.charCodeAt(this.at))) this.at++;
  }

  /** A string literal whose quote is at `at`; `at` ends after the closing quote. */
  string(quote: number): void {
    const text = this.text;
    this.at++;
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at);
      if (c === 92) {
        this.at += text.charCodeAt(this.at + 1) === 13 && text.charCodeAt(this.at + 2) === 10
          ? 3
          : 2;
        continue;
      }
      this.at++;
      if (c === quote) return;
      if (c === 10 || c === 13) throw new Unsure();
    }
    throw new Unsure();
  }

  /** A template literal's text after a backtick or a `}`; stops after the closing backtick or a `${`. */
  template(): void {
    const text = this.text;
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at);
      if (c === 92) {
        this.at += 2;
        continue;
      }
      this.at++;
      if (c === 96) {
        this.push(STRING, "");
        return;
      }
      if (c === 36 && text.charCodeAt(this.at) === 123) {
        this.open({ kind: "template", at: this.at });
        this.at++;
        this.push(PUNCT, "${");
        return;
      }
    }
    throw new Unsure();
  }

  /** A regular expression literal at `at`. */
  regex(): void {
    const text = this.text;
    this.at++;
    let inClass = false;
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at);
      if (isLineBreak(c)) throw new Unsure();
      this.at++;
      if (c === 92) {
        if (isLineBreak(text.charCodeAt(this.at))) throw new Unsure();
        this.at++;
      } else if (c === 91) inClass = true;
      else if (c === 93) inClass = false;
      else if (c === 47 && !inClass) {
        while (this.at < text.length && isNameChar(text.charCodeAt(this.at))) this.at++;
        this.push(REGEX, "");
        return;
      }
    }
    throw new Unsure();
  }

  name(): void {
    const text = this.text;
    const from = this.at;
    while (this.at < text.length && isNameChar(text.charCodeAt(this.at))) this.at++;
    if (text.charCodeAt(this.at) === 92) throw new Unsure(); // an escape in a name
    // Only keywords are told apart: any other name is "".
    const word = keywordAt(text, from, this.at);
    const member = this.kind === PUNCT && (this.token === "." || this.token === "?.");
    const t = this.kind === PUNCT ? this.token : "";
    this.labelStart = this.kind === START || t === ";" || t === "{" || t === "}" || t === ":";
    const depth = this.stack.length;
    // Two names in a row in a return type: the type ended before the second (`f(): A\nnamespace`).
    if (this.returnDepth === depth && this.endsType() && !TYPE_OPERATORS.has(word)) {
      this.returnDepth = -1;
    }
    if (!member) {
      if (word === "function") this.fnDepth = depth;
      else if (
        word === "class" && this.returnDepth !== depth && this.nextChar() !== 58 &&
        this.nextChar() !== 40
      ) {
        this.classDepth = depth;
      } else if (word === "case" && this.inBlock()) {
        this.caseDepth = depth;
        this.caseTernaries = 0;
      }
    }
    this.push(NAME, word);
  }

  /** The next character that is not a space, line break or comment start (approximately). */
  nextChar(): number {
    const text = this.text;
    let i = this.at;
    while (i < text.length && (isSpace(text.charCodeAt(i)) || isLineBreak(text.charCodeAt(i)))) {
      i++;
    }
    return text.charCodeAt(i);
  }

  inBlock(): boolean {
    const kind = this.top()?.kind;
    return kind === undefined || kind === "block" || kind === "body";
  }

  /** Whether the previous token ends a type (so a `{` after it opens a body). */
  endsType(): boolean {
    if (this.kind === NAME) return !this.keyword(TYPE_OPERATORS);
    if (this.kind === STRING || this.kind === NUMBER) return true;
    if (this.kind === PUNCT) {
      const t = this.token;
      return t === ">" || t === "]" || t === ")" || t === "}";
    }
    return false;
  }

  punct(c: number): void {
    // Kept whole (hot loop): the lexer step of every punctuation token of a file.
    const text = this.text;
    const next = text.charCodeAt(this.at + 1);
    let token = String.fromCharCode(c);
    let width = 1;
    if (c === 61 && next === 62) token = "=>"; // =>
    else if (c === 46 && next === 46 && text.charCodeAt(this.at + 2) === 46) token = "...";
    else if (c === 63 && next === 46 && !isDigit(text.charCodeAt(this.at + 2))) token = "?.";
    else if ((c === 43 || c === 45) && next === c) token = token + token; // ++ --
    else if ((c === 61 || c === 33) && next === 61) {
      // == === != !==
      width = text.charCodeAt(this.at + 2) === 61 ? 3 : 2;
      token = text.slice(this.at, this.at + width);
    } else if ((c === 60 || c === 62) && next === 61) token = c === 60 ? "<=" : ">=";
    else if (c === 60 && next === 60) token = "<<"; // not `>>`: two closes of type arguments
    if (width === 1) width = token.length;
    const depth = this.stack.length;
    switch (c) {
      case 40: { // (
        const frame: Frame = { kind: "paren", at: this.at };
        const kind = this.top()?.kind;
        if (this.fnDepth === depth) {
          frame.params = true;
          this.fnDepth = -1;
        } else if (this.keyword(CONTROL) && this.inBlock()) frame.control = true;
        else if (
          this.kind === NAME && this.token === "await" && this.kind2 === NAME &&
          this.token2 === "for"
        ) {
          frame.control = true;
        } else if (
          (kind === "class" || kind === "object") && !this.afterDot() &&
          (this.kind === NAME || this.kind === STRING || this.kind === NUMBER ||
            (this.kind === PUNCT && (this.token === "]" || this.token === ">")))
        ) {
          frame.params = true;
        }
        this.open(frame);
        break;
      }
      case 91: // [
        this.open({ kind: "bracket", at: this.at });
        break;
      case 123: // {
        this.openBrace();
        if (this.hollowDepth === depth) {
          // The body's own brace is not a token inside it.
          this.at += width;
          this.push(PUNCT, token);
          this.filled = false;
          return;
        }
        break;
      case 41: // )
      case 93: { // ]
        const frame = this.stack.pop();
        if (!frame || frame.kind !== (c === 41 ? "paren" : "bracket")) throw new Unsure();
        this.closed = frame;
        this.dropInner(depth);
        break;
      }
      case 125: { // }
        const frame = this.stack.pop();
        if (
          !frame || frame.kind === "paren" || frame.kind === "bracket" || frame.kind === "jsx"
        ) {
          throw new Unsure();
        }
        this.dropInner(depth);
        if (frame.kind === "template") {
          this.at++;
          this.template();
          return;
        }
        if (frame.kind === "jsxattr" || frame.kind === "jsxchild") {
          this.at++;
          this.jsxRead();
          return;
        }
        this.closed = frame;
        if (this.hollowDepth === depth - 1) {
          if (this.filled && this.at - frame.at - 1 >= MIN_HOLLOW) {
            this.bodies.push([frame.at + 1, this.at]);
          }
          this.hollowDepth = -1;
          this.filled = false;
        }
        break;
      }
      case 60: // <
        if (token === "<" && this.regexAllowed()) {
          if (this.jsx && !this.typeParameters()) {
            this.jsxOpen();
            this.jsxRead();
            return;
          }
          if (!this.typescript) throw new Unsure();
        }
        break;
      case 63: // ?
        if (token === "?" && this.caseDepth === depth) this.caseTernaries++;
        break;
      case 58: // :
        this.colonStatement = this.statementColon();
        if (this.returnDepth === -1 && this.kind === PUNCT && this.token === ")") {
          if (this.closed?.params) this.returnDepth = depth;
        }
        break;
      case 59: // ;
      case 44: // ,
        if (this.returnDepth === depth) this.returnDepth = -1;
        if (c === 59 && this.classDepth === depth) this.classDepth = -1;
        break;
      case 61: // =
        if (token === "=>") {
          // An arrow after a return type that ends in a name: the return type of an arrow function.
          if (this.returnDepth === depth && this.endsType() && this.token !== ")") {
            this.returnDepth = -1;
          }
        } else if (this.returnDepth === depth) this.returnDepth = -1;
        break;
    }
    this.at += width;
    this.push(PUNCT, token);
  }

  /** A `{`: what it opens, from the tokens before it. */
  openBrace(): void {
    const depth = this.stack.length;
    const frame: Frame = { kind: "block", at: this.at };
    const t = this.kind === PUNCT ? this.token : "";
    if (
      this.classDepth === depth &&
      (this.kind === NAME || t === ">" || t === "]" || t === ")" || t === "}")
    ) {
      frame.kind = "class";
      this.classDepth = -1;
    } else if (this.returnDepth === depth) {
      if (this.endsType()) {
        frame.kind = "body";
        this.returnDepth = -1;
      } else frame.kind = "type";
    } else if (t === "=>") frame.kind = "body";
    else if (t === ")" && this.closed?.params) frame.kind = "body";
    else if (t === ")") frame.kind = "block";
    else if (this.kind === START || t === ";" || t === "{" || t === "}") frame.kind = "block";
    else if (this.kind === NAME) {
      frame.kind = this.keyword(OBJECT_KEYWORDS) ? "object" : "block";
    } else if (t === ":") frame.kind = this.colonStatement ? "block" : "object";
    else if (t === ">" || t === "]") frame.kind = "block";
    else frame.kind = "object";
    if (frame.kind === "body" && this.hollowDepth === -1) {
      this.hollowDepth = depth;
      this.filled = false;
    }
    this.open(frame);
  }

  /** Whether a `:` read now ends a `case`, a `default` or a label (a `{` after it is a block). */
  statementColon(): boolean {
    if (!this.inBlock()) return false;
    const depth = this.stack.length;
    if (this.caseDepth === depth) {
      if (this.caseTernaries === 0) {
        this.caseDepth = -1;
        return true;
      }
      this.caseTernaries--;
      return false;
    }
    return this.kind === NAME && !this.afterDot() &&
      (this.token === "default" || this.labelStart);
  }

  /**
   * At a `<` where an expression starts in TSX: whether it opens the type parameters of a generic
   * arrow function or function type (`<T,>`, `<T extends U>`, `<T = U>`, `<const T,>`) rather
   * than a JSX element. Unsure of `<T extends=` and `<T extends>`.
   */
  typeParameters(): boolean {
    if (!this.typescript) return false;
    const text = this.text;
    let i = this.skipBlank(this.at + 1);
    const name = () => {
      const from = i;
      while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
      return text.slice(from, i);
    };
    let word = name();
    if (word === "const") {
      i = this.skipBlank(i);
      word = name();
    }
    if (!word) return false;
    i = this.skipBlank(i);
    const c = text.charCodeAt(i);
    if (c === 44 || c === 61) return true; // , =
    if (name() !== "extends") return false;
    i = this.skipBlank(i);
    const d = text.charCodeAt(i);
    if (d === 61 || d === 62 || d === 47) throw new Unsure(); // an attribute named extends?
    return true;
  }

  /** The index of the first character from `i` that is not a space or line break. */
  skipBlank(i: number): number {
    const text = this.text;
    while (i < text.length && (isSpace(text.charCodeAt(i)) || isLineBreak(text.charCodeAt(i)))) {
      i++;
    }
    return i;
  }

  /** A JSX opening tag's `<` at `at`: open the element and read its name. */
  jsxOpen(): void {
    const text = this.text;
    const from = this.at;
    this.at = this.skipBlank(this.at + 1);
    const start = this.at;
    while (this.at < text.length && isJsxNameChar(text.charCodeAt(this.at))) this.at++;
    const name = text.slice(start, this.at);
    if (name === "") {
      if (text.charCodeAt(this.at) !== 62) throw new Unsure(); // not a fragment's `<>`
      this.at++;
      this.open({ kind: "jsx", at: from, name, tag: false });
      return;
    }
    const first = name.charCodeAt(0);
    if (isDigit(first) || first === 45 || first === 46 || first === 58) throw new Unsure();
    if (this.typescript) {
      if (text.charCodeAt(this.at) === 60) this.typeArguments();
      // `<T>(` where an expression starts: more likely a generic function type than an element.
      const after = this.skipBlank(this.at);
      if (
        this.top()?.kind !== "jsx" && text.charCodeAt(after) === 62 &&
        text.charCodeAt(after + 1) === 40
      ) {
        throw new Unsure();
      }
    }
    this.open({ kind: "jsx", at: from, name, tag: true });
  }

  /** The type arguments of a JSX element in TSX (`<List<T>`): names and `<>[],.|&` only. */
  typeArguments(): void {
    const text = this.text;
    let open = 0;
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at++);
      if (c === 60) open++;
      else if (c === 62) {
        if (--open === 0) return;
      } else if (
        !isNameChar(c) && !isSpace(c) && !isLineBreak(c) && c !== 91 && c !== 93 && c !== 44 &&
        c !== 46 && c !== 124 && c !== 38
      ) {
        throw new Unsure();
      }
    }
    throw new Unsure();
  }

  /**
   * Read JSX from `at` (in the element on top of the stack) until an expression in braces opens
   * or the outermost element closes; then the expression reader goes on.
   */
  jsxRead(): void {
    const text = this.text;
    const n = text.length;
    while (true) {
      const frame = this.top();
      if (frame?.kind !== "jsx") throw new Unsure();
      if (frame.tag) {
        if (this.jsxTagPart(frame)) return;
        continue;
      }
      // Children: text up to a `<` or a `{`.
      while (this.at < n) {
        const c = text.charCodeAt(this.at);
        if (c === 60 || c === 123) break;
        if (c === 62 || c === 125) throw new Unsure(); // `>` or `}` in JSX text
        this.at++;
      }
      if (this.at >= n) throw new Unsure();
      if (text.charCodeAt(this.at) === 123) {
        this.open({ kind: "jsxchild", at: this.at });
        this.at++;
        this.push(PUNCT, "${");
        return;
      }
      const after = this.skipBlank(this.at + 1);
      if (text.charCodeAt(after) !== 47) {
        this.jsxOpen();
        continue;
      }
      // A closing tag: the name of the element open.
      this.at = this.skipBlank(after + 1);
      const start = this.at;
      while (this.at < n && isJsxNameChar(text.charCodeAt(this.at))) this.at++;
      if (text.slice(start, this.at) !== frame.name) throw new Unsure();
      this.at = this.skipBlank(this.at);
      if (text.charCodeAt(this.at) !== 62) throw new Unsure();
      this.at++;
      if (this.jsxClosed()) return;
    }
  }

  /**
   * One part of the open tag of `frame` from `at`: its end (`>`, `/>`), a comment, an attribute or
   * an expression in braces. Whether JSX reading stops here: an expression opened, or the
   * outermost element closed.
   */
  jsxTagPart(frame: Frame): boolean {
    const text = this.text;
    this.at = this.skipBlank(this.at);
    const c = text.charCodeAt(this.at);
    if (c === 47) { // />, or a comment
      if (this.comment()) return false;
      if (text.charCodeAt(this.at + 1) !== 62) throw new Unsure();
      this.at += 2;
      return this.jsxClosed();
    }
    if (c === 62) { // >
      this.at++;
      frame.tag = false;
      return false;
    }
    if (c === 123) { // {
      this.open({ kind: "jsxattr", at: this.at });
      this.at++;
      this.push(PUNCT, "${");
      return true;
    }
    if (!isJsxNameChar(c) || isDigit(c) || c === 45 || c === 46) throw new Unsure();
    // An attribute: its name, then `=` and a string or an expression in braces, or nothing.
    while (this.at < text.length && isJsxNameChar(text.charCodeAt(this.at))) this.at++;
    const next = this.skipBlank(this.at);
    if (text.charCodeAt(next) !== 61) return false;
    this.at = this.skipBlank(next + 1);
    const q = text.charCodeAt(this.at);
    if (q === 34 || q === 39) {
      const end = text.indexOf(String.fromCharCode(q), this.at + 1);
      if (end === -1) throw new Unsure();
      this.at = end + 1;
    } else if (q !== 123) throw new Unsure();
    return false;
  }

  /** The element on top of the stack closed: whether it was the outermost (an expression read). */
  jsxClosed(): boolean {
    this.stack.pop();
    if (this.top()?.kind === "jsx") return false;
    this.push(STRING, "");
    return true;
  }

  /** Forget what waited for a bracket inside the one closed (the stack was `depth` long). */
  dropInner(depth: number): void {
    if (this.returnDepth >= depth) this.returnDepth = -1;
    if (this.classDepth >= depth) this.classDepth = -1;
    if (this.fnDepth >= depth) this.fnDepth = -1;
    if (this.caseDepth >= depth) this.caseDepth = -1;
  }
}

/** Whether a character may stand in a JSX element or attribute name (`-`, `.` and `:` too). */
function isJsxNameChar(c: number): boolean {
  return isNameChar(c) || c === 45 || c === 46 || c === 58;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

const HEAD = "0;/*", TAIL = "*/";

/**
 * The region of a body's inside [from, to) that the filler replaces: from its first to its last
 * character that is not a space or line break, widened over spaces of the same line where the
 * head or the tail would not fit; undefined when they cannot.
 */
function bodyRegion(text: string, from: number, to: number): HollowRegion | undefined {
  let start = from;
  while (start < to && isBlank(text.charCodeAt(start))) start++;
  let end = to;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  if (end - start < MIN_HOLLOW) return undefined;
  // The head goes on the first line: back over its leading spaces when what follows is short.
  const lineEnd = text.indexOf("\n", start);
  if (lineEnd !== -1 && lineEnd < start + HEAD.length) {
    start = lineEnd - HEAD.length;
    for (let i = start; i < lineEnd; i++) {
      if (i < from || text.charCodeAt(i) === 10) return undefined;
    }
  }
  // The tail goes on the last line: forward over its trailing spaces when what precedes is short.
  const lineStart = text.lastIndexOf("\n", end - 1) + 1;
  if (lineStart > end - TAIL.length) {
    end = lineStart + TAIL.length;
    for (let i = lineStart; i < end; i++) {
      if (i >= to || text.charCodeAt(i) === 10) return undefined;
    }
  }
  const region = { start, end, head: HEAD, tail: TAIL };
  return fits(text, region) ? region : undefined;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * The regions of the outermost function bodies of JavaScript or TypeScript
 * source, to hollow out (see `_hollow.ts`): each the inside of a body with at
 * least one statement, made `0;` and a block comment. Undefined when there is
 * nothing to hollow or the text is not one this reader is sure of (then the
 * caller parses the text itself). `typescript` reads TypeScript; `jsx` (by
 * default for JavaScript, not for TypeScript; set it for TSX) reads a `<`
 * where an expression starts as JSX, else as a type assertion or type
 * parameters (and JavaScript is not hollowed). With `options.maxTokens`, it
 * throws `TooManyTokens` once more names, numbers, strings and regular
 * expressions than that stand outside function bodies (a parse too big for
 * that many steps), without reading the rest.
 *
 * @example
 * ```ts
 * import { jsBodies } from "./_js_hollow.ts";
 * const text = "function f(x) {\n  let y = x * 2;\n" + "  y += 1;\n".repeat(8) + "  return y;\n}\n";
 * const [body] = jsBodies(text)!;
 * text.slice(body.start, body.end).startsWith("let y"); // true
 * body.head; // "0;/*"
 * ```
 */
export function jsBodies(
  text: string,
  typescript = false,
  jsx = !typescript,
  options: HollowOptions = {},
): HollowRegion[] | undefined {
  const reader = new Reader(text, typescript, jsx, options.maxTokens ?? Infinity);
  const bodies = unlessUnsure(() => {
    reader.read();
    return reader.bodies;
  });
  if (!bodies) return undefined;
  const regions: HollowRegion[] = [];
  for (const [from, to] of bodies) {
    const region = bodyRegion(text, from, to);
    if (region) regions.push(region);
  }
  return regions.length ? regions : undefined;
}

/**
 * JavaScript or TypeScript source with the bodies of its functions hollowed
 * out (see {@linkcode jsBodies}), or undefined when nothing is hollowed.
 *
 * @example
 * ```ts
 * import { hollowJs } from "./_js_hollow.ts";
 * const text = "function f(x) {\n  let y = x * 2;\n" + "  y += 1;\n".repeat(8) + "  return y;\n}\n";
 * const hollow = hollowJs(text)!;
 * hollow.length === text.length; // true
 * hollow.startsWith("function f(x) {\n  0;/*"); // true
 * ```
 */
export function hollowJs(
  text: string,
  typescript = false,
  jsx = !typescript,
): string | undefined {
  const regions = jsBodies(text, typescript, jsx);
  return regions && hollowText(text, regions);
}
