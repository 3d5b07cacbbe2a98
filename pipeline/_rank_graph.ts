/**
 * The symbol graph of a project, for ranking files for a task: which files
 * define which names (given: the code views' symbols), which files
 * use them (identifiers in their text), and a PageRank over that graph
 * personalized to the files the task points at.
 *
 * File A links to file B when A uses a name B defines; the link also counts
 * backwards at half weight (a file that defines what the task names lends
 * rank to the files that use it: callers and tests). A name defined in many
 * files says little about any one of them: a use adds `1 / defining files`,
 * and names defined in more than {@linkcode MAX_DEFINERS} files make no link.
 *
 * The names come from the caller (the code views' `definedNames`: tree-sitter,
 * with a work budget and a cap on names a file); the identifier scan is one
 * pass over each text and the PageRank a fixed number of passes over the links.
 *
 * @module
 */

import { countWork } from "./helpers.ts";
import { byCodeUnit } from "./_rank_terms.ts";

/** A name defined in more files than this makes no link. */
export const MAX_DEFINERS = 8;
/** PageRank damping: the share of rank that follows links. */
const DAMPING = 0.5;
/** PageRank iterations (fixed: the same arithmetic on every machine). */
const ITERATIONS = 30;
/** The weight of a link followed backwards (from the definer to the user). */
const BACK_LINK = 0.5;

/** One file for the graph. */
export interface GraphFile {
  path: string;
  text?: string;
}

/** A link into a file: who lends it rank, and through which name. */
export interface Lender {
  /** The neighbour's index. */
  from: number;
  /** The rank that came over the link in the last iteration. */
  rank: number;
  /** The name that weighs most in the link. */
  via: string;
}

/** The ranked graph. */
export interface GraphRank {
  /** PageRank of each file, by index (sums to 1 over the graph's files, 0 outside). */
  rank: Float64Array;
  /** The teleport part of each file's rank (what the task itself gave it). */
  seeded: Float64Array;
  /** The links into each file, largest first (at most 3). */
  lenders: Lender[][];
}

/**
 * Personalized PageRank over the symbol graph of `files` (`defs` from
 * `RankOptions.definitions`; undefined: no grammar, the file neither defines nor uses); `seed` gives each file's personalization weight
 * (none positive: every file the same).
 */
export function graphRank(
  files: GraphFile[],
  defs: (string[] | undefined)[],
  seed: Float64Array,
): GraphRank {
  const n = files.length;
  const adjacency = adjacencyOf(links(files, defs));
  // Personalization, normalized (no seed: uniform).
  let seedSum = 0;
  for (let i = 0; i < n; i++) seedSum += seed[i] > 0 ? seed[i] : 0;
  const p = new Float64Array(n);
  for (let i = 0; i < n; i++) p[i] = seedSum > 0 ? Math.max(0, seed[i]) / seedSum : 1 / n;
  const rank = pageRank(adjacency, p);
  const lenders = lendersOf(adjacency, rank);
  const seeded = new Float64Array(n);
  for (let i = 0; i < n; i++) seeded[i] = (1 - DAMPING) * p[i];
  return { rank, seeded, lenders };
}

/** Each file's links: to the file (by index), its weight, and the name that weighs most. */
type Links = Map<number, { w: number; best: string; bestW: number }>[];

/**
 * The links of the symbol graph: from a file that uses a name to the files that define it
 * (weighted by uses), and back at BACK_LINK of that.
 */
function links(files: GraphFile[], defs: (string[] | undefined)[]): Links {
  const n = files.length;
  // Name -> the files that define it (in index order).
  const definers = new Map<string, number[]>();
  defs.forEach((names, i) => {
    for (const name of names ?? []) {
      const list = definers.get(name);
      if (list) list.push(i);
      else definers.set(name, [i]);
    }
  });
  // Links: from user to definer, weight by uses; accumulated per pair in a fixed order.
  const out: Map<number, { w: number; best: string; bestW: number }>[] = [];
  for (let i = 0; i < n; i++) out.push(new Map());
  const addLink = (a: number, b: number, w: number, name: string) => {
    const m = out[a];
    const link = m.get(b);
    if (!link) m.set(b, { w, best: name, bestW: w });
    else {
      link.w += w;
      if (w > link.bestW || (w === link.bestW && byCodeUnit(name, link.best) < 0)) {
        link.best = name;
        link.bestW = w;
      }
    }
  };
  const filter = nameFilter(definers.keys());
  for (let a = 0; a < n; a++) {
    const text = files[a].text;
    if (text === undefined || defs[a] === undefined || !definers.size) continue;
    const uses = identifierCounts(text, definers, filter);
    for (const name of [...uses.keys()].sort(byCodeUnit)) {
      const where = definers.get(name)!;
      if (where.length > MAX_DEFINERS) continue;
      const w = Math.sqrt(uses.get(name)!) / where.length;
      for (const b of where) {
        if (b === a) continue;
        addLink(a, b, w, name);
        addLink(b, a, w * BACK_LINK, name);
      }
    }
  }
  return out;
}

