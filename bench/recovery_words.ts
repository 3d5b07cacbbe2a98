/**
 * Lines of words alone that the secret scan takes for a wallet's recovery words: 40,000 generated
 * lines of 8 to 27 short words (Greek letters' names) in a text file, a page and as Python string
 * literals, and 10,000 lines of 12 random words of BIP-39's English list in a text file (about 1 in
 * 16 has a right checksum by chance). Prints the lines redacted and the CPU each scan took.
 *
 * ```sh
 * deno run -A bench/recovery_words.ts
 * deno run -A bench/recovery_words.ts --scan /work/main/pipeline/_scan.ts
 * ```
 *
 * @module
 */

import { cpuUsage } from "node:process";
import { parseArgs } from "node:util";
import { loadBip39 } from "../deps.ts";

interface Scanner {
  redactText(text: string, path: string): Promise<{ text: string }>;
}

const GREEK = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa"]
  .concat(["lambda", "sigma", "omega"]);

/** A seeded generator, so that each run reads the same words. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** `count` lines of `min` to `max` words of `words`. */
function lines(words: string[], count: number, min: number, max: number, seed: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const n = min + Math.floor(next() * (max - min + 1));
    return Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(" ");
  });
}

/** Scan `text` as the file `path`: the lines redacted and the CPU it took (user + system, ms). */
async function scan(scanner: Scanner, text: string, path: string): Promise<string> {
  const before = cpuUsage();
  const out = (await scanner.redactText(text, path)).text.split("\n");
  const { user, system } = cpuUsage(before);
  const ms = (user + system) / 1000;
  const redacted = out.filter((l) => l.includes("[REDACTED:")).length;
  return `${redacted} lines redacted, ${ms.toFixed(0)} ms CPU`;
}

const { values } = parseArgs({ args: Deno.args, options: { scan: { type: "string" } } });
const scanner: Scanner = await import(
  values.scan ? new URL(values.scan, `file://${Deno.cwd()}/`).href : "../pipeline/_scan.ts"
);
const greek = lines(GREEK, 40_000, 8, 27, 1);
for (const path of ["notes.txt", "a.md"]) {
  console.log(`${path}, 40,000 generated lines: ${await scan(scanner, greek.join("\n"), path)}`);
}
const literals = greek.map((l) => `x = "${l}"`).join("\n");
console.log(`a.py, 40,000 literals: ${await scan(scanner, literals, "a.py")}`);
const { wordlist } = await loadBip39();
const listed = lines(wordlist, 10_000, 12, 12, 5);
console.log(
  `notes.txt, 10,000 lines of 12 list words: ${await scan(
    scanner,
    listed.join("\n"),
    "notes.txt",
  )}`,
);
