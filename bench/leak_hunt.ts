/**
 * A leak hunt on real data: builds a checkout of a repository made of leaked-secret examples
 * (Plazmaz/leaky-repo, Yelp/detect-secrets' test data, …) with the CLI, as a user runs it, and
 * looks for each secret the checkout holds in every output slop writes: the document and manifest
 * (`build --stdout --json`, and a written build), every file under the state dir (outputs,
 * caches, spilled texts, order memory), the HTML report, the provider payloads (`slop payload` for
 * Anthropic and OpenAI), what `slop mcp`'s `view_files` returns (`--mcp`), and stderr.
 *
 * The secrets are found in the checkout by a list of key shapes written here, apart from slop's
 * rules (no code of slop's scanner is used), plus values of high entropy near a secret-looking
 * name. A secret has leaked when its value, or for a long one any 12-character piece of it, is in
 * an output (raw or JSON-escaped) and nowhere else in its file, or its first 40 characters with
 * what is written before it on its line (its name and `=`, which slop keeps). Every file is named in the config's
 * `files`, so that files slop skips by name by default (`.env`, `*.key`) are read and scanned
 * too. See bench/README.md, "Leak hunt: leaked-secret repositories".
 *
 * ```sh
 * deno run -A bench/leak_hunt.ts /tmp/leak/leaky-repo              # full view
 * VIEWS=full,skeleton deno run -A bench/leak_hunt.ts --mcp /tmp/leak/leaky-repo
 * deno run -A bench/leak_hunt.ts --show /tmp/leak/leaky-repo       # also each candidate
 * ```
 *
 * Not part of the suite.
 *
 * @module
 */

import { loadMcpClient } from "../deps.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;

/** A value in the checkout that looks like a secret, and why. */
interface Candidate {
  path: string;
  line: number;
  value: string;
  why: string;
  /** Up to 16 characters written just before the value on its line (its name, quote, `=`). */
  before: string;
  /** The file's text without the value: a piece of the value found there is no sign of it. */
  elsewhere: string;
}

