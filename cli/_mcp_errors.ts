/**
 * The MCP tools' argument errors in slop's words. The SDK checks a call's arguments against the
 * tool's zod schema and writes zod's issues raw (`… at mask.xxxx…`, the key whole, a newline in
 * it splitting the line, one line per issue however many). The server checks them itself
 * instead, with the same schema, and says each problem as slop says a bad argument: one line
 * each, naming the argument's path and what it takes, with the value sent
 * (`Invalid argument "budget": expected a positive integer, got "lots"`), at most
 * {@linkcode SHOWN_ISSUES} lines and `and K more`.
 *
 * @module
 */

import type { loadMcpServer, McpServer } from "../deps.ts";
import { quote } from "../pipeline/schema.ts";
import { closest } from "../pipeline/closest.ts";
import { redactMessage } from "../pipeline/secrets.ts";
import { formatCount } from "../pipeline/figures.ts";

/** The zod module the MCP server builds its schemas with. */
type Zod = Awaited<ReturnType<typeof loadMcpServer>>["z"];

/** How many problems an argument error lists; the rest are counted (`and 12 more`). */
export const SHOWN_ISSUES = 10;

/**
 * Most array items and object keys, counted through every level, that a call's arguments may hold
 * (the SDK's `maxToolInputElements`, which its own check applied): a call over it is answered at
 * once, before its schema is checked or a tool runs. A project's every file named in `files`, or a
 * mask of every symbol, stays far below it.
 */
export const MAX_ARGUMENT_ELEMENTS = 10_000;

/** Longest stretch of an odd key a path shows (`mask[xxxx…]`). */
const KEY_MAX = 30;

/** A zod schema's definition, as far as the messages read it. */
interface Def {
  type?: string;
  innerType?: Schema;
  element?: Schema;
  valueType?: Schema;
  shape?: Record<string, Schema>;
  entries?: Record<string, unknown>;
  checks?: Array<{ _zod?: { def?: CheckDef } }>;
  minimum?: number;
}

interface CheckDef {
  check?: string;
  format?: string;
  value?: number;
  inclusive?: boolean;
  minimum?: number;
}

interface Schema {
  _zod?: { def?: Def };
}

