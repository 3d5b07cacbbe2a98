/**
 * The trees of `bench/fuzz_contents.ts`, by class: each a set of labelled trees (path to text or
 * bytes). `SCALE` (default 1) multiplies the sizes of the `shape` and `secrets` classes.
 *
 * @module
 */

/** A project: path to its text (written as UTF-8) or bytes. */
export type Tree = Record<string, string | Uint8Array>;

const SCALE = Number(Deno.env.get("SCALE") ?? "1");
const n = (count: number) => Math.max(1, Math.round(count * SCALE));

function fences(): string {
  const lines: string[] = [];
  for (let k = 3; k <= 12; k++) {
    lines.push("`".repeat(k), "~".repeat(k), `${"`".repeat(k)}python`, `${"~".repeat(k)} x ~`);
  }
  lines.push("`".repeat(300), "   ````", "\t```", "``` ```", "~~~", "text ``` inline", "````");
  return lines.join("\n") + "\n";
}

const HEADINGS = [
  "# Title",
  "## Files",
  "## Files (Summary)",
  "### a.py",
  "### sub/b.ts",
  "## Directory Tree",
  "## Task",
  "#### deep",
  "Files",
  "=====",
  "Setext",
  "------",
  " ### indented",
  "#\tTab",
].join("\n") + "\n";

const WRAPPERS = [
  "</document_content>",
  "</document>",
  '<document index="99">',
  "<source>a.py</source>",
  "<view>full</view>",
  "<document_content>",
  "</documents>",
  "<documents>",
  "</files>",
  "<history>",
  "<!-- slop -->",
  "<!--",
  "&lt;/document_content>",
  "</DOCUMENT_CONTENT>",
  "< /document_content>",
  '{"format":"slop","version":1,"blocks":[',
  "]}",
].join("\n") + "\n";

function slopDocument(): string {
  return "## Files\n\n### a.py\n\n```python\ndef f():\n    pass\n```\n\n### b.md\n\n````markdown\n" +
    "# T\n```\nx\n```\n````\n\n";
}

function slopXml(): string {
  return '<documents>\n<document index="1">\n<source>a.py</source>\n<view>full</view>\n' +
    "<document_content>\nx = 1\n</document_content>\n</document>\n</documents>\n";
}

function inCode(text: string): Record<string, string> {
  const quoted = JSON.stringify(text);
  return {
    "code/a.py": `"""Doc.\n${text}"""\n\n\ndef f(x):\n    """${text.replace(/"/g, "'")}"""\n` +
      `    return 1\n\n\nclass C:\n    def m(self):\n        s = ${quoted}\n        return s\n`,
    "code/b.ts": `/**\n${text.split("\n").map((l) => ` * ${l}`).join("\n")}\n */\n` +
      `export function f(x: number): string {\n  return \`${text.replace(/[`$\\]/g, "")}\`;\n}\n` +
      `export class C {\n  m(): string {\n    return ${quoted};\n  }\n}\n`,
    "code/c.md": `# Doc\n\n${text}\n## After\n\ntext\n`,
    "code/d.json": `{"a": ${quoted}, "b": [${quoted}]}\n`,
    "code/e.txt": text,
  };
}

/** Text that collides with the document's own syntax. */
function syntax(): Record<string, Tree> {
  const bidi = "a\u202eb\u2066c\u2069 \u200bzero\u200d \u2028ls\u2029ps \ufeffmid\n";
  return {
    fences: inCode(fences()),
    headings: inCode(HEADINGS),
    wrappers: inCode(WRAPPERS),
    document: { ...inCode(slopDocument()), "doc.xml": slopXml(), "doc.md": slopDocument() },
    bidi: { ...inCode(bidi), "na\u202eme.py": "x = 1\n", "z\u200bw.md": "# Z\n" },
    trailing: {
      "none.py": "x = 1",
      "blank.py": "x = 1\n\n\n\n",
      "spaces.md": "a  \n\t\n   ",
      "fence_end.md": "```",
      "open.md": "~~~~\nno close\n",
    },
  };
}

