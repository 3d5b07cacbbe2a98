/**
 * Secret-scan worker: receives `{ id, rules, items: [{ path, text, keep }] }` (or
 * `bytes`, a text's UTF-8, in place of `text`: a text kept out of the sender's memory),
 * scans each text exactly as the main thread would (`redactUnlessHinted`:
 * slop's rules and the user's) and answers `{ id, results }`, one
 * `{ text?, findings }` per item (`text` only when something was redacted),
 * or `{ handBack: true }` for a text under 256K characters that secretlint
 * must scan too (the main thread scans those: it has `deps.ts` loaded, and
 * loads secretlint faster; a larger one is scanned here whole, with
 * secretlint loaded on first use), or `{ id, error }`, and keeps the
 * (redacted) texts it scanned that it may count (`keep`, and long enough to
 * be counted early), up to `keepChars` characters at once (`kept: true` on
 * each result whose text it kept). Then, with `{ id, table, spans, texts }`
 * (a compact BPE table, see `pipeline/_bpe.ts`; `[path, start, end, last]` spans of texts it
 * kept (let go after the last), and other texts whole or as bytes), it counts for
 * `accel/precount.ts` and answers `{ id, counts }` (spans first), so the
 * texts it scanned are not copied to it a second time.
 * Started by `pipeline/secrets.ts` for large scans.
 *
 * @module
 */

import { redactText, redactUnlessHinted } from "./_scan.ts";
import { bpeCounter, type BpeTable } from "./_bpe.ts";
import { earlySpan } from "./_count_cuts.ts";

interface Job {
  id: number;
  rules?: Record<string, string>;
  /** A text, or its UTF-8 bytes (a text kept out of the sender's memory), decoded here. */
  items?: Array<{ path: string; text?: string; bytes?: Uint8Array; keep?: boolean }>;
  /** The most characters of texts this worker keeps at once (absent: no bound). */
  keepChars?: number;
  table?: BpeTable;
  spans?: Array<[string, number, number, boolean?]>;
  /** Texts, or characters `start` to `end` of the texts whose UTF-8 is `bytes`. */
  texts?: Array<string | { bytes: Uint8Array; start: number; end: number }>;
  claims?: { flags: Int32Array; index: number };
  /**
   * A scan job's counter shared with the sender: 1 is added once the job is answered, so the
   * sender knows how many jobs are left without waiting for the answers (`accel/scan_ahead.ts`).
   */
  done?: Int32Array;
}

/** Hinted texts shorter than this go back to the main thread (see `scope.onmessage`). */
const HAND_BACK_CHARS = 256 * 1024;

let count: ((text: string) => number) | undefined;
/** The texts this worker scanned and will count, by path, until they are counted. */
const kept = new Map<string, string>();
/**
 * Characters of the texts kept now. Past the scan job's `keepChars` a text is not kept (its
 * answer says so), and the build sends it again to be counted: each kept text is a copy of the
 * build's own, and on a big tree the texts kept to the scan's end were the half of the tree this
 * worker scanned.
 */
let keptChars = 0;

/** Let a kept text go. */
function release(path: string): void {
  keptChars -= kept.get(path)?.length ?? 0;
  kept.delete(path);
}

/**
 * The texts sent as bytes are decoded as their sender reads them (`accel/text_spill.ts`): a
 * leading U+FEFF is a character of the text, not a mark to drop.
 */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event) => {
  const { id, items, done } = event.data;
  try {
    await answer(event.data);
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
  if (items && done) Atomics.add(done, 0, 1);
};

/** Answer a job: counts of texts, or a scan's results. */
async function answer(job: Job): Promise<void> {
  if (job.items) return await scanJob(job, job.items);
  const { id, table, spans, texts, claims } = job;
  if (table) count ??= bpeCounter(table);
  if (!count) throw new Error("No table to count with");
  // Taken by the other thread: -2 for each item, which it counts itself.
  if (claims && Atomics.compareExchange(claims.flags, claims.index, 0, 1) !== 0) {
    for (const [path, , , last] of spans ?? []) if (last) release(path);
    const n = (spans?.length ?? 0) + (texts?.length ?? 0);
    scope.postMessage({ id, counts: new Array(n).fill(-2) });
    return;
  }
  const counts = (spans ?? []).map(([path, start, end, last]) => {
    const text = kept.get(path);
    if (last) release(path);
    return text === undefined ? -1 : count!(text.slice(start, end));
  });
  const all = counts.concat(
    (texts ?? []).map((t) =>
      count!(typeof t === "string" ? t : decoder.decode(t.bytes).slice(t.start, t.end))
    ),
  );
  scope.postMessage({ id, counts: all });
}

/** Scan a job's texts and answer with their results. */
async function scanJob(job: Job, items: NonNullable<Job["items"]>): Promise<void> {
  const { id, rules, keepChars = Infinity } = job;
  const results = [];
  for (const { path, bytes, keep: keepIt, ...item } of items) {
    const text = item.text ?? decoder.decode(bytes);
    // A text secretlint must scan goes back to the thread that sent it, which has it loaded,
    // unless it is large: then its scan costs more than loading secretlint here (`redactText`
    // loads it only for a hinted text, and tests the hints once).
    const r = text.length < HAND_BACK_CHARS
      ? redactUnlessHinted(text, { rules, path })
      : await redactText(text, path, { rules });
    if (!r) {
      results.push({ handBack: true });
      continue;
    }
    // The others are never asked for: the build counts them with their blocks.
    const keep = keepIt && earlySpan(r.text) && keptChars + r.text.length <= keepChars;
    if (keep) {
      kept.set(path, r.text);
      keptChars += r.text.length;
    }
    results.push({
      ...(r.findings.length ? r : { findings: [] }),
      ...(keep ? { kept: true } : {}),
    });
  }
  scope.postMessage({ id, results });
}
