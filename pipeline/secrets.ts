/**
 * Secret stage (between read and transform): every included text is scanned
 * with slop's rule table (`secret_rules.ts`: cloud, VCS, chat, payment, LLM
 * and registry tokens, private keys, URL passwords, values under
 * secret-looking names), secretlint's recommended preset for the kinds the
 * table lacks, and the user's `secrets.rules`. Each value is replaced in
 * place by `[REDACTED:<rule>]`; the file stays in the build. Findings carry
 * the file, line and rule, never the value.
 *
 * @module
 */

import {
  type Redaction,
  redactText,
  SECRETLINT_HINTS,
  SECRETLINT_RULE_IDS,
  SLOP_SECRET_RULES,
} from "./_scan.ts";
import { SECRET_RULES_VERSION, SECRET_SHAPES, TOKEN_GATE } from "./secret_rules.ts";
import { sha256 } from "./read.ts";
import { type Cache, cacheKey } from "./cache.ts";
import type { BpeTable } from "./count.ts";
import type { Block, CompleteFn, Manifest, SecretFinding, SourceFile } from "./types.ts";

export {
  checkSecretRules,
  type Redaction,
  redactMessage,
  type RedactOptions,
  redactSync,
  redactText,
  SECRETLINT_HINTS,
  SECRETLINT_RULE_IDS,
  type SecretRule,
  SLOP_SECRET_RULES,
  userSecretRules,
} from "./_scan.ts";

/**
 * Wrap an LLM completion function so that the system prompt and the prompt
 * are redacted with every rule before they leave the process: view modes,
 * history compaction and knowledge harvest all ask through it.
 *
 * @example
 * ```ts
 * import { redactingComplete } from "./secrets.ts";
 * // const complete = redactingComplete(completer(registry, config), config.secrets.rules);
 * ```
 */
export function redactingComplete(
  complete: CompleteFn,
  rules: Record<string, string>,
): CompleteFn {
  return async (request) => {
    const prompt = (await redactText(request.prompt, "prompt", { rules })).text;
    const system = request.system === undefined
      ? undefined
      : (await redactText(request.system, "system", { rules })).text;
    return await complete({ ...request, prompt, ...(system === undefined ? {} : { system }) });
  };
}

/** A file's redaction as the cache keeps it: the redacted text, its hash and the findings. */
interface StoredRedaction {
  text: string;
  sha256: string;
  findings: Array<{ line: number; rule: string }>;
}

/**
 * Redact every readable source in place (its `text`); returns the findings
 * in path order. A redacted file's `sha256` becomes that of its redacted
 * text (its size stays that of the file on disk), so anything keyed by
 * content hash never matches a render of the unredacted file. With a
 * cache, the files a build found clean are listed in one entry (by path and
 * content hash, under the rules and scanner version), and the next build
 * scans only the others.
 *
 * @example
 * ```ts
 * import { redactSources } from "./secrets.ts";
 * // const findings = await redactSources(sources, config.secrets.rules);
 * ```
 */
export async function redactSources(
  sources: SourceFile[],
  rules: Record<string, string>,
  cache?: Cache,
  options: ScanOptions = {},
): Promise<SecretFinding[]> {
  // Files found clean before (same path, content hash, rules and scanner) are not scanned again.
  // 2: a file's id is its content hash and path as they are (1 hashed them: 8 µs a file).
  const key = cacheKey(["secrets-clean/2", SCANNER, rules]);
  const before = new Set(cache?.enabled ? (await cache.get<string[]>(key)) ?? [] : []);
  const plan = await scanPlan(sources, { before, key, cache });
  const { todo } = plan;
  // The workers keep (to count them next) only the texts of files whose blocks will hold them.
  const only = options.handOff?.keep ?? (() => false);
  const { results, helpers, owner } = await scanAll(todo, rules, options.workers, only);
  const { findings, clean, newlyClean } = await applyScan(sources, {
    ...plan,
    results,
    key,
    cache,
  });
  // The same list unless a file was found clean anew or one clean before is gone (ids are unique).
  if (cache?.enabled && (newlyClean || clean.length !== before.size)) {
    await cache.set(key, clean.sort());
  }
  // The scan's workers go on to other work (counting the texts they kept) while this thread renders.
  const handed = todo.filter(only);
  if (helpers.length && options.handOff && handed.length) {
    // The worker that scanned each file keeps its text.
    const files = handed.map((f) => ({ path: f.path, text: f.text!, helper: owner.get(f) }));
    options.handOff.take(files, helpers);
  } else helpers.forEach((h) => h.stop());
  return findings;
}

