import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { publish } from "../../pipeline/emit.ts";
import { makeProject, runCliShared, tempDir } from "../_helpers.ts";

// A folder no one can make: /sys takes no new folders, for root too (EPERM; EACCES for others),
// as a read-only checkout, a container's read-only mount or a full disk take no writes.
const UNWRITABLE = "/sys/slop_state";
const REFUSED = "(operation not permitted|permission denied)";

Deno.test({
  name:
    "a read-only or full state dir: --stdout still prints the document, with one warning; a written build says what to do",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const root = await makeProject({ "a.ts": "export const a = 1;\n", "b.md": "# B\n" });
    const piped = await runCliShared(["build", "--stdout", "--state-dir", UNWRITABLE], root);
    assert.equal(piped.code, 0, piped.stderr);
    const warnings = piped.stderr.split("\n").filter((l) => l.startsWith("warning:"));
    assert.equal(warnings.length, 1, piped.stderr);
    assert.match(
      warnings[0],
      new RegExp(
        `^warning: Cannot record the order memory in "${UNWRITABLE}" \\(${REFUSED}\\): the ` +
          "document is whole, but the next build orders the files without this one; pass " +
          "--state-dir or set SLOP_DIR to a folder you can write$",
      ),
    );

    const written = await runCliShared(["build", "--state-dir", UNWRITABLE], root);
    assert.equal(written.code, 1);
    assert.match(
      written.stderr,
      new RegExp(
        `^slop: Cannot create the output folder "${UNWRITABLE}/out": ${REFUSED}: print the ` +
          "document with --stdout, or pass --state-dir to a folder you can write\n$",
        "i",
      ),
    );
    // A file where the state dir should be: the same warning, with its reason.
    const onFile = await runCliShared(["build", "--stdout", "--state-dir", "b.md"], root);
    assert.equal(onFile.code, 0, onFile.stderr);
    assert.match(onFile.stdout, /^### a\.ts$/m); // b.md, the state dir, is slop's own: left out
    assert.match(
      onFile.stderr,
      /^warning: Cannot record the order memory in "b\.md" \(not a directory\): /m,
    );
    // The same document as a build that can write its state.
    assert.equal(piped.stdout, (await buildContext({ cwd: root }, { write: false })).document);
  },
});

Deno.test({
  name:
    "an output folder that exists but takes no writes is named as one that cannot be made, with what to do",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const root = await makeProject({
      "a.ts": "export const a = 1;\n",
      "slop.config.ts": 'export default { output: { dir: "/sys/kernel" } };\n',
    });
    const written = await runCliShared(["build"], root);
    assert.equal(written.code, 1);
    assert.match(
      written.stderr,
      new RegExp(
        // The folder the config names: its key, and the key to change (`--state-dir` does not
        // move it).
        `^slop: Cannot write to the output folder "/sys/kernel" \\("output.dir"\\): ${REFUSED}: ` +
          'print the document with --stdout, or set "output.dir" to a folder you can write\n$',
        "i",
      ),
    );
  },
});

Deno.test("a manifest that cannot be written (a full disk) takes its document with it: no output without a manifest", async () => {
  const dir = await tempDir();
  const full = () => {
    throw Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
  };
  await assert.rejects(
    () => publish("doc\n", { dir, namespace: "context", manifestFor: full, root: dir }),
    /No space left/,
  );
  const left = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => !n.startsWith("."));
  assert.deepEqual(left, []);
  // The next build publishes whole, under a number of its own.
  const next = await publish("doc\n", {
    dir,
    namespace: "context",
    manifestFor: (output) => ({ output }) as never,
    root: dir,
  });
  assert.ok(Deno.statSync(next.document).isFile && Deno.statSync(next.manifest).isFile);
});

