/**
 * Code-view symbols of the JavaScript files (`.js`, `.cjs`, `.mjs`) of git
 * repositories, with this checkout's views and another's: symbols found by
 * each, files whose skeleton or outline differs, and symbols the other found
 * that this one lost (in order, per file). Reads each repository's `HEAD`
 * (its files over 500 KB and `.min.js` left out).
 *
 * ```sh
 * deno run -A bench/js_symbols.ts --against /path/to/other/slop /work/.mirror/expressjs+express/repo
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { renderCode } from "../plugins/view_modes/_code.ts";
import { outlineText } from "../plugins/view_modes/outline.ts";
import type { CodeSymbol, CodeView } from "../plugins/view_modes/_code.ts";

type Render = (path: string, text: string) => Promise<CodeView | undefined>;
type Outline = (symbols: CodeSymbol[], comment: string) => string;

/** What one checkout's views make of a file. */
interface Seen {
  skeleton: string;
  outline: string;
  names: string[];
}

const decoder = new TextDecoder();

function git(dir: string, args: string[]): string {
  const out = new Deno.Command("git", { args: ["-C", dir, ...args] }).outputSync();
  if (!out.success) throw new Error(`git ${args.join(" ")} failed in "${dir}"`);
  return decoder.decode(out.stdout);
}

async function seen(render: Render, outline: Outline, path: string, text: string) {
  const view = await render(path, text);
  if (!view) return undefined;
  return {
    skeleton: view.text,
    outline: outline(view.symbols, "//"),
    names: view.symbols.map((s) => s.qualifiedName),
  } satisfies Seen;
}

/** How many of `before`'s names `after` still has, in order. */
function kept(before: string[], after: string[]): number {
  let i = 0;
  for (const name of after) if (name === before[i]) i++;
  return i;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { against: { type: "string" } },
    allowPositionals: true,
  });
  if (!values.against || !positionals.length) {
    throw new Error("Usage: js_symbols.ts --against <other slop checkout> <git dir>...");
  }
  const other = values.against.replace(/\/$/, "");
  const base = await import(`${other}/plugins/view_modes/_code.ts`);
  const baseOutline = await import(`${other}/plugins/view_modes/outline.ts`);
  for (const dir of positionals) {
    const paths = git(dir, ["ls-tree", "-r", "--name-only", "HEAD"]).split("\n")
      .filter((p) => /\.[cm]?js$/.test(p) && !p.endsWith(".min.js")).sort();
    const totals = { files: 0, before: 0, after: 0, skeleton: 0, outline: 0, lost: 0 };
    for (const path of paths) {
      const text = git(dir, ["show", `HEAD:${path}`]);
      if (text.length > 500_000) continue;
      const a = await seen(base.renderCode, baseOutline.outlineText, path, text);
      const b = await seen(renderCode, outlineText, path, text);
      if (!a || !b) continue;
      totals.files++;
      totals.before += a.names.length;
      totals.after += b.names.length;
      if (a.skeleton !== b.skeleton) totals.skeleton++;
      if (a.outline !== b.outline) totals.outline++;
      totals.lost += a.names.length - kept(a.names, b.names);
    }
    console.log(
      `${dir}: ${totals.files} files, symbols ${totals.before} -> ${totals.after} ` +
        `(${totals.lost} lost); skeleton differs in ${totals.skeleton}, outline in ${totals.outline}`,
    );
  }
}

if (import.meta.main) await main();
