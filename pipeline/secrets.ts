/**
 * Secret stage (between read and transform): every included text is scanned
 * with secretlint's recommended preset, slop's own rules for the key shapes
 * of leaked `.env` files (OpenRouter `sk-or-v1-…`, OpenAI `sk-proj-…`, long
 * hex values assigned to `*_SECRET` / `*_KEY` / `*_TOKEN` names, JSON maps of
 * keys) and the user's `secrets.rules`. Each match is replaced in place by
 * `[REDACTED:<rule>]`; the file stays in the build. Findings carry the file,
 * line and rule, never the value.
 *
 * @module
 */

import { loadSecretlint } from "../deps.ts";
import { sha256 } from "./read.ts";
import { type Cache, cacheKey } from "./cache.ts";
import { tableFor } from "./count.ts";
import type { Tokenizer } from "./tokens.ts";
import { type CountHelper, startPrecount } from "./_precount.ts";
import type { Block, CompleteFn, Manifest, SecretFinding, SourceFile } from "./types.ts";

/** A compiled redaction rule. */
export interface SecretRule {
  /** Rule name, shown as `[REDACTED:<name>]`. */
  name: string;
  /** Global regular expression; with a capture group, only group 1 is redacted. */
  pattern: RegExp;
}

/** Options of {@linkcode redactText}. */
export interface RedactOptions {
  /** The user's rules (`secrets.rules`: name -> regular expression source). */
  rules?: Record<string, string>;
  /** Run secretlint's recommended preset too. @default {true} */
  secretlint?: boolean;
  /** Skip secretlint on texts without any {@linkcode SECRETLINT_HINTS} substring. @default {true} */
  prefilter?: boolean;
}

/** A text after redaction. */
export interface Redaction {
  /** The text with every match replaced by `[REDACTED:<rule>]`. */
  text: string;
  /** What was found: line (1-based) and rule, never the value. */
  findings: Array<{ line: number; rule: string }>;
}

/**
 * slop's own rules, for the key shapes secretlint's preset misses (seen in
 * real leaked `.env` files). Rules that need context (hex values assigned to
 * secret-like names, JSON maps of keys) are in {@linkcode redactText}.
 */
export const SLOP_SECRET_RULES: SecretRule[] = [
  { name: "openrouter-key", pattern: /\bsk-or-v1-[A-Za-z0-9]{32,}/g },
  { name: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  {
    name: "openai-key",
    pattern:
      /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,}(?![A-Za-z0-9_-]))/g,
  },
];

/**
 * A secret-like name (`…SECRET…`, `…KEY…`, `…TOKEN…`, passwords, credentials)
 * assigned a hex value of 32+ digits (group 1) or a map (ends at its `{`).
 */
