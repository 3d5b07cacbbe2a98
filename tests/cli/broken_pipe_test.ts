import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO } from "../_helpers.ts";

// Every command that prints a document, a payload or a page to stdout: `... | head` closes the
// pipe after a few bytes, and the rest must end quietly (no stack trace, no error, exit 0).
const COMMANDS = [
  ["build", "--stdout"],
  ["build", "--stdout", "--json"],
  ["build", "--json"],
  ["build", "--stdout", "--format", "xml"],
  ["payload"],
  ["report", "--stdout"],
];

/** Run the CLI, read its first stdout chunk, then close the pipe as `head -c` does. */
async function runAndHangUp(args: string[], cwd: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), ...args],
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  await reader.cancel();
  const [status, stderr] = await Promise.all([
    child.status,
    new Response(child.stderr).text(),
  ]);
  return { first, code: status.code, stderr };
}

Deno.test("a reader that closes stdout early ends the output quietly", async () => {
  // Well over a pipe's buffer (64 KiB), so the writer is still writing when the pipe closes.
  const tree: Record<string, string> = {};
  for (let i = 0; i < 40; i++) tree[`src/f${i}.txt`] = `line ${i} `.repeat(2000) + "\n";
  const root = await makeProject(tree);
  for (const args of COMMANDS) {
    const run = await runAndHangUp(args, root);
    const what = `slop ${args.join(" ")}`;
    assert.ok(!run.first.done, `${what} printed nothing`);
    assert.doesNotMatch(run.stderr, /Broken ?pipe|Uncaught|os error|\n {4}at /i, what);
    assert.equal(run.code, 0, `${what}: ${run.stderr}`);
  }
});
