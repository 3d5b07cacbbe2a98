/**
 * What a markdown context document looks like to a reader: its `#`-headings of level 1 to 3
 * outside code fences (fences read as CommonMark reads them at a line start), and whether a
 * fence is left open at the end.
 *
 * @module
 */

/** The headings outside fences, and whether the document ends inside a fence. */
export function structure(document: string): { headings: string[]; open: boolean } {
  const headings: string[] = [];
  let open: string | undefined;
  for (const line of document.split("\n")) {
    const run = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open !== undefined) {
      if (run && run[1][0] === open[0] && run[1].length >= open.length && !run[2].trim()) {
        open = undefined;
      }
    } else if (run && (run[1][0] === "~" || !run[2].includes("`"))) open = run[1];
    else if (/^ {0,3}#{1,3}(?:[ \t]|$)/.test(line)) headings.push(line.trim());
  }
  return { headings, open: open !== undefined };
}
