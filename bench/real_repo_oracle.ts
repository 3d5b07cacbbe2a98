/**
 * An oracle for slop on a real checkout: builds it in the views asked for (the CLI, as a user
 * runs it) and checks what must hold on any input. A build exits 0; its fences close; the only
 * headings outside a fence are `## Files` and each file's `### path`; every file `git ls-files`
 * lists is in the manifest once (itself, or a folder row such as a submodule's); a warm build and
 * one under another time zone and locale give the same document and manifest; neither slop's
 * scanner nor an independent list of key shapes finds a secret in the document; a file shown
 * `full` is its text on disk (but for redactions and data URLs); each line a `skeleton` keeps (its
 * body markers aside) is part of a line of the file. Each build is
 * timed (one run on a shared machine: an order of magnitude). See bench/README.md, "Leak hunt:
 * fresh repositories".
 *
 * ```sh
 * deno run -A bench/real_repo_oracle.ts /path/to/a/git/checkout
 * VIEWS=full,outline deno run -A bench/real_repo_oracle.ts /path/to/a/git/checkout
 * ARGS='--budget 32000 --task "fix the parser"' deno run -A bench/real_repo_oracle.ts /path/to/a/git/checkout
 * ```
 *
 * @module
 */

import { redactText } from "../pipeline/_scan.ts";
import { markdownHeadings } from "../tests/_helpers.ts";
import { headingText } from "../pipeline/helpers.ts";

/** Key shapes written here, apart from slop's rules, to check them. */
const INDEPENDENT: Record<string, RegExp> = {
  aws: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  github: /\bgh[pousr]_[A-Za-z0-9]{36}\b/g,
  slack: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  openai: /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/g,
  pem: /-----BEGIN [A-Z ]*PRIVATE KEY-----\s*\n\s*[A-Za-z0-9+/=]{40,}/g,
  google: /\bAIza[0-9A-Za-z_-]{35}\b/g,
  gitlab: /\bglpat-[A-Za-z0-9_-]{20}\b/g,
  stripe: /\b[sr]k_live_[A-Za-z0-9]{20,}/g,
  jwt: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
};

const CLI = new URL("../cli.ts", import.meta.url).pathname;

/** More build arguments from ARGS, split on blanks outside double quotes (`--task "a b"`). */
const EXTRA = [...(Deno.env.get("ARGS") ?? "").matchAll(/"([^"]*)"|(\S+)/g)].map((m) =>
  m[1] ?? m[2]
);

/** One build's output, exit code and seconds. */
async function slop(
  dir: string,
  config: string,
  extra: { env?: Record<string, string>; cold?: boolean },
) {
  const args = ["run", "-A", CLI, "build", "--stdout", "--json", "-c", config, ...EXTRA];
  if (extra.cold) args.push("--no-cache");
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: dir,
    env: { ...extra.env, SLOP_DIR: `${config}.state` },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  const stderr = new TextDecoder().decode(out.stderr);
  return { code: out.code, text: new TextDecoder().decode(out.stdout), seconds, stderr };
}

/** The level-2 headings of slop's sections (the outside sweep checks them too). */
export const SECTIONS = new Set([
  "## Files",
  "## Task",
  "## Task Files",
  "## Screenshots",
  "## Directory Tree",
]);

/** The headings outside fences that are not slop's, and whether a fence is left open. */
function markdownProblems(doc: string, paths: Set<string>): string[] {
  let headings: string[];
  try {
    headings = markdownHeadings(doc);
  } catch (error) {
    return [(error as Error).message];
  }
  // A heading names a file as slop escapes it (`a\nb.py`, `notes \#`, `x\x20`).
  const shown = new Set([...paths].map(headingText));
  return headings.filter((line) =>
    /^#{1,2}(?:[ \t]|$)/.test(line)
      ? !SECTIONS.has(line)
      : line.startsWith("### ") && !shown.has(line.slice(4))
  );
}

/** The manifest without what differs between a cold and a warm build (cache hits). */
function comparable(text: string): string {
  const { manifest, document } = JSON.parse(text);
  for (const file of manifest.files) delete file.cache;
  return JSON.stringify({ manifest, document });
}

/** Every file git lists, each in the manifest once (itself or a folder above it). */
async function unaccounted(dir: string, rows: string[]): Promise<string[]> {
  const out = await new Deno.Command("git", { args: ["ls-files", "-z"], cwd: dir }).output();
  const listed = new TextDecoder().decode(out.stdout).split("\0").filter(Boolean);
  const seen = new Set(rows);
  const twice = rows.filter((p, i) => rows.indexOf(p) !== i);
  const missing = listed.filter((p) => {
    const parts = p.split("/");
    return !parts.some((_, i) => seen.has(parts.slice(0, i + 1).join("/")));
  });
  return [...twice.map((p) => `twice: ${p}`), ...missing.map((p) => `missing: ${p}`)];
}