/** Which files {@linkcode redactSources} scans, and what it knows of the others. */
interface ScanPlan {
  /**
   * Each file's id, by its index in `sources` (undefined: neither clean before nor scanned),
   * and whether it was scanned now (not clean before).
   */
  ids: Array<string | undefined>;
  scanned: boolean[];
  /** The files to scan. */
  todo: SourceFile[];
  /** The files whose redaction the cache holds. */
  known: Map<SourceFile, StoredRedaction>;
}

/** Sort the files: clean before, redaction cached (taken), or to scan (read if not read yet). */
async function scanPlan(
  sources: SourceFile[],
  options: { before: Set<string>; key: string; cache?: Cache },
): Promise<ScanPlan> {
  const { before, key, cache } = options;
  const ids: Array<string | undefined> = new Array(sources.length);
  const scanned: boolean[] = new Array(sources.length);
  const todo: SourceFile[] = [];
  const known = new Map<SourceFile, StoredRedaction>();
  for (const [i, file] of sources.entries()) {
    if (file.error || (file.text === undefined && !file.load)) continue;
    let id = scanId(file);
    if (before.has(id)) {
      ids[i] = id;
      continue;
    }
    // Unchanged since the last build and not clean: its redaction is in the cache (by scan, path
    // and content hash), so neither the file nor the scanner is loaded.
    const redaction = cache?.enabled && file.load
      ? storedRedaction(await cache.get(cacheKey(["secrets-redacted/1", key, id])))
      : undefined;
    if (redaction) {
      Object.assign(file, {
        text: redaction.text,
        bytes: undefined,
        sha256: redaction.sha256,
        load: undefined,
      });
      known.set(file, redaction);
      continue;
    }
    // Not read by this build (unchanged since the last) and not known clean: read it now.
    if (file.text === undefined) {
      await file.load?.();
      if (file.error || file.text === undefined) continue;
      id = scanId(file);
    }
    ids[i] = id;
    scanned[i] = true;
    todo.push(file);
  }
  return { ids, scanned, todo, known };
}

/**
 * Take the scan's results: redact each file with findings (its redaction cached), and list the
 * findings (cached ones too) and the ids of the files found clean.
 */
async function applyScan(
  sources: SourceFile[],
  plan: ScanPlan & { results: Map<SourceFile, ScanResult>; key: string; cache?: Cache },
): Promise<{ findings: SecretFinding[]; clean: string[]; newlyClean: number }> {
  const { ids, scanned, known, results, key, cache } = plan;
  const findings: SecretFinding[] = [];
  const clean: string[] = [];
  let newlyClean = 0;
  for (const [i, file] of sources.entries()) {
    const id = ids[i];
    if (id === undefined) {
      const redaction = known.get(file);
      for (const f of redaction?.findings ?? []) findings.push({ path: file.path, ...f });
      continue;
    }
    const result = results.get(file);
    if (!result?.findings.length) {
      clean.push(id);
      if (scanned[i]) newlyClean++;
      continue;
    }
    file.text = result.text;
    // Raw bytes would carry the secret to later stages: drop them.
    file.bytes = undefined;
    // Content-hash keys (the view cache) must follow the text views see: a render of
    // the unredacted file, cached before a rule was added, must never match again.
    file.sha256 = sha256(result.text!);
    for (const f of result.findings) findings.push({ path: file.path, ...f });
    const made = { text: result.text!, sha256: file.sha256, findings: result.findings };
    if (cache?.enabled) await cache.set(cacheKey(["secrets-redacted/1", key, id]), made);
  }
  return { findings, clean, newlyClean };
}

/** A file's id in the scan's records: its content hash (64 hex digits) then its path. */
function scanId(file: SourceFile): string {
  return `${file.sha256} ${file.path}`;
}

/** A redaction read back from the cache, when it has the expected shape and hash. */
function storedRedaction(value: unknown): StoredRedaction | undefined {
  const r = value as StoredRedaction | undefined;
  const ok = typeof r?.text === "string" && typeof r.sha256 === "string" &&
    Array.isArray(r.findings) &&
    r.findings.every((f) => Number.isInteger(f?.line) && typeof f?.rule === "string");
  return ok && sha256(r!.text) === r!.sha256 ? r : undefined;
}

