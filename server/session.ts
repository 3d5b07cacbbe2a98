/**
 * What a build server keeps between builds: the resident state (cache,
 * stat index, memos), the built-in plugins, and the configs it loaded, each
 * kept while the config file (and the config files that could take its
 * place) are as they were. The modules the process loaded — slop's own and
 * those the config imports — cannot be loaded twice: when one changes, the
 * server is stale and a new one takes over. Keeping the resident is what
 * makes a warm build through the server fast; the measurement is in
 * `bench/README.md`, "Speed layers, each switched off", row `resident`.
 *
 * @module
 */

import { join } from "node:path";
import { ALL_CONFIG_NAMES, namedAsConfig } from "../pipeline/config.ts";
import { type Resident, resident } from "../accel/resident.ts";
import type { BuildResult, PreparedBuild } from "../pipeline/build.ts";
import type { Plugin, RenderedFile, ResolvedConfig } from "../pipeline/types.ts";
import { configImports } from "../accel/config_graph.ts";
import { type ServerChanges, serverWatch } from "./_watch.ts";
import { stampOf } from "./_prepare.ts";

/** What a build server keeps between the builds it runs (see `serve.ts`); the command line's `slop build` takes it. */
export interface BuildSession {
  /**
   * The config for a build: the one kept for the same `key` (the build's flags, paths, working
   * directory and environment) while its file is unchanged, else `load(reload)`'s.
   */
  config(key: string, load: (reload: boolean) => Promise<ResolvedConfig>): Promise<ResolvedConfig>;
  /** The state kept between builds (cache, stat index, memos). */
  resident: Resident;
  /** The built-in plugins, made once. */
  builtins: Plugin[];
  /** Whether the build is the session's first (its time includes the process's start). */
  first: boolean;
  /** Tell the resident what changed since its last build, before a build with `config`. */
  changes?(config: ResolvedConfig): Promise<void>;
  /** Told of each build that succeeded, with its config. */
  built?(result: BuildResult, config: ResolvedConfig): void;
  /**
   * A build prepared ahead for `config` that nothing has changed since (asked after
   * {@linkcode BuildSession.changes}): finished instead of built. See `_prepare.ts`.
   */
  prepared?(config: ResolvedConfig): PreparedBuild | undefined;
  /** Files the session rendered ahead for this build (see `SpeedOptions.renderedAhead`). */
  renderedAhead?(file: RenderedFile): boolean;
}

/** A build server's session. */
export interface ServerSession extends BuildSession {
  /**
   * Why this process cannot build with what is on disk now (a module it loaded changed), or
   * undefined when it can.
   */
  stale(): string | undefined;
  /** Wait until the modules the first config imports are known (read beside its first build). */
  settled(): Promise<void>;
  /** What the watcher told before the last build; null when every file was looked at. */
  lastChanges: ServerChanges | null;
  /** Whether `config` is one this session keeps and its config files are as it was loaded from. */
  current(config: ResolvedConfig): boolean;
  /** Stop the file watchers. */
  close(): void;
}

/** Options of {@linkcode serverSession}. */
export interface ServerSessionOptions {
  /** Module files this process loaded (slop's own), checked by {@linkcode ServerSession.stale}. */
  sources?: string[];
  /** The built-in plugins every build uses. @default {[]} */
  builtins?: Plugin[];
  /** Configs kept (by flags, working directory and environment). @default {4} */
  maxConfigs?: number;
  /**
   * Watch each project's files, with tick files in this folder named after this id (see
   * `_watch.ts`), and call `onChange` when a file changes; absent, every build looks at
   * every file.
   */
  watch?: { dir: string; id: string; onChange?: () => void };
  /**
   * How long the work a build leaves waits after it answered, unless a build or prepare asks for
   * it (see `ResidentOptions.quietMs`): the client exits meanwhile. @default {20}
   */
  quietMs?: number;
}

/** A config as loaded, with the stamp of the files that decided it. */
interface Kept {
  config: ResolvedConfig;
  stamp: string;
}

/**
 * A session for a build server.
 *
 * @example
 * ```ts
 * import { serverSession } from "./session.ts";
 * const session = serverSession();
 * session.stale(); // undefined
 * ```
 */
