/**
 * A seeded property fuzzer of slop's documents: it generates a small project around one target
 * (a Beads list, a history, a knowledge digest, screenshots, slices with fuzzy anchors, masks,
 * personas and presets, config values of the wrong type, command lines, or a source file of a
 * grammar slop has, mutated; file names that break headings and trees, a file in another encoding,
 * two flags of `build`, `stats`, `rank` or `check` with odd values, a config file written as code
 * with values JSON cannot hold and plugins whose hooks misbehave; a task's text, files changed
 * during a build, odd ignore files), builds it in-process twice,
 * and checks what must hold on any input:
 *
 * - the build ends, or fails with one clear line naming the file, key, flag or plugin at fault;
 * - the same bytes twice (document and manifest, a cache hit's mark aside);
 * - the manifest's blocks tile the document, each block's hash its bytes;
 * - a file shown `full` is its text on disk (a redaction aside);
 * - each `skeleton` and `outline` line, body and value markers aside, is part of the file;
 * - a `--budget B` document counts at most B tokens, and the blocks' tokens add up to the total;
 * - fences close, and every heading outside a fence is one of slop's;
 * - names: every file is in the manifest, every manifest path names a file on disk, each heading
 *   and tree line reads back as its own path (no two alike);
 * - encodings: text or binary as documented, `full` the decoded text, a secret redacted, a
 *   file's block counts the tokens of its text;
 * - flag pairs: exit 0, 1 or 2 with one plain line naming the flag, `--json` that parses, and
 *   nothing written to the output folder on exit 2 (or 1 with `--fail-on-secret`).
 * - config files: exit 0, 1 or 2, an error naming a key path or plugin spoiled (no internal
 *   error), and the output folder as a first good build left it.
 * - task: the task's block holds every visible character of the task; an error is one line.
 * - treechange (files changed by a config hook after the build read them): the build ends, a
 *   changed file shows the text its row's sha256 names, and the next build is the same warm and
 *   without the cache.
 * - ignores: slop lists what `git ls-files -co --exclude-standard` lists (and is on disk) under
 *   odd ignore files and repository states, in git and, without `.git`, by its own walk.
 *
 * ```sh
 * deno run -A bench/fuzz_properties.ts --seed 1 --rounds 300
 * deno run -A bench/fuzz_properties.ts --seed 2 --rounds 100 --target beads,slices --timeout 120
 * deno run -A bench/fuzz_properties.ts --seed 4 --rounds 300 --target names,encodings,flagpairs
 * deno run -A bench/fuzz_properties.ts --seed 1 --rounds 300 --target configfile
 * deno run -A bench/fuzz_properties.ts --seed 7 --rounds 120 --target task,treechange,ignores
 * ```
 *
 * A child process runs the cases and prints a line per case; the parent kills it when a case
 * gives no line within `--timeout` seconds (a hang) and starts another at the next case. A case
 * is its seed and number: `--start N --rounds N+1` runs case N alone.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { runCases } from "./_child_cases.ts";
import { prng, readShownPath } from "../tests/_helpers.ts";
import { badConfigs, keyPaths, messageFaults, validConfig } from "../tests/hostile/_bad_input.ts";
import { languageFor } from "../grammars/languages.ts";
import { headingText } from "../pipeline/helpers.ts";
import { sha256 } from "../pipeline/read.ts";

type Tree = Record<string, string | Uint8Array>;

/** One generated case: a project, its config and what the build is asked. */
interface Case {
  label: string;
  tree: Tree;
  config: Record<string, unknown>;
  /** A command line run through the CLI's `main` instead of the library (`build ...`). */
  argv?: string[];
  /** The error, if the build fails, must name each of these. */
  names?: string[];
  /** The build may fail (bad input); otherwise a failure is a finding. */
  mayFail?: boolean;
  /** The tree is a git work tree with every file committed. */
  git?: boolean;
  /** The case's own properties of a build, beside the common ones. */
  check?: (built: Built, root: string) => Promise<string[]>;
  /** A command line run as it is (no `--json` added), checked by {@linkcode commandFaults}. */
  command?: string[];
  /** A config file in `.config/` of the tree, moved to the root, checked by {@linkcode configFileFaults}. */
  configFile?: string;
  /** The error must be one line (a value it quotes escaped and cut), not a first line and more. */
  oneLineError?: boolean;
  /** A build whose config changes `changed` as it runs, checked by {@linkcode treeChangeFaults}. */
  treeChange?: { argv: string[]; changed: string[] };
  /** Untracked files under odd `.gitignore` files, checked by {@linkcode ignoresFaults}. */
  ignores?: Record<string, string>;
}

type Random = () => number;

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const int = (random: Random, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

/** Texts that break markdown or slop's own structure when shown unescaped. */
const HOSTILE_TEXT = [
  "## Files",
  "### src/a.py",
  "# Title",
  "Heading\n===",
  "Heading\n---",
  "```",
  "````python",
  "~~~",
  "``` ```",
  "    ```",
  "{/knowledge}",
  "{knowledge}",
  "</document_content>",
  "\u0000",
  "\ufeff",
  "\r",
  "\r\n",
  "\u2028",
  "\u202e",
  "\ud800",
  "x".repeat(5000),
  "\n".repeat(50),
  "[link](http://x)",
  "<!-- open",
  "---",
  "***",
  "| a | b |",
  "- item",
  "> quote",
];

function hostile(random: Random): string {
  const parts = Array.from({ length: int(random, 1, 4) }, () => pick(random, HOSTILE_TEXT));
  return parts.join(pick(random, ["", " ", "\n"]));
}

const BASE_TREE: Tree = {
  "src/a.py": "def f(x):\n    return x\n\n\nclass A:\n    def g(self):\n        return 1\n",
  "src/b.ts":
    "export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport class C {\n  m(): void {}\n}\n",
  "README.md": "# Project\n\nSome words.\n",
};

// ---------------------------------------------------------------------------------------------
// Targets

function beadsIssue(random: Random, i: number, ids: string[]): Record<string, unknown> {
  const statuses = [
    "open",
    "closed",
    "in_progress",
    "blocked",
    "deferred",
    "tombstone",
    "hooked",
    "pinned",
    "weird status",
    "",
    "## Files",
    "```",
  ];
  const issue: Record<string, unknown> = {
    id: random() < 0.1 ? pick(random, ids) : `bd-${i}${random() < 0.1 ? hostile(random) : ""}`,
    title: random() < 0.3 ? hostile(random) : `Issue ${i}`,
    status: pick(random, statuses),
    priority: pick(random, [0, 1, 2, "P1", -1, 1e300, "x", null, 2.5]),
  };
  if (random() < 0.5) issue.description = random() < 0.5 ? hostile(random) : "words ".repeat(100);
  if (random() < 0.4) {
    // Dependencies that may form cycles, or name nothing.
    issue.dependencies = Array.from({ length: int(random, 1, 3) }, () => ({
      issue_id: issue.id,
      depends_on_id: random() < 0.8 ? pick(random, ids) : "bd-missing",
      type: pick(random, ["blocks", "parent-child", "related", "?"]),
    }));
  }
  if (random() < 0.1) issue.title = pick(random, [7, null, ["a"], { a: 1 }]);
  if (random() < 0.05) issue.status = pick(random, [7, null, ["open"]]);
  return issue;
}

function beadsCase(random: Random): Case {
  const n = random() < 0.05 ? 100_000 : int(random, 1, 60);
  const ids = Array.from({ length: Math.min(n, 50) }, (_, i) => `bd-${i}`);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = random();
    if (n > 1000) {
      lines.push(JSON.stringify({ id: `bd-${i}`, title: `t${i}`, status: "open", priority: 1 }));
    } else if (r < 0.08) lines.push(pick(random, ["{", "not json", "[]", "null", "{}", '"x"', ""]));
    else if (r < 0.1) lines.push(JSON.stringify({ id: `bd-h${i}`, title: "y".repeat(2_000_000) }));
    else lines.push(JSON.stringify(beadsIssue(random, i, ids)));
  }
  const joined = lines.join(pick(random, ["\n", "\r\n", "\n\n"])) + (random() < 0.5 ? "\n" : "");
  return {
    label: `beads: ${n} lines`,
    tree: { ...BASE_TREE, ".beads/issues.jsonl": joined },
    config: { beads: true },
  };
}

function historyCase(random: Random): Case {
  const n = random() < 0.05 ? 2000 : int(random, 1, 30);
  const roles = ["user", "assistant", "system", "tool", "", "## Files", 7, null];
  const entries = Array.from({ length: n }, () => {
    const content = random() < 0.6 ? hostile(random) : "plain words";
    const r = random();
    if (r < 0.05) return "not json {";
    if (r < 0.1) {
      return JSON.stringify({ role: "user", content: [{ type: "text", text: content }] });
    }
    if (r < 0.15) return JSON.stringify({ role: "user", content: 7 });
    return JSON.stringify({ role: pick(random, roles), content });
  });
  const inline = random() < 0.3;
  if (!inline && random() < 0.3) {
    // A TOML discussion file; JSON's escapes are TOML's but for lone surrogates (an error).
    const toml = entries.map((e) => {
      let m;
      try {
        m = JSON.parse(e);
      } catch {
        return e;
      }
      return `[[entries]]\nrole = ${JSON.stringify(String(m.role))}\ncontent = ${
        JSON.stringify(typeof m.content === "string" ? m.content : "x")
      }\n`;
    }).join("\n");
    return {
      label: `history: ${n} messages in TOML`,
      tree: { ...BASE_TREE, "discussion.toml": toml },
      config: { history: "discussion.toml", compaction: { enabled: false } },
      names: ["discussion.toml"],
      mayFail: true,
    };
  }
  return {
    label: `history: ${n} messages${inline ? " inline" : ""}`,
    tree: inline ? BASE_TREE : { ...BASE_TREE, "discussion.jsonl": entries.join("\n") },
    config: {
      history: inline
        ? entries.map((e) => {
          try {
            return JSON.parse(e);
          } catch {
            return e;
          }
        }).filter((e) => typeof e === "string" || (e && typeof e.content === "string"))
        : "discussion.jsonl",
      compaction: { enabled: false },
    },
    mayFail: inline,
  };
}

function knowledgeCase(random: Random): Case {
  const digest = Array.from({ length: int(random, 1, 12) }, () => hostile(random)).join("\n");
  const tree: Tree = { ...BASE_TREE, "slop/knowledge/digest.md": digest };
  if (random() < 0.3) tree["slop/knowledge/facts.md"] = hostile(random);
  return { label: "knowledge digest", tree, config: {} };
}

