/**
 * The cells of a Jupyter notebook (`.ipynb`, nbformat 4 JSON): their kinds and sources, and the
 * notebook's language, so the summary can list a notebook's headings and names instead of the
 * first lines of its JSON.
 *
 * @module
 */

/** What a notebook holds, cell by cell. */
export interface NotebookCells {
  /** The kernel's language (`python`, `julia`, ...), lower case, or "" when the notebook has none. */
  language: string;
  /** Sources of the markdown cells. */
  markdown: string[];
  /** Sources of the code cells. */
  code: string[];
  /** Cells of any other kind (`raw`). */
  other: number;
}

/**
 * Read a notebook's cells, or `undefined` when the text is no notebook (not JSON, or no `cells`
 * list), so the caller summarizes it as text.
 *
 * @example
 * ```ts
 * import { notebookCells } from "./_notebook.ts";
 * notebookCells('{"cells":[{"cell_type":"code","source":["x = 1"]}]}')?.code; // ["x = 1"]
 * ```
 */
export function notebookCells(text: string): NotebookCells | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const book = data as { cells?: unknown; metadata?: Record<string, unknown> } | null;
  if (!book || typeof book !== "object" || !Array.isArray(book.cells)) return undefined;
  const out: NotebookCells = {
    language: language(book.metadata),
    markdown: [],
    code: [],
    other: 0,
  };
  for (const cell of book.cells as Array<{ cell_type?: unknown; source?: unknown } | null>) {
    const source = sourceText(cell?.source);
    if (cell?.cell_type === "markdown") out.markdown.push(source);
    else if (cell?.cell_type === "code") out.code.push(source);
    else out.other++;
  }
  return out;
}

/** A cell's source: a string, or a list of strings (lines with their line ends). */
function sourceText(source: unknown): string {
  if (typeof source === "string") return source;
  if (Array.isArray(source)) return source.filter((s) => typeof s === "string").join("");
  return "";
}

/** The language in a notebook's metadata: the kernel's, else the language info's name. */
function language(metadata: Record<string, unknown> | undefined): string {
  const kernel = (metadata?.kernelspec as { language?: unknown } | undefined)?.language;
  const info = (metadata?.language_info as { name?: unknown } | undefined)?.name;
  const name = typeof kernel === "string" ? kernel : typeof info === "string" ? info : "";
  return name.toLowerCase();
}
