/**
 * Inputs that could hang a build, as a class: every scanner that reads a file's text (slop's
 * secret rules, the summary view of every kind it knows, generated-file detection, the plain-text
 * classifier, bidirectional controls, markdown fences, the token counter's pieces, `.gitignore`
 * rules on long paths) given texts made to make it work hard, at a size n and at 4n. The texts:
 * one huge line of a unit repeated, and the same unit a line; the units are what the scanner looks
 * for, cut short (each line of the leak probe's 720 credentials and 30 rule starts, whole and cut
 * at a quarter, a half and three quarters; language keywords and marks for the summaries; nested
 * brackets; runs of one character). The work is counted, not timed: the characters read by the
 * built-in searches (`tests/scaling/_read_meter.ts`), the same on a loaded machine. A text whose
 * count grows more than `--flag` times (default 6; linear is 4) at 4n is counted again at n, 2n
 * and 4n, and printed with its ratios and its time (the meter does not see a pattern's backtracking
 * within one attempt nor a loop over characters: `tests/secrets/no_backtracking_test.ts` bounds
 * the former; the time shows the latter). The token counter, which runs async, is timed.
 *
 * ```sh
 * deno run -A bench/growth_probe.ts                      # every target, n = 32 KB
 * deno run -A bench/growth_probe.ts --only secrets --size 65536
 * deno run -A bench/growth_probe.ts --scan /tmp/base/pipeline/_scan.ts   # another tree's scanner
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { summarize } from "../plugins/view_modes/summary.ts";
import { generatedTextReason } from "../pipeline/_generated_text.ts";
import { plainTextLimit } from "../pipeline/data_files.ts";
import { bidiControls } from "../pipeline/bidi_controls.ts";
import { fenceFor, unclosedFence } from "../plugins/markdown_fences.ts";
import { countTokens } from "../pipeline/tokens.ts";
import { ignoreMatch, parseIgnore } from "../pipeline/_gitignore.ts";
import { STARTS } from "../tests/secrets/_worst_lines.ts";
import { readsOf } from "../tests/scaling/_read_meter.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    only: { type: "string" },
    size: { type: "string" },
    flag: { type: "string" },
    scan: { type: "string" },
  },
});
const only = flags.only ? new Set(flags.only.split(",")) : undefined;
const size = Number(flags.size ?? 32 * 1024);
const flagAt = Number(flags.flag ?? 6);
const scanPath = flags.scan ?? "../pipeline/_scan.ts";
const { redactUnlessHinted } = await import(new URL(scanPath, import.meta.url).href);

/** A target: a name, its units (label, unit) and how to run it on a text. */
interface Target {
  name: string;
  units: Array<[string, string]>;
  run: (text: string) => unknown;
}

/** `unit` repeated to `n` characters: on one line, or a unit a line. */
function fill(unit: string, n: number, lines: boolean): string {
  const piece = lines ? unit.replace(/\n+$/, "") + "\n" : unit.replace(/[\r\n]+/g, " ");
  return piece.repeat(Math.ceil(n / Math.max(1, piece.length))).slice(0, n);
}

