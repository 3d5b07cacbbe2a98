/**
 * Fuzzy anchors for line slices: a slice remembers the sha256 of its lines
 * (`contentHash`) and a few lines of context on each side (`anchorLines`), so
 * that it can be found again after the file changed.
 *
 * Resolution, in order:
 * 1. exact content: every window with the slice's hash; the one whose anchors
 *    agree best wins, then the one nearest the old position (`exact` when that
 *    is the old position, else `moved`);
 * 2. anchors: the lines before and after the slice found intact, with the
 *    (edited) slice between them, nearest the old position (`re-anchored`);
 * 3. similarity: the anchors compared line by line (character-bigram Dice) at
 *    every position; the best is taken when it reaches the threshold and no
 *    other position comes close (`re-anchored`).
 *
 * Anything else is `stale`: the caller shows the last known lines, never
 * lines that may be the wrong ones.
 *
 * `anchorLines` holds up to {@linkcode ANCHOR_CONTEXT} lines before the slice,
 * then up to as many after it; how many are "before" follows from the slice's
 * start (`min(3, startLine - 1)`).
 *
 * @module
 */

import { countWork, sha256Hex } from "../../pipeline/helpers.ts";
import type { Slice } from "../../pipeline/types.ts";

/** Lines of context kept on each side of a slice. */
const ANCHOR_CONTEXT = 3;

/** Default similarity a re-anchored position needs (0..1). */
export const SIMILARITY_THRESHOLD = 0.8;

/** How far ahead of the runner-up the best similar position must be. */
const SIMILARITY_MARGIN = 0.1;

/**
 * The exact search hashes at most this many times the file's characters: the windows nearest
 * the old position first, every window for a slice of up to about this many lines. Each window
 * is hashed whole, so searching every window for a slice of thousands of lines of a large file
 * cost its length times the file's; past the budget the anchors and similarity steps go on.
 */
const EXACT_SEARCH_FACTOR = 64;

/** Fewest non-blank characters the anchors need before they are trusted alone. */
const DISTINCTIVE_CHARS = 8;

/** Where a slice is now. */
export type SliceStatus = "exact" | "moved" | "re-anchored" | "stale" | "unanchored";

/** The outcome of {@linkcode resolveSlice}. */
export interface SliceResolution {
  /**
   * `exact` unchanged at its lines; `moved` same content elsewhere; `re-anchored`
   * found by its anchors (content edited); `stale` not found with confidence;
   * `unanchored` the slice has no `contentHash`, its line numbers are taken as they are.
   */
  status: SliceStatus;
  /** Resolved first line (for `stale`: the last known one). */
  startLine: number;
  /** Resolved last line (for `stale`: the last known one). */
  endLine: number;
  /** How it was found, or why it could not be. */
  reason?: string;
}

/** Options of {@linkcode resolveSlice}. */
export interface ResolveOptions {
  /** Similarity needed by the third step. @default {0.8} */
  threshold?: number;
}

/**
 * The sha256 (hex) of lines `start..end` (1-based, inclusive), joined by `\n`.
 */
function hashLines(lines: string[], start: number, end: number): string {
  return sha256Hex(lines.slice(start - 1, end).join("\n"));
}

/**
 * A slice of `lines` with its fuzzy-anchor metadata.
 *
 * @example
 * ```ts
 * import { anchorSlice } from "./fuzzy_anchor.ts";
 * const slice = anchorSlice(["a", "b", "c", "d"], 2, 3, { tag: "bc" });
 * slice.anchorLines; // ["a", "d"]
 * ```
 */
export function anchorSlice(
  lines: string[],
  startLine: number,
  endLine: number,
  label: { tag?: string; comment?: string } = {},
): Slice {
  if (startLine < 1 || endLine < startLine || endLine > lines.length) {
    throw new RangeError(
      `Lines "${startLine}-${endLine}" are not inside the file (${lines.length} lines)`,
    );
  }
  const before = lines.slice(Math.max(0, startLine - 1 - ANCHOR_CONTEXT), startLine - 1);
  const after = lines.slice(endLine, endLine + ANCHOR_CONTEXT);
  return {
    startLine,
    endLine,
    ...(label.tag !== undefined ? { tag: label.tag } : {}),
    ...(label.comment !== undefined ? { comment: label.comment } : {}),
    contentHash: hashLines(lines, startLine, endLine),
    anchorLines: [...before, ...after],
  };
}

/**
 * Split text into lines the way the views do (a final newline ends the last
 * line, it does not start another).
 *
 * @example
 * ```ts
 * import { splitLines } from "./fuzzy_anchor.ts";
 * splitLines("a\nb\n"); // ["a", "b"]
 * ```
 */
export function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/**
 * Find a slice in the current lines of its file.
 *
 * @example
 * ```ts
 * import { anchorSlice, resolveSlice } from "./fuzzy_anchor.ts";
 * const old = ["import os", "", "def f():", "    return 1", "", "x = f()"];
 * const slice = anchorSlice(old, 3, 4);
 * resolveSlice(slice, ["# new header", ...old]); // { status: "moved", startLine: 4, endLine: 5, ... }
 * ```
 */
