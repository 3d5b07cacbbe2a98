/**
 * Whether a block a resident process remembers (`BlockMemo`, kept from an
 * earlier build) has the text of a block of this build, without reading the
 * texts when they are kept out of memory (`pipeline/lazy_text.ts`): a lazy
 * file block is its heading, its file's text and its fence, and the file's
 * text is the same record from build to build while the file renders the same
 * (a resident's kept renders). Reading them would decode every text of a big
 * tree at each rebuild.
 *
 * @module
 */

import { lazyCopy, textBacking } from "../pipeline/lazy_text.ts";
import type { RecordFn } from "../pipeline/types.ts";

/**
 * Whether `known` (a memo's record of a block) and `block` have the same text: `"record"` when
 * they are known the same unread (the same record of the file's text with the same heading and
 * fence when both are lazy file blocks), `"read"` when their texts were compared, `false` when
 * they differ (both lazy with other lengths: neither read).
 */
function sameText(known: { text: string }, block: { text: string }): "record" | "read" | false {
  const was = textBacking(known);
  const now = textBacking(block);
  if (was && now && (was === now || was.sameAs?.(now))) return "record";
  // Texts of other lengths differ: neither is read back (a config loaded again with another view
  // or entry renders every file anew, and each look would decode the old text and the new).
  if (was && now && was.length !== now.length) return false;
  return known.text === block.text ? "read" : false;
}

/** `known`'s values (all but its text, which is not read) with `block`'s text (`withText`). */
function rebased<T extends { text: string }>(known: T, block: { text: string }): T {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(known)) {
    if (key !== "text") values[key] = (known as Record<string, unknown>)[key];
  }
  return withText(values, block) as unknown as T;
}

/**
 * `entry` with `block`'s text: lazy when the block's is (the memo holds the block's record, not
 * its text), else the text itself.
 *
 * @example
 * ```ts
 * import { withText } from "./_same_text.ts";
 * withText({ sha256: "00", length: 1 }, { text: "a" }).text; // "a"
 * ```
 */
export function withText<T extends object>(
  entry: T,
  block: { text: string },
): T & { text: string } {
  const backing = textBacking(block);
  return backing ? lazyCopy({ text: "", ...entry }, backing) : { text: block.text, ...entry };
}

/**
 * An entry of a resident's memo (`generations()` of `resident.ts`): its value, and the build that
 * last used it; `used` is -1 once the memo let go of it. A value set again for its key is a new
 * entry (this one let go of): an entry held is the memo's value for its key while it is used.
 */
export interface MemoEntry<T> {
  readonly value: T;
  used: number;
}

/** A memo by string key whose entries can be held and used again without their key. */
export interface KeptMemo<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  /** The entry held for `key` (not marked used: `get` or `use` does). */
  entry?(key: string): MemoEntry<T> | undefined;
  /** Mark `entry` used by this build: false when the memo let go of it. */
  use?(entry: MemoEntry<T>): boolean;
}

/**
 * What a resident keeps with a block record (by the build's `fromRecord`: a file's block is the
 * same record from build to build while its render is): the block memo's entry found the same as
 * its text, and the build that last found it (so each block is compared once a build).
 */
interface KnownKept<T> {
  entry?: MemoEntry<T>;
  build?: object;
}

/**
 * A build's lookup of the block memo: `memo`'s record of a block when it has the block's text
 * (`sameText`), else undefined; each block looked up once in the build (the order and the count
 * stages ask for every block, and each look compares the records of a big tree's every block).
 * A block the memo did not know is looked up again: the count stage remembers it. A record found
 * the same by reading both texts (this build's text is another record of the same text: a config
 * loaded again rendered the file anew) is kept with this build's text from then on: the memo
 * holds no earlier build's texts (nor the spill file they are in), and the next build knows the
 * block unread.
 *
 * With `fromRecord` (a resident's memo of records) and a memo that hands out its entries, the
 * entry found for a block record is kept with the record: the next build's look of the same
 * record (an unchanged file's block) is one look of the record memo, the entry marked used, with
 * no look by the block's id in the memo's map of a big tree's every block, and no compare.
 *
 * @example
 * ```ts
 * import { knownOnce } from "./_same_text.ts";
 * const known = knownOnce({ get: () => ({ text: "a", tokens: 1 }), set: () => {} });
 * known({ id: "x", text: "a" })?.tokens; // 1
 * ```
 */
export function knownOnce<T extends { text: string }>(
  memo: KeptMemo<T>,
  fromRecord?: RecordFn,
): (block: { id: string; text: string }) => T | undefined {
  const lookUp = (block: { id: string; text: string }) => {
    let known = memo.get(block.id);
    const same = known && sameText(known, block);
    if (!known || !same) return undefined;
    if (same === "read") memo.set(block.id, known = rebased(known, block));
    return known;
  };
  const { entry, use } = memo;
  if (!fromRecord || !entry || !use) {
    const seen = new Map<object, T>();
    return (block) => {
      let known = seen.get(block);
      if (known) return known;
      known = lookUp(block);
      if (known) seen.set(block, known);
      return known;
    };
  }
  // This build, as the records' `build` holds it.
  const build = {};
  return (block) => {
    const kept = fromRecord(block, "known block", (): KnownKept<T> => ({}));
    const held = kept.entry;
    if (held && (kept.build === build || use.call(memo, held))) {
      kept.build = build;
      return held.value;
    }
    const known = lookUp(block);
    kept.entry = known && entry.call(memo, block.id);
    kept.build = known && build;
    return known;
  };
}
