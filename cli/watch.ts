/**
 * `slop watch`: build, then rebuild whenever a file under the root changes
 * (debounced), printing how much of the previous output each rebuild reuses
 * as a byte-identical prefix (what a provider's prompt cache can hit).
 *
 * @module
 */

import { redactMessage } from "../pipeline/redact_message.ts";
import { basename, dirname, join, relative, sep } from "node:path";
import { ConfigError, loadConfig, namedAsConfig } from "../pipeline/config.ts";
import { configImports, isModulePath } from "../accel/config_graph.ts";
import { build, type BuildResult } from "../pipeline/build.ts";
import { builtinPlugins } from "./_builtins.ts";
import type { ResolvedConfig } from "../pipeline/types.ts";
import {
  formatBytes,
  isRedaction,
  moreRedactions,
  printError,
  printWarning,
  REDACTIONS_SHOWN,
} from "./_output.ts";
import { applyOverrides, flagNumber, formatFlagError } from "./_flags.ts";
import { MAX_TIMER_MS } from "../pipeline/helpers.ts";
import { type Resident, resident, watchIgnoredDirs } from "../accel/resident.ts";
import { stageClock, timingsText } from "../pipeline/timings.ts";
import {
  gitListFiles,
  gitWatchFolders,
  MAX_CHANGED_PATHS,
  readEvent,
  rulesAboveFolders,
  rulesAboveState,
  type WatchChange,
} from "../accel/watch_events.ts";
import { collectGarbage } from "../accel/collect.ts";
import { ownOutputFiles, underRoot } from "./_own_output.ts";
import { speedLayer } from "../accel/speed_layer.ts";
import { type RootWatcher, rootWatcher } from "./_watch_root.ts";
import { commandErrorText } from "./_error_message.ts";

/** Flags of `slop watch`. */
export interface WatchFlags {
  /** Config file (`--config`). */
  config?: string;
  /** State dir (`--state-dir`). */
  stateDir?: string;
  /** Persona from the config (`--persona`). */
  persona?: string;
  /** Preset from the config (`--preset`). */
  preset?: string;
  /** Document format (`--format`). */
  format?: string;
  /** Quiet time in ms before a rebuild (`--debounce`). @default {200} */
  debounce?: string | number;
  /** Stop after this many rebuilds (`--max-builds`); unbounded when absent. */
  maxBuilds?: string | number;
  /** Print nothing but errors (`--quiet`). */
  quiet?: boolean;
  /** `false` with `--no-cache`. */
  cache?: boolean;
  /** Print each build stage's time to stderr after every build (`--timings`). */
  timings?: boolean;
}

/** How much of the previous output a rebuild kept. */
export interface PrefixReuse {
  /** Leading bytes identical to the previous document. */
  bytes: number;
  /** The new document's size. */
  total: number;
  /** Leading blocks identical (same sha256, same place). */
  blocks: number;
  /** Whether the stable prefix hash is unchanged. */
  prefixUnchanged: boolean;
}

/** The line `slop watch` prints once it watches a project folder removed and made again. */
const REWATCHED = "slop: the project folder was made again; watching it anew";

/** Heap growth in bytes after which `slop watch` collects garbage after a rebuild. */
const COLLECT_AFTER = 2 * 1024 * 1024;

/**
 * Compare a build with the previous one.
 */
function prefixReuse(previous: BuildResult, next: BuildResult): PrefixReuse {
  let blocks = 0;
  while (
    blocks < previous.blocks.length && blocks < next.blocks.length &&
    previous.blocks[blocks].sha256 === next.blocks[blocks].sha256
  ) blocks++;
  // Identical leading blocks are identical bytes: compare from the first block that differs,
  // encoding blocks only as the comparison reaches them (not the whole documents).
  const a = blockBytes(previous, blocks);
  const b = blockBytes(next, blocks);
  let bytes = blocks ? next.blocks[blocks - 1].offset + next.blocks[blocks - 1].length : 0;
  let x = a.next().value;
  let y = b.next().value;
  let i = 0;
  let j = 0;
  while (x && y) {
    if (i === x.length) {
      x = a.next().value;
      i = 0;
    } else if (j === y.length) {
      y = b.next().value;
      j = 0;
    } else if (x[i] === y[j]) {
      i++;
      j++;
      bytes++;
    } else break;
  }
  return {
    bytes,
    total: next.manifest.total.bytes,
    blocks,
    prefixUnchanged: previous.manifest.prefix.sha256 === next.manifest.prefix.sha256,
  };
}

