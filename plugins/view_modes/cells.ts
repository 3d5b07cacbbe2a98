/**
 * The `cells` view: a Jupyter notebook (`.ipynb`) as its cells, not its JSON. Each markdown cell's
 * source as it is; each code cell's source fenced in the notebook's language, then its outputs:
 * text (streams, `text/plain` results) kept up to a bound, an error as its name and message, and
 * each image, HTML table or other rich output as one line naming its MIME type and size. A file
 * that is no notebook falls back to `summary`, with a note.
 *
 * @module
 */

import { printablePath } from "../../pipeline/helpers.ts";
import type { ViewContext, ViewInput, ViewModePlugin, ViewOutput } from "../../pipeline/types.ts";
import { fenceFor, unclosedFence } from "../markdown_fences.ts";
import { type NotebookCell, notebookJson, sourceText } from "./_notebook.ts";

/** Options of {@linkcode cellsViewMode}. */
export interface CellsOptions {
  /** Most lines of a code cell's text outputs shown; the rest is counted. @default {20} */
  maxOutputLines?: number;
  /** Most bytes (UTF-8) of a code cell's text outputs shown; the rest is counted. @default {2048} */
  maxOutputBytes?: number;
}

/** Defaults of {@linkcode CellsOptions}. */
export const defaults: Required<CellsOptions> = { maxOutputLines: 20, maxOutputBytes: 2048 };

/**
 * The `cells` view mode.
 *
 * @example
 * ```ts
 * import { cellsViewMode } from "./cells.ts";
 * cellsViewMode({ maxOutputLines: 40 }).name; // "slop:cells"
 * ```
 */
export function cellsViewMode(options: CellsOptions = {}): ViewModePlugin {
  const settings = { ...defaults, ...options };
  return {
    kind: "view-mode",
    name: "slop:cells",
    version: "2",
    extensions: [".ipynb"],
    render(file, ctx) {
      const merged = { ...settings, ...(ctx.options as CellsOptions) };
      for (const key of ["maxOutputLines", "maxOutputBytes"] as const) {
        const value: unknown = merged[key];
        if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
          throw new Error(
            `[plugin slop:cells] Invalid option "${key}" for "${file.path}": expected a whole ` +
              `number of 0 or more, got ${JSON.stringify(value) ?? String(value)}`,
          );
        }
      }
      return cellsOrFallback(file, ctx, merged);
    },
  };
}

/** The notebook's cells, or its summary (noted) when the text is no notebook. */
async function cellsOrFallback(
  file: ViewInput,
  ctx: ViewContext,
  options: Required<CellsOptions>,
): Promise<ViewOutput> {
  const text = notebookText(file.text, options);
  if (text !== undefined) return { text, fenced: false };
  const summary = await ctx.renderAs("summary");
  const note = `cells cannot read "${file.path}": not a notebook (JSON with a "cells" list)`;
  return {
    ...summary,
    view: summary.view ?? "summary",
    notes: [`${note}: fell back to summary`, ...(summary.notes ?? [])],
  };
}

/**
 * A notebook's text as its cells (markdown), or `undefined` when the text is no notebook: a line
 * naming it, its language and its cells by kind, then each cell that is not empty, a blank line
 * between them.
 */
