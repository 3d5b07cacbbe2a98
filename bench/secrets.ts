/**
 * How well the secret scan works, and what it costs.
 *
 * - **Recall**, per kind and per syntax, of slop's scanner (its rule table plus
 *   secretlint's preset, as a build runs it) and of secretlint's recommended
 *   preset alone, on credentials that `tests/secrets/_samples.ts` generates
 *   (every kind in every syntax, one value of each per seed). A value counts
 *   as caught when no 12-character piece of it is left.
 * - **Findings on real code** that holds no live credential: the Python
 *   standard library, the TypeScript lib in the npm cache and the repositories
 *   mirrored in `/work/.mirror` (when present). `--show` lists them.
 * - **Growth** on adversarial texts of 1 and 4 MB built to make a pattern
 *   backtrack (many starts of a rule, runs that almost match): slop's own
 *   rules, timed; linear time shows as a ratio near 4.
 * - **Cost in a build** (`--build [ROOT]`): the scan's share of a cold build
 *   of the Python standard library (or ROOT).
 *
 * ```sh
 * deno task bench:secrets                     # recall, findings on real code, growth
 * deno task bench:secrets --seeds 20 --show   # more values; list the findings
 * deno task bench:secrets --only growth       # one part: recall, real or growth
 * deno task bench:secrets --scanner /work/main/pipeline/_scan.ts   # another tree's scanner
 * deno task bench:secrets --build [ROOT]      # the scan's share of a cold build
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { loadSecretlint } from "../deps.ts";
import { applyRedactions } from "../pipeline/secret_rules.ts";
import {
  generateSamples,
  KINDS,
  piecesOf,
  realKeys,
  SYNTAXES,
  textOf,
} from "../tests/secrets/_samples.ts";

type Scan = (text: string, path: string) => Promise<{ text: string; findings: unknown[] }>;
type ScanSync = (text: string) => { text: string; findings: unknown[] };

function flag(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i < 0 ? undefined : Deno.args[i + 1];
}

const scannerPath = flag("--scanner");
const scanner = await import(
  scannerPath ? new URL(`file://${scannerPath}`).href : "../pipeline/_scan.ts"
) as { redactText: Scan; redactSync: ScanSync };

/**
 * secretlint's recommended preset alone: the text with its ranges applied as slop would apply
 * them, and the ranges.
 */
async function secretlintAlone(
  text: string,
  path: string,
): Promise<{ text: string; ranges: Array<[number, number]> }> {
  const { lintSource, preset } = await loadSecretlint();
  const result = await lintSource({
    source: { filePath: `/${path}`, content: text, contentType: "text" },
    options: { config: { rules: [{ id: "preset", rule: preset }] }, maskSecrets: true },
  });
  const matches = result.messages
    .filter((m) => m.type === "message" && m.range && m.range[1] > m.range[0])
    .map((m) => ({ start: m.range![0], end: m.range![1], rule: m.ruleId }));
  const ranges = matches.map((m): [number, number] => [m.start, m.end]);
  return { text: applyRedactions(text, matches).text, ranges };
}

function pct(caught: number, total: number): string {
  return `${(100 * caught / total).toFixed(0)}% (${caught}/${total})`;
}

async function recall(seeds: number): Promise<void> {
  const tally = new Map<
    string,
    { total: number; slop: number; secretlint: number; flagged: number }
  >();
  const count = (key: string, slop: boolean, alone: boolean, flagged: boolean) => {
    const t = tally.get(key) ?? { total: 0, slop: 0, secretlint: 0, flagged: 0 };
    t.total++;
    if (slop) t.slop++;
    if (alone) t.secretlint++;
    if (flagged) t.flagged++;
    tally.set(key, t);
  };
  const keys = await realKeys(8);
  for (let seed = 1; seed <= seeds; seed++) {
    for (const file of generateSamples(seed, keys)) {
      const text = textOf(file);
      const slop = (await scanner.redactText(text, file.path)).text;
      const alone = await secretlintAlone(text, file.path);
      let at = 0;
      for (const segment of file.segments) {
        const start = at;
        at += typeof segment === "string" ? segment.length : segment.value.length;
        if (typeof segment === "string") continue;
        const p = segment;
        const kept = (out: string) => piecesOf(p.value).some((piece) => out.includes(piece));
        const flagged = alone.ranges.some(([s, e]) => s < at && start < e);
        const caught = [!kept(slop), !kept(alone.text), flagged] as const;
        count(`kind ${p.kind}`, ...caught);
        count(`syntax ${p.syntax}`, ...caught);
        count("all", ...caught);
      }
    }
  }
  const table = (title: string, keys: string[]) => {
    console.log(
      `\n| ${title} | slop | secretlint preset alone | secretlint reports it |\n` +
        "| --- | --- | --- | --- |",
    );
    for (const key of keys) {
      const t = tally.get(key)!;
      const name = key.replace(/^(kind|syntax) /, "");
      console.log(
        `| ${name} | ${pct(t.slop, t.total)} | ${pct(t.secretlint, t.total)} | ` +
          `${pct(t.flagged, t.total)} |`,
      );
    }
  };
  console.log(
    `Recall on ${seeds} seed(s), one value of each kind in each syntax per seed: the share of ` +
      "values with no 12-character piece left (and the share secretlint reports at all)",
  );
  table("kind", KINDS.map((k) => `kind ${k.kind}`));
  table("syntax", SYNTAXES.map((s) => `syntax ${s.syntax}`));
  table("total", ["all"]);
}

