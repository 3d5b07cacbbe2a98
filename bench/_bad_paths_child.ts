/**
 * The child of `bench/bad_input.ts`'s path sweep: runs the command lines of a case list in this
 * process (slop's `main`, each in its case's folder), from the index given, and appends one line
 * of JSON to the results file as each ends (its exit code, what it printed to stderr, this
 * process's peak memory). A case that hangs writes nothing, and the parent, which watches the
 * file, kills this process and starts it again after that case.
 *
 * ```sh
 * deno run -A bench/_bad_paths_child.ts CASES.json START RESULTS.jsonl
 * ```
 *
 * @module
 */

/** One case: the folder it runs in and its command line. */
export interface PathCase {
  /** The case's project folder. */
  dir: string;
  /** The command line given to `slop`. */
  args: string[];
}

/** The start of the line that starts each case's part of stderr (its index follows). */
export const CASE_MARK = "@@bad-paths-case ";

/** What one case gave. */
export interface PathResult {
  /** The index of the case. */
  index: number;
  /** Its exit code. */
  code: number;
  /** What it printed to stderr (filled in by the parent). */
  stderr: string;
  /** This process's peak resident memory after the case, in kB (`VmHWM`). */
  peakKb: number;
}

/**
 * This process's peak resident memory in kB (0 where `/proc` does not say).
 *
 * @example
 * ```ts
 * import { peakKb } from "./_bad_paths_child.ts";
 * peakKb() >= 0; // true
 * ```
 */
export function peakKb(): number {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

if (import.meta.main) {
  const [casesPath, start, resultsPath] = Deno.args;
  const cases: PathCase[] = JSON.parse(Deno.readTextFileSync(casesPath));
  // What a case prints goes to this process's stdout and stderr (a build's summary and warnings
  // go to stdout), which the parent reads: each case's part starts with a line of its own.
  const marker = (index: number) => {
    const line = new TextEncoder().encode(`\n${CASE_MARK}${index}\n`);
    Deno.stdout.writeSync(line);
    Deno.stderr.writeSync(line);
  };
  const { main } = await import("../cli/_main.ts");
  for (let index = Number(start); index < cases.length; index++) {
    marker(index);
    Deno.chdir(cases[index].dir);
    const code = await main(cases[index].args).catch((e) => {
      console.error(`THROWN ${e?.stack ?? e}`);
      return 99;
    });
    const line: PathResult = { index, code, stderr: "", peakKb: peakKb() };
    Deno.writeTextFileSync(resultsPath, JSON.stringify(line) + "\n", { append: true });
  }
  Deno.exit(0);
}
