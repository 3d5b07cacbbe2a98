/**
 * Build servers for tests: a project with a folder of its own for its servers.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type CliRun, makeProject, runCli, tempDir, type Tree } from "../_helpers.ts";

/** What `slop server status --json` says, as the tests read it. */
export interface TestStatus {
  pid: number;
  builds: number;
  lastChanges?: { paths: string[]; structural: boolean } | null;
  prepares: number;
  lastBuildPrepared?: boolean;
}

/** A project and a folder of its own for build servers (removed with the servers at the end). */
export async function serverCase(tree: Tree) {
  const root = await makeProject(tree);
  const runtime = await tempDir({ prefix: "slop_servers_" });
  // CI empty: on a CI machine (CI=true) `--server` would otherwise start no server.
  const env = { XDG_RUNTIME_DIR: runtime, CI: "" };
  const slop = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, root, { ...env, ...extra });
  const status = async () => {
    const run = await slop(["server", "status", "--json"]);
    return run.code === 0 ? JSON.parse(run.stdout) as TestStatus : undefined;
  };
  const stopAll = () => slop(["server", "stop", "--all", "--quiet"]);
  /** The status once the server has prepared `count` builds (fails after 10 s). */
  const prepared = async (count: number) => {
    for (let i = 0; i < 200; i++) {
      const now = await status();
      if ((now?.prepares ?? 0) >= count) return now!;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`The build server did not prepare ${count} builds in 10 s`);
  };
  return { root, runtime, slop, status, stopAll, prepared };
}

/** `run`, after asserting it exited 0 (its stderr is the message when not). */
export function ok(run: CliRun): CliRun {
  assert.equal(run.code, 0, run.stderr);
  return run;
}
