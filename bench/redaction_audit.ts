/**
 * What the secret scan redacts in real trees, value by value: each folder's files (walked as a
 * build outside git walks them: nested `.gitignore` files honoured, binaries skipped) are scanned
 * as a build scans them (`redactText`, slop's rules and secretlint's), and each `[REDACTED:…]`
 * is lined up with the original text to print the rule, `file:line` and the value it replaced.
 * For reading by a person who sorts real credentials, test credentials and code that is not a
 * secret; never run it on a tree whose secrets should not be printed.
 *
 * ```sh
 * deno run -A bench/redaction_audit.ts /tmp/x/redis /tmp/x/express
 * deno run -A bench/redaction_audit.ts --scan /work/main/pipeline/_scan.ts /tmp/x/redis
 * deno run -A bench/redaction_audit.ts --counts /tmp/x/redis
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { join } from "node:path";
import { walk } from "../pipeline/_walk.ts";
import { decodeText } from "../pipeline/_text_decode.ts";

interface Scanner {
  redactText(text: string, path: string): Promise<{ text: string }>;
}

/** One redacted value: its rule, 1-based line and the original text it replaced. */
export interface Redacted {
  rule: string;
  line: number;
  value: string;
}

const MARK = /\[REDACTED:([^\]\s]{1,80})\]/g;
/** Files past this size are left out (a build lists them too, but they are data, not code). */
const MAX_BYTES = 2_000_000;

/**
 * The values `redacted` replaced in `original`: the text between two marks is copied as is, so
 * each value runs from where the copy before it ends to where the copy after it starts again.
 * A value over several lines (a marker on each of its lines since secret rules 60) is one value:
 * two marks of one rule with only line ends, blanks, quotes and joining marks between are one.
 * `undefined` when the texts do not line up.
 *
 * @example
 * ```ts
 * import { redactedValues } from "./redaction_audit.ts";
 * redactedValues("a = s3cr3t;\n", "a = [REDACTED:password];\n");
 * // [{ rule: "password", line: 1, value: "s3cr3t" }]
 * ```
 */
export function redactedValues(original: string, redacted: string): Redacted[] | undefined {
  const marks = [...redacted.matchAll(MARK)];
  const out: Array<Redacted & { start: number; end: number }> = [];
  let from = 0; // in `redacted`
  let at = 0; // in `original`
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i];
    const before = redacted.slice(from, m.index);
    if (!original.startsWith(before, at)) return undefined;
    const start = at + before.length;
    const after = redacted.slice(m.index! + m[0].length, marks[i + 1]?.index ?? redacted.length);
    const end = i + 1 < marks.length
      ? original.indexOf(after, start + 1)
      : original.length - after.length;
    if (end < start || !original.endsWith(after) && i + 1 === marks.length) return undefined;
    const last = out[out.length - 1];
    if (last && last.rule === m[1] && ONE_VALUE_GAP.test(original.slice(last.end, start))) {
      last.end = end;
      last.value = original.slice(last.start, end);
    } else {
      const value = original.slice(start, end);
      out.push({ rule: m[1], line: lineOf(original, start), value, start, end });
    }
    from = m.index! + m[0].length;
    at = end;
  }
  if (original.slice(at) !== redacted.slice(from)) return undefined;
  return out.map(({ rule, line, value }) => ({ rule, line, value }));
}

/** Between two lines' marks of one value: line ends, blanks, quotes, joining marks, a `\\`. */
const ONE_VALUE_GAP =
  /^[ \t"'`+.&\\,-]{0,64}(?:(?:\r\n|[\n\r\v\f\x85\u2028\u2029])[ \t"'`+.&\\,-]{0,64})+$/;

function lineOf(text: string, at: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

async function audit(root: string, scanner: Scanner, counts: Map<string, number>): Promise<void> {
  for (const path of await walk(root)) {
    let bytes: Uint8Array;
    try {
      if ((await Deno.lstat(join(root, path))).size > MAX_BYTES) continue;
      bytes = await Deno.readFile(join(root, path));
    } catch {
      continue; // a symlink to nowhere, a folder name that cannot be opened
    }
    const decoded = await decodeText(bytes);
    if (!("text" in decoded)) continue;
    const { text } = await scanner.redactText(decoded.text, path);
    if (text === decoded.text) continue;
    const values = redactedValues(decoded.text, text);
    if (!values) {
      console.log(`?\t${root}/${path}\t(could not line up)`);
      continue;
    }
    for (const v of values) {
      counts.set(v.rule, (counts.get(v.rule) ?? 0) + 1);
      const shown = v.value.length > 160 ? `${v.value.slice(0, 160)}…` : v.value;
      if (!flags.counts) {
        console.log(`${v.rule}\t${root}/${path}:${v.line}\t${JSON.stringify(shown)}`);
      }
    }
  }
}

const { values: flags, positionals } = parseArgs({
  args: Deno.args,
  options: { scan: { type: "string" }, counts: { type: "boolean", default: false } },
  allowPositionals: true,
});

if (import.meta.main) {
  const module = flags.scan
    ? new URL(flags.scan, `file://${Deno.cwd()}/`).href
    : new URL("../pipeline/_scan.ts", import.meta.url).href;
  const scanner: Scanner = await import(module);
  for (const root of positionals) {
    const counts = new Map<string, number>();
    await audit(root.replace(/\/+$/, ""), scanner, counts);
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const byRule = [...counts].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`);
    console.log(`# ${root}: ${total} redacted (${byRule.join(", ") || "none"})`);
  }
}