/** The graph in index order: each node's targets, their weights and names, its out-weight. */
interface Adjacency {
  targets: number[][];
  weights: number[][];
  vias: string[][];
  outWeight: Float64Array;
}

/** The links as {@linkcode Adjacency} lists, in index order. */
function adjacencyOf(out: Links): Adjacency {
  const n = out.length;
  // Adjacency in index order, with each node's total out-weight.
  const targets: number[][] = [];
  const weights: number[][] = [];
  const vias: string[][] = [];
  const outWeight = new Float64Array(n);
  for (let a = 0; a < n; a++) {
    const keys = [...out[a].keys()].sort((x, y) => x - y);
    targets.push(keys);
    weights.push(keys.map((b) => out[a].get(b)!.w));
    vias.push(keys.map((b) => out[a].get(b)!.best));
    let total = 0;
    for (const w of weights[a]) total += w;
    outWeight[a] = total;
    countWork("rank", keys.length);
  }
  return { targets, weights, vias, outWeight };
}

/** ITERATIONS steps of PageRank personalized to `p` (rank of files with no links goes to `p`). */
function pageRank(adjacency: Adjacency, p: Float64Array): Float64Array {
  const { targets, weights, outWeight } = adjacency;
  const n = p.length;
  let rank = Float64Array.from(p);
  for (let it = 0; it < ITERATIONS; it++) {
    const next = new Float64Array(n);
    // Rank of files with no links goes back to the personalization.
    let dangling = 0;
    for (let a = 0; a < n; a++) if (outWeight[a] === 0) dangling += rank[a];
    for (let i = 0; i < n; i++) next[i] = (1 - DAMPING + DAMPING * dangling) * p[i];
    for (let a = 0; a < n; a++) {
      if (outWeight[a] === 0) continue;
      const share = DAMPING * rank[a] / outWeight[a];
      const t = targets[a];
      const w = weights[a];
      for (let k = 0; k < t.length; k++) next[t[k]] += share * w[k];
    }
    countWork("rank", n);
    rank = next;
  }
  return rank;
}

/** Who lent each file its rank (the last iteration's flows), largest first, at most 3. */
function lendersOf(adjacency: Adjacency, rank: Float64Array): Lender[][] {
  const { targets, weights, vias, outWeight } = adjacency;
  const n = rank.length;
  const lenders: Lender[][] = [];
  for (let i = 0; i < n; i++) lenders.push([]);
  for (let a = 0; a < n; a++) {
    if (outWeight[a] === 0) continue;
    const share = DAMPING * rank[a] / outWeight[a];
    for (let k = 0; k < targets[a].length; k++) {
      lenders[targets[a][k]].push({ from: a, rank: share * weights[a][k], via: vias[a][k] });
    }
  }
  for (const list of lenders) {
    list.sort((x, y) => y.rank - x.rank || x.from - y.from);
    list.length = Math.min(list.length, 3);
  }
  return lenders;
}

/**
 * How often each name of `names` occurs in `text` as a whole identifier. `filter`
 * ({@linkcode nameFilter} of the names) rules most other words out before they are cut from the
 * text and looked up.
 */
function identifierCounts(
  text: string,
  names: ReadonlyMap<string, unknown>,
  filter: Uint8Array,
): Map<string, number> {
  const counts = new Map<string, number>();
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && !isIdentChar(text.charCodeAt(i))) i++;
    const start = i;
    while (i < n && isIdentChar(text.charCodeAt(i))) i++;
    if (i - start < 3 || i - start > 64) continue;
    const bit = wordBit(text, start, i);
    if (!(filter[bit >>> 3] & (1 << (bit & 7)))) continue;
    const word = text.slice(start, i);
    if (names.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  countWork("rank", n);
  return counts;
}

/** Bits of {@linkcode nameFilter}: 2^20 (128 KB), few set by the names of a large tree. */
const FILTER_BITS = 20;

/**
 * A filter of names, by their length and their first, second and last characters: a word whose
 * bit is not set is no name. Only a set bit asks the names themselves.
 */
function nameFilter(names: Iterable<string>): Uint8Array {
  const filter = new Uint8Array(1 << (FILTER_BITS - 3));
  for (const name of names) {
    if (name.length < 3) continue;
    const bit = wordBit(name, 0, name.length);
    filter[bit >>> 3] |= 1 << (bit & 7);
  }
  return filter;
}

/** The filter's bit of the word `text[start, end)` (at least 2 characters). */
function wordBit(text: string, start: number, end: number): number {
  let h = Math.imul(end - start, 0x9e3779b1);
  h ^= Math.imul(text.charCodeAt(start), 0x85ebca77);
  h ^= Math.imul(text.charCodeAt(start + 1), 0xc2b2ae3d);
  h ^= Math.imul(text.charCodeAt(end - 1), 0x27d4eb2f);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 13)) >>> (32 - FILTER_BITS);
}

function isIdentChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) || code === 95 || code === 36;
}