Deno.test({
  name:
    "a cache folder slop cannot use (a file in its place, a file above it, no writes): one warning naming it, the same document, nothing removed",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const root = await makeProject({ "a.ts": "export const a = 1;\n", ".slop/cache": "mine\n" });
    const fresh = await makeProject({ "a.ts": "export const a = 1;\n" });
    const expected = (await buildContext({ cwd: fresh }, { write: false })).document;
    const warned = async (dir?: string) => {
      const abs = dir && (dir.startsWith("/") ? dir : `${root}/${dir}`);
      const inline = abs ? { cache: { dir: abs } } : undefined;
      const built = await buildContext({ cwd: root, inline }, { write: false });
      assert.equal(built.document, expected);
      const found = built.manifest.warnings.filter((w) => w.includes("cache folder"));
      assert.equal(found.length, 1, built.manifest.warnings.join("\n"));
      return found[0];
    };
    const hint = ": the document is whole, but every build renders and counts every file anew; " +
      "move what is in its place away, or set cache.dir (or pass --state-dir) to a folder you can write";
    assert.equal(
      await warned(),
      `Cannot use the cache folder ".slop/cache" (not a directory)${hint}`,
    );
    assert.equal(
      await warned("a.ts/cache"),
      `Cannot use the cache folder "a.ts/cache" (a file is where a folder of its path should be)${hint}`,
    );
    assert.match(
      await warned("/sys/kernel"),
      new RegExp(`^Cannot use the cache folder "/sys/kernel" \\(${REFUSED}\\): `, "i"),
    );
    // `slop cache clear` leaves a file in the cache folder's place as it is.
    assert.equal((await runCliShared(["cache", "clear"], root)).code, 0);
    assert.equal(await Deno.readTextFile(`${root}/.slop/cache`), "mine\n");
    // The cache turned off: nothing to warn of.
    const inline = { cache: { dir: "/sys/kernel", enabled: false } };
    const off = await buildContext({ cwd: root, inline }, { write: false });
    assert.deepEqual(off.manifest.warnings.filter((w) => w.includes("cache folder")), []);
  },
});

Deno.test("a folder in the place of the order or budget memory file: one warning, the same document", async () => {
  const tree = {
    "a.ts": "export const a = 1;\n",
    "b.ts": `export const b = "${"b".repeat(4000)}";\n`,
  };
  const inline = { budget: { tokens: 600 } };
  const expected = (await buildContext({ cwd: await makeProject(tree), inline }, { write: false }))
    .document;
  for (const memory of ["order", "budget"]) {
    const root = await makeProject(tree);
    await Deno.mkdir(`${root}/.slop/${memory}/context.json/x`, { recursive: true });
    const built = await buildContext({ cwd: root, inline }, { write: false });
    assert.equal(built.document, expected, memory);
    assert.deepEqual(
      built.manifest.warnings.filter((w) => w.startsWith("Cannot record")),
      [
        'Cannot record the order memory in ".slop" (a folder is in the place of one of its files): ' +
        "the document is whole, but the next build orders the files without this one; pass " +
        "--state-dir or set SLOP_DIR to a folder you can write",
      ],
      memory,
    );
  }
});

Deno.test("a state dir whose name is too long for the file system (over 255 bytes): one warning, the same document", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const expected = (await buildContext({ cwd: root }, { write: false })).document;
  const stateDir = `${root}/${"s".repeat(300)}`;
  const built = await buildContext({ cwd: root, stateDir }, { write: false });
  assert.equal(built.document, expected);
  assert.deepEqual(built.manifest.warnings.filter((w) => w.startsWith("Cannot record")), [
    `Cannot record the order memory in "${
      "s".repeat(300)
    }" (file name too long): the document is ` +
    "whole, but the next build orders the files without this one; pass --state-dir or set " +
    "SLOP_DIR to a folder you can write",
  ]);
  await Deno.remove(root, { recursive: true });
});

/** Whether this process may run a command as another user (root, with util-linux's setpriv). */
function canDropToNobody(): boolean {
  if (Deno.uid() !== 0) return false;
  try {
    return new Deno.Command("setpriv", { args: ["--version"], stdout: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

Deno.test({
  name:
    "a umask without the owner's write: one line naming the state dir and the umask, the folder not left behind",
  // Root writes any folder: the build runs as another user (or as this one, not root).
  ignore: Deno.build.os !== "linux" || (Deno.uid() === 0 && !canDropToNobody()),
  fn: async () => {
    const root = await makeProject({ "a.ts": "export const a = 1;\n" });
    const home = await tempDir({ prefix: "slop_home_" });
    await Deno.chmod(root, 0o777);
    await Deno.chmod(home, 0o777);
    const cli = new URL("../../cli.ts", import.meta.url).pathname;
    const drop = Deno.uid() === 0
      ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
      : [];
    for (const flags of [[], ["--stdout"]]) {
      const line = `umask 0277; exec "$0" run -A --quiet "$1" build ${flags.join(" ")}`;
      const [command, ...args] = [...drop, "sh", "-c", line, Deno.execPath(), cli];
      const out = await new Deno.Command(command, {
        args,
        cwd: root,
        env: { HOME: home, NO_COLOR: "1" },
        stdout: "null",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 1, stderr);
      assert.equal(
        stderr,
        'slop: Cannot use the state dir ".slop": the umask (0277) made it without write ' +
          "permission for its owner, so slop cannot write its outputs, cache or order memory in " +
          "it: set a umask that keeps it (umask 022), or pass --state-dir to a folder you can " +
          "write\n",
      );
      assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["a.ts"]);
    }
  },
});
