/**
 * The cells of a Jupyter notebook (`.ipynb`, nbformat 4 JSON, or 3's read as 4's): their kinds
 * and sources, and the notebook's language, so the summary can list a notebook's headings and
 * names instead of the first lines of its JSON.
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
 * notebook (not JSON, or neither a `cells` list nor nbformat 3's `worksheets` of them). An
 * nbformat 3 notebook's cells are read as nbformat 4's ({@linkcode fromFormat3}). A cell that is
 * not an object reads as an empty one.
 *
 * @example
 * ```ts
 * import { notebookJson } from "./_notebook.ts";
 * notebookJson('{"cells":[{"cell_type":"markdown","source":"# A"}]}')?.cells.length; // 1
 * notebookJson('{"worksheets":[{"cells":[{"cell_type":"code","input":"x"}]}]}')?.cells.length; // 1
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
  type Book = { cells?: unknown; worksheets?: unknown; metadata?: Record<string, unknown> };
  const book = data as Book | null;
  if (!book || typeof book !== "object") return undefined;
  const objects = (list: unknown[]) =>
    list.map((item) => item && typeof item === "object" ? item as Record<string, unknown> : {});
  if (Array.isArray(book.cells)) {
    return { language: language(book.metadata), cells: objects(book.cells) };
  }
  if (!Array.isArray(book.worksheets)) return undefined;
  // nbformat 3: the cells of each worksheet, in order; the language on each code cell.
  const cells = objects(book.worksheets).flatMap((sheet) =>
    Array.isArray(sheet.cells) ? objects(sheet.cells) : []
  );
  const code = cells.find((cell) => cell.cell_type === "code" && typeof cell.language === "string");
  const lang = code ? languageTag(String(code.language)) : language(book.metadata);
  return { language: lang, cells: cells.map(fromFormat3) };
}

/**
 * An nbformat 3 cell as nbformat 4 has it: a code cell's `input` as its `source`, a `heading`
 * cell as a markdown heading of its `level`, and its outputs renamed (`pyout` a result, `pyerr`
 * an error, a stream's `stream` its `name`, the MIME keys `text`, `png`, `html`, ... its `data`).
 */
function fromFormat3(cell: Record<string, unknown>): NotebookCell {
  if (cell.cell_type === "heading") {
    const level = typeof cell.level === "number" ? Math.min(Math.max(cell.level, 1), 6) : 1;
    return { cell_type: "markdown", source: `${"#".repeat(level)} ${sourceText(cell.source)}` };
  }
  if (cell.cell_type !== "code") return cell;
  const outputs = Array.isArray(cell.outputs) ? cell.outputs.map(outputFrom3) : cell.outputs;
  return { cell_type: "code", source: cell.input ?? cell.source, outputs };
}

/** nbformat 3's MIME keys of an output, by their nbformat 4 types. */
const FORMAT3_MIME: Record<string, string> = {
  text: "text/plain",
  html: "text/html",
  latex: "text/latex",
  markdown: "text/markdown",
  png: "image/png",
  jpeg: "image/jpeg",
  svg: "image/svg+xml",
  json: "application/json",
  javascript: "application/javascript",
};

/** One nbformat 3 output as nbformat 4 has it (see {@linkcode fromFormat3}). */
function outputFrom3(output: unknown): unknown {
  if (!output || typeof output !== "object") return output;
  const old = output as Record<string, unknown>;
  const type = old.output_type;
  if (type === "stream") return { ...old, name: old.stream ?? old.name };
  if (type === "pyerr") return { ...old, output_type: "error" };
  if (type !== "pyout" && type !== "display_data") return old;
  const data: Record<string, unknown> = {};
  for (const [key, mime] of Object.entries(FORMAT3_MIME)) {
    if (key in old) data[mime] = old[key];
  }
  return { output_type: type === "pyout" ? "execute_result" : type, data };
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
  return languageTag(name);
}

/**
 * A language name as a tag, lower case: the characters a fence's info string and a summary's
 * head line can hold (`c++`, `c#`, `python3`), so a name with a line break in the notebook's
 * metadata cannot end the head line or the fence.
 */
function languageTag(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_+#.-]/g, "");
}