function* blockBytes(result: BuildResult, from: number): Generator<Uint8Array, undefined> {
  const encoder = new TextEncoder();
  for (let k = from; k < result.blocks.length; k++) yield encoder.encode(result.blocks[k].text);
  return undefined;
}

/**
 * The line printed after a rebuild.
 */
function reuseLine(reuse: PrefixReuse): string {
  const pct = reuse.total ? Math.floor((reuse.bytes / reuse.total) * 100) : 100;
  return `reused ${formatBytes(reuse.bytes)} of ${
    formatBytes(reuse.total)
  } (${pct}%), ${reuse.blocks} blocks; stable prefix ${
    reuse.prefixUnchanged ? "unchanged" : "changed"
  }`;
}

/**
 * Run `slop watch`; resolves to the exit code when `--max-builds` is reached
 * or on Ctrl-C.
 *
 * @example
 * ```ts
 * import { runWatch } from "./watch.ts";
 * // await runWatch({ maxBuilds: 1 });
 * ```
 */
export async function runWatch(flags: WatchFlags): Promise<number> {
  const limits = watchLimits(flags);
  if (typeof limits === "string") {
    printError(limits);
    return 2;
  }
  // `slop watch > watch.log` in the project: the log is neither watched nor bundled.
  const outputs = ownOutputFiles();
  let config: ResolvedConfig;
  try {
    config = await loadWatchConfig(flags, { outputs, reload: false });
  } catch (error) {
    printError(commandErrorText(error));
    return error instanceof ConfigError ? 2 : 1;
  }
  const relevant = relevantTo(config, outputs);
  // Watch before the first build, so that no change after "watching" is missed. The config
  // may sit outside the root: watch it too.
  const configPath = config.configPath;
  const watched = configPath && !configPath.startsWith(config.root + sep)
    ? [config.root, configPath]
    : [config.root];
  // A worktree's or submodule's git folder is outside the root: its index, excludes and config.
  const watcher = rootWatcher([...watched, ...gitWatchFolders(config.root)]);
  const stop = () => watcher.stop();
  // The rule files above the root are looked at before the first build too: one made while it
  // runs, or before the line "watching for changes" is read, is then a change, not the baseline.
  const start = aboveAtStart(config.root);
  const w = watching(flags, { config, outputs });
  w.previous = await rebuild(w);
  if (w.previous) await rehearse(w);
  // Ctrl-C is taken before "watching for changes" is said: a script may send it on that line.
  if (limits.maxBuilds !== 0) Deno.addSignalListener("SIGINT", stop);
  if (w.previous && !flags.quiet) {
    console.log(`slop: built ${outputName(w.previous, config)}; watching for changes`);
  }
  if (limits.maxBuilds === 0) {
    stop();
    closeWatcher(start.above);
    await w.resident.close();
    return w.previous ? 0 : 1;
  }
  let code = 0;
  try {
    await rebuildOnChanges(w, watcher, { relevant, stop, start, ...limits });
  } catch (error) {
    // The root cannot be watched any more (the system's limit on watches): said, not a crash.
    if (!(error instanceof Error && error.message.startsWith("Cannot watch "))) throw error;
    printError(error.message);
    code = 1;
  }
  // The draft of a next document is not left behind.
  await w.resident.close();
  return code;
}

/** Rebuild after each quiet time (`debounce` ms) that follows changes, until stopped. */
async function rebuildOnChanges(
  w: Watching,
  watcher: RootWatcher,
  { relevant, stop, start, debounce, maxBuilds }: {
    relevant: (path: string) => boolean;
    stop: () => void;
    start: AboveAtStart;
    debounce: number;
    maxBuilds: number;
  },
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const pending: Pending = emptyPending();
  const root = w.config.root;
  const { gitList, above } = start;
  let rules = start.rules;
  const take = (change: WatchChange) => {
    notePending(pending, change, { configPath: w.configPath, root });
    clearTimeout(timer);
    timer = setTimeout(() => {
      const now = rulesAboveState(root);
      if (now !== rules) notePending(pending, listed(root), { configPath: w.configPath, root });
      rules = now;
      const batch = takePending(pending);
      running = running.then(() => rebuildAfter(w, batch, { stop, maxBuilds }))
        .then(() => watcher.renewIfReplaced());
    }, debounce);
  };
  const aboveDone = followAbove(above, (event) => {
    const change = listingChange(event, { gitList, root });
    if (change) take(change);
  });
  try {
    for await (const event of watcher.events()) {
      // A watch started anew on a root made again: any file, the config too, may have changed.
      if (event.restarted) pending.configChanged = true;
      // Said once the new watch is on: an edit after this line is seen.
      if (event.restarted && !w.flags.quiet) console.log(REWATCHED);
      const change = event.restarted
        ? { paths: [], structural: true }
        : readEvent(event, relevant) ?? listingChange(event, { gitList, root });
      if (change) take(change);
    }
  } finally {
    clearTimeout(timer);
    Deno.removeSignalListener("SIGINT", stop);
    closeWatcher(above);
    await aboveDone;
  }
  await running;
}