/** Options of {@linkcode redactSources}. */
export interface ScanOptions {
  /** Threads to scan with (this one and workers); 1: no workers. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /**
   * Hand the scan's workers on once the scan is done, with the texts each kept (a speed layer
   * has them count those texts for the count stage, `accel/precount.ts`).
   * @default {undefined} the workers stop
   */
  handOff?: ScanHandOff;
}

/** Below this many characters to scan, a worker costs more than it saves. */
const PARALLEL_SCAN_CHARS = 1024 * 1024;

/** Characters per batch handed to a thread. */
const SCAN_BATCH_CHARS = 256 * 1024;

/**
 * The most characters of texts a scan worker keeps at once to count them next (see
 * {@linkcode ScanOptions.handOff}); the others are sent to it again when they are counted, a
 * batch at a time. Each kept text is a copy in the worker's heap: without a bound, a big tree's
 * worker held the half of the tree it scanned until the counting reached it (bench/README.md,
 * "Monorepo scale").
 */
const KEEP_CHARS = 8 * 1024 * 1024;
let keepChars = KEEP_CHARS;

/**
 * Set the most characters of texts a scan worker keeps to count (tests use a smaller tree than
 * the default needs); returns the bound before.
 *
 * @example
 * ```ts
 * import { setScanKeepChars } from "./secrets.ts";
 * const before = setScanKeepChars(64 * 1024);
 * setScanKeepChars(before);
 * ```
 */
export function setScanKeepChars(chars: number): number {
  const before = keepChars;
  keepChars = chars;
  return before;
}

/**
 * Below this many characters to scan, a worker is started only to count the texts it scans
 * (files shown whole: {@linkcode ScanOptions.count}): it is not ready to scan before this thread
 * is done. zod (332 files, 3 MB) in `skeleton` view: the worker, started in 25 ms of this thread
 * and with 60-100 ms of its own CPU time, loaded its module 150-300 ms into a scan of 180-250 ms
 * and scanned 3 of 12 batches; a quiet second core is what it would have saved time on. The
 * Python stdlib (12 MB) in `skeleton` view, 12 alternating pairs on 2 cores at load 1.3-2.2: wall
 * 2.81 -> 2.74 s and 2.70 -> 2.66 s (medians of 6), CPU 5.18 -> 4.99 s and 4.93 -> 4.83 s without
 * the worker (its second core goes to the code worker's start and V8's compile of the parser);
 * the typescript lib (22.5 MB, files of 9 and 6 MB) was no faster alone (4 pairs).
 */
const SOLO_SCAN_CHARS = 16 * 1024 * 1024;

/**
 * How many of `workers` scan workers to start for a scan of `total` characters, of which
 * `counted` are of texts they would count next (see {@linkcode SOLO_SCAN_CHARS}).
 *
 * @example
 * ```ts
 * import { scanWorkers } from "./secrets.ts";
 * scanWorkers(3_000_000, 0, 1); // 0: this thread scans alone
 * scanWorkers(3_000_000, 3_000_000, 1); // 1: it counts them next
 * scanWorkers(12_000_000, 0, 1); // 0
 * scanWorkers(24_000_000, 0, 1); // 1
 * ```
 */
export function scanWorkers(total: number, counted: number, workers: number): number {
  if (total < PARALLEL_SCAN_CHARS) return 0;
  return total >= SOLO_SCAN_CHARS || counted >= PARALLEL_SCAN_CHARS ? workers : 0;
}

type ScanResult = { text?: string; findings: Redaction["findings"] };
/**
 * A worker's answer for one text: its result (`kept`: the worker kept the text to count it), or
 * the text handed back (secretlint scans it).
 */
type WorkerResult = (ScanResult & { kept?: boolean }) | { handBack: true };

/**
 * Scan files with this thread and, for large scans (see {@linkcode scanWorkers}), workers:
 * batches in path order go to whichever thread is free. Each text is scanned by the same
 * rules wherever it runs, so the results are those of a scan in one thread.
 * A worker hands back the short texts secretlint must scan (few): this thread
 * scans them, so only this thread, whose modules are loaded already, loads
 * secretlint (unless a worker meets a large one, which it scans itself).
 * Workers keep the texts of files that `keep` accepts, to count them next.
 */
async function scanAll(
  files: SourceFile[],
  rules: Record<string, string>,
  threads: number | undefined,
  keep: (file: SourceFile) => boolean,
): Promise<
  { results: Map<SourceFile, ScanResult>; helpers: ScanHelper[]; owner: Map<SourceFile, number> }
