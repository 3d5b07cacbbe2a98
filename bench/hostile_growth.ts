/**
 * Hostile file contents at growing sizes, each built in every view asked for: the build's time
 * and what the manifest says of the file. A stage whose time grows four times for twice the input
 * shows as a ratio well over the sizes' ratio (marked `<<<`). Timed, so for finding such stages,
 * never for the suite (which counts work: `tests/scaling/`). See bench/README.md, "Hostile inputs
 * at growing sizes".
 *
 * ```sh
 * deno run -A bench/hostile_growth.ts                                  # 50 KB and 200 KB
 * SIZES=100000,400000 VIEWS=skeleton ONLY=scala deno run -A bench/hostile_growth.ts
 * ```
 *
 * @module
 */

import { buildContext } from "../mod.ts";

/** `piece` repeated to about `n` characters. */
const rep = (piece: string, n: number) => piece.repeat(Math.max(1, Math.floor(n / piece.length)));
/** A hostile input: its name, the file it is written to, and a text of about `n` characters. */
type Hostile = [name: string, file: string, make: (n: number) => string];
/** `open` nested in itself to about `n` characters, closed by `close`. */
const nest = (open: string, close: string, mid = "x") => (n: number) => {
  const k = Math.floor(n / (open.length + close.length));
  return open.repeat(k) + mid + close.repeat(k);
};
/** The inputs, by the view or stage they aim at. */
const HOSTILE: Hostile[] = [
  ["parens_ts", "a.ts", (n) => "const x = " + nest("(", ")")(n) + ";\n"],
  ["braces_ts", "a.ts", nest("{", "}", "")],
  ["blocks_ts", "a.ts", (n) => "function f() " + nest("{ if (x) ", "}")(n)],
  ["brackets_py", "a.py", (n) => "x = " + nest("[", "]")(n) + "\n"],
  ["indent_py", "a.py", (n) => {
    let s = "";
    let i = 0;
    while (s.length < n) {
      s += " ".repeat(i) + "if x:\n";
      i++;
      if (i > 2000) i = 0;
    }
    return s + "pass\n";
  }],
  ["defs_py", "a.py", (n) => {
    let s = "";
    let i = 0;
    while (s.length < n) {
      s += " ".repeat(i * 4) + `def f${i}():\n`;
      i++;
    }
    return s + " ".repeat(i * 4) + "pass\n";
  }],
  ["parens_c", "a.c", (n) => "int x = " + nest("(", ")")(n) + ";\n"],
  ["braces_c", "a.c", (n) => "void f() " + nest("{", "}", "")(n)],
  ["parens_go", "a.go", (n) => "package a\nvar x = " + nest("(", ")")(n) + "\n"],
  ["parens_rs", "a.rs", (n) => "fn f() { let x = " + nest("(", ")")(n) + "; }\n"],
  ["parens_java", "a.java", (n) => "class A { int x = " + nest("(", ")")(n) + "; }\n"],
  ["parens_cpp", "a.cpp", (n) => "int x = " + nest("(", ")")(n) + ";\n"],
  ["parens_cs", "a.cs", (n) => "class A { int x = " + nest("(", ")")(n) + "; }\n"],
  ["parens_scala", "a.scala", (n) => "object A { val x = " + nest("(", ")")(n) + " }\n"],
  ["parens_sh", "a.sh", (n) => "x=" + nest("$(", ")")(n) + "\n"],
  ["parens_rb", "a.rb", (n) => "x = " + nest("(", ")")(n) + "\n"],
  ["parens_php", "a.php", (n) => "<?php $x = " + nest("(", ")")(n) + ";\n"],
  ["parens_js", "a.js", (n) => "x = " + nest("(", ")")(n) + ";\n"],
  ["parens_tsx", "a.tsx", (n) => "x = " + nest("<div>", "</div>")(n) + ";\n"],
  ["long_fn_ts", "a.ts", (n) => "function f() {\n" + rep("  x = x + 1;\n", n) + "}\n"],
  ["long_fn_py", "a.py", (n) => "def f():\n" + rep("    x = x + 1\n", n)],
  ["minified_js", "a.js", (n) => rep("function a(b){return b+1};var c={d:[1,2,3]};", n)],
  ["minified_css", "a.css", (n) => rep(".a>b{color:red;margin:0}", n)],
  ["tiny_fns_ts", "a.ts", (n) => {
    let s = "";
    let i = 0;
    while (s.length < n) s += `function f${i++}() {}\n`;
    return s;
  }],
  ["tiny_fns_py", "a.py", (n) => {
    let s = "";
    let i = 0;
    while (s.length < n) s += `def f${i++}(): pass\n`;
    return s;
  }],
  ["tiny_classes_ts", "a.ts", (n) => {
    let s = "";
    let i = 0;
    while (s.length < n) s += `class C${i++} { m() {} }\n`;
    return s;
  }],
  ["string_ts", "a.ts", (n) => '"' + rep("a", n) + '"\n'],
  ["string_py", "a.py", (n) => '"""' + rep("a\n", n) + '"""\n'],
  ["comment_ts", "a.ts", (n) => "/*" + rep("a\n", n) + "*/\n"],
  ["unclosed_comment_c", "a.c", (n) => "/*" + rep("a\n", n)],
  ["linecomments_py", "a.py", (n) => rep("# comment\n", n)],
  ["garbage_ts", "a.ts", (n) => {
    let s = "";
    let x = 1;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      s += String.fromCharCode(33 + (x >> 8) % 94);
      if (x % 40 == 0) s += "\n";
    }
    return s;
  }],
  ["garbage_py", "a.py", (n) => {
    let s = "";
    let x = 7;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      s += String.fromCharCode(33 + (x >> 8) % 94);
      if (x % 40 == 0) s += "\n";
    }
    return s;
  }],
  ["garbage_c", "a.c", (n) => {
    let s = "";
    let x = 9;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      s += String.fromCharCode(33 + (x >> 8) % 94);
      if (x % 40 == 0) s += "\n";
    }
    return s;
  }],
  ["md_lists", "a.md", (n) => {
    let s = "";
    let i = 0;
    while (s.length < n) {
      s += "  ".repeat(i) + "- x\n";
      i++;
    }
    return s;
  }],
  ["md_quotes", "a.md", (n) => {
    let s = "";
    let i = 1;
    while (s.length < n) {
      s += ">".repeat(i) + " x\n";
      i++;
    }
    return s;
  }],
  ["md_quote_line", "a.md", (n) => rep(">", n) + " x\n"],
  ["md_backticks", "a.md", (n) => {
    let s = "";
    let i = 1;
    while (s.length < n) {
      s += "`".repeat(i) + "x\n";
      i++;
    }
    return s;
  }],
  ["md_fences", "a.md", (n) => rep("```\n# h\n", n)],
  ["md_headings", "a.md", (n) => {
    let s = "";
    let i = 0;
    while (s.length < n) s += `# h${i++}\n`;
    return s;
  }],
  ["md_line", "a.md", (n) => rep("word ", n) + "\n"],
  ["md_hashline", "a.md", (n) => "# " + rep("#", n) + "\n"],
  ["md_headspaces", "a.md", (n) => "# a" + rep(" ", n) + "b\n"],
  ["md_html", "a.md", (n) => "<!--" + rep("x\n", n)],
  ["md_html_many", "a.md", (n) => rep("<!-- x\n", n)],
  ["md_pre_many", "a.md", (n) => rep("<pre>\n", n)],
  ["json_deep", "a.json", nest("[", "]", "1")],
  ["json_obj_deep", "a.json", (n) => nest('{"a":', "}", "1")(n)],
  ["json_line", "a.json", (n) => "[" + rep("1234,", n) + "1]"],
  ["json_keys", "a.json", (n) => {
    let s = "{";
    let i = 0;
    while (s.length < n) s += `"k${i++}":1,`;
    return s + '"z":1}';
  }],
  ["yaml_deep", "a.yaml", (n) => {
    let s = "";
    let i = 0;
    while (s.length < n) {
      s += " ".repeat(i) + `k${i}:\n`;
      i++;
    }
    return s;
  }],
  ["yaml_flow", "a.yaml", nest("[", "]", "1")],
  ["toml_keys", "a.toml", (n) => {
    let s = "";
    let i = 0;
    while (s.length < n) s += `[a${i++}]\n`;
    return s;
  }],
  ["ini_brackets", "a.ini", (n) => rep("[", n) + "\n"],
  ["nb_cells", "a.ipynb", (n) => {
    const cells = [];
    let len = 0;
    let i = 0;
    while (len < n) {
      const c = {
        cell_type: i % 2 ? "code" : "markdown",
        source: [i % 2 ? `def f${i}():\n` : `# h${i}\n`],
        metadata: {},
      };
      cells.push(c);
      len += 60;
      i++;
    }
    return JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 });
  }],
  ["nb_deep", "a.ipynb", (n) => '{"cells":' + nest("[", "]", "1")(n) + "}"],
  ["shebang", "run", (n) => "#!/usr/bin/env python3\n" + rep("def f(x): pass\n", n)],
  ["shebang_garbage", "run2", (n) => "#!" + rep("/", n) + "\n"],
  ["c_fn_like", "a.c", (n) => rep("int f(", n)],
  ["c_fn_lines", "a.c", (n) => rep("int f(\n", n)],
  ["js_import", "a.js", (n) => "import " + rep("a", n)],
  ["js_import_many", "a.js", (n) => rep("import a\n", n)],
  ["txt_cjk", "a.txt", (n) => rep("漢字かな交じり文", n / 3)],
  ["txt_emoji", "a.txt", (n) => rep("👩‍👩‍👧‍👦", n / 4)],
  ["txt_combining", "a.txt", (n) => "a" + rep("\u0301", n / 2)],
  ["txt_rare", "a.txt", (n) => {
    let s = "";
    for (let i = 0; s.length < n; i++) s += String.fromCodePoint(0x10000 + (i * 7919) % 50000);
    return s;
  }],
  ["txt_spaces", "a.txt", (n) => rep(" ", n)],
  ["txt_eq", "a.txt", (n) => "password" + rep("=", n)],
  ["secret_near", "a.txt", (n) => rep("AKIA", n)],
  ["secret_near2", "a.txt", (n) => rep("api_key = '", n)],
  ["secret_near3", "a.env", (n) => rep("-----BEGIN ", n)],
  ["secret_near4", "a.txt", (n) => rep("ghp_", n)],
  ["secret_near5", "a.txt", (n) => rep("https://a:", n)],
  ["secret_near6", "a.txt", (n) => rep("eyJ", n)],
];
/** Build one file of `text` in `view`: milliseconds and the manifest's word on the file. */
async function buildOne(file: string, text: string, view: string): Promise<[number, string]> {
  const root = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${root}/${file}`, text);
    const start = performance.now();
    let said: string;
    try {
      const result = await buildContext(
        { cwd: root, inline: { files: [{ path: file, view }], cache: { enabled: false } } },
        { write: false },
      );
      const row = result.manifest.files[0];
      said = [row.status, row.view, row.reason, ...(row.notes ?? [])].filter(Boolean).join(" ");
    } catch (error) {
      said = `threw ${String(error)}`;
    }
    return [performance.now() - start, said.slice(0, 160)];
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) {
  const views = (Deno.env.get("VIEWS") ?? "full,summary,skeleton,outline").split(",");
  const sizes = (Deno.env.get("SIZES") ?? "50000,200000").split(",").map(Number);
  const only = new RegExp(Deno.env.get("ONLY") ?? "");
  for (const [name, file, make] of HOSTILE.filter(([name]) => only.test(name))) {
    for (const view of views) {
      const times: number[] = [];
      let said = "";
      for (const size of sizes) {
        const [ms, row] = await buildOne(file, make(size), view);
        times.push(ms);
        said = row;
      }
      const ratio = times[times.length - 1] / Math.max(times[0], 1);
      const steep = ratio > 2 * sizes[sizes.length - 1] / sizes[0] &&
        times[times.length - 1] > 1500;
      const ms = times.map((t) => t.toFixed(0).padStart(6)).join(" ");
      console.log(
        `${name.padEnd(18)} ${view.padEnd(9)} ${ms} x${ratio.toFixed(1)}${
          steep ? " <<<" : ""
        } | ${said}`,
      );
    }
  }
}