export function resolveSlice(
  slice: Slice,
  lines: string[],
  options: ResolveOptions = {},
): SliceResolution {
  const start = slice.startLine;
  const end = slice.endLine;
  if (!slice.contentHash) return { status: "unanchored", startLine: start, endLine: end };
  const length = end - start + 1;
  const anchors = slice.anchorLines ?? [];
  const split = Math.min(ANCHOR_CONTEXT, start - 1, anchors.length);
  const ctx: Anchors = {
    before: anchors.slice(0, split).map(norm),
    after: anchors.slice(split).map(norm),
  };
  const norms = lines.map(norm);

  const exact = exactMatch(slice.contentHash, lines, norms, length, start, ctx);
  if (exact !== undefined) {
    return {
      status: exact === start ? "exact" : "moved",
      startLine: exact,
      endLine: exact + length - 1,
      ...(exact === start ? {} : { reason: "same content" }),
    };
  }
  const byAnchors = anchorMatch(norms, start, end, ctx);
  if (byAnchors) return byAnchors;
  return similarityMatch(norms, start, length, ctx, options.threshold ?? SIMILARITY_THRESHOLD);
}

interface Anchors {
  before: string[];
  after: string[];
}

function norm(line: string): string {
  return line.trim();
}

/** 1-based start of the best window with the slice's hash, if any. */
function exactMatch(
  hash: string,
  lines: string[],
  norms: string[],
  length: number,
  oldStart: number,
  ctx: Anchors,
): number | undefined {
  if (
    oldStart + length - 1 <= lines.length &&
    hashLines(lines, oldStart, oldStart + length - 1) === hash
  ) {
    // Unchanged at the old place with its anchors intact: no search needed.
    if (anchorAgreement(norms, oldStart, oldStart + length - 1, ctx) === 1) return oldStart;
  }
  // Outward from the old position: the first window by distance with the best
  // anchor agreement wins; one with every anchor in place ends the search.
  const last = lines.length - length + 1;
  let best: number | undefined;
  let bestScore = -1;
  // Characters of each line and the ones before it, to know what a window costs to hash.
  const before = [0];
  for (const line of lines) before.push(before[before.length - 1] + line.length + 1);
  let budget = EXACT_SEARCH_FACTOR * before[lines.length];
  countWork("slices", lines.length);
  for (let d = 0; d <= Math.max(oldStart - 1, last - oldStart); d++) {
    for (const s of d ? [oldStart - d, oldStart + d] : [oldStart]) {
      if (s < 1 || s > last) continue;
      const cost = before[s + length - 1] - before[s - 1];
      if ((budget -= cost) < 0) return best;
      countWork("slices", cost);
      if (hashLines(lines, s, s + length - 1) !== hash) continue;
      const score = anchorAgreement(norms, s, s + length - 1, ctx);
      if (score === 1) return s;
      if (score > bestScore) [best, bestScore] = [s, score];
    }
  }
  return best;
}

/** Share of anchor lines found exactly in place around `start..end` (1 when there are none). */
function anchorAgreement(norms: string[], start: number, end: number, ctx: Anchors): number {
  const total = ctx.before.length + ctx.after.length;
  if (!total) return 1;
  let hits = 0;
  ctx.before.forEach((line, i) => {
    if (norms[start - 1 - ctx.before.length + i] === line) hits++;
  });
  ctx.after.forEach((line, i) => {
    if (norms[end + i] === line) hits++;
  });
  return hits / total;
}

function matchesAt(norms: string[], at: number, block: string[]): boolean {
  if (at < 0 || at + block.length > norms.length) return false;
  return block.every((line, i) => norms[at + i] === line);
}

/** Step 2: both anchor blocks intact, the edited slice between them. */
function anchorMatch(
  norms: string[],
  oldStart: number,
  oldEnd: number,
  ctx: Anchors,
): SliceResolution | undefined {
  const { before, after } = ctx;
  const chars = [...before, ...after].join("").replace(/\s/g, "").length;
  if (chars < DISTINCTIVE_CHARS) return undefined;
  // Region starts: the line after each intact "before" block (or line 1 when
  // the slice began the file); region ends: the line before each intact
  // "after" block (or the last line when the slice ended the file).
  countWork("slices", 2 * norms.length);
  const starts: number[] = [];
  if (before.length) {
    for (let i = 0; i + before.length <= norms.length; i++) {
      if (matchesAt(norms, i, before)) starts.push(i + before.length + 1);
    }
  } else if (oldStart === 1) starts.push(1);
  const ends: number[] = [];
  if (after.length) {
    for (let i = 0; i + after.length <= norms.length; i++) {
      if (matchesAt(norms, i, after)) ends.push(i);
    }
  } else ends.push(norms.length);
  if (!starts.length || !ends.length) return undefined;

  const oldLength = oldEnd - oldStart + 1;
  const maxLength = oldLength * 2 + 20;
  const pairs: Array<[number, number]> = [];
  // Both lists ascend: the first end at or after each start moves forward only.
  let k = 0;
  for (const s of starts) {
    while (k < ends.length && ends[k] < s - 1) k++;
    const e = ends[k];
    if (e !== undefined && e - s + 1 <= maxLength) pairs.push([s, e]);
  }
  countWork("slices", starts.length + ends.length);
  if (!pairs.length) return undefined;
  pairs.sort((a, b) => Math.abs(a[0] - oldStart) - Math.abs(b[0] - oldStart) || a[0] - b[0]);
  const [s, e] = pairs[0];
  const tie = pairs[1] && Math.abs(pairs[1][0] - oldStart) === Math.abs(s - oldStart);
  if (tie) return undefined;
  if (e < s) {
    return {
      status: "stale",
      startLine: oldStart,
      endLine: oldEnd,
      reason: "its lines were deleted (the lines around it are now adjacent)",
    };
  }
  return {
    status: "re-anchored",
    startLine: s,
    endLine: e,
    reason: "content changed, anchors intact",
  };
}

