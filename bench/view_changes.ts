/**
 * What a change to the code views changes on real files: for each checkout (`DIR`, or `DIR:sub/`
 * for a folder of it), the files `git ls-files` lists whose extension is one of `--ext`, rendered
 * with this checkout's `renderCode` and with that of the checkout `--against` names. Prints per
 * repository the files read, the symbols found before and after, those lost (a kind and
 * qualified name found before and not after), those whose signature changed, and the files whose
 * skeleton, whose outline and whose `summary` differ; `--show N` prints the first N differing files'
 * symbols gained and lost; `--out DIR` writes each differing file's views, before and after, to
 * `DIR/<repository>/<path>.before` and `.after`, for reading them (`diff -r` of the two).
 *
 * ```sh
 * git -C <slop> worktree add --detach /tmp/base main
 * deno run -A bench/view_changes.ts --against /tmp/base --ext .kt /work/.mirror/square+okio/repo
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { renderCode } from "../plugins/view_modes/_code.ts";
import { outlineText } from "../plugins/view_modes/outline.ts";
import { summarize } from "../plugins/view_modes/summary.ts";

const { values: args, positionals } = parseArgs({
  args: Deno.args,
  options: {
    against: { type: "string" },
    ext: { type: "string" },
    show: { type: "string" },
    out: { type: "string" },
  },
  allowPositionals: true,
});
if (!args.against || !args.ext || !positionals.length) {
  throw new Error(
    "Usage: view_changes.ts --against <other slop checkout> --ext .kt,.rs [--show N] <git dir>[:<folder>]...",
  );
}
const against = args.against.replace(/\/$/, "");
const base = await import(`${against}/plugins/view_modes/_code.ts`);
const baseOutline = await import(`${against}/plugins/view_modes/outline.ts`);
const baseSummary = await import(`${against}/plugins/view_modes/summary.ts`);
const extensions = args.ext.split(",");
const show = Number(args.show ?? 0);
const out = args.out?.replace(/\/$/, "");

/** A file's views as one text, to write out for reading. */
function viewsText(views: Views, summary: string): string {
  return `## summary\n${summary}\n## outline\n${views.outline}\n## skeleton\n${views.skeleton}\n`;
}

/** What one file's views are, as compared. */
interface Views {
  skeleton: string;
  outline: string;
  symbols: string[];
}

/** A file's views by one checkout's modules. */
async function views(
  render: typeof renderCode,
  outline: typeof outlineText,
  path: string,
  text: string,
): Promise<Views | undefined> {
  // A file the view refuses (a tree nested past the walk's depth) falls back in a build: skipped.
  const view = await render(path, text).catch(() => undefined);
  if (!view) return undefined;
  return {
    skeleton: view.text,
    outline: outline(view.symbols, "//", { folds: view.folds }),
    symbols: view.symbols.map((s) => `${s.kind} ${s.qualifiedName} | ${s.signature}`),
  };
}

/** A symbol's kind and qualified name, without its signature. */
function nameOf(symbol: string): string {
  return symbol.slice(0, symbol.indexOf(" | "));
}

/** The files of a checkout (or of a folder of it) with one of the extensions. */
async function filesOf(dir: string, under: string): Promise<string[]> {
  const out = await new Deno.Command("git", { args: ["ls-files", "-z", under], cwd: dir })
    .output();
  return new TextDecoder().decode(out.stdout).split("\0")
    .filter((f) => extensions.some((e) => f.endsWith(e)));
}

/** One repository's counts, printed as a row. */
async function compare(target: string): Promise<void> {
  const [dir, under = "."] = target.split(":");
  const counts = {
    files: 0,
    before: 0,
    after: 0,
    lost: 0,
    signatures: 0,
    skeleton: 0,
    outline: 0,
    summary: 0,
  };
  let shown = 0;
  for (const path of await filesOf(dir, under)) {
    const text = await Deno.readTextFile(`${dir}/${path}`);
    const was = await views(base.renderCode, baseOutline.outlineText, path, text);
    const now = await views(renderCode, outlineText, path, text);
    if (!was || !now) continue;
    counts.files++;
    counts.before += was.symbols.length;
    counts.after += now.symbols.length;
    const after = new Set(now.symbols);
    const lost = was.symbols.filter((s) => !after.has(s));
    const names = new Set(now.symbols.map(nameOf));
    counts.lost += lost.filter((s) => !names.has(nameOf(s))).length;
    counts.signatures += lost.filter((s) => names.has(nameOf(s))).length;
    if (was.skeleton !== now.skeleton) counts.skeleton++;
    if (was.outline !== now.outline) counts.outline++;
    const summaries = [baseSummary.summarize(path, text) as string, summarize(path, text)];
    if (summaries[0] !== summaries[1]) counts.summary++;
    const differs = was.skeleton !== now.skeleton || was.outline !== now.outline ||
      summaries[0] !== summaries[1];
    if (out && differs) {
      const file = `${out}/${dir.replace(/\/$/, "").split("/").pop()}/${path}`;
      await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(`${file}.before`, viewsText(was, summaries[0]));
      await Deno.writeTextFile(`${file}.after`, viewsText(now, summaries[1]));
    }
    if (shown < show && (was.skeleton !== now.skeleton || was.outline !== now.outline)) {
      shown++;
      const before = new Set(was.symbols);
      console.log(`  ${path}`);
      for (const s of now.symbols) if (!before.has(s)) console.log(`    + ${s.slice(0, 140)}`);
      for (const s of lost) console.log(`    - ${s.slice(0, 140)}`);
    }
  }
  console.log(`${target}: ${JSON.stringify(counts)}`);
}

for (const target of positionals) await compare(target);
