/**
 * The text of whatever was thrown, for an error message: config modules and
 * plugin hooks are user code, and may throw strings, `undefined`, objects
 * without a prototype (which `String()` cannot convert) or errors whose
 * `message` getter throws.
 *
 * @module
 */

/**
 * What `thrown` says, as one line of text; never throws itself.
 *
 * @example
 * ```ts
 * import { errorText } from "./error_text.ts";
 * errorText(new Error("boom")); // "boom"
 * errorText("boom"); // "boom"
 * errorText(undefined); // "a value that is not an Error was thrown: undefined"
 * errorText(Object.create(null)); // "an object that is not an Error was thrown"
 * ```
 */
export function errorText(thrown: unknown): string {
  if (typeof thrown === "string") return thrown || "an empty string was thrown";
  if (typeof thrown !== "object" && typeof thrown !== "function" || thrown === null) {
    return `a value that is not an Error was thrown: ${String(thrown)}`;
  }
  try {
    const message = (thrown as { message?: unknown }).message;
    if (typeof message === "string" && message.trim()) return message;
    if (thrown instanceof Error) return `${thrown.name || "Error"} without a message`;
  } catch {
    return "an error whose message cannot be read was thrown";
  }
  try {
    const text = String(thrown);
    if (text && text !== "[object Object]") return text;
  } catch {
    // An object without a prototype, or a `toString` that throws.
  }
  return "an object that is not an Error was thrown";
}

/** The longest text of a plugin's error or warning a message keeps. */
const MAX_PLUGIN_TEXT = 1000;

/**
 * `text` as one line of at most {@linkcode MAX_PLUGIN_TEXT} characters: control characters
 * escaped (`\n`), and the rest of a longer text cut, with how much was cut. A plugin's error or
 * warning is user text: a line break in it would forge a line of the document, the manifest or
 * the terminal, and a huge one would fill them.
 *
 * @example
 * ```ts
 * import { pluginLine } from "./error_text.ts";
 * pluginLine("a\nb"); // "a\\nb"
 * ```
 */
export function pluginLine(text: string): string {
  const cut = text.length > MAX_PLUGIN_TEXT
    ? `${text.slice(0, MAX_PLUGIN_TEXT)}… (${text.length - MAX_PLUGIN_TEXT} more characters)`
    : text;
  return oneLine(cut);
}

/** Control characters, which a message shows escaped. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
const ESCAPES: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0" };

/**
 * `text` on one line: each control character escaped (`\n`, `\0`, `\u{1b}`), as `quote` of
 * `schema.ts` shows a value (a message that quotes a value raw, a newline or an escape sequence
 * in it, stays one line).
 *
 * @example
 * ```ts
 * import { oneLine } from "./error_text.ts";
 * oneLine("unknown view \"a\nb\""); // 'unknown view "a\\nb"'
 * ```
 */
export function oneLine(text: string): string {
  return text.replace(CONTROL, (c) => ESCAPES[c] ?? `\\u{${c.charCodeAt(0).toString(16)}}`);
}

/**
 * What a plugin's hook threw ({@linkcode errorText}), as {@linkcode pluginLine} gives it.
 *
 * @example
 * ```ts
 * import { hookErrorText } from "./error_text.ts";
 * hookErrorText(new Error("cannot parse\nline 2")); // "cannot parse\\nline 2"
 * ```
 */
export function hookErrorText(thrown: unknown): string {
  return pluginLine(errorText(thrown));
}

/**
 * A value a plugin gave where slop wants text (a warning), as text: a string as it is, an
 * error's message, else what the value is (JSON when it has some), never throwing.
 *
 * @example
 * ```ts
 * import { valueText } from "./error_text.ts";
 * valueText({ a: 1 }); // '{"a":1}'
 * valueText(undefined); // "undefined"
 * ```
 */
export function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return errorText(value);
  if (typeof value === "symbol" || typeof value === "function") return typeof value;
  try {
    const json = JSON.stringify(value);
    if (typeof json === "string") return json;
  } catch {
    // A bigint, a cycle, a getter that throws: said below.
  }
  try {
    return typeof value === "object" && value !== null ? "an object" : String(value);
  } catch {
    return "a value that cannot be shown";
  }
}