/** Hand each event of `above` to `take` until it is closed. */
async function followAbove(
  above: Deno.FsWatcher | undefined,
  take: (event: Deno.FsEvent) => void,
): Promise<void> {
  try {
    for await (const event of above ?? []) take(event);
  } catch {
    // A watch that failed: the look before each rebuild remains.
  }
}

/** A watch of the folders above a folder of a work tree (not their subfolders), if any. */
/** What a watch reads of the work tree before its first build (see {@linkcode aboveAtStart}). */
interface AboveAtStart {
  /** The files git lists in the root. */
  gitList: Set<string>;
  /** The state of the `.gitignore` and `.gitattributes` files above the root ({@linkcode rulesAboveState}). */
  rules: string;
  /** The watch of their folders, when there are any. */
  above?: Deno.FsWatcher;
}

/**
 * The work tree as the first build reads it. The .gitignore and .gitattributes files above a
 * folder of a work tree: the watcher watches those there when it started; one made since is seen by
 * this watch of their folders (not their subfolders), and by a look before each rebuild (an
 * editor's save by a rename, a lost event).
 */
function aboveAtStart(root: string): AboveAtStart {
  return {
    gitList: new Set(gitListFiles(root)),
    rules: rulesAboveState(root),
    above: watchAbove(root),
  };
}

function closeWatcher(watcher: Deno.FsWatcher | undefined): void {
  try {
    watcher?.close();
  } catch {
    // Closed already.
  }
}

function watchAbove(root: string): Deno.FsWatcher | undefined {
  const folders = rulesAboveFolders(root);
  try {
    return folders.length ? Deno.watchFs(folders, { recursive: false }) : undefined;
  } catch {
    return undefined; // a folder that cannot be watched: the look before each rebuild remains
  }
}

/** The change that makes a rebuild list the files again (git may list or mark others). */
function listed(root: string): WatchChange {
  return { paths: [join(root, ".git", "index")], structural: false };
}

/**
 * What a watch keeps between rebuilds: the plugins, the opened cache, the stat index, the file
 * list and the blocks' hashes and counts, so a rebuild after a one-file edit does that file's work.
 */
function watching(
  flags: WatchFlags,
  { config, outputs }: { config: ResolvedConfig; outputs: string[] },
): Watching {
  const configPath = config.configPath;
  return {
    flags,
    outputs,
    config,
    configPath,
    builtins: builtinPlugins(),
    resident: resident(),
    told: new Set(),
    repeated: 0,
    collected: 0,
    // Read while the first build runs.
    imports: configPath ? configImports(configPath) : Promise.resolve(new Set<string>()),
    builds: 0,
  };
}

/** `--debounce` and `--max-builds` as numbers, or what is wrong with the flags. */
function watchLimits(flags: WatchFlags): { debounce: number; maxBuilds: number } | string {
  const debounce = flagNumber(flags.debounce ?? "200", { fraction: true });
  const maxBuilds = flags.maxBuilds === undefined ? Infinity : flagNumber(flags.maxBuilds);
  const flagError = !(debounce >= 0 && debounce <= MAX_TIMER_MS)
    ? `Invalid --debounce "${flags.debounce}": expected milliseconds, a number from 0 to ` +
      `${MAX_TIMER_MS}`
    : !(maxBuilds >= 0 && (maxBuilds === Infinity || Number.isInteger(maxBuilds)))
    ? `Invalid --max-builds "${flags.maxBuilds}": expected a whole number of at least 0`
    : formatFlagError(flags.format);
  return flagError || { debounce, maxBuilds };
}

/** The config with the flags applied; slop's own output files (a log) are excluded. */
async function loadWatchConfig(
  flags: WatchFlags,
  { outputs, reload }: { outputs: string[]; reload: boolean },
): Promise<ResolvedConfig> {
  const loaded = await loadConfig({
    config: flags.config,
    stateDir: flags.stateDir,
    persona: flags.persona,
    preset: flags.preset,
    reload,
  });
  applyOverrides(loaded, flags);
  loaded.exclude = [...loaded.exclude, ...underRoot(outputs, loaded.root)];
  return loaded;
}