/** A 1x1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

function screenshotsCase(random: Random): Case {
  const names = [
    "shot.png",
    "a b.png",
    "x(1).png",
    "[x].png",
    "]x[.png",
    "a\\b.png",
    "%20.png",
    "new\nline.png",
    "<a>.png",
    "## Files.png",
    "`x`.png",
    "日本.png",
    "e\u202eevil.png",
    "x.PNG",
    "x.svg",
  ];
  const tree: Tree = { ...BASE_TREE };
  const globs: string[] = [];
  for (let i = 0; i < int(random, 1, 6); i++) {
    const name = `shots/${pick(random, names)}`;
    const r = random();
    tree[name] = r < 0.6
      ? PNG
      : r < 0.7
      ? PNG.slice(0, 20)
      : r < 0.8
      ? new Uint8Array(0)
      : new TextEncoder().encode(hostile(random));
    globs.push(random() < 0.5 ? name : pick(random, ["shots/*", "shots/**", "**/*.png", "none/*"]));
  }
  return { label: `screenshots: ${globs.length}`, tree, config: { screenshots: globs } };
}

const SLICE_FILE = Array.from(
  { length: 60 },
  (_, i) => i % 10 === 0 ? `def f${i}(x):` : i % 3 ? `    x += ${i % 4}` : "",
).join("\n") + "\n";

function sliceAnchor(random: Random): string {
  return pick(random, [
    "",
    "    x += 1",
    "def f10(x):",
    "nothing matches this",
    "(.*)+$[\\",
    ".*",
    "^",
    "x".repeat(100_000),
    SLICE_FILE,
    SLICE_FILE + SLICE_FILE,
    "\u0000",
    "    x += 1\n    x += 2",
  ]);
}

function slicesCase(random: Random): Case {
  const slices = Array.from({ length: int(random, 1, 5) }, () => {
    const start = pick(random, [1, 2, 10, 59, 60, 61, 1000, 0, -1]);
    const end = pick(random, [start, start + 1, start + 20, 60, 1e9, start - 1]);
    const slice: Record<string, unknown> = { startLine: start, endLine: end, tag: hostile(random) };
    if (random() < 0.7) {
      slice.anchorLines = Array.from({ length: int(random, 0, 8) }, () => sliceAnchor(random));
    }
    if (random() < 0.6) {
      slice.contentHash = pick(random, ["0".repeat(64), "bad", sha256(new Uint8Array(0))]);
    }
    if (random() < 0.3) slice.comment = hostile(random);
    return slice;
  });
  const body = random() < 0.5 ? SLICE_FILE : SLICE_FILE.replaceAll("x += 1", "y -= 9");
  return {
    label: `slices: ${slices.length}`,
    tree: { ...BASE_TREE, "src/s.py": body },
    config: { files: ["**", { path: "src/s.py", view: "custom", slices }] },
    names: ["files[1]"],
    mayFail: true,
  };
}

const MASK_FILE = "class A:\n    def f(self):\n        return 1\n\n    def f(self):\n" +
  "        return 2\n\n\ndef g():\n    pass\n\n\ndef g():\n    pass\n";

function masksCase(random: Random): Case {
  const names = ["A", "A.f", "g", "B", "A.g", "", "A.f.x", "*", "A..f", "__proto__", "constructor"];
  const mask: Record<string, unknown> = {};
  for (let i = 0; i < int(random, 1, 5); i++) {
    mask[pick(random, names)] = pick(random, ["def", "sig", "hide", "def", "bogus", 3]);
  }
  const rest = pick(random, [undefined, "hide", "sig", "def"]);
  const bad = Object.values(mask).some((v) => !["def", "sig", "hide"].includes(v as string)) ||
    rest === "def";
  return {
    label: `masks: ${JSON.stringify(mask)} rest ${rest}`,
    tree: { ...BASE_TREE, "src/m.py": MASK_FILE },
    config: {
      files: ["**", {
        path: "src/m.py",
        view: "masked",
        mask,
        ...(rest ? { options: { rest } } : {}),
      }],
    },
    names: bad ? ["files[1]."] : [],
    mayFail: bad,
  };
}

function personasCase(random: Random): Case {
  const persona: Record<string, unknown> = {};
  if (random() < 0.5) persona.strategy = pick(random, ["auto", "summarize", "full", "x", 1]);
  if (random() < 0.5) persona.defaultView = pick(random, ["skeleton", "outline", "bogus", ""]);
  if (random() < 0.5) persona.tier = pick(random, [1, 2, 3, 0, 4, "1", 1.5]);
  if (random() < 0.5) persona.focus = pick(random, [["src/a.py"], ["nothing/*"], [""], "src", []]);
  if (random() < 0.5) persona.budget = pick(random, [1, 100, 50_000, 0, -5, 1e20, "9"]);
  if (random() < 0.3) persona.task = pick(random, ["fix add", "", hostile(random)]);
  const preset: Record<string, unknown> = {
    files: pick(random, [["src/*"], ["none/*"], [], "src/*", [7]]),
  };
  if (random() < 0.3) preset.screenshots = pick(random, [[], ["none.png"], 7]);
  const which = random() < 0.5 ? "persona" : "preset";
  return {
    label: `${which}: ${JSON.stringify(which === "persona" ? persona : preset)}`.slice(0, 200),
    tree: BASE_TREE,
    config: which === "persona" ? { personas: { p: persona } } : { presets: { q: preset } },
    argv: [
      "build",
      "--stdout",
      "--json",
      which === "persona" ? "--persona" : "--preset",
      which === "persona" ? "p" : "q",
    ],
    names: [which === "persona" ? "personas.p" : "presets.q"],
    mayFail: true,
  };
}

let configCases: ReturnType<typeof badConfigs> | undefined;

function configCase(random: Random): Case {
  configCases ??= badConfigs(13, 60);
  const bad = pick(random, configCases);
  return {
    label: `config: ${bad.label}`,
    tree: { ...BASE_TREE, "a.py": "x = 1\n", "b.md": "# B\n" },
    config: bad.input,
    names: bad.names,
    mayFail: true,
  };
}

function flagsCase(random: Random): Case {
  const flags = [
    [
      "--budget",
      pick(random, ["", "0", "-1", "1e400", "9".repeat(400), "NaN", "1.5", "0x10", " 5"]),
    ],
    ["--task", pick(random, ["", " ", "\u0000", "x".repeat(200_000), "## Files"])],
    ["--view", pick(random, ["", "skeleton", "bogus", "full,full"])],
    ["--strategy", pick(random, ["", "full", "x"])],
    ["--persona", pick(random, ["", "nope"])],
    ["--preset", pick(random, ["", "nope"])],
    ["--format", pick(random, ["", "json", "xml", "markdown", "yaml"])],
    ["--since", pick(random, ["", "HEAD", "-x", "--"])],
    ["--config", pick(random, ["", "/nonexistent.ts", "."])],
  ];
  const argv = ["build", "--stdout"];
  for (let i = 0; i < int(random, 1, 4); i++) {
    const [flag, value] = pick(random, flags);
    argv.push(...(random() < 0.2 ? [`${flag}=${value}`] : [flag, value]));
  }
  return {
    label: `flags: ${JSON.stringify(argv).slice(0, 200)}`,
    tree: BASE_TREE,
    config: {},
    argv,
    mayFail: true,
  };
}

/** Sources of every grammar, small and valid. */
const SOURCES: Record<string, string> = {
  "a.py": BASE_TREE["src/a.py"] as string,
  "a.ts": BASE_TREE["src/b.ts"] as string,
  "a.js": "export class C {\n  get() { return 1; }\n}\n\nexport function f(a) {\n  return a;\n}\n",
  "a.tsx": "export function App(props: { x: number }) {\n  return <div>{props.x}</div>;\n}\n",
  "a.go":
    'package a\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\ntype T struct{ X int }\n\nfunc (t *T) M() string { return "x" }\n',
  "a.rs":
    "/// Adds.\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub struct S { x: u8 }\n\nimpl S {\n    pub fn get(&self) -> u8 { self.x }\n}\n",
  "A.java":
    "package a;\n\n/** A. */\npublic class A {\n  private int x;\n  public int get() { return x; }\n  static class B { void m() {} }\n}\n",
  "a.c":
    '#include <stdio.h>\n#define MAX 3\n\n/* add */\nint add(int a, int b) {\n  return a + b;\n}\n\nstruct s { int x; };\nstatic void f(void) { printf("x"); }\n',
  "a.cpp":
    "namespace n {\nclass C {\n public:\n  int get() const { return x_; }\n private:\n  int x_ = 0;\n};\ntemplate <typename T> T id(T t) { return t; }\n}  // namespace n\n",
  "a.rb":
    "module M\n  # A class.\n  class C\n    def initialize(x)\n      @x = x\n    end\n\n    def get = @x\n  end\nend\n",
  "a.php":
    "<?php\nnamespace App;\n\nclass C {\n    public function get(): int { return 1; }\n}\n\nfunction f($a) { return $a; }\n",
  "a.cs":
    "namespace N;\n\npublic class C {\n    public int X { get; set; }\n    public int Get() { return X; }\n}\n",
  "a.sh": '#!/bin/sh\n# Greet.\ngreet() {\n  echo "hi $1"\n}\nmain() { greet "$@"; }\nmain "$@"\n',
  "a.scala":
    "package a\n\nobject O {\n  def f(x: Int): Int = x + 1\n}\n\nclass C(val x: Int) { def g = x }\n",
  "a.kt": "package a\n\nclass C(val x: Int) {\n    fun get(): Int = x\n}\n\nfun top(a: Int) = a\n",
  "a.lua":
    "local M = {}\n\n-- Adds.\nfunction M.add(a, b)\n  return a + b\nend\n\nfunction M:get() return self.x end\n\nreturn M\n",
  "a.zig":
    'const std = @import("std");\n\npub fn add(a: i32, b: i32) i32 {\n    return a + b;\n}\n\nconst S = struct { x: u8 };\n',
  "a.ex":
    'defmodule M do\n  @doc "Adds."\n  def add(a, b), do: a + b\n\n  defp hidden(x) do\n    x\n  end\nend\n',
};

function mutate(random: Random, text: string): [string, string] {
  const lines = text.split("\n");
  const r = int(random, 0, 13);
  switch (r) {
    case 0:
      return ["cut short", text.slice(0, int(random, 0, text.length))];
    case 1:
      return ["braces gone", text.replace(/[{}]/g, "")];
    case 2:
      return ["NUL inside", text.slice(0, 10) + "\0" + text.slice(10)];
    case 3:
      return ["BOM", "\ufeff" + text];
    case 4:
      return ["CR line ends", text.replaceAll("\n", "\r")];
    case 5:
      return ["CRLF", text.replaceAll("\n", "\r\n")];
    case 6: {
      const depth = pick(random, [1000, 20_000, 100_000]);
      const [open, close] = pick(random, [["(", ")"], ["{", "}"], ["[", "]"]]);
      return [
        `${depth} deep ${open}`,
        `${text}\nx = ${open.repeat(depth)}${close.repeat(depth)}\n`,
      ];
    }
    case 7:
      return ["5 MB identifier", `${text}\n${"a".repeat(5_000_000)}\n`];
    case 8:
      return ["lines lost", lines.filter(() => random() < 0.7).join("\n")];
    case 9:
      return ["lines repeated", lines.flatMap((l) => random() < 0.2 ? [l, l, l] : [l]).join("\n")];
    case 10:
      return ["fences inside", text.replace("\n", "\n// ```\n/* ~~~~ */\n# ## Files\n")];
    case 11:
      return ["lone surrogate", text + "\ud800\n"];
    case 12:
      return ["no final newline", text.trimEnd()];
    default:
      return ["as is", text];
  }
}

function sourceCase(random: Random): Case {
  const name = pick(random, Object.keys(SOURCES));
  const [how, text] = mutate(random, SOURCES[name]);
  const view = pick(random, ["full", "skeleton", "outline", "masked", "summary"]);
  const budget = random() < 0.2 ? pick(random, [1, 50, 300, 2000]) : undefined;
  return {
    label: `source: ${name} ${how} in ${view}${budget ? ` budget ${budget}` : ""}`,
    tree: { ...BASE_TREE, [`lang/${name}`]: text },
    config: { defaultView: view, ...(budget ? { budget: { tokens: budget } } : {}) },
  };
}