> {
  const total = files.reduce((n, f) => n + f.text!.length, 0);
  const workers = Math.max(1, Math.floor(threads ?? navigator.hardwareConcurrency ?? 1)) - 1;
  const state: ScanState = {
    out: new Map(),
    owner: new Map(),
    rules,
    keep,
    batches: [],
    next: 0,
    handedBack: [],
    inFlight: new Set(),
  };
  if (workers === 0 || total < PARALLEL_SCAN_CHARS) {
    await scanHere(state, files);
    return { results: state.out, helpers: [], owner: state.owner };
  }
  const counted = files.reduce((n, f) => n + (keep(f) ? f.text!.length : 0), 0);
  state.batches = scanBatches(files);
  const helpers = Array.from({ length: scanWorkers(total, counted, workers) }, () => scanWorker());
  const lanes = helpers.map((helper, index) => workerLane(state, { helper, index }));
  lanes.forEach((fill) => fill());
  await scanOnThisThread(state, helpers.length > 0);
  return { results: state.out, helpers, owner: state.owner };
}

/** What {@linkcode scanAll}'s lanes share: the results, the batches and the batches in flight. */
interface ScanState {
  out: Map<SourceFile, ScanResult>;
  /** The helper (worker) that scanned each file and kept its text. */
  owner: Map<SourceFile, number>;
  rules: Record<string, string>;
  keep: (file: SourceFile) => boolean;
  batches: SourceFile[][];
  /** The first batch not taken yet. */
  next: number;
  /** Texts the workers handed back (secretlint scans them). */
  handedBack: SourceFile[];
  inFlight: Set<Promise<void>>;
}

/** Scan a batch on this thread. */
async function scanHere(state: ScanState, batch: SourceFile[]): Promise<void> {
  for (const file of batch) {
    state.out.set(file, await redactText(file.text!, file.path, { rules: state.rules }));
  }
}

/**
 * A worker's lane: `fill` hands it batches. Each worker keeps a second batch in hand (a third
 * while those are small), so it does not wait for this thread, which hands batches over only
 * between its own; a batch of one large file is scanned alone (the next large one may go to
 * this thread).
 */
function workerLane(
  state: ScanState,
  lane: { helper: ScanHelper; index: number },
): () => void {
  const { helper, index } = lane;
  const { batches, inFlight } = state;
  let jobs = 0;
  let chars = 0;
  const fill = () => {
    while (state.next < batches.length && (!jobs || chars < 2 * SCAN_BATCH_CHARS)) {
      const batch = batches[state.next++];
      const size = batchChars(batch);
      jobs++;
      chars += size;
      const done: Promise<void> = helper.scan(batch, state.keep, state.rules).then(
        (results) =>
          batch.forEach((file, i) => {
            const result = results[i];
            if ("handBack" in result) return void state.handedBack.push(file);
            const { kept, ...scanned } = result;
            state.out.set(file, scanned);
            // A text the worker did not keep (it keeps a bounded share) is sent to be counted.
            if (kept) state.owner.set(file, index);
          }),
        () => scanHere(state, batch), // a worker that fails leaves its batch to this thread
      ).then(() => {
        inFlight.delete(done);
        jobs--;
        chars -= size;
        fill();
      });
      inFlight.add(done);
    }
  };
  return fill;
}

/**
 * This thread takes batches too (the texts handed back first), letting the workers' answers
 * in after each (a worker that waits for its next batch leaves its texts to count to this
 * thread) and other stages' loads, every YIELD_MS of its scanning when it scans alone.
 */
async function scanOnThisThread(state: ScanState, withHelpers: boolean): Promise<void> {
  let yielded = performance.now();
  for (;;) {
    const batch = state.handedBack.length
      ? state.handedBack.splice(0)
      : state.batches[state.next++];
    if (batch) {
      await scanHere(state, batch);
      if (!withHelpers && performance.now() - yielded < YIELD_MS) continue;
      await yieldToEvents();
      yielded = performance.now();
    } else if (state.inFlight.size) await Promise.race(state.inFlight);
    else break;
  }
}

/**
 * Files in batches of about {@linkcode SCAN_BATCH_CHARS} characters (in path order within a
 * batch; a larger file alone), largest batch first: the largest files are scanned first, by
 * different threads, instead of the last large one keeping one thread busy while the others
 * wait. Each text is scanned whole wherever it goes, so the order changes no result.
 *
 * @example
 * ```ts
 * import { scanBatches } from "./secrets.ts";
 * const large = { text: "x".repeat(300_000) };
 * scanBatches([{ text: "a" }, large])[0][0] === large; // true
 * ```
 */
