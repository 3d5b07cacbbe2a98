// The summary of a data file is its shape: a CSV or TSV file's columns and records (a quoted
// field's line break is no new record), a JSON value's top level, a JSON Lines file's records and
// keys, an XML document's root and elements, a test snapshot file's snapshots; each record cut to
// the summary's line length and kept on its line.
import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { prng } from "../_helpers.ts";

Deno.test("a CSV or TSV summary gives its columns, its record count and its first records", () => {
  const csv = 'name,"note, long",n\r\na,"two\nlines",1\nb,x,2\n\nc,y,3\nd,z,4\n';
  assert.equal(
    summarize("data/t.csv", csv),
    "**CSV**, 4 rows under a header\n- columns (3): `name`, `note, long`, `n`\n" +
      '- `a,"two\\nlines",1`\n- `b,x,2`\n- `c,y,3`',
  );
  assert.equal(
    summarize("t.tsv", "a\tb\n1\t2\n"),
    "**TSV**, 1 row under a header\n- columns (2): `a`, `b`\n- `1\\t2`",
  );
  assert.equal(summarize("empty.csv", ""), "**CSV**, no rows");
  // Rows of white space alone, of any kind (as `trim()` takes it), are no records; a row with
  // anything else (a control character, a lone surrogate) is one.
  const spaces = "a,b\r\n1,2\r\n \t\r\n\u3000\u00a0\ufeff\n\u2028\n\u0001\n\ud800\n3,4";
  assert.equal(
    summarize("s.csv", spaces),
    "**CSV**, 4 rows under a header\n- columns (2): `a`, `b`\n- `1,2`\n- `\\u{1}`\n- `\ud800`",
  );
});

Deno.test("a JSON summary gives an array's count, keys and first items, an object's nested sizes", () => {
  const items = Array.from({ length: 5 }, (_, i) => ({ id: i, tags: ["a"] }));
  assert.equal(
    summarize("items.json", JSON.stringify(items)),
    "**JSON**, 1 line\n- array of 5 objects with keys `id`, `tags`\n" +
      '- first item: `{"id":0,"tags":["a"]}`\n- next item: `{"id":1,"tags":["a"]}`\n' +
      '- next item: `{"id":2,"tags":["a"]}`',
  );
  const wrapped = { data: { total: 2, results: [{ x: 1 }, { x: 2 }] }, ok: true };
  assert.equal(
    summarize("w.json", JSON.stringify(wrapped, null, 2)),
    "**JSON**, 14 lines\n- keys: `data`, `ok`\n- `data`: object of 2 keys: `total`, `results`\n" +
      "  - `results`: array of 2 objects with keys `x`",
  );
  // A JSON file with comments (a tsconfig) keeps its keys by their lines, with no shape.
  assert.equal(
    summarize("tsconfig.json", '{\n  // c\n  "compilerOptions": {}\n}\n'),
    "**JSON**, 4 lines\n- keys: `compilerOptions`",
  );
});

Deno.test("JSON Lines, XML and snapshot summaries; a record that would start markdown stays code", () => {
  assert.equal(
    summarize("log.ndjson", '{"a":1,"b":2}\n{"a":3,"c":4}\nnot json\n'),
    '**JSON Lines**, 3 records\n- keys: `a`, `b`, `c`\n- `{"a":1,"b":2}`\n- `{"a":3,"c":4}`\n- `not json`',
  );
  assert.equal(
    summarize(
      "feed.xml",
      '<?xml version="1.0"?>\n<!-- <x> -->\n<rss><item/><item><t>a</t></item><channel></channel></rss>\n',
    ),
    "**XML**, 3 lines, root `rss`\n- elements under the root: `item × 2`, `channel × 1`",
  );
  const snap = "// Jest Snapshot v1\n\nexports[`app > renders 1`] = `\n<div />\n`;\n\n" +
    "exports[`app > has \\`ticks\\` 1`] = `x`;\n";
  assert.equal(
    summarize("__snapshots__/app.test.ts.snap", snap),
    "**Test snapshots**, 2 snapshots\n- snapshots: `app > renders 1`, ``app > has \\`ticks\\` 1``",
  );
  assert.equal(
    summarize("t.csv", "# h\n## Files\n"),
    "**CSV**, 1 row under a header\n- columns (1): `# h`\n- `## Files`",
  );
});

/** A CSV's records as the plain rule reads them, one character at a time (the reference). */
function recordsByHand(text: string): string[] {
  const records: string[] = [];
  let [start, quoted] = [0, false];
  for (let i = 0; i <= text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if ((c === "\n" && !quoted) || i === text.length) {
      const record = text.slice(start, i).replace(/\r$/, "");
      if (record.trim()) records.push(record);
      start = i + 1;
    }
  }
  return records;
}

Deno.test("a CSV summary counts and shows the records the plain rule reads, quotes and blanks anywhere", () => {
  const chars = ["a", ",", '"', '"', "\n", "\n", "\r", " ", "\t", "\u3000", "b"];
  const next = prng(5);
  for (let k = 0; k < 5000; k++) {
    const n = Math.floor(next() * 40);
    const text = Array.from({ length: n }, () => chars[Math.floor(next() * chars.length)]).join("");
    const records = recordsByHand(text);
    const summary = summarize("t.csv", text);
    if (!records.length) {
      assert.equal(summary, "**CSV**, no rows", JSON.stringify(text));
      continue;
    }
    const rows = records.length - 1;
    assert.ok(
      summary.startsWith(`**CSV**, ${rows} row${rows === 1 ? "" : "s"} under a header\n`),
      `${JSON.stringify(text)}: ${summary}`,
    );
    assert.equal(summary.split("\n").length, 2 + Math.min(rows, 3), JSON.stringify(text));
  }
});
