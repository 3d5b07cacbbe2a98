/**
 * Run `slop watch` in a test project and edit it once it watches.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, REPO } from "../_helpers.ts";

/**
 * Run `slop watch --max-builds 1` in `root`; call `edit` once it says "watching for changes".
 * Returns stdout lines.
 */
export async function watchOnce(root: string, edit: () => Promise<void>): Promise<string[]> {
  return (await watchOnceWithStderr(root, edit)).lines;
}

/** {@linkcode watchOnce}, also returning what the watcher printed on stderr. */
export async function watchOnceWithStderr(
  root: string,
  edit: () => Promise<void>,
): Promise<{ lines: string[]; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      join(REPO, "cli.ts"),
      "watch",
      "--debounce",
      "50",
      "--max-builds",
      "1",
    ],
    cwd: root,
    clearEnv: true,
    env: childEnv(),
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Bounded: the watcher is killed if it has not finished in 60 s (a loaded machine is slow).
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const lines: string[] = [];
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let edited = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    while (buffer.includes("\n")) {
      lines.push(buffer.slice(0, buffer.indexOf("\n")));
      buffer = buffer.slice(buffer.indexOf("\n") + 1);
    }
    // The watcher is on before it says it watches: the edit needs no wait.
    if (!edited && lines.some((l) => l.includes("watching for changes"))) {
      edited = true;
      await edit();
    }
  }
  const status = await child.status;
  clearTimeout(guard);
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 0, stderr);
  return { lines, stderr };
}
