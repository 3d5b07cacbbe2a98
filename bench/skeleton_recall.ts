/**
 * Skeleton recall against ground truth, next to Repomix `--compress` on the
 * same files:
 *
 * - Python: the machine's standard library, top-level `Lib/*.py` (no
 *   site-packages, no tests). Ground truth is Python's own `ast`: every
 *   function and class outside function bodies, with its full signature
 *   text. `exact` = byte-exact lines in source order (indentation included,
 *   so a method stays under its class); `loose` = each line trimmed.
 * - TypeScript: `zod@4.6.7` src/ unpacked from npm. Ground truth is the
 *   TypeScript compiler (`typescript@5.9.3` from npm): every class member's
 *   header, every exported function's header, every interface and type
 *   alias in full (outside function bodies); compared with whitespace
 *   collapsed, in source order.
 * - Bytes: skeleton bytes as a fraction of the full files, for both tools.
 *
 * ```sh
 * deno run -A bench/skeleton_recall.ts [--json]
 * ```
 *
 * @module
 */

import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareCorpora, preparePeer, walkFiles } from "./_corpora.ts";
import { addRecall, pythonDefs, type Recall, recallOf } from "./_recall.ts";
import { renderCode } from "../plugins/view_modes/_code.ts";

const BENCH = dirname(fileURLToPath(import.meta.url));
const CACHE = join(BENCH, ".cache");

/** One corpus's numbers for both tools. */
export interface RecallRow {
  corpus: string;
  files: number;
  /** Ground-truth items. */
  items: number;
  slop: Recall;
  repomix: Recall;
  /** Bytes of the full files, slop's skeletons and Repomix's compressed files. */
  bytes: { full: number; slop: number; repomix: number };
  /** Seconds slop took to parse and render every file (one run, in process). */
  slopSeconds: number;
}

async function run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(
      `[bench] "${cmd} ${args.join(" ")}" failed: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
}

/** Run `repomix --compress` over a folder; returns each file's compressed text by relative path. */
async function repomixCompress(dir: string): Promise<Map<string, string>> {
  const peer = await preparePeer(CACHE);
  const out = await Deno.makeTempFile({ prefix: "slop_recall_", suffix: ".md" });
  await run("node", [peer.bin, dir, "--style", "markdown", "--compress", "-o", out, "--quiet"]);
  const text = await Deno.readTextFile(out);
  await Deno.remove(out);
  const files = new Map<string, string>();
  const sections = text.split(/^## File: /m).slice(1);
  for (const section of sections) {
    const nl = section.indexOf("\n");
    const path = section.slice(0, nl).trim();
    const body = section.slice(nl + 1);
    const fence = /^(`{3,})[^\n]*\n/.exec(body);
    if (!fence) continue;
    const start = fence[0].length;
    const end = body.lastIndexOf(`\n${fence[1]}`);
    files.set(path, body.slice(start, end === -1 ? undefined : end + 1));
  }
  return files;
}

/** Top-level `Lib/*.py` of the local python3 copied into a fresh git folder. */
async function pythonTopLevel(): Promise<{ dir: string; files: string[] } | undefined> {
  let stdlib: string;
  try {
    const out = await new Deno.Command("python3", {
      args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
      stdout: "piped",
    }).output();
    stdlib = new TextDecoder().decode(out.stdout).trim();
  } catch {
    return undefined;
  }
  const dir = join(CACHE, "corpora", "python-toplevel");
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  const files: string[] = [];
  for await (const entry of Deno.readDir(stdlib)) {
    if (!entry.isFile || !entry.name.endsWith(".py")) continue;
    await Deno.copyFile(join(stdlib, entry.name), join(dir, entry.name));
    files.push(join(dir, entry.name));
  }
  await run("git", ["init", "-q", dir]);
  return { dir, files: files.sort() };
}

async function pythonRow(): Promise<RecallRow | undefined> {
  const corpus = await pythonTopLevel();
  if (!corpus) return undefined;
  const defs = await pythonDefs(corpus.files);
  if (!defs) return undefined;
  const peer = await repomixCompress(corpus.dir);
  const slop: Recall[] = [];
  const repomix: Recall[] = [];
  const bytes = { full: 0, slop: 0, repomix: 0 };
  let seconds = 0;
  const enc = new TextEncoder();
  for (const file of Object.keys(defs).sort()) {
    const text = (await Deno.readTextFile(file)).replace(/\r\n?/g, "\n");
    const t0 = performance.now();
    const view = await renderCode(file, text);
    seconds += (performance.now() - t0) / 1000;
    const peerText = peer.get(basename(file)) ?? "";
    bytes.full += enc.encode(text).length;
    bytes.slop += enc.encode(view?.text ?? "").length;
    bytes.repomix += enc.encode(peerText).length;
    slop.push(recallOf(view?.text ?? "", defs[file], `${basename(file)}:`));
    repomix.push(recallOf(peerText, defs[file], `${basename(file)}:`));
  }
  const s = addRecall(slop);
  return {
    corpus: "python stdlib Lib/*.py",
    files: Object.keys(defs).length,
    items: s.total,
    slop: s,
    repomix: addRecall(repomix),
    bytes,
    slopSeconds: seconds,
  };
}

