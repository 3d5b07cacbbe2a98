/**
 * `slop slice add|list|refresh [--check]`: maintain the slices side file
 * (`slicesFile`, default `slop/slices.toml`) of the `custom` view.
 *
 * @module
 */

import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ConfigError, loadConfig } from "../pipeline/config.ts";
import { isGlob } from "../pipeline/resolve.ts";
import { normalizeNewlines } from "../pipeline/transform.ts";
import { writeAtomic } from "../pipeline/emit.ts";
import { redactText, splitSecretPaths } from "../pipeline/secrets.ts";
import type { ResolvedConfig, Slice } from "../pipeline/types.ts";
import {
  anchorSlice,
  resolveSlice,
  type SliceResolution,
  splitLines,
} from "../plugins/view_modes/fuzzy_anchor.ts";
import {
  type FileSlice,
  formatSlices,
  readSlicesFile,
  redactedLabels,
} from "../pipeline/slices_file.ts";
import { printError } from "./_output.ts";
import { readSettingText } from "../pipeline/helpers.ts";
import { shownPath } from "../pipeline/paths.ts";

/** Flags shared by the `slop slice` commands. */
export interface SliceFlags {
  /** Config file (`--config`). */
  config?: string;
  /** Label of a new slice (`--tag`). */
  tag?: string;
  /** Comment of a new slice (`--comment`). */
  comment?: string;
  /** Print JSON (`slice list --json`). */
  json?: boolean;
  /** Print nothing but errors. */
  quiet?: boolean;
  /** `slice refresh --check`: write nothing, exit 1 when a slice is out of date. */
  check?: boolean;
}

/** One slice with where it is now, as `slop slice list --json` prints it. */
export interface SliceReport {
  /** File path relative to the root. */
  path: string;
  /** Where the slice is kept: the side file, or `files[i].slices[j]` of the config. */
  origin: string;
  /** The slice as recorded. */
  slice: Slice;
  /** Where it is now. */
  found: SliceResolution;
}

/**
 * `slop slice add PATH:START-END [--tag T] [--comment C]`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runSliceAdd } from "./slice.ts";
 * // await runSliceAdd("src/parser.py:40-58", { tag: "tokenizer" });
 * ```
 */
export async function runSliceAdd(spec: string, flags: SliceFlags): Promise<number> {
  const m = /^(.+):(\d+)-(\d+)$/.exec(spec);
  if (!m) {
    printError(`Invalid slice "${spec}": expected PATH:START-END (e.g. src/a.py:10-20)`);
    return 2;
  }
  const [, file, a, b] = m;
  const startLine = Number(a);
  const endLine = Number(b);
  try {
    const config = await loadConfig({ config: flags.config });
    const path = rootRelative(config, file);
    const lines = await readLines(config, path);
    const problem = rangeProblem(path, { lines: lines.length, startLine, endLine });
    if (problem) {
      printError(`Invalid slice "${spec}": ${problem}`);
      return 2;
    }
    const slice: FileSlice = {
      path,
      // The side file is committed, and the document shows the tag and comment: redacted.
      ...anchorSlice(lines, startLine, endLine, labels(flags, config.secrets.rules)),
    };
    const updated = await recordSlice(config, slice);
    if (!flags.quiet) {
      const label = slice.tag ? ` "${slice.tag}"` : "";
      console.log(
        `slop: ${updated ? "updated" : "added"} slice ${path}:${startLine}-${endLine}${label} ` +
          `in ${sideName(config)}`,
      );
      if (!rendersCustom(config, path)) {
        console.log(
          `slop: "${path}" is not in the custom view: give its files entry view: "custom" ` +
            `to render only its slices`,
        );
      }
    }
    return 0;
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError ? 2 : 1;
  }
}

/** Why lines `startLine`-`endLine` are no slice of a file of `lines` lines, if they are not. */
function rangeProblem(
  path: string,
  { lines: n, startLine, endLine }: { lines: number; startLine: number; endLine: number },
): string | undefined {
  return startLine < 1
    ? "lines are numbered from 1"
    : endLine < startLine
    ? "the end line comes before the start line"
    : endLine > n
    ? `"${path}" has ${n} line${n === 1 ? "" : "s"}`
    : undefined;
}

/** Add a slice to the side file, or replace the one of the same range; true when it replaced. */
async function recordSlice(config: ResolvedConfig, slice: FileSlice): Promise<boolean> {
  const slices = await readSlicesFile(config.slicesFile, sideName(config));
  const same = slices.findIndex((s) =>
    s.path === slice.path && s.startLine === slice.startLine && s.endLine === slice.endLine
  );
  // Re-adding a recorded range re-anchors it: its tag and comment stay unless given anew.
  if (same >= 0) {
    slice.tag ??= slices[same].tag;
    slice.comment ??= slices[same].comment;
    if (slice.tag === undefined) delete slice.tag;
    if (slice.comment === undefined) delete slice.comment;
  }
  if (same >= 0) slices[same] = slice;
  else slices.push(slice);
  await Deno.mkdir(dirname(config.slicesFile), { recursive: true });
  await writeAtomic(config.slicesFile, await formatSlices(slices));
  return same >= 0;
}

