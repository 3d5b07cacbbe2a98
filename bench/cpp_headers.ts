/**
 * The `.h` files of git repositories read with the C grammar and with the C++ grammar, side by
 * side: for each header (at HEAD, read from git's objects), by what `isCpp` says of it, the
 * symbols each reading finds (all, and the public ones the outline shows), its skeleton's lines
 * that are no part of a line of the file (the check of `real_repo_oracle.ts`), whether it parsed
 * with syntax errors, and the same for a `masked` view with `rest: "sig"`. `today` is the
 * reading `renderCode` gives a `.h` path (which may itself be the C++ one: see `_code.ts`), `c`
 * the C grammar's alone, `cpp` the C++ grammar's. See bench/README.md, "C++ headers read with the
 * C++ grammar".
 *
 * ```sh
 * deno run -A bench/cpp_headers.ts /work/.mirror/fmtlib+fmt/repo /work/.mirror/curl+curl/repo
 * ```
 *
 * @module
 */

import { renderCode } from "../plugins/view_modes/_code.ts";
import { isCpp, isObjectiveC } from "../pipeline/extension.ts";

/** Body and value markers: what a skeleton writes that is not in the file. */
const MARKERS = /\{ \.\.\. \}|\/\* \.\.\. \*\/|(?:#|--|\/\/) \.\.\.|\.\.\./g;

/** One reading's numbers over a set of headers. */
interface Tally {
  symbols: number;
  public: number;
  garbled: number;
  errors: number;
  failed: number;
}

function tally(): Tally {
  return { symbols: 0, public: 0, garbled: 0, errors: 0, failed: 0 };
}

async function git(dir: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args: ["-C", dir, ...args], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

/** Lines of a rendered text that are no part of a line of the file (markers aside). */
function garbled(rendered: string, file: string): string[] {
  const disk = file.replace(/\r\n?/g, "\n");
  const lines = new Set(disk.split("\n").map((l) => l.trim()));
  const all = disk.replace(/\s+/g, " ");
  return rendered.split("\n").filter((line) => {
    if (lines.has(line.trim())) return false;
    const pieces = line.split(MARKERS).map((p) => p.trim().replace(/\s+/g, " "));
    return pieces.some((p) => p && !all.includes(p));
  });
}

/** Adds one reading of a file to a tally; returns its garbled lines and what it rendered. */
async function read(
  t: Tally,
  path: string,
  text: string,
): Promise<{ bad: string[]; shown: string }> {
  try {
    const view = await renderCode(path, text);
    if (!view) return { bad: [], shown: "" };
    t.symbols += view.symbols.length;
    t.public += view.symbols.filter((s) => s.public).length;
    if (view.hasErrors) t.errors++;
    const bad = garbled(view.text, text);
    const masked = await renderCode(path, text, { rest: "sig", mask: {} });
    bad.push(...garbled(masked?.text ?? "", text));
    t.garbled += bad.length;
    return { bad, shown: `${view.symbols.length} symbols, errors ${view.hasErrors}` };
  } catch (error) {
    t.failed++;
    return { bad: [], shown: String(error).slice(0, 80) };
  }
}

if (import.meta.main) {
  const verbose = Deno.env.get("VERBOSE") === "1";
  for (const dir of Deno.args) {
    const paths = (await git(dir, ["ls-tree", "-r", "--name-only", "HEAD"])).split("\n")
      .filter((p) => /\.h$/i.test(p));
    const groups = { cpp: [tally(), tally(), tally()], c: [tally(), tally(), tally()] };
    const count = { cpp: 0, c: 0 };
    for (const path of paths) {
      const text = await git(dir, ["show", `HEAD:${path}`]);
      if (isObjectiveC(text)) continue;
      const group = isCpp(text) ? "cpp" : "c";
      count[group]++;
      const [today, c, cpp] = groups[group];
      const stem = path.slice(0, -2);
      const now = await read(today, path, text);
      const alone = await read(c, `${stem}.c`, text);
      const other = await read(cpp, `${stem}.hpp`, text);
      if (verbose && (now.shown !== other.shown || now.bad.length || other.bad.length)) {
        console.log(`${path}: today ${now.shown}; c ${alone.shown}; cpp ${other.shown}`);
        for (const line of now.bad) console.log(`  today: ${line.slice(0, 100)}`);
        for (const line of other.bad) console.log(`  cpp:   ${line.slice(0, 100)}`);
      }
    }
    for (const group of ["cpp", "c"] as const) {
      const [today, c, cpp] = groups[group];
      console.log(
        JSON.stringify({ repo: dir, isCpp: group, headers: count[group], today, c, cpp }),
      );
    }
  }
}
