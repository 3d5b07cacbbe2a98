/**
 * A seeded, deterministic fuzzer of every input slop reads: it mutates valid examples (byte flips,
 * truncation, duplication, deep nesting, huge numbers, wrong JSON types, NUL, byte order marks,
 * CR, lone surrogates, 1 MB values) of one input at a time and runs slop on it in-process, with a
 * time guard per case. The oracle: no `slop: internal error`, no thrown error, no hang; an error is
 * one clear line naming the file (or key, flag, argument); a build whose bad input is only slop's
 * own state (`.slop/`: cache, order and budget memory, the latest-output marker) or a project file
 * (notebooks, sources, `.gitignore`) exits 0 and writes a whole output; a build whose cache files
 * were spoiled writes the same document as one with a sound cache.
 *
 * ```sh
 * deno run -A bench/fuzz_inputs.ts --seed 1 --rounds 200
 * deno run -A bench/fuzz_inputs.ts --seed 1 --rounds 200 --surface beads,history --timeout 60
 * ```
 *
 * The parent process runs the cases in a child (`--child`) and reads one line per case; when a
 * case gives no line within `--timeout` seconds, the child is killed, the case is a hang, and a
 * new child goes on from the next case. Findings are printed one a line and counted by class.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runCases } from "./_child_cases.ts";
import { prng } from "../tests/_helpers.ts";
import { messageFaults, validConfig } from "../tests/hostile/_bad_input.ts";
import { connect, type Session, texts } from "../tests/mcp/_client.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

/** One surface: the file it spoils (relative to the project) and the commands that read it. */
interface Surface {
  name: string;
  /** Files of the base project this surface mutates (one is picked per case). */
  files: string[];
  /** The command lines run on the spoiled project. */
  commands: string[][];
  /** "state": the build must succeed (the input is slop's own state or a project file). */
  kind: "state" | "project" | "input";
  /** The document must be byte-identical to the sound build's (cache files). */
  sameDocument?: boolean;
}

const SURFACES: Surface[] = [
  { name: "lock", files: ["slop.lock"], commands: [["check"], ["build"]], kind: "input" },
  { name: "slices", files: ["slop/slices.toml"], commands: [["build"]], kind: "input" },
  {
    name: "knowledge",
    files: [
      "slop/knowledge/facts.md",
      "slop/knowledge/digest.md",
      "slop/knowledge/ledger.json",
      "slop/knowledge/ledger.json",
      "convos/a.jsonl",
    ],
    commands: [
      ["build"],
      ["knowledge", "digest"],
      ["knowledge", "harvest"],
      ["knowledge", "harvest", "--apply", "--no-harvest", "--reclaim"],
    ],
    kind: "input",
  },
  { name: "beads", files: [".beads/issues.jsonl"], commands: [["build"]], kind: "input" },
  { name: "history", files: ["discussion.jsonl"], commands: [["build"]], kind: "input" },
  {
    name: "order-memory",
    files: [".slop/order/context.task.json"],
    commands: [["build"]],
    kind: "state",
  },
  {
    name: "cache",
    files: [".slop/cache/last-build.json", ".slop/cache/usage.json", "@stat", "@packs"],
    commands: [["build"]],
    kind: "state",
    sameDocument: true,
  },
  { name: "budget-memory", files: ["@budget"], commands: [["build"]], kind: "state" },
  {
    name: "latest-marker",
    files: [".slop/out/.context.last"],
    commands: [["build"], ["stats"]],
    kind: "state",
  },
  {
    name: "manifest",
    files: [".slop/out/context_002.json", ".slop/out/context_001.json"],
    commands: [["stats"], ["explain"], ["report", "--out", "/dev/null"]],
    kind: "input",
  },
  {
    name: "gitfiles",
    files: [".gitattributes", ".gitignore"],
    commands: [["build"]],
    kind: "project",
  },
  { name: "notebook", files: ["nb/a.ipynb"], commands: [["build"]], kind: "project" },
  {
    name: "source",
    files: [
      "src/inventory.ts",
      "app/store.py",
      "docs/design.md",
      "lang/a.go",
      "lang/a.rs",
      "lang/A.java",
      "lang/a.c",
      "lang/a.cpp",
      "lang/a.rb",
      "lang/a.php",
      "lang/a.cs",
      "lang/a.sh",
      "lang/a.scala",
      "lang/a.kt",
      "lang/a.lua",
      "lang/a.zig",
      "lang/a.ex",
      "lang/a.js",
      "lang/a.tsx",
    ],
    commands: [["build"], ["build", "--budget", "900"], ["build", "--strategy", "full"]],
    kind: "project",
  },
  { name: "config", files: [], commands: [], kind: "input" },
  { name: "flags", files: [], commands: [], kind: "input" },
  { name: "mcp", files: [], commands: [], kind: "input" },
];

