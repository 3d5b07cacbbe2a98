/**
 * What a config's plugin gets in its hooks' contexts, guarded: `ctx.warn` takes any value and
 * names the plugin, `ctx.store` takes JSON data only, under keys of the config's plugins' own
 * (a plugin cannot write over an entry of slop's), and sections and ordering rules each get
 * their own copy of the file lists (one that empties or sorts its list changes nothing another
 * plugin, or the manifest, sees); the resolved config and a view's entry are frozen copies (a
 * hook that sets a field fails, naming the plugin).
 *
 * @module
 */

import { pluginLine, valueText } from "./error_text.ts";
import { sha256Hex } from "./helpers.ts";
import { isPlainObject, quote, typeName } from "./schema.ts";
import type { Store } from "./types.ts";

/**
 * The `warn` of a config's plugin's context: any value, as one line under the plugin's name
 * (`[plugin todo] 3 markers in "a.md"`).
 *
 * @example
 * ```ts
 * import { pluginWarn } from "./_plugin_context.ts";
 * pluginWarn("todo", console.warn)({ a: 1 }); // [plugin todo] {"a":1}
 * ```
 */
export function pluginWarn(
  plugin: string,
  warn: (message: string) => void,
): (message: unknown) => void {
  const prefix = `[plugin ${plugin}] `;
  return (message) => {
    const text = pluginLine(valueText(message));
    warn(text.startsWith(prefix) ? text : prefix + text);
  };
}

/** How deep a stored value may nest. */
const MAX_STORE_DEPTH = 1000;

/**
 * The `store` of a config's plugin's context: `set` refuses a value that is not JSON data (a
 * function, a bigint, a cycle, a `Map`, `NaN`, `undefined`) and a key that is not a string,
 * naming the key; the keys are kept apart from slop's own entries.
 *
 * @example
 * ```ts
 * import { guardedStore } from "./_plugin_context.ts";
 * const store = guardedStore({ get: async () => undefined, set: async () => {} });
 * await store.set("key", { summary: "A parser." });
 * ```
 */
export function guardedStore(store: Store): Store {
  return {
    get: (key) => store.get(storeKey("get", key)),
    set(key, value) {
      const name = storeKey("set", key);
      const fault = dataFault(value, "", new Set());
      if (fault) {
        return Promise.reject(
          new TypeError(
            `ctx.store.set(${quote(key)}) takes JSON data (objects, arrays, strings, finite ` +
              `numbers, booleans, null), got ${fault}`,
          ),
        );
      }
      return store.set(name, value);
    },
  };
}

/** The key a config's plugin's `key` is stored under; throws when `key` is not a string. */
function storeKey(call: string, key: unknown): string {
  if (typeof key !== "string") {
    throw new TypeError(`ctx.store.${call}() takes a string key, got ${typeName(key)}`);
  }
  return sha256Hex(`slop-plugin-store/1\0${key}`);
}

