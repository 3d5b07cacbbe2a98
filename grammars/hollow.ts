/**
 * Hollow parsing for the code views (their one entry into `grammars/_hollow.ts`): a
 * language's regions (from `languageFor(path).hollow`) become the text the parser reads
 * ({@linkcode hollowReader}) and the ranges it reads of it ({@linkcode hollowRanges}).
 *
 * @example
 * ```ts
 * import { hollowRanges, hollowReader } from "./hollow.ts";
 * const regions = [{ start: 2, end: 8, head: "<", tail: ">" }];
 * hollowReader("a(bc\nde)f", regions)(2); // "< \n  >"
 * hollowRanges("a(bc\nde)f", regions).length; // 2
 * ```
 *
 * @module
 */

export { hollowRanges, hollowReader, TooManyTokens } from "./_hollow.ts";
export type { HollowOptions, HollowRange, HollowRegion } from "./_hollow.ts";
