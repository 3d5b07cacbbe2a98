/**
 * The knowledge store: plain markdown category files (`facts.md`,
 * `decisions.md`, `questions.md`, `playbooks.md`, `tasks.md` with `## Open`
 * and `## Done`) and per-file notes `files/{file_id}.md`, one item per
 * line with its provenance `[from: {source}, {date}]`. Append-only for
 * slop; the user edits them freely.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { writeAtomic } from "../pipeline/emit.ts";
import { shownPath } from "../pipeline/paths.ts";
import { readSettingBytes } from "../pipeline/helpers.ts";
import { decodeText } from "../pipeline/read.ts";

/** The item categories of a harvest, in the seed's order. */
export const ITEM_CATEGORIES = [
  "facts",
  "decisions",
  "tasks_done",
  "tasks_open",
  "questions",
  "playbooks",
  "files",
] as const;

/** One of {@linkcode ITEM_CATEGORIES}. */
export type ItemCategory = typeof ITEM_CATEGORIES[number];

/** The category files, their titles, and which harvest categories they take. */
export const CATEGORY_FILES: Record<string, { file: string; title: string }> = {
  facts: { file: "facts.md", title: "Facts" },
  decisions: { file: "decisions.md", title: "Decisions" },
  questions: { file: "questions.md", title: "Questions" },
  playbooks: { file: "playbooks.md", title: "Playbooks" },
  tasks: { file: "tasks.md", title: "Tasks" },
};

/** A statement item (facts, decisions, tasks, questions). */
export interface StatementItem {
  /** One sentence. */
  statement: string;
  /** Optional context (for decisions: the why). */
  detail?: string;
}

/** A playbook item. */
export interface PlaybookItem {
  /** Short name. */
  name: string;
  /** The runnable sequence. */
  steps: string;
}

/** A note tied to one file path. */
export interface FileNoteItem {
  /** The path as seen in the conversation (absolute, or relative to the root). */
  path: string;
  /** The note. */
  note: string;
}

/** Where an item came from: the conversation's name and date. */
export interface Provenance {
  /** Conversation name (its file name without extension). */
  source: string;
  /** `YYYY-MM-DD`. */
  date: string;
}

/**
 * The provenance suffix of an item line.
 */
function formatProvenance(p: Provenance): string {
  return `[from: ${oneLine(p.source)}, ${p.date}]`;
}

/** Collapse whitespace so an item stays on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** End a sentence with `.` (or `?` for questions) unless it already ends with punctuation. */
function sentence(text: string, mark = "."): string {
  const flat = oneLine(text);
  return /[.!?]$/.test(flat) ? flat : `${flat}${mark}`;
}

/**
 * One statement line: `- {statement} {provenance}`; a non-empty `detail`
 * joins the statement after an em dash.
 *
 * @example
 * ```ts
 * import { statementLine } from "./store.ts";
 * statementLine({ statement: "RAG is opt-in" }, { source: "c", date: "2026-06-12" });
 * // "- RAG is opt-in. [from: c, 2026-06-12]"
 * ```
 */
export function statementLine(
  item: StatementItem,
  p: Provenance,
  options: { mark?: string } = {},
): string {
  const mark = options.mark ?? ".";
  const detail = item.detail ? oneLine(item.detail) : "";
  const text = detail
    ? `${oneLine(item.statement).replace(/[.;:,]$/, "")} — ${detail}`
    : item.statement;
  return `- ${sentence(text, mark)} ${formatProvenance(p)}`;
}

/**
 * One playbook line: `- **{name}**: {steps} {provenance}`.
 *
 * @example
 * ```ts
 * import { playbookLine } from "./store.ts";
 * playbookLine({ name: "Release", steps: "test -> tag -> push" }, { source: "c", date: "2026-06-12" });
 * // "- **Release**: test -> tag -> push. [from: c, 2026-06-12]"
 * ```
 */
