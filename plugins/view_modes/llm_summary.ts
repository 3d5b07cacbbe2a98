/**
 * The `llm_summary` view: a sub-agent summary through the configured
 * provider (`ctx.complete`), cached by content hash so an unchanged file is
 * never summarized twice. Strategies follow the file kind: code gets a short
 * summary plus its outline (the `outline` view, or the heuristic summary
 * until grammars exist) and key signatures; prose a paragraph; config files
 * their key/value settings. Detail follows the persona's tier. When the model
 * cannot answer, the file gets the heuristic `summary`, a warning, and the
 * build goes on.
 *
 * @module
 */

import { extname, isAbsolute, join } from "../../pipeline/paths.ts";
import { limiter, sha256Hex as sha256 } from "../../pipeline/helpers.ts";
import type { ViewContext, ViewInput, ViewModePlugin, ViewOutput } from "../../pipeline/types.ts";
import {
  DEFAULT_TEMPLATE,
  type FileKind,
  fileKind,
  fillTemplate,
  INSTRUCTIONS,
  SYSTEM_PROMPT,
  TIER_DETAIL,
} from "./_llm_prompts.ts";
import { entryKey, readEntry, type SummaryEntry } from "./_summary_store.ts";
import { fenceFor } from "../markdown_fences.ts";
import { readSettingText } from "../../pipeline/helpers.ts";

export { type FileKind, fileKind, type SummaryEntry };

/** Options of {@linkcode llmSummaryViewMode}. */
export interface LlmSummaryOptions {
  /** The prompt template, relative to the project root; the built-in default is used while it does not exist. @default {"slop/prompts/summarize-file.md"} */
  template?: string;
  /** Output token limit of one summary. @default {600} */
  maxTokens?: number;
  /** Longest file text sent, in characters; the rest is cut with a marker. @default {48000} */
  maxChars?: number;
  /** Milliseconds to wait for one answer, from when its request starts, before falling back. @default {90000} */
  timeoutMs?: number;
  /** Summary requests in flight at once; the others wait their turn (with no clock running). @default {4} */
  concurrency?: number;
}

/** Defaults of {@linkcode LlmSummaryOptions}. */
export const defaults: Required<LlmSummaryOptions> = {
  template: "slop/prompts/summarize-file.md",
  maxTokens: 600,
  maxChars: 48_000,
  timeoutMs: 90_000,
  concurrency: 4,
};

/** How long one render may wait in the queue and for its answer (the hook timeout). */
const RENDER_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/** Bump when the rendered text or the prompt wiring changes (joins the cache key). */
const VERSION = "1";

/**
 * The `llm_summary` view mode.
 *
 * @example
 * ```ts
 * import { llmSummaryViewMode } from "./llm_summary.ts";
 * const plugin = llmSummaryViewMode({ maxTokens: 300 });
 * plugin.name; // "slop:llm_summary"
 * ```
 */
export function llmSummaryViewMode(options: LlmSummaryOptions = {}): ViewModePlugin {
  const base = { ...defaults, ...options };
  const queue = limiter(base.concurrency);
  const outage: Outage = {};
  return {
    kind: "view-mode",
    name: "slop:llm_summary",
    version: VERSION,
    // A first build of a large project queues many requests: the clock that matters is `timeoutMs`.
    timeoutMs: RENDER_TIMEOUT_MS,
    // Model, parameters, tier and prompt-template hash join the view cache key.
    async cacheKey(file: ViewInput, ctx: ViewContext) {
      return (await prepare(file, ctx, base)).key;
    },
    async render(file, ctx) {
      const job = await prepare(file, ctx, base);
      return await summarizeFile(file, ctx, job, { queue, outage });
    },
  };
}

/**
 * After a request fails for good (the client's retries used up: the endpoint
 * is down, unreachable or overloaded), files that would ask within
 * {@linkcode OUTAGE_MS} fall back at once instead of each waiting out its own
 * retries. Errors about one file (HTTP 400) do not count.
 */
interface Outage {
  /** `Date.now()` until which the provider is not asked. */
  until?: number;
  /** The file whose request failed. */
  path?: string;
}

const OUTAGE_MS = 60_000;
const EXHAUSTED = / failed after \d+ attempts?: /;

/** Everything one summary depends on, and its key. */
interface Job {
  settings: Required<LlmSummaryOptions>;
  kind: FileKind;
  tier: string;
  template: string;
  /** sha256 of everything but the file content. */
  key: string;
}

async function prepare(
  file: ViewInput,
  ctx: ViewContext,
  base: Required<LlmSummaryOptions>,
): Promise<Job> {
  const settings = { ...base, ...(ctx.options as LlmSummaryOptions) };
  const template = await loadTemplate(ctx, settings.template);
  const kind = fileKind(file.path);
  const tier = ctx.config.tier ? `tier-${ctx.config.tier}` : "default";
  const { name, model } = ctx.config.provider;
  const material = JSON.stringify({
    version: VERSION,
    provider: name ?? null,
    model: model ?? null,
    maxTokens: settings.maxTokens,
    maxChars: settings.maxChars,
    kind,
    tier,
    system: sha256(SYSTEM_PROMPT),
    template: sha256(template),
  });
  return { settings, kind, tier, template, key: sha256(material) };
}

