/**
 * Characters a piece of code reads through the built-ins scanners search with, counted while
 * it runs: a regular expression's `exec` (what every `test`, `match`, `matchAll`, `replace`,
 * `search` and `split` with one calls) from where it starts to the end of its match, or to the
 * text's end when a search that may move on fails; `indexOf`, `lastIndexOf` and `includes` from
 * where they start to what they find. A scanner that reads a bounded span from each of its
 * starts reads in all a count linear in the text; one that searches to the text's end (or back
 * to its start) from each start reads its square. Not counted: the steps a pattern backtracks
 * within one attempt, a failed sticky attempt beyond 1, and characters read one by one
 * (`charCodeAt`, `text[i]`): `tests/secrets/no_backtracking_test.ts` bounds the patterns.
 *
 * @module
 */

/** Run `work` and return what it read (see the module's header), the built-ins restored after. */
export function readsOf(work: () => unknown): number {
  let read = 0;
  const exec = RegExp.prototype.exec;
  const indexOf = String.prototype.indexOf;
  const lastIndexOf = String.prototype.lastIndexOf;
  const includes = String.prototype.includes;
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    const moves = this.global || this.sticky;
    const start = moves ? this.lastIndex : 0;
    const m = exec.call(this, s);
    if (m) read += Math.max(1, m.index + m[0].length - start);
    else read += this.sticky ? 1 : Math.max(1, String(s).length - start);
    return m;
  };
  String.prototype.indexOf = function (this: string, search: string, from = 0) {
    const found = indexOf.call(this, search, from);
    read += Math.max(1, (found < 0 ? this.length : found + search.length) - from);
    return found;
  };
  String.prototype.includes = function (this: string, search: string, from = 0) {
    const found = indexOf.call(this, search, from);
    read += Math.max(1, (found < 0 ? this.length : found + search.length) - from);
    return found >= 0;
  };
  String.prototype.lastIndexOf = function (this: string, search: string, from = Infinity) {
    const found = lastIndexOf.call(this, search, from);
    const start = Math.min(Number.isNaN(Number(from)) ? Infinity : from, this.length);
    read += Math.max(1, start - Math.max(found, 0) + 1);
    return found;
  };
  try {
    work();
  } finally {
    RegExp.prototype.exec = exec;
    String.prototype.indexOf = indexOf;
    String.prototype.includes = includes;
    String.prototype.lastIndexOf = lastIndexOf;
  }
  return read;
}