export function playbookLine(item: PlaybookItem, p: Provenance): string {
  return `- **${oneLine(item.name)}**: ${sentence(item.steps)} ${formatProvenance(p)}`;
}

/**
 * One per-file note line: `- {note} {provenance}`; with `options.path`, the
 * facts.md fallback `- {path}: {note} {provenance}`.
 *
 * @example
 * ```ts
 * import { noteLine } from "./store.ts";
 * noteLine("Uses a lock", { source: "c", date: "2026-06-12" }, { path: "/gone.py" });
 * // "- /gone.py: Uses a lock. [from: c, 2026-06-12]"
 * ```
 */
export function noteLine(note: string, p: Provenance, options: { path?: string } = {}): string {
  const path = options.path;
  return `- ${path ? `${oneLine(path)}: ` : ""}${sentence(note)} ${formatProvenance(p)}`;
}

/**
 * The stable identity of a file across renames on one filesystem:
 * `st_dev:st_ino`. Undefined when the file does not exist or the platform
 * has no inode numbers.
 *
 * @example
 * ```ts
 * import { fileId } from "./store.ts";
 * await fileId("deno.json"); // e.g. "2049:1234567"
 * ```
 */
export async function fileId(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.dev === null || info.ino === null) return undefined;
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * A category or note file's text, undefined when it is missing. Read as a project file is: one
 * saved in an older encoding (Latin-1, Windows-1251, ...) is decoded, so that an append writes its
 * words back (as UTF-8) rather than U+FFFD in their place; a FIFO or device is refused, unread.
 */