const NAMED_VALUE =
  /(?:secret|key|token|passw(?:or)?d|pwd|credential)[A-Za-z0-9_]*["']?\s*(?::|=>|=)\s*(?:["']?([0-9a-fA-F]{32,})(?![A-Za-z0-9_])|['"]?\{)/gi;
const MAP_VALUE = /"[^"\\\n]{1,200}"\s*:\s*"([^"\\\n]{8,})"/g;
/** Longest JSON map (in characters) the key-map rule looks into. */
const MAX_MAP = 64 * 1024;

/**
 * Substrings at least one of which every rule of secretlint's recommended
 * preset (13.0.7) needs to match; a text with none of them cannot produce a
 * finding, so secretlint is skipped for it. Tied to the pinned version: the
 * rule list is checked by a test.
 */
export const SECRETLINT_HINTS: RegExp = new RegExp(
  [
    "A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA", // aws access key id
    // aws secret access key, account id (case-insensitive supersets of the rule's names)
    "[Ss][Ee][Cc][Rr][Ee][Tt]_?[Aa][Cc][Cc][Ee][Ss][Ss]_?[Kk][Ee][Yy]",
    "[Aa][Cc][Cc][Oo][Uu][Nn][Tt]_?(?:[Ii][Dd])?[\"']?\\s*(?::|=>|=)\\s*[\"']?[0-9]{4}",
    "private_key|PRIVATE KEY", // gcp, privatekey
    "_authToken=|npm_|x-oauth-basic", // npm, github oauth
    "xox[bpaor]|xapp|[Hh][Oo][Oo][Kk][Ss]\\.[Ss][Ll][Aa][Cc][Kk]", // slack
    "://[-a-zA-Z0-9_]{1,256}:[-a-zA-Z0-9_]{1,256}@", // basicauth
    "[Mm][Oo][Nn][Gg][Oo][Dd][Bb]|[Mm][Yy][Ss][Qq][Ll]|[Pp][Oo][Ss][Tt][Gg][Rr][Ee][Ss]", // databases
    "sk-|gsk_|hf_|lin_api_|ntn_|SG\\.|shp(?:pa|ca|at|ss)_|[sr]k_(?:live|test)_", // keys by prefix
    "gh[pousr]_|github_pat_|glpat-|glc_|glsa_|ops_|hv[sbr]\\.|vc[piark]_|dapi|dckr_pat_",
    "figd_|cf(?:k|ut|at)_|tskey-",
  ].join("|"),
);

/** The rule ids of secretlint's preset that {@linkcode SECRETLINT_HINTS} covers. */
export const SECRETLINT_RULE_IDS: string[] = [
  "aws",
  "gcp",
  "npm",
  "slack",
  "basicauth",
  "openai",
  "anthropic",
  "groq",
  "huggingface",
  "linear",
  "notion",
  "privatekey",
  "sendgrid",
  "shopify",
  "stripe",
  "github",
  "gitlab",
  "grafana",
  "1password",
  "database-connection-string",
  "hashicorp-vault",
  "vercel",
  "databricks",
  "docker",
  "figma",
  "cloudflare",
  "tailscale",
  "filter-comments",
];

/**
 * Compile the user's rules; throws naming the key path of a bad pattern.
 *
 * @example
 * ```ts
 * import { userSecretRules } from "./secrets.ts";
 * userSecretRules({ internal: "ACME-[0-9]{8}" })[0].name; // "internal"
 * ```
 */
export function userSecretRules(rules: Record<string, string>): SecretRule[] {
  return Object.entries(rules).map(([name, source]) => {
    try {
      return { name, pattern: new RegExp(source, "g") };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`Invalid regular expression at "secrets.rules.${name}": ${detail}`);
    }
  });
}

/**
 * Problems of `secrets.rules` (bad patterns, patterns that match the empty
 * string), each naming its key path.
 *
 * @example
 * ```ts
 * import { checkSecretRules } from "./secrets.ts";
 * checkSecretRules({ bad: "(" }).length; // 1
 * ```
 */
export function checkSecretRules(rules: Record<string, string> | undefined): string[] {
  const problems: string[] = [];
  for (const [name, source] of Object.entries(rules ?? {})) {
    if (typeof source !== "string") continue;
    try {
      if (new RegExp(source).test("")) {
        problems.push(`"secrets.rules.${name}" matches the empty string: "${source}"`);
      }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      problems.push(`Invalid regular expression at "secrets.rules.${name}": ${detail}`);
    }
  }
  return problems;
}

interface Match {
  start: number;
  end: number;
  rule: string;
}

/**
 * Find and redact secrets in one text.
 *
 * @param text The text to scan.
 * @param path Its path (secretlint picks rules by extension).
 * @param options User rules and whether to run secretlint.
 * @returns The redacted text and the findings (line and rule).
 *
 * @example
 * ```ts
 * import { redactText } from "./secrets.ts";
 * const { text } = await redactText("KEY=sk-or-v1-" + "ab".repeat(32) + "\n", ".env");
 * text; // "KEY=[REDACTED:openrouter-key]\n"
 * ```
 */
export async function redactText(
  text: string,
  path: string,
  options: RedactOptions = {},
): Promise<Redaction> {
  const matches = ownMatches(text, options.rules ?? {});
  const hinted = options.prefilter === false || SECRETLINT_HINTS.test(text);
  if (options.secretlint !== false && hinted) {
    await collectSecretlint(text, path, matches);
  }
  return apply(text, matches);
}

/**
 * Redact a message synchronously with slop's own rules and the user's rules
 * (not secretlint's): for warnings and errors that quote input, such as a
 * parser's excerpt of a broken history or config file.
 *
 * @example
 * ```ts
 * import { redactMessage } from "./secrets.ts";
 * redactMessage(`bad line: KEY=sk-or-v1-${"ab".repeat(32)}`);
 * // "bad line: KEY=[REDACTED:openrouter-key]"
 * ```
 */
export function redactMessage(message: string, rules: Record<string, string> = {}): string {
  return redactSync(message, rules).text;
}

/**
 * {@linkcode redactText} without secretlint, synchronously: slop's own rules
 * and the user's. For hot or synchronous paths (knowledge lines, messages).
 *
 * @example
 * ```ts
 * import { redactSync } from "./secrets.ts";
 * redactSync(`API_SECRET=${"4d".repeat(32)}`).findings; // [{ line: 1, rule: "hex-secret" }]
 * ```
 */
export function redactSync(text: string, rules: Record<string, string> = {}): Redaction {
  return apply(text, ownMatches(text, rules));
}

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

function ownMatches(text: string, rules: Record<string, string>): Match[] {
  const matches: Match[] = [];
  // Each of slop's own key rules starts with "sk-": a text without it cannot match them.
  if (text.includes("sk-")) { for (const rule of SLOP_SECRET_RULES) collect(text, rule, matches); }
  for (const rule of userSecretRules(rules)) collect(text, rule, matches);
  collectNamedValues(text, matches);
  return matches;
}

function collect(text: string, rule: SecretRule, out: Match[]): void {
  rule.pattern.lastIndex = 0;
  for (const m of text.matchAll(rule.pattern)) {
    if (!m[0]) continue;
    if (m[1] !== undefined) {
      const at = m.index! + m[0].indexOf(m[1]);
      if (m[1]) out.push({ start: at, end: at + m[1].length, rule: rule.name });
    } else {
      out.push({ start: m.index!, end: m.index! + m[0].length, rule: rule.name });
    }
  }
}

/**
 * Hex values of 32+ digits assigned to a secret-like name (`API_SECRET=4dac…`,
 * rule `hex-secret`), and every string value of a JSON map assigned to one
 * (`LLM_API_KEY_MAP={"together":"…"}`, rule `key-map`). One pass over the text.
 */
function collectNamedValues(text: string, out: Match[]): void {
  NAMED_VALUE.lastIndex = 0;
  for (const m of text.matchAll(NAMED_VALUE)) {
    const end = m.index! + m[0].length;
    if (m[1]) {
      out.push({ start: end - m[1].length, end, rule: "hex-secret" });
      continue;
    }
    const open = end - 1;
    const close = matchingBrace(text, open);
    if (close < 0) continue;
    const body = text.slice(open, close + 1);
    for (const v of body.matchAll(MAP_VALUE)) {
      const at = open + v.index! + v[0].lastIndexOf(`"${v[1]}"`) + 1;
      out.push({ start: at, end: at + v[1].length, rule: "key-map" });
    }
  }
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  const limit = Math.min(text.length, open + MAX_MAP);
  for (let i = open; i < limit; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

async function collectSecretlint(text: string, path: string, out: Match[]): Promise<void> {
  const { lintSource, preset } = await loadSecretlint();
  const result = await lintSource({
    // Only the name is passed: rules that would re-read the file (GCP .p12) find nothing.
    source: { filePath: `/${path}`, content: text, contentType: "text" },
    options: {
      config: { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: preset }] },
      maskSecrets: true,
    },
  });
  for (const message of result.messages) {
    if (message.type !== "message" || !message.range) continue;
    const [start, end] = message.range;
    if (end <= start) continue;
    out.push({ start, end, rule: message.ruleId.replace(/^@secretlint\/secretlint-rule-/, "") });
  }
}

/** Replace matches (overlaps merged, the earliest rule names the merge) from the end. */
function apply(text: string, matches: Match[]): Redaction {
  if (!matches.length) return { text, findings: [] };
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Match[] = [];
  for (const m of matches) {
    const last = merged[merged.length - 1];
    if (last && m.start < last.end) last.end = Math.max(last.end, m.end);
    else merged.push({ ...m });
  }
  let out = "";
  let at = 0;
  let line = 1;
  const findings: Redaction["findings"] = [];
  for (const m of merged) {
    line += countNewlines(text, at, m.start);
    findings.push({ line, rule: m.rule });
    out += text.slice(at, m.start) + `[REDACTED:${m.rule}]`;
    line += countNewlines(text, m.start, m.end);
    at = m.end;
  }
  return { text: out + text.slice(at), findings };
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
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
  const findings: SecretFinding[] = [];
  // Files found clean before (same path, content hash, rules and scanner) are not scanned again.
  const key = cacheKey(["secrets-clean/1", SCANNER, rules]);
  const before = new Set(cache?.enabled ? (await cache.get<string[]>(key)) ?? [] : []);
  const clean: string[] = [];
  const ids = new Map<SourceFile, string>();
  const todo: SourceFile[] = [];
  for (const file of sources) {
    if (file.error || file.text === undefined) continue;
    const id = sha256(`${file.path}\0${file.sha256}`);
    ids.set(file, id);
    if (!before.has(id)) todo.push(file);
  }
  const { results, helpers } = await scanAll(todo, rules, options.workers);
  for (const file of sources) {
    const id = ids.get(file);
    if (id === undefined) continue;
    const result = results.get(file);
    if (!result?.findings.length) {
      clean.push(id);
      continue;
    }
    file.text = result.text;
    // Raw bytes would carry the secret to later stages: drop them.
    file.bytes = undefined;
    // Content-hash keys (the view cache) must follow the text views see: a render of
    // the unredacted file, cached before a rule was added, must never match again.
    file.sha256 = sha256(result.text!);
    for (const f of result.findings) findings.push({ path: file.path, ...f });
  }
  if (cache?.enabled && (clean.length !== before.size || clean.some((id) => !before.has(id)))) {
    await cache.set(key, clean.sort());
  }
  // The scan's workers go on to count the texts they scanned, while this thread renders.
  if (helpers.length && options.count) {
    const tokenizer = options.count.tokenizer ?? "o200k";
    const only = options.count.only ?? (() => true);
    const files = todo.filter(only).map((f) => ({ path: f.path, text: f.text! }));
    tableFor(tokenizer, cache).then(
      (table) => startPrecount(files, tokenizer, helpers, table),
      () => helpers.forEach((h) => h.stop()),
    );
  } else helpers.forEach((h) => h.stop());
  return findings;
}

/** Options of {@linkcode redactSources}. */
export interface ScanOptions {
  /** Threads to scan with (this one and workers); 1: no workers. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /**
   * After a scan on workers, they count the scanned texts for the build's token counts with
   * this tokenizer (`pipeline/_precount.ts`). @default {undefined} the workers stop
   */
  count?: {
    tokenizer?: Tokenizer;
    /** The files whose blocks hold their text (views that show it whole). @default {all} */
    only?: (file: SourceFile) => boolean;
  };
}

/** Below this many characters to scan, a worker costs more than it saves. */
const PARALLEL_SCAN_CHARS = 1024 * 1024;
/** Characters per batch handed to a thread. */
const SCAN_BATCH_CHARS = 256 * 1024;

type ScanResult = { text?: string; findings: Redaction["findings"] };

/**
 * Scan files with this thread and, for large scans, workers: batches in path
 * order go to whichever thread is free. Each text is scanned by the same
 * `redactText` wherever it runs, so the results are those of a scan in one
 * thread.
 */
async function scanAll(
  files: SourceFile[],
  rules: Record<string, string>,
  threads?: number,
): Promise<{ results: Map<SourceFile, ScanResult>; helpers: ScanHelper[] }> {
  const out = new Map<SourceFile, ScanResult>();
  const total = files.reduce((n, f) => n + f.text!.length, 0);
  const workers = Math.max(1, Math.floor(threads ?? navigator.hardwareConcurrency ?? 1)) - 1;
  const scanHere = async (batch: SourceFile[]) => {
    for (const file of batch) out.set(file, await redactText(file.text!, file.path, { rules }));
  };
  if (workers === 0 || total < PARALLEL_SCAN_CHARS) {
    await scanHere(files);
    return { results: out, helpers: [] };
  }
  const batches: SourceFile[][] = [[]];
  let size = 0;
  for (const file of files) {
    if (size >= SCAN_BATCH_CHARS) {
      batches.push([]);
      size = 0;
    }
    batches[batches.length - 1].push(file);
    size += file.text!.length;
  }
  let next = 0;
  const helpers = Array.from({ length: workers }, () => scanWorker(rules));
  // Each worker keeps two batches in hand, so it never waits for this thread to hand one over.
  const feed = async (helper: ScanHelper) => {
    const inFlight = new Set<Promise<void>>();
    const send = () => {
      if (next >= batches.length) return;
      const batch = batches[next++];
      const done: Promise<void> = helper.scan(batch).then(
        (results) => batch.forEach((file, i) => out.set(file, results[i])),
        () => scanHere(batch), // a worker that fails leaves its batch to this thread
      ).then(() => {
        inFlight.delete(done);
        send();
      });
      inFlight.add(done);
    };
    send();
    send();
    while (inFlight.size) await Promise.race(inFlight);
  };
  const feeding = helpers.map(feed);
  // This thread takes batches too, letting the workers' answers in between.
  while (next < batches.length) {
    await scanHere(batches[next++]);
    await yieldToEvents();
  }
  await Promise.all(feeding);
  return { results: out, helpers };
}

interface ScanHelper extends CountHelper {
  scan(files: SourceFile[]): Promise<ScanResult[]>;
}

function scanWorker(rules: Record<string, string>): ScanHelper {
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
  worker.onmessage = (
    event: MessageEvent<{ id: number; results?: ScanResult[]; counts?: number[]; error?: string }>,
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
    scan: (files) =>
      new Promise<ScanResult[]>((resolve, reject) => {
        if (broken) return reject(broken);
        const id = ids++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({
          id,
          rules,
          items: files.map((f) => ({ path: f.path, text: f.text })),
        });
      }),
    count: (texts, table) =>
      new Promise<number[]>((resolve, reject) => {
        if (broken) return reject(broken);
        const id = ids++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, table, texts });
      }),
    stop: () => worker.terminate(),
  };
}

/** Let queued events (workers' answers) run: a task boundary, without a timer's delay. */
function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}

/** What the scan is made of: slop's rules, the prefilter and secretlint's version. */
const SCANNER = sha256(
  JSON.stringify([
    SLOP_SECRET_RULES.map((r) => [r.name, String(r.pattern)]),
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
  for (const f of findings) warn(`Redacted a secret in "${f.path}" line ${f.line} (${f.rule})`);
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