// ---------------------------------------------------------------------------------------------
// Names, encodings and flag pairs (twelfth session)

/** Parts of file names that break headings, lists, tables, JSON or slop's own markers. */
const NAME_PARTS = [
  "caf\u00e9",
  "cafe\u0301",
  "a\nb",
  "a\tb",
  "a\rb",
  "`x`",
  "```",
  "#",
  "# x",
  "x #",
  "*x*",
  "[x](y)",
  "a|b",
  "<a>",
  '"q"',
  "'q'",
  " lead",
  "trail ",
  "  ",
  "-x",
  "--help",
  "## Files",
  "### src",
  "{knowledge}",
  "</document_content>",
  "a\\nb",
  "x\\x20",
  "x\\#",
  "\\",
  "\\u{202e}",
  "e\u202eevil",
  "zw\u200bsp",
  "README.md",
  "readme.md",
  "ReadMe.MD",
  "\u65e5".repeat(85),
  "x".repeat(255),
  "[REDACTED:x]",
  "%2F",
  "a:b",
  "\u{1f600}",
];

function nameOf(random: Random): string {
  let name = Array.from({ length: int(random, 1, 2) }, () => pick(random, NAME_PARTS)).join("");
  // A name is at most 255 bytes, never `.` or `..`, and a dot file is left out by default.
  while (encoder.encode(name).length > 255) name = [...name].slice(0, -1).join("");
  if (name.startsWith(".")) name = `_${name}`.slice(0, 200);
  return name;
}

function namesCase(random: Random): Case {
  const tree: Tree = { ...BASE_TREE };
  const folders = ["", "src/", "n/", `${nameOf(random)}/`];
  if (random() < 0.15) {
    // A deep path near PATH_MAX (4,096 bytes with the temporary root).
    const depth = int(random, 10, 18);
    folders.push(Array.from({ length: depth }, (_, i) => `${"d".repeat(200)}${i}/`).join(""));
  }
  for (let i = 0; i < int(random, 1, 6); i++) {
    const name = `${pick(random, folders)}${nameOf(random)}`;
    if (name.split("/").some((part) => !part || part === "." || part === "..")) continue;
    if (!fitsTree(tree, name)) continue;
    // Twins that differ only in normal form or case, both on disk.
    tree[name] = `x = ${i}\n`;
    for (const twin of [name.normalize(random() < 0.5 ? "NFD" : "NFC"), name.toUpperCase()]) {
      if (random() < 0.3 && fitsTree(tree, twin)) tree[twin] = `y = ${i}\n`;
    }
  }
  const git = random() < 0.5;
  const json = random() < 0.4;
  const xml = json && random() < 0.5;
  const names = Object.keys(tree).length;
  return {
    label: `names: ${names} files${git ? " in git" : ""}${json ? " --json" : ""}${
      xml ? " --format xml" : ""
    }`,
    tree,
    git,
    config: { tree: true, defaultView: pick(random, ["full", "skeleton", "summary"]) },
    argv: json ? ["build", "--stdout", "--json", ...(xml ? ["--format", "xml"] : [])] : undefined,
    check: (built, root) => nameFaults(built, root, tree),
  };
}

/** Whether `path` can join `tree`: no file where it needs a folder, no folder where it is a file. */
function fitsTree(tree: Tree, path: string): boolean {
  const parts = path.split("/");
  const folders = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
  return !folders.some((f) => f in tree) &&
    !Object.keys(tree).some((key) => key.startsWith(`${path}/`));
}

/** What is wrong with the names: the manifest's, the headings' and the tree's. */
async function nameFaults(built: Built, root: string, tree: Tree): Promise<string[]> {
  const faults: string[] = [];
  const paths = new Set(built.manifest.files.map((f) => f.path));
  for (const path of Object.keys(tree)) {
    if (!paths.has(path)) faults.push(`${JSON.stringify(path)} is not in the manifest`);
  }
  const headings = new Map<string, string>();
  for (const path of paths) {
    try {
      await Deno.lstat(join(root, path));
    } catch {
      faults.push(`the manifest's ${JSON.stringify(path)} names no file on disk`);
    }
    const shown = headingText(path);
    if (readShownPath(shown) !== path) {
      faults.push(
        `the heading ${JSON.stringify(shown)} reads back as another path than ${
          JSON.stringify(path)
        }`,
      );
    }
    const other = headings.get(shown);
    if (other !== undefined) {
      faults.push(`${JSON.stringify(path)} and ${JSON.stringify(other)} share a heading`);
    }
    headings.set(shown, path);
  }
  if (built.document.startsWith("<")) {
    // XML: each `<source>` reads back as a rendered file's path.
    const entities: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };
    const sources = [...built.document.matchAll(/<source>(.*?)<\/source>/gs)].map((m) =>
      readShownPath(m[1].replace(/&(lt|gt|amp|quot);/g, (_, e: string) => entities[e]))
    ).sort();
    const want = built.manifest.files.filter((f) => f.status === "rendered").map((f) => f.path);
    if (JSON.stringify(sources) !== JSON.stringify(want.sort())) {
      faults.push(`the <source> tags read back as other paths: ${JSON.stringify(sources)}`);
    }
    return faults;
  }
  // The directory tree, read back: two spaces a level, a folder ends with `/`.
  const at = built.document.indexOf("## Directory Tree\n\n");
  if (at < 0) faults.push("no directory tree");
  else {
    const body = fencedBody(built.document.slice(at).split("\n\n").slice(1).join("\n\n"));
    const listed: string[] = [];
    const stack: string[] = [];
    for (const line of (body ?? "").split("\n")) {
      const depth = /^ */.exec(line)![0].length;
      if (depth % 2 || depth / 2 > stack.length) {
        faults.push(`tree line ${JSON.stringify(line.slice(0, 80))} is indented wrong`);
        break;
      }
      stack.length = depth / 2;
      const entry = line.slice(depth);
      if (entry.endsWith("/")) stack.push(readShownPath(entry.slice(0, -1)));
      else listed.push([...stack, readShownPath(entry)].join("/"));
    }
    const want = built.manifest.files.filter((f) => ["rendered", "skipped"].includes(f.status))
      .map((f) => f.path).sort();
    if (JSON.stringify(listed.sort()) !== JSON.stringify(want)) {
      const missing = want.filter((p) => !listed.includes(p));
      faults.push(`the tree lists other paths: ${JSON.stringify(missing).slice(0, 200)} missing`);
    }
  }
  return faults;
}

/** A secret every default rule set finds, and one of the cloud's. */
const SECRET = `sk-or-v1-${"9f".repeat(32)}`;

const ENC_TEXTS = [
  "def main():\n    return 1\n",
  "# caf\u00e9 na\u00efve Gr\u00f6\u00dfe\nx = 1\n",
  "\u65e5\u672c\u8a9e\u306e\u30b3\u30e1\u30f3\u30c8\u3067\u3059\u3002\n\u3053\u3093\u306b\u3061\u306f\u4e16\u754c\n",
  "\u4e2d\u6587\u6ce8\u91ca\uff0c\u4f60\u597d\u4e16\u754c\u3002\n\u8fd9\u662f\u4e00\u4e2a\u6d4b\u8bd5\n",
  "x = 1\r\ny = 2\rz = 3\n",
  "a\u200bb\u202ec\u2066d\u2069\n",
  "   \n\t\n  ",
  "",
];

function utf16Bytes(text: string, little: boolean, bom: boolean): Uint8Array {
  const units = (bom ? "\ufeff" : "") + text;
  const bytes = new Uint8Array(units.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < units.length; i++) view.setUint16(i * 2, units.charCodeAt(i), little);
  return bytes;
}

function utf32Bytes(text: string, little: boolean): Uint8Array {
  const points = [0xfeff, ...[...text].map((c) => c.codePointAt(0)!)];
  const bytes = new Uint8Array(points.length * 4);
  const view = new DataView(bytes.buffer);
  points.forEach((p, i) => view.setUint32(i * 4, p, little));
  return bytes;
}

/** A text in an 8-bit or East Asian encoding, by the runtime's decoder's table read backwards. */
function legacyBytes(text: string, encoding: string): Uint8Array | undefined {
  const decoder = new TextDecoder(encoding);
  const table = new Map<string, number[]>();
  for (let b = 0; b < 256; b++) table.set(decoder.decode(Uint8Array.of(b)), [b]);
  if (encoding !== "windows-1252") {
    // Two-byte characters: lead bytes 0x81 to 0xFE, trail bytes 0x40 to 0xFE.
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        const c = decoder.decode(Uint8Array.of(lead, trail));
        if ([...c].length === 1 && !table.has(c)) table.set(c, [lead, trail]);
      }
    }
  }
  const out: number[] = [];
  for (const c of text) {
    const bytes = c.charCodeAt(0) < 0x80 ? [c.charCodeAt(0)] : table.get(c);
    if (!bytes) return undefined;
    out.push(...bytes);
  }
  return Uint8Array.from(out);
}

interface Encoded {
  how: string;
  bytes: Uint8Array;
  /** The text a `full` view shows (line ends LF, a leading mark dropped), or binary. */
  text: string | "binary";
  /** The text is detected, not marked: a guess that may read another encoding. */
  guess?: boolean;
  /** An 8-bit or East Asian encoding: its text is not compared. */
  legacy?: boolean;
}

function encode(random: Random, text: string): Encoded {
  const utf8 = encoder.encode(text);
  const r = int(random, 0, 15);
  switch (r) {
    case 0:
      return { how: "UTF-16LE with BOM", bytes: utf16Bytes(text, true, true), text };
    case 1:
      return { how: "UTF-16BE with BOM", bytes: utf16Bytes(text, false, true), text };
    case 2: {
      const little = random() < 0.5;
      // Text when half its units are under U+0100 (docs/hostile_inputs.md); else binary.
      const narrow = [...text].filter((c) => c.charCodeAt(0) < 0x100).length;
      return {
        how: `UTF-16${little ? "LE" : "BE"} without BOM`,
        bytes: utf16Bytes(text, little, false),
        text: narrow * 2 >= text.length ? text : "binary",
      };
    }
    case 3:
      return { how: "UTF-32LE", bytes: utf32Bytes(text, true), text: "binary", guess: true };
    case 4:
      return { how: "UTF-32BE", bytes: utf32Bytes(text, false), text: "binary", guess: true };
    case 5:
    case 6:
    case 7: {
      const encoding = pick(random, ["windows-1252", "shift_jis", "gb18030", "euc-kr"]);
      const bytes = legacyBytes(text, encoding);
      if (!bytes) return { how: "UTF-8", bytes: utf8, text };
      // The encoding is detected: a short text may read as a neighbouring one (documented).
      return { how: encoding, bytes, text, guess: true, legacy: true };
    }
    case 8:
      return { how: "NUL inside", bytes: concat(utf8, Uint8Array.of(0), utf8), text: "binary" };
    case 9: {
      const mid = text.length >> 1;
      const withMark = `${text.slice(0, mid)}\ufeff${text.slice(mid)}`;
      return { how: "BOM in the middle", bytes: encoder.encode(withMark), text: withMark };
    }
    case 10: {
      const bad = pick(random, [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xff], [
        0xc3,
      ]]);
      return {
        how: `bytes ${bad.map((b) => b.toString(16)).join(" ")} inside`,
        bytes: concat(utf8, Uint8Array.from(bad), utf8),
        text: "binary",
        guess: true,
      };
    }
    case 11:
      return { how: "UTF-8 with BOM", bytes: encoder.encode("\ufeff" + text), text };
    default:
      return { how: "UTF-8", bytes: utf8, text };
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), at += p.length;
  return out;
}

