/**
 * The README is true: its TypeScript blocks type-check and run (config
 * blocks through a real `slop build`), every command line it shows is a
 * known command with known flags, its command reference lists every flag
 * cli.ts defines, its outputs are what the bundled example prints, and its
 * contents, anchors and paths point at things that exist.
 *
 * A ts block that is deliberately not a complete program is marked with
 * `<!-- readme-test: fragment -->` on the line before its fence.
 *
 * @module
 */

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type CommandSpec,
  findOption,
  operandsOf,
  optionFlags,
  type ProgramSpec,
} from "../../cli/_args.ts";
import { main } from "../../cli.ts";
import * as mod from "../../mod.ts";
import { validateConfig } from "../../pipeline/config.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject, REPO, tempDir, type Tree } from "../_helpers.ts";
import { anchorOf, codeSpans, type Fence, parseMarkdown, shellWords } from "./_markdown.ts";

const README = await Deno.readTextFile(join(REPO, "README.md"));
const DOC = parseMarkdown(README);
const MOD = pathToFileURL(join(REPO, "mod.ts")).href;
const CONFIG = pathToFileURL(join(REPO, "config.ts")).href;
const TASKS: Record<string, string> = JSON.parse(
  await Deno.readTextFile(join(REPO, "deno.json")),
).tasks;

/** The small project every README snippet runs in: the files its configs name. */
const FIXTURE: Tree = {
  "src/big_module.ts": "/** Sums numbers. */\nexport function total(xs: number[]): number {\n" +
    "  return xs.reduce((a, b) => a + b, 0);\n}\n",
  "src/app.ts": 'import { total } from "./big_module.ts";\nconsole.log(total([1, 2]));\n',
  "src/store.py": 'class Store:\n    """A store of items."""\n\n    def get(self, sku):\n' +
    "        return self.items[sku]\n\n    def put(self, sku, item):\n" +
    "        self.items[sku] = item\n",
  "docs/notes.md": "# Notes\n\n- XXX: check the totals\n- TODO: more tests\n",
  "slop/discussion.jsonl": '{"role":"user","content":"Add a total."}\n' +
    '{"role":"assistant","content":"Done."}\n',
};

/** A warning a hermetic build may give: the model views have no key and no network here. */
const OFFLINE_WARNING = /^\[plugin slop:llm_summary\] Cannot summarize /;

type Kind = "config" | "plugin" | "test" | "script";

interface Snippet {
  fence: Fence;
  kind: Kind;
  source: string;
}