/** Step 3: the anchors compared line by line at every position of the old length. */
function similarityMatch(
  norms: string[],
  oldStart: number,
  length: number,
  ctx: Anchors,
  threshold: number,
): SliceResolution {
  const stale = (reason: string): SliceResolution => ({
    status: "stale",
    startLine: oldStart,
    endLine: oldStart + length - 1,
    reason,
  });
  const total = ctx.before.length + ctx.after.length;
  if (!total) return stale("its content changed and it has no anchor lines");
  const scores = anchorScores(norms, length, ctx);
  const { best, bestStart, second } = bestScores(scores, length);
  const shown = best.toFixed(2);
  if (best < threshold) {
    return stale(`its content and anchors changed (best similarity ${shown} < ${threshold})`);
  }
  if (best - second < SIMILARITY_MARGIN) {
    return stale(`several places match its anchors (similarity ${shown} and ${second.toFixed(2)})`);
  }
  return {
    status: "re-anchored",
    startLine: bestStart,
    endLine: bestStart + length - 1,
    reason: `anchors similar (${shown})`,
  };
}

/**
 * The anchors' mean similarity at each start line `s` (1-based) where a region of `length` lines
 * fits: the lines before `s` against the `before` anchors, those after the region against `after`.
 */
function anchorScores(norms: string[], length: number, ctx: Anchors): number[] {
  const total = ctx.before.length + ctx.after.length;
  // Each anchor meets each line at most once: cache the bigrams of both.
  const anchorGrams = [...ctx.before, ...ctx.after].map(bigrams);
  const lineGrams: Array<Map<number, number> | undefined> = [];
  const sim = (anchor: number, at: number): number => {
    const a = ctx.before[anchor] ?? ctx.after[anchor - ctx.before.length];
    if (a === norms[at]) return 1;
    lineGrams[at] ??= bigrams(norms[at]);
    return dice(anchorGrams[anchor], lineGrams[at]!);
  };
  const scores: number[] = [];
  for (let s = 1; s + length - 1 <= norms.length; s++) {
    let sum = 0;
    for (let i = 0; i < ctx.before.length; i++) {
      const at = s - 1 - ctx.before.length + i;
      if (at >= 0) sum += sim(i, at);
    }
    for (let i = 0; i < ctx.after.length; i++) {
      const at = s + length - 1 + i;
      if (at < norms.length) sum += sim(ctx.before.length + i, at);
    }
    scores[s] = sum / total;
  }
  return scores;
}

/** The best score and its start, and the best of the starts at least `length` lines away. */
function bestScores(
  scores: number[],
  length: number,
): { best: number; bestStart: number; second: number } {
  let best = 0;
  let bestStart = 0;
  scores.forEach((score, s) => {
    if (score > best) [best, bestStart] = [score, s];
  });
  // Positions overlapping the best are the same region seen off by a few lines, not rivals.
  let second = 0;
  scores.forEach((score, s) => {
    if (Math.abs(s - bestStart) >= length && score > second) second = score;
  });
  return { best, bestStart, second };
}

/**
 * Dice coefficient of the character bigrams of two lines (1 when equal).
 *
 * @example
 * ```ts
 * import { similarity } from "./fuzzy_anchor.ts";
 * similarity("def parse(self):", "def parse(self, x):") > 0.8; // true
 * ```
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  return dice(bigrams(a), bigrams(b));
}

/** Character bigrams as numbers (two UTF-16 code units) with their counts. */
function bigrams(text: string): Map<number, number> {
  countWork("slices", text.length);
  const grams = new Map<number, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const g = text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

function dice(a: Map<number, number>, b: Map<number, number>): number {
  let sizeA = 0;
  let sizeB = 0;
  let shared = 0;
  for (const n of a.values()) sizeA += n;
  for (const [g, n] of b) {
    sizeB += n;
    shared += Math.min(n, a.get(g) ?? 0);
  }
  return sizeA && sizeB ? (2 * shared) / (sizeA + sizeB) : 0;
}