/** The sources of the base project's `lang/` folder, one per grammar. */
const LANG_FILES: Record<string, string> = {
  "lang/a.go":
    'package a\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\ntype T struct{ X int }\n\nfunc (t *T) M() string { return "x" }\n',
  "lang/a.rs":
    "/// Adds.\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub struct S { x: u8 }\n\nimpl S {\n    pub fn get(&self) -> u8 { self.x }\n}\n",
  "lang/A.java":
    "package a;\n\n/** A. */\npublic class A {\n  private int x;\n  public int get() { return x; }\n  static class B { void m() {} }\n}\n",
  "lang/a.c":
    '#include <stdio.h>\n#define MAX 3\n\n/* add */\nint add(int a, int b) {\n  return a + b;\n}\n\nstruct s { int x; };\nstatic void f(void) { printf("x"); }\n',
  "lang/a.cpp":
    "namespace n {\nclass C {\n public:\n  int get() const { return x_; }\n private:\n  int x_ = 0;\n};\ntemplate <typename T> T id(T t) { return t; }\n}  // namespace n\n",
  "lang/a.rb":
    "module M\n  # A class.\n  class C\n    def initialize(x)\n      @x = x\n    end\n\n    def get = @x\n  end\nend\n",
  "lang/a.php":
    "<?php\nnamespace App;\n\nclass C {\n    public function get(): int { return 1; }\n}\n\nfunction f($a) { return $a; }\n",
  "lang/a.cs":
    "namespace N;\n\npublic class C {\n    public int X { get; set; }\n    public int Get() { return X; }\n}\n",
  "lang/a.sh":
    '#!/bin/sh\n# Greet.\ngreet() {\n  echo "hi $1"\n}\nmain() { greet "$@"; }\nmain "$@"\n',
  "lang/a.scala":
    "package a\n\nobject O {\n  def f(x: Int): Int = x + 1\n}\n\nclass C(val x: Int) { def g = x }\n",
  "lang/a.kt":
    "package a\n\nclass C(val x: Int) {\n    fun get(): Int = x\n}\n\nfun top(a: Int) = a\n",
  "lang/a.lua":
    "local M = {}\n\n-- Adds.\nfunction M.add(a, b)\n  return a + b\nend\n\nfunction M:get() return self.x end\n\nreturn M\n",
  "lang/a.zig":
    'const std = @import("std");\n\npub fn add(a: i32, b: i32) i32 {\n    return a + b;\n}\n\nconst S = struct { x: u8 };\n',
  "lang/a.ex":
    'defmodule M do\n  @doc "Adds."\n  def add(a, b), do: a + b\n\n  defp hidden(x) do\n    x\n  end\nend\n',
  "lang/a.js":
    "export class C {\n  get() { return 1; }\n}\n\nexport function f(a) {\n  return a;\n}\n",
  "lang/a.tsx": "export function App(props: { x: number }) {\n  return <div>{props.x}</div>;\n}\n",
};

