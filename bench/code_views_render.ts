/**
 * The code views' engine on real checkouts, in this process: every JavaScript and TypeScript file
 * git lists (`.d.ts` files aside) rendered as the skeleton renders it, one after the other. Prints
 * the files, their bytes, the skeletons' bytes, the symbols found, how many are test suites and
 * tests, how many files parsed with errors (with `ERRORS=1`, each named) and the milliseconds.
 * Time it with `/usr/bin/time` against another checkout of slop (`SLOP=/tmp/base`) to compare.
 * `EXT=sol,ps1,psm1` renders the files of those extensions instead, and `LINES=1` counts the
 * skeletons' lines that are no part of a line of the file, body markers aside (`invented`; with
 * `ERRORS=1` each is printed): see bench/README.md, "(seventeenth session, grammar26)".
 * See bench/README.md, "JavaScript and TypeScript: test files, top-level calls (thirteenth
 * session)".
 *
 * ```sh
 * /usr/bin/time -f "%U+%S" deno run -A bench/code_views_render.ts /tmp/koa /tmp/express
 * SLOP=/tmp/base /usr/bin/time -f "%U+%S" deno run -A bench/code_views_render.ts /tmp/koa /tmp/express
 * ```
 *
 * @module
 */

const slop = Deno.env.get("SLOP") ?? new URL("..", import.meta.url).pathname;
const { renderCode } = await import(`${slop}/plugins/view_modes/_code.ts`);

/** Extensions to render (`EXT=sol,hs`), else JavaScript's and TypeScript's. */
const EXT = Deno.env.get("EXT");
const WANTED = EXT
  ? new RegExp(`\\.(?:${EXT.split(",").map((e) => e.replace(/\W/g, "")).join("|")})$`)
  : /\.[mc]?[jt]sx?$/;

/** The files of the checkouts of the wanted extensions, with their texts. */
function sources(repos: string[]): [string, string][] {
  const files: [string, string][] = [];
  for (const repo of repos) {
    const out = new Deno.Command("git", { args: ["-C", repo, "ls-files", "-z"], stdout: "piped" })
      .outputSync();
    for (const path of new TextDecoder().decode(out.stdout).split("\0")) {
      if (!WANTED.test(path) || path.endsWith(".d.ts")) continue;
      try {
        files.push([path, Deno.readTextFileSync(`${repo}/${path}`)]);
      } catch {
        // A link to a folder, a file gone since the listing: not a source.
      }
    }
  }
  return files;
}

if (import.meta.main) {
  const files = sources(Deno.args);
  const totals = {
    files: files.length,
    bytes: 0,
    shown: 0,
    symbols: 0,
    tests: 0,
    errors: 0,
    invented: 0,
  };
  const lines = Deno.env.get("LINES") !== undefined;
  const started = performance.now();
  for (const [path, text] of files) {
    totals.bytes += text.length;
    const view = await renderCode(path, text).catch(() => undefined);
    if (!view) continue;
    totals.shown += view.text.length;
    totals.symbols += view.symbols.length;
    totals.tests += view.symbols.filter((s: { kind: string }) => /^(?:suite|test)$/.test(s.kind))
      .length;
    if (view.hasErrors) totals.errors++;
    if (view.hasErrors && Deno.env.get("ERRORS")) console.log(`error: ${path}`);
    for (const line of lines ? view.text.split("\n") : []) {
      const parts = line.split(/\{ \.\.\. \}|do \.\.\. end|\.\.\./).map((p: string) => p.trim());
      if (parts.every((p: string) => !p || text.includes(p))) continue;
      totals.invented++;
      if (Deno.env.get("ERRORS")) console.log(`invented: ${path}: ${line}`);
    }
  }
  console.log(JSON.stringify({ ...totals, ms: Math.round(performance.now() - started) }));
}