/**
 * `slop slice list [--json]`: every slice with its status (exact, moved,
 * re-anchored, stale); resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runSliceList } from "./slice.ts";
 * // await runSliceList({ json: true });
 * ```
 */
export async function runSliceList(flags: SliceFlags): Promise<number> {
  try {
    const config = await loadConfig({ config: flags.config });
    const reports = await collectSlices(config);
    if (flags.json) {
      console.log(JSON.stringify(reports, null, 2));
      return 0;
    }
    if (!reports.length) {
      console.log(`slop: no slices (add one with: slop slice add PATH:START-END)`);
      return 0;
    }
    for (const r of reports) console.log(formatReport(r));
    return 0;
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError ? 2 : 1;
  }
}

/**
 * `slop slice refresh [--check]`: rewrite the side file's moved and
 * re-anchored slices at their new lines (new hash and anchors); stale slices
 * are kept as they are. A slice kept in the config (`files[i].slices[j]`)
 * cannot be rewritten: its new record is printed, ready to paste over the
 * old one. With `check`, nothing is written and the exit code is 1 when any
 * slice is moved, re-anchored or stale.
 *
 * @example
 * ```ts
 * import { runSliceRefresh } from "./slice.ts";
 * // await runSliceRefresh({});
 * // const code = await runSliceRefresh({ check: true }); // 1 when a slice must be updated
 * ```
 */
export async function runSliceRefresh(flags: SliceFlags): Promise<number> {
  try {
    const config = await loadConfig({ config: flags.config });
    const log = (line: string) => flags.quiet || console.log(line);
    const configName = config.configPath ? displayPath(config.configPath) : "the inline config";
    const side = await refreshSideFile(config, { check: flags.check, log });
    const entries = await entrySliceUpdates(config, configName, log);
    const { changed } = side;
    const { manual } = entries;
    const stale = side.stale + entries.stale;
    if (flags.check) {
      const todo = changed + manual + stale;
      log(
        todo
          ? `slop: ${todo} slice${todo === 1 ? "" : "s"} out of date (${changed} in ` +
            `${sideName(config)}, ${manual} in ${configName}, ${stale} stale); nothing written`
          : "slop: every slice is up to date",
      );
      return todo ? 1 : 0;
    }
    log(
      `slop: refreshed ${changed} slice${changed === 1 ? "" : "s"} in ${sideName(config)}` +
        (manual ? `; ${manual} in ${configName} to update by hand (above)` : ""),
    );
    return 0;
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError ? 2 : 1;
  }
}

/** Re-anchor the side file's moved and re-anchored slices (written unless `check`); the counts. */
async function refreshSideFile(
  config: ResolvedConfig,
  options: { check?: boolean; log: (line: string) => void },
): Promise<{ changed: number; stale: number }> {
  const { log } = options;
  const side = await readSlicesFile(config.slicesFile, sideName(config));
  const out: FileSlice[] = [];
  let changed = 0;
  let stale = 0;
  for (const slice of side) {
    const lines = await readLines(config, slice.path).catch(() => undefined);
    const found = lines && resolveSlice(slice, lines);
    if (lines && found && (found.status === "moved" || found.status === "re-anchored")) {
      out.push({
        path: slice.path,
        ...anchorSlice(lines, found.startLine, found.endLine, {
          tag: slice.tag,
          comment: slice.comment,
        }),
      });
      changed++;
      log(formatReport({ path: slice.path, origin: "", slice, found }));
    } else {
      out.push(slice);
      const report = found ?? {
        status: "stale" as const,
        startLine: slice.startLine,
        endLine: slice.endLine,
        reason: `cannot read "${slice.path}"`,
      };
      if (report.status === "stale") {
        stale++;
        log(formatReport({ path: slice.path, origin: "", slice, found: report }));
      }
    }
  }
  if (changed && !options.check) await writeAtomic(config.slicesFile, await formatSlices(out));
  return { changed, stale };
}

/**
 * Print the new record of each moved or re-anchored slice kept in the config (it cannot be
 * rewritten) and report the stale ones; the counts.
 */
async function entrySliceUpdates(
  config: ResolvedConfig,
  configName: string,
  log: (line: string) => void,
): Promise<{ manual: number; stale: number }> {
  let manual = 0;
  let stale = 0;
  for (const r of await collectEntrySlices(config)) {
    if (r.found.status === "stale") {
      stale++;
      log(`${formatReport(r)}  ${r.origin}`);
    }
    if (r.found.status !== "moved" && r.found.status !== "re-anchored") continue;
    manual++;
    const lines = await readLines(config, r.path);
    const next = anchorSlice(lines, r.found.startLine, r.found.endLine, {
      tag: r.slice.tag,
      comment: r.slice.comment,
    });
    // Printed even with --quiet: it is the only way to update a slice kept in the config.
    console.log(
      `slop: ${r.origin} (${r.path}) ${r.found.status} ${r.slice.startLine}-${r.slice.endLine}` +
        ` -> ${r.found.startLine}-${r.found.endLine}; it is kept in ${configName}: ` +
        `replace it with\n${JSON.stringify(next, null, 2)}`,
    );
  }
  return { manual, stale };
}

