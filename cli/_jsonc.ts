/**
 * Editing a `deno.json` or `deno.jsonc` in place for `slop init`: the
 * `context` task is written into the text as it stands, so comments,
 * trailing commas, key order and formatting are all kept (a parse and
 * `JSON.stringify` would drop the comments and reformat the file).
 *
 * @module
 */

/** A token of a JSONC text: punctuation, a string or another literal, with its span. */
interface Token {
  kind: "{" | "}" | "[" | "]" | ":" | "," | "string" | "literal";
  start: number;
  end: number;
}

/** An object's members, as spans of the text. */
interface ObjectSpan {
  /** Index in the text of the `{` and of the `}`. */
  open: number;
  close: number;
  members: Array<
    { key: string; keyStart: number; valueStart: number; valueEnd: number; comma?: number }
  >;
}

/**
 * The tokens of a JSONC text (comments skipped), or `undefined` when a
 * string or a block comment does not end.
 */
function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) i++;
    else if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return undefined;
      i = end + 2;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      if (text[j] !== '"') return undefined;
      tokens.push({ kind: "string", start: i, end: j + 1 });
      i = j + 1;
    } else if ("{}[]:,".includes(c)) {
      tokens.push({ kind: c as Token["kind"], start: i, end: i + 1 });
      i++;
    } else {
      let j = i;
      while (j < text.length && !/[\s{}[\]:,"/]/.test(text[j])) j++;
      if (j === i) return undefined;
      tokens.push({ kind: "literal", start: i, end: j });
      i = j;
    }
  }
  return tokens;
}

/** The object whose `{` is token `at`, and the index of the token after it; `undefined` if malformed. */
function readObject(
  text: string,
  tokens: Token[],
  at: number,
): { span: ObjectSpan; next: number } | undefined {
  const span: ObjectSpan = { open: tokens[at].start, close: -1, members: [] };
  let i = at + 1;
  for (;;) {
    if (tokens[i]?.kind === "}") {
      span.close = tokens[i].start;
      return { span, next: i + 1 };
    }
    const key = tokens[i];
    if (key?.kind !== "string" || tokens[i + 1]?.kind !== ":") return undefined;
    const end = skipValue(tokens, i + 2);
    if (end === undefined) return undefined;
    const member: ObjectSpan["members"][number] = {
      key: JSON.parse(text.slice(key.start, key.end)),
      keyStart: key.start,
      valueStart: tokens[i + 2].start,
      valueEnd: tokens[end - 1].end,
    };
    span.members.push(member);
    i = end;
    if (tokens[i]?.kind === ",") member.comma = tokens[i++].start;
    else if (tokens[i]?.kind !== "}") return undefined;
  }
}

/** The index of the token after the value starting at token `at`. */
function skipValue(tokens: Token[], at: number): number | undefined {
  const first = tokens[at];
  if (!first) return undefined;
  if (first.kind === "string" || first.kind === "literal") return at + 1;
  if (first.kind !== "{" && first.kind !== "[") return undefined;
  let depth = 0;
  for (let i = at; i < tokens.length; i++) {
    const kind = tokens[i].kind;
    if (kind === "{" || kind === "[") depth++;
    else if (kind === "}" || kind === "]") depth--;
    if (depth === 0) return i + 1;
  }
  return undefined;
}

/**
 * The text as JSON: comments blanked out, trailing commas dropped (for
 * `JSON.parse`); `undefined` when a string or a block comment does not end.
 *
 * @example
 * ```ts
 * import { jsoncToJson } from "./_jsonc.ts";
 * JSON.parse(jsoncToJson('{ "a": 1, // one\n}')!); // { a: 1 }
 * ```
 */
export function jsoncToJson(text: string): string | undefined {
  const tokens = tokenize(text);
  if (!tokens) return undefined;
  const closes = (token?: Token) => token?.kind === "}" || token?.kind === "]";
  return tokens.filter((t, i) => !(t.kind === "," && closes(tokens[i + 1])))
    .map((t) => text.slice(t.start, t.end)).join(" ");
}

