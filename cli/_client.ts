/**
 * `slop build --server`: the build's request (its paths and flags, with this process's working
 * directory and environment, and the task file read here), handed to this project's build server
 * (`server/client.ts`, which starts it when none runs). It loads nothing of the pipeline, so a
 * build the server has warm costs this process little more than Deno's start. When no server can
 * be used, the caller builds in this process.
 *
 * @module
 */

import { handOff } from "../server/client.ts";
import {
  DEFAULT_IDLE_MS,
  durationError,
  parseDuration,
  type ServerFiles,
  serverFiles,
  serverVersion,
} from "../server/files.ts";
import type { BuildFlags } from "./build.ts";
import { writeAllSync, writeStdout } from "./_terminal.ts";

/** Flags of `slop build --server`. */
export interface ServerBuildFlags extends BuildFlags {
  /** How long a server started now waits for a build before it exits (`--server-idle`). */
  serverIdle?: string;
}

/**
 * Run a build in this project's build server; resolves to the exit code, or
 * to undefined (after a warning) when no server can be used.
 *
 * @example
 * ```ts
 * import { buildViaServer } from "./_client.ts";
 * // const code = await buildViaServer([], { config: "slop.config.ts" }) ?? await runBuild(...);
 * ```
 */
export async function buildViaServer(
  paths: string[],
  flags: ServerBuildFlags,
): Promise<number | undefined> {
  const { server: _, serverIdle, ...build } = flags as ServerBuildFlags & { server?: boolean };
  const warn = (why: string) => {
    stderr(`slop: warning: ${why}: building in this process\n`);
    return undefined;
  };
  if (Deno.build.os === "windows") return warn("the build server needs Unix sockets");
  const idleMs = serverIdle === undefined ? DEFAULT_IDLE_MS : parseDuration(serverIdle);
  if (idleMs === undefined) {
    stderr(`slop: ${durationError("--server-idle", serverIdle!)}\n`);
    return 2;
  }
  let files: ServerFiles;
  try {
    files = serverFiles({ config: flags.config, stateDir: flags.stateDir });
  } catch (error) {
    return warn(error instanceof Error ? error.message : String(error));
  }
  // The task file is read here: the server has another standard input (`--task-file -`). Its
  // module is loaded only for a task: it loads the pipeline's helpers, which a client need not.
  let task: string | undefined;
  let outputs = build.outputs;
  try {
    if (build.task !== undefined || build.taskFile !== undefined) {
      task = await (await import("./_flags.ts")).taskFlag(build);
    }
    // The task's file is left out of the build as the command's output files are: the server
    // gets its text, so it is told the file among those.
    if (build.taskFile !== undefined) {
      const { taskFilePaths } = await import("./_own_output.ts");
      outputs = [...(outputs ?? []), ...taskFilePaths(build.taskFile)];
    }
  } catch (error) {
    stderr(`slop: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const request = {
    type: "build",
    version: serverVersion(),
    paths,
    flags: { ...build, task, taskFile: undefined, outputs },
    cwd: Deno.cwd(),
    env: Deno.env.toObject(),
    stderrIsTerminal: Deno.stderr.isTerminal(),
  };
  const answer = await handOff(files, request, {
    config: flags.config,
    stateDir: flags.stateDir,
    idleMs,
    entry: new URL("../cli.ts", import.meta.url),
    output: { stdout: writeStdout, stderr: (bytes) => writeAllSync(Deno.stderr, bytes) },
  });
  return answer && ("why" in answer ? warn(answer.why) : answer.code);
}

function stderr(text: string) {
  writeAllSync(Deno.stderr, new TextEncoder().encode(text));
}