/** A path as a message names it ({@linkcode shownPath}), with `/` separators under this folder. */
function displayPath(path: string): string {
  const shown = shownPath(path);
  return shown === path ? path : shown.split(sep).join("/");
}

/** Every slice of the config entries (literal paths) and the side file, resolved. */
async function collectSlices(config: ResolvedConfig): Promise<SliceReport[]> {
  const reports = await collectEntrySlices(config);
  const side = await readSlicesFile(config.slicesFile, sideName(config));
  for (const [i, { path, ...slice }] of side.entries()) {
    reports.push(await report(config, path, `${sideName(config)} slices[${i}]`, slice));
  }
  return reports;
}

async function collectEntrySlices(config: ResolvedConfig): Promise<SliceReport[]> {
  const reports: SliceReport[] = [];
  for (const [i, entry] of config.files.entries()) {
    if (!entry.slices?.length || isGlob(entry.path)) continue;
    const path = entry.path.replace(/^\.\//, "");
    for (const [j, slice] of entry.slices.entries()) {
      reports.push(await report(config, path, `files[${i}].slices[${j}]`, slice));
    }
  }
  return reports;
}

async function report(
  config: ResolvedConfig,
  path: string,
  origin: string,
  slice: Slice,
): Promise<SliceReport> {
  let found: SliceResolution;
  try {
    found = resolveSlice(slice, await readLines(config, path));
  } catch (error) {
    found = {
      status: "stale",
      startLine: slice.startLine,
      endLine: slice.endLine,
      reason: error instanceof Error ? error.message : String(error),
    };
  }
  return { path, origin, slice, found };
}

/** One line of `slice list`: `path:a-b  status  [-> c-d]  "tag"  (reason)`. */
function formatReport(r: SliceReport): string {
  const where = `${r.path}:${r.slice.startLine}-${r.slice.endLine}`;
  const moved = r.found.status === "moved" || r.found.status === "re-anchored"
    ? ` -> ${r.found.startLine}-${r.found.endLine}`
    : "";
  const tag = r.slice.tag !== undefined ? `  "${r.slice.tag}"` : "";
  const why = r.found.status === "stale" && r.found.reason ? `  (${r.found.reason})` : "";
  return `${where.padEnd(32)} ${r.found.status.padEnd(11)}${moved}${tag}${why}`;
}

function sideName(config: ResolvedConfig): string {
  return displayPath(config.slicesFile);
}

/** `--tag` and `--comment` as the side file keeps them: a secret in either redacted. */
function labels(
  flags: SliceFlags,
  rules: Record<string, string>,
): { tag?: string; comment?: string } {
  const [{ tag, comment }] = redactedLabels([{
    startLine: 1,
    endLine: 1,
    tag: flags.tag,
    comment: flags.comment,
  }], rules);
  return { tag, comment };
}

function rootRelative(config: ResolvedConfig, file: string): string {
  const rel = relative(config.root, resolve(Deno.cwd(), file)).split(sep).join("/");
  if (rel.startsWith("../") || rel === ".." || isAbsolute(rel)) {
    throw new Error(`"${file}" is outside the project root "${config.root}"`);
  }
  // Builds leave such a file out before anything records its path; the side file is committed.
  const [held] = splitSecretPaths([rel], config.secrets.rules).dropped;
  if (held !== undefined) {
    throw new Error(
      `Cannot slice "${held}": its path holds a secret (builds leave the file out; rename it)`,
    );
  }
  return rel;
}

async function readLines(config: ResolvedConfig, path: string): Promise<string[]> {
  let text: string;
  try {
    // A link that leads out of the project is not read, as a build would not read it.
    text = await readSettingText(join(config.root, path), {
      within: config.allowOutsideRoot ? undefined : config.root,
    });
  } catch (error) {
    throw new Error(
      `Cannot read "${path}": ${
        error instanceof Deno.errors.NotFound
          ? "file not found"
          : error instanceof Deno.errors.IsADirectory
          ? "it is a folder"
          : error instanceof Error
          ? error.message
          : error
      }`,
    );
  }
  // The lines as views see them, secrets redacted: anchors written to the side file quote them.
  const shown = await redactText(text.replace(/^\uFEFF/, ""), path, {
    rules: config.secrets.rules,
  });
  return splitLines(normalizeNewlines(shown.text));
}

function rendersCustom(config: ResolvedConfig, path: string): boolean {
  const entry = config.files.findLast((e) => e.path.replace(/^\.\//, "") === path);
  return (entry?.view ?? config.defaultView) === "custom";
}