export function scanBatches<T extends { text?: string }>(files: T[]): T[][] {
  const batches: T[][] = [];
  let open: T[] = [];
  let size = 0;
  for (const file of files) {
    if (file.text!.length >= SCAN_BATCH_CHARS) {
      batches.push([file]);
      continue;
    }
    open.push(file);
    size += file.text!.length;
    if (size >= SCAN_BATCH_CHARS) {
      batches.push(open);
      open = [];
      size = 0;
    }
  }
  if (open.length) batches.push(open);
  // Stable: batches of equal size stay in path order.
  return batches
    .map((batch, i) => ({ batch, i, size: batchChars(batch) }))
    .sort((a, b) => b.size - a.size || a.i - b.i)
    .map((b) => b.batch);
}

function batchChars(batch: Array<{ text?: string }>): number {
  return batch.reduce((n, f) => n + f.text!.length, 0);
}

/** A thread that counts texts with a table (a scan worker, once its scan is done). */
export interface CountHelper {
  /**
   * Counts of the `[path, start, end, last]` spans of texts the thread kept from its scan (-1 for
   * one it does not hold; `last`: the text's last span, it may be let go), then of `texts`.
   */
  count(
    job: {
      spans: Array<[string, number, number, boolean?]>;
      texts: string[];
      /** The job's flag (0: free): the helper sets it to 1 before counting, or answers -2s if set. */
      claims?: { flags: Int32Array; index: number };
    },
    table: BpeTable,
  ): Promise<number[]>;
  /** Stop the thread. */
  stop(): void;
}

/** Where the scan's workers go once the scan is done (see {@linkcode ScanOptions.handOff}). */
export interface ScanHandOff {
  /** The files whose texts the workers keep. */
  keep: (file: SourceFile) => boolean;
  /** Take the workers, and the kept texts with the index of the worker that holds each. */
  take(files: Array<{ path: string; text: string; helper?: number }>, helpers: CountHelper[]): void;
}

interface ScanHelper extends CountHelper {
  /** Scan `files`; the worker keeps the texts of those `keep` accepts (to count them). */
  scan(
    files: SourceFile[],
    keep: (file: SourceFile) => boolean,
    rules: Record<string, string>,
  ): Promise<WorkerResult[]>;
}

function scanWorker(): ScanHelper {
  let worker: Worker;
  try {
    worker = new Worker(new URL("./_scan_worker.ts", import.meta.url).href, { type: "module" });
  } catch (error) {
    return {
      scan: () => Promise.reject(error),
      count: () => Promise.reject(error),
      stop: () => {},
    };
  }
  // deno-lint-ignore no-explicit-any
  const waiting = new Map<number, { resolve(r: any): void; reject(e: Error): void }>();
  let ids = 0;
  let broken: Error | undefined;
  let tableSent = false;
  worker.onmessage = (
    event: MessageEvent<
      { id: number; results?: WorkerResult[]; counts?: number[]; error?: string }
    >,
  ) => {
    const job = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    const answer = event.data.results ?? event.data.counts;
    if (answer) job?.resolve(answer);
    else job?.reject(new Error(`Secret scan failed: ${event.data.error}`));
  };
  worker.onerror = (event) => {
    event.preventDefault();
    broken = new Error(`Secret scan failed: ${event.message}`);
    for (const job of waiting.values()) job.reject(broken);
    waiting.clear();
  };
  return {
    scan: (files, keep, rules) =>
      new Promise<WorkerResult[]>((resolve, reject) => {
        if (broken) return reject(broken);
        const id = ids++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({
          id,
          rules,
          items: files.map((f) => ({ path: f.path, text: f.text, keep: keep(f) })),
          keepChars,
        });
      }),
    count: ({ spans, texts, claims }, table) =>
      new Promise<number[]>((resolve, reject) => {
        if (broken) return reject(broken);
        const id = ids++;
        waiting.set(id, { resolve, reject });
        // The table (a few MB) is copied to the worker once, with its first count.
        worker.postMessage({ id, table: tableSent ? undefined : table, spans, texts, claims });
        tableSent = true;
      }),
    stop: () => worker.terminate(),
  };
}

