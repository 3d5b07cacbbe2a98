/**
 * A text kept somewhere else than the heap (a file on disk), read again each
 * time its `text` property is read. A big tree's texts are most of what a
 * build holds (bench/README.md, "Monorepo scale"): a source, a rendered file
 * and a file block whose text is lazy hold a few numbers instead, and each
 * stage that reads the text gets the same string as before, for as long as it
 * uses it. The `text` property stays a string property (an accessor), so
 * plugins read it as they always did; setting it replaces the lazy text with
 * the value set. A copy made by object spread gets the text itself (read
 * once), not the laziness: code that keeps copies of many blocks copies them
 * with {@linkcode copyLazy}.
 *
 * Where the texts are kept is a speed layer's choice (`accel/text_spill.ts`);
 * the plain stages never make a text lazy.
 *
 * @module
 */

import { type BidiControls, bidiControls } from "./bidi_controls.ts";
import { countWork } from "./_work_count.ts";

/** Where a lazy text is kept: read it again, whole. */
export interface TextBacking {
  /** The text, read again (the same characters each time). */
  read(): string;
  /** The text's length in UTF-16 code units (`text.length`), known without reading it. */
  length: number;
  /**
   * The text's UTF-8 bytes, read again without decoding them: valid until the next text's bytes
   * are read (one buffer is reused), so they are hashed or written at once.
   */
  bytes?(): Uint8Array;
  /**
   * The parts the text is the join of (a file block: heading, the file's text, fence), read
   * again; the stages that hash, count and write a block read them one by one.
   */
  parts?(): string[];
  /** {@linkcode TextBacking.parts}, each part's text as its UTF-8 bytes where that is cheaper. */
  byteParts?(): Array<string | Uint8Array>;
  /** What a file block's fence needs of the text, noted while the text was at hand. */
  marks?: TextMarks;
  /** The length of the text's UTF-8 bytes, when known without reading them. */
  byteLength?: number;
  /**
   * A value made from the text by `compute` (`salt` names what it is), remembered by the text's
   * bytes from one build to the next (a warm build's unchanged texts are not hashed again).
   */
  derive?(salt: string, compute: () => string): string;
  /**
   * Whether `other` is known to read the same text as this one without reading either (a file
   * block of the same heading and fence around the same record of its file's text); `false`
   * when it is not known.
   */
  sameAs?(other: TextBacking): boolean;
  /**
   * A name of the text's bytes by which a later build that keeps the same bytes the same way names
   * them too, without reading them (a text kept in the cache's pack: its record's sha256, where it
   * starts and its size; a file block: its file's text's name, with its heading and fence);
   * `undefined` when there is none.
   */
  named?(): string | undefined;
}

/**
 * `compute()`, a value made from `target`'s text (`salt` names what it is), or the one its lazy
 * text remembers (see {@linkcode TextBacking.derive}).
 *
 * @example
 * ```ts
 * import { derivedFromText } from "./lazy_text.ts";
 * derivedFromText({ text: "x" }, "length", () => "1"); // "1"
 * ```
 */
export function derivedFromText(
  target: { text?: string },
  salt: string,
  compute: () => string,
): string {
  const backing = textBacking(target);
  return backing?.derive ? backing.derive(salt, compute) : compute();
}

/**
 * What the files section needs of a text to fence it (its longest run of backticks, and whether
 * it ends a line) and to note its bidirectional controls: noted as a text is kept out of memory,
 * so that its block is made without reading the text back (a big tree's every text, decoded once
 * more for this alone).
 */
export interface TextMarks {
  /** The longest run of backticks (\`) in the text; 0 when it has none. */
  backticks: number;
  /** Whether the text is empty or ends with a line feed: no line break goes before its fence. */
  lineEnded: boolean;
  /** The bidirectional controls in the text (`./bidi_controls.ts`), absent when it has none. */
  bidi?: BidiControls;
}

/**
 * The {@linkcode TextMarks} of a text.
 *
 * @example
 * ```ts
 * import { textMarks } from "./lazy_text.ts";
 * textMarks("a " + "`".repeat(3) + " b\n"); // { backticks: 3, lineEnded: true }
 * textMarks(""); // { backticks: 0, lineEnded: true }
 * ```
 */
export function textMarks(text: string): TextMarks {
  let backticks = 0;
  // Runs found by position: a match object per run was a large file's worth of garbage.
  for (let i = text.indexOf("`"); i >= 0; i = text.indexOf("`", i)) {
    const start = i;
    while (text.charCodeAt(++i) === 96);
    backticks = Math.max(backticks, i - start);
  }
  const marks: TextMarks = { backticks, lineEnded: text === "" || text.endsWith("\n") };
  // Set only when there are some: a field on every text's marks is bytes held for each file.
  const bidi = bidiControls(text);
  if (bidi) marks.bidi = bidi;
  return marks;
}