async function readText(path: string): Promise<string | undefined> {
  try {
    const decoded = await decodeText(await readSettingBytes(path));
    if ("binary" in decoded) throw new Error(decoded.binary);
    return decoded.text;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    // The setting reader's words already (`it is a folder`, `it is not a regular file ...`).
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot read "${shownPath(path)}": ${reason}`);
  }
}

/** Lines for one category file (and, for tasks, its `## Open` or `## Done` section). */
export interface LineBatch {
  /** The category file. */
  category: keyof typeof CATEGORY_FILES;
  /** Item lines, each `- ... [from: ...]`. */
  lines: string[];
  /** For tasks: the section to append to. */
  section?: "Open" | "Done";
}

/**
 * Append lines to a category file (created with its `# Title` when
 * missing). Tasks go to the end of their `## Open` or `## Done` section.
 * A line the file already has (the same item with the same provenance) is
 * not appended again, so a harvest that is re-run after failing halfway
 * appends nothing twice.
 *
 * @example
 * ```ts
 * import { appendLines } from "./store.ts";
 * // await appendLines("slop/knowledge", { category: "facts", lines: ["- A fact. [from: c, 2026-06-12]"] });
 * // await appendLines("slop/knowledge", { category: "tasks", section: "Open", lines: ["- Do it."] });
 * ```
 */
export async function appendLines(dir: string, batch: LineBatch): Promise<void> {
  const { category, lines, section } = batch;
  if (!lines.length) return;
  const { file, title } = CATEGORY_FILES[category];
  const path = join(dir, file);
  const fresh = category === "tasks" ? `# ${title}\n\n## Open\n\n## Done\n` : `# ${title}\n\n`;
  const text = (await readText(path)) ?? fresh;
  const added = newLines(text, lines);
  if (!added.length) return;
  const next = section ? insertInSection(text, section, added) : appendAtEnd(text, added);
  await writeText(path, next);
}

/**
 * Append note lines to `files/{file_id}.md` (created with `# {path}`);
 * lines the file already has are not appended again.
 *
 * @example
 * ```ts
 * import { appendFileNotes } from "./store.ts";
 * // await appendFileNotes("slop/knowledge", { id: "2049:1234", path: "/repo/a.py", lines: ["- Note."] });
 * ```
 */
export async function appendFileNotes(
  dir: string,
  notes: { id: string; path: string; lines: string[] },
): Promise<void> {
  const { id, path, lines } = notes;
  if (!lines.length) return;
  const target = join(dir, "files", `${id}.md`);
  const text = (await readText(target)) ?? `# ${path}\n\n`;
  const added = newLines(text, lines);
  if (added.length) await writeText(target, appendAtEnd(text, added));
}

/** The lines not yet in `text` (as whole lines), each once. */
function newLines(text: string, lines: string[]): string[] {
  const have = new Set(text.split("\n").map((l) => l.trimEnd()));
  return lines.filter((line) => {
    const key = line.trimEnd();
    if (have.has(key)) return false;
    have.add(key);
    return true;
  });
}

function appendAtEnd(text: string, lines: string[]): string {
  const body = text.replace(/\n*$/, "\n");
  const lastLine = body.trimEnd().split("\n").at(-1) ?? "";
  const gap = /^\s*[-*] /.test(lastLine) ? "" : "\n";
  return `${body}${gap}${lines.join("\n")}\n`;
}

function insertInSection(text: string, section: string, lines: string[]): string {
  const rows = text.replace(/\n*$/, "").split("\n");
  const start = rows.findIndex((r) => r.trim() === `## ${section}`);
  if (start < 0) return `${rows.join("\n")}\n\n## ${section}\n\n${lines.join("\n")}\n`;
  let end = rows.findIndex((r, i) => i > start && /^#{1,2} /.test(r));
  if (end < 0) end = rows.length;
  let last = end;
  while (last > start + 1 && !rows[last - 1].trim()) last--;
  const hasItems = last > start + 1;
  const insert = hasItems ? lines : ["", ...lines];
  const after = rows.slice(last);
  const tail = after.length && after[0].trim() ? ["", ...after] : after;
  return `${[...rows.slice(0, last), ...insert, ...tail].join("\n")}\n`;
}

/**
 * Write a file through a temp file and a rename, so a reader never sees
 * half of it. Creates the folder.
 *
 * @example
 * ```ts
 * import { writeText } from "./store.ts";
 * // await writeText("slop/knowledge/digest.md", "# Knowledge digest\n");
 * ```
 */
export async function writeText(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await writeAtomic(path, text);
}

/**
 * The items of a markdown file: each top-level bullet with its indented
 * continuation lines, in file order. With `section`, only the bullets
 * under that `## ` heading.
 *
 * @example
 * ```ts
 * import { readItems } from "./store.ts";
 * readItems("# Tasks\n\n## Open\n- a\n  more\n## Done\n- b\n", "Open"); // ["- a\n  more"]
 * ```
 */
export function readItems(text: string, section?: string): string[] {
  const items: string[] = [];
  let inSection = section === undefined;
  let current: string[] | undefined;
  const flush = () => {
    if (current) items.push(current.join("\n"));
    current = undefined;
  };
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (/^#{1,6} /.test(line)) {
      flush();
      if (section !== undefined && /^## /.test(line)) {
        inSection = line.slice(3).trim() === section;
      }
      continue;
    }
    if (!inSection) continue;
    if (/^[-*] \S/.test(line)) {
      flush();
      current = [line.replace(/\s+$/, "")];
    } else if (current && /^\s+\S/.test(line)) {
      current.push(line.replace(/\s+$/, ""));
    } else {
      flush();
    }
  }
  flush();
  return items;
}

/**
 * Read a category file's items (none when the file is missing).
 *
 * @example
 * ```ts
 * import { readCategory } from "./store.ts";
 * // await readCategory("slop/knowledge", "tasks", { section: "Open" });
 * ```
 */
export async function readCategory(
  dir: string,
  category: keyof typeof CATEGORY_FILES,
  options: { section?: string } = {},
): Promise<string[]> {
  const section = options.section;
  const text = await readText(join(dir, CATEGORY_FILES[category].file));
  return text === undefined ? [] : readItems(text, section);
}