/** Key shapes, written here apart from slop's rules; group 1 (or the match) is the secret. */
const SHAPES: Array<[string, RegExp]> = [
  ["aws-key-id", /\b((?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16})\b/g],
  ["github", /\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{50,})/g],
  ["gitlab", /\b(glpat-[A-Za-z0-9_-]{20,})/g],
  ["slack", /\b(xox[abposre]-[A-Za-z0-9-]{10,})/g],
  ["slack-hook", /hooks\.slack\.com\/services\/([A-Za-z0-9/]{20,})/g],
  ["stripe", /\b([sr]k_(?:live|test)_[A-Za-z0-9]{16,})/g],
  ["openai-like", /\b(sk-[A-Za-z0-9_-]{20,})/g],
  ["google", /\b(AIza[0-9A-Za-z_-]{35})/g],
  ["sendgrid", /\b(SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})/g],
  ["npm", /\b(npm_[A-Za-z0-9]{36})/g],
  ["pypi", /\b(pypi-[A-Za-z0-9_-]{50,})/g],
  ["jwt", /\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g],
  [
    "pem-body",
    /-----BEGIN[A-Z ]*PRIVATE KEY( BLOCK)?-----(?:\\n|\s)+(?:[A-Za-z-]+: [^\n]*\n)*\s*([A-Za-z0-9+/=]{40,})/g,
  ],
  ["putty-private", /Private-Lines: \d+\r?\n([A-Za-z0-9+/=]{40,})/g],
  ["crypt-hash", /(\$(?:1|5|6|2[abxy]?|apr1|y|argon2(?:i|d|id))\$[A-Za-z0-9./=$,+-]{20,})/g],
  ["url-password", /[a-z][a-z0-9+.-]{1,20}:\/\/[^\s/:'"]{1,64}:([^\s'"/]{4,128})@[\w.-]+/gi],
  ["basic-auth", /\bBasic\s+([A-Za-z0-9+/]{12,}={0,2})/g],
  [
    "xml-element",
    /<([\w:-]*(?:pass|pwd|secret|token|key)[\w-]*)\b[^>\n]{0,60}>([^<\s]{6,200})<\/\1>/gi,
  ],
];

/** A secret-looking name, then an operator (or blanks), then a value: group 2 is the value. */
const NAMED =
  /([A-Za-z0-9_.-]*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|auth|salt|private[_-]?key|access[_-]?key|credentials?|_key)s?)["']?\s{0,4}(?:=>|[:=]|\s)\s{0,4}["'`]?([^\s"'`<>,;)]{6,200})/gi;

/** A quoted value after a secret-looking name (`define('AUTH_KEY', '…')`, `key = "a b"`). */
const QUOTED =
  /([A-Za-z0-9_.-]*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|salt|_key)s?)["']?\s{0,4}(?:=>|[:=,])\s{0,4}(["'])([^"'\n]{6,200})\2/gi;

/** Words whose presence on a line makes a high-entropy string there a candidate. */
const SECRETISH = /pass|pwd|secret|token|key|auth|credential|salt|private|api/i;

/** Bits per character of `s`. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

/** A stand-in rather than a secret: a placeholder word, a reference, few distinct characters. */
function standIn(value: string): boolean {
  if (/^\$(?:1|5|6|2[abxy]?|apr1|y|argon2\w*)\$/.test(value)) return false; // a crypt hash
  if (/^[$%{<[(]|^\w+\(|^(?:true|false|null|none|undefined)$/i.test(value)) return true;
  if (/x{4}|\*{3}|example|changeme|placeholder|your[_-]|dummy|redacted/i.test(value)) return true;
  return new Set(value).size < 5;
}

/** The 1-based line of offset `at`. */
function lineOf(text: string, at: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Every candidate of one file's text. */
function candidates(path: string, text: string): Candidate[] {
  const out: Candidate[] = [];
  const add = (value: string, at: number, why: string) => {
    if (value.length < 6 || standIn(value)) return;
    const lineStart = text.lastIndexOf("\n", at - 1) + 1;
    const before = text.slice(Math.max(lineStart, at - 16), at);
    // every copy of the value taken out: one written twice (two servers' passwords) still counts
    const elsewhere = text.split(value).join("\n");
    out.push({ path, line: lineOf(text, at), value, why, before, elsewhere });
  };
  for (const [why, re] of SHAPES) {
    for (const m of text.matchAll(re)) {
      const value = m[m.length - 1] ?? m[0];
      add(value, m.index! + m[0].lastIndexOf(value), why);
    }
  }
  for (const m of text.matchAll(NAMED)) {
    add(m[2], m.index! + m[0].lastIndexOf(m[2]), `named ${m[1]}`);
  }
  for (const m of text.matchAll(QUOTED)) {
    add(m[3], m.index! + m[0].lastIndexOf(m[3]), `quoted ${m[1]}`);
  }
  for (const m of text.matchAll(/[A-Za-z0-9+/_.~!@#%^&*-]{20,300}={0,2}/g)) {
    const lineStart = text.lastIndexOf("\n", m.index!) + 1;
    const line = text.slice(lineStart, text.indexOf("\n", m.index!) >>> 0);
    if (/\/\/|\.(?:com|org|io|net|html?|py|js|ts|md)\b|^[a-z0-9_./-]+$/.test(m[0])) continue; // URLs, paths
    if (entropy(m[0]) >= 4.3 && SECRETISH.test(line)) add(m[0], m.index!, "entropy");
  }
  return out;
}

/** Every file under `dir` but `.git`, by path relative to it. */
async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(`${dir}/${prefix}`)) {
    const rel = prefix + e.name;
    if (e.isDirectory && e.name !== ".git") out.push(...await listFiles(dir, `${rel}/`));
    else if (e.isFile) out.push(rel);
  }
  return out.sort();
}

/** A file's text, or undefined when it is binary. */
async function readText(path: string): Promise<string | undefined> {
  const bytes = await Deno.readFile(path);
  if (bytes.includes(0)) return undefined;
  return new TextDecoder().decode(bytes).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

/** Run the CLI in `dir`; its stdout and stderr. */
async function run(dir: string, state: string, args: string[]): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, ...args],
    cwd: dir,
    env: { SLOP_DIR: state, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (out.code !== 0 && args[0] !== "payload") {
    console.error(
      `slop ${args.join(" ")} exited ${out.code}: ${dec.decode(out.stderr).slice(0, 300)}`,
    );
  }
  return [dec.decode(out.stdout), dec.decode(out.stderr)];
}

/** Every file under `dir` (the state dir) as text, named by its path. */
async function stateFiles(dir: string): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const rel of await listFiles(dir).catch(() => [])) {
    const bytes = await Deno.readFile(`${dir}/${rel}`);
    out.push([`state:${rel}`, new TextDecoder().decode(bytes)]);
  }
  return out;
}

/**
 * What `slop mcp`'s `view_files` returns for every file (named by its path, so that files skipped
 * by name are read too) in `view`. No config: the tool takes only one inside the project.
 */
async function mcpTexts(dir: string, files: string[], view: string): Promise<string> {
  const { Client, StdioClientTransport } = await loadMcpClient();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", CLI, "mcp"],
    cwd: dir,
    env: { ...Deno.env.toObject(), NO_COLOR: "1", SLOP_DIR: await Deno.makeTempDir() },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Uint8Array) => (stderr += new TextDecoder().decode(c)));
  const client = new Client({ name: "leak-hunt", version: "1.0.0" });
  await client.connect(transport);
  try {
    const result = await client.callTool({
      name: "view_files",
      arguments: { files, view, maxFiles: 100000, maxTokens: 100000000 },
    });
    if (result.isError) throw new Error(`view_files: ${JSON.stringify(result).slice(0, 300)}`);
    return JSON.stringify(result) + stderr;
  } finally {
    await client.close();
  }
}

/** Every output of slop for `dir` in `view`, named by where it came from. */
async function outputs(
  dir: string,
  files: string[],
  view: string,
  mcp: boolean,
): Promise<Array<[string, string]>> {
  const tmp = await Deno.makeTempDir({ prefix: "slop_leak_hunt_" });
  const config = `${tmp}/slop.config.ts`;
  const body = { root: dir, defaultView: view, files };
  await Deno.writeTextFile(config, `export default ${JSON.stringify(body)};\n`);
  const state = `${tmp}/state`;
  const out: Array<[string, string]> = [];
  const cmds: Array<[string, string[]]> = [
    ["build --stdout --json", ["build", "--stdout", "--json", "-c", config]],
    ["build", ["build", "-c", config]],
    ["build (warm)", ["build", "-c", config]],
    ["report", ["report", "--stdout", "-c", config]],
    ["payload anthropic", ["payload", "--provider", "anthropic", "-c", config]],
    ["payload openai", ["payload", "--provider", "openai", "-c", config]],
  ];
  for (const [name, args] of cmds) {
    const [stdout, stderr] = await run(dir, state, args);
    out.push([`${name} stdout`, stdout], [`${name} stderr`, stderr]);
  }
  out.push(...await stateFiles(state));
  if (mcp) out.push(["mcp view_files", await mcpTexts(dir, files, view)]);
  await Deno.remove(tmp, { recursive: true });
  return out;
}

/** The outputs that hold `c`'s value: raw, or JSON-escaped. */
function whereLeaked(c: Candidate, texts: Array<[string, string]>): string[] {
  const probes = [c.before + c.value.slice(0, 40)];
  if (c.value.length >= 12) {
    for (let i = 0; i + 12 <= c.value.length; i += 4) probes.push(c.value.slice(i, i + 12));
    probes.push(c.value.slice(-12));
  }
  // A piece the file holds elsewhere (a name the value starts with, a shared header, a look-alike
  // on another line) tells nothing.
  const telling = probes.filter((p) => !c.elsewhere.includes(p));
  probes.splice(0, probes.length, ...telling);
  const escaped = probes.map((p) => JSON.stringify(p).slice(1, -1));
  return texts.filter(([, t]) => probes.some((p, i) => t.includes(p) || t.includes(escaped[i])))
    .map(([name]) => name);
}

/** The kind of an output, by its name: `state:out/…` and `state:cache/…` apart. */
function outputKind(name: string): string {
  if (name.startsWith("state:")) return `state ${name.slice(6).split("/")[0]}/`;
  return name.replace(/ \(warm\)/, "");
}

async function main() {
  const show = Deno.args.includes("--show");
  const mcp = Deno.args.includes("--mcp");
  const dirs = Deno.args.filter((a) => !a.startsWith("--"));
  const views = (Deno.env.get("VIEWS") ?? "full").split(",");
  for (const dir of dirs) {
    const files = await listFiles(dir);
    const found: Candidate[] = [];
    for (const path of files) {
      const text = await readText(`${dir}/${path}`);
      if (text !== undefined) found.push(...candidates(path, text));
    }
    console.log(`## ${dir}: ${files.length} files, ${found.length} candidates`);
    for (const view of views) {
      const texts = await outputs(dir, files, view, mcp);
      const leaked = found.map((c) => [c, whereLeaked(c, texts)] as const);
      const left = leaked.filter(([, where]) => where.length);
      console.log(`### ${view}: ${left.length} of ${found.length} candidates reach an output`);
      const kinds = new Map<string, number>();
      for (const [, where] of left) {
        for (const w of new Set(where.map(outputKind))) {
          kinds.set(w, (kinds.get(w) ?? 0) + 1);
        }
      }
      console.log(`outputs they reach: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}`);
      for (const [c, where] of show ? leaked : left) {
        const value = JSON.stringify(c.value.length > 60 ? `${c.value.slice(0, 60)}…` : c.value);
        const at = where.length
          ? `in ${[...new Set(where.map(outputKind))].join(", ")}`
          : "redacted";
        console.log(`- ${c.path}:${c.line} (${c.why}) ${value} ${at}`);
      }
    }
  }
}

if (import.meta.main) await main();