/**
 * The marks of `target`'s text: noted with its lazy text when there are (not read), else made
 * from the text.
 *
 * @example
 * ```ts
 * import { marksOf } from "./lazy_text.ts";
 * marksOf({ text: "x" }); // { backticks: 0, lineEnded: false }
 * ```
 */
export function marksOf(target: { text?: string }): TextMarks {
  return textBacking(target)?.marks ?? textMarks(target.text ?? "");
}

/**
 * On an object whose `text` is lazy: its backing. Not enumerable, so that a copy made by spread
 * or `Object.assign` (which reads the text) does not take it; `text` set drops it.
 */
const LAZY: unique symbol = Symbol("slop.lazyText");

/** The backing's property: not enumerable (see {@linkcode LAZY}). */
function setBacking(target: object, backing: TextBacking): void {
  if (Object.hasOwn(target, LAZY)) (target as Lazy)[LAZY] = backing;
  else Object.defineProperty(target, LAZY, { value: backing, writable: true, configurable: true });
}

type Lazy = { [LAZY]?: TextBacking };

// One accessor pair for every lazy text (a pair of closures each was most of what one held).
function getText(this: Lazy): string {
  return this[LAZY]!.read();
}

function setText(this: object, value: string | undefined): void {
  Object.defineProperty(this, "text", {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
  (this as Lazy)[LAZY] = undefined;
}

/**
 * Make `target.text` read from `backing` each time it is read. Setting `text`
 * afterwards keeps the value set, as a plain property.
 *
 * @example
 * ```ts
 * import { lazyText, textBacking } from "./lazy_text.ts";
 * const file: { text?: string } = { text: "" };
 * const backing = { read: () => "x = 1\n", length: 6 };
 * lazyText(file, backing);
 * file.text; // "x = 1\n"
 * textBacking(file) === backing; // true
 * file.text = "y";
 * textBacking(file); // undefined
 * ```
 */
export function lazyText(target: { text?: string }, backing: TextBacking): void {
  setBacking(target, backing);
  Object.defineProperty(target, "text", LAZY_TEXT);
  madeInPlace.add(target);
}

/**
 * The objects whose `text` {@linkcode lazyText} made lazy where they were (dictionaries of their
 * properties in V8): those {@linkcode compactLazy} copies. A {@linkcode lazyCopy} is compact
 * already: copying it again (a resident's every kept render, each build) made only garbage.
 */
const madeInPlace = new WeakSet<object>();

/** The lazy `text` accessor: one descriptor, so every lazy object of a shape shares its map. */
const LAZY_TEXT: PropertyDescriptor = {
  get: getText,
  set: setText,
  enumerable: true,
  configurable: true,
};

/**
 * A copy of `source` (its own enumerable fields, in their order) whose `text` reads from
 * `backing`, with `extra`'s fields after them: what {@linkcode lazyText} does to an object, for
 * an object that is not shared yet. An object whose `text` field is turned into the accessor
 * becomes a dictionary of its properties in V8 (about 450-830 bytes a record, against a tenth of
 * that for one that gets it as a new property): on a big tree, most of the records a file held
 * (bench/README.md, "Monorepo scale").
 *
 * @example
 * ```ts
 * import { lazyCopy, textBacking } from "./lazy_text.ts";
 * const backing = { read: () => "x = 1\n", length: 6 };
 * const file = lazyCopy({ path: "a.py", text: "", size: 6 }, backing);
 * Object.keys(file); // ["path", "text", "size"]
 * file.text; // "x = 1\n"
 * textBacking(file) === backing; // true
 * ```
 */
export function lazyCopy<T extends object, E extends object = Record<never, never>>(
  source: T,
  backing: TextBacking,
  extra?: E,
): T & E {
  const copy: Record<string | symbol, unknown> = {};
  let placed = false;
  // Own enumerable string keys in order (a record's prototype has none), then symbols: a
  // quarter less time than every own key and a look at whether it is enumerable.
  for (const key in source) {
    if (key === "text") placed = !!Object.defineProperty(copy, "text", LAZY_TEXT);
    else copy[key] = (source as Record<string, unknown>)[key];
  }
  for (const key of Object.getOwnPropertySymbols(source)) {
    if (key === LAZY || !Object.prototype.propertyIsEnumerable.call(source, key)) continue;
    copy[key] = (source as Record<symbol, unknown>)[key];
  }
  if (!placed) Object.defineProperty(copy, "text", LAZY_TEXT);
  setBacking(copy, backing);
  // A copy of each record is what a big tree's rebuild makes most of (the scaling tests count them).
  countWork("lazy copies", 1);
  return (extra ? Object.assign(copy, extra) : copy) as T & E;
}

/**
 * Replace, in `items`, each object whose text was made lazy where it was ({@linkcode lazyText}
 * on a `text` field, which makes it a dictionary of its properties in V8) by its
 * {@linkcode lazyCopy} (an object `lazyCopy` made is compact: left as it is); `moved` is told each (what is keyed by the old object follows it). For a
 * stage's records once no one else holds them: a big tree's sources and rendered files.
 *
 * @example
 * ```ts
 * import { compactLazy, lazyText, textBacking } from "./lazy_text.ts";
 * const file = { path: "a.py", text: "" };
 * lazyText(file, { read: () => "x = 1\n", length: 6 });
 * const files = [file, { path: "b.py", text: "y" }];
 * compactLazy(files);
 * files[0] !== file && textBacking(files[0]) !== undefined; // true
 * files[0].text; // "x = 1\n"
 * ```
 */
export function compactLazy<T extends object>(
  items: T[],
  moved?: (from: T, to: T) => void,
): void {
  // By index: `entries()` makes a pair for each of a big tree's records.
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const backing = textBacking(item);
    if (!backing || !madeInPlace.has(item)) continue;
    items[i] = lazyCopy(item, backing);
    moved?.(item, items[i]);
  }
}

/**
 * The backing of `target`'s text while its `text` is the lazy one made by
 * {@linkcode lazyText} (not after it was set, nor on a copy made by spread).
 *
 * @example
 * ```ts
 * import { textBacking } from "./lazy_text.ts";
 * textBacking({ text: "x" }); // undefined
 * ```
 */
export function textBacking(target: object): TextBacking | undefined {
  // Set with the lazy `text` and dropped when `text` is set, never copied (see `LAZY`): no look
  // at the property's descriptor (an object made at each look, a big tree's every block several
  // times a build).
  return (target as Lazy)[LAZY];
}

/**
 * Whether `target` has a text (`target.text !== undefined`), without reading a lazy text.
 *
 * @example
 * ```ts
 * import { hasText } from "./lazy_text.ts";
 * hasText({ text: "" }); // true
 * hasText({}); // false
 * ```
 */
export function hasText(target: { text?: string }): boolean {
  return textBacking(target) !== undefined || target.text !== undefined;
}

/**
 * The parts of `target`'s text, a part as UTF-8 bytes where it is kept so (a lazy text), for
 * code that hashes or writes bytes: the text is not decoded. `undefined` for a text that is not
 * lazy, or kept another way.
 *
 * @example
 * ```ts
 * import { byteParts } from "./lazy_text.ts";
 * byteParts({ text: "x" }); // undefined
 * ```
 */
export function byteParts(target: { text?: string }): Array<string | Uint8Array> | undefined {
  const backing = textBacking(target);
  if (backing?.byteParts) return backing.byteParts();
  const bytes = backing?.bytes?.();
  return bytes && [bytes];
}

/**
 * `target.text.length`, without reading a lazy text.
 *
 * @example
 * ```ts
 * import { textLength } from "./lazy_text.ts";
 * textLength({ text: "abc" }); // 3
 * textLength({}); // 0
 * ```
 */
export function textLength(target: { text?: string }): number {
  return textBacking(target)?.length ?? target.text?.length ?? 0;
}

/**
 * A copy of `source` with `extra`'s fields, whose `text` stays lazy when the
 * source's is (object spread would read it and keep it).
 *
 * @example
 * ```ts
 * import { copyLazy, lazyText, textBacking } from "./lazy_text.ts";
 * const block = { id: "a", text: "" };
 * lazyText(block, { read: () => "hi\n", length: 3 });
 * const placed = copyLazy(block, { offset: 0 });
 * placed.text; // "hi\n"
 * textBacking(placed) !== undefined; // true
 * ```
 */
export function copyLazy<T extends object, E extends object>(source: T, extra: E): T & E {
  const backing = textBacking(source);
  // The other fields as spread copies them, in the same order, `text` lazy in its place.
  return backing ? lazyCopy(source, backing, extra) : { ...source, ...extra };
}

/**
 * An array of `length` items, each made by `at(index)` when it is read and
 * not kept: the texts of many lazy blocks, handed to code that takes an array
 * and reads its items one at a time.
 *
 * @example
 * ```ts
 * import { lazyList } from "./lazy_text.ts";
 * const list = lazyList(3, (i) => `item ${i}`);
 * list[2]; // "item 2"
 * list.length; // 3
 * ```
 */
export function lazyList<T>(length: number, at: (index: number) => T): T[] {
  return new Proxy(new Array<T>(length), {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key) && Number(key) < length) {
        return at(Number(key));
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

/**
 * The length of `target`'s text's UTF-8 bytes when its lazy text knows it without reading it
 * ({@linkcode TextBacking.byteLength}), else `undefined`.
 *
 * @example
 * ```ts
 * import { knownByteLength } from "./lazy_text.ts";
 * knownByteLength({ text: "é" }); // undefined
 * ```
 */
export function knownByteLength(target: { text?: string }): number | undefined {
  return textBacking(target)?.byteLength;
}