function encodingsCase(random: Random): Case {
  let text = pick(random, ENC_TEXTS);
  const secret = random() < 0.4;
  if (secret) text = `API_KEY=${SECRET}\n${text}`;
  // A run the tokenizer's split expression ran out of stack on (over about 4.2 million).
  const long = random() < 0.03;
  if (long) text = `${text}${"a".repeat(4_500_000)}\n`;
  const enc = encode(random, text);
  const name = pick(random, ["enc/x.txt", "enc/x.py", "enc/app.env", "enc/.env", "enc/x.md"]);
  const view = pick(random, ["full", "full", "skeleton", "summary"]);
  const budget = random() < 0.15 ? pick(random, [1, 60, 500]) : undefined;
  return {
    label: `encodings: ${enc.how} ${JSON.stringify(text.slice(0, 20))}${
      secret ? " with a secret" : ""
    }${long ? " and a 4.5M run" : ""} as ${name} in ${view}${budget ? ` budget ${budget}` : ""}`,
    tree: { ...BASE_TREE, [name]: enc.bytes },
    config: {
      defaultView: view,
      files: ["**", name],
      ...(budget ? { budget: { tokens: budget } } : {}),
    },
    check: (built) => encodingFaults(built, name, enc, secret),
  };
}

async function encodingFaults(
  built: Built,
  path: string,
  enc: Encoded,
  secret: boolean,
): Promise<string[]> {
  const faults: string[] = [];
  if (secret && built.document.includes(SECRET)) faults.push(`the secret reached the document`);
  const row = built.manifest.files.find((f) => f.path === path) as
    | (Built["manifest"]["files"][number] & { reason?: string; tokens?: number })
    | undefined;
  if (!row) return [`${path} is not in the manifest`];
  const binary = row.status === "skipped" && /binary/.test(row.reason ?? "");
  if ((enc.text === "binary") !== binary && !(enc.guess && enc.text === "binary")) {
    faults.push(`${path} (${enc.how}) is ${row.status} ${row.reason ?? ""}`.trim());
  }
  if (row.status !== "rendered") return faults;
  const block = built.manifest.blocks.find((b) => b.id === `files:${path}`) as
    | (Built["manifest"]["blocks"][number] & { tokens?: number })
    | undefined;
  if (!block) return faults;
  const blockText = decoder.decode(
    encoder.encode(built.document).subarray(block.offset, block.offset + block.length),
  );
  if (block.tokens !== undefined) {
    const { countTokens } = await import("../pipeline/tokens.ts");
    const counted = await countTokens(blockText);
    if (counted !== block.tokens) {
      faults.push(`block ${block.id}: ${block.tokens} tokens, counted ${counted}`);
    }
  }
  const body = fencedBody(blockText);
  if (
    row.view === "full" && !row.fallback && body !== undefined && enc.text !== "binary" &&
    !secret && !enc.guess
  ) {
    const want = enc.text.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n").replace(/\n$/, "");
    if (body !== want) {
      faults.push(
        `${path} (${enc.how}): full is ${JSON.stringify(body.slice(0, 60))}, not ${
          JSON.stringify(want.slice(0, 60))
        }`,
      );
    }
  }
  if (
    enc.guess && !enc.legacy && enc.text !== "binary" && body !== undefined &&
    row.view === "full" && !secret
  ) {
    const want = enc.text.replace(/\r\n?/g, "\n").replace(/\n$/, "");
    if (body !== want) {
      faults.push(
        `${path} (${enc.how}, detected): full is ${JSON.stringify(body.slice(0, 60))}, not ${
          JSON.stringify(want.slice(0, 60))
        }`,
      );
    }
  }
  return faults;
}

/** Each command's value flags with odd values, and its switches (docs/cli.md). */
const ODD_NUMBERS = ["0", "-1", "1", "9".repeat(30), "", "NaN", "1.5", "1e3", " 7", "+3", "007"];
const COMMAND_FLAGS: Record<string, Record<string, string[] | null>> = {
  build: {
    "--include": ["", "**", "[", "../x", "src/*"],
    "--ignore": ["", "**", "!", "src"],
    "--persona": ["", "nope", "__proto__"],
    "--preset": ["", "nope", "constructor"],
    "--strategy": ["", "auto", "FULL", "x"],
    "--focus": ["", "src/a.py", "/etc/passwd", "../x", "nope.py"],
    "--since": ["", "HEAD", "HEAD~999", "nosuchref", "-x", "--", "HEAD..HEAD", "@{u}"],
    "--budget": ODD_NUMBERS,
    "--task": ["", " ", "fix add", "x".repeat(20_000)],
    "--task-file": ["", "nope.txt", ".", "README.md", "/dev/null"],
    "--format": ["", "json", "xml", "markdown", "md", "yaml"],
    "--strict": null,
    "--fail-on-secret": null,
    "--no-cache": null,
    "--stdout": null,
    "--json": null,
    "-q": null,
  },
  stats: {
    "--top": ODD_NUMBERS,
    "--build": null,
    "--persona": ["", "nope"],
    "--preset": ["", "nope"],
    "--json": null,
  },
  rank: {
    "--task": ["", " ", "fix add", "x".repeat(20_000)],
    "--task-file": ["", "nope.txt", ".", "README.md"],
    "--top": ODD_NUMBERS,
    "--json": null,
  },
  check: {
    "--persona": ["", "nope"],
    "--preset": ["", "nope"],
    "--update": null,
    "--max-invalidated": ["", "0", "5%", "-5%", "101%", "NaN%", "%", "1.5", "10", "9".repeat(30)],
    "--determinism": null,
    "--fail-on-secret": null,
    "--json": null,
    "-q": null,
  },
};

function flagPairsCase(random: Random): Case {
  const command = pick(random, Object.keys(COMMAND_FLAGS));
  const flags = COMMAND_FLAGS[command];
  const argv = [command];
  const named: string[] = [];
  for (let i = 0; i < 2; i++) {
    const flag = pick(random, Object.keys(flags));
    named.push(flag);
    const values = flags[flag];
    if (!values) argv.push(flag);
    else {
      const value = pick(random, values);
      argv.push(...(random() < 0.2 ? [`${flag}=${value}`] : [flag, value]));
    }
  }
  return {
    label: `flagpairs: ${JSON.stringify(argv).slice(0, 200)}`,
    tree: { ...BASE_TREE, ".gitignore": ".slop/\n" },
    git: true,
    config: {},
    command: argv,
    names: named,
  };
}

/** The files under the state folder, with their sizes and times. */
async function listing(dir: string): Promise<string> {
  const rows: string[] = [];
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = join(at, entry.name);
      if (entry.isDirectory) await walk(path);
      else {
        const info = await Deno.stat(path);
        rows.push(`${path} ${info.size} ${info.mtime?.getTime()}`);
      }
    }
  };
  try {
    await walk(dir);
  } catch {
    // No state folder yet.
  }
  return rows.sort().join("\n");
}

/** A command line's run: its exit code, its error naming a flag, and nothing written on error. */
async function commandFaults(c: Case, root: string): Promise<string[]> {
  // A first build, so that stats and check have an output to read.
  await runMain(["build", "-q", "--no-server"], root);
  const before = await listing(join(root, ".slop", "out"));
  const run = await runMain(c.command!, root);
  const faults: string[] = [];
  if (![0, 1, 2].includes(run.code)) faults.push(`exit code ${run.code}`);
  if (run.err.includes("internal error")) faults.push(`internal error: ${run.err.slice(0, 300)}`);
  const json = c.command!.includes("--json") &&
    (c.command![0] !== "build" || c.command!.includes("--stdout"));
  if (run.code === 0 && json) {
    try {
      JSON.parse(run.out);
    } catch {
      faults.push(`--json printed no JSON: ${JSON.stringify(run.out.slice(0, 120))}`);
    }
  }
  if (run.code === 2) {
    const text = run.err.trim();
    const first = text.replace(/^(slop|error): /, "").split("\n")[0];
    // The flag at fault, or the one a command needs and lacks (`rank` with no `--task`).
    const named = c.names!.map((flag) => flag.replace(/^-+/, ""));
    if (!/--[a-z]/.test(first) && !named.some((name) => first.includes(name))) {
      faults.push(`exit 2 names no flag: ${JSON.stringify(text.slice(0, 200))}`);
    }
    faults.push(...errorFaults(run.err, [], c.oneLineError));
  }
  if (run.code === 2 || (run.code === 1 && c.command!.includes("--fail-on-secret"))) {
    const after = await listing(join(root, ".slop", "out"));
    if (after !== before) faults.push(`exit ${run.code} wrote to the output folder`);
  }
  return faults;
}

// ---------------------------------------------------------------------------------------------
// Config files: a slop.config.ts, .js or .mjs written as code, spoiled at its key paths with
// values JSON cannot hold (getters that throw, holes, symbols, classes, huge and control-laden
// strings, proxies) and with plugins whose hooks throw, hang or return the wrong shape.

/** JavaScript source of odd values, each with what it is. */
const ODD_VALUES: Array<[string, string]> = [
  ["undefined", "undefined"],
  ["NaN", "NaN"],
  ["-Infinity", "-Infinity"],
  ["-0", "-0"],
  ["a bigint", "10n"],
  ["a symbol", 'Symbol("s")'],
  ["a Date", "new Date(0)"],
  ["a Map", "new Map([[1, 2]])"],
  ["a class instance", "new (class Thing { files = ['a.py'] })()"],
  ["a function", "() => 1"],
  ["an array with a hole", '[, "a.py"]'],
  ["nested arrays", '[[["a.py"]]]'],
  ["a newline string", '"sk\\nel"'],
  ["an escape string", '"x\\u001b[2J"'],
  ["a NUL string", '"a\\u0000b"'],
  ["a lone surrogate", '"\\ud800"'],
  ["a 200,000-character string", '"k".repeat(200000)'],
  ["a getter that throws", '{ get x() { throw new Error("boom"); } }'],
  ["an object without a prototype", "Object.assign(Object.create(null), { a: 1 })"],
  ["a proxy without keys", 'new Proxy({}, { ownKeys() { throw "no keys"; } })'],
  ["a frozen empty object", "Object.freeze({})"],
  ["an own __proto__ key", 'JSON.parse(\'{"__proto__": {"files": 5}}\')'],
  ["a promise", 'Promise.resolve("a.py")'],
  ["a 100,000-item array", "Array.from({ length: 100000 }, (_, i) => i)"],
];

/** A hook's body (JavaScript) that misbehaves. */
const ODD_HOOKS: Array<[string, string]> = [
  ["throws an Error", '() => { throw new Error("hook broke"); }'],
  ["throws a string", '() => { throw "hook broke"; }'],
  ["throws undefined", "() => { throw undefined; }"],
  ["rejects with a bare object", "() => Promise.reject(Object.create(null))"],
  ["returns undefined", "() => undefined"],
  ["returns a number", "() => 5"],
  ["returns a symbol", '() => Symbol("x")'],
  ["returns { text: 5 }", "() => ({ text: 5 })"],
  ["returns 20 MB", '() => "x".repeat(20_000_000)'],
  ["returns a lone surrogate", '() => "a\\ud800b"'],
  ["returns a string with NUL", '() => "a\\u0000b"'],
  ["never settles", "() => new Promise(() => {})"],
  ["returns a thenable that throws", '() => ({ then() { throw new Error("then"); } })'],
  ["returns a proxy", '() => new Proxy({}, { get() { throw new Error("trap"); } })'],
];

