import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, makeProject, REPO } from "../_helpers.ts";
import { SLOP_V8_FLAGS } from "../../cli/_v8_flags.ts";

const FULL = "/dev/full";
const hasFull = (() => {
  try {
    return !Deno.statSync(FULL).isFile;
  } catch {
    return false;
  }
})();

/** `slop <args>` in `cwd` with stdout on /dev/full (every write fails: no space left on device). */
async function toFullDevice(args: string[], cwd: string) {
  const deno = [Deno.execPath(), "run", "-A", "--quiet", SLOP_V8_FLAGS, join(REPO, "cli.ts")];
  const out = await new Deno.Command("sh", {
    args: ["-c", 'exec "$@" >/dev/full', "sh", ...deno, ...args],
    cwd,
    clearEnv: true,
    env: childEnv(),
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test({
  name:
    "stdout that takes no writes (a full disk, /dev/full) is one line naming it and exit 1, not a crash report",
  ignore: !hasFull,
  fn: async () => {
    const root = await makeProject({ "a.py": "x = 1\n" });
    // The document a piece at a time, console.log, and the help text: the three ways out.
    for (const args of [["build", "--stdout", "--quiet"], ["cache", "stats"], ["--help"]]) {
      const run = await toFullDevice(args, root);
      assert.equal(run.code, 1, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(
        run.stderr,
        'slop: Cannot write to stdout ("/dev/full"): No space left on device; what was printed ' +
          "is cut short\n",
        args.join(" "),
      );
    }
    await Deno.remove(root, { recursive: true });
  },
});
