/**
 * A small structural validator for the config: each rule checks a value at a
 * key path and reports errors that name the path (`files[3].view`).
 *
 * @module
 */

import { redactMessage } from "./redact_message.ts";
import { closest } from "./closest.ts";
import { oneLine } from "./error_text.ts";

// (the modules that quote values import it from here)
export { oneLine };

export { closest };

/** A validation rule: returns error messages for `value` at `path`. */
export type Rule = (value: unknown, path: string) => string[];

/**
 * What a value is, as a message says after "got": `null`, `an array`, `a Map`, `the string "x"`,
 * `the bigint 5n`, `a symbol`, `a function`, `number 7`. Never JSON's text, which has no bigint
 * (it throws) and no function or symbol (it is `undefined`).
 *
 * @example
 * ```ts
 * import { typeName } from "./schema.ts";
 * typeName(5n); // "the bigint 5n"
 * ```
 */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  // A list item or a variable left undefined in a `.ts` config (it was "undefined undefined").
  if (value === undefined) return "no value (undefined)";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return isPlainObject(value) ? "an object" : classOf(value);
  if (typeof value === "string") return `the string ${quote(value)}`;
  if (typeof value === "symbol") return "a symbol";
  if (typeof value === "bigint") return `the bigint ${value}n`;
  // A function's source may be long and many lines: what it is is enough.
  if (typeof value === "function") return "a function";
  return `${typeof value} ${String(value)}`;
}

/** What an object that is not plain data is: `a Map`, `an object with another prototype`. */
function classOf(value: object): string {
  try {
    const name = Object.getPrototypeOf(value)?.constructor?.name;
    if (typeof name === "string" && name && name !== "Object") {
      return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
    }
  } catch {
    // A proxy that throws when asked: described as below.
  }
  return "an object whose prototype is not Object's (write a plain { ... } object)";
}

/** Longest stretch of a value a message quotes; the rest is cut with `…`. */
const QUOTE_MAX = 100;

/**
 * `value` in double quotes as an error message shows it: control characters escaped
 * (`\n`, `\0`, `\u{1b}`) so it stays on one line, and cut after 100 characters. A secret in
 * it is redacted before the cut: cut first, a key across the 100th character would keep its
 * first part, too short for a rule to know it afterwards.
 *
 * @example
 * ```ts
 * import { quote } from "./schema.ts";
 * quote("a\nb"); // '"a\\nb"'
 * ```
 */
export function quote(value: string): string {
  const shown = redactMessage(value);
  const cut = shown.length > QUOTE_MAX ? shown.slice(0, QUOTE_MAX) + "…" : shown;
  return `"${oneLine(cut)}"`;
}

/** A string. */
export function str(): Rule {
  return (v, p) => typeof v === "string" ? [] : [`"${p}" must be a string, got ${typeName(v)}`];
}

/**
 * Whether `value` shows nothing: white space, control characters and invisible format
 * characters only (a zero-width space, a bidi mark, a byte order mark), or lone surrogates, which
 * no text holds. A task of these alone is empty: nothing to read, no word to rank by.
 *
 * @example
 * ```ts
 * import { blankText } from "./schema.ts";
 * blankText(" \u200b\n"); // true
 * blankText("fix it"); // false
 * ```
 */
export function blankText(value: string): boolean {
  return !/[^\s\p{Cc}\p{Cf}\p{Cs}]/u.test(value);
}

/**
 * A string with something besides white space in it (a task, a name): see {@linkcode blankText}.
 *
 * @example
 * ```ts
 * import { text } from "./schema.ts";
 * text()(" ", "task"); // ['"task" must not be empty']
 * ```
 */
export function text(): Rule {
  return (v, p) =>
    typeof v !== "string"
      ? [`"${p}" must be a string, got ${typeName(v)}`]
      : blankText(v)
      ? [`"${p}" must not be empty`]
      : [];
}

/**
 * A path or glob: a string that is not empty and holds no NUL byte (no file name can).
 *
 * @example
 * ```ts
 * import { pathText } from "./schema.ts";
 * pathText()("", "lock"); // ['"lock" must be a path, got an empty string']
 * ```
 */
