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

import type { DeriveFn } from "../pipeline/types.ts";

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
  let now = new Map<string, Map<string, unknown>>();
  let before = new Map<string, Map<string, unknown>>();
  return {
    derived<T>(text: string, salt: string, compute: () => T): T {
      let values = now.get(text);
      if (!values) {
        values = before.get(text) ?? new Map<string, unknown>();
        now.set(text, values);
      }
      let value = values.get(salt) as T | undefined;
      if (value === undefined) values.set(salt, value = compute());
      return value;
    },
    turn() {
      before = now;
      now = new Map();
    },
    drop() {
      before = new Map();
    },
  };
}
