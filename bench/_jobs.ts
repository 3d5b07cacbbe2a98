/**
 * The commands the benchmark runs: `slop build` and `slop server` for a
 * corpus and state dir, and Repomix on a corpus, each as a {@linkcode Job}
 * for `_measure.ts`.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Corpus, Peer } from "./_corpora.ts";
import type { Job } from "./_measure.ts";
import { SLOP_V8_FLAGS } from "../cli/init.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The same file-size limit for both tools. */
export const MAX_FILE_SIZE = 10 * 1024 * 1024;

/**
 * Write a slop config for a corpus with a default view; returns its path.
 *
 * @example
 * ```ts
 * import { slopConfig } from "./_jobs.ts";
 * // const config = await slopConfig(work, corpus, "skeleton");
 * ```
 */
export async function slopConfig(dir: string, corpus: Corpus, view: string): Promise<string> {
  const path = join(dir, `slop.${view}.config.js`);
  await Deno.writeTextFile(
    path,
    `export default ${
      JSON.stringify({
        root: corpus.dir,
        // Entries resolve from the config file's folder: an absolute glob names the corpus.
        files: [`${corpus.dir}/**`],
        defaultView: view,
        maxFileSize: MAX_FILE_SIZE,
      })
    };\n`,
  );
  return path;
}

/** Options of {@linkcode slopJob}. */
export interface SlopJobOptions {
  /** Print the stage timings (`--timings`). */
  timings?: boolean;
  /** Build in a build server whose files live in this folder (`--server`, `XDG_RUNTIME_DIR`). */
  servers?: string;
  /** More arguments of `slop build` (`--budget 200000`). */
  args?: string[];
  /** The V8 flags (`--v8-flags=...`), as slop picks them for the tree (`v8FlagsFor`). @default {SLOP_V8_FLAGS} */
  flags?: string;
}

/**
 * `slop build -q` for a config and state dir.
 *
 * @example
 * ```ts
 * import { slopJob } from "./_jobs.ts";
 * import { measure } from "./_measure.ts";
 * // const sample = await measure(slopJob(config, state, { args: ["--budget", "200000"] }));
 * ```
 */
export function slopJob(config: string, state: string, options: SlopJobOptions = {}): Job {
  return {
    cmd: Deno.execPath(),
    args: [
      "run",
      "-A",
      options.flags ?? SLOP_V8_FLAGS,
      "--quiet",
      join(REPO, "cli.ts"),
      "build",
      "-q",
    ].concat([
      "--config",
      config,
      "--state-dir",
      state,
      ...(options.timings ? ["--timings"] : []),
      ...(options.servers ? ["--server"] : []),
      ...(options.args ?? []),
    ]),
    // CI empty: in a CI job `--server` would start no server.
    env: {
      NO_COLOR: "1",
      ...(options.servers ? { XDG_RUNTIME_DIR: options.servers, CI: "" } : {}),
    },
  };
}

/** What the bench reads of `slop server status --json`. */
export interface ServerStatusJson {
  peakRss?: number;
  lastBuildPeakRss?: number;
  lastBuildMs?: number;
  lastBuildPrepared?: boolean;
  lastPrepareMs?: number;
}

/**
 * `slop server <command> --json` for a config and state dir, with the servers' folder.
 *
 * @example
 * ```ts
 * import { slopServer } from "./_jobs.ts";
 * // const status = await slopServer("status", config, state, servers);
 * ```
 */
export async function slopServer(
  command: "status" | "stop",
  config: string,
  state: string,
  servers: string,
): Promise<ServerStatusJson | undefined> {
  const args = ["run", "-A", "--quiet", join(REPO, "cli.ts"), "server", command];
  args.push("--config", config, "--state-dir", state, ...(command === "status" ? ["--json"] : []));
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    env: { NO_COLOR: "1", XDG_RUNTIME_DIR: servers },
    stdout: "piped",
    stderr: "null",
  }).output();
  return command === "status" && out.success
    ? JSON.parse(new TextDecoder().decode(out.stdout))
    : undefined;
}

/**
 * Repomix on a corpus, markdown to `out`, with its token cache at `cache`.
 *
 * @example
 * ```ts
 * import { peerJob } from "./_jobs.ts";
 * // const sample = await measure(peerJob(peer, corpus, "out.md", "cache.json", ["--compress"]));
 * ```
 */
export function peerJob(
  peer: Peer,
  corpus: Corpus,
  out: string,
  cache: string,
  extra: string[],
): Job {
  return {
    cmd: "node",
    args: [peer.bin, corpus.dir, "--style", "markdown", "-o", out, "--quiet", ...extra],
    env: { REPOMIX_TOKEN_CACHE_PATH: cache },
  };
}
