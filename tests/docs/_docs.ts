/**
 * What the documentation tests share: the pages (README.md, every
 * `docs/*.md` and `bench/README.md`) parsed, a clean-environment Deno runner,
 * and the checker of command lines against the command tree cli.ts defines.
 *
 * @module
 */

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type CommandSpec, findOption, operandsOf, type ProgramSpec } from "../../cli/_args.ts";
import { main } from "../../cli.ts";
import { REPO } from "../_helpers.ts";
import { codeSpans, type Fence, type Parsed, parseMarkdown, shellWords } from "./_markdown.ts";

/** One Markdown page of the documentation. */
export interface Page {
  /** Its path from the repository root, with `/`: `README.md`, `docs/cli.md`, ... */
  path: string;
  text: string;
  doc: Parsed;
}

function load(path: string): Page {
  const text = readFileSync(join(REPO, path), "utf8");
  return { path, text, doc: parseMarkdown(text) };
}

/** The user documentation: README.md, then every page under `docs/` by name. */
export const USER_PAGES: Page[] = [
  load("README.md"),
  ...readdirSync(join(REPO, "docs")).filter((n) => n.endsWith(".md")).sort()
    .map((n) => load(`docs/${n}`)),
];

/** Every page the checks read: the user pages and the measurements in `bench/README.md`. */
export const PAGES: Page[] = [...USER_PAGES, load("bench/README.md")];

/** The page at `path` (from the repository root). */
export function page(path: string): Page {
  const found = PAGES.find((p) => p.path === path);
  assert.ok(found, `no page ${path}`);
  return found;
}

/** The repository's deno.json tasks. */
export const TASKS: Record<string, string> = JSON.parse(
  readFileSync(join(REPO, "deno.json"), "utf8"),
).tasks;

/** What the docs' runs keep of this process's environment (the rest is cleared). */
const KEPT_ENV = ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "TZ", "TMPDIR", "SLOP_CACHE_HOME"];

/**
 * How this machine reaches the npm registry: a fresh `DENO_DIR` makes the runs fetch package
 * metadata, which fails behind a proxy or a private certificate authority without these.
 */
const NETWORK_ENV = [
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "DENO_AUTH_TOKENS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "NPM_CONFIG_REGISTRY",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
];