export function pathText(): Rule {
  return (v, p) =>
    typeof v !== "string"
      ? [`"${p}" must be a string, got ${typeName(v)}`]
      : v === ""
      ? [`"${p}" must be a path, got an empty string`]
      : v.includes("\0")
      ? [`"${p}" must not hold a NUL byte, got ${quote(v)}`]
      : [];
}

/**
 * A name that becomes part of a file name (`output.namespace`): not empty, no `/`, `\` or NUL,
 * not `.` or `..`, so that it cannot point into another folder.
 *
 * @example
 * ```ts
 * import { fileName } from "./schema.ts";
 * fileName()("../x", "output.namespace").length; // 1
 * ```
 */
export function fileName(): Rule {
  return (v, p) =>
    typeof v !== "string"
      ? [`"${p}" must be a string, got ${typeName(v)}`]
      : v === "" || v === "." || v === ".." || /[/\\\0]/.test(v)
      ? [`"${p}" must be a name without "/" or "\\" (part of a file name), got ${quote(v)}`]
      : [];
}

/**
 * A string `pattern` matches whole (a name with a syntax of its own: an environment variable, a
 * cache lifetime), else a problem that names the key path, the value and `expected`.
 *
 * @example
 * ```ts
 * import { matching } from "./schema.ts";
 * matching(/^[A-Z_]+$/, "a NAME")("a=b", "provider.apiKeyEnv");
 * // ['"provider.apiKeyEnv" must be a NAME, got "a=b"']
 * ```
 */
export function matching(pattern: RegExp, expected: string): Rule {
  return (v, p) =>
    typeof v !== "string"
      ? [`"${p}" must be a string, got ${typeName(v)}`]
      : pattern.test(v)
      ? []
      : [`"${p}" must be ${expected}, got ${v === "" ? "an empty string" : quote(v)}`];
}

/**
 * An absolute `http:` or `https:` URL (a provider's API base), else a problem naming the key path.
 *
 * @example
 * ```ts
 * import { httpUrl } from "./schema.ts";
 * httpUrl()("api.example.com", "provider.baseUrl").length; // 1
 * httpUrl()("https://api.example.com/v1", "provider.baseUrl"); // []
 * ```
 */
export function httpUrl(): Rule {
  return (v, p) => {
    if (typeof v !== "string") return [`"${p}" must be a string, got ${typeName(v)}`];
    let url: URL | undefined;
    try {
      url = new URL(v);
    } catch {
      url = undefined;
    }
    const ok = url !== undefined && (url.protocol === "http:" || url.protocol === "https:") &&
      !/[\s\p{Cc}]/u.test(v);
    return ok ? [] : [
      `"${p}" must be an http or https URL (such as "https://api.example.com/v1"), got ${
        v === "" ? "an empty string" : quote(v)
      }`,
    ];
  };
}

/** A boolean. */
export function bool(): Rule {
  return (v, p) => typeof v === "boolean" ? [] : [`"${p}" must be a boolean, got ${typeName(v)}`];
}

/** A finite number, optionally an integer, with a minimum and a maximum. */
export function num(options: { integer?: boolean; min?: number; max?: number } = {}): Rule {
  return (v, p) => {
    if (typeof v !== "number" || !Number.isFinite(v)) {
      return [`"${p}" must be a number, got ${typeName(v)}`];
    }
    if (options.integer && !Number.isInteger(v)) return [`"${p}" must be a whole number, got ${v}`];
    if (options.min !== undefined && v < options.min) {
      return [`"${p}" must be at least ${options.min}, got ${v}`];
    }
    if (options.max !== undefined && v > options.max) {
      return [`"${p}" must be at most ${options.max}, got ${v}`];
    }
    return [];
  };
}

/** One of the given literals. */
export function literal(...values: Array<string | number | boolean>): Rule {
  return (v, p) =>
    values.includes(v as string) ? [] : [
      `"${p}" must be one of ${values.map((x) => JSON.stringify(x)).join(", ")}, got ${
        typeName(v)
      }`,
    ];
}

/** A function. */
export function fn(): Rule {
  return (v, p) => typeof v === "function" ? [] : [`"${p}" must be a function, got ${typeName(v)}`];
}

/** How deep {@linkcode data} may nest: its cache key is built by recursion. */
const MAX_DEPTH = 64;

