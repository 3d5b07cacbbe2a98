/**
 * Finding and reading conversation files for the harvest: the config's
 * `knowledge.conversations` globs, in the history formats slop reads
 * (JSONL of `{role, content}`, TOML `[[entries]]` or `history = [...]`,
 * a JSON array).
 *
 * @module
 */

import { basename, extname, isAbsolute, join, relative, resolve } from "node:path";
import { createHash } from "node:crypto";
import { loadGlobs } from "../deps.ts";
import { compileGlobs } from "../pipeline/paths.ts";
import { comparePaths, isGlob } from "../pipeline/resolve.ts";
import { parseHistory } from "../plugins/sections/history.ts";

/** File extensions the harvest reads as conversations. */
const CONVERSATION_EXTENSIONS: string[] = [".jsonl", ".ndjson", ".json", ".toml"];

const SKIP_DIRS = new Set([".git", "node_modules"]);

/** A conversation file, read once. */
export interface Conversation {
  /** Absolute path. */
  path: string;
  /** Path for messages: relative to the base folder when inside it. */
  label: string;
  /** Name used in provenance: the file name without its extension. */
  name: string;
  /** Size in bytes. */
  size: number;
  /** sha256 of the bytes, hex. */
  sha256: string;
  /** `YYYY-MM-DD` of the file's modification time (UTC). */
  date: string;
  /** The messages as `role: content` paragraphs; empty when none could be read. */
  transcript: string;
  /** Lines or entries that could not be read. */
  problems: string[];
}

function expandHome(pattern: string): string {
  const home = Deno.env.get("HOME");
  return home && (pattern === "~" || pattern.startsWith("~/"))
    ? join(home, pattern.slice(1))
    : pattern;
}

async function walkFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (abs: string) => {
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const entry of Deno.readDir(abs)) entries.push(entry);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory && !SKIP_DIRS.has(entry.name)) await visit(join(abs, entry.name));
      else if (entry.isFile) out.push(join(abs, entry.name));
    }
  };
  await visit(dir);
  return out;
}

/**
 * Expand the conversation globs (relative to `base`, `~/` for the home
 * folder) to sorted, de-duplicated absolute paths of existing files.
 * `unmatched` receives the index of each glob that matches no file.
 *
 * @example
 * ```ts
 * import { findConversations } from "./_conversations.ts";
 * // await findConversations(["slop/conversations/*.jsonl"], "/repo");
 * ```
 */
export async function findConversations(
  globs: string[],
  base: string,
  unmatched: number[] = [],
): Promise<string[]> {
  const found = new Set<string>();
  for (const [index, raw] of globs.entries()) {
    const before = found.size;
    const pattern = resolve(base, expandHome(raw)).replaceAll("\\", "/");
    if (!isGlob(pattern)) {
      try {
        if ((await Deno.stat(pattern)).isFile) found.add(pattern);
      } catch {
        // A literal path that does not exist is simply not a conversation.
      }
      if (found.size === before) unmatched.push(index);
      continue;
    }
    const parts = pattern.split("/");
    const firstGlob = parts.findIndex((p) => isGlob(p));
    const dir = parts.slice(0, firstGlob).join("/") || "/";
    const glob = parts.slice(firstGlob).join("/");
    await loadGlobs(glob);
    const match = compileGlobs(glob, { dot: true });
    let matched = false;
    for (const file of await walkFiles(dir)) {
      if (!match(relative(dir, file).replaceAll("\\", "/"))) continue;
      found.add(file);
      matched = true;
    }
    if (!matched) unmatched.push(index);
  }
  return [...found].sort(comparePaths);
}

/**
 * The sha256 (hex) of a file, read in chunks.
 *
 * @example
 * ```ts
 * import { hashFile } from "./_conversations.ts";
 * // await hashFile("/repo/chats/a.jsonl");
 * ```
 */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  using file = await Deno.open(path);
  for await (const chunk of file.readable) hash.update(chunk);
  return hash.digest("hex");
}

/**
 * Read a conversation: size, hash, date and transcript (files over `maxBytes`
 * are hashed only). A file in a
 * format slop does not read, or with no message, has an empty transcript.
 *
 * @example
 * ```ts
 * import { readConversation } from "./_conversations.ts";
 * // const conversation = await readConversation("/repo/chats/a.jsonl", "/repo");
 * ```
 */
export async function readConversation(
  path: string,
  base: string,
  options: { maxBytes?: number } = {},
): Promise<Conversation> {
  const info = await Deno.stat(path);
  const tooLarge = options.maxBytes !== undefined && info.size > options.maxBytes;
  // A file over the limit is only hashed (streamed), never held in memory or parsed.
  const bytes = tooLarge ? undefined : await Deno.readFile(path);
  const sha256 = bytes ? createHash("sha256").update(bytes).digest("hex") : await hashFile(path);
  const rel = relative(base, path);
  const label = !rel.startsWith("..") && !isAbsolute(rel) ? rel.replaceAll("\\", "/") : path;
  const ext = extname(path).toLowerCase();
  const problems: string[] = [];
  let transcript = "";
  if (!bytes) {
    problems.push("over the size limit");
  } else if (CONVERSATION_EXTENSIONS.includes(ext)) {
    let text: string | undefined;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      problems.push("not UTF-8 text");
    }
    if (text !== undefined) {
      const entries = await parseHistory(text, basename(path), (m) => problems.push(m));
      transcript = entries.map((e) =>
        typeof e === "string" ? e.trim() : `${e.role || "Unknown"}: ${e.content.trim()}`
      ).filter(Boolean).join("\n\n");
    }
  } else {
    problems.push(`unsupported format "${ext || basename(path)}"`);
  }
  return {
    path,
    label,
    name: basename(path, extname(path)),
    size: bytes?.length ?? info.size,
    sha256,
    date: (info.mtime ?? new Date(0)).toISOString().slice(0, 10),
    transcript,
    problems,
  };
}