export function serverSession(options: ServerSessionOptions = {}): ServerSession {
  const maxConfigs = options.maxConfigs ?? 4;
  const configs = new Map<string, Kept>();
  const modules = new Map<string, string>();
  for (const path of options.sources ?? []) modules.set(path, stampOf(path));
  let loaded = false;
  let imports: Promise<void> = Promise.resolve();
  const state = resident({ quietMs: options.quietMs ?? 20 });
  const watch = options.watch && serverWatch(options.watch);
  const session: ServerSession = {
    resident: state,
    builtins: options.builtins ?? [],
    first: true,
    async config(key, load) {
      const kept = configs.get(key);
      if (kept && kept.stamp === configStamp(kept.config)) return kept.config;
      // A config file imported before may have changed since: a new key imports it anew too.
      const config = await load(loaded);
      const first = !loaded;
      loaded = true;
      configs.delete(key);
      configs.set(key, { config, stamp: configStamp(config) });
      if (configs.size > maxConfigs) configs.delete(configs.keys().next().value!);
      // Read beside the first build (`deno info` is a process of its own, started meanwhile).
      if (first && config.configPath) {
        imports = configImports(config.configPath).then((paths) => {
          for (const path of paths) if (!modules.has(path)) modules.set(path, stampOf(path));
        });
      }
      return config;
    },
    stale() {
      for (const [path, stamp] of modules) {
        if (stampOf(path) !== stamp) return `"${path}" changed`;
      }
      return undefined;
    },
    settled() {
      return imports;
    },
    current(config) {
      for (const kept of configs.values()) {
        if (kept.config === config) return kept.stamp === configStamp(config);
      }
      return false;
    },
    lastChanges: null,
    async changes(config) {
      const seen = watch ? await watch.changes(config) : undefined;
      session.lastChanges = seen ?? null;
      state.changed(seen?.paths ?? [], seen ? seen.structural : true);
    },
    close() {
      watch?.close();
    },
  };
  return session;
}

/**
 * The config file's stamp and those of every name a config may have in its folder (the root's,
 * without one): one found before it, one where there was none, and a data file (`slop.config.yaml`)
 * a load names (an error without a config, a warning beside one), in lower case and, as
 * `slop watch` sees them, in other letters (`Slop.Config.yaml`).
 */
function configStamp(config: ResolvedConfig): string {
  const stamps = config.configPath ? [stampOf(config.configPath)] : [];
  const dir = config.configPath ? join(config.configPath, "..") : config.root;
  for (const name of [...ALL_CONFIG_NAMES, ...otherLetters(dir)]) {
    const path = join(dir, name);
    if (path !== config.configPath) stamps.push(`${name}=${stampOf(path)}`);
  }
  return stamps.join(" ");
}

/** How old a folder's stamp is before a listing of it is kept (ms): past the clock's step. */
const SETTLED_MS = 2000;

/** What is at `path` (followed), or undefined. */
function statOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/** The names of a config in other letters a folder held when its stamp was last taken. */
const lettersSeen = new Map<string, { stamp: string; names: string[] }>();

/**
 * The names in `dir` of a config in letters other than lower case. The folder is listed only when
 * its own stamp changed (a file made, removed or renamed in it), not at each build: a listing
 * costs as much as the folder is large.
 */
function otherLetters(dir: string): string[] {
  const stamp = stampOf(dir);
  const seen = lettersSeen.get(dir);
  if (seen?.stamp === stamp) return seen.names;
  // A folder changed within the clock's step of its stamp (a few ms) may change again under the
  // same stamp: its listing is not kept until the stamp is older than that.
  const settled = Date.now() - (statOf(dir)?.mtime?.getTime() ?? 0) > SETTLED_MS;
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (namedAsConfig(entry.name) && entry.name !== entry.name.toLowerCase()) {
        names.push(entry.name);
      }
    }
  } catch {
    // Gone or not listable: the lower-case names' stamps say what there is.
  }
  names.sort();
  lettersSeen.delete(dir);
  if (settled) lettersSeen.set(dir, { stamp, names });
  if (lettersSeen.size > 64) lettersSeen.delete(lettersSeen.keys().next().value!);
  return names;
}