/** A zod issue, as `safeParse` gives it. */
interface Issue {
  code?: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** A tool's arguments that its schema refuses; the message lists the problems. */
class ArgumentsError extends Error {
  /** @param problems One line each; those past {@linkcode SHOWN_ISSUES} are counted. */
  constructor(problems: string[]) {
    const shown = problems.slice(0, SHOWN_ISSUES);
    if (problems.length > SHOWN_ISSUES) {
      shown.push(`and ${formatCount(problems.length - SHOWN_ISSUES)} more`);
    }
    super(shown.join("\n"));
    this.name = "ArgumentsError";
  }
}

/**
 * Check each tool's arguments with its schema before the SDK would, answering a bad call with
 * {@linkcode argumentProblems}' lines as a tool error (`isError`, as the SDK answers its own
 * check: MCP's 2025-11-25 spec makes input validation a tool execution error, so that the model
 * reads it). Call once, after the tools are registered.
 *
 * @example
 * ```ts
 * import { loadMcpServer } from "../deps.ts";
 * import { checkArgumentsOurselves } from "./_mcp_errors.ts";
 * const sdk = await loadMcpServer();
 * const server = new sdk.McpServer({ name: "x", version: "1" });
 * checkArgumentsOurselves(server, sdk.z);
 * ```
 */
export function checkArgumentsOurselves(server: McpServer, z: Zod): void {
  // The SDK's own check is a private method of the pinned version; the tests call a tool with
  // bad arguments through the SDK's client, so a renamed method fails them.
  const sdkServer = server as unknown as {
    validateToolInput?: (tool: { inputSchema?: unknown }, args: unknown) => Promise<unknown>;
  };
  if (typeof sdkServer.validateToolInput !== "function") {
    throw new Error("The MCP SDK has no validateToolInput to replace: update _mcp_errors.ts");
  }
  sdkServer.validateToolInput = async (tool, args) => {
    if (elementsOver(args, MAX_ARGUMENT_ELEMENTS)) {
      const most = formatCount(MAX_ARGUMENT_ELEMENTS);
      throw new ArgumentsError([
        `Invalid arguments: more than ${most} list items and object keys in all (send fewer, ` +
        "or name a folder or glob in place of each of its files)",
      ]);
    }
    const schema = tool.inputSchema as Parameters<Zod["safeParseAsync"]>[0] | undefined;
    if (!schema) return undefined;
    const parsed = await z.safeParseAsync(schema, args ?? {});
    if (parsed.success) return parsed.data;
    // Zod reports one value twice when it fails two checks (an empty list where a non-empty
    // string is wanted: the type, and the length): each line is the argument and its value, so
    // the two were the same line.
    throw new ArgumentsError([
      ...new Set(argumentProblems(parsed.error.issues, schema, args ?? {})),
    ]);
  };
}

/** Whether `value` holds more than `most` array items and object keys, through every level. */
function elementsOver(value: unknown, most: number): boolean {
  let count = 0;
  const pending = [value];
  while (pending.length) {
    const next = pending.pop();
    if (next === null || typeof next !== "object") continue;
    // JSON's values only: arrays, and objects' own keys (the count stops past `most`).
    const children = Array.isArray(next) ? next : Object.values(next);
    count += children.length;
    if (count > most) return true;
    for (const child of children) {
      if (child !== null && typeof child === "object") pending.push(child);
    }
  }
  return false;
}

/**
 * One line per problem of `issues` (zod's, for `args` checked with `schema`): the argument's path,
 * what it takes, and the value sent (`Invalid argument "top": expected an integer from 0, got
 * "x"`); an unknown argument with the closest known one.
 */
function argumentProblems(
  issues: readonly Issue[],
  schema: unknown,
  args: unknown,
): string[] {
  return issues.flatMap((issue) => {
    const at = walk(schema as Schema, args, issue.path);
    if (issue.code === "unrecognized_keys") {
      const known = Object.keys(at.schema?._zod?.def?.shape ?? {});
      return (issue.keys ?? []).map((key) => unknownKey(key, issue.path, known));
    }
    const path = shownPath(issue.path);
    const expected = at.schema ? describe(at.schema) : issue.message;
    if (at.value === undefined) return [`Missing argument "${path}": expected ${expected}`];
    return [`Invalid argument "${path}": expected ${expected}, got ${shownValue(at.value)}`];
  });
}

/** An argument (or a key of one) the schema does not know, with the one meant. */
function unknownKey(key: string, parent: PropertyKey[], known: string[]): string {
  const hint = closest(key, known);
  const also = hint
    ? ` (did you mean "${hint}"?)`
    : known.length
    ? ` (known: ${known.join(", ")})`
    : "";
  const name = quote(cut(key));
  return parent.length
    ? `Unknown key ${name} in argument "${shownPath(parent)}"${also}`
    : `Unknown argument ${name}${also}`;
}

/** The schema and the value at `path` below the tool's schema and arguments. */
function walk(
  schema: Schema | undefined,
  value: unknown,
  path: PropertyKey[],
): { schema?: Schema; value: unknown } {
  let at = unwrap(schema);
  let here = value;
  for (const key of path) {
    const def = at?._zod?.def;
    const next = def?.type === "object"
      ? (Object.hasOwn(def.shape ?? {}, key) ? def.shape![key as string] : undefined)
      : def?.type === "array"
      ? def.element
      : def?.type === "record"
      ? def.valueType
      : undefined;
    at = unwrap(next);
    here = here !== null && typeof here === "object" && Object.hasOwn(here, key)
      ? (here as Record<PropertyKey, unknown>)[key]
      : undefined;
  }
  return { schema: at, value: here };
}

/** A schema without its `.optional()`, `.default()` or `.nullable()`. */
function unwrap(schema: Schema | undefined): Schema | undefined {
  let at = schema;
  while (["optional", "default", "nullable", "readonly"].includes(at?._zod?.def?.type ?? "")) {
    at = at?._zod?.def?.innerType;
  }
  return at;
}

/** What a schema takes, in words: `a positive integer`, `"a", "b" or "c"`, `a list of strings`. */
function describe(schema: Schema | undefined): string {
  const def = unwrap(schema)?._zod?.def ?? {};
  const checks = (def.checks ?? []).map((c) => c._zod?.def ?? {});
  const nonEmpty = checks.some((c) => c.check === "min_length" && (c.minimum ?? 0) >= 1);
  switch (def.type) {
    case "string":
      return nonEmpty ? "a non-empty string" : "a string";
    case "boolean":
      return "true or false";
    case "number": {
      const integer = checks.some((c) => c.check === "number_format" && /int/.test(c.format ?? ""));
      const low = checks.find((c) => c.check === "greater_than");
      const high = checks.find((c) => c.check === "less_than");
      const kind = integer ? "integer" : "number";
      const article = integer ? "an" : "a";
      const from = !low
        ? ""
        : low.value === 0 && !low.inclusive
        ? ""
        : low.inclusive
        ? ` from ${low.value}`
        : ` greater than ${low.value}`;
      const to = !high ? "" : high.inclusive ? ` up to ${high.value}` : ` less than ${high.value}`;
      const positive = low?.value === 0 && !low.inclusive;
      return `${positive ? "a positive" : article} ${kind}${from}${to}`;
    }
    case "enum": {
      const values = Object.values(def.entries ?? {}).map((v) => JSON.stringify(v));
      return values.length > 1
        ? `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`
        : values.join("");
    }
    case "array": {
      const element = unwrap(def.element)?._zod?.def?.type;
      const each = element === "string" ? "strings" : `items, each ${describe(def.element)}`;
      return `${nonEmpty ? "a non-empty" : "a"} list of ${each}`;
    }
    case "record":
      return `an object whose values are each ${describe(def.valueType)}`;
    case "object": {
      const keys = Object.entries(def.shape ?? {}).map(([key, sub]) =>
        sub._zod?.def?.type === "optional" ? `${key}?` : key
      );
      return `an object with ${keys.join(", ")}`;
    }
    default:
      return def.type ?? "a value";
  }
}

/** An argument's path as a message shows it: `slices[0].startLine`, `mask[a\nb…]`. */
function shownPath(path: PropertyKey[]): string {
  return path.map((key, i) =>
    typeof key === "number"
      ? `[${key}]`
      : typeof key === "string" && /^[A-Za-z_$][\w$]*$/.test(key) && key.length <= KEY_MAX
      ? (i ? `.${key}` : key)
      : `[${quote(cut(String(key))).slice(1, -1)}]`
  ).join("");
}

/** A key cut to {@linkcode KEY_MAX} characters (a secret in it redacted first, whole). */
function cut(key: string): string {
  const shown = redactMessage(key);
  return shown.length > KEY_MAX ? shown.slice(0, KEY_MAX) + "…" : shown;
}

/** A value as an argument error shows it: strings quoted and cut, containers by kind. */
function shownValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (Array.isArray(value)) return value.length ? `a list of ${value.length}` : "an empty list";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}