const NOTEBOOK = JSON.stringify(
  {
    cells: [
      { cell_type: "markdown", metadata: {}, source: ["# Title\n", "Some text"] },
      {
        cell_type: "code",
        execution_count: 1,
        metadata: {},
        outputs: [{ output_type: "stream", name: "stdout", text: ["1\n"] }, {
          output_type: "display_data",
          data: {
            "image/png":
              "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\n",
            "text/plain": ["<Figure>"],
          },
          metadata: {},
        }],
        source: ["def f(x):\n", "    return x + 1\n", "print(f(0))"],
      },
    ],
    metadata: { kernelspec: { name: "python3", language: "python", display_name: "Python 3" } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
);

const CONVERSATION = '{"role":"user","content":"we indent with tabs"}\n' +
  '{"role":"assistant","content":"noted"}\n';

const CONFIG = `import { defineConfig } from "${new URL("../config.ts", import.meta.url).href}";
export default defineConfig({
  files: [
    "README.md",
    { path: "src/**", view: "skeleton" },
    { path: "app/**", view: "outline" },
    { path: "docs/design.md", view: "custom" },
    "docs/**",
    "nb/**",
    { path: "lang/**", view: "skeleton" },
    { path: "lang/a.{rb,kt,lua,go}", view: "outline" },
    { path: "lang/a.{rs,c,js}", view: "masked", mask: { add: "def", f: "hide" }, options: { rest: "sig" } },
  ],
  history: "discussion.jsonl",
  beads: true,
  knowledge: { dir: "slop/knowledge", conversations: ["convos/*.jsonl"] },
  budget: { tokens: 2500 },
  task: "fix the inventory report",
});
`;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Run `cmd` in `cwd`; its output, or a thrown error when it fails. */
async function sh(cmd: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`${cmd.join(" ")}: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout);
}

/** Make the base project in `dir`: examples' files, a notebook, one source per grammar, git. */
async function makeBase(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const ex = join(REPO, "examples");
  for (const name of ["src", "app", "docs", "slop", "discussion.jsonl", "slop.lock", "README.md"]) {
    await sh(["cp", "-r", join(ex, name), dir], REPO);
  }
  const beads = await Deno.readTextFile(join(REPO, "tests/fixtures/beads/issues.jsonl"));
  const files: Record<string, string> = {
    ...LANG_FILES,
    ".beads/issues.jsonl": beads.split("\n").slice(0, 6).join("\n") + "\n",
    "nb/a.ipynb": NOTEBOOK,
    ".gitattributes": "*.png binary\ndocs/changelog.md linguist-generated\n",
    ".gitignore": "*.log\n/build/\n!keep.log\n",
    "slop.config.ts": CONFIG,
    "convos/a.jsonl": CONVERSATION,
    "convos/b.jsonl": CONVERSATION + CONVERSATION,
  };
  const sha = async (text: string) =>
    [...new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
  const entry = { path: "convos/a.jsonl", at: "2026-11-29T00:00:00.000Z", deleted: false };
  files["slop/knowledge/ledger.json"] = JSON.stringify(
    {
      entries: {
        [await sha(CONVERSATION)]: { ...entry, status: "harvested", items: { facts: 1 } },
        [await sha(CONVERSATION + CONVERSATION)]: {
          ...entry,
          path: "convos/b.jsonl",
          status: "harvest-failed",
          error: "network",
          pending: { facts: [{ statement: "Tabs" }], decisions: [], tasks_open: [] },
        },
      },
    },
    null,
    2,
  );
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  await sh(["git", "init", "-q"], dir);
  await sh(["git", "add", "-A"], dir);
  await sh(["git", "-c", "user.email=f@z", "-c", "user.name=fz", "commit", "-qm", "base"], dir);
}

// ---------------------------------------------------------------- mutations

type Random = () => number;
const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Random, n: number) => Math.floor(r() * n);

function splice(bytes: Uint8Array, at: number, cut: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - cut + insert.length);
  out.set(bytes.subarray(0, at));
  out.set(insert, at);
  out.set(bytes.subarray(at + cut), at + insert.length);
  return out;
}

const HOSTILE_VALUES: Array<[string, unknown]> = [
  ["null", null],
  ["a number", 7],
  ["a huge number", 1e308],
  ["a negative number", -1],
  ["a fraction", 0.5],
  ["a string", "x"],
  ["an empty string", ""],
  ["a boolean", true],
  ["an array", [1, "a"]],
  ["an object", { a: 1 }],
  ["a 1 MB string", "y".repeat(1 << 20)],
  ["a NUL string", "a\u0000b"],
  ["a lone surrogate", "a\ud800b"],
  ["a BOM and CR string", "\ufeffa\rb\r\n"],
  ["a deep array", JSON.parse("[".repeat(3000) + "]".repeat(3000))],
  ["a __proto__ key", JSON.parse('{"__proto__": {"x": 1}}')],
];

/** Replace a random value inside parsed JSON with a hostile one. */
function jsonTypeMutation(r: Random, value: unknown): [unknown, string] {
  const spots: Array<[Record<string | number, unknown>, string | number]> = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 12 || !v || typeof v !== "object") return;
    for (const key of Object.keys(v)) {
      spots.push([v as Record<string, unknown>, Array.isArray(v) ? Number(key) : key]);
      walk((v as Record<string, unknown>)[key], depth + 1);
    }
  };
  walk(value, 0);
  const [label, bad] = pick(r, HOSTILE_VALUES);
  if (!spots.length) return [bad, `whole value -> ${label}`];
  const [parent, key] = pick(r, spots);
  parent[key] = bad;
  return [value, `${String(key)} -> ${label}`];
}

/** Mutate a JSON or JSON Lines text structurally (one value of one line). */
function jsonMutation(r: Random, text: string): [string, string] | undefined {
  const lines = text.split("\n");
  const idx = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim());
  if (!idx.length) return undefined;
  const whole = (() => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  })();
  if (whole) {
    const [v, label] = jsonTypeMutation(r, JSON.parse(text));
    return [JSON.stringify(v), `json ${label}`];
  }
  const [line, i] = pick(r, idx);
  try {
    const [v, label] = jsonTypeMutation(r, JSON.parse(line));
    lines[i] = JSON.stringify(v);
    return [lines.join("\n"), `jsonl line ${i + 1}: ${label}`];
  } catch {
    return undefined;
  }
}

/** One mutation of `bytes`: the new bytes (or "delete" / "dir") and a label. */
function mutate(r: Random, bytes: Uint8Array): [Uint8Array | "delete" | "dir", string] {
  const text = decoder.decode(bytes);
  const n = bytes.length;
  const kinds = [
    "flip",
    "truncate",
    "duplicate",
    "nest",
    "number",
    "json",
    "json",
    "json",
    "control",
    "big",
    "empty",
    "delete",
    "dir",
    "lines",
  ];
  const kind = pick(r, kinds);
  switch (kind) {
    case "flip": {
      const out = bytes.slice();
      const count = 1 + int(r, 8);
      for (let i = 0; i < count && n; i++) out[int(r, n)] ^= 1 << int(r, 8);
      return [out, `flip ${count} bits`];
    }
    case "truncate": {
      const at = int(r, n + 1);
      return [bytes.subarray(0, at), `truncate at ${at}/${n}`];
    }
    case "duplicate": {
      const a = int(r, n + 1), b = Math.min(n, a + int(r, 400));
      const times = 1 + int(r, 50);
      const chunk = bytes.subarray(a, b);
      const ins = new Uint8Array(chunk.length * times);
      for (let i = 0; i < times; i++) ins.set(chunk, i * chunk.length);
      return [splice(bytes, b, 0, ins), `duplicate ${a}..${b} x${times}`];
    }
    case "nest": {
      const open = pick(r, ["[", '{"a":', "(", "{", "[[", "<a>", "- ", "  ", "> "]);
      const depth = pick(r, [100, 3000, 50000]);
      const at = int(r, n + 1);
      return [
        splice(bytes, at, 0, encoder.encode(open.repeat(depth))),
        `nest ${JSON.stringify(open)} x${depth} at ${at}`,
      ];
    }
    case "number": {
      const spots = [...text.matchAll(/\d+/g)];
      const huge = pick(r, [
        "1e400",
        "99999999999999999999999999",
        "-1",
        "NaN",
        "-0",
        "1.5",
        "0x10",
        "4294967297",
        "9".repeat(5000),
      ]);
      if (!spots.length) return [encoder.encode(text + huge), `append ${huge.slice(0, 20)}`];
      const m = pick(r, spots);
      const out = text.slice(0, m.index) + huge + text.slice(m.index! + m[0].length);
      return [encoder.encode(out), `number ${m[0]} -> ${huge.slice(0, 20)}`];
    }
    case "json": {
      const got = jsonMutation(r, text);
      if (got) return [encoder.encode(got[0]), got[1]];
      return mutate(r, bytes);
    }
    case "control": {
      const what = pick(r, [
        ["NUL", new Uint8Array([0])],
        ["BOM", new Uint8Array([0xef, 0xbb, 0xbf])],
        ["CR", new Uint8Array([13])],
        ["CRLF everywhere", new Uint8Array()],
        ["lone surrogate bytes", new Uint8Array([0xed, 0xa0, 0x80])],
        ["escaped lone surrogate", encoder.encode("\\ud800")],
        ["UTF-16 BOM", new Uint8Array([0xff, 0xfe])],
        ["invalid UTF-8", new Uint8Array([0xc3, 0x28, 0xff])],
      ] as Array<[string, Uint8Array]>);
      if (what[0] === "CRLF everywhere") {
        return [encoder.encode(text.replaceAll("\n", "\r\n")), what[0]];
      }
      const at = pick(r, [0, int(r, n + 1), n]);
      return [splice(bytes, at, 0, what[1]), `${what[0]} at ${at}`];
    }
    case "big": {
      const at = int(r, n + 1);
      const big = pick(r, ["a", '"', "\\", "\n", "é", "[", " "]).repeat(1 << 20);
      return [
        splice(bytes, at, 0, encoder.encode(big)),
        `1 MB of ${JSON.stringify(big[0])} at ${at}`,
      ];
    }
    case "empty":
      return [new Uint8Array(), "empty"];
    case "delete":
      return ["delete", "deleted"];
    case "dir":
      return ["dir", "a folder in its place"];
    default: {
      // Lines: drop, swap or repeat a line.
      const lines = text.split("\n");
      const i = int(r, lines.length);
      const op = pick(r, ["drop", "repeat", "swap"]);
      if (op === "drop") lines.splice(i, 1);
      else if (op === "repeat") lines.splice(i, 0, ...Array(1 + int(r, 200)).fill(lines[i]));
      else if (lines.length > 1) {
        const j = int(r, lines.length);
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
      return [encoder.encode(lines.join("\n")), `lines ${op} ${i + 1}`];
    }
  }
}

// ---------------------------------------------------------------- running slop in-process

interface Captured {
  code: number | "threw";
  out: string;
  err: string;
}

/** Run the CLI's `main` in-process in `cwd`, capturing what it prints. */
async function runMain(args: string[], cwd: string): Promise<Captured> {
  const { main } = await import("../cli/_main.ts");
  let out = "", err = "";
  const saved = {
    outSync: Deno.stdout.writeSync,
    errSync: Deno.stderr.writeSync,
    outWrite: Deno.stdout.write,
    log: console.log,
    error: console.error,
    warn: console.warn,
  };
  const sink = (to: "out" | "err") => (p: Uint8Array) => {
    const s = decoder.decode(p);
    if (to === "out") out += s.length > 4096 ? s.slice(0, 4096) : s;
    else err += s;
    return p.length;
  };
  Deno.stdout.writeSync = sink("out");
  Deno.stderr.writeSync = sink("err");
  Deno.stdout.write = (p: Uint8Array) => Promise.resolve(sink("out")(p));
  console.log = (...a: unknown[]) =>
    void sink("out")(encoder.encode(a.join(" ").slice(0, 4096) + "\n"));
  console.error = console.warn = (...a: unknown[]) =>
    void sink("err")(encoder.encode(a.join(" ") + "\n"));
  const before = Deno.cwd();
  Deno.chdir(cwd);
  try {
    const code = await main(args);
    return { code, out, err };
  } catch (e) {
    return { code: "threw", out, err: err + `THREW: ${e instanceof Error ? e.stack : String(e)}` };
  } finally {
    Deno.chdir(before);
    Deno.stdout.writeSync = saved.outSync;
    Deno.stderr.writeSync = saved.errSync;
    Deno.stdout.write = saved.outWrite;
    console.log = saved.log;
    console.error = saved.error;
    console.warn = saved.warn;
  }
}

/** The newest output document and its manifest in `dir`'s `.slop/out`, if whole. */
async function newestOutput(dir: string): Promise<{ doc: string; manifest: unknown } | string> {
  const names: string[] = [];
  for await (const e of Deno.readDir(join(dir, ".slop/out"))) names.push(e.name);
  const mds = names.filter((n) => /^context_\d+\.md$/.test(n)).sort();
  const md = mds.at(-1);
  if (!md) return "no output document";
  const json = md.replace(/\.md$/, ".json");
  if (!names.includes(json)) return `${md} has no manifest`;
  try {
    const manifest = JSON.parse(await Deno.readTextFile(join(dir, ".slop/out", json)));
    return { doc: await Deno.readTextFile(join(dir, ".slop/out", md)), manifest };
  } catch (e) {
    return `${json} does not parse: ${e}`;
  }
}

/** The files of `dir` matching a `@name` placeholder of a surface. */
async function expandFile(dir: string, file: string, r: Random): Promise<string | undefined> {
  if (!file.startsWith("@")) return file;
  const found: string[] = [];
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(join(dir, rel))) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await walk(p);
      else found.push(p);
    }
  };
  await walk(".slop").catch(() => {});
  const want = file.slice(1);
  const matches = found.filter((p) =>
    want === "stat"
      ? p.startsWith(".slop/cache/stat/")
      : want === "packs"
      ? p.startsWith(".slop/cache/packs/")
      : want === "budget"
      ? /budget/.test(p)
      : false
  ).sort();
  return matches.length ? pick(r, matches) : undefined;
}

/** Tell the parent what the case about to run is, so that a hang is named. */
function announce(label: string): void {
  console.log(JSON.stringify({ label }));
}

/** What a failing case found, or undefined. */
interface Finding {
  cls: string;
  detail: string;
}

const INTERNAL = /internal error|THREW:/;

/** Judge one command's run on a spoiled project. */
function judge(
  surface: Surface,
  file: string,
  run: Captured,
  deleted: boolean,
): Finding | undefined {
  const all = run.err + run.out;
  if (INTERNAL.test(all)) {
    return {
      cls: "internal error",
      detail: firstLines(all.match(/(slop: internal error|THREW:)[^]*/)![0], 4),
    };
  }
  if (surface.kind !== "input" && run.code !== 0) {
    return { cls: `exit ${run.code} on ${surface.kind} input`, detail: firstLines(run.err, 3) };
  }
  if (
    run.code === 2 ||
    (run.code === 1 && surface.kind === "input" && !/differs|diverge|changed|prefix/i.test(all))
  ) {
    const line = run.err.trim().split("\n").filter((l) => !/^warning:/.test(l)).at(-1) ?? "";
    const base = file.split("/").at(-1)!;
    const faults = messageFaults(line, []);
    // The file may be named by a warning before the error (a manifest passed over), or be gone.
    if (!run.err.includes(base) && !deleted) faults.push(`does not name ${base}`);
    if (faults.length) {
      return { cls: `unclear error (${faults.join(", ")})`, detail: line.slice(0, 300) };
    }
  }
  for (const w of run.err.split("\n").filter((l) => l.startsWith("warning:"))) {
    const faults = messageFaults(w.replace(/^warning: /, ""), [], { lines: 1 });
    if (faults.some((f) => f.startsWith("leaks"))) {
      return { cls: `warning ${faults.join(", ")}`, detail: w.slice(0, 300) };
    }
  }
  return undefined;
}

function firstLines(s: string, n: number): string {
  return s.trim().split("\n").slice(0, n).join(" | ").slice(0, 400);
}

/** Run one file-surface case. */
async function fileCase(
  surface: Surface,
  base: string,
  work: string,
  r: Random,
  baseline: string,
): Promise<{ label: string; finding?: Finding }> {
  await sh(["rm", "-rf", work], "/");
  await sh(["cp", "-a", base, work], "/");
  const file = await expandFile(work, pick(r, surface.files), r);
  if (!file) return { label: "no such state file" };
  const path = join(work, file);
  const bytes = await Deno.readFile(path).catch(() => new Uint8Array());
  const [next, how] = mutate(r, bytes);
  await Deno.remove(path, { recursive: true }).catch(() => {});
  if (next === "dir") await Deno.mkdir(path, { recursive: true });
  else if (next !== "delete") {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeFile(path, next);
  }
  const command = pick(r, surface.commands);
  const label = `${file}: ${how}; slop ${command.join(" ")}`;
  announce(label);
  const run = await runMain(command, work);
  const finding = judge(surface, file, run, next === "delete");
  if (finding) return { label, finding };
  if (command[0] === "build" && run.code === 0) {
    const got = await newestOutput(work);
    if (typeof got === "string") return { label, finding: { cls: "lost output", detail: got } };
    if (surface.sameDocument && command.length === 1 && got.doc !== baseline) {
      return {
        label,
        finding: { cls: "other document", detail: `${got.doc.length} vs ${baseline.length} chars` },
      };
    }
  }
  return { label };
}

/** Run one config-object case: validateConfig on a spoiled value. */
async function configCase(r: Random): Promise<{ label: string; finding?: Finding }> {
  const { validateConfig } = await import("../pipeline/config.ts");
  const config = validConfig();
  const [value, how] = jsonTypeMutation(r, config);
  const label = `config ${how}`;
  try {
    await validateConfig(value as never);
    return { label };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const name = e instanceof Error ? e.name : typeof e;
    if (!/ConfigError/.test(name) && !/^Invalid config/.test(message)) {
      return { label, finding: { cls: `config threw ${name}`, detail: message.slice(0, 300) } };
    }
    const key = how.split(" -> ")[0];
    const faults = messageFaults(message.split("\n")[0], [], { lines: 1 });
    if (!message.includes(key)) faults.push(`does not name ${key}`);
    return faults.length
      ? {
        label,
        finding: {
          cls: `unclear config error (${faults.join(", ")})`,
          detail: message.slice(0, 300),
        },
      }
      : { label };
  }
}

const FLAG_SETS: string[][] = [
  ["build", "--budget"],
  ["build", "--view"],
  ["build", "--format"],
  ["build", "--task"],
  ["build", "--persona"],
  ["build", "--preset"],
  ["build", "--since"],
  ["build", "--include"],
  ["build", "--ignore"],
  ["build", "--focus"],
  ["build", "--state-dir"],
  ["build", "--strategy"],
  ["build", "--task-file"],
  ["build", "--config"],
  ["stats", "--top"],
  ["stats", "--build"],
  ["check", "--max-invalidated"],
  ["rank", "--top"],
  ["rank", "--task"],
  ["slice", "add", "docs/notes.md"],
  ["slice", "add", "docs/notes.md:1-2", "--tag"],
  ["slice", "add", "docs/notes.md:1-2", "--comment"],
  ["report", "--out"],
  ["cache", "prune", "--max-size"],
];

const FLAG_VALUES = [
  "",
  "-1",
  "1e400",
  "99999999999999999999999",
  "NaN",
  "0",
  "a\u0000b",
  "\ud800",
  "\ufeffx",
  "x\ry",
  "z".repeat(1 << 20),
  "../../../../etc/passwd",
  "/dev/zero",
  "--budget",
  "[unclosed",
  "*a*a*a*a*a*a*b",
  "constructor",
  "__proto__",
];

/** Run one CLI-flag case in the base project (a copy). */
async function flagCase(
  base: string,
  work: string,
  r: Random,
): Promise<{ label: string; finding?: Finding }> {
  await sh(["rm", "-rf", work], "/");
  await sh(["cp", "-a", base, work], "/");
  const args = [...pick(r, FLAG_SETS)];
  const value = pick(r, FLAG_VALUES);
  const eq = r() < 0.5;
  if (eq && args.at(-1)!.startsWith("--")) args[args.length - 1] += `=${value}`;
  else args.push(value);
  if (args[0] === "build") args.push("--stdout");
  const label = `slop ${args.map((a) => JSON.stringify(a.slice(0, 40))).join(" ")}`;
  announce(label);
  const run = await runMain(args, work);
  if (INTERNAL.test(run.err + run.out)) {
    return { label, finding: { cls: "internal error (flags)", detail: firstLines(run.err, 3) } };
  }
  if (run.code === 2) {
    const line = run.err.trim().split("\n").filter((l) => !/^warning:/.test(l)).at(-1) ?? "";
    const faults = messageFaults(line.replace(/^(slop|error): /, ""), [], { lines: 1 });
    if (faults.some((f) => f.startsWith("leaks") || f.includes("characters long"))) {
      return {
        label,
        finding: { cls: `unclear flag error (${faults.join(", ")})`, detail: line.slice(0, 300) },
      };
    }
  }
  return { label };
}

/** Valid arguments of each MCP tool, for {@linkcode mcpCase} to spoil. */
const MCP_CALLS: Array<[string, Record<string, unknown>]> = [
  ["build_context", {
    budget: 3000,
    focus: ["src/inventory.ts"],
    task: "fix it",
    view: "skeleton",
  }],
  ["build_context", { paths: ["src/**", "lang/a.go"], format: "xml", strategy: "auto" }],
  ["view_files", { files: ["lang/a.rs", "src/*.ts"], view: "masked", mask: { add: "def" } }],
  ["view_files", { files: ["docs/design.md"], slices: [{ startLine: 1, endLine: 3, tag: "t" }] }],
  ["view_files", { files: ["nb/a.ipynb"], view: "outline", maxFiles: 5 }],
  ["token_stats", { top: 3, build: false }],
  ["check_prefix", { maxInvalidated: "5%" }],
  ["explain", {}],
];

let mcp: Session | undefined;

/** Call an MCP tool with spoiled arguments through the SDK client; its answer is judged. */
async function mcpCase(base: string, r: Random): Promise<{ label: string; finding?: Finding }> {
  if (!mcp) {
    const root = join(base, "..", "mcp");
    await sh(["cp", "-a", base, root], "/");
    mcp = await connect(root);
  }
  const [name, valid] = pick(r, MCP_CALLS);
  const [args, how] = jsonTypeMutation(r, structuredClone(valid));
  const label = `${name} ${how}`;
  announce(label);
  const shaped = args && typeof args === "object" && !Array.isArray(args) ? args : { value: args };
  let result;
  try {
    result = await mcp.client.callTool({ name, arguments: shaped as Record<string, unknown> });
  } catch (e) {
    return { label, finding: { cls: "mcp call threw", detail: String(e).slice(0, 300) } };
  }
  const message = texts(result).join("\n");
  if (INTERNAL.test(message) || INTERNAL.test(mcp.stderr())) {
    return {
      label,
      finding: { cls: "mcp internal error", detail: firstLines(message + mcp.stderr(), 3) },
    };
  }
  if (result.isError) {
    const faults = messageFaults(message, [], { lines: 1 });
    if (faults.length) {
      return {
        label,
        finding: { cls: `unclear mcp error (${faults.join(", ")})`, detail: message.slice(0, 300) },
      };
    }
  }
  return { label };
}

// ---------------------------------------------------------------- child and parent

async function child(
  seed: number,
  rounds: number,
  start: number,
  surfaces: Surface[],
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "slop_fuzz_" });
  const base = join(root, "base");
  const work = join(root, "work");
  await makeBase(base);
  // Two builds: the first writes the cache and memories, the second is the sound document.
  for (const _ of [1, 2]) {
    const run = await runMain(["build"], base);
    if (run.code !== 0) throw new Error(`base build failed: ${run.err}`);
  }
  const sound = await newestOutput(base);
  if (typeof sound === "string") throw new Error(sound);
  // A third build from a copy gives the baseline (context_003) to compare spoiled caches with.
  await sh(["cp", "-a", base, work], "/");
  await runMain(["build"], work);
  const third = await newestOutput(work);
  const baseline = typeof third === "string" ? "" : third.doc;
  for (let i = start; i < rounds; i++) {
    const r = prng(seed * 1_000_003 + i);
    const surface = surfaces[i % surfaces.length];
    console.log(JSON.stringify({ i, start: surface.name }));
    const t0 = performance.now();
    const result = surface.name === "config"
      ? await configCase(r)
      : surface.name === "flags"
      ? await flagCase(base, work, r)
      : surface.name === "mcp"
      ? await mcpCase(base, r)
      : await fileCase(surface, base, work, r, baseline);
    const ms = Math.round(performance.now() - t0);
    console.log(JSON.stringify({ i, surface: surface.name, ms, ...result }));
  }
  await mcp?.close();
  await Deno.remove(root, { recursive: true });
}

async function parent(args: string[], timeout: number, rounds: number): Promise<void> {
  type Finding = { i: number; surface: string; label: string; cls: string; detail: string };
  const findings: Finding[] = [];
  let slow = { ms: 0, label: "" };
  // The case running: its surface and the label its last announce() gave.
  let current = { i: 0, surface: "?", label: "" };
  await runCases(import.meta.url, { args, timeout, start: 0, rounds }, {
    message(msg) {
      if (typeof msg.i !== "number") {
        current.label = String(msg.label);
        return;
      }
      if (msg.start) {
        current = { i: msg.i, surface: String(msg.start), label: "" };
        return { started: msg.i };
      }
      const surface = String(msg.surface);
      const label = String(msg.label);
      const ms = Number(msg.ms);
      if (ms > slow.ms) slow = { ms, label: `${surface}: ${label}` };
      const finding = msg.finding as { cls: string; detail: string } | undefined;
      if (finding) {
        findings.push({ i: msg.i, surface, label, ...finding });
        console.log(`FOUND #${msg.i} [${surface}] ${finding.cls}: ${label}\n    ${finding.detail}`);
      }
      return { finished: msg.i };
    },
    lost(i, { hung, stderr }) {
      const { surface, label } = current.i === i ? current : { surface: "?", label: "" };
      if (hung) {
        findings.push({ i, surface, label, cls: "hang", detail: `no answer in ${timeout} s` });
        console.log(`FOUND #${i} [${surface}] hang: ${label}`);
      } else {
        findings.push({ i, surface, label: "child died", cls: "crash", detail: stderr });
        console.log(`FOUND #${i} [${surface}] child died: ${stderr}`);
      }
    },
  });
  const classes = new Map<string, number>();
  for (const f of findings) {
    classes.set(`${f.surface}: ${f.cls}`, (classes.get(`${f.surface}: ${f.cls}`) ?? 0) + 1);
  }
  console.log(
    `\n${rounds} cases, ${findings.length} findings; slowest case ${slow.ms} ms (${slow.label})`,
  );
  for (const [cls, n] of [...classes].sort()) console.log(`  ${n} x ${cls}`);
}

if (import.meta.main) {
  const { values: flags } = parseArgs({
    args: Deno.args,
    options: {
      seed: { type: "string", default: "1" },
      rounds: { type: "string", default: "100" },
      start: { type: "string", default: "0" },
      surface: { type: "string" },
      timeout: { type: "string", default: "60" },
      child: { type: "boolean", default: false },
    },
  });
  const names = flags.surface?.split(",");
  const surfaces = names ? SURFACES.filter((s) => names.includes(s.name)) : SURFACES;
  if (!surfaces.length) {
    throw new Error(`No surface named ${flags.surface}: ${SURFACES.map((s) => s.name).join(", ")}`);
  }
  const rounds = Number(flags.rounds);
  if (flags.child) await child(Number(flags.seed), rounds, Number(flags.start), surfaces);
  else {
    const pass = ["--seed", flags.seed, "--rounds", flags.rounds];
    if (flags.surface) pass.push("--surface", flags.surface);
    await parent(pass, Number(flags.timeout), rounds);
  }
}
