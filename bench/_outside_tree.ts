/**
 * One tree of the outside sweep (`bench/outside_sweep.ts` starts this once per repository): clones
 * a bare mirror twice, plants files a build must not show (ignored canaries, credentials in a
 * config and in code), then builds in-process through the command line's own functions
 * (`runBuild`, `renderPayload`, `runCheck`) in several configurations and checks what must hold
 * on any input. Prints one JSON line per check that failed (`{ tree, config, check, detail }`),
 * then one `{ tree, done, builds, seconds }` line.
 *
 * ```sh
 * deno run -A bench/_outside_tree.ts /work/.mirror/pallets+click/repo /tmp/outside29/click
 * ```
 *
 * @module
 */

import { runBuild } from "../cli/build.ts";
import { renderPayload } from "../cli/payload.ts";
import { runCheck } from "../cli/check.ts";
import type { Terminal } from "../cli/_terminal.ts";
import { countTokens } from "../pipeline/tokens.ts";
import { redactText } from "../pipeline/_scan.ts";
import { headingText } from "../pipeline/helpers.ts";
import { markdownHeadings } from "../tests/_helpers.ts";
import { SECTIONS } from "./real_repo_oracle.ts";
import type { Manifest } from "../pipeline/types.ts";

const [mirror, work, name] = Deno.args;
/** The tree's name: given by the sweep, else the mirror's folder (`owner+name/repo[/.git]`). */
const tree = name ??
  mirror.replace(/\/(?:\.git\/?)?$/, "").replace(/\/repo$/, "").split("/").at(-1)!;
/** Seconds one build may take before it counts as a hang. */
const BUILD_LIMIT = Number(Deno.env.get("BUILD_LIMIT") ?? 240);
const started = performance.now();
let builds = 0;
/** Each build's configuration and wall seconds, for the slowest in the `done` line. */
const times: [string, number][] = [];

function fail(config: string, check: string, detail: unknown): void {
  console.log(JSON.stringify({ tree, config, check, detail }));
}

async function git(args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  return new TextDecoder().decode(out.stdout);
}

// ---------------------------------------------------------------------------
// What is planted: values made from a fixed seed, the same in both copies.

let seed = 2929;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const pick = (al: string, n: number) =>
  Array.from({ length: n }, () => al[Math.floor(rnd() * al.length)]).join("");
const UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const SECRETS = {
  aws: "AKIA" + pick(UP, 16),
  awsSecret: pick(AN + "/+", 40),
  github: "ghp_" + pick(AN, 36),
  slack: "xoxb-" + pick("0123456789", 12) + "-" + pick("0123456789", 12) + "-" + pick(AN, 24),
  stripe: "sk_live_" + pick(AN, 24),
  google: "AIza" + pick(AN + "_-", 35),
  openai: "sk-proj-" + pick(AN, 40),
  gitlab: "glpat-" + pick(AN, 20),
  password: pick(AN, 10) + "!" + pick(AN, 5),
  pem: Array.from({ length: 6 }, () => pick(AN + "+/", 64)).join("\n"),
};
const CANARY = "OUTSIDE29IGNORED" + pick(UP, 12);

/** Where the planted credentials go: a config file and code files whose views keep constants. */
function plantedFiles(): Record<string, string> {
  const s = SECRETS;
  return {
    "outside29_probe/settings.yml": [
      "aws:",
      `  access_key_id: ${s.aws}`,
      `  secret_access_key: ${s.awsSecret}`,
      `github_token: ${s.github}`,
      `slack_bot_token: ${s.slack}`,
      `database_url: postgres://admin:${s.password}@db.internal:5432/app`,
      "",
    ].join("\n"),
    "outside29_probe/keys.py": [
      `STRIPE_SECRET_KEY = "${s.stripe}"`,
      `GOOGLE_API_KEY = "${s.google}"`,
      "",
      "def client():",
      `    return Client(token="${s.openai}")`,
      "",
    ].join("\n"),
    "outside29_probe/keys.ts": [
      `export const GITLAB_TOKEN = "${s.gitlab}";`,
      `export const AWS_KEY = { id: "${s.aws}", secret: "${s.awsSecret}" };`,
      "export function connect(): string {",
      `  return "${s.github}";`,
      "}",
      "",
    ].join("\n"),
    "outside29_probe/deploy.pem": "-----BEGIN RSA PRIVATE KEY-----\n" + s.pem +
      "\n-----END RSA PRIVATE KEY-----\n",
  };
}

