/**
 * What a change to the code views changes on real files: for each checkout (`DIR`, or `DIR:sub/`
 * for a folder of it), the files `git ls-files` lists whose extension is one of `--ext`, rendered
 * with this checkout's `renderCode` and with that of the checkout `--against` names. Prints per
 * repository the files read, the symbols found before and after, those lost (a kind and
 * qualified name found before and not after), those whose signature changed, and the files whose
 * skeleton and whose outline differ; `--show N` prints the first N differing files' symbols gained and lost.
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

const { values: args, positionals } = parseArgs({
  args: Deno.args,
  options: { against: { type: "string" }, ext: { type: "string" }, show: { type: "string" } },
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
const extensions = args.ext.split(",");
const show = Number(args.show ?? 0);

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
  const view = await render(path, text);
  if (!view) return undefined;
  return {
    skeleton: view.text,
    outline: outline(view.symbols, "//"),
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
  const counts = { files: 0, before: 0, after: 0, lost: 0, signatures: 0, skeleton: 0, outline: 0 };
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