/** CPU-side time of `run(text)`: the fastest of `tries`. */
function time(run: (text: string) => unknown, text: string, tries = 1): number {
  let best = Infinity;
  for (let i = 0; i < tries; i++) {
    const t0 = performance.now();
    run(text);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** The leak probe's texts (path, text), printed by `_scan_recorder.ts` in place of a scanner. */
async function leakTexts(): Promise<Array<[string, string]>> {
  const probe = new URL("./leak_probe.ts", import.meta.url).pathname;
  const recorder = new URL("./_scan_recorder.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", probe, recorder],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((l) => l.startsWith("\u0001"))
    .map((l) => JSON.parse(l.slice(1)));
}

/** A line whole and cut at a quarter, a half and three quarters (each at least 2 characters). */
function cuts(line: string): string[] {
  const out = new Set([line]);
  for (const f of [0.25, 0.5, 0.75]) {
    const at = Math.floor(line.length * f);
    if (at >= 2) out.add(line.slice(0, at));
  }
  return [...out];
}

async function secretTarget(): Promise<Target[]> {
  const byPath = new Map<string, Set<string>>();
  for (const [path, text] of await leakTexts()) {
    const set = byPath.get(path) ?? new Set();
    for (const line of text.split("\n").filter((l) => l.trim()).slice(0, 6)) {
      for (const cut of cuts(line)) set.add(cut);
    }
    byPath.set(path, set);
  }
  const plain = new Set<string>(STARTS.filter(Boolean));
  const targets: Target[] = [];
  const units: Array<[string, string]> = [];
  for (const [path, set] of byPath) {
    for (const unit of set) units.push([`${path} ${JSON.stringify(unit)}`, unit]);
  }
  // by path: a rule that looks only at some files (a kickstart file, `sasl_passwd`) runs there
  const paths = new Map(units.map(([label]) => [label, label.slice(0, label.indexOf(" "))]));
  targets.push({
    name: "secrets",
    units: [
      ...units,
      ...[...plain].map((u): [string, string] => [`a.txt ${JSON.stringify(u)}`, u]),
    ],
    run: () => undefined,
  });
  // Each unit is run with its own path: the target's run is set per unit below.
  targets[0].run = (text: string) => redactUnlessHinted(text, { secretlint: false, path: current });
  pathsOf = paths;
  return targets;
}
let current = "a.txt";
let pathsOf = new Map<string, string>();

/** Words and marks the summaries, outlines and classifiers look for. */
const VOCABULARY = [
  "function ",
  "def ",
  "class ",
  "import ",
  "from x import ",
  "#include ",
  "fn ",
  "pub ",
  "type ",
  "interface ",
  "module ",
  "package ",
  "struct ",
  "export ",
  "const ",
  "let ",
  "var ",
  "public ",
  "static ",
  "return ",
  "require ",
  "use ",
  "local function ",
  "sub ",
  "proc ",
  "- ",
  "# ",
  "## a",
  "* ",
  "1. ",
  "> ",
  "```",
  "~~~",
  "<!--",
  "<div>",
  "<a ",
  '"a": ',
  "a: ",
  "a = ",
  "[a]",
  "{",
  "}",
  "(",
  ")",
  "[",
  "<",
  "a,",
  '"',
  "'",
  "\\",
  "/*",
  "//",
  "--",
  ";",
  " ",
  "\t",
  "a",
  "A1",
  ".",
  "=",
  ":",
  "@",
  "$",
  "%",
  "f(a, ",
  "x.y.",
  "a b ",
  "if (",
  "@interface ",
  "#define A(",
  "template <",
  "macro_rules! ",
  "impl<",
  "describe('",
  "it('",
  "defmodule ",
  "defn ",
  "object ",
  "case class ",
  "data ",
  "instance ",
  'resource "',
  'variable "',
  "\\section{",
  "@article{",
  "== ",
  ".SH ",
  "* ",
  "#+TITLE",
  "---\n",
  "\u200b",
  "\u202e",
  "汉字",
];

const EXTENSIONS =
  ".asm .bib .bicep .c .cc .cjs .clj .cls .cob .cpp .cs .csproj .cts .dart .dockerfile .el .erl .ex .exs .f90 .fs .fsx .gd .glsl .go .gql .gradle .graphql .groovy .hpp .hrl .hs .java .jade .jl .js .jsx .kt .kts .ltx .lua .md .mdx .mjs .mk .ml .pas .php .pl .plist .pp .proto .ps .pug .py .pyx .qmd .r .rake .rb .resx .rmd .rs .scala .service .sln .sql .sty .svg .swift .tex .tf .ts .tsx .vim .xml .xsd .xslt .zig .json .yaml .yml .toml .ini .csv .tsv .jsonl .ipynb .adoc .rst .org .1 .txt .sh .env .properties .h .m .v .sv .vhd .elm .gleam .nix .tcl .rd .psd1 .cr .rkt .nim .wat .snap .po .vue .svelte .css .scss .html .erb .blade.php .cmake .bat .ps1"
    .split(" ");

function viewTargets(): Target[] {
  const units = VOCABULARY.map((u): [string, string] => [JSON.stringify(u), u]);
  const targets: Target[] = EXTENSIONS.map((ext) => ({
    name: `summary ${ext}`,
    units,
    run: (text: string) => summarize(`a${ext}`, text),
  }));
  for (const name of ["Makefile", "Dockerfile"]) {
    targets.push({ name: `summary ${name}`, units, run: (text) => summarize(name, text) });
  }
  targets.push(
    ...[".js", ".css", ".go", ".ts", ".py", ".json"].map((ext) => ({
      name: `generated ${ext}`,
      units: [
        ...units,
        ["header", "// Code generated by x. DO NOT EDIT.\n"],
        ["map", "//# sourceMappingURL="],
        ["webpack", "/******/ "],
      ] as Array<[string, string]>,
      run: (text: string) => generatedTextReason(`a${ext}`, text),
    })),
    { name: "plain text", units, run: plainTextLimit },
    { name: "bidi controls", units, run: bidiControls },
    { name: "fences", units, run: (text) => [unclosedFence(text), fenceFor(text)] },
  );
  return targets;
}

/** Counting tokens: runs the pre-split may split badly (awaited, so measured apart). */
async function tokenGrowth(): Promise<void> {
  const units = [
    "a",
    " ",
    "\n",
    "aB",
    "a ",
    "'s",
    "1",
    "12",
    "...",
    "汉",
    "\u0301",
    "a\u0301",
    "A",
  ];
  for (const unit of units) {
    const t: number[] = [];
    for (const n of [size, 4 * size]) {
      const text = fill(unit, n, false);
      const t0 = performance.now();
      await countTokens(text);
      t.push(performance.now() - t0);
    }
    report("tokens", JSON.stringify(unit), t, false);
  }
}

/** `.gitignore` rules that backtrack in a regular expression, against deep paths. */
function ignoreTargets(): Target[] {
  const patterns = [
    "**/a/**/b/**/c",
    "**/a/**/b/**/c/**/d/**/e",
    "a*a*a*a*a*b",
    "**/*/**/*/**/*",
    "*/**/*a*/**",
    "**/" + "**/".repeat(8) + "z",
    "[a-z]*[a-z]*[a-z]*q",
  ];
  return patterns.map((pattern) => {
    const rules = parseIgnore(pattern + "\n");
    return {
      name: `ignore ${pattern}`,
      units: [["a/", "a/"], ["a/b/", "a/b/"], ["a", "a"], ["ab/", "ab/"]],
      run: (path: string) => ignoreMatch(rules, path.replace(/\/$/, "") + "x", false),
    };
  });
}

const flagged: string[] = [];
function report(target: string, label: string, t: number[], again: boolean): void {
  const ratio = t[1] / Math.max(t[0], 0.05);
  if (!again && ratio > flagAt && t[1] > 15) {
    flagged.push(`${target}: ${label}: ${t.map((x) => x.toFixed(1)).join(" -> ")} ms`);
  }
}

async function main(): Promise<void> {
  const targets: Target[] = [];
  if (!only || only.has("secrets")) targets.push(...await secretTarget());
  if (!only || only.has("views")) targets.push(...viewTargets());
  if (!only || only.has("ignore")) targets.push(...ignoreTargets());
  const worst: Array<[string, number, string]> = [];
  const suspects: Array<[Target, string, string, boolean]> = [];
  for (const target of targets) {
    let top: [number, string] = [0, ""];
    for (const [label, unit] of target.units) {
      current = pathsOf.get(label) ?? "a.txt";
      for (const lines of [false, true]) {
        if (target.name.startsWith("ignore") && lines) continue;
        // Counted, not timed: characters read (tests/scaling/_read_meter.ts), the same under load
        const t = [size, 4 * size].map((n) => readsOf(() => target.run(fill(unit, n, lines))));
        const ratio = t[1] / Math.max(t[0], 1);
        const name = `${label}${lines ? " (a line each)" : ""}`;
        if (ratio > top[0]) top = [ratio, name];
        if (ratio > flagAt) suspects.push([target, label, unit, lines]);
      }
    }
    worst.push([target.name, top[0], top[1]]);
  }
  if (!only || only.has("tokens")) await tokenGrowth();
  console.log(`n = ${size} characters; the worst 4n/n ratio of reads per target (linear is 4):`);
  for (const [name, ratio, label] of worst.sort((a, b) => b[1] - a[1])) {
    if (ratio > 0) console.log(`  ${name}: ${ratio.toFixed(1)} ${label}`);
  }
  console.log(
    `read more than ${flagAt}x at 4x the size (again at n, 2n, 4n; time the fastest of 3):`,
  );
  for (const [target, label, unit, lines] of suspects) {
    current = pathsOf.get(label) ?? "a.txt";
    const texts = [size, 2 * size, 4 * size].map((n) => fill(unit, n, lines));
    const reads = texts.map((text) => readsOf(() => target.run(text)));
    const t = texts.map((text) => time(target.run, text, 3));
    const r = `${(reads[1] / reads[0]).toFixed(1)}, ${(reads[2] / reads[1]).toFixed(1)}`;
    console.log(
      `  ${target.name}: ${label}${lines ? " (a line each)" : ""}: reads ${reads.join(" / ")} ` +
        `(ratios ${r}), ${t.map((x) => x.toFixed(0)).join(" / ")} ms`,
    );
  }
  for (const line of flagged) console.log(`  ${line}`);
}

await main();
