/**
 * Build servers for tests: a project with a folder of its own for its servers.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliRun, makeProject, runCli, tempDir, type Tree, withEnvSync } from "../_helpers.ts";
import { askServer, connectServer } from "../../server/client.ts";
import { serverFiles } from "../../server/files.ts";

/** What `slop server status --json` says, as the tests read it. */
export interface TestStatus {
  pid: number;
  builds: number;
  lastChanges?: { paths: string[]; structural: boolean } | null;
  prepares: number;
  lastBuildPrepared?: boolean;
  lastPrepareUnused?: string;
}

/** A project and a folder of its own for build servers (removed with the servers at the end). */
export async function serverCase(tree: Tree) {
  const root = await makeProject(tree);
  const runtime = await tempDir({ prefix: "slop_servers_" });
  // CI empty: on a CI machine (CI=true) `--server` would otherwise start no server.
  const env = { XDG_RUNTIME_DIR: runtime, CI: "" };
  // Every client has the same environment (runCli's START_ENV and these): a build server keeps a
  // config, and the build it prepared with it, for each client environment.
  const slop = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, root, { ...env, ...extra });
  // The server's files as `slop server status` in `root` names them (its key is the folder).
  const files = withEnvSync(
    { XDG_RUNTIME_DIR: runtime },
    () => serverFiles({ cwd: Deno.realPathSync(root) }),
  );
  /**
   * What `slop server status --json` prints, asked over the socket from this process: a test
   * that waits for a server polls it, and a CLI start for each look cost 0.2 s of CPU.
   */
  const status = async () => {
    const conn = await connectServer(files.socket);
    const answer = conn && await askServer(conn, { type: "status" });
    return answer ? answer as unknown as TestStatus : undefined;
  };
  /** What `slop server stop --all --quiet` does, from this process: ask each server to stop. */
  const stopAll = async () => {
    const dir = join(runtime, "slop");
    const sockets = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".sock"));
    for (const { name } of sockets) {
      const conn = await connectServer(join(dir, name));
      if (conn) await askServer(conn, { type: "stop" });
    }
  };
  /** The status once the server has prepared `count` builds (fails after 60 s: a busy machine is slow). */
  const prepared = async (count: number) => {
    for (const end = Date.now() + 60_000; Date.now() < end;) {
      const now = await status();
      if ((now?.prepares ?? 0) >= count) return now!;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`The build server did not prepare ${count} builds in 60 s`);
  };
  return { root, runtime, slop, status, stopAll, prepared };
}

/** `run`, after asserting it exited 0 (its stderr is the message when not). */
export function ok(run: CliRun): CliRun {
  assert.equal(run.code, 0, run.stderr);
  return run;
}
