import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { makeProject, runCliShared } from "../_helpers.ts";

/** Bytes of a binary file: NUL bytes and other controls among random-looking bytes. */
function binaryBytes(nul: boolean): Uint8Array {
  const bytes = new Uint8Array(3000);
  let x = 7;
  for (let i = 0; i < bytes.length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    bytes[i] = (x >> 16) & 0xff;
    if (!nul && bytes[i] === 0) bytes[i] = 1;
  }
  return bytes;
}

/**
 * Texts slop puts into the document as they are: a knowledge digest and a task file that were
 * binary (an image saved as `digest.md`, a PDF given as `--task-file`) went into the prompt, NUL
 * bytes and all, where a project file of those bytes is skipped as binary. Each is refused with
 * one line naming it; a digest in an older encoding (a few stray bytes) is still read.
 */
Deno.test("a binary knowledge digest or task file is refused naming it; a digest in Latin-1 is read", async () => {
  for (const nul of [true, false]) {
    const root = await makeProject({ "a.ts": "export const a = 1;\n" });
    await Deno.mkdir(join(root, "slop", "knowledge"), { recursive: true });
    await Deno.writeFile(join(root, "slop", "knowledge", "digest.md"), binaryBytes(nul));
    const reason = nul ? "binary file" : "binary file (not valid UTF-8)";
    await assert.rejects(
      buildContext({ cwd: root, inline: { files: ["a.ts"] } }, { write: false }),
      (error: Error) => {
        assert.ok(
          error.message.endsWith(
            `Cannot read the knowledge digest "${root}/slop/knowledge/digest.md": ${reason}`,
          ),
          error.message,
        );
        return true;
      },
    );
    await Deno.remove(join(root, "slop"), { recursive: true });
    // A task file's bytes must be UTF-8: one with NUL bytes among ASCII is the binary one.
    if (!nul) continue;
    await Deno.writeFile(join(root, "task.bin"), binaryBytes(nul).filter((b) => b < 0x80));
    const run = await runCliShared(
      ["build", "--stdout", "--no-server", "--task-file", "task.bin"],
      root,
    );
    assert.equal(run.code, 2, run.stderr);
    assert.equal(
      run.stderr,
      `slop: Cannot read the task file "task.bin" (--task-file): binary file\n`,
    );
  }
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  await Deno.mkdir(join(root, "slop", "knowledge"), { recursive: true });
  const latin1 = new Uint8Array([...new TextEncoder().encode("# Notes\n\nCaf"), 0xe9, 0x0a]);
  await Deno.writeFile(join(root, "slop", "knowledge", "digest.md"), latin1);
  const result = await buildContext({ cwd: root, inline: { files: ["a.ts"] } }, { write: false });
  assert.ok(result.document.includes("# Notes\n\nCaf\uFFFD\n"), result.document);
});