/** Ground truth of a TypeScript file: headers of members, exported functions, whole types. */
async function tsItems(path: string, text: string): Promise<string[]> {
  const ts = (await import("npm:typescript@5.9.3")).default;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const items: Array<[number, string]> = [];
  const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
  const header = (
    node: import("npm:typescript@5.9.3").Node,
    stop?: import("npm:typescript@5.9.3").Node,
  ) => collapse(text.slice(node.getStart(sf), stop ? stop.getStart(sf) : node.getEnd()));
  const exported = (node: import("npm:typescript@5.9.3").Node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const visit = (node: import("npm:typescript@5.9.3").Node) => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      for (const m of node.members) {
        if (ts.isSemicolonClassElement(m)) continue;
        const body = (m as { body?: import("npm:typescript@5.9.3").Node }).body;
        const init = ts.isPropertyDeclaration(m) ? m.initializer : undefined;
        let h = header(m, body ?? init);
        if (init) h = h.replace(/\s*=$/, "");
        items.push([m.getStart(sf), h.replace(/;$/, "")]);
      }
    } else if (ts.isFunctionDeclaration(node) && exported(node)) {
      items.push([node.getStart(sf), header(node, node.body).replace(/;$/, "")]);
    } else if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
      items.push([node.getStart(sf), header(node)]);
    }
    // Declarations inside function bodies are not part of a file's skeleton.
    if (ts.isFunctionLike(node)) return;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return items.sort((a, b) => a[0] - b[0]).map(([, h]) => h);
}

function tsRecall(output: string, items: string[], label: string): Recall {
  const text = output.replace(/\s+/g, " ");
  const result: Recall = { total: items.length, exact: 0, loose: 0, missed: [] };
  let at = 0;
  for (const item of items) {
    const i = text.indexOf(item, at);
    if (i !== -1) {
      result.loose++;
      at = i + 1;
    } else if (result.missed.length < 50) result.missed.push(`${label}${item.slice(0, 80)}`);
  }
  result.exact = result.loose;
  return result;
}

async function zodRow(): Promise<RecallRow | undefined> {
  const corpora = await prepareCorpora(CACHE, (m) => console.error(`recall: ${m}`));
  const zod = corpora.find((c) => c.name === "zod-src");
  if (!zod) return undefined;
  const peer = await repomixCompress(zod.dir);
  const files = (await walkFiles(zod.dir)).filter((f) => /\.(ts|tsx|mts|cts)$/.test(f));
  const slop: Recall[] = [];
  const repomix: Recall[] = [];
  const bytes = { full: 0, slop: 0, repomix: 0 };
  let seconds = 0;
  const enc = new TextEncoder();
  for (const file of files) {
    const rel = relative(zod.dir, file);
    const text = (await Deno.readTextFile(file)).replace(/\r\n?/g, "\n");
    const items = await tsItems(file, text);
    const t0 = performance.now();
    const view = await renderCode(file, text);
    seconds += (performance.now() - t0) / 1000;
    const peerText = peer.get(rel) ?? "";
    bytes.full += enc.encode(text).length;
    bytes.slop += enc.encode(view?.text ?? "").length;
    bytes.repomix += enc.encode(peerText).length;
    slop.push(tsRecall(view?.text ?? "", items, `${rel}: `));
    repomix.push(tsRecall(peerText, items, `${rel}: `));
  }
  const s = addRecall(slop);
  return {
    corpus: "zod@4.6.7 src/",
    files: files.length,
    items: s.total,
    slop: s,
    repomix: addRecall(repomix),
    bytes,
    slopSeconds: seconds,
  };
}

/**
 * The results as a markdown table.
 *
 * @example
 * ```ts
 * import { recallTable } from "./skeleton_recall.ts";
 * // console.log(recallTable(rows));
 * ```
 */
export function recallTable(rows: RecallRow[]): string {
  const pct = (n: number, d: number) => d ? `${(100 * n / d).toFixed(1)}%` : "-";
  return [
    "| corpus | files | items | slop exact | slop loose | Repomix exact | Repomix loose | slop bytes / full | Repomix bytes / full |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) =>
      `| ${r.corpus} | ${r.files} | ${r.items} | ${pct(r.slop.exact, r.items)} | ${
        pct(r.slop.loose, r.items)
      } | ${pct(r.repomix.exact, r.items)} | ${pct(r.repomix.loose, r.items)} | ${
        (r.bytes.slop / r.bytes.full).toFixed(3)
      } | ${(r.bytes.repomix / r.bytes.full).toFixed(3)} |`
    ),
  ].join("\n");
}

/**
 * Measure both corpora (a corpus that cannot be prepared is skipped with a message).
 *
 * @example
 * ```ts
 * import { skeletonRecall } from "./skeleton_recall.ts";
 * // const rows = await skeletonRecall(console.error);
 * ```
 */
export async function skeletonRecall(log: (message: string) => void): Promise<RecallRow[]> {
  const rows: RecallRow[] = [];
  const py = await pythonRow();
  if (py) rows.push(py);
  else log("recall: skipped python: no python3");
  const zod = await zodRow();
  if (zod) rows.push(zod);
  else log("recall: skipped zod: npm unreachable");
  return rows;
}

async function main(): Promise<void> {
  const rows = await skeletonRecall((m) => console.error(m));
  if (Deno.args.includes("--json")) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  console.log(recallTable(rows));
  for (const r of rows) {
    console.log(`\n${r.corpus}: slop parsed and rendered in ${r.slopSeconds.toFixed(1)} s`);
    console.log(`slop misses (first 10): ${r.slop.missed.slice(0, 10).join("; ") || "none"}`);
    console.log(`Repomix misses (first 10): ${r.repomix.missed.slice(0, 10).join("; ") || "none"}`);
  }
}

if (import.meta.main) await main();
