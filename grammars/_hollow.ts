/**
 * Hollowed text: the text of function bodies replaced, offset for offset, by
 * filler the parser reads as one token (a string or a comment of spaces that
 * keeps every line break), for views that elide every body. A language finds
 * the regions (`_python_hollow.ts`, `_js_hollow.ts`); this module gives the parser the text
 * piece by piece, so a hollowed copy of a file is never built whole.
 *
 * @module
 */

/** A hollowed range of a text: `head`, then spaces and the text's own line breaks, then `tail`. */
export interface HollowRegion {
  /** Index of the first hollowed character. */
  start: number;
  /** Index just after the last hollowed character. */
  end: number;
  /** What the filler starts with (no line break; at most `end - start - tail.length` long). */
  head: string;
  /** What the filler ends with (no line break). */
  tail: string;
}

/** Bodies shorter than this many characters are left as they are (not worth a region). */
export const MIN_HOLLOW = 64;

/** Thrown inside a language's reader when the text is not one it is sure of. */
export class Unsure extends Error {}

/**
 * What a language's reader found, or undefined when it threw {@linkcode Unsure} (the caller
 * then parses the text itself); any other error is thrown on.
 *
 * @example
 * ```ts
 * import { Unsure, unlessUnsure } from "./_hollow.ts";
 * unlessUnsure(() => 1); // 1
 * unlessUnsure(() => { throw new Unsure(); }); // undefined
 * ```
 */
export function unlessUnsure<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof Unsure) return undefined;
    throw error;
  }
}

/** What a language's regions depend on: the view's options. */
export interface HollowOptions {
  /** The view elides a value longer than this many lines (the code views' option). @default {12} */
  maxValueLines?: number;
  /**
   * Stop reading, with a {@linkcode TooManyTokens} error, once more than this many tokens were
   * counted outside the bodies a reader hollows: the parser takes at least one step for each of
   * them (tree-sitter: 12 for a statement of one name), so the parse cannot fit a work budget of
   * this many steps. @default {Infinity}
   */
  maxTokens?: number;
}

/**
 * Thrown by a language's reader past {@linkcode HollowOptions.maxTokens} (`limit`), at character
 * `at` (the reader's work so far).
 *
 * @example
 * ```ts
 * import { TooManyTokens } from "./_hollow.ts";
 * new TooManyTokens(10, 40).message; // "more than 10 tokens outside function bodies by character 40"
 * ```
 */
export class TooManyTokens extends Error {
  constructor(readonly limit: number, readonly at: number) {
    super(`more than ${limit} tokens outside function bodies by character ${at}`);
  }
}

/**
 * Whether a region can stand in its place: its head and tail replace characters of its first
 * and last lines, never a line break, so every row and column stays where it was.
 *
 * @example
 * ```ts
 * import { fits } from "./_hollow.ts";
 * fits("a(bc\nde)f", { start: 2, end: 8, head: "<", tail: ">" }); // true
 * fits("a(bc\nde)f", { start: 2, end: 8, head: "<<<", tail: ">" }); // false: a line break
 * ```
 */
export function fits(text: string, region: HollowRegion): boolean {
  const { start, end, head, tail } = region;
  if (end - start < head.length + tail.length) return false;
  const first = text.indexOf("\n", start);
  if (first !== -1 && first < start + head.length) return false;
  const last = text.lastIndexOf("\n", end - 1);
  return last < end - tail.length;
}

/** Characters of filler made at a time (the parser's input buffer holds 5119). */
const PIECE = 8192;

/** Spaces to slice filler from. */
const SPACES = " ".repeat(PIECE);

/** The filler of a region from `from` up to `to` (both inside the region). */
function filler(text: string, region: HollowRegion, from: number, to: number): string {
  const { start, end, head, tail } = region;
  const middleStart = start + head.length;
  const middleEnd = end - tail.length;
  let out = "";
  if (from < middleStart) out += head.slice(from - start, Math.min(to, middleStart) - start);
  const a = Math.max(from, middleStart);
  const b = Math.min(to, middleEnd);
  for (let i = a; i < b;) {
    const lineEnd = text.indexOf("\n", i);
    const stop = lineEnd === -1 || lineEnd >= b ? b : lineEnd;
    out += stop - i <= PIECE ? SPACES.slice(0, stop - i) : " ".repeat(stop - i);
    if (stop < b) out += "\n";
    i = stop + 1;
  }
  if (to > middleEnd) out += tail.slice(Math.max(from, middleEnd) - middleEnd, to - middleEnd);
  return out;
}

