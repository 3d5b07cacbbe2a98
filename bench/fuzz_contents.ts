/**
 * File contents and document structure by class: trees of adversarial files (text that collides
 * with the document's own syntax, encodings, shapes, the secret scanner's prefixes, odd names),
 * each built through every view (`full`, `summary`, `skeleton`, `outline`, `masked`, `custom`
 * with fuzzy slices, `none`) and every format (markdown, XML, JSON) by the CLI in a child process
 * with a timeout, twice (cold, then warm), and checked:
 *
 * - the build ends (a hang past the timeout is a fault), exit 0 or an error naming a file;
 * - the second build gives the same document and manifest (a cache mark aside);
 * - the blocks tile the document, each hash its bytes, the tokens add up to the total;
 * - every file of the tree has a manifest row, its size and hash those of the file on disk, and a
 *   rendered row has its block;
 * - markdown: every fence closes and each heading outside a fence is slop's or a file's; XML: one
 *   wrapper a rendered file, none faked by a text; JSON: the document parses, one item a file;
 * - `full`: every line of the decoded file comes back (a redacted line aside), in every format.
 *
 * ```sh
 * deno run -A bench/fuzz_contents.ts                       # every class, view and format
 * deno run -A bench/fuzz_contents.ts --class syntax,names  # some classes
 * deno run -A bench/fuzz_contents.ts --class shape --views full,summary --formats markdown
 * deno run -A bench/fuzz_contents.ts --linear 1000000      # the secret scan at n and 2n
 * ```
 *
 * Prints one line a fault and a summary; exit 1 on any fault.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { sha256 } from "../pipeline/read.ts";
import { headingText, printablePath } from "../pipeline/helpers.ts";
import { CLASSES, type Tree } from "./_fuzz_contents_classes.ts";
import { linearCheck } from "./_fuzz_contents_linear.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));
const VIEWS = ["full", "summary", "skeleton", "outline", "masked", "custom", "cells", "none"];
const FORMATS = ["markdown", "xml", "json"];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Row {
  path: string;
  view: string;
  status: string;
  sha256: string;
  bytes: number;
  fallback?: string;
  cache?: string;
}
interface Built {
  document: string;
  manifest: {
    files: Row[];
    blocks: Array<{ id: string; offset: number; length: number; sha256: string; tokens: number }>;
    total: { bytes: number; tokens: number };
    secrets?: Array<{ path: string }>;
  };
}
interface Run {
  code: number;
  stderr: string;
  built?: Built;
  hung: boolean;
  cpu: number;
}

/** The config that gives every file one view (a custom view's slices fuzzy: stale hashes). */
function configText(view: string): string {
  const entry: Record<string, unknown> = { path: "**", view };
  if (view === "masked") {
    entry.mask = { f: "def", C: "sig", "C.m": "hide" };
    entry.options = { rest: "sig" };
  }
  if (view === "custom") {
    entry.slices = [
      { startLine: 1, endLine: 3, tag: "top" },
      {
        startLine: 2,
        endLine: 40,
        tag: "fuzzy",
        contentHash: "0".repeat(64),
        anchorLines: ["```", "### a.py", "", "</document_content>", "~~~~", "## Files"],
      },
    ];
  }
  // Over the default size limit (10 MB): the 20 MB line is read, not skipped.
  const config = { files: [entry], exclude: ["slop.config.ts"], maxFileSize: 64 * 1024 * 1024 };
  return `export default ${JSON.stringify(config)};\n`;
}

async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, data] of Object.entries(tree)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    if (typeof data === "string") await Deno.writeTextFile(join(root, path), data);
    else await Deno.writeFile(join(root, path), data);
  }
}