async function loadTemplate(ctx: ViewContext, path: string): Promise<string> {
  const abs = isAbsolute(path) ? path : join(ctx.config.root, path);
  try {
    return await readSettingText(abs, { textOnly: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return DEFAULT_TEMPLATE;
    throw new Error(`Cannot read the prompt template "${path}": ${(error as Error).message}`);
  }
}

async function summarizeFile(
  file: ViewInput,
  ctx: ViewContext,
  job: Job,
  { queue, outage }: { queue: ReturnType<typeof limiter>; outage: Outage },
): Promise<ViewOutput> {
  const store = ctx.store;
  const key = entryKey(job.key, file);
  const outline = job.kind === "code" ? await ctx.renderAs("outline") : undefined;
  const outlineText = outline ? asMarkdown(outline, file.path) : "";
  const cached = await readEntry(store, key);
  if (cached?.file_hash === file.sha256) {
    return { text: renderEntry({ ...cached, outline: outlineText }, job.kind), fenced: false };
  }
  let summary: string;
  try {
    summary = await queue(() => {
      if (outage.until !== undefined && Date.now() < outage.until) {
        const seconds = OUTAGE_MS / 1000;
        throw new Error(
          `did not ask the provider, which failed on "${outage.path}" less than ${seconds} s ago`,
        );
      }
      return ask(file, ctx, job).catch((error) => {
        if (error instanceof Error && EXHAUSTED.test(error.message)) {
          [outage.until, outage.path] = [Date.now() + OUTAGE_MS, file.path];
        }
        throw error;
      });
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    ctx.warn(
      `[plugin slop:llm_summary] Cannot summarize "${file.path}": ${detail}: ` +
        `fell back to the heuristic summary`,
    );
    const fallback = outline?.view === "summary" ? outline : await ctx.renderAs("summary");
    return {
      ...fallback,
      view: "summary",
      notes: ["llm_summary failed: fell back to summary", ...(fallback.notes ?? [])],
      // Ask again next build rather than keep the fallback.
      cacheable: false,
    };
  }
  const entry: SummaryEntry = {
    file_path: file.path,
    file_hash: file.sha256,
    summary,
    outline: outlineText,
    generated_at: new Date().toISOString(),
    generator_tier: job.tier,
  };
  await store.set(key, entry);
  return { text: renderEntry(entry, job.kind), fenced: false };
}

async function ask(file: ViewInput, ctx: ViewContext, job: Job): Promise<string> {
  const { maxChars, maxTokens, timeoutMs } = job.settings;
  const cut = file.text.length > maxChars;
  const content = cut
    ? `${file.text.slice(0, maxChars)}\n[... ${
      file.text.length - maxChars
    } more characters cut ...]`
    : file.text;
  const prompt = fillTemplate(job.template, {
    path: file.path,
    kind: job.kind,
    language: extname(file.path).slice(1) || "text",
    instructions: INSTRUCTIONS[job.kind],
    detail: TIER_DETAIL[job.tier] ?? TIER_DETAIL.default,
    content,
  });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const answer = await Promise.race([
      ctx.complete({ system: SYSTEM_PROMPT, prompt, maxTokens, signal: abort.signal }),
      new Promise<never>((_, reject) =>
        abort.signal.addEventListener(
          "abort",
          () => reject(new Error(`No answer within ${timeoutMs} ms`)),
        )
      ),
    ]);
    const text = answer.trim();
    if (!text) throw new Error("The model answered with an empty summary");
    return text;
  } finally {
    clearTimeout(timer);
  }
}

/** The markdown of a view's output: fenced code, or markdown as it is. */
function asMarkdown(out: ViewOutput, path: string): string {
  const text = out.text.replace(/\n+$/, "");
  if (out.fenced === false) return text;
  const fence = fenceFor(text);
  return `${fence}${extname(path).slice(1)}\n${text}\n${fence}`;
}

/**
 * The document text of a cache entry: the summary, then the outline for
 * code. `generated_at` and `generator_tier` never reach the document.
 *
 * @example
 * ```ts
 * import { renderEntry } from "./llm_summary.ts";
 * renderEntry({
 *   file_path: "a.py", file_hash: "", summary: "Adds numbers.", outline: "- `add`",
 *   generated_at: "", generator_tier: "default",
 * }, "code"); // "Adds numbers.\n\n**Outline**\n\n- `add`"
 * ```
 */
export function renderEntry(entry: SummaryEntry, kind: FileKind): string {
  const parts = [entry.summary.trim()];
  if (kind === "code" && entry.outline) parts.push(`**Outline**\n\n${entry.outline}`);
  return parts.join("\n\n");
}
