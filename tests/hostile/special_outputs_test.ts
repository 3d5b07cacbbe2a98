// Outputs aimed at a device or FIFO (`slop report --out /dev/null`, a named pipe a reader waits
// on) are written into it, never replaced: slop's writers rename a finished temp file over their
// target, which for `/dev/null` run as root left a plain file there for every other program.
// Tested on FIFOs in a temp folder, so a regression cannot break the machine's own devices.
import assert from "node:assert/strict";
import { join } from "node:path";
import { gitInit, makeProject, runCliShared, tempDir } from "../_helpers.ts";
import { writeAtomic, writeAtomicPiecesSync, writeAtomicSync } from "../../pipeline/helpers.ts";

/**
 * A FIFO at `path` with `cat` reading it in a child process, and `collect`, which waits for what
 * `cat` read, or stops it when the FIFO is no longer there (a writer that replaced it never opens
 * it, and `cat` would wait forever).
 */
async function fifoWithReader(path: string): Promise<{ collect(): Promise<string> }> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(made.success, "mkfifo failed");
  const cat = new Deno.Command("cat", { args: [path], stdout: "piped" }).spawn();
  return {
    async collect() {
      const replaced = !Deno.lstatSync(path).isFifo;
      if (replaced) cat.kill("SIGKILL");
      const out = await cat.output();
      assert.ok(!replaced, "the FIFO was replaced by a plain file");
      return new TextDecoder().decode(out.stdout);
    },
  };
}

Deno.test({
  name: "the write helpers write into a FIFO and leave it a FIFO",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await tempDir();
    const writers: [string, (path: string) => Promise<void> | void][] = [
      ["async", (path) => writeAtomic(path, "one\n")],
      ["sync", (path) => writeAtomicSync(path, "one\n")],
      ["pieces", (path) => writeAtomicPiecesSync(path, ["o", "ne\n"])],
    ];
    for (const [name, write] of writers) {
      const path = join(dir, `pipe-${name}`);
      const reader = await fifoWithReader(path);
      await write(path);
      assert.equal(await reader.collect(), "one\n", name);
      assert.deepEqual(
        [...Deno.readDirSync(dir)].map((entry) => entry.name).filter((n) => n.endsWith(".tmp")),
        [],
        `${name}: a temp file was left`,
      );
    }
  },
});

Deno.test({
  name: "slop report --out a FIFO writes the page into it and leaves the FIFO in place",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const root = await makeProject({ "a.ts": "export const a = 1;\n" });
    await gitInit(root);
    const out = join(await tempDir(), "page");
    const reader = await fifoWithReader(out);
    const run = await runCliShared(["report", "--build", "--out", out, "--quiet"], root);
    assert.equal(run.code, 0, run.stderr);
    assert.match(await reader.collect(), /^<!doctype html>/i);
  },
});
