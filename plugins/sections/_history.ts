/**
 * Reading discussion history: JSONL of `{role, content}`, TOML with
 * `[[entries]]` tables or a `history = [...]` array, or an inline array.
 *
 * @module
 */

import { extname, resolve } from "../../pipeline/paths.ts";
import { loadToml } from "../../deps.ts";
import type { HistoryMessage, ResolvedConfig } from "../../pipeline/types.ts";
import { readSettingText } from "../../pipeline/helpers.ts";

/** A history entry: a message, or a legacy `"Role: text"` string. */
export type HistoryEntry = HistoryMessage | string;

/**
 * Load the configured history. Bad lines are reported through `warn` with
 * their line number and skipped; the rest is kept.
 *
 * @example
 * ```ts
 * import { loadHistory } from "./_history.ts";
 * // await loadHistory(config, console.warn)
 * ```
 */
export async function loadHistory(
  config: ResolvedConfig,
  warn: (message: string) => void,
): Promise<HistoryEntry[]> {
  const source = config.history;
  if (source === undefined) return [];
  if (Array.isArray(source)) return source;
  const base = config.configPath ? resolve(config.configPath, "..") : config.root;
  const path = resolve(base, source);
  let text: string;
  try {
    text = await readSettingText(path);
  } catch (error) {
    warn(`Cannot read history "${source}": ${error instanceof Error ? error.message : error}`);
    return [];
  }
  return await parseHistory(text, source, warn);
}

/**
 * Parse history text by its file name (`.jsonl`/`.ndjson`, `.toml`, `.json`).
 *
 * @example
 * ```ts
 * import { parseHistory } from "./_history.ts";
 * await parseHistory('{"role":"User","content":"hi"}\n', "h.jsonl", console.warn);
 * ```
 */
export async function parseHistory(
  text: string,
  name: string,
  warn: (message: string) => void,
): Promise<HistoryEntry[]> {
  const ext = extname(name).toLowerCase();
  if (ext === ".toml") {
    const { parse } = await loadToml();
    let data: Record<string, unknown>;
    try {
      data = parse(text) as Record<string, unknown>;
    } catch (error) {
      warn(`Cannot parse history "${name}": ${error instanceof Error ? error.message : error}`);
      return [];
    }
    const list = (data.entries ?? data.history) as unknown;
    if (!Array.isArray(list)) {
      warn(`History "${name}" has neither [[entries]] tables nor a history array`);
      return [];
    }
    return list.flatMap((item, i) => toEntry(item, `"${name}" entry ${i + 1}`, warn));
  }
  if (ext === ".json") {
    try {
      const list = JSON.parse(text);
      if (Array.isArray(list)) {
        return list.flatMap((item, i) => toEntry(item, `"${name}" entry ${i + 1}`, warn));
      }
    } catch (error) {
      warn(`Cannot parse history "${name}": ${error instanceof Error ? error.message : error}`);
      return [];
    }
    warn(`History "${name}" must be a JSON array`);
    return [];
  }
  const out: HistoryEntry[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(...toEntry(JSON.parse(line), `"${name}" line ${i + 1}`, warn));
    } catch {
      warn(`Skipped "${name}" line ${i + 1}: not valid JSON`);
    }
  });
  return out;
}

function toEntry(item: unknown, where: string, warn: (m: string) => void): HistoryEntry[] {
  if (typeof item === "string") return [item];
  if (item && typeof item === "object" && !Array.isArray(item)) {
    const { role, content } = item as Record<string, unknown>;
    if (typeof content === "string") {
      return [{ role: typeof role === "string" ? role : "Unknown", content }];
    }
    if (Array.isArray(content)) {
      // Provider-style content parts: keep the text parts.
      const text = content.map((
        p,
      ) => (p && typeof p === "object" && "text" in p ? String(p.text) : ""))
        .filter(Boolean).join("\n");
      return [{ role: typeof role === "string" ? role : "Unknown", content: text }];
    }
  }
  warn(`Skipped ${where}: expected a string or { role, content }`);
  return [];
}
