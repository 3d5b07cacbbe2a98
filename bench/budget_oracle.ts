/**
 * An oracle for budgeted and task builds on a real checkout, through the CLI as a user runs it.
 * For each budget (and each task given, and none): the document's o200k tokens are at most the
 * budget and equal the manifest's `total.tokens`; the manifest's blocks tile the document (their
 * byte offsets run from 0 to its end with no gap or overlap, each block's sha256 and the total's
 * are the bytes'); a file shown `full` is its text on disk (but for redactions); a second build
 * gives the same bytes; two builds with different tasks on one budget share the manifest's
 * `prefix` byte for byte, and the prefix's bytes, sha256 and tokens are what the manifest says.
 * One JSON line per budget. See bench/README.md, "Budgets and tasks on real repositories".
 *
 * ```sh
 * deno run -A bench/budget_oracle.ts /path/to/checkout "a commit subject" "another commit subject"
 * BUDGETS=1000,8000 deno run -A bench/budget_oracle.ts /path/to/checkout "fix the parser" "add a flag"
 * ```
 *
 * @module
 */

import { countTokens } from "../pipeline/tokens.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;

interface Block {
  id: string;
  offset: number;
  length: number;
  sha256: string;
  tokens: number;
  stability: string;
}

interface Built {
  code: number;
  stderr: string;
  document: string;
  manifest: {
    files: { path: string; view: string; status: string }[];
    blocks: Block[];
    prefix: { bytes: number; sha256: string; tokens: number };
    total: { bytes: number; sha256: string; tokens: number };
  };
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** One build to stdout with its manifest, with its own state folder (so no order memory leaks). */
async function build(dir: string, state: string, args: string[]): Promise<Built> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "build", "--stdout", "--json", ...args],
    cwd: dir,
    env: { SLOP_DIR: state, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code !== 0) return { code: out.code, stderr, document: "", manifest: undefined! };
  const { document, manifest } = JSON.parse(new TextDecoder().decode(out.stdout));
  return { code: 0, stderr, document, manifest };
}

/** What is wrong with one build's document against its manifest and the files on disk. */
async function problems(dir: string, built: Built, budget: number): Promise<string[]> {
  const found: string[] = [];
  const { document, manifest } = built;
  const bytes = new TextEncoder().encode(document);
  const tokens = await countTokens(document);
  if (tokens > budget) found.push(`over budget: ${tokens} > ${budget}`);
  if (manifest.total.tokens !== tokens) {
    found.push(`total.tokens ${manifest.total.tokens} but the document has ${tokens}`);
  }
  if (manifest.total.bytes !== bytes.length) {
    found.push(`total.bytes ${manifest.total.bytes} but the document has ${bytes.length}`);
  }
  if (manifest.total.sha256 !== await sha256(bytes)) found.push("total.sha256 differs");
  let at = 0;
  for (const block of manifest.blocks) {
    if (block.offset !== at) found.push(`block ${block.id} at ${block.offset}, expected ${at}`);
    const piece = bytes.subarray(block.offset, block.offset + block.length);
    if (block.sha256 !== await sha256(piece)) found.push(`block ${block.id} sha256 differs`);
    at = block.offset + block.length;
  }
  if (at !== bytes.length) found.push(`blocks end at ${at}, the document at ${bytes.length}`);
  const sum = manifest.blocks.reduce((n, b) => n + b.tokens, 0);
  if (sum > budget) found.push(`blocks' tokens sum to ${sum} > ${budget}`);
  const prefix = bytes.subarray(0, manifest.prefix.bytes);
  if (manifest.prefix.sha256 !== await sha256(prefix)) found.push("prefix.sha256 differs");
  const prefixTokens = await countTokens(new TextDecoder().decode(prefix));
  if (manifest.prefix.tokens !== prefixTokens) {
    found.push(`prefix.tokens ${manifest.prefix.tokens} but its bytes have ${prefixTokens}`);
  }
  for (const file of manifest.files.filter((f) => f.view === "full" && f.status === "rendered")) {
    const block = manifest.blocks.find((b) => b.id === `files:${file.path}`);
    if (!block) continue;
    const text = new TextDecoder().decode(
      bytes.subarray(block.offset, block.offset + block.length),
    );
    let disk: string;
    try {
      disk = (await Deno.readTextFile(`${dir}/${file.path}`)).replace(/\r\n?/g, "\n");
    } catch {
      continue;
    }
    const fence = /\n(`{3,}|~{3,})[^\n]*\n(?:([\s\S]*?)\n)?\1\n/.exec(text);
    if (!fence) {
      found.push(`full ${file.path}: no fence`);
      continue;
    }
    const shown = fence[2] ?? "";
    if (shown !== disk.replace(/\n$/, "") && !/\[REDACTED|base64,|\uFFFD/.test(shown + disk)) {
      found.push(`full ${file.path}: not its text on disk`);
    }
  }
  return found;
}

/** Check every budget on `dir` with no task and with each task; print one JSON line per budget. */
async function check(dir: string, budgets: number[], tasks: string[]): Promise<void> {
  const state = await Deno.makeTempDir({ prefix: "slop_budget_oracle_" });
  try {
    for (const budget of budgets) {
      const row: Record<string, unknown> = { dir, budget };
      const runs: [string, Built][] = [];
      for (const task of ["", ...tasks]) {
        const args = ["--budget", String(budget), ...(task ? ["--task", task] : [])];
        const first = await build(dir, `${state}/${budget}_${runs.length}_a`, args);
        if (first.code !== 0) {
          row[task || "(none)"] = { exit: first.code, stderr: first.stderr.slice(0, 300) };
          continue;
        }
        const again = await build(dir, `${state}/${budget}_${runs.length}_b`, args);
        const found = await problems(dir, first, budget);
        if (again.document !== first.document) found.push("second build differs");
        row[task || "(none)"] = {
          tokens: await countTokens(first.document),
          prefix: first.manifest.prefix.bytes,
          full: first.manifest.files.filter((f) => f.view === "full").length,
          problems: found.slice(0, 6),
        };
        runs.push([task, first]);
      }
      const withTask = runs.filter(([task]) => task);
      for (let i = 1; i < withTask.length; i++) {
        const [a, b] = [withTask[0][1], withTask[i][1]];
        const [ea, eb] = [a, b].map((x) => new TextEncoder().encode(x.document));
        const n = a.manifest.prefix.bytes;
        const same = n === b.manifest.prefix.bytes &&
          a.manifest.prefix.sha256 === b.manifest.prefix.sha256 &&
          ea.subarray(0, n).every((v, k) => v === eb[k]);
        row[`shared 1-${i + 1}`] = same ? n : {
          prefixes: [n, b.manifest.prefix.bytes],
          firstDiff: ea.findIndex((v, k) => v !== eb[k]),
        };
      }
      console.log(JSON.stringify(row));
    }
  } finally {
    await Deno.remove(state, { recursive: true });
  }
}

if (import.meta.main) {
  const [dir, ...tasks] = Deno.args;
  if (!dir) throw new Error("Usage: deno run -A bench/budget_oracle.ts <checkout> [task...]");
  const budgets = (Deno.env.get("BUDGETS") ?? "1000,8000,32000,128000").split(",").map(Number);
  await check(dir, budgets, tasks);
}