/**
 * Let queued events run: workers' answers, and the loads other stages started (grammars, whose
 * code workers wait for them). A timer's turn lets them in; in a build, a MessageChannel turn
 * let almost none in (the worker scanned 1 of the stdlib's 41 batches), and `setImmediate` did
 * only sometimes (5 to 22 of 45).
 */
function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Scanning time (ms) between two of this thread's {@linkcode yieldToEvents} when it scans alone: a
 * timer's turn takes 2.5-5 ms even when nothing is waiting (zod: 12 batches of 3-10 ms, 30-40 ms
 * of turns). With a worker it yields after each batch: yielding every 10 ms, it scanned more of
 * zod's batches in `full` view, whose texts it then counted itself (count stage 321 -> 373 ms).
 */
const YIELD_MS = 10;

/** What the scan is made of: slop's rules, the prefilter and secretlint's version. */
const SCANNER = sha256(
  JSON.stringify([
    SLOP_SECRET_RULES.map((r) => [r.name, String(r.pattern)]),
    // The whole table: a file found clean before a rule was added is scanned again.
    SECRET_RULES_VERSION,
    String(TOKEN_GATE),
    SECRET_SHAPES.map((s) => [s.id, s.label, s.gate, String(s.pattern), String(s.find)]),
    String(SECRETLINT_HINTS),
    SECRETLINT_RULE_IDS,
    "@secretlint/core@13.0.7",
  ]),
);

/**
 * Redact the blocks sections composed (history, knowledge, …) in place;
 * file blocks were redacted before transform. Findings name the block id.
 *
 * @example
 * ```ts
 * import { redactBlocks } from "./secrets.ts";
 * // const findings = await redactBlocks(blocks, config.secrets.rules);
 * ```
 */
export async function redactBlocks(
  blocks: Block[],
  rules: Record<string, string>,
): Promise<SecretFinding[]> {
  const findings: SecretFinding[] = [];
  for (const block of blocks) {
    if (block.section === "files") continue;
    const result = await redactText(block.text, block.id, { rules });
    if (!result.findings.length) continue;
    block.text = result.text;
    for (const f of result.findings) findings.push({ path: block.id, ...f });
  }
  return findings;
}

/**
 * Warn once per finding (file, line, rule); with `failOnSecret`, throw a
 * {@linkcode SecretsFoundError} listing them instead, before anything is written.
 *
 * @example
 * ```ts
 * import { failOnSecrets } from "./secrets.ts";
 * failOnSecrets([], true, console.warn); // nothing found: no error
 * ```
 */
export function failOnSecrets(
  findings: SecretFinding[],
  fail: boolean,
  warn: (message: string) => void,
): void {
  if (fail && findings.length) throw new SecretsFoundError(findings);
  // Two matches of one rule on one line (a screenshot's name in its link text and its path) are
  // one warning.
  const told = new Set<string>();
  for (const f of findings) {
    const message = `Redacted a secret in "${f.path}" line ${f.line} (${f.rule})`;
    if (!told.has(message)) warn(message);
    told.add(message);
  }
}

/** A build stopped by `failOnSecret`: lists file, line and rule of each finding. */
export class SecretsFoundError extends Error {
  /** The findings. */
  findings: SecretFinding[];
  /** @param findings What was found. */
  constructor(findings: SecretFinding[]) {
    super(
      `Found ${findings.length} secret${findings.length === 1 ? "" : "s"} (failOnSecret):\n` +
        findings.map((f) => `  ${f.path}:${f.line} (${f.rule})`).join("\n"),
    );
    this.name = "SecretsFoundError";
    this.findings = findings;
  }
}

/**
 * The manifest with its `secrets` list (only when something was found).
 *
 * @example
 * ```ts
 * import { withSecrets } from "./secrets.ts";
 * // const manifest = withSecrets(buildManifest(...), findings);
 * ```
 */
export function withSecrets(manifest: Manifest, findings: SecretFinding[]): Manifest {
  return findings.length ? { ...manifest, secrets: findings } : manifest;
}

/**
 * Redact warnings in place with every rule (secretlint included): a warning
 * may quote input, such as a parser's excerpt of a broken history file.
 *
 * @example
 * ```ts
 * import { redactWarnings } from "./secrets.ts";
 * // await redactWarnings(warnings, config.secrets.rules);
 * ```
 */
export async function redactWarnings(
  warnings: string[],
  rules: Record<string, string>,
): Promise<void> {
  for (let i = 0; i < warnings.length; i++) {
    warnings[i] = (await redactText(warnings[i], "warning", { rules })).text;
  }
}
