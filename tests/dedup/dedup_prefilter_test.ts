import assert from "node:assert/strict";
import { dedupText } from "../../pipeline/dedup.ts";
import { prng } from "../_helpers.ts";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** Whitespace that `trim()` removes around a line, and some it keeps inside. */
const SPACES = [" ", "\t", "\r", "\u00a0", "\u2003", "\u3000", "\ufeff", "\v"];

/**
 * Lines that come near a blob: long identifiers, base64-looking lines of many widths, padding,
 * wrapped runs; with `blobs` false, none long enough to be replaced.
 */
function nearBlobText(random: () => number, blobs: boolean): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const run = (n: number) => Array.from({ length: n }, () => pick([...B64])).join("");
  const lines: string[] = [];
  for (let i = 0; i < 60; i++) {
    const r = random();
    const width = pick(
      blobs ? [10, 38, 40, 76, 1023, 1024, 1500] : [10, 37, 38, 39, 40, 41, 64, 76, 200],
    );
    if (r < 0.25) lines.push(`  const ${run(width)}Identifier = 1;`);
    else if (r < 0.5) {
      lines.push(`${pick(SPACES)}${run(width)}${pick(["", "=", "==", "==="])}${pick(SPACES)}`);
    } else if (r < 0.6) {
      // A wrapped blob: equal widths, a shorter last line.
      const w = pick([40, 64, 76]);
      const n = 2 + Math.floor(random() * (blobs ? 25 : 1024 / w - 2));
      for (let k = 0; k < n; k++) lines.push(run(k === n - 1 ? Math.floor(w / 2) : w));
    } else if (r < 0.7) lines.push("");
    else if (r < 0.8) lines.push(`x = "${run(width)}" + "${run(width)}"`);
    else lines.push(`def f${i}(a, b):  # ${"é€🙂"[i % 3]}`);
  }
  return lines.join(pick(["\n", "\r\n"]));
}

Deno.test("dedupText()'s one-pass check before splitting lines gives the same result as splitting every text", () => {
  const random = prng(5);
  let replaced = 0;
  let kept = 0;
  for (let i = 0; i < 120; i++) {
    const text = nearBlobText(random, i % 2 === 0);
    const fast = dedupText(text);
    const slow = dedupText(text, { prefilter: false });
    assert.equal(fast.text, slow.text);
    assert.deepEqual(fast.replacements, slow.replacements);
    if (slow.replacements.length) replaced++;
    else kept++;
  }
  // Both kinds were met: texts with blobs and texts with only blob-like lines.
  assert.ok(replaced > 10 && kept > 10, `replaced ${replaced}, kept ${kept}`);
});

Deno.test("dedupText()'s check finds wrapped blobs at the narrowest width, indented, padded or with CRLF", () => {
  const random = prng(9);
  const run = (n: number) =>
    Array.from({ length: n }, () => B64[Math.floor(random() * B64.length)]).join("");
  for (const space of SPACES) {
    for (const [width, end] of [[40, "\n"], [76, "\r\n"]] as const) {
      const lines = Array.from({ length: 30 }, (_, k) => `${space}${run(k === 29 ? 10 : width)}`);
      lines[29] += "==";
      const text = `key:\n${lines.join(end)}${end}done\n`;
      const fast = dedupText(text);
      assert.equal(fast.replacements.length, 1, JSON.stringify({ space, width }));
      assert.deepEqual(fast, dedupText(text, { prefilter: false }));
    }
  }
});

Deno.test("dedupText() keeps source code with long identifiers as it is, the same string", () => {
  const line = (i: number) =>
    `export function getSupportedCodeFixesForDiagnosticNumber${i}(): void {}`;
  const text = Array.from({ length: 5000 }, (_, i) => line(i)).join("\n") + "\n";
  const { text: out, replacements } = dedupText(text);
  assert.equal(replacements.length, 0);
  assert.equal(out, text);
  // Two blob-shaped lines in a row still go the long way, and still replace nothing when short.
  const short = `${"QUJD".repeat(10)}\n${"QUJD".repeat(10)}\n`;
  assert.deepEqual(dedupText(short), { text: short, replacements: [] });
});

Deno.test("dedupText() finds a base64 run of exactly the shortest length wherever it sits, and none one shorter", () => {
  const random = prng(13);
  // Mixed case and digits, as a replaced run must be.
  const run = (n: number) => "aZ7".repeat(n).slice(0, n);
  for (let i = 0; i < 40; i++) {
    // Runs just too short, one character apart, around the one that counts.
    const near = Array.from({ length: 1 + Math.floor(random() * 4) }, () => run(1023)).join(".");
    const at = Math.floor(random() * 300);
    const before = `${"x = f(a, b)\n".repeat(at % 7)}${"y".repeat(at)} ${near}-`;
    for (const n of [1023, 1024, 1025]) {
      const text = `${before}${run(n)}=-${near}\n`;
      const { replacements } = dedupText(text);
      assert.equal(replacements.length, n >= 1024 ? 1 : 0, JSON.stringify({ i, n, at }));
    }
  }
});