/** The README's complete TypeScript blocks, with slop's `mod.ts` and `config.ts` imported from this checkout. */
function snippets(): Snippet[] {
  const out: Snippet[] = [];
  for (const fence of DOC.fences) {
    if (!["ts", "typescript"].includes(fence.info)) continue;
    if (fence.marker === "fragment") continue;
    const source = fence.body.replace(
      /from "(?:\.\.?\/)+(?:slop\/)?(mod|config)\.ts"/g,
      (_, entry) => `from ${JSON.stringify(entry === "mod" ? MOD : CONFIG)}`,
    );
    const kind: Kind = source.includes("export default defineConfig(")
      ? "config"
      : source.includes("Deno.test(")
      ? "test"
      : /^export function \w+\(/m.test(source)
      ? "plugin"
      : "script";
    out.push({ fence, kind, source });
  }
  return out;
}

/** Run a Deno subcommand with a clean environment: no API keys, so nothing can reach a provider. */
/** What the README's runs keep of this process's environment (the rest is cleared). */
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

async function deno(args: string[], cwd: string) {
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
async function pool<T>(jobs: (() => Promise<T>)[], width = 2): Promise<T[]> {
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

/** One fixture project per snippet; the plugin blocks sit in `plugins/` as the configs import them. */
async function projects(
  all: Snippet[],
): Promise<{ snippet: Snippet; dir: string; file: string }[]> {
  const plugins: Tree = {};
  for (const s of all.filter((s) => s.kind === "plugin")) {
    const name = /^export function (\w+)/m.exec(s.source)![1];
    const file = name === "todoViewMode" ? "todo_view.ts" : `${name}.ts`;
    plugins[`plugins/${file}`] = s.source;
  }
  const firstConfig = all.find((s) => s.kind === "config")!.source;
  const out = [];
  for (const snippet of all) {
    const name = {
      config: "slop.config.ts",
      plugin: "plugin.ts",
      test: "context_test.ts",
      script: "script.ts",
    }[snippet.kind];
    const tree: Tree = { ...FIXTURE, ...plugins, [name]: snippet.source };
    // A test or script runs in the README's first setup: its slop.config.ts.
    if (snippet.kind !== "config") tree["slop.config.ts"] = firstConfig;
    const dir = await makeProject(tree);
    out.push({ snippet, dir, file: join(dir, name) });
  }
  return out;
}

Deno.test("the README's TypeScript blocks type-check, and every config block builds with slop build", async () => {
  const all = snippets();
  const kinds = all.map((s) => s.kind);
  assert.ok(kinds.filter((k) => k === "config").length >= 6, `config blocks: ${kinds}`);
  assert.ok(kinds.includes("plugin") && kinds.includes("test") && kinds.includes("script"));
  const made = await projects(all);

  const check = await deno(["check", "--quiet", ...made.map((m) => m.file)], made[0].dir);
  assert.equal(check.code, 0, check.stderr);

  const runs = await pool(made.map(({ snippet, dir }) => async () => {
    const where = `README line ${snippet.fence.line} (${snippet.kind})`;
    if (snippet.kind === "config") {
      const run = await deno(["run", "-A", "--quiet", join(REPO, "cli.ts"), "build"], dir);
      assert.equal(run.code, 0, `${where}: ${run.stdout}${run.stderr}`);
      const manifest = JSON.parse(
        await Deno.readTextFile(join(dir, ".slop", "out", "context_001.json")),
      );
      const files: { path: string; status: string }[] = manifest.files;
      assert.ok(files.some((f) => f.status === "rendered"), where);
      assert.deepEqual(files.filter((f) => f.status === "error"), [], where);
      const warnings = (manifest.warnings as string[]).filter((w) => !OFFLINE_WARNING.test(w));
      assert.deepEqual(warnings, [], where);
    } else if (snippet.kind === "test") {
      // As the README says: record the snapshot with -u, then the test passes against it.
      for (const args of [["test", "-A", "--quiet", "-u"], ["test", "-A", "--quiet"]]) {
        const run = await deno(args, dir);
        assert.equal(run.code, 0, `${where}: deno ${args.join(" ")}: ${run.stdout}${run.stderr}`);
      }
    } else if (snippet.kind === "script") {
      const run = await deno(["run", "-A", "--quiet", "script.ts"], dir);
      assert.equal(run.code, 0, `${where}: ${run.stdout}${run.stderr}`);
    }
    return where;
  }));
  assert.equal(runs.length, made.length);
  for (const { dir } of made) await Deno.remove(dir, { recursive: true });
});

Deno.test("the README's plugin example is examples/plugins/todo_view.ts, byte for byte", async () => {
  const example = await Deno.readTextFile(join(REPO, "examples", "plugins", "todo_view.ts"));
  assert.ok(
    DOC.fences.some((f) => f.info === "ts" && f.body === example),
    "README shows the plugin file whole",
  );
});

Deno.test("a block after <!-- readme-test: fragment --> is marked; code spans may wrap lines", () => {
  const md =
    "Text `slop\nbuild` and ``a ` b``.\n\n<!-- readme-test: fragment -->\n```ts\nx;\n```\n" +
    "\n````ts\n```\ny;\n````\n";
  const parsed = parseMarkdown(md);
  assert.deepEqual(parsed.fences.map((f) => [f.info, f.body, f.marker]), [
    ["ts", "x;\n", "fragment"],
    ["ts", "```\ny;\n", undefined],
  ]);
  assert.deepEqual(codeSpans(parsed.paragraphs[0]), ["slop build", "a ` b"]);
  assert.equal(anchorOf("Benchmarks, stats and reports"), "benchmarks-stats-and-reports");
});

Deno.test("fragment markers are rare and each sits on a ts block", () => {
  const marked = DOC.fences.filter((f) => f.marker !== undefined);
  for (const f of marked) {
    assert.equal(f.marker, "fragment", `README line ${f.line}`);
    assert.equal(f.info, "ts", `README line ${f.line}`);
  }
  const ts = DOC.fences.filter((f) => f.info === "ts");
  assert.ok(marked.length * 4 <= ts.length, `${marked.length} of ${ts.length} ts blocks skipped`);
});

// ---- command lines --------------------------------------------------------------------------

let PROGRAM: ProgramSpec | undefined;
await main([], { inspect: (program) => PROGRAM = program });
const program = PROGRAM!;
const DEFAULT_COMMAND = program.defaultCommand;
const HELP = new Set(["-h", "--help"]);

/** The leaf commands of cli.ts by their path ("build", "cache stats", ...). */
function leaves(cmd: CommandSpec = program, prefix: string[] = []): Map<string, CommandSpec> {
  const out = new Map<string, CommandSpec>();
  for (const sub of cmd.commands ?? []) {
    const path = [...prefix, sub.name];
    if (sub.commands) { for (const [k, v] of leaves(sub, path)) out.set(k, v); }
    else out.set(path.join(" "), sub);
  }
  return out;
}

/** The options of `cmd`, their flags taken apart. */
function optionsOf(cmd: CommandSpec) {
  return (cmd.options ?? []).map(optionFlags);
}

/** Resolve `words` (after `slop`) to a command; the problems with its flags and operands. */
function checkSlop(words: string[]): { path: string; problems: string[] } {
  const clean = words.map((w) => w.replace(/^\[+|\]+$/g, "").replace(/\.\.\.$/, ""))
    .filter((w) => w !== "");
  if (clean.length === 1 && ["--version", "-V"].includes(clean[0])) {
    return { path: "", problems: [] };
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
function checkLine(line: string): string[] {
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
  return [];
}

/** Every command line of the README: lines of sh blocks and code spans in the prose. */
function commandLines(): { line: string; where: string }[] {
  const out: { line: string; where: string }[] = [];
  for (const fence of DOC.fences.filter((f) => f.info === "sh")) {
    fence.body.split("\n").forEach((line, i) => {
      if (line.trim() && !line.trim().startsWith("#")) {
        out.push({ line, where: `README line ${fence.line + 1 + i}` });
      }
    });
  }
  for (const paragraph of DOC.paragraphs) {
    for (const span of codeSpans(paragraph)) {
      if (/^(slop [a-z-]|deno (task|run) |npx )/.test(span)) {
        out.push({ line: span, where: `span \`${span}\`` });
      }
    }
  }
  return out;
}

Deno.test("every command line in the README is a known command with known flags", () => {
  const lines = commandLines();
  assert.ok(lines.length >= 30, `${lines.length} command lines`);
  const problems = lines.flatMap(({ line, where }) => checkLine(line).map((p) => `${where}: ${p}`));
  assert.deepEqual(problems, []);
});

Deno.test("the checker itself rejects unknown commands, flags and tasks", () => {
  assert.equal(DEFAULT_COMMAND, "build");
  assert.deepEqual(checkLine("slop build --stdout --json"), []);
  assert.deepEqual(checkLine("slop --version"), []);
  assert.deepEqual(checkLine("deno task slop check --update --config examples/slop.config.ts"), []);
  assert.notDeepEqual(checkLine("slop biuld"), []);
  assert.notDeepEqual(checkLine("slop build --stdou"), []);
  assert.notDeepEqual(checkLine("slop cache"), []);
  assert.notDeepEqual(checkLine("slop init a b"), []);
  assert.notDeepEqual(checkLine("npx -y deno@2 task contxt"), []);
  assert.notDeepEqual(checkLine("deno run -A bench/nothing.ts"), []);
});

/** The command reference: the bare block right under "## The command line". */
function reference(): Fence {
  const heading = DOC.headings.find((h) => h.text === "The command line")!;
  return DOC.fences.find((f) => f.line > heading.line && f.info === "")!;
}

Deno.test("the README's command reference lists every command and flag of cli.ts, each as defined", () => {
  const documented = new Map<string, Set<string>>();
  const problems: string[] = [];
  let current = "";
  for (const line of reference().body.split("\n")) {
    const left = line.trim().split(/\s{2,}/)[0];
    if (line.startsWith("slop ")) {
      const { path, problems: p } = checkSlop(left.split(/\s+/).slice(1));
      problems.push(...p.map((x) => `${left}: ${x}`));
      current = path;
      const flags = documented.get(path) ?? new Set();
      for (const m of left.matchAll(/(--?[\w-]+)/g)) flags.add(m[1]);
      documented.set(path, flags);
    } else if (/^\s+-/.test(line)) {
      const takesValue = left.includes("<");
      for (const item of left.split(/,\s*/)) {
        const flag = item.split(" ")[0];
        documented.get(current)!.add(flag);
        const cmd = leaves().get(current)!;
        const option = findOption(cmd, flag);
        if (!option) problems.push(`${current}: unknown option "${flag}"`);
        else if (option.takesValue !== takesValue) {
          problems.push(`${current}: "${flag}" ${option.takesValue ? "takes" : "takes no"} value`);
        }
      }
    }
  }
  // -c/--config and --state-dir are described once, above the block.
  const common = new Set(["-c", "--config", "--state-dir"]);
  for (const [path, cmd] of leaves()) {
    const flags = documented.get(path);
    if (!flags) {
      problems.push(`"slop ${path}" is missing`);
      continue;
    }
    for (const option of optionsOf(cmd)) {
      if (common.has(option.long)) continue;
      if (!flags.has(option.long) && !flags.has(option.short!)) {
        problems.push(`"slop ${path}": "${option.long}" is missing`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the README says which commands take --config and --state-dir, as cli.ts defines them", () => {
  const prose = DOC.paragraphs.find((p) => p.includes("also take `--state-dir <dir>`"));
  assert.ok(prose, "the sentence on --state-dir");
  const listed = codeSpans(prose.split("also take `--state-dir")[0].split("zero-config);")[1])
    .sort();
  const tops = (has: string) =>
    program.commands!.filter((c) => (c.commands ?? [c]).every((leaf) => findOption(leaf, has))).map(
      (c) => c.name,
    ).sort();
  assert.deepEqual(listed, tops("--state-dir"));
  assert.match(prose, /Every command but `init` takes `-c, --config <path>`/);
  assert.deepEqual(
    program.commands!.map((c) => c.name).filter((n) => !tops("--config").includes(n)),
    ["init"],
  );
});

// ---- structure and facts --------------------------------------------------------------------

Deno.test("the README's contents list every section in order, and every #anchor exists", () => {
  const anchors = new Set(DOC.headings.map((h) => anchorOf(h.text)));
  const contents = DOC.paragraphs.find((p) => p.startsWith("- [Quick start]"))!;
  const listed = [...contents.matchAll(/\[([^\]]+)\]\(#([^)]+)\)/g)];
  for (const [, text, anchor] of listed) {
    assert.equal(anchorOf(text), anchor, `contents entry "${text}"`);
  }
  const sections = DOC.headings.filter((h) => h.level === 2 && h.text !== "Contents")
    .map((h) => h.text);
  const listedTexts = listed.map((m) => m[1]);
  assert.deepEqual(listedTexts.filter((t) => sections.includes(t)), sections);
  const subsections = DOC.headings.filter((h) => h.level >= 2).map((h) => h.text);
  assert.deepEqual(
    listedTexts.filter((t) => !sections.includes(t)).filter((t) => !subsections.includes(t)),
    [],
  );
  assert.deepEqual(listedTexts, subsections.filter((t) => listedTexts.includes(t)), "in order");
  const links = [...README.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
  assert.deepEqual(links.filter((a) => !anchors.has(a)), []);
});

Deno.test("every repository path the README names exists", () => {
  const paths = new Set<string>();
  const top = "(?:api|bench|cli|docs|examples|grammars|knowledge|pipeline|plugins|report|tests)";
  const re = new RegExp(`^${top}/[\\w./-]+\\.(?:ts|md|toml|jsonl|json|lock|png)$`);
  for (const p of DOC.paragraphs) {
    for (const span of codeSpans(p)) if (re.test(span)) paths.add(span);
    for (const m of p.matchAll(/\]\(([\w./-]+)\)/g)) if (re.test(m[1])) paths.add(m[1]);
  }
  for (const extra of ["cli.ts", "mod.ts", "config.ts", "deps.ts", ".ci/run"]) paths.add(extra);
  assert.ok(paths.size >= 20, [...paths].join(" "));
  assert.deepEqual([...paths].filter((p) => !existsSync(join(REPO, p))), []);
});

Deno.test("the README opens with the two newcomer commands", () => {
  const first = DOC.fences[0];
  assert.equal(first.line, 3);
  assert.equal(
    first.body.split("\n").map((l) => l.split("#")[0].trim()).filter(Boolean).join("\n"),
    "npx -y deno@2 task context\nnpx -y deno@2 task test",
  );
});

/** The bare block that follows the paragraph containing `after`. */
function blockAfter(after: string): Fence {
  const line = README.split("\n").findIndex((l) => l.includes(after)) + 1;
  assert.ok(line > 0, after);
  return DOC.fences.find((f) => f.line > line)!;
}

Deno.test("the Quick start's summary and the cache stats are what the bundled example prints", async () => {
  // Run from a temp folder with the README's state dir, so the printed paths are the README's.
  const cwd = await tempDir();
  await Deno.mkdir(join(cwd, "examples"));
  const args = ["--config", join(REPO, "examples", "slop.config.ts"), "--state-dir"];
  const cli = ["run", "-A", "--quiet", join(REPO, "cli.ts")];
  const first = await deno([...cli, "build", ...args, "examples/.slop"], cwd);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, blockAfter("`deno task context` builds the bundled example").body);
  const second = await deno([...cli, "build", ...args, "examples/.slop"], cwd);
  assert.equal(second.code, 0, second.stderr);
  const stats = await deno([...cli, "cache", "stats", ...args, "examples/.slop"], cwd);
  assert.equal(stats.code, 0, stats.stderr);
  const shown = blockAfter("On a fresh clone, after `deno task context` twice").body.split("\n")
    .filter((l) => l.startsWith("# ")).map((l) => l.slice(2) + "\n").join("");
  assert.equal(stats.stdout, shown);
  // The overview quotes the same figures.
  const hits = /files (\d+)\/(\d+) hits .* token counts (\d+)\/(\d+) hits/.exec(stats.stdout)!;
  assert.ok(
    README.replace(/\s+/g, " ").includes(
      `takes ${hits[1]} of ${hits[2]} files and ${hits[3]} of ${hits[4]} token counts`,
    ),
    "the overview's warm rebuild figures",
  );
  const cost = /cold (\$[\d.]+), warm (\$[\d.]+)/.exec(first.stdout)!;
  assert.ok(README.includes(`${cost[1]} cold, ${cost[2]} warm`), "the overview's call costs");
  await Deno.remove(cwd, { recursive: true });
});

/** The rows of the README table whose header cells are `header`, as trimmed cells. */
function table(header: string[]): string[][] {
  const lines = README.split("\n");
  const cells = (line: string) => line.trim().replace(/^\||\|$/g, "").split(/(?<!\\)\|/);
  const start = lines.findIndex((l) =>
    l.startsWith("|") && JSON.stringify(cells(l).map((c) => c.trim())) === JSON.stringify(header)
  );
  assert.ok(start >= 0, `a table with columns ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(cells(line).map((c) => c.trim()));
  }
  return rows;
}

/** The keys of an `obj({...})` schema in pipeline/config.ts, from its source. */
async function schemaKeys(opening: string): Promise<string[]> {
  const source = await Deno.readTextFile(join(REPO, "pipeline", "config.ts"));
  const body = source.split(opening)[1].split(/\n\}/)[0];
  return [...body.matchAll(/^ {2}(\w+)(?::|,)/gm)].map((m) => m[1]);
}

Deno.test("the README's config and FileEntry tables list exactly the keys the config schema knows", async () => {
  const config = table(["key", "type", "default", "meaning"]).map((r) => r[0].replace(/`/g, ""));
  const entry = table(["key", "type", "meaning"]).map((r) => r[0].replace(/`/g, ""));
  assert.deepEqual([...config].sort(), (await schemaKeys("const SCHEMA: Rule = obj({")).sort());
  assert.deepEqual([...entry].sort(), (await schemaKeys("const fileEntry = obj({")).sort());
  // And the schema itself agrees: a wrong type, not an unknown key.
  for (const key of config) {
    const problems = validateConfig({ [key]: Symbol("wrong") });
    assert.ok(problems.length && !problems.some((p) => p.startsWith("Unknown key")), key);
  }
  for (const key of entry.filter((k) => k !== "path")) {
    const problems = validateConfig({ files: [{ path: "a", [key]: Symbol("wrong") }] });
    assert.ok(problems.length && !problems.some((p) => p.startsWith("Unknown key")), key);
  }
});

Deno.test("the README's plugin, section and view tables are the built-ins, in the order they run", () => {
  const builtins = defaultPlugins();
  const rows = table(["kind", "hooks", "name", "factory"]);
  let kind = "";
  const listed = rows.map((r) => {
    if (r[0]) kind = r[0].replace(/`/g, "");
    return { kind, name: r[2].replace(/`/g, ""), factory: r[3].replace(/`|\(\)/g, "") };
  });
  assert.deepEqual(
    listed.map((p) => `${p.kind} ${p.name}`),
    builtins.map((p) => `${p.kind} ${p.name}`),
  );
  const exports = mod as unknown as Record<string, () => { name: string }>;
  for (const p of listed) {
    assert.equal(typeof exports[p.factory], "function", `mod.ts exports ${p.factory}`);
    assert.equal(exports[p.factory]().name, p.name, p.factory);
  }
  const sections = table(["plugin", "renders", "stability", "when"]).map((r) =>
    r[0].replace(/`/g, "")
  );
  assert.deepEqual(sections, builtins.filter((p) => p.kind === "section").map((p) => p.name));
  const views = table(["view", "output"]).map((r) => `slop:${r[0].replace(/`/g, "")}`);
  assert.deepEqual(
    views.sort(),
    builtins.filter((p) => p.kind === "view-mode").map((p) => p.name).sort(),
  );
});

/** Each line's label: its text up to the first ":" (the sample's values are illustrative). */
function labels(text: string): string[] {
  return text.trimEnd().split("\n").map((l) => l.split(":")[0]);
}

Deno.test("the README's slop check and slop explain samples have the lines the commands print", async () => {
  const dir = await makeProject({
    "slop.config.ts": 'export default { files: ["src/**"] };\n',
    "src/inventory.ts": "export class Inventory {\n  items = new Map<string, number>();\n}\n",
    "src/store.py": 'class Store:\n    """A store."""\n\n    def get(self, sku):\n' +
      "        return self.items[sku]\n",
    "src/notes.md": "# Notes\n\nSmall.\n",
  });
  const cli = ["run", "-A", "--quiet", join(REPO, "cli.ts")];
  assert.equal((await deno([...cli, "check", "--update"], dir)).code, 0);
  assert.equal((await deno([...cli, "build", "-q"], dir)).code, 0);
  await Deno.writeTextFile(
    join(dir, "src", "store.py"),
    'class Store:\n    """A store."""\n\n    def get(self, sku):\n        return self.items.get(sku)\n',
  );
  const check = await deno([...cli, "check"], dir);
  assert.equal(check.code, 1, check.stderr);
  assert.equal((await deno([...cli, "build", "-q"], dir)).code, 0);
  const explain = await deno([...cli, "explain"], dir);
  assert.equal(explain.code, 0, explain.stderr);
  assert.deepEqual(
    labels(blockAfter("exits 1 when the prefix differs").body),
    labels(check.stdout + check.stderr),
  );
  assert.deepEqual(
    labels(blockAfter("compares the last two written builds").body),
    labels(explain.stdout),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the README's config error is the one slop prints for a mistyped key", async () => {
  const dir = await makeProject({
    "slop.config.ts":
      'export default { files: ["a", "b", "c", { path: "a.ts", veiw: "full" }] };\n',
    "a.ts": "export const a = 1;\n",
  });
  const run = await deno(["run", "-A", "--quiet", join(REPO, "cli.ts"), "build"], dir);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, blockAfter("keys are errors that name the key path and the file").body);
  await Deno.remove(dir, { recursive: true });
});