/** Paths that a common `.gitignore` ignores: the ones this tree's rules do get the canary. */
const IGNORED_CANDIDATES = [
  ".env",
  ".env.local",
  "node_modules/outside29/index.js",
  "dist/outside29.js",
  "build/outside29.txt",
  "target/outside29.txt",
  "__pycache__/outside29.py",
  "vendor/outside29/a.go",
  "coverage/outside29.json",
  "debug.log",
  "npm-debug.log",
  ".DS_Store",
  "outside29.pyc",
  ".idea/workspace.xml",
  ".vscode/settings.json",
  "tmp/outside29.txt",
  "out/outside29.txt",
  "bin/outside29",
  "obj/outside29.cs",
  "venv/outside29.py",
  ".venv/outside29.py",
  "local.properties",
  "outside29.swp",
];

/** Plants the ignored canaries; returns the paths that git ignores (the rest are removed again). */
async function plantIgnored(dir: string): Promise<string[]> {
  const candidates = [...IGNORED_CANDIDATES];
  // A nested .gitignore's plain names (no wildcard, no negation) are candidates in its folder.
  const listed = (await git(["ls-files", "-z", "--", "*.gitignore"], dir)).split("\0")
    .filter((p) => p.endsWith(".gitignore") && p.includes("/")).slice(0, 5);
  for (const file of listed) {
    const folder = file.slice(0, -".gitignore".length);
    const lines = (await Deno.readTextFile(`${dir}/${file}`).catch(() => "")).split("\n")
      .map((l) => l.trim()).filter((l) => l && !/[*?[\]!#\\ ]/.test(l) && !l.includes(".."));
    for (const line of lines.slice(0, 2)) {
      const name = line.replace(/^\//, "").replace(/\/$/, "");
      if (name) {
        candidates.push(line.endsWith("/") ? `${folder}${name}/outside29.txt` : folder + name);
      }
    }
  }
  // `.git/info/exclude` is git's own ignore file: always a candidate that holds.
  await Deno.writeTextFile(`${dir}/.git/info/exclude`, "outside29-excluded/\n", { append: true });
  candidates.push("outside29-excluded/notes.md");
  const made: string[] = [];
  for (const path of candidates) {
    const full = `${dir}/${path}`;
    try {
      await Deno.lstat(full);
      continue; // the tree has it: leave it alone
    } catch { /* absent: plant it */ }
    const folder = full.slice(0, full.lastIndexOf("/"));
    let created: string | undefined;
    try {
      await Deno.lstat(folder);
    } catch {
      created = folder;
    }
    try {
      await Deno.mkdir(folder, { recursive: true });
      await Deno.writeTextFile(full, `canary ${CANARY} in ${path}\n`);
    } catch {
      continue;
    }
    const ignored = await new Deno.Command("git", {
      args: ["check-ignore", "-q", "--", path],
      cwd: dir,
    }).output();
    if (ignored.code === 0) made.push(path);
    else await Deno.remove(created ?? full, { recursive: true });
  }
  return made;
}

// ---------------------------------------------------------------------------
// Builds.

interface Built {
  code: number;
  stderr: string;
  manifest?: Manifest;
  document?: string;
  seconds: number;
}

/** Races `work` against the build limit: a hang is reported and this process ends. */
async function limited<T>(config: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("hang")), BUILD_LIMIT * 1000);
  });
  try {
    return await Promise.race([work, hang]);
  } catch (error) {
    if ((error as Error).message === "hang") {
      fail(config, "time limit", `over ${BUILD_LIMIT} s`);
      done();
      Deno.exit(0);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** A stack frame in a message: what a user must never be shown as the error. */
const STACK = /\n\s+at \S|Error: .*\n\s+at /;

async function build(
  config: string,
  cwd: string,
  flags: { config?: string; stateDir: string; budget?: string; task?: string },
): Promise<Built> {
  builds++;
  const chunks: Uint8Array[] = [];
  let stderr = "";
  const terminal: Terminal = {
    stdout: (data) => {
      chunks.push(typeof data === "string" ? new TextEncoder().encode(data) : data);
      return Promise.resolve();
    },
    stderr: (text) => void (stderr += text),
    stderrIsTerminal: false,
  };
  const t0 = performance.now();
  let code: number;
  try {
    code = await limited(
      config,
      runBuild([], { cwd, stdout: true, json: true, quiet: true, ...flags }, { terminal }),
    );
  } catch (error) {
    fail(config, "crash", String((error as Error).stack ?? error).slice(0, 800));
    return { code: -1, stderr, seconds: 0 };
  }
  const seconds = (performance.now() - t0) / 1000;
  times.push([config, Math.round(seconds * 10) / 10]);
  if (code !== 0) {
    const lines = stderr.trim().split("\n");
    if (STACK.test(stderr) || /slop's bug|internal error/i.test(stderr) || lines.length > 3) {
      fail(config, "unclear error", stderr.slice(0, 800));
    } else fail(config, "build failed", stderr.trim().slice(0, 400));
    return { code, stderr, seconds };
  }
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  const { manifest, document } = JSON.parse(new TextDecoder().decode(bytes));
  return { code, stderr, manifest, document, seconds };
}

// ---------------------------------------------------------------------------
// Checks on one build.

const KEY_SHAPES: Record<string, RegExp> = {
  aws: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  github: /\bgh[pousr]_[A-Za-z0-9]{36}\b/g,
  slack: /\bxox[abposr]-\d{8,}-[A-Za-z0-9-]{10,}/g,
  openai: /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/g,
  pem: /-----BEGIN [A-Z ]*PRIVATE KEY-----\s*\n\s*[A-Za-z0-9+/=]{40,}/g,
  google: /\bAIza[0-9A-Za-z_-]{35}\b/g,
  gitlab: /\bglpat-[A-Za-z0-9_-]{20}\b/g,
  stripe: /\b[sr]k_live_[A-Za-z0-9]{20,}/g,
};

async function checkBuild(
  config: string,
  dir: string,
  built: Built,
  expect: { resolved: Set<string>; ignored: string[]; budget?: number },
): Promise<void> {
  const { manifest, document } = built;
  if (!manifest || document === undefined) return;
  // Fences close; headings outside fences are slop's sections or a rendered file's, each once
  // in its section.
  let headings: string[] = [];
  try {
    headings = markdownHeadings(document);
  } catch (error) {
    fail(config, "fence", (error as Error).message);
  }
  const shown = new Map(manifest.files.map((f) => [headingText(f.path), f]));
  const seen = new Set<string>();
  let section = "";
  const bad: string[] = [];
  for (const line of headings) {
    if (/^#{1,2}(?:[ \t]|$)/.test(line)) {
      if (!SECTIONS.has(line)) bad.push(`stray: ${line.slice(0, 80)}`);
      section = line;
      continue;
    }
    if (!line.startsWith("### ")) {
      if (!line.startsWith("####")) bad.push(`stray: ${line.slice(0, 80)}`);
      continue;
    }
    const file = shown.get(line.slice(4));
    if (!file) bad.push(`no file: ${line.slice(0, 80)}`);
    const key = `${section}\0${line}`;
    if (seen.has(key)) bad.push(`twice: ${line.slice(0, 80)}`);
    seen.add(key);
  }
  if (bad.length) fail(config, "headings", bad.slice(0, 5));
  // Every rendered file in the files section has a heading there.
  const inFiles = new Set(
    [...seen].filter((k) => k.startsWith("## Files\0")).map((k) => k.split("\0")[1].slice(4)),
  );
  const headless = manifest.files.filter((f) =>
    f.status === "rendered" && !inFiles.has(headingText(f.path))
  ).map((f) => `${f.path} (${f.view})`);
  if (headless.length && manifest.blocks.some((b) => b.id === "files")) {
    fail(config, "rendered without heading", [headless.length, ...headless.slice(0, 5)]);
  }
  // The manifest accounts for every file once: rendered + skipped + error = resolved.
  const rows = manifest.files.map((f) => f.path);
  const rowSet = new Set(rows);
  const twice = rows.filter((p, i) => rows.indexOf(p) !== i);
  const missing = [...expect.resolved].filter((p) => {
    const parts = p.split("/");
    return !parts.some((_, i) => rowSet.has(parts.slice(0, i + 1).join("/")));
  });
  // And lists nothing else (a row is a file git lists, or a folder above some).
  const folders = new Set<string>();
  for (const p of expect.resolved) {
    for (let i = p.indexOf("/"); i > 0; i = p.indexOf("/", i + 1)) folders.add(p.slice(0, i));
  }
  const extra = rows.filter((p) => !expect.resolved.has(p) && !folders.has(p));
  if (extra.length) fail(config, "extra rows", [extra.length, ...extra.slice(0, 5)]);
  const counts = { rendered: 0, skipped: 0, error: 0 } as Record<string, number>;
  for (const f of manifest.files) counts[f.status] = (counts[f.status] ?? 0) + 1;
  const sum = counts.rendered + counts.skipped + counts.error;
  if (twice.length || missing.length || sum !== rows.length) {
    fail(config, "accounting", {
      twice: twice.slice(0, 5),
      missing: [missing.length, ...missing.slice(0, 5)],
      counts,
      rows: rows.length,
    });
  }
  // The totals and the blocks describe the document's bytes: the blocks tile it, in order.
  const bytes = new TextEncoder().encode(document);
  const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((x) => x.toString(16).padStart(2, "0")).join("");
  if (manifest.total.bytes !== bytes.length || manifest.total.sha256 !== digest) {
    fail(config, "totals", { bytes: [manifest.total.bytes, bytes.length] });
  }
  let end = 0;
  const gaps: string[] = [];
  for (const block of manifest.blocks) {
    if (block.offset < end) gaps.push(`${block.id} overlaps at ${block.offset}`);
    end = block.offset + block.length;
  }
  if (end > bytes.length) gaps.push(`blocks end at ${end} of ${bytes.length}`);
  if (gaps.length) fail(config, "blocks", gaps.slice(0, 5));
  await checkHashes(config, bytes, manifest);
  await checkRows(config, dir, manifest, bytes);
  // Budget: the document's own count under the budget's tokenizer.
  if (expect.budget !== undefined) {
    const tokens = await countTokens(document, "o200k");
    if (tokens > expect.budget || manifest.total.tokens > expect.budget) {
      fail(config, "budget", {
        budget: expect.budget,
        counted: tokens,
        manifest: manifest.total.tokens,
        met: manifest.budget?.met,
      });
    } else if (manifest.total.tokens !== tokens) {
      fail(config, "token count", { counted: tokens, manifest: manifest.total.tokens });
    }
  }
  // Nothing of an ignored file, no planted credential, no key shape, no absolute work path.
  if (document.includes(CANARY)) {
    const near = expect.ignored.filter((p) => document.includes(`in ${p}\n`));
    fail(config, "ignored text", near.length ? near : "canary");
  }
  const leaked = Object.entries(SECRETS).filter(([, v]) =>
    v.split("\n").some((piece) => piece.length >= 12 && document.includes(piece.slice(0, 24)))
  ).map(([k]) => k);
  if (leaked.length) fail(config, "planted secret", leaked);
  // A value of few characters (`sk-lf-0000…`, `xoxb-xxxx…`) is a placeholder slop keeps.
  const shapes = Object.entries(KEY_SHAPES).flatMap(([name, re]) =>
    [...document.matchAll(re)].filter((m) => new Set(m[0]).size >= 16)
      .map((m) => `${name}: ${m[0].slice(0, 10)}…`)
  );
  if (shapes.length) fail(config, "key shape", shapes.slice(0, 5));
  // slop's scanner run again on each block (a file's text, as slop scans each file: a rule that
  // a name in the same text turns on must not fire on a name in another file's block).
  const more: string[] = [];
  for (const block of manifest.blocks) {
    const text = new TextDecoder().decode(
      bytes.subarray(block.offset, block.offset + block.length),
    );
    const again = await redactText(text, block.id);
    for (const f of again.findings) more.push(`${block.id}: ${f.rule}@${f.line}`);
  }
  if (more.length) fail(config, "scanner finds more", [more.length, ...more.slice(0, 5)]);
  if (document.includes(work) || document.includes(dir)) fail(config, "absolute path", dir);
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** Each block's hash is its bytes'; the prefix is the bytes before the first volatile block. */
async function checkHashes(
  config: string,
  bytes: Uint8Array<ArrayBuffer>,
  manifest: Manifest,
): Promise<void> {
  const wrong: string[] = [];
  for (const block of manifest.blocks) {
    const slice = bytes.subarray(block.offset, block.offset + block.length);
    if (await sha256(slice) !== block.sha256) wrong.push(`${block.id.slice(0, 80)}: sha256`);
  }
  const volatile = manifest.blocks.find((b) => b.stability === "volatile");
  const prefixEnd = volatile ? volatile.offset : bytes.length;
  if (manifest.prefix.bytes !== prefixEnd) {
    wrong.push(`prefix: ${manifest.prefix.bytes} bytes, first volatile block at ${prefixEnd}`);
  } else if (await sha256(bytes.subarray(0, prefixEnd)) !== manifest.prefix.sha256) {
    wrong.push("prefix: sha256");
  }
  if (wrong.length) fail(config, "block hashes", [wrong.length, ...wrong.slice(0, 5)]);
}

/** The text a full view shows of a file's bytes: its line ends made `\n`, no byte order mark. */
function shownText(raw: Uint8Array): string | undefined {
  let text: string;
  // NUL bytes: UTF-16 without its mark, which slop decodes as such.
  if (raw.includes(0)) return undefined;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    return undefined; // another encoding: slop decodes it, this check does not
  }
  // Bidi controls and secrets are rewritten on purpose; a text with either is not compared.
  if (/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/.test(text)) return undefined;
  return text.replace(/\r\n?/g, "\n").trimEnd();
}

/**
 * A file row says what is on disk: a row with a hash has its file's size and sha256 (of the raw
 * bytes, through a symbolic link), and a file rendered in full with nothing redacted and no
 * note shows its text whole in its block.
 */
async function checkRows(
  config: string,
  dir: string,
  manifest: Manifest,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<void> {
  const redacted = new Set((manifest.secrets ?? []).map((f) => f.path));
  const blocks = new Map(manifest.blocks.map((b) => [b.id, b]));
  const off: string[] = [];
  const altered: string[] = [];
  for (const row of manifest.files) {
    // A redacted file's hash is of its redacted text.
    if (!row.sha256 || redacted.has(row.path)) continue;
    let raw: Uint8Array<ArrayBuffer>;
    try {
      raw = await Deno.readFile(`${dir}/${row.path}`);
    } catch {
      continue; // a folder row, or a file gone
    }
    if (raw.length !== row.bytes || await sha256(raw) !== row.sha256) {
      off.push(`${row.path}: ${row.bytes} bytes, ${raw.length} on disk`);
      continue;
    }
    const block = blocks.get(`files:${row.path}`);
    // A note says what the full view did to the text (a base64 run replaced by a reference).
    if (row.status !== "rendered" || row.view !== "full" || !block || row.notes?.length) continue;
    const text = shownText(raw);
    const shown = new TextDecoder().decode(
      bytes.subarray(block.offset, block.offset + block.length),
    );
    if (text !== undefined && !shown.includes(text)) altered.push(row.path);
  }
  if (off.length) fail(config, "row differs from disk", [off.length, ...off.slice(0, 5)]);
  if (altered.length) fail(config, "full view altered", [altered.length, ...altered.slice(0, 5)]);
}

function comparable(manifest: Manifest): string {
  return JSON.stringify({
    ...manifest,
    files: manifest.files.map((f) => ({ ...f, cache: undefined })),
  });
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const line = a.slice(0, i).split("\n").length;
  return `line ${line}: ${JSON.stringify(a.slice(i, i + 60))} vs ${
    JSON.stringify(b.slice(i, i + 60))
  }`;
}

function same(config: string, what: string, a: Built, b: Built): void {
  if (a.document === undefined || b.document === undefined) return;
  if (a.document !== b.document) {
    fail(config, what, firstDifference(a.document, b.document));
  }
}

/** The texts of a request body (`text` and `content` strings, but for the prompt), joined. */
function payloadText(body: unknown): string {
  const parts: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (typeof value === "string") {
      if ((key === "text" || key === "content") && value !== "{{prompt}}") parts.push(value);
    } else if (Array.isArray(value)) value.forEach((v) => walk(v, key));
    else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(body, "");
  return parts.join("");
}

// ---------------------------------------------------------------------------

function done(): void {
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const slowest = [...times].sort((x, y) => y[1] - x[1]).slice(0, 3);
  console.log(JSON.stringify({ tree, done: true, builds, seconds, slowest }));
}

async function writeConfig(path: string, body: Record<string, unknown>): Promise<string> {
  await Deno.writeTextFile(path, `export default ${JSON.stringify(body)};\n`);
  return path;
}

async function main(): Promise<void> {
  await Deno.mkdir(work, { recursive: true });
  const a = `${work}/a`;
  const b = `${work}/b`;
  await git(["clone", "-q", "--shared", "--no-tags", "--no-checkout", mirror, a]);
  // A mirror may lack its largest blobs: those files are left out of the checkout (sparse).
  const entries = (await git(["ls-tree", "-r", "-z", "HEAD"], a)).split("\0").filter(Boolean)
    .map((line) => ({ oid: line.split(/\s/)[2], path: line.slice(line.indexOf("\t") + 1) }));
  const blobs = entries.filter((e) => /^[0-9a-f]{40}$/.test(e.oid));
  const probe = await new Deno.Command("git", {
    args: ["cat-file", "--batch-check=%(objectname) %(objecttype)"],
    cwd: a,
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  // Its answers are read while the names are written (a pipe holds 64 KB).
  const answers = probe.output();
  const writer = probe.stdin.getWriter();
  await writer.write(new TextEncoder().encode(blobs.map((e) => e.oid).join("\n") + "\n"));
  await writer.close();
  const absent = new Set(
    new TextDecoder().decode((await answers).stdout).split("\n")
      .filter((l) => l.endsWith(" missing")).map((l) => l.split(" ")[0]),
  );
  const lacking = blobs.filter((e) => absent.has(e.oid)).map((e) => e.path);
  if (lacking.length) {
    await git(["sparse-checkout", "set", "--no-cone", "/*", ...lacking.map((p) => "!/" + p)], a);
  }
  await git(["checkout", "-q", "HEAD"], a);
  for (const [path, text] of Object.entries(plantedFiles())) {
    await Deno.mkdir(`${a}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${a}/${path}`, text);
  }
  const ignored = await plantIgnored(a);
  const cp = await new Deno.Command("cp", { args: ["-a", a, b] }).output();
  if (!cp.success) throw new Error(`cp -a failed: ${new TextDecoder().decode(cp.stderr)}`);
  // What git lists, but for the files a sparse checkout leaves out (`S`, not on disk).
  const listed = (await git(["ls-files", "-z", "-t", "-co", "--exclude-standard"], a)).split("\0")
    .filter((l) => l && !l.startsWith("S ")).map((l) => l.slice(2));
  const resolved = new Set(listed);
  const subjects = (await git(["log", "-n", "2", "--format=%s"], a)).split("\n").filter(Boolean);
  const tasks = [subjects[0] ?? "fix the build", subjects[1] ?? "update the documentation"];
  const expect = { resolved, ignored };
  const state = (name: string) => `${work}/state-${name}`;

  // Default: zero config, twice in one state folder (cold, warm) and once in the other copy.
  const d1 = await build("default", a, { stateDir: state("a") });
  await checkBuild("default", a, d1, expect);
  const d2 = await build("default warm", a, { stateDir: state("a") });
  same("default", "warm differs", d1, d2);
  if (d1.manifest && d2.manifest && comparable(d1.manifest) !== comparable(d2.manifest)) {
    fail(
      "default",
      "warm manifest differs",
      firstDifference(
        comparable(d1.manifest),
        comparable(d2.manifest),
      ),
    );
  }
  const d3 = await build("default copy", b, { stateDir: state("b") });
  same("default", "other folder differs", d1, d3);

  // Skeleton, in both copies.
  const skA = await writeConfig(`${work}/skeleton-a.config.ts`, {
    root: a,
    defaultView: "skeleton",
  });
  const skB = await writeConfig(`${work}/skeleton-b.config.ts`, {
    root: b,
    defaultView: "skeleton",
  });
  const s1 = await build("skeleton", a, { config: skA, stateDir: state("a") });
  await checkBuild("skeleton", a, s1, expect);
  const s2 = await build("skeleton copy", b, { config: skB, stateDir: state("b") });
  same("skeleton", "other folder differs", s1, s2);

  // Budgets.
  const b32 = await build("budget 32000", a, { stateDir: state("a"), budget: "32000" });
  await checkBuild("budget 32000", a, b32, { ...expect, budget: 32000 });
  const t1 = await build("task 1", a, { stateDir: state("a"), budget: "8000", task: tasks[0] });
  await checkBuild("budget 8000 task", a, t1, { ...expect, budget: 8000 });
  const t2 = await build("task 2", a, { stateDir: state("a"), budget: "8000", task: tasks[1] });
  await checkBuild("budget 8000 task 2", a, t2, { ...expect, budget: 8000 });
  const t1b = await build("task 1 again", b, {
    stateDir: state("b"),
    budget: "8000",
    task: tasks[0],
  });
  same("budget 8000 task", "other folder differs", t1, t1b);
  if (t1.manifest && t2.manifest && t1.document !== undefined && t2.document !== undefined) {
    // The prefix is counted in UTF-8 bytes.
    const bytes = (doc: string, n: number) =>
      new TextDecoder().decode(new TextEncoder().encode(doc).subarray(0, n));
    const p1 = bytes(t1.document, t1.manifest.prefix.bytes);
    const p2 = bytes(t2.document, t2.manifest.prefix.bytes);
    if (p1 !== p2) {
      fail("budget 8000 task", "prefix differs between tasks", firstDifference(p1, p2));
    }
  }

  // Payloads, one per provider, from a config file (with the lock outside the tree).
  const defA = await writeConfig(`${work}/default-a.config.ts`, {
    root: a,
    lock: `${work}/a.lock`,
  });
  // The document a build with that config makes just before: the payloads carry it.
  const before = await build("default config", a, { config: defA, stateDir: state("a") });
  Deno.chdir(a);
  for (const provider of ["anthropic", "openai", "gemini", "deepseek"]) {
    builds++;
    try {
      const body = await limited(
        `payload ${provider}`,
        renderPayload({ config: defA, stateDir: state("a"), provider }),
      );
      const text = JSON.stringify(body);
      if (text.includes(CANARY)) fail(`payload ${provider}`, "ignored text", "canary");
      const leaked = Object.entries(SECRETS).filter(([, v]) => text.includes(v.slice(0, 24)));
      if (leaked.length) fail(`payload ${provider}`, "planted secret", leaked.map(([k]) => k));
      if (text.includes(work)) fail(`payload ${provider}`, "absolute path", work);
      // The body carries the document a build makes, whole and in order.
      const carried = payloadText(body);
      if (before.document !== undefined && carried !== before.document) {
        fail(`payload ${provider}`, "document differs", firstDifference(carried, before.document));
      }
    } catch (error) {
      const message = String((error as Error).stack ?? error);
      fail(`payload ${provider}`, "payload failed", message.slice(0, 600));
    }
  }

  // check --update, then check on the unchanged tree.
  const said: string[] = [];
  const { log, error } = console;
  console.log = (...args: unknown[]) => void said.push(args.join(" "));
  console.error = (...args: unknown[]) => void said.push(args.join(" "));
  try {
    builds += 2;
    const update = await limited(
      "check --update",
      runCheck({ config: defA, stateDir: state("a"), update: true, quiet: true }),
    );
    const check = update === 0
      ? await limited("check", runCheck({ config: defA, stateDir: state("a"), json: true }))
      : -1;
    console.log = log;
    console.error = error;
    if (update !== 0) fail("check --update", "exit", [update, said.join("\n").slice(0, 400)]);
    else if (check !== 0) fail("check", "exit", [check, said.join("\n").slice(0, 600)]);
  } catch (e) {
    console.log = log;
    console.error = error;
    fail("check", "crash", String((e as Error).stack ?? e).slice(0, 600));
  } finally {
    console.log = log;
    console.error = error;
  }
  done();
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    fail("setup", "crash", String((error as Error).stack ?? error).slice(0, 600));
    done();
  }
}
