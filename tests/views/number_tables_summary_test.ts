// A file of number tables is summarized as data by default (over 32 KB): its summary names each
// table, its element type and its elements and rows, in each language such tables are written in.
import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";

/** `count` rows of eight numbers, each line led by `indent`. */
function rows(count: number, indent = "    "): string {
  return Array.from(
    { length: count },
    (_, i) =>
      indent + Array.from({ length: 8 }, (_, j) => `0x${(i * 8 + j).toString(16)}`).join(", ") +
      ",",
  ).join("\n");
}

const CASES: Array<[string, string, string]> = [
  [
    "src/cp.c",
    `/* code pages */\n#include "ff.h"\nstatic const WCHAR uc437[] = {\n${
      rows(16)
    }\n};\nstatic const unsigned short uc850[128] =\n{\n${rows(16)}\n};\n`,
    "- 2 number tables: 256 elements in 32 rows\n  - `uc437` of `WCHAR`: 128 elements in 16 rows\n  - `uc850` of `unsigned short`: 128 elements in 16 rows",
  ],
  [
    "src/tables.rs",
    `pub static CRC: [u32; 1200] = [\n${rows(150)}\n];\n`,
    "  - `CRC` of `u32`: 1,200 elements in 150 rows",
  ],
  [
    "tables.go",
    `package t\n\nvar crcTable = [...]uint16{\n${rows(20, "\t")}\n}\n`,
    "  - `crcTable` of `uint16`: 160 elements in 20 rows",
  ],
  [
    "Primes.java",
    `class Primes {\n  static final int[] PRIMES = {\n${rows(20)}\n  };\n}\n`,
    "  - `PRIMES` of `int`: 160 elements in 20 rows",
  ],
  [
    "primes.pas",
    `const\n  PrimeNumbers: array[0..159] of Cardinal = (\n${rows(20)}\n  );\n`,
    "  - `PrimeNumbers` of `Cardinal`: 160 elements in 20 rows",
  ],
  [
    "freq.py",
    `# frequency order\nFREQ_ORDER = (\n${rows(20)}\n)\n`,
    "  - `FREQ_ORDER`: 160 elements in 20 rows",
  ],
];

Deno.test("a summary of number tables names each table, its element type, its elements and rows", () => {
  for (const [path, text, expected] of CASES) {
    const summary = summarize(path, text);
    assert.ok(summary.includes(expected), `${path}:\n${summary}`);
  }
});

Deno.test("a summary of number tables lists at most maxNames tables, then how many more", () => {
  const text = Array.from({ length: 5 }, (_, i) => `const int t${i}[] = {\n${rows(10)}\n};`).join(
    "\n",
  );
  const summary = summarize("t.c", text, { maxNames: 3 });
  assert.ok(
    summary.includes("- 5 number tables: 400 elements in 50 rows\n  - `t0` of `int`"),
    summary,
  );
  assert.ok(summary.includes("  - `t2` of `int`: 80 elements in 10 rows\n  - ... 2 more"), summary);
});

Deno.test("code that is no number tables keeps its language's summary", () => {
  const code = Array.from({ length: 40 }, (_, i) => `int step${i}(int x) {\n  return x * ${i};\n}`)
    .join("\n");
  const summary = summarize("src/engine.c", code);
  assert.doesNotMatch(summary, /number table/);
  assert.match(summary, /step0/);
});