/** Each file block's fenced text, by the path its heading names. */
function fencedBlocks(doc: string, paths: string[]): Map<string, string> {
  const byHeading = new Map(paths.map((p) => [headingText(p), p]));
  const blocks = new Map<string, string>();
  const lines = doc.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const path = lines[i].startsWith("### ") ? byHeading.get(lines[i].slice(4)) : undefined;
    if (path === undefined) continue;
    let j = i + 1;
    while (j < lines.length && lines[j] === "") j++;
    const open = /^(`{3,}|~{3,})/.exec(lines[j] ?? "")?.[1];
    if (!open) continue;
    const end = lines.findIndex((l, k) => k > j && l === open);
    if (end < 0) continue;
    blocks.set(path, lines.slice(j + 1, end).join("\n"));
    i = end;
  }
  return blocks;
}

/**
 * The marks a skeleton puts where it left code out (a component's template `... (40 lines)`, a run
 * of like statements' `... (28 more User.create! statements)`, a long comment run's `/// ... (91
 * more comment lines)`); the pieces between them are the file's.
 */
const MARKERS =
  /(?:(?:#|--|\/\/)[/!]? )?\.\.\. \([\d,]+ more comment lines\)|\.\.\. \(\d+ lines\)|\.\.\. \([\d,]+ more [^)\n]*statements\)|\{ \.\.\. \}|\/\* \.\.\. \*\/|(?:#|--|\/\/) \.\.\.|\.\.\./g;

/** A file's text: UTF-16 by its byte order mark, else UTF-8 (a byte order mark dropped). */
function textOf(bytes: Uint8Array): string {
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe
    ? "utf-16le"
    : bytes[0] === 0xfe && bytes[1] === 0xff
    ? "utf-16be"
    : undefined;
  return new TextDecoder(utf16 ?? "utf-8", { ignoreBOM: false }).decode(bytes);
}

/** Files shown `full` whose text is not the file's, and skeleton lines that are no part of a line. */
async function content(
  dir: string,
  rows: { path: string; view: string; status: string }[],
  doc: string,
  view: string,
): Promise<{ compared: number; unequal: string[]; invented: string[] }> {
  const shownAs = rows.filter((r) => r.status === "rendered" && r.view === view);
  const blocks = fencedBlocks(doc, shownAs.map((r) => r.path));
  const unequal: string[] = [];
  const invented: string[] = [];
  for (const [path, text] of blocks) {
    let disk: string;
    try {
      disk = textOf(await Deno.readFile(`${dir}/${path}`)).replace(/\r\n?/g, "\n");
    } catch {
      continue;
    }
    if (view === "full") {
      if (
        text !== disk.replace(/\n$/, "") &&
        !/\[REDACTED|base64,|\[base64, |\uFFFD/.test(text + disk)
      ) {
        unequal.push(path);
      }
    } else if (view === "skeleton") {
      const lines = new Set(disk.split("\n").map((l) => l.trim()));
      const all = disk.replace(/\s+/g, " ");
      for (const line of text.split("\n")) {
        if (lines.has(line.trim()) || /\[REDACTED:|\[base64, /.test(line)) continue;
        const pieces = line.split(MARKERS).map((p) => p.trim().replace(/\s+/g, " "));
        if (pieces.some((p) => p && !all.includes(p))) {
          invented.push(`${path}: ${line.slice(0, 80)}`);
        }
      }
    }
  }
  return { compared: blocks.size, unequal, invented };
}

async function check(dir: string, view: string): Promise<Record<string, unknown>> {
  const config = `${await Deno.makeTempDir({ prefix: "slop_oracle_" })}/slop.config.ts`;
  await Deno.writeTextFile(
    config,
    `export default { root: ${JSON.stringify(dir)}, defaultView: ${JSON.stringify(view)} };\n`,
  );
  const cold = await slop(dir, config, { cold: true });
  if (cold.code !== 0) return { view, exit: cold.code, stderr: cold.stderr.slice(0, 400) };
  const warm = await slop(dir, config, {});
  const env = { TZ: "Pacific/Chatham", LANG: "tr_TR.UTF-8", LC_ALL: "tr_TR.UTF-8" };
  const other = await slop(dir, config, { env });
  const { manifest, document } = JSON.parse(cold.text);
  const rows: string[] = manifest.files.map((f: { path: string }) => f.path);
  const { compared, unequal, invented } = await content(dir, manifest.files, document, view);
  const found = (await redactText(document, "document.md")).findings.length;
  const shapes = Object.entries(INDEPENDENT).flatMap(([name, re]) =>
    [...document.matchAll(re)].map((m) => `${name}: ${m[0].slice(0, 12)}…`)
  );
  return {
    view,
    seconds: [cold.seconds, warm.seconds].map((s) => Math.round(s * 10) / 10),
    files: rows.length,
    unaccounted: (await unaccounted(dir, rows)).slice(0, 5),
    markdown: markdownProblems(document, new Set(rows)).slice(0, 5),
    sameWarm: comparable(warm.text) === comparable(cold.text),
    sameLocale: comparable(other.text) === comparable(cold.text),
    compared,
    unequal: [unequal.length, ...unequal.slice(0, 5)],
    invented: [invented.length, ...invented.slice(0, 5)],
    scanner: found,
    shapes: shapes.slice(0, 5),
  };
}

if (import.meta.main) {
  const dir = Deno.args[0];
  if (!dir) throw new Error("Usage: deno run -A bench/real_repo_oracle.ts <git checkout>");
  const views = (Deno.env.get("VIEWS") ?? "full,skeleton,outline,summary,masked").split(",");
  for (const view of views) console.log(JSON.stringify(await check(dir, view)));
}