/** A plugin (JavaScript) of a kind, named `name`, with one hook that misbehaves. */
function oddPlugin(random: Random, name: string): { source: string; view?: string } {
  const [, hook] = pick(random, ODD_HOOKS);
  const kind = pick(random, ["view-mode", "view-mode", "section", "ordering", "provider"]);
  const named = JSON.stringify(name);
  if (kind === "view-mode") {
    const extra = pick(random, [
      "",
      "timeoutMs: 300,",
      "extensions: 5,",
      'extensions: [".py", 7],',
      "accepts: () => { throw new Error('accepts'); },",
      "cacheKey: () => { throw 1; },",
      "cacheKey: () => Symbol('k'),",
      "renderr: () => 'x',",
      "version: 2,",
    ]);
    const timeout = hook.includes("new Promise(() => {})") ? "timeoutMs: 300," : "";
    return {
      source:
        `{ kind: "view-mode", name: ${named}, version: "1", ${timeout}${extra} render: ${hook} }`,
      view: name,
    };
  }
  if (kind === "section") {
    // A hook that never settles stops the build after the default minute: rare, kept short.
    const body = hook.includes("new Promise(() => {})") ? "() => []" : hook;
    return { source: `{ kind: "section", name: ${named}, compose: ${body} }` };
  }
  if (kind === "ordering") {
    const body = hook.includes("new Promise(() => {})") ? "(b) => b" : hook;
    return { source: `{ kind: "ordering", name: ${named}, order: ${body} }` };
  }
  return { source: `{ kind: "provider", name: ${named}, countTokens: ${hook}, payload: ${hook} }` };
}