async function pythonStdlib(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig;print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

async function* walk(dir: string, pattern: RegExp): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (!["site-packages", ".git", "node_modules"].includes(entry.name)) {
        yield* walk(path, pattern);
      }
    } else if (entry.isFile && pattern.test(entry.name)) yield path;
  }
}

/** The corpora of real code: name -> root. Mirrors are extracted to a temp folder. */
async function corpora(): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [["python stdlib", await pythonStdlib()]];
  const home = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "", ".cache/deno");
  const ts = join(home, "npm/registry.npmjs.org/typescript");
  try {
    for await (const version of Deno.readDir(ts)) {
      if (version.isDirectory) {
        out.push([`typescript ${version.name} lib`, join(ts, version.name, "lib")]);
      }
    }
  } catch { /* no typescript in the npm cache */ }
  const mirror = "/work/.mirror";
  try {
    const temp = await Deno.makeTempDir({ prefix: "slop_mirrors_" });
    for await (const repo of Deno.readDir(mirror)) {
      const gitDir = join(mirror, repo.name, "repo");
      const dest = join(temp, repo.name);
      await Deno.mkdir(dest);
      const script = `git --git-dir='${gitDir}' archive HEAD | tar -x -C '${dest}'`;
      const ok = (await new Deno.Command("sh", { args: ["-c", script] }).output()).success;
      if (ok) out.push([repo.name.replace("+", "/"), dest]);
    }
  } catch { /* no mirrors */ }
  return out;
}

const CODE = /\.(py|pyi|ts|js|mjs|cjs|json|ya?ml|toml|ini|cfg|md|rst|txt|sh|env)$/;

async function realCode(show: boolean): Promise<void> {
  console.log("\nFindings on real code (no live credentials in it):\n");
  console.log("| corpus | files | MB | findings | by rule |\n| --- | --- | --- | --- | --- |");
  for (const [name, root] of await corpora()) {
    let files = 0;
    let chars = 0;
    const rules = new Map<string, number>();
    const listed: string[] = [];
    for await (const path of walk(root, CODE)) {
      let text: string;
      try {
        text = await Deno.readTextFile(path);
      } catch {
        continue;
      }
      files++;
      chars += text.length;
      const relative = path.slice(root.length + 1);
      const result = await scanner.redactText(text, relative);
      for (const f of result.findings as Array<{ line: number; rule: string }>) {
        rules.set(f.rule, (rules.get(f.rule) ?? 0) + 1);
        if (show) listed.push(`  ${f.rule} ${relative}:${f.line}`);
      }
    }
    const total = [...rules.values()].reduce((a, b) => a + b, 0);
    const by = [...rules].map(([r, n]) => `${r} ${n}`).join(", ") || "-";
    console.log(`| ${name} | ${files} | ${(chars / 1e6).toFixed(1)} | ${total} | ${by} |`);
    if (listed.length) console.log(listed.join("\n"));
  }
}

/** Texts built to make a pattern work hard: many starts, runs that almost match. */
function adversarial(size: number): Array<[string, string]> {
  const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  return [
    ["one huge word", fill("a")],
    ["token characters", fill("Ab1")],
    ["sk- over and over", fill("sk-")],
    ["sk-ant- and a long run", "sk-ant-" + fill("a")],
    ["AKIA over and over", fill("AKIA")],
    ["PEM BEGIN lines, no END", fill("-----BEGIN RSA PRIVATE KEY-----\n")],
    ["PEM BEGIN, base64 without END", "-----BEGIN PRIVATE KEY-----\n" + fill("QUJD\n")],
    ["secret names and operators", fill("secret=")],
    ["a secret name, then a long token", "api_token = " + fill("Ab1")],
    ["a quoted token, never closed", 'password = "' + fill("Ab1")],
    ["operators only", fill("=:")],
    ["URLs without an @", fill("://a:b")],
    ["a URL user, then a long password", "https://u:" + fill("p")],
    ["key maps, never closed", "API_KEY_MAP={" + fill('"a1":"b2c3d4e5f6",')],
    ["JWT heads", fill("eyJ" + "a".repeat(20) + ".")],
    ["Bearer over and over", "Authorization: " + fill("Bearer ")],
    ["AccountKey and base64", fill("AccountKey=" + "A".repeat(60) + ";")],
    ["Azure Q~ runs", fill("abc1Q~")],
    ["hex after names", fill("token=" + "ab".repeat(20) + " ")],
    ["YAML block headers", fill("secret: |\n  ")],
  ];
}

