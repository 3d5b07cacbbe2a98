/**
 * The `/**` doc comments the skeleton keeps of the JavaScript and TypeScript
 * files of git repositories (or those `--ext .java,.php` names), with this
 * checkout's views and another's: doc comments in the sources, kept by each,
 * and files whose skeleton or outline differs. Reads each repository's `HEAD`
 * (its files over 500 KB and `.min.js` left out); `DIR:lib/` reads the files
 * under `lib/` only.
 *
 * ```sh
 * deno run -A bench/doc_comments.ts --against /path/to/other/slop /work/.mirror/expressjs+express/repo:lib/
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { renderCode } from "../plugins/view_modes/_code.ts";
import { outlineText } from "../plugins/view_modes/outline.ts";

const decoder = new TextDecoder();

/** A line that opens a `/**` comment (not the empty `/**\/`). */
const DOC_OPENS = /^[ \t]*\/\*\*(?!\/)/gm;

function git(dir: string, args: string[]): string {
  const out = new Deno.Command("git", { args: ["-C", dir, ...args] }).outputSync();
  if (!out.success) throw new Error(`git ${args.join(" ")} failed in "${dir}"`);
  return decoder.decode(out.stdout);
}

function docs(text: string): number {
  return text.match(DOC_OPENS)?.length ?? 0;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: {
      against: { type: "string" },
      ext: { type: "string", default: ".js,.cjs,.mjs,.jsx,.ts,.tsx,.mts,.cts" },
    },
    allowPositionals: true,
  });
  if (!values.against || !positionals.length) {
    throw new Error(
      "Usage: doc_comments.ts --against <other slop checkout> <git dir>[:<folder>]...",
    );
  }
  const other = values.against.replace(/\/$/, "");
  const exts = values.ext.split(",");
  const base = await import(`${other}/plugins/view_modes/_code.ts`);
  const baseOutline = await import(`${other}/plugins/view_modes/outline.ts`);
  for (const target of positionals) {
    const [dir, under = ""] = target.split(":");
    const paths = git(dir, ["ls-tree", "-r", "--name-only", "HEAD"]).split("\n")
      .filter((p) =>
        p.startsWith(under) && exts.some((e) => p.endsWith(e)) && !p.endsWith(".min.js")
      )
      .sort();
    const totals = { files: 0, docs: 0, before: 0, after: 0, skeleton: 0, outline: 0 };
    for (const path of paths) {
      const text = git(dir, ["show", `HEAD:${path}`]);
      if (text.length > 500_000) continue;
      const a = await base.renderCode(path, text);
      const b = await renderCode(path, text);
      if (!a || !b) continue;
      totals.files++;
      totals.docs += docs(text);
      totals.before += docs(a.text);
      totals.after += docs(b.text);
      if (a.text !== b.text) totals.skeleton++;
      if (baseOutline.outlineText(a.symbols, "//") !== outlineText(b.symbols, "//")) {
        totals.outline++;
      }
    }
    console.log(JSON.stringify({ target, ...totals }));
  }
}

if (import.meta.main) await main();
