/**
 * Output formats: the ordered blocks rendered as markdown (as composed), as
 * XML in the documents-in-tags layout Anthropic recommends, or as one JSON
 * document. Each block keeps its own text in every format, so byte offsets,
 * hashes and the stable prefix stay valid: only wrappers that belong to the
 * first or last block of a run are added to that block.
 *
 * @module
 */

import { printablePath } from "./helpers.ts";
import { bidiNoteOf } from "./bidi_controls.ts";
import type { Block, OutputFormat, RenderedFile } from "./types.ts";

/** File extension of a document in each format (the manifest is `.json`). */
export const FORMAT_EXTENSIONS: Record<OutputFormat, string> = {
  markdown: "md",
  xml: "xml",
  json: "doc.json",
};

/**
 * Re-render ordered blocks in an output format. `markdown` returns them as
 * they are; the other formats return new blocks with the same ids, order and
 * stability.
 *
 * @param blocks Blocks in document order.
 * @param files Rendered files (file blocks take their body from here).
 * @param format The output format.
 * @returns The blocks with their text in the chosen format.
 *
 * @example XML output
 * ```ts
 * import { formatBlocks } from "./formats.ts";
 * const blocks = formatBlocks(
 *   [{ id: "history", section: "history", stability: "volatile", text: "## H\n\nhi\n\n" }],
 *   [],
 *   "xml",
 * );
 * blocks[0].text; // "<history>\n## H\n\nhi\n</history>\n"
 * ```
 */
export function formatBlocks(
  blocks: Block[],
  files: RenderedFile[],
  format: OutputFormat,
): Block[] {
  if (format === "xml") return toXml(blocks, files);
  if (format === "json") return toJson(blocks, files);
  return blocks;
}

function fileOf(block: Block, byPath: Map<string, RenderedFile>): RenderedFile | undefined {
  return block.section === "files" && block.source ? byPath.get(block.source) : undefined;
}

function toXml(blocks: Block[], files: RenderedFile[]): Block[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const ownTags = new Set([...XML_FILE_TAGS, ...blocks.map((b) => tagName(b.section))]);
  let index = 0;
  return blocks.map((block, i) => {
    const tag = block.section === "files" ? "documents" : tagName(block.section);
    const first = i === 0 || blocks[i - 1].section !== block.section;
    const last = i === blocks.length - 1 || blocks[i + 1].section !== block.section;
    const file = fileOf(block, byPath);
    let body: string;
    if (file) {
      index++;
      // The file's lines as they are, blank ones at the end too: only a missing last line end is added.
      const text = neutralizeTags(file.text ?? "", ownTags);
      const content = text && !text.endsWith("\n") ? `${text}\n` : text;
      // The path as headings show it: a control or bidi character would end or reverse it.
      const source = escapeXml(printablePath(file.path));
      // The note of bidirectional controls the markdown shows before the text (`bidi_controls.ts`).
      const note = bidiNoteOf(file);
      body = `<document index="${index}">\n<source>${source}</source>\n` +
        `<view>${escapeXml(file.view)}</view>\n` +
        (note ? `<note>${escapeXml(note)}</note>\n` : "") +
        `<document_content>\n${content}</document_content>\n</document>\n`;
    } else if (block.section === "files" && block.heading) {
      body = "";
    } else {
      // A section in several blocks (history) keeps its inner blank lines.
      const text = neutralizeTags(last ? trimEnd(block.text) : block.text, ownTags);
      body = text && last ? `${text}\n` : text;
    }
    const text = `${first ? `<${tag}>\n` : ""}${body}${last ? `</${tag}>\n` : ""}`;
    return { ...block, text };
  });
}

/** The tags that wrap files in the XML format. */
const XML_FILE_TAGS = ["documents", "document", "source", "view", "document_content"];

/**
 * Escape the `<` of any opening or closing tag that slop itself uses in the
 * XML document (`</document_content>`, `<document index=…>`, `</history>`, …),
 * so a file's text can never end its wrapper early or fake another document.
 * Other markup stays as written, for the model to read.
 */
function neutralizeTags(text: string, tags: Set<string>): string {
  if (!text.includes("<")) return text;
  return text.replace(
    /<(\/?)([A-Za-z_][A-Za-z0-9_.-]*)/g,
    (m, slash, name) => tags.has(name) ? `&lt;${slash}${name}` : m,
  );
}

function toJson(blocks: Block[], files: RenderedFile[]): Block[] {
  // No block (every file skipped): the document is still one JSON value, with no blocks.
  if (!blocks.length) return [EMPTY_JSON];
  const byPath = new Map(files.map((f) => [f.path, f]));
  return blocks.map((block, i) => {
    const file = fileOf(block, byPath);
    const item = file
      ? {
        id: block.id,
        section: block.section,
        stability: block.stability,
        path: file.path,
        view: file.view,
        language: file.language,
        ...noteOf(file),
        content: file.text ?? "",
      }
      : { id: block.id, section: block.section, stability: block.stability, text: block.text };
    const open = i === 0 ? `{"format":"slop","version":1,"blocks":[\n` : ",\n";
    const close = i === blocks.length - 1 ? "\n]}\n" : "";
    return { ...block, text: `${open}${JSON.stringify(item)}${close}` };
  });
}

/** The JSON document of a build with no block: its envelope alone, a block of its own. */
const EMPTY_JSON: Block = {
  id: "document",
  section: "document",
  stability: "stable",
  text: `{"format":"slop","version":1,"blocks":[]}\n`,
};

/** A file's note of bidirectional controls as a field of its JSON item, when it has one. */
function noteOf(file: RenderedFile): { note?: string } {
  const note = bidiNoteOf(file);
  return note ? { note } : {};
}

function trimEnd(text: string): string {
  return text.replace(/\n+$/, "");
}

function tagName(section: string): string {
  const name = section.replace(/[^A-Za-z0-9_.-]/g, "_");
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

/**
 * Escape `&`, `<`, `>` and `"` for XML text and attributes.
 *
 * @example
 * ```ts
 * import { escapeXml } from "./formats.ts";
 * escapeXml("a<b"); // "a&lt;b"
 * ```
 */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ESCAPES[c]);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