/** One CLI build in a child, killed after `timeout` seconds; its CPU from `/proc` children. */
async function build(root: string, state: string, format: string, timeout: number): Promise<Run> {
  const args = ["run", "-A", CLI, "build", "--stdout", "--json", "--format", format, "--no-server"];
  const proc = new Deno.Command(Deno.execPath(), {
    args: [...args, "-q", "--state-dir", state],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { CI: "true", NO_COLOR: "1", TZ: "Z" },
  }).spawn();
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    try {
      proc.kill("SIGKILL");
    } catch { /* gone */ }
  }, timeout * 1000);
  const before = childCpu();
  const [out, err, status] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.status,
  ]);
  clearTimeout(timer);
  let built: Built | undefined;
  try {
    built = status.code === 0 ? JSON.parse(out) : undefined;
  } catch { /* a fault below */ }
  return { code: status.code, stderr: err, built, hung, cpu: childCpu() - before };
}

/** User plus system CPU seconds of this process's waited-for children. */
function childCpu(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** What differs between a cold and a warm build taken out. */
function comparable(built: Built): string {
  const files = built.manifest.files.map((f) => ({ ...f, cache: undefined }));
  return JSON.stringify({ document: built.document, manifest: { ...built.manifest, files } });
}

/** The blocks tile the document, each hash its bytes, and the tokens add up. */
function tilingFaults(built: Built): string[] {
  const faults: string[] = [];
  const bytes = encoder.encode(built.document);
  let at = 0;
  for (const block of built.manifest.blocks) {
    if (block.offset !== at) faults.push(`block ${block.id} starts at ${block.offset}, not ${at}`);
    const part = bytes.subarray(block.offset, block.offset + block.length);
    if (sha256(part) !== block.sha256) faults.push(`block ${block.id}: hash is not its bytes'`);
    at = block.offset + block.length;
  }
  if (at !== bytes.length) faults.push(`blocks end at ${at}, the document at ${bytes.length}`);
  if (built.manifest.total.bytes !== bytes.length) faults.push(`total.bytes is not the length`);
  const sum = built.manifest.blocks.reduce((n, b) => n + b.tokens, 0);
  if (sum !== built.manifest.total.tokens) {
    faults.push(`the blocks count ${sum} tokens, the total ${built.manifest.total.tokens}`);
  }
  return faults;
}

/** Every file has a row with its size and hash, and a rendered row its block. */
function rowFaults(built: Built, tree: Tree): string[] {
  const faults: string[] = [];
  const rows = new Map(built.manifest.files.map((f) => [f.path, f]));
  const ids = new Set(built.manifest.blocks.map((b) => b.id));
  const redacted = new Set((built.manifest.secrets ?? []).map((s) => s.path));
  for (const [path, data] of Object.entries(tree)) {
    const row = rows.get(path);
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    if (!row) {
      faults.push(`${shown(path)}: no manifest row`);
      continue;
    }
    // A file skipped unread (a key file's name) has no hash and no size.
    const unread = row.status === "skipped" && row.sha256 === "" && row.bytes === 0;
    if (row.bytes !== bytes.length && !unread) {
      faults.push(`${shown(path)}: ${row.bytes} bytes in the row`);
    }
    if (row.status === "rendered" && !redacted.has(path) && row.sha256 !== sha256(bytes)) {
      faults.push(`${shown(path)}: the row's sha256 is not the file's`);
    }
    if (row.status === "rendered" && !ids.has(`files:${path}`)) {
      faults.push(`${shown(path)}: rendered without a block`);
    }
  }
  for (const path of rows.keys()) if (!(path in tree)) faults.push(`${shown(path)}: not a file`);
  return faults;
}

function shown(path: string): string {
  return JSON.stringify(path.length > 60 ? `${path.slice(0, 60)}…` : path);
}

const SLOP_HEADINGS = [/^## Files( \(Summary\))?$/, /^## Directory Tree$/];

/**
 * Fences close; a heading outside a fence (ATX, or setext: a line of `=` under text) is slop's or
 * a file's, each rendered file's once (CommonMark's line ends).
 */
function markdownFaults(doc: string, rows: Row[]): string[] {
  const faults: string[] = [];
  const headings = new Map(rows.map((r) => [`### ${headingText(r.path)}`, 0]));
  let open: string | undefined;
  let paragraph = false;
  let html: RegExp | undefined;
  for (const line of doc.split(/\r\n|\r|\n/)) {
    const run = /^ {0,3}(`{3,}|~{3,})(.*)$/s.exec(line);
    if (html) {
      if (html.test(line)) html = undefined;
      continue;
    }
    const start = open ? undefined : htmlBlockEnd(line);
    if (start) {
      // CommonMark's HTML blocks of kinds 1 to 5 run to their end marker, blank lines and all.
      if (!start.test(line.replace(/^ {0,3}<!--|^ {0,3}<\?|^ {0,3}<!\[CDATA\[/, ""))) html = start;
      paragraph = false;
      continue;
    }
    if (open) {
      if (run && run[1][0] === open[0] && run[1].length >= open.length && !run[2].trim()) {
        open = undefined;
      }
      continue;
    }
    if (run && !(run[1][0] === "`" && run[2].includes("`"))) open = run[1];
    else if (/^ {0,3}#{1,3}(?:[ \t]|$)/.test(line)) {
      const h = line.trim();
      if (headings.has(h)) headings.set(h, headings.get(h)! + 1);
      else if (!SLOP_HEADINGS.some((re) => re.test(h))) {
        faults.push(`heading outside a fence: ${JSON.stringify(h.slice(0, 80))}`);
      }
    } else if (paragraph && /^ {0,3}=+[ \t]*$/.test(line)) {
      faults.push(`a setext heading outside a fence`);
    }
    paragraph = !open && line.trim() !== "" && !/^ {4}|^\t/.test(line) && !run;
  }
  if (open !== undefined) faults.push(`the fence ${open.slice(0, 20)} never closes`);
  if (html) faults.push(`an HTML block runs to the end (${html.source})`);
  for (const row of rows) {
    const n = headings.get(`### ${headingText(row.path)}`);
    if (row.status === "rendered" && n !== 1) faults.push(`${shown(row.path)}: ${n} headings`);
  }
  return faults;
}

/** The end marker of the HTML block of kind 1 to 5 a line starts, if it starts one. */
function htmlBlockEnd(line: string): RegExp | undefined {
  if (/^ {0,3}<(script|pre|style|textarea)(?:[\s>]|$)/i.test(line)) {
    return /<\/(script|pre|style|textarea)>/i;
  }
  if (/^ {0,3}<!--/.test(line)) return /-->/;
  if (/^ {0,3}<\?/.test(line)) return /\?>/;
  if (/^ {0,3}<![A-Za-z]/.test(line)) return />/;
  if (/^ {0,3}<!\[CDATA\[/.test(line)) return /\]\]>/;
  return undefined;
}

/** One wrapper a rendered file; a file's text fakes none. */
function xmlFaults(doc: string, rows: Row[]): string[] {
  const faults: string[] = [];
  const rendered = rows.filter((r) => r.status === "rendered").length;
  for (const tag of ["<document ", "</document>", "<document_content>", "</document_content>"]) {
    const n = doc.split(tag).length - 1;
    if (n !== rendered) faults.push(`${n} ${tag} for ${rendered} rendered files`);
  }
  const sources = [...doc.matchAll(/^<source>(.*)<\/source>$/gm)].map((m) => m[1]);
  const want = rows.filter((r) => r.status === "rendered").map((r) => escapeXml(r.path));
  if (JSON.stringify(sources.sort()) !== JSON.stringify(want.sort())) {
    faults.push(`the <source> lines are not the rendered paths`);
  }
  if (doc.split("<documents>").length > 2) faults.push(`more than one <documents>`);
  return faults;
}

function escapeXml(path: string): string {
  const map: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
  return printablePath(path).replace(/[&<>"]/g, (c) => map[c]);
}

interface JsonItem {
  path?: string;
  view?: string;
  content?: string;
}

function jsonItems(doc: string): JsonItem[] | string {
  try {
    const parsed = JSON.parse(doc);
    return parsed.blocks as JsonItem[];
  } catch (e) {
    return `the JSON document does not parse: ${(e as Error).message.slice(0, 80)}`;
  }
}

function jsonFaults(doc: string, rows: Row[]): string[] {
  const items = jsonItems(doc);
  if (typeof items === "string") return [items];
  const paths = items.filter((i) => i.path !== undefined).map((i) => i.path).sort();
  const want = rows.filter((r) => r.status === "rendered").map((r) => r.path).sort();
  return JSON.stringify(paths) === JSON.stringify(want) ? [] : ["the items are not the files"];
}

/** The text slop should show of a file in full: decoded, no mark, LF line ends. */
function expectedText(data: string | Uint8Array): string | undefined {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder("utf-16le").decode(bytes);
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder("utf-16be").decode(bytes);
  else {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
  }
  if (text.includes("\0")) return undefined;
  return text.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
}

/** A full file's shown text in each format, or undefined when it cannot be found. */
function shownText(built: Built, format: string, path: string): string | undefined {
  const block = built.manifest.blocks.find((b) => b.id === `files:${path}`);
  if (!block) return undefined;
  const text = decoder.decode(
    encoder.encode(built.document).subarray(block.offset, block.offset + block.length),
  );
  if (format === "json") {
    const item = JSON.parse(text.replace(/^\{"format"[^\n]*\n|^,\n/, "").replace(/\n\]\}\n$/, ""));
    return item.content;
  }
  if (format === "xml") {
    const m = /<document_content>\n([\s\S]*?)\n?<\/document_content>\n<\/document>\n/.exec(text);
    return m?.[1];
  }
  const lines = text.split("\n");
  const open = lines.findIndex((l) => /^(`{3,}|~{3,})/.test(l));
  if (open < 0) return undefined;
  const fence = /^(`{3,}|~{3,})/.exec(lines[open])![1];
  let close = lines.length - 1;
  while (close > open && lines[close] !== fence) close--;
  return close > open ? lines.slice(open + 1, close).join("\n") : undefined;
}

/** Every line of each full file comes back, in order (a redacted line aside). */
function losslessFaults(built: Built, format: string, tree: Tree): string[] {
  const faults: string[] = [];
  const redacted = new Set((built.manifest.secrets ?? []).map((s) => s.path));
  for (const row of built.manifest.files) {
    if (row.status !== "rendered" || row.view !== "full" || row.fallback) continue;
    const decoded = expectedText(tree[row.path]);
    if (decoded === undefined) continue;
    // XML shows slop's own tags in a text with their `<` escaped (pipeline/formats.ts).
    const want = format === "xml" ? neutralized(decoded) : decoded;
    const got = shownText(built, format, row.path);
    if (got === undefined) {
      faults.push(`${shown(row.path)}: its full text is not found`);
      continue;
    }
    const a = want.replace(/\n+$/, "");
    const b = got.replace(/\n+$/, "");
    if (a === b) continue;
    if (redacted.has(row.path) && sameOutsideRedactions(a, b)) continue;
    faults.push(`${shown(row.path)}: full text differs (${firstDiff(a, b)})`);
  }
  return faults;
}

function neutralized(text: string): string {
  return text.replace(
    /<(\/?)(documents?|source|view|document_content|files)(?![A-Za-z0-9_.-])/g,
    "&lt;$1$2",
  );
}

function sameOutsideRedactions(want: string, got: string): boolean {
  const have = new Set(want.split("\n"));
  return got.split("\n").every((l) => l.includes("[REDACTED:") || have.has(l));
}

function firstDiff(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i} of ${a.length}/${b.length}: ${JSON.stringify(a.slice(i, i + 20))} vs ${
    JSON.stringify(b.slice(i, i + 20))
  }`;
}

function formatFaults(built: Built, format: string): string[] {
  const rows = built.manifest.files;
  if (format === "markdown") return markdownFaults(built.document, rows);
  if (format === "xml") return xmlFaults(built.document, rows);
  return jsonFaults(built.document, rows);
}

/** A failed build's error must name one of the tree's files. */
function failureFaults(run: Run, tree: Tree): string[] {
  if (run.hung) return ["hung past the timeout"];
  const first = run.stderr.trim().split("\n")[0] ?? "";
  const named = Object.keys(tree).some((p) => first.includes(printablePath(p)));
  return [`exit ${run.code}${named ? "" : " without naming a file"}: ${first.slice(0, 160)}`];
}

async function checkCase(tree: Tree, view: string, format: string, timeout: number) {
  const root = await Deno.makeTempDir({ prefix: "slop_contents_" });
  const state = await Deno.makeTempDir({ prefix: "slop_contents_state_" });
  await writeTree(root, tree);
  await Deno.writeTextFile(join(root, "slop.config.ts"), configText(view));
  const cold = await build(root, state, format, timeout);
  const faults: string[] = [];
  let cpu = cold.cpu;
  if (!cold.built) faults.push(...failureFaults(cold, tree));
  else {
    faults.push(...tilingFaults(cold.built), ...rowFaults(cold.built, tree));
    faults.push(...formatFaults(cold.built, format), ...losslessFaults(cold.built, format, tree));
    const warm = await build(root, state, format, timeout);
    cpu += warm.cpu;
    if (!warm.built) faults.push(`warm: ${failureFaults(warm, tree)[0]}`);
    else if (comparable(warm.built) !== comparable(cold.built)) {
      faults.push(
        `the warm build differs: ${firstDiff(comparable(cold.built), comparable(warm.built))}`,
      );
    }
  }
  await Deno.remove(root, { recursive: true });
  await Deno.remove(state, { recursive: true });
  return { faults, cpu, statuses: statusesOf(cold.built) };
}

/** How many rows a build rendered, and each other row's status and reason. */
function statusesOf(built: Built | undefined): string {
  if (!built) return "no build";
  const rows = built.manifest.files as Array<Row & { reason?: string }>;
  const rendered = rows.filter((r) => r.status === "rendered");
  const fell = rendered.filter((r) => r.fallback).map((r) => `${shown(r.path)} ${r.fallback}`);
  const other = rows.filter((r) => r.status !== "rendered")
    .map((r) => `${shown(r.path)} ${r.status}: ${(r.reason ?? "").slice(0, 60)}`);
  return [`${rendered.length} rendered`, ...fell, ...other].join("; ");
}

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      class: { type: "string", default: Object.keys(CLASSES).join(",") },
      views: { type: "string", default: VIEWS.join(",") },
      formats: { type: "string", default: FORMATS.join(",") },
      timeout: { type: "string", default: "120" },
      only: { type: "string", default: "" },
      linear: { type: "string", default: "" },
    },
  });
  if (values.linear) {
    const over = await linearCheck(Number(values.linear), 2.5);
    for (const line of over) console.log(`FAULT ${line}`);
    Deno.exit(over.length ? 1 : 0);
  }
  let total = 0;
  for (const name of values.class.split(",")) {
    for (const [label, tree] of Object.entries(CLASSES[name]())) {
      if (values.only && !new RegExp(values.only).test(label)) continue;
      for (const view of values.views.split(",")) {
        for (const format of values.formats.split(",")) {
          const run = await checkCase(tree, view, format, Number(values.timeout));
          const { faults, cpu } = run;
          total += faults.length;
          const head = `${name}/${label} ${view} ${format}`;
          console.log(
            `${head}: ${faults.length ? "FAULT" : "ok"} (${cpu.toFixed(1)} s CPU; ${run.statuses})`,
          );
          for (const f of faults.slice(0, 8)) console.log(`  ${f}`);
        }
      }
    }
  }
  console.log(`${total} faults`);
  if (total) Deno.exit(1);
}

if (import.meta.main) await main();
