/**
 * The documentation holds together: the README is short and opens with what a newcomer needs,
 * its contents list its sections in order, and in every page each `#anchor`, each link to
 * another page (and its anchor) and each repository path named in the text exists.
 *
 * @module
 */

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { REPO } from "../_helpers.ts";
import { anchorOf, codeSpans } from "./_markdown.ts";
import { type Page, page, PAGES } from "./_docs.ts";

const README = page("README.md");

Deno.test("the README is short and opens with what slop is, then how to install it", () => {
  const lines = README.text.split("\n").length;
  assert.ok(lines <= 400, `README.md has ${lines} lines`);
  const headings = README.doc.headings.filter((h) => h.level === 2).map((h) => h.text);
  assert.deepEqual(headings.slice(0, 6), [
    "Contents",
    "Install",
    "First run on your own project",
    "Run the tests",
    "A minimal config",
    "What the output looks like",
  ]);
  // Two or three sentences before the first heading say what slop is.
  assert.match(README.doc.paragraphs[0], /^slop /);
  const first = README.doc.fences[0];
  assert.equal(first.body, "npm install -g deno\n");
  assert.equal(README.doc.fences[1].body, "deno task install\n");
  const firstRun = README.doc.fences.filter((f) => f.info === "sh").map((f) => f.body);
  assert.ok(firstRun.includes("cd your-project\nslop build\n"), "the zero-config first run");
  assert.ok(firstRun.includes("slop init\ndeno task context\n"), "slop init, then the task");
  assert.ok(
    firstRun.some((b) => /^deno task test\b/m.test(b) && /^deno task ok\b/m.test(b)),
    "how to run the tests",
  );
});

Deno.test("the README's contents list every section in order", () => {
  const contents = README.doc.paragraphs.find((p) => p.startsWith("- [Install]"))!;
  assert.ok(contents, "a contents list");
  const listed = [...contents.matchAll(/\[([^\]]+)\]\(#([^)]+)\)/g)];
  for (const [, text, anchor] of listed) {
    assert.equal(anchorOf(text), anchor, `contents entry "${text}"`);
  }
  const sections = README.doc.headings.filter((h) => h.level === 2 && h.text !== "Contents")
    .map((h) => h.text);
  assert.deepEqual(listed.map((m) => m[1]), sections);
});

/** The anchors of a page: its headings', as GitHub makes them (a repeated one gets `-1`, ...). */
function anchors(p: Page): Set<string> {
  const out = new Set<string>();
  for (const h of p.doc.headings) {
    const base = anchorOf(h.text);
    let name = base;
    for (let i = 1; out.has(name); i++) name = `${base}-${i}`;
    out.add(name);
  }
  return out;
}

/** The links of a page outside its code: `[text](target)` and `![alt](target)`. */
function links(p: Page): string[] {
  return p.doc.paragraphs.flatMap((para) => {
    // Code spans may hold link-like text; drop them first.
    let text = para;
    for (const span of codeSpans(para)) text = text.replace(span, "");
    return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  });
}

Deno.test("every link in the docs points at a page, file or heading that exists", () => {
  const problems: string[] = [];
  let checked = 0;
  for (const p of PAGES) {
    for (const target of links(p)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      checked++;
      const [file, anchor] = target.split("#", 2);
      const path = file === "" ? p.path : normalize(join(dirname(p.path), file));
      if (path.startsWith("..") || !existsSync(join(REPO, path))) {
        problems.push(`${p.path}: "${target}": no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      const to = PAGES.find((q) => q.path === path);
      if (!to) problems.push(`${p.path}: "${target}": anchors only into pages`);
      else if (!anchors(to).has(anchor)) problems.push(`${p.path}: "${target}": no such heading`);
    }
  }
  assert.ok(checked >= 100, `${checked} links`);
  assert.deepEqual(problems, []);
});

Deno.test("every page is linked from the README", () => {
  const linked = new Set(links(README).map((t) => normalize(t.split("#")[0])));
  for (const p of PAGES.filter((p) => p.path !== "README.md")) {
    assert.ok(linked.has(p.path), `README.md links ${p.path}`);
  }
});

Deno.test("every repository path the docs name exists", () => {
  const paths = new Set<string>();
  const top = "(?:api|bench|cli|docs|examples|grammars|knowledge|pipeline|plugins|report|tests)";
  const re = new RegExp(`^${top}/[\\w./-]+\\.(?:ts|md|toml|jsonl|json|lock|png)$`);
  for (const p of PAGES) {
    for (const para of p.doc.paragraphs) {
      for (const span of codeSpans(para)) if (re.test(span)) paths.add(span);
    }
  }
  for (const extra of ["cli.ts", "mod.ts", "config.ts", "deps.ts", ".ci/run"]) paths.add(extra);
  assert.ok(paths.size >= 20, [...paths].join(" "));
  assert.deepEqual([...paths].filter((p) => !existsSync(join(REPO, p))), []);
});
