/**
 * The documentation's complete TypeScript blocks, and their copies in `tests/docs/snippets/`.
 *
 * The copies are there to be type-checked with the test files: `code_blocks_test.ts` imports
 * `snippets/index.ts` for its types only, so `deno test` checks every block in the program it
 * already builds for the tests (a `deno check` of the blocks by themselves would be a whole new
 * TypeScript program; see bench/README.md, "The suite's time"). The test fails when a copy is not
 * the block's text; run this file to write them again:
 *
 * ```sh
 * deno run -A tests/docs/_snippets.ts
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { REPO } from "../_helpers.ts";
import type { Fence } from "./_markdown.ts";
import { type Page, USER_PAGES } from "./_docs.ts";

/** What a block is, by what it holds. */
export type Kind = "config" | "plugin" | "test" | "script";

/** One complete ts block of a user page. */
export interface Snippet {
  page: Page;
  fence: Fence;
  kind: Kind;
  /** The block's text as the page shows it. */
  body: string;
}

/** Imports of slop's `mod.ts` or `config.ts`, as the docs write them (`../slop/mod.ts`, `./mod.ts`...). */
const ENTRY_IMPORT = /from "(?:\.\.?\/)+(?:slop\/)?(mod|config)\.ts"/g;

/** The block with its imports of slop's `mod.ts` and `config.ts` pointed at `root` (a URL or a relative path ending in `/`). */
export function pointed(body: string, root: string): string {
  return body.replace(ENTRY_IMPORT, (_, entry) => `from ${JSON.stringify(`${root}${entry}.ts`)}`);
}

/** The complete TypeScript blocks of every user page (blocks after a fragment marker left out). */
export function snippets(): Snippet[] {
  const out: Snippet[] = [];
  for (const p of USER_PAGES) {
    for (const fence of p.doc.fences) {
      if (!["ts", "typescript"].includes(fence.info)) continue;
      if (fence.marker === "fragment") continue;
      const body = fence.body;
      // A config is `defineConfig({…})` or the plain object `slop init` writes.
      const kind: Kind = /^export default (?:defineConfig\()?\{/m.test(body)
        ? "config"
        : body.includes("Deno.test(")
        ? "test"
        : /^export function \w+\(/m.test(body)
        ? "plugin"
        : "script";
      out.push({ page: p, fence, kind, body });
    }
  }
  return out;
}

/**
 * Where a plugin block sits in a project, as the config blocks import it: the path its first line
 * names (`// plugins/todos_section.ts`), else `plugins/<factory>.ts` (`todo_view.ts` for the
 * example shown whole, whose first line is its module doc).
 */
export function pluginPath(body: string): string {
  const named = /^\/\/ (plugins\/\w+\.ts)\n/.exec(body)?.[1];
  if (named) return named;
  const name = /^export function (\w+)/m.exec(body)![1];
  return `plugins/${name === "todoViewMode" ? "todo_view" : name}.ts`;
}

/** The folder of the copies, from the repository root. */
export const COPIES = "tests/docs/snippets";

/**
 * The copies of `all`, path (under {@linkcode COPIES}) -> text: each block as
 * `<page>_<n>.ts` (`readme_1.ts`, `views_3.ts`), a plugin block where the configs import it, and
 * `index.ts`, which imports them all for their types.
 */
export function copies(all: Snippet[]): Map<string, string> {
  const out = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const s of all) {
    const stem = s.page.path.replace(/^docs\//, "").replace(/\.md$/, "").toLowerCase();
    const n = (counts.get(stem) ?? 0) + 1;
    counts.set(stem, n);
    const path = s.kind === "plugin" ? pluginPath(s.body) : `${stem}_${n}.ts`;
    const root = "../".repeat(path.split("/").length + 2);
    const head =
      `// A ts block of ${s.page.path}, copied by tests/docs/_snippets.ts: do not edit.\n`;
    out.set(path, head + pointed(s.body, root));
  }
  const index = [...out.keys()].map((p) => `export type {} from "./${p}";\n`).join("");
  out.set(
    "index.ts",
    "// The docs' ts blocks, type-checked with the tests; written by tests/docs/_snippets.ts.\n" +
      index,
  );
  return out;
}

/** The copies on disk that differ from `want`, are missing or are extra: their paths. */
export async function staleCopies(want: Map<string, string>): Promise<string[]> {
  const have = new Map<string, string>();
  async function visit(rel: string) {
    let entries: Deno.DirEntry[] = [];
    try {
      entries = await Array.fromAsync(Deno.readDir(join(REPO, COPIES, rel)));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await visit(path);
      else have.set(path, await Deno.readTextFile(join(REPO, COPIES, path)));
    }
  }
  await visit("");
  const paths = new Set([...want.keys(), ...have.keys()]);
  return [...paths].filter((p) => want.get(p) !== have.get(p)).sort();
}

if (import.meta.main) {
  await Deno.remove(join(REPO, COPIES), { recursive: true }).catch(() => {});
  for (const [path, text] of copies(snippets())) {
    await Deno.mkdir(join(REPO, COPIES, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(REPO, COPIES, path), text);
  }
  console.log(`Wrote ${COPIES}; deno check tests/docs/code_blocks_test.ts checks them`);
}
