/**
 * Secret stage (between read and transform): every included text is scanned
 * with slop's rule table (`secret_rules.ts`: cloud, VCS, chat, payment, LLM
 * and registry tokens, private keys, URL passwords, values under
 * secret-looking names), secretlint's recommended preset for the kinds the
 * table lacks, and the user's `secrets.rules`. Each value is replaced in
 * place by `[REDACTED:<rule>]`; the file stays in the build. Findings carry
 * the file, line and rule, never the value. Its steps, in `redactSources()`'s order:
 * `planScan()` (each file clean before, by the records of `_scan_clean.ts`, its redaction
 * cached, or to scan), `scanAll()` (`_scan_threads.ts`: this thread and workers, each text
 * through `_scan.ts`) and `applyScan()` (redact, cache, list the findings).
 *
 * @module
 */

import { redactText, SECRETLINT_HINTS, SECRETLINT_RULE_IDS, SLOP_SECRET_RULES } from "./_scan.ts";
import { hasText } from "./lazy_text.ts";
import { SECRET_RULES_VERSION, SECRET_SHAPES, TOKEN_GATE } from "./secret_rules.ts";
import { sha256 } from "./read.ts";
import { type Cache, cacheKey } from "./cache.ts";
import { scanAll, type ScanResult } from "./_scan_threads.ts";
import type { Block, CompleteFn, Manifest, SecretFinding, SourceFile } from "./types.ts";
import { cleanAdded, cleanList, storeClean } from "./_scan_clean.ts";

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
export {
  type CountHelper,
  type CountText,
  scanAll,
  scanBatches,
  type ScanResult,
  scanWorkers,
  setScanKeepChars,
} from "./_scan_threads.ts";
export { splitSecretPaths } from "./_secret_paths.ts";
export { type ScanAhead, type ScanHelper, scanWorker } from "./_scan_threads.ts";

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
export interface StoredRedaction {
  text: string;
  sha256: string;
  findings: Array<{ line: number; rule: string }>;
}

/**
 * Redact every readable source in place (its `text`); returns the findings
 * in path order. A redacted file's `sha256` becomes that of its redacted
 * text (its size stays that of the file on disk), so anything keyed by
 * content hash never matches a render of the unredacted file. With a
 * cache, the files a build found clean are listed (by path and content hash,
 * under the rules and scanner version: one entry, and one of those found clean
 * since, {@linkcode CleanLists}), and the next build scans only the others. The stage is its steps: {@linkcode planScan},
 * `scanAll()` (this thread and workers) and {@linkcode applyScan}.
 *
 * @example
 * ```ts
 * import { redactSources } from "./secrets.ts";
 * // const findings = await redactSources(sources, config.secrets.rules, { cache });
 * ```
 */
export async function redactSources(
  sources: SourceFile[],
  rules: Record<string, string>,
  options: ScanOptions = {},
): Promise<SecretFinding[]> {
  const plan = await planScan(sources, rules, options);
  const onScanned = scanProgress(sources, plan.todo, options.onProgress);
  const { results, helpers } = await scanAll(plan.todo, rules, {
    workers: options.workers,
    onScanned,
  });
  helpers.forEach((h) => h.stop());
  return await applyScan(sources, plan, results);
}

/** Options of {@linkcode redactSources}. */
export interface ScanOptions {
  /** The cache of the files found clean and of redactions. @default {undefined} none */
  cache?: Cache;
  /** Threads to scan with (this one and workers); 1: no workers. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /**
   * Told the files and their bytes done: once those not scanned (found clean before) are known,
   * then as each file's scan ends. @default {undefined} not told
   */
  onProgress?: (files: number, bytes: number) => void;
}

/**
 * The scan's `onScanned` that tells `onProgress` the files and bytes done of `sources`: those not
 * in `todo` (found clean before, or their redaction cached) are done at once.
 *
 * @example
 * ```ts
 * import { scanProgress } from "./secrets.ts";
 * // const onScanned = scanProgress(sources, plan.todo, (files, bytes) => console.log(files, bytes));
 * ```
 */
export function scanProgress(
  sources: SourceFile[],
  todo: SourceFile[],
  onProgress: ((files: number, bytes: number) => void) | undefined,
): ((file: SourceFile) => void) | undefined {
  if (!onProgress) return undefined;
  const scanning = new Set(todo);
  let files = 0;
  let bytes = 0;
  for (const source of sources) {
    if (scanning.has(source)) continue;
    files++;
    bytes += source.size;
  }
  onProgress(files, bytes);
  return (file) => onProgress(++files, bytes += file.size);
}

/** Which files {@linkcode redactSources} scans, and what it knows of the others. */
export interface ScanPlan {
  /** The cache entry of the files found clean (by the rules and the scanner). */
  key: string;
  /** The ids of the files found clean before (the cache's lists). */
  before: Set<string>;
  /** The cache's list of the files found clean since its first list was stored (none: `[]`). */
  added: string[];
  cache?: Cache;
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
  /** The ids of the files found clean the cache's lists hold once {@linkcode applyScan} stored them, when it did. */
  stored?: Set<string>;
}

/** Options of {@linkcode planScan}. */
export interface PlanOptions {
  /** The cache of the files found clean and of redactions. @default {undefined} none */
  cache?: Cache;
  /**
   * The ids of the files found clean before under the cache entry `key` (a scan's rules and
   * scanner), when the caller keeps them (the list an earlier build read or stored, as a set);
   * `undefined`: read from the cache. A file found clean is so for its content and path whatever
   * stored it, so a set that holds more ids than the cache's list scans no file that differs.
   * @default {undefined} read from the cache
   */
  cleanBefore?: (key: string) => Set<string> | undefined;
}