/** What `slop watch` keeps between rebuilds. */
interface Watching {
  flags: WatchFlags;
  /** slop's own output files (see {@linkcode loadWatchConfig}). */
  outputs: string[];
  /** The config; an edited config applies from the next rebuild on. */
  config: ResolvedConfig;
  /** The config file loaded last (the one the watch started with, or one written since). */
  configPath?: string;
  builtins: ReturnType<typeof builtinPlugins>;
  resident: Resident;
  /**
   * The warnings the last build gave: a rebuild prints those it did not give (a secret redacted
   * in a file nobody edited is not told again after every edit); its line counts the others.
   */
  told: Set<string>;
  /** The warnings of the last build that were told before. */
  repeated: number;
  /** The heap in use after the last collection. */
  collected: number;
  /**
   * The modules the config imports: an edit to one cannot be loaded into this process, so the
   * rebuild says so.
   */
  imports: Promise<Set<string>>;
  /** The last good build. */
  previous?: BuildResult;
  /** Rebuilds done. */
  builds: number;
}

/** Build with the kept state; undefined (after printing why) when the build fails. */
async function rebuild(w: Watching): Promise<BuildResult | undefined> {
  const { flags } = w;
  const clock = flags.timings ? stageClock({ startup: false }) : undefined;
  const given = new Set<string>();
  w.repeated = 0;
  let redactions = 0;
  const onWarning = (warning: string) => {
    if (w.told.has(warning) && !given.has(warning)) w.repeated++;
    else if (!isRedaction(warning) || ++redactions <= REDACTIONS_SHOWN) printWarning(warning);
    given.add(warning);
  };
  try {
    const result = await build(w.config, {
      builtins: w.builtins,
      layer: speedLayer({ resident: w.resident }),
      timings: clock,
      onWarning: flags.quiet ? undefined : onWarning,
    });
    w.told = given;
    if (redactions > REDACTIONS_SHOWN) printWarning(moreRedactions(redactions - REDACTIONS_SHOWN));
    return result;
  } catch (error) {
    printError(commandErrorText(error));
    return undefined;
  } finally {
    if (clock) console.error(timingsText(clock));
  }
}

/**
 * The garbage of a build is collected once it is done (see `accel/collect.ts`): the first build's
 * before the warm-up adds to it, and a rebuild's once the heap has grown by `COLLECT_AFTER`.
 */
async function collect(w: Watching, always: boolean): Promise<void> {
  await w.resident.settled();
  if (always || Deno.memoryUsage().heapUsed - w.collected >= COLLECT_AFTER) {
    collectGarbage();
    w.collected = Deno.memoryUsage().heapUsed;
  }
}

/**
 * Before "watching": a build that writes nothing runs the rebuild's code once (compiled before an
 * edit waits on it).
 */
async function rehearse(w: Watching): Promise<void> {
  await collect(w, true);
  const layer = speedLayer({ resident: w.resident });
  await build(w.config, {
    builtins: w.builtins,
    layer,
    write: false,
    record: false,
    remember: false,
  })
    .catch(() => {});
  await collect(w, true);
}

/** Whether a changed path is watched: the config, or a path under the root not ignored. */
function relevantTo(config: ResolvedConfig, outputs: string[]): (path: string) => boolean {
  const ignored = watchIgnoredDirs(config);
  const configPath = config.configPath;
  const logs = underRoot(outputs, config.root).map((rel) => join(config.root, rel));
  return (path: string) =>
    path === configPath ||
    (!ignored.some((d) => path === d || path.startsWith(d + sep)) && !logs.includes(path));
}

/** The changes seen since the last rebuild was scheduled. */
interface Pending {
  /** Changed paths, relative to the root with `/`. */
  changed: Set<string>;
  configChanged: boolean;
  structural: boolean;
  /** Changed module files (which the config may import). */
  modules: Set<string>;
}

/** The changes one rebuild handles. */
interface Batch {
  files: string[];
  reload: boolean;
  edited: string[];
  moved: boolean;
}

function emptyPending(): Pending {
  return { changed: new Set(), configChanged: false, structural: false, modules: new Set() };
}

/**
 * A change to git's index, config, `info/exclude` or `info/attributes` (in `.git`, or in the git
 * folder a worktree's `.git` file names), named `.git/index`: git may list or mark other files
 * now, though no file of the work tree changed (no file is listed under that name, so the rebuild
 * lists the files again).
 */