function notebookText(text: string, limits: Required<CellsOptions>): string | undefined {
  const book = notebookJson(text);
  if (!book) return undefined;
  // The info string is the language tag only: a notebook's metadata cannot break the fence.
  const language = book.language.replace(/[^A-Za-z0-9_+#.-]/g, "");
  const parts = [headLine(book.cells, language)];
  for (const cell of book.cells) {
    const shown = cellText(cell, language, limits);
    if (shown) parts.push(shown);
  }
  return `${parts.join("\n\n")}\n`;
}

/** `**Jupyter notebook** (python), 3 cells (2 code, 1 markdown)`. */
function headLine(cells: NotebookCell[], language: string): string {
  const count = (kind: string) => cells.filter((c) => c.cell_type === kind).length;
  const code = count("code");
  const markdown = count("markdown");
  const kinds = [code && `${code} code`, markdown && `${markdown} markdown`];
  const other = cells.length - code - markdown;
  if (other) kinds.push(`${other} other`);
  const listed = kinds.filter(Boolean).join(", ");
  const lang = language ? ` (${language})` : "";
  const total = cells.length === 1 ? "1 cell" : `${cells.length} cells`;
  return `**Jupyter notebook**${lang}, ${total}${listed ? ` (${listed})` : ""}`;
}

/** One cell's markdown, or "" for an empty cell with no output. */
function cellText(cell: NotebookCell, language: string, limits: Required<CellsOptions>): string {
  // Documents are LF-only: a source saved on Windows holds `\r\n` inside its JSON strings.
  const source = trimEnd(sourceText(cell.source).replace(/\r\n?/g, "\n"));
  if (cell.cell_type === "markdown") {
    // A fence a cell leaves open would swallow the cells after it.
    const open = unclosedFence(source);
    return open ? `${source}\n${open.char.repeat(open.length)}` : source;
  }
  if (cell.cell_type !== "code") return source ? fenced(source, "") : "";
  const outputs = outputText(cell.outputs, limits);
  const parts = source ? [fenced(source, language)] : [];
  if (outputs) parts.push(`Output:\n\n${fenced(outputs, "")}`);
  return parts.join("\n\n");
}

/** Text in a backtick fence no run of backticks in it can close. */
function fenced(text: string, language: string): string {
  const fence = fenceFor(text);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** What is left of a cell's bounds for its text outputs. */
interface Left {
  lines: number;
  bytes: number;
}

/**
 * A code cell's outputs as lines: text within the cell's bounds (what is cut counted on a line
 * of its own), each error as `Name: message` (within bounds of its own), each rich output as one
 * line naming its MIME type and size.
 */
function outputText(outputs: unknown, limits: Required<CellsOptions>): string {
  if (!Array.isArray(outputs)) return "";
  const left: Left = { lines: limits.maxOutputLines, bytes: limits.maxOutputBytes };
  const lines: string[] = [];
  // Writes to one stream one after the other are one text (`print("a", end="")`, then `b`).
  let stream = { name: undefined as unknown, text: "" };
  const flush = () => {
    lines.push(...bounded(terminalText(stream.text), left));
    stream = { name: undefined, text: "" };
  };
  for (const output of outputs) {
    const { output_type: type, name, text, data, ename, evalue } =
      (output && typeof output === "object" ? output : {}) as Record<string, unknown>;
    if (type === "stream") {
      if (stream.name !== name) flush();
      stream = { name, text: stream.text + sourceText(text) };
      continue;
    }
    flush();
    if (type === "execute_result" || type === "display_data") {
      lines.push(...bundleLines(data, left));
    } else if (type === "error") {
      // The message alone: the traceback repeats the cell's code, in terminal colours.
      const name = typeof ename === "string" && ename ? ename : "Error";
      const message = terminalText(sourceText(evalue));
      const own = { lines: limits.maxOutputLines, bytes: limits.maxOutputBytes };
      lines.push(...bounded(message ? `${name}: ${message}` : name, own));
    } else lines.push(`(${typeof type === "string" ? type : "unknown"} output, not shown)`);
  }
  flush();
  return lines.join("\n");
}

/**
 * A result's lines: its `text/plain` within bounds, then one line for each other MIME type it
 * holds, in the notebook's order.
 */
function bundleLines(data: unknown, left: Left): string[] {
  if (!data || typeof data !== "object" || Array.isArray(data)) return [];
  const lines: string[] = [];
  const bundle = data as Record<string, unknown>;
  if ("text/plain" in bundle) {
    lines.push(...bounded(terminalText(sourceText(bundle["text/plain"])), left));
  }
  for (const [mime, value] of Object.entries(bundle)) {
    if (mime === "text/plain") continue;
    lines.push(`(${printablePath(mime)} output, ${sizeText(storedBytes(value))}, not shown)`);
  }
  return lines;
}

/** How many bytes a value takes in the notebook: a string's or lines' UTF-8, else its JSON's. */
function storedBytes(value: unknown): number {
  const text =
    typeof value === "string" || Array.isArray(value) && value.every((v) => typeof v === "string")
      ? sourceText(value)
      : JSON.stringify(value) ?? "";
  return utf8Length(text);
}

/** `812 bytes`, `24 KB`, `1.4 MB`. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? "1 byte" : `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The lines of `text` that fit what is `left` (which they use up), and a line counting the rest
 * when some is cut. A line longer than the bytes left is cut at a character.
 */
function bounded(text: string, left: Left): string[] {
  const lines = trimEnd(text).split("\n");
  if (lines.length === 1 && lines[0] === "") return [];
  const shown: string[] = [];
  let i = 0;
  for (; i < lines.length && left.lines > 0; i++) {
    const size = utf8Length(lines[i]) + 1;
    if (size > left.bytes) break;
    shown.push(lines[i]);
    left.lines--;
    left.bytes -= size;
  }
  if (i === lines.length) return shown;
  let partial = 0;
  if (left.lines > 0 && left.bytes > 1) {
    // The line that does not fit whole, cut where the bytes run out.
    const head = utf8Prefix(lines[i], left.bytes - 1);
    if (head) {
      shown.push(`${head}…`);
      partial = utf8Length(head);
    }
  }
  left.lines = 0;
  left.bytes = 0;
  const rest = lines.slice(i);
  const restBytes = utf8Length(rest.join("\n")) - partial;
  const count = rest.length === 1 ? "1 more line" : `${rest.length} more lines`;
  shown.push(`… (${partial ? "the rest of " : ""}${count}, ${sizeText(restBytes)}, not shown)`);
  return shown;
}

/** The longest start of `line` of at most `bytes` UTF-8 bytes, whole characters only. */
function utf8Prefix(line: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of line) {
    const size = utf8Length(char);
    if (used + size > bytes) break;
    used += size;
    end += char.length;
  }
  return line.slice(0, end);
}

const encoder = new TextEncoder();

function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/**
 * Text as a terminal shows it: colour and cursor escapes dropped, and of a line a carriage return
 * went back over (a progress bar), its last non-empty part.
 */
function terminalText(text: string): string {
  // deno-lint-ignore no-control-regex
  const plain = text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]/g, "").replace(/\r\n/g, "\n");
  if (!plain.includes("\r")) return plain;
  return plain.split("\n").map((line) => {
    const parts = line.split("\r").filter((p) => p !== "");
    return parts.at(-1) ?? "";
  }).join("\n");
}

/** Text without the blank lines and spaces it ends with. */
function trimEnd(text: string): string {
  return text.replace(/\s+$/, "");
}
