// A file of number tables is summarized as data by default (over 32 KB): its summary names each
// table, its element type and its elements and rows, in each language such tables are written in.
import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { isNumberRow, isNumberTables } from "../../pipeline/helpers.ts";
import { prng } from "../_helpers.ts";

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

/** The rule as written before the quick look at a line's first word: each line cut and tested. */
function numberTablesByEveryLine(text: string): boolean {
  const lines = text.split("\n");
  const most = lines.length / 4;
  let rows = 0, other = 0;
  for (const line of lines) {
    const end = line.search(/\/\/|\/\*|#/);
    const body = end < 0 ? line : line.slice(0, end);
    if (!body.trim()) {
      if (end >= 0) other++;
      continue;
    }
    if (isNumberRow(body)) rows++;
    else if (++other > most) return false;
  }
  return rows > 0 && rows >= 0.75 * (rows + other);
}

Deno.test("number tables are told as the rule over every line tells them, lines led by words taken at a glance", () => {
  const random = prng(30);
  const kinds = [
    "  0x10, 0x20, 0x30,",
    "\t-1, +2, 3.5e3,",
    "  x = 1",
    "\tdef f(a):",
    "_private = 0",
    "  # a comment",
    "// 1, 2",
    "  /* 3, 4 */",
    "",
    "  ",
    "\u00a0word",
    "\u00a01, 2,",
    "{ 1, 2 },",
    "  1, 2, # three",
    "};",
    "Z9, 1",
    "\r",
    "  7,\r",
  ];
  let tables = 0;
  for (let n = 0; n < 3000; n++) {
    // Mostly rows, or mostly words, so that both verdicts come up.
    const rowsFirst = random() < 0.5;
    const lines = Array.from({ length: 1 + Math.floor(random() * 40) }, () => {
      const pick = rowsFirst && random() < 0.7 ? 0 : Math.floor(random() * kinds.length);
      return kinds[pick];
    });
    const text = lines.join("\n") + (random() < 0.5 ? "\n" : "");
    const told = isNumberTables(text);
    assert.equal(told, numberTablesByEveryLine(text), JSON.stringify(text));
    if (told) tables++;
  }
  assert.ok(tables > 100, `texts told number tables: ${tables}`);
});