/** The whitespace a line starts with, for the line holding `at`. */
function indentAt(text: string, at: number): string {
  const start = text.lastIndexOf("\n", at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** Whether only spaces and tabs come before `at` on its line. */
function startsLine(text: string, at: number): boolean {
  return /^[ \t]*$/.test(text.slice(text.lastIndexOf("\n", at - 1) + 1, at));
}

/**
 * `object` with a member `"key": value` (value as JSON text) added last, in
 * the object's own layout: on a line of its own in an object written over
 * several lines (indented as its other members, with a trailing comma if
 * the last one had one), else inline.
 */
function addMember(
  text: string,
  object: ObjectSpan,
  key: string,
  value: string,
): string | undefined {
  const member = `${JSON.stringify(key)}: ${value}`;
  const last = object.members.at(-1);
  if (!last) {
    // An empty object (a comment in it would be lost: left to the user).
    if (text.slice(object.open + 1, object.close).trim()) return undefined;
    return `${text.slice(0, object.open + 1)} ${member} ${text.slice(object.close)}`;
  }
  const multiLine = startsLine(text, object.close) &&
    text.slice(object.open, last.keyStart).includes("\n");
  if (!multiLine) {
    // Inline: after the last member (and its trailing comma, if any).
    return last.comma === undefined
      ? `${text.slice(0, last.valueEnd)}, ${member}${text.slice(last.valueEnd)}`
      : `${text.slice(0, last.comma + 1)} ${member},${text.slice(last.comma + 1)}`;
  }
  const indent = indentAt(text, last.keyStart);
  const lineStart = text.lastIndexOf("\n", object.close - 1) + 1;
  const line = `${indent}${member}${last.comma === undefined ? "" : ","}\n`;
  const withLine = text.slice(0, lineStart) + line + text.slice(lineStart);
  // The last member gets a comma right after its value (a comment after it stays after it).
  return last.comma === undefined
    ? `${withLine.slice(0, last.valueEnd)},${withLine.slice(last.valueEnd)}`
    : withLine;
}

/**
 * `deno.json(c)` text with `tasks.context` set to `command` (or a
 * `package.json`'s `scripts.context`, with `key` `"scripts"`), written into the
 * text as it stands; `"kept"` when there is a `context` task already;
 * `undefined` when the text is not an object of the shape expected (the
 * caller leaves the file alone). The result is checked: it parses to the
 * same value with the task added.
 *
 * @example
 * ```ts
 * import { withContextTask } from "./_jsonc.ts";
 * withContextTask('{\n  // mine\n  "tasks": { "dev": "deno run main.ts" }\n}\n', "slop build");
 * // '{\n  // mine\n  "tasks": { "dev": "deno run main.ts", "context": "slop build" }\n}\n'
 * ```
 */
export function withContextTask(
  text: string,
  command: string,
  key: "tasks" | "scripts" = "tasks",
): string | "kept" | undefined {
  const tokens = tokenize(text);
  if (!tokens?.length || tokens[0].kind !== "{") return undefined;
  const top = readObject(text, tokens, 0);
  if (!top || top.next !== tokens.length) return undefined;
  const tasks = top.span.members.filter((m) => m.key === key);
  if (tasks.length > 1) return undefined;
  let edited: string | undefined;
  if (tasks.length) {
    const at = tokens.findIndex((t) => t.start === tasks[0].valueStart);
    if (tokens[at].kind !== "{") return undefined;
    const object = readObject(text, tokens, at);
    if (!object) return undefined;
    if (object.span.members.some((m) => m.key === "context")) return "kept";
    edited = addMember(text, object.span, "context", JSON.stringify(command));
  } else {
    const first = top.span.members[0];
    const unit = first && startsLine(text, first.keyStart) ? indentAt(text, first.keyStart) : "  ";
    const multiLine = first !== undefined &&
      text.slice(top.span.open, first.keyStart).includes("\n");
    const value = multiLine
      ? `{\n${unit}${unit}"context": ${JSON.stringify(command)}\n${unit}}`
      : `{ "context": ${JSON.stringify(command)} }`;
    edited = addMember(text, top.span, key, value);
  }
  return edited !== undefined && isSameWithTask(text, edited, { command, key })
    ? edited
    : undefined;
}

/** Whether `after` parses to `before`'s value with `<key>.context` set to `command`. */
function isSameWithTask(
  before: string,
  after: string,
  { command, key }: { command: string; key: string },
): boolean {
  try {
    const expected = JSON.parse(jsoncToJson(before)!);
    expected[key] = { ...expected[key], context: command };
    return JSON.stringify(JSON.parse(jsoncToJson(after)!)) === JSON.stringify(expected);
  } catch {
    return false;
  }
}
