/**
 * A config read once: its plain objects and arrays copied, so that a getter or a proxy in it
 * is asked once, here, where a value it throws on is named by its key path, and not again
 * later in the build where the error would name nothing (or a value changes between reads).
 * An array with an empty slot (`[, "a.py"]`) is named too: the validator's loops skip slots.
 *
 * @module
 */

import { isPlainObject, quote } from "./schema.ts";
import { errorText } from "./error_text.ts";

/** Deeper than this the copy keeps the value as it is (the validator bounds `options`' depth). */
const MAX_DEPTH = 64;

/**
 * A config that could not be read: the key path at fault and what it says.
 *
 * @example
 * ```ts
 * import { ConfigReadError } from "./_config_copy.ts";
 * new ConfigReadError("files[0].view", "boom").message; // 'Cannot read "files[0].view": boom'
 * ```
 */
export class ConfigReadError extends Error {
  /**
   * @param path The key path read (`files[0].view`), or `""` for the config itself.
   * @param problem What the read threw, or what is wrong there.
   */
  constructor(path: string, problem: string) {
    super(path ? `Cannot read "${path}": ${problem}` : `Cannot read the config: ${problem}`);
    this.name = "ConfigReadError";
  }
}

/**
 * A copy of `raw`'s plain objects and arrays (any other value kept as it is; `plugins`' items
 * too, which the registry reads with its own checks); throws a {@linkcode ConfigReadError}
 * naming the key path of a read that throws or of an array's empty slot.
 *
 * @example
 * ```ts
 * import { readConfigOnce } from "./_config_copy.ts";
 * readConfigOnce({ files: ["a.py"] }); // { files: ["a.py"] }, a copy
 * // readConfigOnce({ files: [, "a.py"] }) throws: Cannot read "files[0]": an empty slot ...
 * ```
 */
export function readConfigOnce<T>(raw: T): T {
  const seen = new Set<object>();
  const copy = (value: unknown, path: string, depth: number): unknown => {
    if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return value;
    // A cycle stays a cycle, for the validator to name.
    if (seen.has(value)) return value;
    let plain: boolean;
    let array: boolean;
    try {
      array = Array.isArray(value);
      plain = array || isPlainObject(value);
    } catch (error) {
      throw new ConfigReadError(path, errorText(error));
    }
    if (!plain) return value;
    seen.add(value);
    try {
      if (array) return copyArray(value as unknown[], path, depth);
      const out: Record<string, unknown> = Object.getPrototypeOf(value) === null
        ? Object.create(null)
        : {};
      for (const key of read(() => Object.keys(value), path)) {
        const at = path ? `${path}.${shownKey(key)}` : shownKey(key);
        const item = read(() => (value as Record<string, unknown>)[key], at);
        const kept = path === "" && key === "plugins" && Array.isArray(item)
          ? copyArray(item, at, Infinity)
          : copy(item, at, depth + 1);
        // Defined, not assigned: an own `__proto__` key stays a key (and an unknown one).
        Object.defineProperty(out, key, {
          value: kept,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    } finally {
      seen.delete(value);
    }
  };
  const copyArray = (list: unknown[], path: string, depth: number): unknown[] => {
    const length = read(() => list.length, path);
    const keys = read(() => Object.keys(list), path);
    if (keys.length < length) {
      let slot = 0;
      while (read(() => slot in list, path)) slot++;
      throw new ConfigReadError(`${path}[${slot}]`, "an empty slot in the array (two commas?)");
    }
    return Array.from(
      { length },
      (_, i) => read(() => list[i], `${path}[${i}]`, (item, at) => copy(item, at, depth + 1)),
    );
  };
  return copy(raw, "", 0) as T;
}

/** `get()`, or a {@linkcode ConfigReadError} naming `path` with what it threw. */
function read<T, R = T>(get: () => T, path: string, then?: (value: T, path: string) => R): R {
  let value: T;
  try {
    value = get();
  } catch (error) {
    throw new ConfigReadError(path, errorText(error));
  }
  return then ? then(value, path) : value as unknown as R;
}

/** A key as a key path shows it: control characters escaped, cut when long. */
function shownKey(key: string): string {
  return quote(key).slice(1, -1);
}