/**
 * The whole hollowed text (what the parser reads through {@linkcode hollowReader}); regions in
 * order, not overlapping.
 *
 * @example
 * ```ts
 * import { hollowText } from "./_hollow.ts";
 * hollowText("a(bc\nde)f", [{ start: 2, end: 8, head: "<", tail: ">" }]); // "a(< \n  >f"
 * ```
 */
export function hollowText(text: string, regions: readonly HollowRegion[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const region of regions) {
    parts.push(text.slice(at, region.start), filler(text, region, region.start, region.end));
    at = region.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * A reader for the parser (web-tree-sitter's input callback, and the tree's text): from an
 * index, the hollowed text up to the next region boundary, filler made a piece at a time.
 *
 * @example
 * ```ts
 * import { hollowReader } from "./_hollow.ts";
 * const read = hollowReader("a(bc\nde)f", [{ start: 2, end: 8, head: "<", tail: ">" }]);
 * read(0); // "a("
 * read(2); // "< \n  >"
 * read(8); // "f"
 * ```
 */
export function hollowReader(
  text: string,
  regions: readonly HollowRegion[],
): (index: number) => string {
  return (index) => {
    if (index >= text.length) return "";
    // The first region that ends after `index`.
    let lo = 0;
    let hi = regions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (regions[mid].end <= index) lo = mid + 1;
      else hi = mid;
    }
    const region = regions[lo];
    if (!region) return text.slice(index);
    if (index < region.start) return text.slice(index, region.start);
    return filler(text, region, index, Math.min(region.end, index + PIECE));
  };
}

/** A point of a text: its row and its column in UTF-16 code units. */
export interface HollowPoint {
  row: number;
  column: number;
}

/** A range of a text for the parser (web-tree-sitter's `Range`, in UTF-16 code units). */
export interface HollowRange {
  startIndex: number;
  endIndex: number;
  startPosition: HollowPoint;
  endPosition: HollowPoint;
}

/**
 * The parts of a hollowed text the parser needs to read (its `includedRanges`): all but the
 * middle of each region, between its head and its tail. The parser's lexer goes from a head to
 * its tail without reading what lies between, so a filler token costs what its head and tail
 * cost, however long the body it stands for; its rows and columns after the gap are the text's.
 *
 * @example
 * ```ts
 * import { hollowRanges } from "./_hollow.ts";
 * const ranges = hollowRanges("a(bc\nde)f", [{ start: 2, end: 8, head: "<", tail: ">" }]);
 * ranges.map((r) => [r.startIndex, r.endIndex]); // [[0, 3], [7, 9]]
 * ranges[1].startPosition; // { row: 1, column: 2 }
 * ```
 */
export function hollowRanges(text: string, regions: readonly HollowRegion[]): HollowRange[] {
  const ranges: HollowRange[] = [];
  let row = 0;
  let lineStart = 0;
  let next = text.indexOf("\n");
  // Indices come in order: each line break is passed once.
  const point = (index: number): HollowPoint => {
    while (next !== -1 && next < index) {
      row++;
      lineStart = next + 1;
      next = text.indexOf("\n", lineStart);
    }
    return { row, column: index - lineStart };
  };
  let from = 0;
  for (const region of regions) {
    const to = region.start + region.head.length;
    const startPosition = point(from);
    ranges.push({ startIndex: from, endIndex: to, startPosition, endPosition: point(to) });
    from = region.end - region.tail.length;
  }
  const startPosition = point(from);
  ranges.push({
    startIndex: from,
    endIndex: text.length,
    startPosition,
    endPosition: point(text.length),
  });
  return ranges;
}
