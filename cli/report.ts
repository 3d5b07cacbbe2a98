/**
 * `slop report`: write one self-contained HTML page about the latest output
 * (or a fresh build): totals, prefix vs tail with the cache breakpoints, a
 * treemap of tokens by folder and file, and the per-file view modes.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { shownPath } from "../pipeline/paths.ts";
import { ConfigError } from "../pipeline/config.ts";
import { writeAtomic } from "../pipeline/emit.ts";
import { computeStats } from "../report/stats.ts";
import { renderReport } from "../report/html.ts";
import { formatCount } from "../pipeline/figures.ts";
import { printError, printWarning } from "./_output.ts";
import { latestOrBuild, type SourceFlags } from "./_latest.ts";
import { writeStdout } from "./_terminal.ts";
import { progressBar } from "./_progress.ts";

/** Flags of `slop report`. */
export interface ReportFlags extends SourceFlags {
  /** Where to write the page (`--out`). @default {"<output.dir>/report.html"} */
  out?: string;
  /** Print the page to stdout instead (`--stdout`). */
  stdout?: boolean;
  /** Print nothing but errors (`--quiet`). */
  quiet?: boolean;
}

/**
 * Run `slop report`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runReport } from "./report.ts";
 * // const code = await runReport({ out: "report.html" });
 * ```
 */
export async function runReport(flags: ReportFlags): Promise<number> {
  // A build made now shows its progress on a terminal, as `slop build` does; a warning clears it.
  const bar = progressBar({ enabled: !flags.quiet && Deno.stderr.isTerminal() });
  const warn = (message: string) => {
    bar.clear();
    printWarning(message);
  };
  try {
    const loaded = await latestOrBuild({ ...flags, onProgress: bar.update, warn })
      .finally(bar.done);
    const stats = await computeStats(loaded.document, loaded.manifest);
    const html = renderReport(stats);
    if (flags.stdout) {
      const bytes = new TextEncoder().encode(html);
      await writeStdout(bytes);
      return 0;
    }
    const out = flags.out
      ? resolve(Deno.cwd(), flags.out)
      : join(loaded.config.output.dir, "report.html");
    await Deno.mkdir(dirname(out), { recursive: true });
    await writeAtomic(out, html);
    if (!flags.quiet) {
      console.log(
        `slop: wrote ${shownPath(out)} (${formatCount(stats.total.o200k)} o200k tokens, ${
          Math.round(stats.prefix.share * 100)
        }% stable prefix)`,
      );
    }
    return 0;
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError ? 2 : 1;
  }
}