/** What in `value` is not JSON data, with where (`a function at "f.g"`), or `undefined`. */
function dataFault(value: unknown, at: string, above: Set<object>): string | undefined {
  const where = at ? ` at ${quote(at)}` : "";
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${value}${where}`;
  if (typeof value !== "object") return `${typeName(value)}${where}`;
  if (above.has(value)) return `a cycle${where}`;
  if (above.size >= MAX_STORE_DEPTH) return `values over ${MAX_STORE_DEPTH} levels deep${where}`;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) {
    return `${typeName(value)}${where}`;
  }
  above.add(value);
  try {
    for (const [key, item] of Object.entries(value)) {
      const fault = dataFault(item, at ? `${at}.${key}` : key, above);
      if (fault) return fault;
    }
  } finally {
    above.delete(value);
  }
  return undefined;
}

/** The own fields of objects handed to a plugin, as they were (`recordFields`). */
export type FieldRecord = ItemFields[];

/** One object's own fields, and the items of each array a field holds. */
interface ItemFields {
  fields: PropertyDescriptorMap;
  arrays: Map<PropertyKey, unknown[]>;
}

/**
 * The own fields of each of `items` (a getter by its function: a lazy text is not read), and the
 * items of each array a field holds (`notes`), to tell with {@linkcode restoreFields} whether a
 * plugin changed what it was only to read.
 *
 * @example
 * ```ts
 * import { recordFields, restoreFields } from "./_plugin_context.ts";
 * const files = [{ path: "a.md", text: "hi" }];
 * const record = recordFields(files);
 * files[0].text = "changed";
 * restoreFields(files, record); // { index: 0, key: "text" }, and files[0].text is "hi" again
 * ```
 */
export function recordFields(items: readonly object[]): FieldRecord {
  return items.map((item) => {
    const fields = Object.getOwnPropertyDescriptors(item);
    const arrays = new Map<PropertyKey, unknown[]>();
    for (const key of Reflect.ownKeys(fields)) {
      const value = fields[key as string].value;
      if (Array.isArray(value)) arrays.set(key, [...value]);
    }
    return { fields, arrays };
  });
}

/**
 * The first field of `items` that is not as `record` holds it (`undefined` when none is), each
 * changed item put back as it was (a build server keeps rendered files and blocks for the next
 * build: one a plugin changed would serve its change again).
 *
 * @example
 * ```ts
 * import { recordFields, restoreFields } from "./_plugin_context.ts";
 * const blocks = [{ id: "a", text: "hi" }];
 * restoreFields(blocks, recordFields(blocks)); // undefined
 * ```
 */
export function restoreFields(
  items: readonly object[],
  record: FieldRecord,
): { index: number; key: string } | undefined {
  let first: { index: number; key: string } | undefined;
  items.forEach((item, index) => {
    const key = changedKey(item, record[index]);
    if (key === undefined) return;
    first ??= { index, key };
    putBack(item, record[index]);
  });
  return first;
}

/** The first own field of `item` that is not as `was` holds it. */
function changedKey(item: object, was: ItemFields): string | undefined {
  const now = Object.getOwnPropertyDescriptors(item);
  for (const key of Reflect.ownKeys(was.fields)) {
    const before = was.fields[key as string];
    const after = now[key as string];
    if (!after || after.get !== before.get || !Object.is(after.value, before.value)) {
      return String(key);
    }
    const items = was.arrays.get(key);
    if (items && !sameItems(after.value as unknown[], items)) return String(key);
  }
  return Reflect.ownKeys(now).find((key) => !(key in was.fields))?.toString();
}

function sameItems(array: unknown[], items: unknown[]): boolean {
  return array.length === items.length && array.every((item, i) => Object.is(item, items[i]));
}

/** Put `item`'s own fields back as `was` holds them (one the plugin froze is left as it is). */
function putBack(item: object, was: ItemFields): void {
  try {
    for (const key of Reflect.ownKeys(item)) {
      if (!(key in was.fields)) delete (item as Record<PropertyKey, unknown>)[key];
    }
    for (const key of Reflect.ownKeys(was.fields)) {
      const items = was.arrays.get(key);
      if (items) (was.fields[key as string].value as unknown[]).splice(0, Infinity, ...items);
      Object.defineProperty(item, key, was.fields[key as string]);
    }
  } catch {
    // Frozen or sealed by the plugin: the build fails all the same.
  }
}

/** The frozen copy of each resolved config a config's plugin was given. */
const frozenConfigs = new WeakMap<object, object>();

/**
 * What a config's plugin sees of the resolved config (`ctx.config`, a section's `state.config`):
 * a frozen copy, made once for each config, so a hook that sets a field (`config.output.format =
 * "xml"`) fails naming the plugin instead of changing the build and every build after it in a
 * resident process. Plain objects and arrays are copied; functions, plugins' own objects of a
 * class and other values are shared as they are.
 *
 * @example
 * ```ts
 * import { frozenConfig } from "./_plugin_context.ts";
 * const seen = frozenConfig({ output: { format: "markdown" } });
 * Object.isFrozen(seen.output); // true
 * ```
 */
export function frozenConfig<T extends object>(config: T): T {
  let copy = frozenConfigs.get(config) as T | undefined;
  if (!copy) frozenConfigs.set(config, copy = frozenCopy(config));
  return copy;
}

/**
 * A frozen copy of `value`'s plain objects and arrays, deep (each object copied once, cycles
 * kept); other objects are shared.
 *
 * @example
 * ```ts
 * import { frozenCopy } from "./_plugin_context.ts";
 * const entry = { path: "src/**", options: { depth: 2 } };
 * frozenCopy(entry).options === entry.options; // false
 * ```
 */
export function frozenCopy<T>(value: T, seen = new Map<object, unknown>()): T {
  if (typeof value !== "object" || value === null) return value;
  const made = seen.get(value);
  if (made) return made as T;
  if (!Array.isArray(value) && !isPlainObject(value)) return value;
  const copy: Record<PropertyKey, unknown> = Array.isArray(value)
    ? new Array(value.length)
    : Object.create(Object.getPrototypeOf(value));
  seen.set(value, copy);
  for (const key of Reflect.ownKeys(value)) {
    const field = Object.getOwnPropertyDescriptor(value, key)!;
    if ("value" in field) field.value = frozenCopy(field.value, seen);
    Object.defineProperty(copy, key, field);
  }
  return Object.freeze(copy) as T;
}

/**
 * A copy of `options` whose keys note when a hook reads their value (`options.depth`, a
 * destructuring, a spread, `JSON.stringify`, `structuredClone`). Lets the render stage tell an
 * entry's option a config's view never read, most often a misspelled key, which would otherwise
 * change nothing and say nothing. Getters rather than a `Proxy`: the copy stays plain data a view
 * may post to a worker or clone.
 *
 * @example
 * ```ts
 * import { readTracked } from "./_plugin_context.ts";
 * const { options, read } = readTracked({ markers: ["XXX"], markres: 1 });
 * options.markers;
 * [...read]; // ["markers"]
 * ```
 */
export function readTracked(
  options: Record<string, unknown>,
): { options: Record<string, unknown>; read: Set<string> } {
  const read = new Set<string>();
  const tracked: Record<string, unknown> = {};
  for (const key of Object.keys(options)) {
    let value = options[key];
    Object.defineProperty(tracked, key, {
      get: () => (read.add(key), value),
      set: (next) => (value = next),
      enumerable: true,
      configurable: true,
    });
  }
  return { options: tracked, read };
}
