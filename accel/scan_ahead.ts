/**
 * The secret scan begun while files are read: each text just read is handed to a scan worker
 * (`pipeline/_scan_worker.ts`), a batch at a time, and `scanAll()` (`pipeline/_scan_threads.ts`)
 * takes the results at the secrets stage instead of scanning those texts again. The read stage
 * runs on this thread alone, so a worker's core is free then; this thread never waits for a
 * worker here: a batch is sent only while the worker has fewer than {@linkcode AHEAD_JOBS} jobs
 * left, known from a counter it shares (answers come in only when this thread lets events in,
 * and the read hardly does), and a batch not sent is scanned at the secrets stage as before. A
 * result is taken only for the same text (path, content hash, length), so the findings and
 * redactions are those of a scan then.
 *
 * @module
 */

import { hasText, textLength } from "../pipeline/lazy_text.ts";
import {
  type ScanAhead,
  type ScanHelper,
  type ScanResult,
  scanWorker,
} from "../pipeline/secrets.ts";
import { countWork } from "../pipeline/helpers.ts";
import type { SourceFile } from "../pipeline/types.ts";

/** Characters per batch sent to a worker (the scan's own batch size). */
const AHEAD_BATCH_CHARS = 256 * 1024;

/**
 * Jobs a worker may have left (sent, not answered) for another batch to be sent to it: four are
 * about 50 ms of scanning, so a worker held up less by a read this thread is slow at (the
 * collector's threads, other processes) than with two.
 */
const AHEAD_JOBS = 4;

/**
 * Characters read before the workers start: a build that reads fewer (a rebuild reads its
 * changed files) starts none for them.
 */
const AHEAD_START_CHARS = 8 * 1024 * 1024;
let startChars = AHEAD_START_CHARS;

/**
 * Set the characters read before a scan ahead starts its workers (tests use small trees); returns
 * the value before.
 *
 * @example
 * ```ts
 * import { setScanAheadChars } from "./scan_ahead.ts";
 * const before = setScanAheadChars(1024);
 * setScanAheadChars(before);
 * ```
 */
export function setScanAheadChars(chars: number): number {
  const before = startChars;
  startChars = chars;
  return before;
}

/** A scan begun as files are read: {@linkcode ScanAhead} with the files handed to it. */
export interface ReadScan extends ScanAhead {
  /** A file just read: its text is sent to a worker with the next batch (none is kept here). */
  add(file: SourceFile): void;
  /** Stop the workers, unless `settle()` handed them on. */
  stop(): void;
}

/** A text sent: its file's content hash and length, then its result. */
interface Sent {
  sha256: string;
  length: number;
  result?: ScanResult;
}

/** The workers of a scan ahead, with each one's jobs sent and its shared counter of answers. */
interface Lane {
  helper: ScanHelper;
  sent: number;
  done: Int32Array;
}

/** What a scan ahead holds: its workers, the texts sent, their answers and the batch open. */
interface AheadState {
  rules: Record<string, string>;
  lanes: Lane[];
  sent: Map<string, Sent>;
  answers: Promise<void>[];
  /** The texts of the next batch, each with its entry in `sent` (its result goes there). */
  open: Array<{ path: string; text: string; entry: Sent }>;
  openChars: number;
}

/** Options of {@linkcode scanAhead}. */
export interface AheadOptions {
  /** Threads to scan with (this one and workers); 1: no workers. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /**
   * The characters (or bytes) the read will give: at {@linkcode setScanAheadChars}'s bound or
   * more, the workers start at once (they load while the first files are read).
   * @default {0} started once that many characters were read
   */
  expect?: number;
}

/**
 * A scan ahead with the secret `rules`, on `workers - 1` workers (this thread reads).
 *
 * @example
 * ```ts
 * import { scanAhead } from "./scan_ahead.ts";
 * const ahead = scanAhead({}, { workers: 1 });
 * ahead.add({ path: "a.ts", text: "x", sha256: "" } as never);
 * ahead.take({ path: "a.ts", text: "x", sha256: "" } as never); // undefined: no worker
 * ahead.stop();
 * ```
 */
export function scanAhead(
  rules: Record<string, string>,
  options: AheadOptions = {},
): ReadScan {
  const threads = options.workers ?? navigator.hardwareConcurrency ?? 1;
  const workers = Math.max(1, Math.floor(threads)) - 1;
  const state: AheadState = {
    rules,
    lanes: [],
    sent: new Map(),
    answers: [],
    open: [],
    openChars: 0,
  };
  let read = 0;
  let handed = false;
  const start = () => {
    while (state.lanes.length < workers) {
      const done = new Int32Array(new SharedArrayBuffer(4));
      state.lanes.push({ helper: scanWorker(), sent: 0, done });
    }
  };
  if (workers > 0 && (options.expect ?? 0) >= startChars) start();
  return {
    add(file) {
      if (workers === 0 || file.error || !hasText(file)) return;
      const text = file.text!;
      read += text.length;
      if (!state.lanes.length && read < startChars) return;
      start();
      const entry = { sha256: file.sha256, length: text.length };
      state.sent.set(file.path, entry);
      state.open.push({ path: file.path, text, entry });
      state.openChars += text.length;
      if (state.openChars >= AHEAD_BATCH_CHARS) sendBatch(state);
    },
    async settle() {
      // The texts of the last batch, not sent, are scanned with the others (no wait for them).
      state.open = [];
      await Promise.all(state.answers);
      handed = true;
      return state.lanes.map((l) => l.helper);
    },
    take(file) {
      const entry = state.sent.get(file.path);
      const same = entry?.sha256 === file.sha256 && entry.length === textLength(file);
      return same ? entry.result : undefined;
    },
    stop() {
      if (!handed) state.lanes.forEach((l) => l.helper.stop());
    },
  };
}

/**
 * Send the open batch to a worker with fewer than {@linkcode AHEAD_JOBS} jobs left (its results
 * noted as they come in); none: the batch is left to the secrets stage.
 */
function sendBatch(state: AheadState): void {
  const batch = state.open;
  state.open = [];
  state.openChars = 0;
  const lane = state.lanes.find((l) => l.sent - Atomics.load(l.done, 0) < AHEAD_JOBS);
  if (!lane) return;
  lane.sent++;
  countWork("characters sent to scan ahead", batch.reduce((n, f) => n + f.text.length, 0));
  // A text and its path are what the worker is sent of a file: not the file, which the spill
  // makes lazy (its text read back from disk to send it).
  const files = batch as unknown as SourceFile[];
  // The answer is let in at the secrets stage: what waits for it holds no text till then.
  const entries = batch.map((file) => file.entry);
  const noted = lane.helper.scan(files, () => false, state.rules, lane.done).then(
    (results) =>
      entries.forEach((entry, i) => {
        const result = results[i];
        // A text handed back (secretlint scans it) is scanned at the secrets stage.
        if (!("handBack" in result)) entry.result = result;
      }),
    // A worker that fails leaves its texts to the secrets stage.
    () => {},
  );
  state.answers.push(noted);
}