function listingChange(
  event: Deno.FsEvent,
  { gitList, root }: { gitList: Set<string>; root: string },
): WatchChange | undefined {
  return event.paths.some((p) => gitList.has(p)) ? listed(root) : undefined;
}

function notePending(
  pending: Pending,
  change: WatchChange,
  { configPath, root }: { configPath?: string; root: string },
): void {
  const { paths } = change;
  // The config, or a file named as one in its folder: one written later under another name is
  // loaded (where there was none) or named (a data file, one beside the config), as a new build would.
  const folder = configPath ? dirname(configPath) : root;
  const named = (p: string) => dirname(p) === folder && namedAsConfig(basename(p));
  if (paths.some((p) => p === configPath || named(p))) pending.configChanged = true;
  paths.filter((p) => p !== configPath && isModulePath(p)).forEach((p) => pending.modules.add(p));
  if (change.structural) pending.structural = true;
  paths.forEach((p) => pending.changed.add(relative(root, p).split(sep).join("/")));
  if (pending.changed.size > MAX_CHANGED_PATHS) {
    // Too many to name (a storm of new names): the rebuild looks at every file instead.
    pending.changed.clear();
    pending.structural = true;
  }
}

/** The pending changes as one rebuild's batch; nothing is pending after. */
function takePending(pending: Pending): Batch {
  const files = [...pending.changed].sort();
  pending.changed = new Set();
  const reload = pending.configChanged;
  pending.configChanged = false;
  const edited = [...pending.modules].sort();
  pending.modules = new Set();
  const moved = pending.structural || reload;
  pending.structural = false;
  return { files, reload, edited, moved };
}

/** Rebuild after a batch of changes and print what it reused; stop after `maxBuilds`. */
async function rebuildAfter(
  w: Watching,
  { files, reload, edited, moved }: Batch,
  { stop, maxBuilds }: { stop: () => void; maxBuilds: number },
): Promise<void> {
  // An edited config applies from this rebuild on; a broken one keeps the last good one.
  if (reload) {
    try {
      w.config = await loadWatchConfig(w.flags, { outputs: w.outputs, reload: true });
      // A config written where there was none, or removed: the one loaded now is watched.
      w.configPath = w.config.configPath;
      w.imports = w.configPath ? configImports(w.configPath) : Promise.resolve(new Set());
    } catch (error) {
      printError(commandErrorText(error));
    }
  }
  if (edited.length && !w.flags.quiet) await warnEditedImports(w, edited);
  // Told here, in turn: a build still running may keep a file list of its own.
  w.resident.changed(files, moved);
  const start = performance.now();
  const next = await rebuild(w);
  const ms = Math.round(performance.now() - start);
  if (next) {
    if (!w.flags.quiet) console.log(rebuiltLine(w, { files, next, ms }));
    w.previous = next;
    await collect(w, false);
  }
  if (++w.builds >= maxBuilds) stop();
}

/** Warn of each edited module the config imports: Deno cannot load it again. */
async function warnEditedImports(w: Watching, edited: string[]): Promise<void> {
  const graph = await w.imports;
  for (const path of edited.filter((p) => graph.has(p))) {
    const name = relative(w.config.root, path).split(sep).join("/");
    printWarning(
      `"${name}" is imported by the config and Deno cannot load a module twice: ` +
        "restart slop watch to use the edit",
    );
  }
}

/** The line printed after a rebuild: what changed, the time, and the reuse. */
function rebuiltLine(
  w: Watching,
  { files, next, ms }: { files: string[]; next: BuildResult; ms: number },
): string {
  // A changed file's name comes from the file system: one that holds a secret (a file the build
  // leaves out) is shown redacted, as the build's warning shows it.
  const one = files.length === 1 ? redactMessage(files[0], w.config.secrets.rules) : undefined;
  const what = one ?? (files.length ? `${files.length} files` : "files");
  const reuse = w.previous ? reuseLine(prefixReuse(w.previous, next)) : "first build";
  const before = w.repeated ? `; ${w.repeated} warning${w.repeated > 1 ? "s" : ""} as before` : "";
  return `slop: ${what} changed: built ${
    outputName(next, w.config)
  } in ${ms} ms: ${reuse}${before}`;
}

function outputName(result: BuildResult, config: ResolvedConfig): string {
  return result.output ? relative(config.root, result.output.document).split(sep).join("/") : "";
}