/** Run a Deno subcommand with a clean environment: no API keys, so nothing can reach a provider. */
export async function deno(
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of [...KEPT_ENV, ...NETWORK_ENV]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Run `jobs` two at a time (the machine is small and shared). */
export async function pool<T>(jobs: (() => Promise<T>)[], width = 2): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/** The bare block that follows the paragraph of `on` containing `after`. */
export function blockAfter(on: Page, after: string): Fence {
  const line = on.text.split("\n").findIndex((l) => l.includes(after)) + 1;
  assert.ok(line > 0, `${on.path}: ${after}`);
  const fence = on.doc.fences.find((f) => f.line > line);
  assert.ok(fence, `${on.path}: a block after ${after}`);
  return fence;
}

/** The rows of the table on `on` whose header cells are `header`, as trimmed cells. */
export function table(on: Page, header: string[]): string[][] {
  const lines = on.text.split("\n");
  const cells = (line: string) => line.trim().replace(/^\||\|$/g, "").split(/(?<!\\)\|/);
  const start = lines.findIndex((l) =>
    l.startsWith("|") && JSON.stringify(cells(l).map((c) => c.trim())) === JSON.stringify(header)
  );
  assert.ok(start >= 0, `${on.path}: a table with columns ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(cells(line).map((c) => c.trim()));
  }
  return rows;
}

// ---- command lines --------------------------------------------------------------------------

let PROGRAM: ProgramSpec | undefined;
await main([], { inspect: (program) => PROGRAM = program });
/** The command tree of cli.ts. */
export const program: ProgramSpec = PROGRAM!;
const DEFAULT_COMMAND = program.defaultCommand;
const HELP = new Set(["-h", "--help"]);

/**
 * Commands the docs name that another branch adds (`slop mcp`). A line naming one is checked in
 * full once cli.ts defines it; until then only the rest of the docs is. Empty this list once the
 * branches are merged.
 */
export const AWAITED_COMMANDS: readonly string[] = [];

/** The leaf commands of cli.ts by their path ("build", "cache stats", ...). */
export function leaves(
  cmd: CommandSpec = program,
  prefix: string[] = [],
): Map<string, CommandSpec> {
  const out = new Map<string, CommandSpec>();
  for (const sub of cmd.commands ?? []) {
    const path = [...prefix, sub.name];
    if (sub.commands) { for (const [k, v] of leaves(sub, path)) out.set(k, v); }
    else out.set(path.join(" "), sub);
  }
  return out;
}

/** Resolve `words` (after `slop`) to a command; the problems with its flags and operands. */
export function checkSlop(words: string[]): { path: string; problems: string[] } {
  const clean = words.map((w) => w.replace(/^\[+|\]+$/g, "").replace(/\.\.\.$/, ""))
    .filter((w) => w !== "");
  if (clean.length === 1 && ["--version", "-V"].includes(clean[0])) {
    return { path: "", problems: [] };
  }
  if (
    AWAITED_COMMANDS.includes(clean[0]) && !program.commands?.some((c) => c.name === clean[0])
  ) {
    return { path: clean[0], problems: [] };
  }
  let cmd: CommandSpec = program;
  const path: string[] = [];
  let i = 0;
  for (; i < clean.length; i++) {
    const sub = cmd.commands?.find((c) => c.name === clean[i]);
    if (!sub) break;
    cmd = sub;
    path.push(sub.name);
  }
  const problems: string[] = [];
  if (cmd === program) {
    if (i < clean.length && /^[a-z]/.test(clean[i])) {
      problems.push(`unknown command "${clean[i]}"`);
    }
    cmd = program.commands!.find((c) => c.name === DEFAULT_COMMAND)!;
    path.push(cmd.name);
  }
  if (cmd.commands) problems.push(`"slop ${path.join(" ")}" needs a subcommand`);
  const operands: string[] = [];
  for (; i < clean.length; i++) {
    const word = clean[i];
    if (!word.startsWith("-") || word === "-") {
      operands.push(word);
      continue;
    }
    const [flag, inline] = word.startsWith("--") ? word.split("=", 2) : [word, undefined];
    if (HELP.has(flag)) continue;
    const option = findOption(cmd, flag);
    if (!option) problems.push(`unknown option "${flag}" of "slop ${path.join(" ")}"`);
    else if (option.takesValue && inline === undefined) {
      if (i + 1 >= clean.length) problems.push(`"${flag}" needs a value`);
      i++;
    }
  }
  const args = operandsOf(cmd);
  if (!args.some((a) => a.variadic) && operands.length > args.length) {
    problems.push(`"slop ${path.join(" ")}" takes ${args.length} operands, got ${operands}`);
  }
  // A bare command name in the prose ("`slop slice add` takes ...") names the command.
  const named = i === path.length && clean.length === path.length;
  if (!named && operands.length < args.filter((a) => a.required).length) {
    problems.push(`"slop ${path.join(" ")}" needs ${args.map((a) => a.name)}`);
  }
  return { path: path.join(" "), problems };
}

/** Check one command line as a user would type it; returns its problems (empty when fine). */
export function checkLine(line: string): string[] {
  let words = shellWords(line);
  if (words[0] === "npx") words = words.slice(words.findIndex((w) => /^deno(@|$)/.test(w)));
  if (/^deno@/.test(words[0] ?? "")) words[0] = "deno";
  if (words[0] === "slop") {
    return /^[a-z-]/.test(words[1] ?? "-") ? checkSlop(words.slice(1)).problems : [];
  }
  if (words[0] !== "deno") return [];
  if (words[1] === "task") {
    const rest = words.slice(2).filter((w) => !/^-q$|^--quiet$/.test(w));
    const task = rest[0];
    if (task === undefined || /^(\.\.\.|<)/.test(task)) return []; // "deno task <name>"
    if (!(task in TASKS)) return [`unknown task "${task}"`];
    if (task === "slop") return checkSlop(rest.slice(1)).problems;
    if (TASKS[task].includes("cli.ts") && rest.length > 1) {
      return checkSlop([...TASKS[task].split(" cli.ts ")[1].split(" "), ...rest.slice(1)])
        .problems;
    }
    return [];
  }
  if (words[1] === "run") {
    const script = words.findIndex((w) => /\.ts$/.test(w));
    if (script < 0) return [];
    if (/(^|\/)cli\.ts$/.test(words[script])) return checkSlop(words.slice(script + 1)).problems;
    const path = words[script];
    if (!path.startsWith("/") && !path.startsWith("..") && !existsSync(join(REPO, path))) {
      return [`no such script "${path}"`];
    }
  }
  if (words[1] === "install") {
    // `deno install -g ... <where>/cli.ts`: the installed command is slop's cli.ts.
    const script = words.find((w) => /\.ts$/.test(w));
    if (script !== undefined && !/(^|\/)cli\.ts$/.test(script)) {
      return [`"deno install" of "${script}", not slop's cli.ts`];
    }
  }
  return [];
}

/** Every command line of `pages`: lines of sh blocks and code spans in the prose. */
export function commandLines(pages: Page[] = PAGES): { line: string; where: string }[] {
  const out: { line: string; where: string }[] = [];
  for (const p of pages) {
    for (const fence of p.doc.fences.filter((f) => f.info === "sh")) {
      fence.body.split("\n").forEach((line, i) => {
        if (line.trim() && !line.trim().startsWith("#")) {
          out.push({ line, where: `${p.path} line ${fence.line + 1 + i}` });
        }
      });
    }
    for (const paragraph of p.doc.paragraphs) {
      for (const span of codeSpans(paragraph)) {
        if (/^(slop [a-z-]|deno (task|run|install) |npx )/.test(span)) {
          out.push({ line: span, where: `${p.path}: span \`${span}\`` });
        }
      }
    }
  }
  return out;
}
