/**
 * Prompts of the `llm_summary` view: the system prompt, the built-in user
 * prompt template, per-kind instructions and per-tier detail.
 *
 * @module
 */

import { extname } from "../../pipeline/paths.ts";

/** How a file is summarized. */
export type FileKind = "code" | "prose" | "config";

/** The system prompt of every summary request. */
export const SYSTEM_PROMPT =
  "You write succinct, accurate summaries of project files for other AI agents that will work " +
  "on the project. Answer with the summary only, in markdown, with no preamble.";

/**
 * The built-in prompt template, used while `slop/prompts/summarize-file.md`
 * does not exist. Placeholders: `{{path}}`, `{{kind}}`, `{{language}}`,
 * `{{instructions}}`, `{{detail}}`, `{{content}}`.
 */
export const DEFAULT_TEMPLATE = `Summarize the {{kind}} file \`{{path}}\` ({{language}}).

{{instructions}}

{{detail}}

<file path="{{path}}">
{{content}}
</file>
`;

/** What each kind of file should be turned into (the seed's strategies). */
export const INSTRUCTIONS: Record<FileKind, string> = {
  code: "Say in two to four sentences what the file is for and how the rest of the project uses " +
    "it. Then list its key signatures (the functions, classes and methods a caller needs), one " +
    "per line as `- \\`signature\\``, copied exactly from the file.",
  prose: "Write one paragraph that gives the document's purpose and its main points.",
  config: "Extract the key settings as `- key: value` lines (nested keys joined with dots), most " +
    "important first, then say in one sentence what the file configures. Write secrets, " +
    "tokens and passwords as `***`.",
};

/** How much detail each tier asks for (the seed's tiered aggregation). */
export const TIER_DETAIL: Record<string, string> = {
  "tier-1": "The reader is the orchestrator: be complete, include design decisions, invariants " +
    "and the relations to other files (at most 300 words).",
  "tier-2": "The reader is a tech lead: give the key details needed to plan work on this file " +
    "(at most 180 words).",
  "tier-3": "The reader is a worker agent: be brief (at most 80 words).",
  default: "Be succinct (at most 150 words).",
};

const CODE = new Set(
  ("py pyi js mjs cjs jsx ts mts cts tsx go rs java kt kts scala c h cc cpp cxx hpp hh hxx cs " +
    "swift rb php lua pl sh bash zsh fish ps1 r jl dart ex exs erl hs ml clj sql vue svelte zig " +
    "nim m mm").split(" ").map((e) => `.${e}`),
);
const CONFIG = new Set(
  "json jsonc json5 toml yaml yml ini cfg conf properties env xml plist lock"
    .split(" ").map((e) => `.${e}`),
);
const CONFIG_NAMES = new Set([".env", ".editorconfig", ".npmrc", "dockerfile", "makefile"]);

/**
 * The kind of a file, from its name: code, config or prose.
 *
 * @example
 * ```ts
 * import { fileKind } from "./_llm_prompts.ts";
 * fileKind("src/a.py"); // "code"
 * fileKind("deno.json"); // "config"
 * fileKind("README.md"); // "prose"
 * ```
 */
export function fileKind(path: string): FileKind {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const ext = extname(name);
  if (CODE.has(ext)) return "code";
  if (CONFIG.has(ext) || CONFIG_NAMES.has(name) || name.startsWith(".env.")) return "config";
  return "prose";
}

/**
 * Fill `{{name}}` placeholders in one pass (a value is never re-read as a
 * template); unknown placeholders stay as they are.
 *
 * @example
 * ```ts
 * import { fillTemplate } from "./_llm_prompts.ts";
 * fillTemplate("Hi {{who}} {{x}}", { who: "{{x}}" }); // "Hi {{x}} {{x}}"
 * ```
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(
    /\{\{\s*(\w+)\s*\}\}/g,
    (all, name: string) => Object.hasOwn(values, name) ? values[name] : all,
  );
}