function growth(): void {
  console.log(
    "\nGrowth of slop's own rules (redactSync, one thread, fastest of 3; ratio 4 MB / 1 MB):\n",
  );
  console.log("| text | 1 MB | 4 MB | ratio |\n| --- | --- | --- | --- |");
  const small = adversarial(1024 * 1024);
  const large = adversarial(4 * 1024 * 1024);
  for (let i = 0; i < small.length; i++) {
    // The fastest of 3 runs: the machine is shared, a slow run says little about the pattern.
    const time = (text: string) => {
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        scanner.redactSync(text);
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    const a = time(small[i][1]);
    const b = time(large[i][1]);
    console.log(
      `| ${small[i][0]} | ${a.toFixed(0)} ms | ${b.toFixed(0)} ms | ${(b / a).toFixed(1)} |`,
    );
  }
}

async function buildShare(rootArg: string | undefined): Promise<void> {
  const { loadConfig } = await import("../pipeline/config.ts");
  const { resolveTargets } = await import("../pipeline/resolve.ts");
  const { readTargets } = await import("../pipeline/read.ts");
  const { build } = await import("../pipeline/build.ts");
  const { defaultPlugins } = await import("../plugins/defaults.ts");
  let root = rootArg;
  if (!root) {
    // A copy, so that no enclosing git repository (pyenv's clone) hides the files.
    const stdlib = await pythonStdlib();
    root = await Deno.makeTempDir({ prefix: "slop_stdlib_" });
    const script = `find . -name '*.py' -not -path './site-packages/*' -print0 | ` +
      `tar --null -cf - -T - | tar -xf - -C '${root}'`;
    const tar = await new Deno.Command("sh", { args: ["-c", script], cwd: stdlib }).output();
    if (!tar.success) throw new Error(`Cannot copy "${stdlib}"`);
  }
  const stateDir = await Deno.makeTempDir();
  const config = await loadConfig({
    cwd: root,
    stateDir,
    inline: { files: ["**/*.py"], cache: { enabled: false } },
  });
  const { targets } = await resolveTargets(config);
  const sources = await readTargets(targets, config);
  const texts = sources.filter((s) => s.text !== undefined);
  const mb = texts.reduce((n, s) => n + s.size, 0) / 1e6;
  const scan = async (prefilter: boolean) => {
    const start = performance.now();
    let findings = 0;
    for (const s of texts) {
      const options = { prefilter } as Record<string, unknown>;
      findings += (await (scanner.redactText as (
        t: string,
        p: string,
        o: unknown,
      ) => Promise<{ findings: unknown[] }>)(s.text!, s.path, options)).findings.length;
    }
    return { ms: performance.now() - start, findings };
  };
  await scanner.redactText("warm up sk-x", "a.txt"); // load secretlint once, outside the timings
  const withHints = await scan(true);
  const everyFile = await scan(false);
  const start = performance.now();
  await build(config, { builtins: defaultPlugins(), write: false });
  const buildMs = performance.now() - start;
  await Deno.remove(stateDir, { recursive: true });
  if (!rootArg) await Deno.remove(root, { recursive: true });
  console.log(`root: ${root}`);
  console.log(`files: ${texts.length} texts, ${mb.toFixed(1)} MB`);
  console.log(`scan with prefilter: ${withHints.ms.toFixed(0)} ms, ${withHints.findings} findings`);
  console.log(
    `scan, secretlint on every file: ${everyFile.ms.toFixed(0)} ms, ${everyFile.findings} findings`,
  );
  console.log(`cold build (scan included): ${buildMs.toFixed(0)} ms`);
  console.log(`scan share of the cold build: ${((withHints.ms / buildMs) * 100).toFixed(1)}%`);
}

const positional = Deno.args.filter((a, i) =>
  !a.startsWith("--") && !["--seeds", "--scanner", "--only"].includes(Deno.args[i - 1])
);
if (Deno.args.includes("--build") || positional.length) {
  await buildShare(positional[0]);
} else {
  const only = flag("--only");
  if (!only || only === "recall") await recall(Number(flag("--seeds") ?? 5));
  if (!only || only === "real") await realCode(Deno.args.includes("--show"));
  if (!only || only === "growth") growth();
}
