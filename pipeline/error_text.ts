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
