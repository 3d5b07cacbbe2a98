/**
 * Long lines made to make the secret rules' patterns try hard: a rule's start (a secret's name and
 * its operator, a token's prefix, a command, a URL's scheme) then a run of one or two characters
 * that the patterns after that start read (letters, digits, dots, dashes, blanks, quotes,
 * escapes), then an end that may make the attempt fail. A pattern that reads a run from each of
 * its characters, or two runs that can share characters, costs the square of the run's length on
 * one of them; one that reads each character a bounded number of times costs its length.
 *
 * @module
 */

/** Where a rule starts reading: names, operators, prefixes, commands, schemes. */
export const STARTS: string[] = [
  "",
  "api_key=aB1",
  "password: Xy9",
  'token = "aB1',
  "secret='",
  '\\"password\\": \\"',
  "<password>",
  "SENDGRID_KEY=",
  '"Key": "q',
  "?code=S4",
  "https://u:",
  "redis://:",
  "mysql -p",
  "docker login -p ",
  "echo ",
  "curl -u ",
  "IDENTIFIED BY '",
  "Authorization: Basic ",
  "-----BEGIN PRIVATE KEY-----",
  "eyJ",
  "ghp_",
  "sk-",
  "AKIA",
  'default = "',
  "${DB_PASSWORD:-",
  'getenv("API_KEY", "',
  "Password=x;",
  "const apiKey = '",
  "kind: Secret\ndata:\n  k: ",
];
/** The runs after a start: one character repeated, or two alternating. */
const RUNS = [
  "a",
  "A",
  "0",
  ".",
  "-",
  "_",
  " ",
  "\t",
  "/",
  ":",
  "=",
  '"',
  "'",
  "\\",
  "[",
  "(",
  "$",
  "@",
  "x",
  "a.",
  "a-",
  "a ",
  "aB1",
  '\\"',
  "' + '",
  "a:",
  "a=",
  "Key",
  "\\\\",
  "ab\\\n",
];
/** What follows a run: nothing, a letter, a mark, a quote, a line end. */
const ENDS = ["", "x", "!", '"', "\n"];

/**
 * Every combination of {@linkcode STARTS}, {@linkcode RUNS} and {@linkcode ENDS} (or of the runs
 * and ends given), each about `size` characters long, as `[name, line]`: one start, run and end,
 * or (with `unit`) as many as fit of `unit` characters each. A rule reads 64 KB of a value at
 * most, so a run longer than that hides its end from it.
 *
 * @example
 * ```ts
 * import { worstLines } from "./_worst_lines.ts";
 * worstLines(1024).length; // 4350
 * worstLines(1024, { runs: ["."], ends: ["x"] }).length; // 29
 * ```
 */
export function worstLines(
  size: number,
  { runs = RUNS, ends = ENDS, unit = size }: { runs?: string[]; ends?: string[]; unit?: number } =
    {},
): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const start of STARTS) {
    for (const run of runs) {
      const body = run.repeat(Math.ceil((unit - start.length) / run.length));
      for (const end of ends) {
        const name = `${JSON.stringify(start)} ${JSON.stringify(run)}* ${JSON.stringify(end)}`;
        out.push([name, (start + body + end + "\n").repeat(Math.max(1, Math.floor(size / unit)))]);
      }
    }
  }
  return out;
}
