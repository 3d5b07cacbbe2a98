/**
 * The MCP tools' argument errors with the value at fault: zod's message for a wrong type, value
 * or size shows what was sent (`Invalid input: expected number, received "lots"`, `Too small:
 * expected number to be >0, got -5`), and the SDK's tool error adds the argument (`at budget`).
 * An unknown argument names the one meant (`Unrecognized key: "budjet" (did you mean "budget"?)`).
 *
 * @module
 */

import type { loadMcpServer } from "../deps.ts";
import { quote } from "../pipeline/schema.ts";
import { closest } from "../pipeline/closest.ts";

/** The zod module the MCP server builds its schemas with. */
type Zod = Awaited<ReturnType<typeof loadMcpServer>>["z"];

/** Issue codes whose message is about the value itself. */
const VALUE_CODES = new Set(["invalid_type", "invalid_value", "too_small", "too_big"]);

/** A value as an argument error shows it: strings quoted and cut, containers by kind. */
function shownValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

/**
 * Make zod's messages for the value-level issues end with the value sent (once per zod module;
 * other issues keep zod's messages).
 *
 * @example
 * ```ts
 * import { loadMcpServer } from "../deps.ts";
 * import { quoteArgumentValues } from "./_mcp_errors.ts";
 * const { z } = await loadMcpServer();
 * quoteArgumentValues(z);
 * z.number().safeParse("lots").error?.issues[0].message; // 'Invalid input: expected number, received "lots"'
 * ```
 */
export function quoteArgumentValues(z: Zod): void {
  const config = z.config();
  if (config.customError) return;
  const locale = config.localeError;
  z.config({
    customError: (issue) => {
      if (issue.code === "unrecognized_keys") return unknownKeys(issue);
      if (!VALUE_CODES.has(issue.code ?? "") || issue.input === undefined || !locale) {
        return undefined;
      }
      const base = locale(issue);
      const text = typeof base === "string" ? base : base?.message;
      if (!text) return undefined;
      // "received string" says the type; the value says more.
      const scalar = ["string", "number", "boolean"].includes(typeof issue.input);
      if (issue.code === "invalid_type") {
        return scalar ? text.replace(/received \S+$/, `received ${shownValue(issue.input)}`) : text;
      }
      return `${text}, got ${shownValue(issue.input)}`;
    },
  });
}

/**
 * An unknown argument (or key of an argument's object), with the closest known one: the schema
 * that refused it is the issue's `inst`, whose shape lists the known keys.
 */
function unknownKeys(issue: { keys?: string[]; inst?: unknown }): string | undefined {
  const keys = issue.keys ?? [];
  if (!keys.length) return undefined;
  const shape = (issue.inst as { _zod?: { def?: { shape?: object } } })?._zod?.def?.shape;
  const known = Object.keys(shape ?? {});
  return keys.map((key) => {
    const hint = closest(key, known);
    return `Unrecognized key: ${quote(key)}` + (hint ? ` (did you mean ${quote(hint)}?)` : "") +
      (known.length && !hint ? ` (known: ${known.join(", ")})` : "");
  }).join("; ");
}
