import assert from "node:assert/strict";
import { join } from "node:path";
import { gitInit, makeProject, REPO, tempDir } from "../_helpers.ts";

/** Whether process `pid` is running (not gone, nor a zombie left for its parent to reap). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/**
 * Start `slop build` in `root` with `bin` first on PATH, wait for the fake command there to write
 * its process id to `pids`, stop slop with each signal, and check that it ends as the signal says
 * and leaves no child of the command behind.
 */
async function stopWhileChildWaits(
  root: string,
  { bin, pids, lines = 1 }: { bin: string; pids: string; lines?: number },
  what: string,
) {
  const codes: Record<string, number> = { SIGTERM: 143, SIGINT: 130, SIGHUP: 129 };
  for (const signal of ["SIGHUP", "SIGTERM", "SIGINT"] as const) {
    await Deno.writeTextFile(pids, "");
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), "build", "--stdout", "--no-server"],
      cwd: root,
      env: { NO_COLOR: "1", PATH: `${bin}:${Deno.env.get("PATH")}` },
      stdout: "null",
      stderr: "null",
    }).spawn();
    const started = await waitFor(
      () => Deno.readTextFileSync(pids).split("\n").filter(Boolean).length >= lines,
      60_000,
    );
    assert.ok(started, `${signal}: ${what} never started`);
    const waiting = Deno.readTextFileSync(pids).trim().split("\n").map(Number);
    child.kill(signal);
    const status = await child.status;
    assert.equal(status.code, codes[signal], signal);
    const gone = await waitFor(() => !waiting.some(alive), 5000);
    for (const pid of waiting.filter(alive)) Deno.kill(pid, "SIGKILL");
    assert.ok(gone, `${signal}: ${what} ${waiting.join(", ")} still running after slop ended`);
  }
}

/**
 * A folder holding an executable `name` that writes its process id to `pids` and waits; with
 * `background`, it first starts a `sleep` in the background (a hook's daemon) and writes its id.
 */
async function waitingCommand(
  name: string,
  options: { background?: boolean } = {},
): Promise<{ bin: string; pids: string }> {
  const bin = await tempDir({ prefix: `slop_fake_${name}_` });
  const pids = join(bin, "pids");
  const daemon = options.background ? `sleep 600 &\necho $! >> "${pids}"\n` : "";
  await Deno.writeTextFile(
    join(bin, name),
    `#!/bin/sh\n${daemon}echo $$ >> "${pids}"\nexec sleep 600\n`,
  );
  await Deno.chmod(join(bin, name), 0o755);
  return { bin, pids };
}

/**
 * slop stopped by a signal sent to it alone (`kill PID`, a supervisor's SIGTERM, SIGHUP), while
 * a git it runs waits (a git wrapper or hook that never answers, a FIFO): git ends with slop, and
 * slop ends as the signal says. The git went on for good, reparented to init.
 */
Deno.test("a git slop runs ends when slop is stopped by SIGTERM, SIGINT or SIGHUP", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  await gitInit(root);
  // A git that waits without end (the listing's deadline is 30 s).
  await stopWhileChildWaits(root, await waitingCommand("git"), "git");
});

/**
 * The same for the Beads section's `bd list --json --all` (a `bd` waiting on its database's lock
 * or its daemon): it went on for good after slop ended.
 */
Deno.test("a bd slop runs ends when slop is stopped by SIGTERM, SIGINT or SIGHUP", async () => {
  const root = await makeProject({
    "a.ts": "export const a = 1;\n",
    ".beads/issues.jsonl": '{"id":"bd-1","title":"A","status":"open"}\n',
  });
  await stopWhileChildWaits(root, await waitingCommand("bd"), "bd");
});

/**
 * What a git or bd slop runs starts in the background (a hook's daemon, a wrapper's helper) ends
 * with it when slop is stopped: each child leads a process group of its own, stopped whole. The
 * background process went on for good.
 */
Deno.test("what a git or bd slop runs starts in the background ends when slop is stopped", async () => {
  const root = await makeProject({
    "a.ts": "export const a = 1;\n",
    ".beads/issues.jsonl": '{"id":"bd-1","title":"A","status":"open"}\n',
  });
  await gitInit(root);
  const git = await waitingCommand("git", { background: true });
  await stopWhileChildWaits(root, { ...git, lines: 2 }, "git and its background sleep");
  await Deno.remove(join(root, ".git"), { recursive: true });
  const bd = await waitingCommand("bd", { background: true });
  await stopWhileChildWaits(root, { ...bd, lines: 2 }, "bd and its background sleep");
});
