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
  const book = notebookJson(text);
  if (!book) return undefined;
  const out: NotebookCells = { language: book.language, markdown: [], code: [], other: 0 };
  for (const cell of book.cells) {
    const source = sourceText(cell.source);
    if (cell.cell_type === "markdown") out.markdown.push(source);
    else if (cell.cell_type === "code") out.code.push(source);
    else out.other++;
  }
  return out;
}

/** One cell as the notebook's JSON has it (fields checked where they are read). */
export interface NotebookCell {
  cell_type?: unknown;
  source?: unknown;
  outputs?: unknown;
}

/**
 * A notebook's language and its cells as JSON values, or `undefined` when the text is no
 * notebook (not JSON, or no `cells` list: nbformat 3 keeps them under `worksheets`). A cell that
 * is not an object reads as an empty one.
 *
 * @example
 * ```ts
 * import { notebookJson } from "./_notebook.ts";
 * notebookJson('{"cells":[{"cell_type":"markdown","source":"# A"}]}')?.cells.length; // 1
 * notebookJson("[1, 2]"); // undefined
 * ```
 */
export function notebookJson(
  text: string,
): { language: string; cells: NotebookCell[] } | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const book = data as { cells?: unknown; metadata?: Record<string, unknown> } | null;
  if (!book || typeof book !== "object" || !Array.isArray(book.cells)) return undefined;
  const cells = (book.cells as unknown[]).map((cell) =>
    cell && typeof cell === "object" ? cell as NotebookCell : {}
  );
  return { language: language(book.metadata), cells };
}

/**
 * A cell's source or an output's text: a string, or a list of strings (lines with their line
 * ends); anything else is "".
 *
 * @example
 * ```ts
 * import { sourceText } from "./_notebook.ts";
 * sourceText(["x = 1\n", "y = 2"]); // "x = 1\ny = 2"
 * ```
 */
export function sourceText(source: unknown): string {
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
