/**
 * Recall of slop's secret scan on other scanners' test cases, read from their mirrors at bench
 * time (never copied here): gitleaks' rules (`cmd/generate/config/rules/*.go`) and trufflehog's
 * detector tests (`pkg/detectors/…/*_test.go`), see `bench/_go_samples.ts`.
 *
 * Each true-positive value is placed in six files: a `.env` line, YAML, JSON, a Python
 * assignment, a shell `export` (each under a name made from its family: `GITHUB_API_KEY`,
 * `github_token`, …) and, with no name at all, an argument of a call (`Client(host, "…")`):
 * that placement counts what its shape alone gives away; and split over two literals with no name
 * in three languages' joins (a column of its own). A value is caught when no 12-character
 * piece of it is left after the scan (slop's scanner as a build runs it: the rule table and
 * secretlint's preset). gitleaks' sample lines (`tps`) count as caught when the scan finds
 * anything in them; its false-positive lines (`fps`) count as flagged when it does.
 *
 * ```sh
 * deno task bench:secret-recall                          # recall per family, misses, FP rate
 * deno task bench:secret-recall --show                   # also every missed value's shape
 * deno task bench:secret-recall --show --values          # the missed values whole
 * deno task bench:secret-recall --all                    # every family's row, not only misses
 * deno task bench:secret-recall --scanner /tmp/base/_scan.ts   # another tree's scanner
 * deno task bench:secret-recall --only gitleaks          # one source: gitleaks or trufflehog
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { piecesOf } from "../tests/secrets/_samples.ts";
import { gitleaksSamples, type Sample, seeded, trufflehogSamples } from "./_go_samples.ts";

const { values: opts } = parseArgs({
  args: Deno.args,
  options: {
    scanner: { type: "string" },
    only: { type: "string" },
    show: { type: "boolean", default: false },
    values: { type: "boolean", default: false },
    all: { type: "boolean", default: false },
    gitleaks: { type: "string", default: "/work/.mirror/gitleaks+gitleaks/repo" },
    trufflehog: { type: "string", default: "/work/.mirror/trufflesecurity+trufflehog/repo" },
  },
});

type Scan = (text: string, path: string) => Promise<{ text: string; findings: unknown[] }>;
const scanner = await import(
  opts.scanner ? new URL(opts.scanner, `file://${Deno.cwd()}/`).href : "../pipeline/_scan.ts"
) as { redactText: Scan };

/** The files of `paths` at HEAD of a bare mirror, by path. */
async function mirrorFiles(gitDir: string, paths: string[]): Promise<Map<string, string>> {
  const run = async (args: string[]) => {
    const out = await new Deno.Command("git", { args: ["--git-dir", gitDir, ...args] }).output();
    if (!out.success) {
      throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    }
    return new TextDecoder().decode(out.stdout);
  };
  const names = (await run(["ls-tree", "-r", "--name-only", "HEAD", "--", ...paths]))
    .split("\n").filter((p) => p.endsWith(".go"));
  const files = new Map<string, string>();
  // One `cat-file --batch` for all of them.
  const proc = new Deno.Command("git", {
    args: ["--git-dir", gitDir, "cat-file", "--batch"],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const output = new Response(proc.stdout).arrayBuffer(); // read while writing: no deadlock
  const writer = proc.stdin.getWriter();
  await writer.write(new TextEncoder().encode(names.map((n) => `HEAD:${n}\n`).join("")));
  await writer.close();
  const bytes = new Uint8Array(await output);
  let at = 0;
  for (const name of names) {
    const nl = bytes.indexOf(10, at);
    const size = Number(new TextDecoder().decode(bytes.subarray(at, nl)).split(" ")[2]);
    files.set(name, new TextDecoder().decode(bytes.subarray(nl + 1, nl + 1 + size)));
    at = nl + 1 + size + 1;
  }
  await proc.status;
  return files;
}

async function loadSamples(): Promise<{ tps: Sample[]; fps: Sample[] }> {
  const random = seeded(7);
  const tps: Sample[] = [];
  const fps: Sample[] = [];
  if (opts.only !== "trufflehog") {
    const files = await mirrorFiles(opts.gitleaks, ["cmd/generate/config/rules"]);
    for (const [path, src] of files) {
      if (path.endsWith("_test.go")) continue;
      const family = path.split("/").pop()!.replace(/\.go$/, "");
      const s = gitleaksSamples(src, family, `gitleaks:${path}`, random);
      tps.push(...s.tps);
      fps.push(...s.fps);
    }
  }
  if (opts.only !== "gitleaks") {
    const files = await mirrorFiles(opts.trufflehog, ["pkg/detectors"]);
    for (const [path, src] of files) {
      if (!path.endsWith("_test.go") || path.includes("integration")) continue;
      const family = path.split("/")[2];
      tps.push(...trufflehogSamples(src, family, `trufflehog:${path}`, random));
    }
  }
  return { tps, fps };
}

/** The six placements of a value: file name and text. */
function placements(
  family: string,
  value: string,
): Array<{ place: string; path: string; text: string }> {
  const word = family.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "") || "service";
  const up = word.toUpperCase();
  const camel = word.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const yq = /^[\w./+=-]+$/.test(value) ? value : JSON.stringify(value);
  return [
    { place: "env", path: ".env", text: `# ${word}\n${up}_API_KEY=${value}\nDEBUG=false\n` },
    {
      place: "yaml",
      path: "config.yaml",
      text: `${word}:\n  url: https://api.example.org\n  ${word}_token: ${yq}\n`,
    },
    {
      place: "json",
      path: "settings.json",
      text: `{\n  "region": "eu-west-1",\n  "${camel}Secret": ${JSON.stringify(value)}\n}\n`,
    },
    {
      place: "source",
      path: "settings.py",
      text: `import os\n\n${word}_access_token = ${JSON.stringify(value)}\n`,
    },
    {
      place: "shell",
      path: "deploy.sh",
      text: `#!/bin/sh\nexport ${up}_TOKEN='${value}'\n./run\n`,
    },
    { place: "bare", path: "client.py", text: `client = Client(host, ${JSON.stringify(value)})\n` },
  ];
}

/**
 * A value split over two literals with no name, as code writes it to keep it from a scanner:
 * JavaScript's `+` cut in its first 3 characters (inside most prefixes), Lua's `..` cut in its
 * middle, R's `paste0` cut after 5.
 */
function splits(value: string): Array<{ place: string; path: string; text: string }> {
  const q = (v: string) => JSON.stringify(v);
  const half = Math.ceil(value.length / 2);
  return [
    {
      place: "split +",
      path: "note.js",
      text: `const note = ${q(value.slice(0, 3))} + ${q(value.slice(3))};
`,
    },
    {
      place: "split ..",
      path: "note.lua",
      text: `local note = ${q(value.slice(0, half))} .. ${q(value.slice(half))}
`,
    },
    {
      place: "split paste0",
      path: "note.R",
      text: `note <- paste0(${q(value.slice(0, 5))}, ${q(value.slice(5))})
`,
    },
  ];
}

/** A test's stand-in, not a key: its last 16 letters and digits are one character (`…_1111…1`). */
const STAND_IN = /([A-Za-z0-9])(?:[^A-Za-z0-9]?\1){15}$/;

function caught(value: string, redacted: string): boolean {
  return !piecesOf(value).some((p) => redacted.includes(p));
}

interface Tally {
  /** Values that are one character repeated after a prefix (`shippo_test_1111…`): stand-ins. */
  standIns: number;
  named: [number, number];
  bare: [number, number];
  /** The value split over two literals with no name (see {@linkcode splits}). */
  split: [number, number];
  lines: [number, number];
  misses: string[];
}

function shape(value: string): string {
  const classes = [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/]
    .map((re, i) => re.test(value) ? "Aa9."[i] : "").join("");
  const head = opts.values ? value : `${value.slice(0, 8)}…`;
  return `${JSON.stringify(head)} ${value.length} chars [${classes}]`;
}

async function measure(tps: Sample[]): Promise<Map<string, Tally>> {
  const tally = new Map<string, Tally>();
  for (const s of tps) {
    const t = tally.get(s.family) ??
      { standIns: 0, named: [0, 0], bare: [0, 0], split: [0, 0], lines: [0, 0], misses: [] };
    tally.set(s.family, t);
    if (s.kind === "line") {
      const r = await scanner.redactText(`${s.text}\n`, "sample.txt");
      t.lines[1]++;
      if (r.findings.length) t.lines[0]++;
      else t.misses.push(`line ${JSON.stringify(s.text.slice(0, 60))} (${s.from})`);
      continue;
    }
    if (STAND_IN.test(s.text)) {
      t.standIns++;
      continue;
    }
    const missed: string[] = [];
    for (const p of [...placements(s.family, s.text), ...splits(s.text)]) {
      const r = await scanner.redactText(p.text, p.path);
      const ok = caught(s.text, r.text);
      const slot = p.place === "bare" ? t.bare : p.place.startsWith("split") ? t.split : t.named;
      slot[1]++;
      if (ok) slot[0]++;
      else missed.push(p.place);
    }
    if (missed.length) t.misses.push(`${shape(s.text)} missed in ${missed.join(", ")} (${s.from})`);
  }
  return tally;
}

function pct([hit, all]: [number, number]): string {
  return all ? `${(100 * hit / all).toFixed(0)}% (${hit}/${all})` : "-";
}

function report(tally: Map<string, Tally>, fpLines: Array<[Sample, boolean]>): void {
  const sum = (k: "named" | "bare" | "split" | "lines"): [number, number] =>
    [...tally.values()].reduce(
      (a, t) => [a[0] + t[k][0], a[1] + t[k][1]],
      [0, 0] as [number, number],
    );
  const families = [...tally.keys()].sort();
  const perfect = families.filter((f) => {
    const t = tally.get(f)!;
    return t.misses.length === 0;
  });
  console.log(
    `\n| family | named placements | no name | split, no name | sample lines |\n| --- | --- | --- | --- | --- |`,
  );
  for (const f of families) {
    const t = tally.get(f)!;
    if (t.misses.length || opts.all) {
      console.log(
        `| ${f} | ${pct(t.named)} | ${pct(t.bare)} | ${pct(t.split)} | ${pct(t.lines)} |`,
      );
    }
  }
  console.log(`| (${perfect.length} families with no miss) | | | | |`);
  const standIns = [...tally.values()].reduce((n, t) => n + t.standIns, 0);
  console.log(
    `| **all ${families.length} families** | ${pct(sum("named"))} | ${pct(sum("bare"))} | ${
      pct(sum("split"))
    } | ${pct(sum("lines"))} |`,
  );
  console.log(`\n${standIns} stand-in values (one character repeated) left out of the counts`);
  const flagged = fpLines.filter(([, f]) => f);
  console.log(
    `\ngitleaks false-positive lines flagged: ${pct([flagged.length, fpLines.length])}`,
  );
  if (!opts.show) return;
  console.log("\nMisses:");
  for (const f of families) for (const m of tally.get(f)!.misses) console.log(`  ${f}: ${m}`);
  console.log("\nFalse-positive lines flagged:");
  for (const [s] of flagged) console.log(`  ${s.family}: ${JSON.stringify(s.text.slice(0, 100))}`);
}

if (import.meta.main) {
  const { tps, fps } = await loadSamples();
  const values = tps.filter((s) => s.kind === "value").length;
  console.log(
    `${values} values and ${tps.length - values} sample lines (true positives), ` +
      `${fps.length} false-positive lines; scanner ${opts.scanner ?? "pipeline/_scan.ts"}`,
  );
  const tally = await measure(tps);
  const fpLines: Array<[Sample, boolean]> = [];
  for (const s of fps) {
    const r = await scanner.redactText(`${s.text}\n`, "sample.txt");
    fpLines.push([s, r.findings.length > 0]);
  }
  report(tally, fpLines);
}