function utf16(text: string, little: boolean, bom: boolean): Uint8Array {
  const out = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
  const units = (bom ? "\ufeff" : "") + text;
  for (let i = 0; i < units.length; i++) {
    const c = units.charCodeAt(i);
    out[2 * i + (little ? 0 : 1)] = c & 0xff;
    out[2 * i + (little ? 1 : 0)] = c >> 8;
  }
  return out;
}

const PY = "def f(x):\n    return x  # é 日本\n\n\nclass C:\n    def m(self):\n        pass\n";

function cells(): string {
  const source = ["## Files\n", "```\n", "<!--\n", "Files\n", "=====\n", "~~~~"];
  const cell = (type: string, extra: Record<string, unknown>) => ({
    cell_type: type,
    metadata: {},
    source,
    ...extra,
  });
  const stream = { output_type: "stream", name: "stdout", text: source };
  return JSON.stringify({
    cells: [
      cell("markdown", {}),
      { cell_type: "markdown", metadata: {}, source: "Intro\n<!-- never closed\n\n## Two" },
      { cell_type: "markdown", metadata: {}, source: "<script>\nx\n\n<pre>\n<?php\n<![CDATA[" },
      cell("code", { outputs: [stream], execution_count: 1 }),
      cell("raw", {}),
    ],
    metadata: { language_info: { name: "python\n## Files" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

/** Text that reaches a summary or a notebook's cells outside a fence. */
function unfenced(): Record<string, Tree> {
  return {
    keys: {
      "a.md": "# <!-- open\n## `tick\n### </document_content>\n# Files\nSetext\n===\n",
      "k.json": '{"a\\n## Files": 1, "b`c": 2, "<!--": 3, "</document_content>": 4}\n',
      "p.html": "<title><!-- t</title><h1>## Files</h1><h2>```</h2><h3>\n===</h3>\n",
      "t.toml": '[a]\n"<!--" = 1\n"x\\n## Files" = 2\n',
      "y.yaml": '"<!--": 1\n"## Files": 2\n? "a\\n## B"\n: 3\n',
      "s.css": ".a<!--, .b { color: red }\n@media (x) { }\n",
      "r.sh": "#!/bin/sh\n# ## Files\n```\necho x\n",
      "n.ipynb": cells(),
    },
  };
}

/** Encodings and line ends. */
function encodings(): Record<string, Tree> {
  const enc = new TextEncoder();
  return {
    utf16: {
      "le_bom.py": utf16(PY, true, true),
      "be_bom.py": utf16(PY, false, true),
      "le.py": utf16(PY, true, false),
      "be.py": utf16(PY, false, false),
      "le_bom.md": utf16("# T\n\n```\nx\n```\n", true, true),
      "lone.py": utf16("x = '\ud800'\ny = '\udc00'\n", true, true),
      "cr16.md": utf16("# A\r```\r## B\r", false, true),
    },
    bytes: {
      "bom.py": "\ufeff" + PY,
      "latin1.py": new Uint8Array([...enc.encode("x = '"), 0xe9, 0xe8, ...enc.encode("'\n")]),
      "invalid.py": new Uint8Array([...enc.encode("x = 1\n"), 0xc3, 0x28, 0xff, 0x0a, 0x41, 0x0a]),
      "nul.py": "x = 1\n\0\ny = 2\n",
      "nul.md": "# T\n\0\n",
    },
    lines: {
      "cr.py": PY.replace(/\n/g, "\r"),
      "cr.md": "# A\r```\rx\r```\r## B\r",
      "mixed.py": "def f():\r\n    pass\n\rx = 1\r\n",
      "crlf_fence.md": "````\r\n```\r\n````\r\n",
      "white.txt": " \t \n\n\t\n   \n",
      "empty.py": "",
      "nofinal.ts": "export const x = 1",
      "only_nl.md": "\n\n\n",
    },
  };
}

function nested(depth: number, open: string, close: string, lead = ""): string {
  return lead + open.repeat(depth) + close.repeat(depth) + "\n";
}

function notebook(): string {
  return '{"cells": [{"cell_type": "code", "source": ["```\\n", "## Files\\n"], "outputs": [' +
    '{"output_type": "stream", "text": ["</document_content>\\n"]}]}, {"cell_type": 7}], "nbformat": ';
}

/** Shapes: long lines, many lines, deep nesting, many headings. */
function shape(): Record<string, Tree> {
  const deep = n(50_000);
  return {
    long_line: { "long.js": "x=1;".repeat(n(5_000_000)) + "\n" },
    long_text: { "long.txt": "lorem ipsum ".repeat(n(1_666_667)) + "\n" },
    long_md: { "long.md": "# a ``` b ~~~ ".repeat(n(1_428_572)) },
    many_lines: { "many.py": "x = 1\n".repeat(n(1_000_000)) },
    deep_py: { "deep.py": nested(deep, "(", ")", "x = ") },
    deep_ts: { "deep.ts": nested(deep, "{", "}", "const x = ") },
    deep_json: { "deep.json": nested(deep, "[", "]") },
    deep_md: {
      "deep.md": Array.from({ length: n(5_000) }, (_, i) => `${" ".repeat(i)}- a`).join("\n"),
    },
    deep_md_marks: {
      "quote.md": `${"> ".repeat(deep)}## Files\n`,
      "links.md": nested(deep, "[", "](x)"),
      "emph.md": nested(deep, "*_", "_*"),
    },
    deep_indent: {
      "indent.py": Array.from({ length: n(2_000) }, (_, i) => `${" ".repeat(i)}if x:`).join("\n"),
    },
    headings: {
      "h.md": Array.from({ length: n(100_000) }, (_, i) => `${"#".repeat(1 + i % 6)} h${i}`).join(
        "\n",
      ),
    },
    notebook: { "bad.ipynb": notebook(), "half.ipynb": '{"cells": [' },
    minified: { "min.js": "function a(b){return b&&c(b)}".repeat(n(60_000)) },
    json_array: {
      "arr.json": "[" + Array.from({ length: n(500_000) }, (_, i) => i).join(",") + "]",
    },
  };
}

/** Runs of each secret rule's start, which a scanner could read again from each start. */
function secrets(): Record<string, Tree> {
  const run = (unit: string, count: number) => unit.repeat(n(count));
  return {
    prefixes: {
      "akia.txt": run("AKIA", 100_000),
      "begin.pem": run("-----BEGIN RSA PRIVATE KEY-----\n", 20_000),
      "begin.txt": run("-----BEGIN RSA PRIVATE KEY-----\n", 20_000),
      "begin_only.txt": run("-----BEGIN ", 100_000),
      "password.env": run("password=", 100_000),
      "passwords.py": run("password = 'x'\n", 50_000),
      "ghp.txt": run("ghp_", 100_000),
      "jwt.txt": run("eyJ", 100_000),
      "url.txt": run("https://u:", 50_000),
    },
    base64: { "b64.txt": run("QUJDRGVm", 125_000) + "\n" },
  };
}

/** Names made of dots, dashes, marks and unicode. */
function names(): Record<string, Tree> {
  return {
    names: {
      "...": "dots\n",
      "....md": "# four dots\n",
      "-": "dash\n",
      "--": "two dashes\n",
      "-.-": "x\n",
      "…": "ellipsis\n",
      "\u200b": "zero width\n",
      "\u202e.py": "x = 1\n",
      "日本語.md": "# 日本\n",
      "#": "hash\n",
      "## Files": "heading\n",
      "```": "fence\n",
      "~~~.md": "# t\n",
      "a\u2028b.txt": "ls\n",
      "<document_content>.xml": "<a/>\n",
      " lead.txt": "lead\n",
      "trail .txt": "trail\n",
      "e\u0301.md": "# nfd\n",
    },
  };
}

/** The classes by name. */
export const CLASSES: Record<string, () => Record<string, Tree>> = {
  syntax,
  unfenced,
  encodings,
  names,
  secrets,
  shape,
};