/**
 * The secrets stage's first step: sort the files into clean before (same path, content hash,
 * rules and scanner: not scanned again), redaction cached (taken now), or to scan (read now if
 * not read yet).
 *
 * @example
 * ```ts
 * import { planScan } from "./secrets.ts";
 * const plan = await planScan([], {});
 * plan.todo.length; // 0
 * ```
 */
export async function planScan(
  sources: SourceFile[],
  rules: Record<string, string>,
  options: PlanOptions = {},
): Promise<ScanPlan> {
  const { cache } = options;
  // Version 2: a file's id is its content hash and path as they are (bench/README.md, "Numbers
  // behind code choices").
  const key = cacheKey(["secrets-clean/2", SCANNER, rules]);
  // A caller's set stands for both lists (the short one is read to store it again).
  const kept = cache?.enabled ? options.cleanBefore?.(key) : undefined;
  const added = await cleanAdded(key, cache);
  const before = kept ?? await cleanList(key, cache, added);
  const plan: ScanPlan = {
    key,
    before,
    added,
    cache,
    ids: [],
    scanned: [],
    todo: [],
    known: new Map(),
  };
  for (let i = 0; i < sources.length; i++) {
    const file = sources[i];
    if (file.error || (!hasText(file) && !file.load)) continue;
    const id = scanId(file);
    if (before.has(id)) {
      plan.ids[i] = id;
      continue;
    }
    const scanned = await idToScan(file, plan);
    if (scanned === undefined) continue;
    plan.ids[i] = scanned;
    plan.scanned[i] = true;
    plan.todo.push(file);
  }
  return plan;
}

/**
 * The id of a file not clean before, to scan it (read now if not read yet); `undefined` when its
 * redaction was cached (taken now) or it cannot be read.
 */
async function idToScan(file: SourceFile, plan: ScanPlan): Promise<string | undefined> {
  const { key, cache } = plan;
  // Unchanged since the last build and not clean: its redaction is in the cache (by scan, path
  // and content hash), so neither the file nor the scanner is loaded.
  const redaction = cache?.enabled && file.load
    ? storedRedaction(await cache.get(cacheKey(["secrets-redacted/1", key, scanId(file)])))
    : undefined;
  if (redaction) {
    Object.assign(file, {
      text: redaction.text,
      bytes: undefined,
      sha256: redaction.sha256,
      load: undefined,
    });
    plan.known.set(file, redaction);
    return undefined;
  }
  if (hasText(file)) return scanId(file);
  // Not read by this build (unchanged since the last) and not known clean: read it now.
  await file.load?.();
  return file.error || file.text === undefined ? undefined : scanId(file);
}

/**
 * The secrets stage's last step: take the scan's results, redact each file with findings (its
 * redaction cached), store the list of the files found clean, and give the findings (cached ones
 * too) in path order.
 *
 * @example
 * ```ts
 * import { applyScan, planScan } from "./secrets.ts";
 * await applyScan([], await planScan([], {}), new Map()); // []
 * ```
 */
export async function applyScan(
  sources: SourceFile[],
  plan: ScanPlan,
  results: Map<SourceFile, ScanResult>,
): Promise<SecretFinding[]> {
  const { ids, scanned, known, cache } = plan;
  const findings: SecretFinding[] = [];
  const clean: string[] = [];
  const newlyClean: string[] = [];
  for (let i = 0; i < sources.length; i++) {
    const file = sources[i];
    const id = ids[i];
    if (id === undefined) {
      const redaction = known.get(file);
      for (const f of redaction?.findings ?? []) findings.push({ path: file.path, ...f });
      continue;
    }
    const result = results.get(file);
    if (!result?.findings.length) {
      clean.push(id);
      if (scanned[i]) newlyClean.push(id);
      continue;
    }
    const made = redactFile(file, result);
    for (const f of made.findings) findings.push({ path: file.path, ...f });
    if (cache?.enabled) await cache.set(cacheKey(["secrets-redacted/1", plan.key, id]), made);
  }
  if (cache?.enabled) {
    plan.stored = await storeClean(cache, plan, { clean, newlyClean }) ?? plan.stored;
  }
  return findings;
}

/** Redact a file in place with the scan's result: its redaction, as the cache keeps it. */
function redactFile(file: SourceFile, result: ScanResult): StoredRedaction {
  file.text = result.text;
  // Raw bytes would carry the secret to later stages: drop them.
  file.bytes = undefined;
  // Content-hash keys (the view cache) must follow the text views see: a render of
  // the unredacted file, cached before a rule was added, must never match again.
  file.sha256 = sha256(result.text!);
  return { text: result.text!, sha256: file.sha256, findings: result.findings };
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

/** What the scan is made of: slop's rules, the prefilter and secretlint's version. */
const SCANNER = sha256(
  JSON.stringify([
    SLOP_SECRET_RULES.map((r) => [r.name, String(r.pattern)]),
    // The whole table: a file found clean before a rule was added is scanned again.
    SECRET_RULES_VERSION,
    String(TOKEN_GATE),
    SECRET_SHAPES.map((
      s,
    ) => [s.id, s.label, s.gate, String(s.pattern), String(s.find), String(s.run)]),
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