/** Where a value is set in code: `cfg.files[1].view` for the key path `files[1].view`. */
function accessOf(path: string): string {
  return "cfg" +
    path.split(/(?=\[)|\./).map((s) => s.startsWith("[") ? s : `[${JSON.stringify(s)}]`)
      .join("");
}

function configFileCase(random: Random): Case {
  const valid = validConfig();
  // The valid config's files, and its plugins added below.
  const tree: Tree = {
    ...BASE_TREE,
    "a.py": "def f():\n    return 1\n",
    "b.md": "# B\n",
    "c.txt": "c\n",
  };
  const paths = keyPaths(valid).map(([p]) => p).filter((p) =>
    !/^(screenshots|plugins|history|knowledge|compaction|provider|lock|slicesFile)/.test(p)
  );
  delete valid.screenshots;
  delete valid.knowledge;
  delete valid.compaction;
  delete valid.provider;
  const lines = [`const cfg = ${JSON.stringify(valid)};`];
  const names: string[] = [];
  const what: string[] = [];
  for (let i = int(random, 1, 3); i > 0; i--) {
    const r = random();
    if (r < 0.45) {
      const path = pick(random, paths);
      const [label, value] = pick(random, ODD_VALUES);
      lines.push(`${accessOf(path)} = ${value};`);
      names.push(path);
      what.push(`${path} = ${label}`);
    } else if (r < 0.6) {
      const path = pick(random, paths);
      const at = path.split(/(?=\[)|\./);
      const key = at.pop()!.replace(/^\[|\]$/g, "");
      const owner = at.length ? accessOf(at.join(".").replace(/\.\[/g, "[")) : "cfg";
      lines.push(
        `Object.defineProperty(${owner}, ${
          JSON.stringify(key)
        }, { enumerable: true, get() { throw new Error("getter of ${path}"); } });`,
      );
      names.push(path);
      what.push(`${path}: a getter that throws`);
    } else if (r < 0.7) {
      const key = pick(random, [
        "fles",
        "a\nb",
        "\u001b[31m",
        "k".repeat(5000),
        "constructor",
        "toString",
      ]);
      const path = pick(random, [
        "",
        "files[1]",
        "budget",
        "output",
        "personas.dev",
        "presets.small",
      ]);
      const owner = path ? accessOf(path) : "cfg";
      lines.push(`${owner}[${JSON.stringify(key)}] = 1;`);
      names.push(path || "Unknown key");
      what.push(`unknown key ${JSON.stringify(key.slice(0, 20))} in ${path || "the config"}`);
    } else {
      const count = int(random, 1, 3);
      const name = pick(random, [
        "odd",
        "odd",
        "slop:files",
        "full",
        "a\nb",
        "p".repeat(300),
        "[x]",
      ]);
      for (let n = 0; n < count; n++) {
        const plugin = oddPlugin(random, random() < 0.3 ? name : `${name}${n}`);
        lines.push(`cfg.plugins.push(${plugin.source});`);
        if (plugin.view && random() < 0.8) {
          lines.push(`cfg.files.push({ path: "src/a.py", view: ${JSON.stringify(plugin.view)} });`);
        }
      }
      names.push("plugin");
      what.push(`${count} plugins named ${JSON.stringify(name.slice(0, 20))}`);
    }
  }
  // A spoil under a value an earlier one replaced is passed over (a property of no object).
  for (let i = 1; i < lines.length; i++) lines[i] = `try { ${lines[i]} } catch { /* over */ }`;
  const form = pick(random, ["object", "function", "promise"]);
  lines.push(
    form === "object"
      ? "export default cfg;"
      : form === "function"
      ? "export default () => cfg;"
      : "export default Promise.resolve(cfg);",
  );
  const file = pick(random, ["slop.config.ts", "slop.config.js", "slop.config.mjs"]);
  tree[`.config/${file}`] = lines.join("\n") + "\n";
  return {
    label: `configfile: ${file} ${form}: ${what.join("; ")}`.slice(0, 300),
    tree,
    config: {},
    configFile: file,
    names,
    mayFail: true,
  };
}

/**
 * A config file's build: exit 0, 1 or 2; on 1 or 2 a plain error naming one of the key paths
 * or plugins spoiled, no internal error, and the output of a first good build as it was.
 */
async function configFileFaults(c: Case, root: string): Promise<string[]> {
  await Deno.writeTextFile(join(root, "slop.config.ts"), 'export default { files: ["src/**"] };\n');
  const first = await runMain(["build", "-q", "--no-server"], root);
  if (first.code !== 0) return [`the first build failed: ${first.err.slice(0, 200)}`];
  await Deno.remove(join(root, "slop.config.ts"));
  await Deno.rename(join(root, ".config", c.configFile!), join(root, c.configFile!));
  const before = await listing(join(root, ".slop", "out"));
  const run = await runMain(["build", "-q", "--no-server"], root);
  const faults: string[] = [];
  if (![0, 1, 2].includes(run.code)) faults.push(`exit code ${run.code}`);
  if (run.err.includes("internal error")) faults.push(`internal error: ${run.err.slice(0, 400)}`);
  if (run.code !== 0) {
    const text = run.err.trim();
    // Unknown keys are named as their path and the key; a plugin by `[plugin x]` or its place.
    const named = c.names!.some((name) =>
      name === "plugin"
        ? /plugin|plugins\[\d+\]/.test(text)
        : text.includes(name.replace(/\[\d+\]$/, ""))
    );
    if (!named) {
      faults.push(`names none of ${c.names!.join(", ")}: ${JSON.stringify(text.slice(0, 300))}`);
    }
    faults.push(
      ...errorFaults(run.err, []).map((f) => `${f}: ${JSON.stringify(text.slice(0, 300))}`),
    );
    if (text.length > 20_000) faults.push(`an error of ${text.length} characters`);
    const after = await listing(join(root, ".slop", "out"));
    if (after !== before) faults.push(`exit ${run.code} wrote to the output folder`);
  }
  return faults;
}

// ---------------------------------------------------------------------------------------------
// The task's text (`build --task`, `--task-file`, `rank --task`, the config's `task`): blank,
// huge, control and invisible characters, lone surrogates, markdown that would break the
// document's headings and fences, a task file that is a folder, missing, not UTF-8.

const TASK_PARTS = [
  "fix add in src/b.ts",
  "src/a.py",
  "the retry loop",
  "",
  " ",
  "\t",
  "\n\n",
  "\r",
  "\r\n",
  "\u2028",
  "\u2029",
  "\u0085",
  "\u00a0",
  "\u200b",
  "\u200b\u200c\u200d\u2060\ufeff",
  "\u202e\u2066",
  "\u0000",
  "\u001b[2J",
  "\ud800",
  "\udc00x",
  "# Title",
  "## Files",
  "### src/a.py",
  "   ### x",
  "#\tx",
  "###",
  "Heading\n===",
  "Heading\n---",
  "```",
  "````python",
  "~~~",
  "~~~~~~ x",
  "``` ```",
  "    ```",
  "> ```",
  "- ```",
  "<!-- open",
  "<details>",
  "</document_content>",
  "{knowledge}",
  "{/knowledge}",
  "[REDACTED:x]",
  "Also relevant, most relevant first:",
  "x".repeat(5000),
  "é".repeat(3000),
  "日本語のタスク",
];

function taskText(random: Random): string {
  const roll = random();
  if (roll < 0.04) return "";
  if (roll < 0.08) return pick(random, [" ", "\n\n\t ", "\u200b", "\u3000", "\u00a0\u2028"]);
  if (roll < 0.12) {
    return pick(random, ["fix add ", "#", "\n", "`"]).repeat(int(random, 1, 2) * 250_000);
  }
  const parts = Array.from({ length: int(random, 1, 6) }, () => pick(random, TASK_PARTS));
  return parts.join(pick(random, ["", " ", "\n", "\r\n", "\r"]));
}

/** What of a text survives in the task block: no blanks, `#`, `\` or line ends, well-formed. */
function taskWords(text: string): string {
  return text.toWellFormed().replace(/[\s#\\\u200b-\u200d\u2060\ufeff]/g, "");
}

function taskCase(random: Random): Case {
  const text = taskText(random);
  const mode = pick(random, ["library", "build", "build", "file", "file", "rank"]);
  const git = random() < 0.5;
  const tree: Tree = { ...BASE_TREE, ".gitignore": ".slop/\n" };
  const budget = random() < 0.2 ? ["--budget", pick(random, ["200", "4000", "50000"])] : [];
  // The text is checked in the document when it is given whole, as text.
  const check = (given: string) => (built: Built): Promise<string[]> => {
    if (!given.trim()) return Promise.resolve([]);
    const block = built.manifest.blocks.find((b) => b.id === "task:text");
    if (!block) return Promise.resolve(["no task:text block"]);
    const shown = decoder.decode(
      encoder.encode(built.document).subarray(block.offset, block.offset + block.length),
    );
    return Promise.resolve(
      taskWords(shown).includes(taskWords(given)) ? [] : ["the task block lost part of the task"],
    );
  };
  const label = (what: string) => `task: ${what} ${JSON.stringify(text.slice(0, 160))}`;
  if (mode === "library") {
    return {
      label: label("config"),
      tree,
      git,
      config: { task: text },
      names: ["task"],
      mayFail: true,
      oneLineError: true,
      check: check(text),
    };
  }
  if (mode === "build") {
    return {
      label: label(`build ${budget.join(" ")}`),
      tree,
      git,
      config: {},
      argv: ["build", "--stdout", ...budget, "--task", text],
      names: ["--task"],
      mayFail: true,
      oneLineError: true,
      check: check(text),
    };
  }
  // A task file: the text's bytes, a byte order mark, bytes that are no UTF-8, a folder or nothing.
  const kind = pick(random, ["text", "text", "bom", "latin1", "surrogate", "folder", "missing"]);
  let path = "task.txt";
  if (kind === "folder") path = "src";
  else if (kind === "missing") path = "nope/task.txt";
  else if (kind === "bom") tree[path] = "\ufeff" + text;
  else if (kind === "latin1") tree[path] = Uint8Array.from([0x66, 0x69, 0xe9, 0x78]);
  else if (kind === "surrogate") tree[path] = Uint8Array.from([0x61, 0xed, 0xa0, 0x80]);
  else tree[path] = text;
  const given = kind === "text" || kind === "bom" ? text : "";
  const flag = random() < 0.5 ? ["--task-file", path] : [`--task-file=${path}`];
  if (mode === "rank") {
    const argv = random() < 0.5 ? ["rank", "--json", ...flag] : ["rank", "--json", "--task", text];
    return {
      label: label(`${argv.slice(0, -1).join(" ")} (${kind})`),
      tree,
      git,
      config: {},
      command: argv,
      names: argv.includes("--task") ? ["--task"] : ["--task-file", path],
      oneLineError: true,
    };
  }
  return {
    label: label(`build ${flag.join(" ")} ${budget.join(" ")} (${kind})`),
    tree,
    git,
    config: {},
    argv: ["build", "--stdout", ...budget, ...flag],
    names: ["--task-file", path],
    mayFail: true,
    oneLineError: true,
    check: check(given),
  };
}

// ---------------------------------------------------------------------------------------------
// The tree changed during a build: a section plugin of the config changes files after they were
// read (deleted, emptied, rewritten, grown past the size limit, a folder, FIFO or link in their
// place), once, when a marker file is in the state dir. A budget's steps and a task's views read
// texts again; the next build (warm) must see the tree as it is.

const MUTATIONS = [
  "delete",
  "empty",
  "same size",
  "rewrite",
  "grow",
  "folder",
  "fifo",
  "link to /dev/zero",
  "link to a file",
  "link loop",
] as const;

/** The JavaScript of one change to `path` (in the config's `compose` hook, synchronous). */
function mutationSource(kind: string, path: string): string {
  const p = JSON.stringify(path);
  const gone = `try { Deno.removeSync(${p}, { recursive: true }); } catch { /* gone */ }`;
  switch (kind) {
    case "delete":
      return gone;
    case "empty":
      return `Deno.truncateSync(${p}, 0);`;
    case "same size":
      return `{ const t = Deno.readTextFileSync(${p}); Deno.writeTextFileSync(${p}, t.replace(/[a-z]/g, "q")); }`;
    case "rewrite":
      return `Deno.writeTextFileSync(${p}, "def changed():\\n    return 'NEW'\\n");`;
    case "grow":
      return `Deno.writeTextFileSync(${p}, "x = 1\\n".repeat(1_900_000));`;
    case "folder":
      return `${gone} Deno.mkdirSync(${p}); Deno.writeTextFileSync(${p} + "/in.py", "y = 2\\n");`;
    case "fifo":
      return `${gone} new Deno.Command("mkfifo", { args: [${p}] }).outputSync();`;
    case "link to /dev/zero":
      return `${gone} Deno.symlinkSync("/dev/zero", ${p});`;
    case "ignored":
      return `Deno.writeTextFileSync(".gitignore", ".slop/\\n" + ${p} + "\\n");`;
    case "untracked":
      return `new Deno.Command("git", { args: ["rm", "-q", "--cached", "--", ${p}] }).outputSync();`;
    case "link to a file":
      return `${gone} Deno.symlinkSync("../README.md", ${p});`;
    default:
      return `${gone} Deno.symlinkSync(${JSON.stringify(path.split("/").pop())}, ${p});`;
  }
}

const MODULE = (i: number) =>
  Array.from({ length: 40 }, (_, j) => `def f${j}_${i}(x):\n    return x + ${j}\n`).join("\n");

function treeChangeCase(random: Random): Case {
  const tree: Tree = { ...BASE_TREE, ".gitignore": ".slop/\n" };
  for (let i = 0; i < 6; i++) tree[`src/m${i}.py`] = MODULE(i);
  const targets = [...new Set(Array.from({ length: int(random, 1, 3) }, () => int(random, 0, 5)))];
  const changes: Array<readonly [string, string]> = targets.map((i) =>
    [`src/m${i}.py`, pick(random, MUTATIONS)] as const
  );
  const argv = ["build", "--stdout", "--json", "--no-server"];
  if (random() < 0.6) argv.push("--budget", pick(random, ["1500", "3000", "8000"]));
  if (random() < 0.4) argv.push("--task", pick(random, ["fix f3_2 in src/m2.py", "f1_0 f7_4"]));
  if (random() < 0.3) argv.push("--strategy", pick(random, ["summarize", "full"]));
  const warm = random() < 0.5;
  const git = random() < 0.5;
  // Drawn last, so that the cases of the first runs (bench/README.md) stay as they were: a file
  // put in .gitignore, or out of git's index, during the build.
  if (random() < 0.3) {
    const path = `src/m${int(random, 0, 5)}.py`;
    if (!targets.some((i) => path === `src/m${i}.py`)) {
      changes.push([path, pick(random, ["ignored", "untracked"])]);
    }
  }
  const body = changes.map(([path, kind]) => mutationSource(kind, path)).join("\n      ");
  const config = `export default {
  plugins: [{
    kind: "section",
    name: "changer",
    compose() {
      try { Deno.removeSync(".slop/mutate"); } catch { return []; }
      ${body}
      return [];
    },
  }],
};
`;
  return {
    label: `treechange: ${changes.map(([p, k]) => `${p} ${k}`).join(", ")} (${
      argv.slice(4).join(" ")
    })${warm ? " warm" : ""}`,
    tree: { ...tree, "slop.config.ts": config },
    git,
    config: {},
    treeChange: {
      argv,
      changed: [...changes.map(([p]) => p), ".gitignore"].filter((p, i, all) =>
        p !== ".gitignore" || changes.some(([, k]) => k === "ignored") && all.indexOf(p) === i
      ),
    },
  };
}

/** The rows of `built` whose full text is not what their row says it is (sha256 and size). */
function rowFaults(built: Built): string[] {
  const faults: string[] = [];
  const bytes = encoder.encode(built.document);
  for (const row of built.manifest.files as Array<Record<string, unknown>>) {
    if (row.status !== "rendered" || row.view !== "full" || row.fallback) continue;
    const block = built.manifest.blocks.find((b) => b.id === `files:${row.path}`);
    if (!block) continue;
    const body = fencedBody(
      decoder.decode(bytes.subarray(block.offset, block.offset + block.length)),
    );
    if (body === undefined || body.includes("[REDACTED:")) continue;
    const text = body === "" ? "" : body + "\n";
    if (sha256(encoder.encode(text)) !== row.sha256) {
      faults.push(`${row.path}: its full text is not the text its row's sha256 names`);
    }
  }
  return faults;
}

/** Where two builds first differ, for a finding's line. */
function firstDifference(a: Built, b: Built): string {
  const [x, y] = [comparable(a), comparable(b)];
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  if (Deno.env.get("FUZZ_DEBUG")) {
    const heads = (d: Built) =>
      d.document.split("\n").filter((l) => l.startsWith("### ")).join(" ");
    console.error(`warm: ${heads(a)}\ncold: ${heads(b)}`);
  }
  return `${JSON.stringify(x.slice(Math.max(0, i - 60), i + 60))} vs ${
    JSON.stringify(y.slice(Math.max(0, i - 60), i + 60))
  }`;
}

/** Build, change the tree in the build, build again: warm and without the cache, the same. */
async function treeChangeFaults(c: Case, root: string): Promise<string[]> {
  const { argv, changed } = c.treeChange!;
  const faults: string[] = [];
  const run = async (args: string[], what: string): Promise<Built | undefined> => {
    const out = await runMain(args, root);
    if (out.code !== 0 || out.err.includes("internal error")) {
      faults.push(
        `${what}: exit ${out.code}: ${out.err.replace(/.*Initialize.*\n/g, "").slice(0, 300)}`,
      );
      return undefined;
    }
    return JSON.parse(out.out);
  };
  if (c.label.endsWith(" warm")) await run(argv, "the build before");
  await Deno.mkdir(join(root, ".slop"), { recursive: true });
  await Deno.writeTextFile(join(root, ".slop/mutate"), "");
  const first = await run(argv, "the build that changed the tree");
  if (first) {
    faults.push(...await propertyFaults(first, root, budgetOf(argv), true, new Set(changed)));
    faults.push(...rowFaults(first));
    if (await Deno.stat(join(root, ".slop/mutate")).then(() => true, () => false)) {
      faults.push("harness: the hook did not run");
    }
  }
  // The state as the second build finds it, for a build of its own without the cache.
  const copy = await Deno.makeTempDir({ prefix: "slop_fuzzprop_state_" });
  try {
    await new Deno.Command("cp", { args: ["-a", `${join(root, ".slop")}/.`, copy] }).output();
    const warm = await run(argv, "the next build");
    const cold = await run(
      [...argv, "--no-cache", "--state-dir", copy],
      "the next build, no cache",
    );
    if (warm) {
      faults.push(...await propertyFaults(warm, root, budgetOf(argv)));
      faults.push(...rowFaults(warm).map((f) => `next build: ${f}`));
    }
    if (warm && cold && comparable(warm) !== comparable(cold)) {
      const a = warm.manifest.files.map((f) => `${f.path} ${f.view} ${f.status}`).join(", ");
      const b = cold.manifest.files.map((f) => `${f.path} ${f.view} ${f.status}`).join(", ");
      faults.push(
        a === b
          ? `the next build, warm and without the cache: other bytes (${
            firstDifference(warm, cold)
          })`
          : `the next build, warm [${a}] and without the cache [${b}]`,
      );
    }
  } finally {
    await Deno.remove(copy, { recursive: true }).catch(() => {});
  }
  return faults;
}

// ---------------------------------------------------------------------------------------------
// Ignore rules: `.gitignore` files of odd patterns (negations, `**`, anchors, classes, escapes,
// trailing blanks, CRLF, a byte order mark), at the top and in a folder, over untracked files.
// Git lists what it does not ignore; slop, in a folder with no `.git`, lists by the same files
// itself: the two lists must be git's.

const IGNORE_NAMES = [
  "a.log",
  "keep.log",
  "b.tmp",
  "sub/x.tmp",
  "sub/keep.log",
  "sub/deep/y.log",
  "deep/a/b/c.txt",
  "deep/a/c.txt",
  "build/out.js",
  "src/build/gen.js",
  "sp ",
  "#h",
  "!b",
  "a[b].txt",
  "ab.txt",
  "a*b.txt",
  "x?.md",
  "Up.LOG",
  "docs/a b.md",
  "docs/ü.md",
  "n\\m.txt",
  ".hidden/z.txt",
  "foo/bar/baz.py",
  "foo/baz.py",
];

const IGNORE_PATTERNS = [
  "*.log",
  "!keep.log",
  "!*.log",
  "/a.log",
  "**/*.tmp",
  "sub/**",
  "!sub/keep.log",
  "sub/",
  "sub/*",
  "!sub/deep/",
  "deep/**/c.txt",
  "deep/*/c.txt",
  "**/build",
  "build/",
  "/build",
  "sp\\ ",
  "sp ",
  "\\#h",
  "#h",
  "\\!b",
  "a\\[b\\].txt",
  "a[b].txt",
  "a[a-c].txt",
  "a[!a].txt",
  "a[^a].txt",
  "a\\*b.txt",
  "x\\?.md",
  "x?.md",
  "*.LOG",
  "docs/a b.md",
  "docs/*.md",
  "!docs/ü.md",
  "n\\\\m.txt",
  ".hidden",
  "!.hidden/z.txt",
  "foo/**/baz.py",
  "foo/**",
  "**",
  "!**/",
  "*",
  "!*/",
  "\\",
  "a/",
  "   ",
  "# comment",
  "*.py   ",
  "*.py\\ \\ ",
  "[",
  "**/**/*.txt",
  "deep/a/**/",
  "/deep/a/b/",
];

function ignoresCase(random: Random): Case {
  const tree: Tree = {};
  for (const name of IGNORE_NAMES) if (random() < 0.7) tree[name] = `${name}\n`;
  const end = pick(random, ["\n", "\r\n", "\n\n"]);
  const rules = (n: number) =>
    Array.from({ length: n }, () => pick(random, IGNORE_PATTERNS)).join(end) +
    (random() < 0.7 ? end : "");
  tree[".gitignore"] = (random() < 0.15 ? "\ufeff" : "") + rules(int(random, 1, 6));
  if (random() < 0.4) {
    tree[pick(random, ["sub/.gitignore", "deep/.gitignore", "foo/.gitignore"])] = rules(
      int(random, 1, 3),
    );
  }
  // Git's own settings, seen by git alone: `info/exclude`, a case-blind repository, and a
  // `core.excludesFile` that names nothing.
  const gitOnly: Record<string, string> = {};
  if (random() < 0.3) gitOnly["info/exclude"] = rules(int(random, 1, 3));
  if (random() < 0.2) gitOnly.ignoreCase = "true";
  if (random() < 0.2) gitOnly.excludesFile = pick(random, ["/nonexistent/ignore", "", "~/nope"]);
  // Repository states: files committed (ignored ones forced in), then some removed from disk or
  // from the index, a non-cone sparse checkout, a detached HEAD, an index.lock left behind.
  if (random() < 0.4) {
    gitOnly.commit = String(int(random, 1, 1000));
    for (const state of ["removed", "uncached", "sparse", "detached", "lock"]) {
      if (random() < 0.3) gitOnly[state] = String(int(random, 1, 1000));
    }
  }
  return {
    label: `ignores: ${
      JSON.stringify([
        ...Object.entries(tree).filter(([p]) => p.endsWith(".gitignore")),
        ...Object.entries(gitOnly),
      ])
    }`.slice(0, 300),
    tree,
    config: {},
    ignores: gitOnly,
  };
}

/** Put the repository in the states `gitOnly` names, each picking its files by its number. */
async function gitStates(
  root: string,
  gitOnly: Record<string, string>,
  git: (...args: string[]) => Promise<Deno.CommandOutput>,
): Promise<void> {
  const files = Object.keys(gitOnly).length ? IGNORE_NAMES : [];
  const some = (seed: string) =>
    files.filter((_, i) => (i * 7 + Number(seed)) % 3 === 0).filter((f) => {
      try {
        return Deno.lstatSync(join(root, f)).isFile;
      } catch {
        return false;
      }
    });
  const id = ["-c", "user.name=f", "-c", "user.email=f@x", "-c", "commit.gpgsign=false"];
  await git("add", "-A");
  const forced = some(gitOnly.commit);
  if (forced.length) await git("add", "-f", "--", ...forced);
  await git(...id, "commit", "-qm", "x");
  if (gitOnly.removed) {
    for (const f of some(gitOnly.removed)) await Deno.remove(join(root, f));
  }
  if (gitOnly.uncached) {
    const picked = some(gitOnly.uncached);
    if (picked.length) await git("rm", "-q", "--cached", "--", ...picked);
  }
  if (gitOnly.sparse) {
    await git("sparse-checkout", "set", "--no-cone", "/*", "!/sub/", "!/deep/a/");
  }
  if (gitOnly.detached) await git("checkout", "-q", "--detach");
  if (gitOnly.lock) await Deno.writeTextFile(join(root, ".git/index.lock"), "");
}

/** What git lists (untracked, not ignored), slop's build in git and out of it: all the same. */
async function ignoresFaults(root: string, gitOnly: Record<string, string>): Promise<string[]> {
  const git = (...args: string[]) =>
    new Deno.Command("git", {
      args: ["-c", "core.quotePath=false", ...args],
      cwd: root,
      stdout: "piped",
      stderr: "null",
    }).output();
  await git("init", "-q");
  if (gitOnly["info/exclude"]) {
    await Deno.writeTextFile(join(root, ".git/info/exclude"), gitOnly["info/exclude"]);
  }
  if (gitOnly.ignoreCase) await git("config", "core.ignoreCase", "true");
  if (gitOnly.excludesFile !== undefined) {
    await git("config", "core.excludesFile", gitOnly.excludesFile);
  }
  if (gitOnly.commit) await gitStates(root, gitOnly, git);
  const listed = await git("ls-files", "-z", "-co", "--exclude-standard");
  // What git lists that is on disk (a file removed from the work tree is listed by the index).
  const want = [...new Set(decoder.decode(listed.stdout).split("\0").filter(Boolean))].filter(
    (p) => {
      try {
        Deno.lstatSync(join(root, p));
        return true;
      } catch {
        return false;
      }
    },
  ).sort();
  const { buildContext } = await import("../mod.ts");
  const paths = async () => {
    const built = await buildContext({ cwd: root, inline: {} }, {
      write: false,
    }) as unknown as Built;
    return built.manifest.files.filter((f) => !f.path.startsWith(".slop")).map((f) => f.path)
      .sort();
  };
  const show = (list: string[]) => JSON.stringify(list).slice(0, 400);
  const faults: string[] = [];
  const inGit = await paths();
  if (show(inGit) !== show(want)) faults.push(`in git: ${show(inGit)}, git: ${show(want)}`);
  await Deno.remove(join(root, ".git"), { recursive: true });
  if (Object.keys(gitOnly).length) return faults;
  const walked = await paths();
  if (show(walked) !== show(want)) faults.push(`no .git: ${show(walked)}, git: ${show(want)}`);
  return faults;
}

const TARGETS: Record<string, (random: Random) => Case> = {
  beads: beadsCase,
  history: historyCase,
  knowledge: knowledgeCase,
  screenshots: screenshotsCase,
  slices: slicesCase,
  masks: masksCase,
  personas: personasCase,
  config: configCase,
  flags: flagsCase,
  source: sourceCase,
  names: namesCase,
  encodings: encodingsCase,
  flagpairs: flagPairsCase,
  configfile: configFileCase,
  task: taskCase,
  treechange: treeChangeCase,
  ignores: ignoresCase,
};

// ---------------------------------------------------------------------------------------------
// The properties

const SLOP_HEADINGS = [
  /^## Files( \(Summary\)| \(Tier \d - [A-Za-z]+\))?$/,
  /^## (Task|Task Files|Screenshots|Directory Tree|Discussion History|Beads Mode: Progress Track)$/,
  /^### Discussion (Excerpt \d+|Checkpoint \(Excerpts \d+-\d+\))$/,
];

interface Built {
  document: string;
  manifest: {
    files: Array<{ path: string; view: string; status: string; fallback?: string }>;
    blocks: Array<{ id: string; offset: number; length: number; sha256: string }>;
    total: { tokens: number };
    warnings: string[];
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The fenced body of a file's block, or undefined when it has no fence (a summary). */
function fencedBody(block: string): string | undefined {
  const lines = block.split("\n");
  const open = lines.findIndex((l) => /^(`{3,}|~{3,})/.test(l));
  if (open < 0) return undefined;
  const fence = /^(`{3,}|~{3,})/.exec(lines[open])![1];
  let close = lines.length - 1;
  while (close > open && lines[close].trim() !== fence) close--;
  if (close <= open) return undefined;
  return lines.slice(open + 1, close).join("\n");
}

function markdownFaults(doc: string, paths: Set<string>): string[] {
  const faults: string[] = [];
  const shown = new Set([...paths].map((p) => `### ${headingText(p)}`));
  let open: string | undefined;
  let knowledge = doc.startsWith("{knowledge}\n");
  // CommonMark's line ends: a lone CR ends a line too.
  for (const line of doc.split(/\r\n|\r|\n/)) {
    if (knowledge) {
      // The digest is the user's own markdown, headings and all, up to its closing line.
      knowledge = line !== "{/knowledge}";
      continue;
    }
    const run = /^ {0,3}(`{3,}|~{3,})(.*)$/s.exec(line);
    if (open) {
      if (run && run[1][0] === open[0] && run[1].length >= open.length && !run[2].trim()) {
        open = undefined;
      }
    } else if (run && !(run[1][0] === "`" && run[2].includes("`"))) open = run[1];
    else if (/^ {0,3}#{1,3}(?:[ \t]|$)/.test(line)) {
      const h = line.trim();
      if (!shown.has(h) && !SLOP_HEADINGS.some((re) => re.test(h))) {
        faults.push(`heading outside a fence: ${JSON.stringify(h.slice(0, 80))}`);
      }
    }
  }
  if (open !== undefined) faults.push(`the fence ${open} never closes`);
  return faults;
}

/** The lines of a code view that, body and value markers aside, are no part of the file. */
function garbledLines(path: string, text: string, view: string): string[] {
  const spec = languageFor(path);
  if (!spec) return [];
  return view.split("\n").filter((line) => {
    const parts = line.split(spec.bodyMarker).join("\0").split(spec.valueMarker).join("\0");
    return parts.split("\0").map((p) => p.trim()).some((p) => p && !text.includes(p));
  });
}

async function propertyFaults(
  built: Built,
  root: string,
  budget: number | undefined,
  markdown = true,
  changed = new Set<string>(),
): Promise<string[]> {
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
  // The total counts what the blocks count (each block's count is checked by the encodings target).
  const sum = built.manifest.blocks.reduce(
    (n, b) => n + ((b as { tokens?: number }).tokens ?? 0),
    0,
  );
  if (sum !== built.manifest.total.tokens) {
    faults.push(`the blocks count ${sum} tokens, the total ${built.manifest.total.tokens}`);
  }
  // A budget the task's text alone overruns is warned of (docs/task_context.md), not kept.
  const unmet = built.manifest.warnings.some((w) => w.includes("cannot be met with the task"));
  if (budget !== undefined && !unmet && built.manifest.total.tokens > budget) {
    faults.push(`${built.manifest.total.tokens} tokens over the budget of ${budget}`);
  }
  const paths = new Set(built.manifest.files.map((f) => f.path));
  // The markdown properties: an XML or JSON document is checked for tiling and budget only.
  if (!markdown) return faults;
  faults.push(...markdownFaults(built.document, paths));
  for (const file of built.manifest.files) {
    // A file changed after the build read it is not what the build showed (rowFaults checks it).
    if (file.status !== "rendered" || changed.has(file.path)) continue;
    const block = built.manifest.blocks.find((b) => b.id === `files:${file.path}`);
    if (!block) continue;
    const raw = await Deno.readFile(join(root, file.path));
    let text: string;
    try {
      // Bytes that are no UTF-8 text, or hold a NUL, are read in the encoding slop detects.
      text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
      if (text.includes("\0")) continue;
    } catch {
      continue;
    }
    const body = fencedBody(
      decoder.decode(bytes.subarray(block.offset, block.offset + block.length)),
    );
    if (body === undefined) continue;
    if (file.view === "full" && !file.fallback && !body.includes("[REDACTED:")) {
      // A byte order mark is dropped and line ends become LF (docs/hostile_inputs.md).
      const want = text.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n").replace(/\n$/, "");
      if (body !== want) {
        faults.push(
          `${file.path}: full text differs from the file (${body.length} vs ${want.length} chars)`,
        );
      }
    }
    if (["skeleton", "outline"].includes(file.view) && !file.fallback) {
      // An outline line ends with its kind as a comment (`def f(x)  # function`).
      const lines = file.view === "outline"
        ? body.replace(/ {2}(#|\/\/|--|;|%)[ \t]*[\w -]+$/gm, "")
        : body;
      // An outline's signature is on one line, its blanks collapsed (and its comments out).
      const bad = file.view === "outline"
        ? garbledLines(file.path, text.replace(/\s+/g, " "), lines.replace(/[ \t]+/g, " "))
        : garbledLines(file.path, text, lines);
      // A redacted secret is no part of the file, as in a full view.
      const shown = bad.filter((line) => !line.includes("[REDACTED:"));
      if (shown.length) {
        faults.push(
          `${file.path}: ${file.view} line not in the file: ${
            JSON.stringify(shown[0].slice(0, 80))
          }`,
        );
      }
    }
  }
  return faults;
}

/** The document and manifest with what differs between a cold and a warm build taken out. */
function comparable(built: Built): string {
  const files = built.manifest.files.map((f) => ({ ...f, cache: undefined }));
  return JSON.stringify({ document: built.document, manifest: { ...built.manifest, files } });
}

async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, data] of Object.entries(tree)) {
    const abs = join(root, path);
    await Deno.mkdir(dirname(abs), { recursive: true });
    if (typeof data === "string") await Deno.writeTextFile(abs, data);
    else await Deno.writeFile(abs, data);
  }
}

/** Make `root` a git work tree with every file committed. */
async function gitCommit(root: string): Promise<void> {
  const git = (...args: string[]) =>
    new Deno.Command("git", {
      args: ["-c", "user.name=f", "-c", "user.email=f@x", "-c", "commit.gpgsign=false", ...args],
      cwd: root,
      stdout: "null",
      stderr: "null",
    }).output();
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-qm", "x");
}

/** Run the CLI's `main` in `cwd` (the child's own process: it may move), capturing its output. */
async function runMain(
  argv: string[],
  cwd: string,
): Promise<{ code: number; out: string; err: string }> {
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
    if (to === "out") out += decoder.decode(p);
    else err += decoder.decode(p);
    return p.length;
  };
  Deno.stdout.writeSync = sink("out");
  Deno.stderr.writeSync = sink("err");
  Deno.stdout.write = (p: Uint8Array) => Promise.resolve(sink("out")(p));
  console.log = (...a: unknown[]) => void sink("out")(encoder.encode(a.join(" ") + "\n"));
  console.error = console.warn = (...a: unknown[]) =>
    void sink("err")(encoder.encode(a.join(" ") + "\n"));
  const before = Deno.cwd();
  Deno.chdir(cwd);
  try {
    return { code: await main(argv), out, err };
  } finally {
    Deno.chdir(before);
    Object.assign(Deno.stdout, { writeSync: saved.outSync, write: saved.outWrite });
    Deno.stderr.writeSync = saved.errSync;
    Object.assign(console, { log: saved.log, error: saved.error, warn: saved.warn });
  }
}

/** One case's build(s), and the properties that failed (empty when all hold). */
async function runCase(c: Case, root: string): Promise<string[]> {
  await writeTree(root, c.tree);
  if (c.git) await gitCommit(root);
  if (c.command) return await commandFaults(c, root);
  if (c.configFile) return await configFileFaults(c, root);
  if (c.treeChange) return await treeChangeFaults(c, root);
  if (c.ignores) return await ignoresFaults(root, c.ignores);
  if (c.argv) {
    await Deno.writeTextFile(
      join(root, "slop.config.ts"),
      `export default ${JSON.stringify(c.config)};\n`,
    );
    const first = await runMain(
      [...c.argv, "--json", "--no-server"].filter((a, i, all) =>
        a !== "--json" || all.indexOf(a) === i
      ),
      root,
    );
    if (first.code !== 0) {
      if (!c.mayFail) return [`exit ${first.code}: ${first.err.slice(0, 300)}`];
      const faults = errorFaults(first.err, c.names ?? [], c.oneLineError);
      if (first.code !== 1 && first.code !== 2) faults.push(`exit code ${first.code}`);
      if (first.err.includes("internal error")) faults.push("internal error");
      return faults.map((f) => `error ${JSON.stringify(first.err.slice(0, 300))}: ${f}`);
    }
    let built: Built;
    try {
      built = JSON.parse(first.out);
    } catch {
      return [`stdout is not JSON: ${first.out.slice(0, 200)}`];
    }
    const again = await runMain(
      [...c.argv, "--json", "--no-server"].filter((a, i, all) =>
        a !== "--json" || all.indexOf(a) === i
      ),
      root,
    );
    const format = c.argv.findLast((a, i) =>
      c.argv![i - 1] === "--format" || a.startsWith("--format=")
    );
    const markdown = !format || /^(--format=)?(markdown|md)?$/.test(format);
    const faults = await propertyFaults(built, root, budgetOf(c.argv), markdown);
    if (c.check) faults.push(...await c.check(built, root));
    if (again.code !== 0 || comparable(JSON.parse(again.out)) !== comparable(built)) {
      faults.push("a second build gave other bytes");
    }
    return faults;
  }
  const { buildContext } = await import("../mod.ts");
  const build = () =>
    buildContext({ cwd: root, inline: c.config }, { write: false }) as unknown as Promise<Built>;
  let built: Built;
  try {
    built = await build();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!c.mayFail) return [`threw: ${message.slice(0, 300)}`];
    return errorFaults(message, c.names ?? [], c.oneLineError).map((f) =>
      `error ${JSON.stringify(message.slice(0, 300))}: ${f}`
    );
  }
  const budget = (c.config.budget as { tokens?: number } | undefined)?.tokens;
  const faults = await propertyFaults(built, root, budget);
  if (c.check) faults.push(...await c.check(built, root));
  const again = await build();
  if (comparable(again) !== comparable(built)) faults.push("a second build gave other bytes");
  return faults;
}

/**
 * What is wrong with an error by the oracle: its first line must be a plain sentence (a usage
 * hint or a list of config errors may follow it), and the whole must name each of `names`.
 */
function errorFaults(message: string, names: string[], oneLine = false): string[] {
  const text = message.trim().replace(/^(slop|error): /, "");
  const [first, ...rest] = text.split("\n");
  // The flag parser's usage errors (`slop: Unknown option "--x"`) are tests/hostile/bad_flags'.
  const usage = /^(Unknown option|Option "[^"]+" (is missing|has an empty)|Too many arguments)/
    .test(first);
  const faults = usage ? [] : messageFaults(first, []);
  if (rest.some((line) => /^\s+at /.test(line))) faults.push("a stack trace");
  for (const name of names) if (!text.includes(name)) faults.push(`does not name ${name}`);
  if (oneLine && !usage && rest.length) faults.push(`${rest.length + 1} lines`);
  if (text.length > 1000) faults.push(`${text.length} characters`);
  return faults;
}

function budgetOf(argv: string[]): number | undefined {
  const at = argv.findIndex((a) => a === "--budget" || a.startsWith("--budget="));
  if (at < 0) return undefined;
  const value = argv[at].includes("=") ? argv[at].split("=")[1] : argv[at + 1];
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

// ---------------------------------------------------------------------------------------------
// Parent and child

/** The case numbered `i` of `seed`: the same on every run. */
function caseOf(seed: number, i: number, targets: string[]): Case {
  const random = prng(seed * 100_003 + i);
  return TARGETS[pick(random, targets)](random);
}

async function child(seed: number, rounds: number, start: number, targets: string[]) {
  for (let i = start; i < rounds; i++) {
    const c = caseOf(seed, i, targets);
    console.log(JSON.stringify({ start: i, label: c.label }));
    const root = await Deno.makeTempDir({ prefix: "slop_fuzzprop_" });
    const started = performance.now();
    let faults: string[];
    try {
      faults = await runCase(c, root);
    } catch (error) {
      faults = [`harness: ${error instanceof Error ? error.stack : error}`.slice(0, 600)];
    }
    await Deno.remove(root, { recursive: true }).catch(() => {});
    const ms = Math.round(performance.now() - started);
    console.log(JSON.stringify({ i, label: c.label, ms, faults }));
  }
}

async function parent(args: string[], timeout: number, start: number, rounds: number) {
  const findings: Array<{ i: number; label: string; fault: string }> = [];
  const labels = new Map<number, string>();
  let slow = { ms: 0, label: "" };
  const found = (i: number, label: string, fault: string) => {
    findings.push({ i, label, fault });
    console.log(`FOUND #${i} ${label}\n    ${fault}`);
  };
  await runCases(import.meta.url, { args, timeout, start, rounds }, {
    message(msg) {
      if (typeof msg.start === "number") {
        labels.set(msg.start, String(msg.label));
        return { started: msg.start };
      }
      if (typeof msg.i !== "number") return;
      const label = String(msg.label);
      const ms = Number(msg.ms);
      if (ms > slow.ms) slow = { ms, label: `#${msg.i} ${label}` };
      for (const fault of msg.faults as string[]) found(msg.i, label, fault);
      return { finished: msg.i };
    },
    lost(i, { hung, stderr }) {
      found(
        i,
        labels.get(i) ?? "",
        hung ? `hang: no answer in ${timeout} s` : `child died: ${stderr}`,
      );
    },
  });
  const classes = new Map<string, number>();
  for (const f of findings) {
    const cls = `${f.label.split(":")[0]}: ${f.fault.replace(/"[^"]*"|\d+/g, "…").slice(0, 90)}`;
    classes.set(cls, (classes.get(cls) ?? 0) + 1);
  }
  console.log(
    `\n${rounds - start} cases, ${findings.length} findings; slowest ${slow.ms} ms (${slow.label})`,
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
      target: { type: "string" },
      timeout: { type: "string", default: "90" },
      child: { type: "boolean", default: false },
      keep: { type: "string" },
    },
  });
  const targets = flags.target?.split(",") ?? Object.keys(TARGETS);
  const unknown = targets.filter((t) => !(t in TARGETS));
  if (unknown.length) throw new Error(`No target ${unknown}: ${Object.keys(TARGETS).join(", ")}`);
  const [seed, rounds, start] = [flags.seed, flags.rounds, flags.start].map(Number);
  if (flags.keep) {
    // One case's project, kept for a look: its tree in the folder, its config beside it.
    const c = caseOf(seed, start, targets);
    await writeTree(flags.keep, c.tree);
    await Deno.writeTextFile(`${flags.keep}.config.json`, JSON.stringify(c.config));
    console.log(c.label, JSON.stringify(c.config).slice(0, 2000), c.argv ?? "");
    console.log(await runCase(c, flags.keep));
  } else if (flags.child) await child(seed, rounds, start, targets);
  else {
    const pass = ["--seed", flags.seed, "--rounds", flags.rounds];
    if (flags.target) pass.push("--target", flags.target);
    await parent(pass, Number(flags.timeout), start, rounds);
  }
}