/**
 * Data that can join a cache key: no cycles, no bigint or symbol, at most 64 levels deep.
 *
 * @example
 * ```ts
 * import { data } from "./schema.ts";
 * const cyclic: Record<string, unknown> = {};
 * cyclic.self = cyclic;
 * data()(cyclic, "files[0].options"); // ['"files[0].options" must not refer to itself ...']
 * ```
 */
export function data(): Rule {
  return (v, p) => {
    const seen = new Set<object>();
    const visit = (value: unknown, path: string): string[] => {
      if (typeof value === "bigint" || typeof value === "symbol") {
        return [`"${path}" must be plain data, got ${typeName(value)}`];
      }
      if (typeof value !== "object" || value === null) return [];
      if (seen.has(value)) return [`"${p}" must not refer to itself (a cycle at "${path}")`];
      if (seen.size >= MAX_DEPTH) return [`"${p}" must be at most ${MAX_DEPTH} levels deep`];
      seen.add(value);
      const entries = Array.isArray(value)
        ? value.map((x, i): [string, unknown] => [`${path}[${i}]`, x])
        : Object.entries(value).map(([k, x]): [string, unknown] => [`${path}.${k}`, x]);
      const errors = entries.flatMap(([at, x]) => visit(x, at)).slice(0, 1);
      seen.delete(value);
      return errors;
    };
    return visit(v, p);
  };
}

/** Anything (checked elsewhere). */
export function any(): Rule {
  return () => [];
}

/** An array whose items all follow `item`. */
export function arr(item: Rule): Rule {
  const rule: Rule = (v, p) => {
    if (!Array.isArray(v)) return [`"${p}" must be an array, got ${typeName(v)}`];
    return v.flatMap((x, i) => item(x, `${p}[${i}]`));
  };
  (rule as { arrayRule?: boolean }).arrayRule = true;
  return rule;
}

/** A plain object with string keys mapped to `item`. */
export function record(item: Rule): Rule {
  return (v, p) => {
    if (!isPlainObject(v)) return [`"${p}" must be an object, got ${typeName(v)}`];
    return Object.entries(v).flatMap(([k, x]) => item(x, p ? `${p}.${k}` : k));
  };
}

/** The first rule that accepts the value; otherwise the errors of the rule picked by `pick`. */
export function union(rules: Rule[], expected: string): Rule {
  return (v, p) => {
    for (const rule of rules) if (rule(v, p).length === 0) return [];
    // Report the detailed errors of an object rule when the value is an object.
    if (isPlainObject(v)) {
      const objectRule = rules.find((r) => (r as { objectRule?: boolean }).objectRule);
      if (objectRule) return objectRule(v, p);
    }
    // And those of an array rule when the value is an array (naming the item at fault).
    if (Array.isArray(v)) {
      const arrayRule = rules.find((r) => (r as { arrayRule?: boolean }).arrayRule);
      if (arrayRule) return arrayRule(v, p);
    }
    // And those of a string rule when the value is a string (a glob too long or too starred).
    if (typeof v === "string") {
      const stringRule = rules.find((r) => (r as { stringRule?: boolean }).stringRule);
      if (stringRule) return stringRule(v, p);
    }
    return [`"${p}" must be ${expected}, got ${typeName(v)}`];
  };
}

/** An object with known keys; unknown keys are errors with a "did you mean" hint. */
export function obj(shape: Record<string, Rule>, required: string[] = []): Rule {
  const rule: Rule = (v, p) => {
    if (!isPlainObject(v)) return [`"${p || "config"}" must be an object, got ${typeName(v)}`];
    const errors: string[] = [];
    for (const key of required) {
      if (!(key in v) || v[key] === undefined) errors.push(`"${join(p, key)}" is required`);
    }
    for (const [key, value] of Object.entries(v)) {
      const path = join(p, key);
      // Own keys only: `constructor` or `toString` would find Object.prototype's as a rule.
      const check = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (!check) {
        const hint = closest(key, Object.keys(shape));
        const shown = join(p, quote(key).slice(1, -1));
        errors.push(`Unknown key "${shown}"${hint ? ` (did you mean "${join(p, hint)}"?)` : ""}`);
        continue;
      }
      if (value === undefined) continue;
      errors.push(...check(value, path));
    }
    return errors;
  };
  (rule as { objectRule?: boolean }).objectRule = true;
  return rule;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** True for `{}`-like objects (not arrays, not null). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
