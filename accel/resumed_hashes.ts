/**
 * A document's hashes resumed from the last document's: a resident process
 * (`slop watch`, the build server) keeps the sha256 state after each block of
 * its last document, and the next build hashes only from the first block that
 * changed. The same hashes as the plain `documentHashes()` of
 * `pipeline/document.ts`, which hashes every byte.
 *
 * @module
 */

import { createHash, type Hash } from "node:crypto";
import { hashPiece, type PrefixHashing, type StreamedDocument } from "../pipeline/document.ts";

/** Hash states after each part of a document (copies of a running sha256). */
export interface HashStates {
  /** The sha256 of each part hashed, in order. */
  parts: string[];
  /** `states[i]`: the sha256 state after `parts[0..i]`. */
  states: Hash[];
}

/** What {@linkcode resumedDocumentHashes} gives. */
export interface ResumedHashes {
  /** The sha256 of the document's first `prefixBytes`. */
  prefix: string;
  /** The sha256 of the whole document. */
  total: string;
  /** This document's states, for the next build (absent when a state is missing for a part). */
  states?: HashStates;
}

/**
 * The sha256 of a document's first `prefixBytes` and of the whole, hashed
 * part by part; given each part's own sha256 (`parts`) and the states of the
 * last document (`previous`), the leading parts with the same sha256 are not
 * hashed again (nor encoded, for a streamed document).
 *
 * @example
 * ```ts
 * import { resumedDocumentHashes } from "./resumed_hashes.ts";
 * const a = new Uint8Array([97]);
 * const first = resumedDocumentHashes([a, a], 1, { parts: ["x", "y"] });
 * const next = resumedDocumentHashes([a, a], 1, { parts: ["x", "y"], previous: first.states });
 * next.total === first.total; // true, the first part not hashed again
 * ```
 */
export function resumedDocumentHashes(
  document: Uint8Array[] | StreamedDocument,
  prefixBytes: number,
  options: { parts: string[]; previous?: HashStates },
): ResumedHashes {
  const list = Array.isArray(document) ? document : undefined;
  const lengths = list ? list.map((p) => p.length) : (document as StreamedDocument).lengths;
  const ids = options.parts.length === lengths.length ? options.parts : undefined;
  const previous = ids && options.previous;
  // Where each part ends, in bytes.
  const ends: number[] = [];
  for (let i = 0, at = 0; i < lengths.length; i++) ends.push(at += lengths[i]);
  let same = previous ? sameLeading(ids, previous.parts) : 0;
  let prefix = "";
  if (prefixBytes === 0) prefix = createHash("sha256").digest("hex");
  else if (same && prefixBytes <= ends[same - 1]) {
    const at = ends.indexOf(prefixBytes);
    // The prefix ends inside a part taken over: hash from the start.
    if (at < 0 || at >= same) same = 0;
    else prefix = previous!.states[at].copy().digest("hex");
  }
  const states: Hash[] = previous ? previous.states.slice(0, same) : [];
  const hasher = same ? states[same - 1].copy() : createHash("sha256");
  let seen = same ? ends[same - 1] : 0;
  // The next part whose end is waited for (a state is kept after each).
  let next = same;
  const passed = () => {
    for (; next < ends.length && ends[next] === seen; next++) if (ids) states.push(hasher.copy());
  };
  passed();
  const run: PrefixHashing = { hasher, seen, prefixBytes, prefix };
  for (const piece of list ? list.slice(same) : (document as StreamedDocument).pieces(same)) {
    hashPiece(run, piece);
    seen = run.seen;
    passed();
  }
  prefix = run.prefix || hasher.copy().digest("hex");
  // Kept only with a state after every part (pieces that spanned two parts would leave gaps).
  const whole = ids && states.length === lengths.length;
  return {
    prefix,
    total: hasher.digest("hex"),
    ...(whole ? { states: { parts: ids, states } } : {}),
  };
}

/** How many leading parts two documents share, by their sha256. */
function sameLeading(parts: string[], previous: string[]): number {
  let same = 0;
  while (same < parts.length && same < previous.length && parts[same] === previous[same]) same++;
  return same;
}
