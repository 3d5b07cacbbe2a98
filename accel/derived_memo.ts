/**
 * A long-running process's memo of values made from a text alone (a file's
 * block, its content key for the order, a block's UTF-8 length), handed to the
 * stages as the build's `DeriveFn` (`BuildRun.derived`, a section's
 * `ctx.derived`) in place of `derived()` of `pipeline/helpers.ts`, which
 * computes every time. A rendered file's text is the same string from build to
 * build in such a process (its kept renders), so a lookup does not even hash
 * it again.
 *
 * @module
 */

import type { DeriveFn, RecordFn } from "../pipeline/types.ts";

/** A memo of values made from texts, in two generations: this build's and the last one's. */
export interface DerivedMemo {
  /** The value for `text` and `salt`: made by `compute` once, then the same value. */
  derived: DeriveFn;
  /** Start a build: the values neither this build nor the last one used are dropped. */
  turn(): void;
  /** Drop the last build's values this build did not use (a config loaded again: see `resident.ts`). */
  drop(): void;
}

/**
 * A memo of values made from texts, kept by text and salt for the current and the last build.
 *
 * @example
 * ```ts
 * import { derivedMemo } from "./derived_memo.ts";
 * const memo = derivedMemo();
 * memo.derived("text", "length", () => 4); // 4
 * memo.turn();
 * memo.derived("text", "length", () => 5); // 4: made in the last build
 * ```
 */
export function derivedMemo(): DerivedMemo {
  // One map, each text's values marked with the last build that used them (see `generations()`
  // of `resident.ts`): not moved to a new map at each build.
  const texts = new Map<string, { values: Map<string, unknown>; used: number }>();
  let build = 0;
  const keepFrom = (oldest: number) => {
    texts.forEach((entry, text) => entry.used < oldest && texts.delete(text));
  };
  return {
    derived<T>(text: string, salt: string, compute: () => T): T {
      let entry = texts.get(text);
      if (entry === undefined) texts.set(text, entry = { values: new Map(), used: build });
      else entry.used = build;
      let value = entry.values.get(salt) as T | undefined;
      if (value === undefined) entry.values.set(salt, value = compute());
      return value;
    },
    turn() {
      keepFrom(build);
      build++;
    },
    drop() {
      keepFrom(build);
    },
  };
}

/**
 * A memo of values made from records (a rendered file's block), by record and salt, held while
 * the record is: a resident's kept render is the same record from build to build (and no stage
 * changes one once it is made), so its values are made once; a record let go of lets go of them.
 *
 * A record's values of every salt (a file's block, its manifest entry) are one object, held by the
 * record itself under a symbol of this memo's, as a property no one else sees (not enumerable: no
 * spread, `Object.keys()`, JSON or copy of the record takes it): one property look a value, where a
 * `WeakMap` for each salt took a look of a table of a big tree's every record, several a file
 * (bench/README.md, "seventeenth session"). A frozen record (a manifest entry) cannot take it: its
 * values are kept in a `WeakMap` by salt. The values live as long as the record, not the memo.
 *
 * @example
 * ```ts
 * import { recordMemo } from "./derived_memo.ts";
 * const fromRecord = recordMemo();
 * const file = { path: "a.py" };
 * fromRecord(file, "block", () => ({ id: "files:a.py" })) === fromRecord(file, "block", () => ({})); // true
 * Object.keys(file); // ["path"]
 * ```
 */
export function recordMemo(): RecordFn {
  // This memo's own: two memos (two residents) never share a record's values.
  const held = Symbol("record values");
  const frozen = new Map<string, WeakMap<object, unknown>>();
  return <T>(record: object, salt: string, compute: () => T): T => {
    let values = (record as Record<symbol, Values | undefined>)[held];
    if (values === undefined) {
      if (!Object.isExtensible(record)) return frozenValue(frozen, { record, salt, compute });
      values = new Values();
      Object.defineProperty(record, held, { value: values });
    }
    let value = values[salt] as T | undefined;
    if (value === undefined) values[salt] = value = compute();
    return value;
  };
}

/** One record's values by salt. */
type Values = Record<string, unknown>;

/**
 * Makes {@linkcode Values}: objects whose prototype has no properties (no salt is an inherited
 * name, such as `constructor`), with their few salts as their own properties (an object made by
 * `Object.create(null)` keeps them in a hash table of its own, larger and slower).
 */
const Values = function () {} as unknown as new () => Values;
Values.prototype = Object.create(null);

/** A frozen record's value for `salt`, kept in a `WeakMap` of that salt's. */
function frozenValue<T>(
  bySalt: Map<string, WeakMap<object, unknown>>,
  { record, salt, compute }: { record: object; salt: string; compute: () => T },
): T {
  let values = bySalt.get(salt);
  if (values === undefined) bySalt.set(salt, values = new WeakMap());
  let value = values.get(record) as T | undefined;
  if (value === undefined) values.set(record, value = compute());
  return value;
}
